"""Golden digests of the service's answers: what it says today, frozen so that a refactoring that
changes one byte of one answer is caught.

For each ``(variant, kind)`` a fixed, deterministic list of requests is sent to the app in-process,
through httpx's ASGI transport (its whole ASGI stack: the fast lane, the routes, the middleware,
the rendering), and each answer is reduced to bytes: its status, the headers a client reads
(:data:`HEADERS`) and its body. Every request asks for gzip, so whether an answer is compressed is
kept (``Content-Encoding``, ``Vary``, a weak ``ETag``), but the body digested is the decoded one,
not the compressor's bytes. The MCP tools are called through the app's ``/mcp`` endpoint by the
SDK's client, and their text content is what is digested. Answers drawn at random without a seed
(``no-store``) are left out; seeded ones are in.

The kinds (:func:`kinds`), in every variant: best moves by ``POST`` and by ``GET``, analyses by
``POST`` and by ``GET`` (finished boards included), seeded best moves with each option, batches,
reviews of seeded random games, refusals (``422`` answers) and the MCP tools' texts; in the
standard game also the puzzle book (every page, every puzzle, seeded draws) and ``304`` answers;
and once, ``GET /v1/variants``, ``GET /openapi.json`` and the MCP lists. Best moves and analyses
are exhaustive in the standard game and single-board Notakto (every legal position with each side
the rules allow to move, by ``POST`` and by ``GET``) and in Misère (by ``GET``; by ``POST`` an
even sample of 2,000); the larger variants are sampled by seeded random play of the tests'
independent oracle (:mod:`tests.support.variant_games`, :mod:`tests.support.variant_oracle`), a
tenth as many finished boards added for the analyses. :data:`SIZES` says how much of each.

A kind's digest is the SHA-256 over its answers' digests in order, stored with their count, a
SHA-256 over its requests (which tells a changed sample from changed answers) and a short digest
per chunk of :data:`CHUNK` answers, which locates the first answers that differ. They are stored
in :data:`GOLDEN`; ``tests/api/test_golden.py`` compares. The commands::

    .venv/bin/python -m tests.support.golden --write            # regenerate the file, deliberately
    .venv/bin/python -m tests.support.golden --check [KEY ...]   # compare; print what differs
    .venv/bin/python -m tests.support.golden --show KEY --start N [--count M]   # requests, answers
    .venv/bin/python -m tests.support.golden --list             # the keys and their counts

``--golden PATH`` reads or writes another file than :data:`GOLDEN`. ``--show`` prints a chunk's
requests with the answers of the checkout it runs in: run it in the last commit whose answers
matched too, and compare, to see which answer changed and how.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import random
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

import httpx
import httpx2
from fastapi import FastAPI
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.types import TextContent
from pydantic import BaseModel

from service.settings import Settings
from service.web.app import create_app
from tests.support import ROOT
from tests.support.variant_games import game_moves, variant_positions
from tests.support.variant_oracle import VARIANTS as RULES
from tests.support.variant_oracle import Rules

#: Where the digests are stored.
GOLDEN = ROOT / "tests" / "golden" / "answers.json"
#: How many answers a chunk digest covers.
CHUNK = 100
#: The headers of an answer that are digested, in this order (an absent one as empty).
HEADERS = (
    "content-type",
    "content-encoding",
    "content-language",
    "cache-control",
    "etag",
    "vary",
    "allow",
    "location",
)
#: What every request sends besides its own headers.
REQUEST_HEADERS = {"accept": "*/*", "accept-encoding": "gzip", "user-agent": "golden"}
BASE = "http://testserver"
MCP_PATH = "/mcp"
#: The variants, in the order of ``GET /v1/variants``.
VARIANTS = ("standard", "misere", "wild", "notakto", "notakto-2", "notakto-3", "4x4", "4x4-3")
#: Not a variant: the kinds that are about the whole service.
ANY = "any"
LEVELS = ("beginner", "easy", "medium", "hard", "perfect")
#: The puzzle themes today (``GET /v1/puzzles?theme=``).
THEMES = ("win", "block", "fork", "threat", "block_fork")
#: The seed of every sample.
SEED = 20240601


@dataclass(frozen=True)
class Size:
    """How much of a variant is asked."""

    #: Positions asked by ``GET``: ``None`` for every one.
    positions: int | None
    #: Of those, how many are asked by ``POST`` too, spread evenly: ``None`` for all.
    posts: int | None
    #: Boards asked with each option of ``POST /v1/best-move``.
    options: int
    #: Games reviewed.
    reviews: int
    #: Positions whose answers by the MCP tools are digested.
    tools: int = 12


SIZES = {
    "standard": Size(None, None, 200, 2000, 24),
    "misere": Size(None, 2000, 100, 400),
    "wild": Size(2000, None, 80, 300),
    "notakto": Size(None, None, 80, 300),
    "notakto-2": Size(1500, None, 60, 200),
    "notakto-3": Size(1500, None, 50, 120),
    "4x4": Size(1500, None, 60, 300),
    "4x4-3": Size(1500, None, 60, 300),
}

Answer = tuple[str, bytes]
"""A request as text, and the bytes of its answer that are digested."""


# --- asking ----------------------------------------------------------------------------------------


def request_text(method: str, url: str, body: object, headers: Mapping[str, str]) -> str:
    said = f"{method} {url}"
    if body is not None:
        said += " " + json.dumps(body, separators=(",", ":"), ensure_ascii=False)
    for name, value in headers.items():
        said += f" [{name}: {value}]"
    return said


def answer_bytes(response: httpx.Response) -> bytes:
    """The status, the headers of :data:`HEADERS` and the (decoded) body of an answer."""
    head = [str(response.status_code)] + [f"{name}: {response.headers.get(name, '')}" for name in HEADERS]
    return "\n".join(head).encode() + b"\n\n" + response.content


def url_of(path: str, params: Mapping[str, object] | None = None) -> str:
    if not params:
        return path
    return path + "?" + urlencode({name: str(value) for name, value in params.items()})


class Session:
    """The app in-process, its lifespan running: plain HTTP through httpx's ASGI transport, and the MCP
    SDK's client.

    Requests go to the transport itself, without an ``httpx.AsyncClient`` around it: the client's
    URL merging, cookie jar, authentication and redirect layers would cost more than the app's own
    work on the tens of thousands of requests asked, and none of them changes a request here.
    """

    def __init__(self, app: FastAPI) -> None:
        self.app = app
        self.transport = httpx.ASGITransport(app=app)

    async def ask(
        self,
        method: str,
        url: str,
        body: object = None,
        headers: Mapping[str, str] | None = None,
    ) -> tuple[Answer, httpx.Response]:
        extra = dict(headers or {})
        sent = {**REQUEST_HEADERS, **extra}
        if body is None:
            request = httpx.Request(method, BASE + url, headers=sent)
        else:
            request = httpx.Request(method, BASE + url, headers=sent, json=body)
        response = await self.transport.handle_async_request(request)
        await response.aread()
        return (request_text(method, url, body, extra), answer_bytes(response)), response

    async def answers(self, calls: Sequence[tuple[str, str, object]]) -> list[Answer]:
        return [(await self.ask(method, url, body))[0] for method, url, body in calls]

    @asynccontextmanager
    async def tools(self) -> AsyncIterator[Client]:
        """The MCP SDK's client on the app's ``/mcp`` endpoint (the initialize handshake)."""
        transport = httpx2.ASGITransport(app=self.app)
        async with (
            httpx2.AsyncClient(transport=transport, base_url=BASE, timeout=30) as http,
            Client(
                streamable_http_client(f"{BASE}{MCP_PATH}", http_client=http),
                mode="legacy",
                read_timeout_seconds=30,
            ) as client,
        ):
            yield client


@asynccontextmanager
async def session() -> AsyncIterator[Session]:
    """A fresh app, as the service runs it, quiet, its lifespan running."""
    app = create_app(Settings(log_level="warning"))
    async with app.router.lifespan_context(app):
        yield Session(app)


# --- positions ----------------------------------------------------------------------------------------

Position = tuple[str, str]
"""A board string and the side to move."""


def rules(variant: str) -> Rules:
    return RULES[variant]


def cells_of(variant: str) -> int:
    return rules(variant).width * rules(variant).boards


def firsts(variant: str) -> list[str]:
    return ["X", "O"] if rules(variant).marks == "own" else ["first"]


@cache
def unfinished(variant: str) -> tuple[Position, ...]:
    """The unfinished positions asked for a best move: every one, or a sample by seeded play."""
    size = SIZES[variant].positions
    if size is None:
        found: set[Position] = set()
        for first in firsts(variant):
            found.update(rules(variant).reachable(first))
        return tuple(sorted(found))
    return tuple(variant_positions(variant, size, seed=SEED))


def playout(variant: str, rng: random.Random) -> list[Position]:
    """The positions of a game of uniformly random moves from the empty board, the last one finished."""
    game = rules(variant)
    cells, mover = game.start(), rng.choice(firsts(variant))
    seen = [(cells, mover)]
    while True:
        cells, ended = game.after(cells, rng.choice(list(game.moves(cells, mover))))
        mover = game.other(mover)
        seen.append((cells, mover))
        if ended is not None:
            return seen


@cache
def analysed(variant: str) -> tuple[Position, ...]:
    """The positions asked for an analysis: every one, finished or not, or the sample of
    :func:`unfinished` and a tenth as many finished boards, the ends of seeded random games."""
    size = SIZES[variant].positions
    if size is None:
        found: set[Position] = set()
        for first in firsts(variant):
            found.update(rules(variant).games(first))
        return tuple(sorted(found))
    rng, ends = random.Random(SEED), dict[Position, None]()
    for _ in range(100 * size):
        if len(ends) == size // 10:
            break
        ends[playout(variant, rng)[-1]] = None
    return unfinished(variant) + tuple(ends)


def sample(positions: Sequence[Position], count: int) -> list[Position]:
    """``count`` positions spread evenly over ``positions``."""
    if count >= len(positions):
        return list(positions)
    return [positions[i * len(positions) // count] for i in range(count)]


def is_finished(variant: str, position: Position) -> bool:
    """Whether the game is over: the side to move has no move."""
    return next(rules(variant).moves(*position), None) is None


def form(variant: str, board: str, index: int) -> object:
    """The board in one of the request forms its variant takes, in turn."""
    game = rules(variant)
    if game.boards > 1 or index % 3 == 0:
        return board
    cells = [None if ch == "." else ch for ch in board]
    if index % 3 == 1:
        return cells
    return [cells[row * game.size : (row + 1) * game.size] for row in range(game.size)]


def with_variant(variant: str, body: dict[str, object]) -> dict[str, object]:
    return body if variant == "standard" else {"variant": variant, **body}


def query(variant: str, **params: object) -> dict[str, object]:
    return {name: value for name, value in with_variant(variant, params).items() if value is not None}


def says_player(variant: str, board: str, index: int) -> bool:
    """Whether a request names the side to move: always when the counts leave it open, else in turn."""
    if rules(variant).marks == "own" and board.count("X") == board.count("O"):
        return True
    return index % 2 == 1


# --- the kinds -------------------------------------------------------------------------------------------


def posted(variant: str, positions: Sequence[Position]) -> list[Position]:
    """The positions asked by ``POST``: all those asked by ``GET``, or an even sample of them."""
    count = SIZES[variant].posts
    return list(positions) if count is None else sample(positions, count)


async def best_move_post(s: Session, variant: str) -> list[Answer]:
    calls = []
    for index, (board, side) in enumerate(posted(variant, unfinished(variant))):
        body: dict[str, object] = {"board": form(variant, board, index)}
        if says_player(variant, board, index):
            body["player"] = side
        calls.append(("POST", "/v1/best-move", with_variant(variant, body)))
    return await s.answers(calls)


async def best_move_get(s: Session, variant: str) -> list[Answer]:
    return await s.answers(
        [
            ("GET", url_of("/v1/best-move", query(variant, board=board, player=side)), None)
            for board, side in unfinished(variant)
        ]
    )


async def analysis_post(s: Session, variant: str) -> list[Answer]:
    return await s.answers(
        [
            (
                "POST",
                "/v1/analysis",
                with_variant(variant, {"board": form(variant, board, i), "player": side}),
            )
            for i, (board, side) in enumerate(posted(variant, analysed(variant)))
        ]
    )


async def analysis_get(s: Session, variant: str) -> list[Answer]:
    return await s.answers(
        [
            ("GET", url_of(f"/v1/positions/{board}", query(variant, player=side)), None)
            for board, side in analysed(variant)
        ]
    )


def options(variant: str) -> list[dict[str, object]]:
    """Each option of ``POST /v1/best-move`` the variant takes, alone or in a few combinations."""
    found: list[dict[str, object]] = [{"level": level} for level in LEVELS]
    found += [{"depth": depth} for depth in range(1, cells_of(variant) + 1)]
    found += [{"skill": skill} for skill in (0, 0.3, 0.7, 0.95)]
    found += [{"random": True}, {"random": True, "skill": 0.5}, {"depth": 2, "skill": 0.8}]
    if variant == "standard":  # the only variant rated today
        found += [{"rating": rating} for rating in (0, 50, 150, 250.5, 350, 450, 493)]
    return found


async def best_move_options(s: Session, variant: str) -> list[Answer]:
    calls = []
    chosen = options(variant)
    for index, (board, side) in enumerate(sample(unfinished(variant), SIZES[variant].options)):
        for number, option in enumerate(chosen):
            body = {"board": board, "player": side, **option, "seed": index * 100 + number}
            calls.append(("POST", "/v1/best-move", with_variant(variant, body)))
    return await s.answers(calls)


async def best_move_batch(s: Session, variant: str) -> list[Answer]:
    """Five batches of 100 items: plain, and every other one with an option and a seed."""
    chosen, positions = options(variant), sample(unfinished(variant), 500)
    calls: list[tuple[str, str, object]] = []
    for batch in range(0, len(positions), 100):
        items = []
        for index, (board, side) in enumerate(positions[batch : batch + 100], start=batch):
            item = with_variant(variant, {"board": board, "player": side})
            if index % 2:
                item |= chosen[index % len(chosen)] | {"seed": index}
            items.append(item)
        calls.append(("POST", "/v1/best-move/batch", {"items": items}))
    return await s.answers(calls)


def random_game(variant: str, rng: random.Random) -> dict[str, object]:
    """A review's body: a game of uniformly random moves of random length, from the empty board (the
    first side chosen at random) or, one time in four, from a position of the sample."""
    game = rules(variant)
    body: dict[str, object] = {}
    if rng.random() < 0.25:
        cells, mover = rng.choice(unfinished(variant))
        body |= {"board": cells, "player": mover}
    else:
        cells, mover = game.start(), rng.choice(firsts(variant))
        if mover != firsts(variant)[0]:
            body["player"] = mover
    length = rng.randint(1, cells.count("."))
    played: list[tuple[int, str]] = []
    while len(played) < length:
        move = rng.choice(list(game.moves(cells, mover)))
        played.append(move)
        cells, ended = game.after(cells, move)
        if ended is not None:
            break
        mover = game.other(mover)
    return with_variant(variant, {"moves": game_moves(variant, played), **body})


async def review(s: Session, variant: str) -> list[Answer]:
    rng = random.Random(SEED)
    games = [random_game(variant, rng) for _ in range(SIZES[variant].reviews)]
    return await s.answers([("POST", "/v1/review", game) for game in games])


def unreachable(variant: str) -> str:
    """A board of the variant's symbols that no game reaches: two lines with no common cell."""
    game = rules(variant)
    if game.marks == "x_only":
        return "XXX...XXX" + "." * 9 * (game.boards - 1)
    line = game.line
    return (
        ("X" * line + "." * (game.size - line))
        + ("O" * line + "." * (game.size - line))
        + "." * (game.width - 2 * game.size)
    )


async def refusals(s: Session, variant: str) -> list[Answer]:
    """Answers that refuse: a board of the wrong length, an unknown symbol, a finished board, a side
    that contradicts the counts, an unreachable board, an option out of range or in conflict, an
    illegal move in a review, in each form of request."""
    cells = cells_of(variant)
    empty = "." * cells
    ended = next(position for position in analysed(variant) if is_finished(variant, position))
    boards = [empty + ".", empty[:-1] + "Z", unreachable(variant), ended[0]]
    calls: list[tuple[str, str, object]] = []
    for board in boards:
        calls.append(("POST", "/v1/best-move", with_variant(variant, {"board": board})))
        calls.append(("GET", url_of("/v1/best-move", query(variant, board=board)), None))
        calls.append(("POST", "/v1/analysis", with_variant(variant, {"board": board})))
        calls.append(("GET", url_of(f"/v1/positions/{quote(board)}", query(variant)), None))
    first_move = "X" + empty[1:]
    bodies: tuple[dict[str, object], ...] = (
        {"board": first_move, "player": firsts(variant)[0]},
        {"board": empty, "player": "nobody"},
        {"board": empty, "depth": cells + 1},
        {"board": empty, "depth": 0},
        {"board": empty, "level": "easy", "depth": 2},
        {"board": empty, "skill": 1.5},
        {"board": empty, "rating": 100, "seed": 1},
        {"board": empty, "rating": 10_000},
        {"board": empty, "seed": 1.5},
        {"board": empty, "colour": "blue"},
    )
    for body in bodies:
        calls.append(("POST", "/v1/best-move", with_variant(variant, body)))
    wrong = query(variant, board=first_move, player=firsts(variant)[0])
    calls.append(("GET", url_of("/v1/best-move", wrong), None))
    calls.append(("GET", url_of("/v1/best-move", query(variant, board=empty, level="easy")), None))
    calls.append(
        ("POST", "/v1/best-move/batch", {"items": [with_variant(variant, {"board": b}) for b in boards]})
    )
    games: tuple[dict[str, object], ...] = (
        {"moves": [0, 0]},
        {"moves": [cells]},
        {"moves": list(range(cells + 1))},
        {"moves": [{"position": 0, "mark": "X"}, {"position": 0, "mark": "O"}]},
        {"moves": [0], "board": ended[0]},
    )
    for body in games:
        calls.append(("POST", "/v1/review", with_variant(variant, body)))
    return await s.answers(calls)


async def puzzle_pages(s: Session) -> list[Answer]:
    """Every page of the book, and of some filtered views of it, following ``next``."""
    found: list[Answer] = []
    views: list[dict[str, object]] = [{}, {"limit": 100}, {"limit": 7}]
    views += [{"theme": theme, "limit": 50} for theme in THEMES]
    views += [{"outcome": outcome, "limit": 50} for outcome in ("win", "draw")]
    views += [{"min_rating": 100, "max_rating": 300, "limit": 50}, {"min_rating": 400}]
    for view in views:
        cursor: object = None
        while True:
            answer, response = await s.ask(
                "GET", url_of("/v1/puzzles", {**view, "cursor": cursor} if cursor else view)
            )
            found.append(answer)
            cursor = response.json()["next"]
            if cursor is None:
                break
    return found


async def puzzle_ids(s: Session) -> list[str]:
    ids: list[str] = []
    cursor: object = None
    while True:
        _, response = await s.ask(
            "GET", url_of("/v1/puzzles", {"limit": 100, "cursor": cursor} if cursor else {"limit": 100})
        )
        page = response.json()
        ids += [puzzle["id"] for puzzle in page["puzzles"]]
        cursor = page["next"]
        if cursor is None:
            return ids


async def puzzles(s: Session) -> list[Answer]:
    """Each puzzle by its id, and ids that are none: a turned board, an unknown one."""
    ids = await puzzle_ids(s)
    turned = ids[0][6:9] + ids[0][3:6] + ids[0][0:3] + ids[0][9:]
    calls = [("GET", f"/v1/puzzles/{quote(id)}", None) for id in [*ids, turned, "XXXXXXXXXX", "nothing"]]
    return await s.answers(calls)


async def puzzle_draws(s: Session) -> list[Answer]:
    """Seeded draws, with each filter."""
    filters: list[dict[str, object]] = [{}, {"min_rating": 100, "max_rating": 300}, {"min_rating": 10_000}]
    filters += [{"theme": theme} for theme in THEMES]
    return await s.answers(
        [
            ("GET", url_of("/v1/puzzles/random", {**found, "seed": seed}), None)
            for found in filters
            for seed in (0, 1, 2, 99, -5, 2**63)
        ]
    )


async def not_modified(s: Session) -> list[Answer]:
    """``304`` to a client that holds the answer: its entity tag, as the ``200`` gave it."""
    urls = [url_of("/v1/best-move", {"board": b, "player": p}) for b, p in sample(unfinished("standard"), 50)]
    urls += [url_of(f"/v1/positions/{b}", {"player": p}) for b, p in sample(analysed("standard"), 50)]
    urls += ["/v1/variants", "/v1/puzzles", url_of("/v1/puzzles/random", {"seed": 3})]
    found: list[Answer] = []
    for url in urls:
        _, response = await s.ask("GET", url)
        tag = response.headers["etag"]
        for held in (tag, f'"other", {tag}', "*"):
            found.append((await s.ask("GET", url, headers={"if-none-match": held}))[0])
    return found


def tool_text(name: str, arguments: Mapping[str, object], error: bool, texts: Sequence[str]) -> Answer:
    said = f"MCP {name} " + json.dumps(arguments, separators=(",", ":"))
    return said, json.dumps({"error": error, "text": list(texts)}, ensure_ascii=False).encode()


async def mcp(s: Session, variant: str) -> list[Answer]:
    """The tools' texts: best moves (plain, with options), explanations, analyses, reviews, and in the
    standard game the puzzle tools; and a few refusals."""
    levels: list[dict[str, object]] = [{"level": level} for level in LEVELS]  # the tool's options
    if variant == "standard":
        levels += [{"rating": rating} for rating in (0, 150, 350.5, 493)]
    positions = sample(unfinished(variant), SIZES[variant].tools)
    calls: list[tuple[str, dict[str, object]]] = []
    for index, (board, side) in enumerate(positions):
        plain = with_variant(variant, {"board": form(variant, board, index), "player": side})
        calls.append(("best_move", plain))
        calls.append(("best_move", plain | levels[index % len(levels)] | {"seed": index}))
        calls.append(("explain_move", plain))
        calls.append(("analyze_position", plain))
    ended = [position for position in analysed(variant) if is_finished(variant, position)][:3]
    calls += [("analyze_position", with_variant(variant, {"board": b, "player": p})) for b, p in ended]
    rng = random.Random(SEED)
    calls += [("review_game", random_game(variant, rng)) for _ in range(SIZES[variant].tools // 2)]
    empty = "." * cells_of(variant)
    calls += [
        ("best_move", with_variant(variant, {"board": empty + "."})),
        ("best_move", with_variant(variant, {"board": empty, "depth": cells_of(variant) + 1})),
        ("analyze_position", with_variant(variant, {"board": unreachable(variant)})),
        ("review_game", with_variant(variant, {"moves": [0, 0]})),
    ]
    if ended:
        calls.append(("explain_move", with_variant(variant, {"board": ended[0][0]})))
    if variant == "standard":
        ids = await puzzle_ids(s)
        calls += [("get_puzzle", {"id": ids[i * len(ids) // 10]}) for i in range(10)]
        calls += [("get_puzzle", {"id": "nothing"})]
        views: tuple[dict[str, object], ...] = (
            {},
            {"limit": 3},
            {"theme": "fork", "limit": 5},
            {"outcome": "draw", "limit": 100},
        )
        calls += [("list_puzzles", view) for view in views]
        calls += [("list_puzzles", {"cursor": ids[19]}), ("list_puzzles", {"limit": 0})]
        calls += [("random_puzzle", {"seed": seed}) for seed in (0, 1, -5, 2**63)]
        calls += [("random_puzzle", {"seed": 2, "theme": "block", "min_rating": 100})]
    found: list[Answer] = []
    async with s.tools() as client:
        for name, arguments in calls:
            result = await client.call_tool(name, dict(arguments))
            texts = [block.text if isinstance(block, TextContent) else block.type for block in result.content]
            found.append(tool_text(name, arguments, result.is_error, texts))
    return found


async def mcp_lists(s: Session) -> list[Answer]:
    """The tools the endpoint lists, with their schemas; its prompts and resources."""
    async with s.tools() as client:
        listed: list[tuple[str, Sequence[BaseModel]]] = [
            ("MCP tools/list", (await client.list_tools()).tools),
            ("MCP prompts/list", (await client.list_prompts()).prompts),
            ("MCP resources/list", (await client.list_resources()).resources),
            ("MCP resources/templates/list", (await client.list_resource_templates()).resource_templates),
        ]
    return [
        (
            said,
            json.dumps(
                [item.model_dump(mode="json", by_alias=True, exclude_none=True) for item in items],
                ensure_ascii=False,
            ).encode(),
        )
        for said, items in listed
    ]


async def variants(s: Session) -> list[Answer]:
    return await s.answers([("GET", "/v1/variants", None)])


#: The languages answers are asked in besides English, in turn (the contract's "Languages").
LANGUAGES = ("es", "fr", "de", "pt")


async def languages(s: Session) -> list[Answer]:
    """The languages offered, and the variants said in each."""
    listed = [("GET", url_of("/v1/variants", {"lang": language}), None) for language in LANGUAGES]
    return await s.answers([("GET", "/v1/languages", None), *listed])


async def in_languages(s: Session, variant: str) -> list[Answer]:
    """Best moves, analyses and puzzle pages of a variant in each language in turn."""
    positions = sample(unfinished(variant), 400)
    turn = [LANGUAGES[index % len(LANGUAGES)] for index in range(len(positions))]
    calls: list[tuple[str, str, object]] = [
        ("GET", url_of("/v1/best-move", query(variant, board=board, player=side, lang=lang)), None)
        for (board, side), lang in zip(positions, turn, strict=True)
    ]
    calls += [
        ("GET", url_of(f"/v1/positions/{board}", query(variant, player=side, lang=lang)), None)
        for (board, side), lang in zip(sample(positions, 40), turn, strict=False)
    ]
    calls += [("GET", url_of("/v1/puzzles", query(variant, limit=5, lang=lang)), None) for lang in LANGUAGES]
    return await s.answers(calls)


async def openapi(s: Session) -> list[Answer]:
    return await s.answers([("GET", "/openapi.json", None)])


Kind = Callable[[Session], Awaitable[list[Answer]]]


def of_variant(kind: Callable[[Session, str], Awaitable[list[Answer]]], variant: str) -> Kind:
    def asked(s: Session) -> Awaitable[list[Answer]]:
        return kind(s, variant)

    return asked


#: The kinds of every variant, by name.
VARIANT_KINDS: dict[str, Callable[[Session, str], Awaitable[list[Answer]]]] = {
    "best-move-post": best_move_post,
    "best-move-get": best_move_get,
    "analysis-post": analysis_post,
    "analysis-get": analysis_get,
    "best-move-options": best_move_options,
    "best-move-batch": best_move_batch,
    "review": review,
    "refusals": refusals,
    "mcp": mcp,
    "languages": in_languages,
}


@cache
def kinds() -> dict[str, Kind]:
    """Every kind, by its key ``variant/name``, in a fixed order."""
    found: dict[str, Kind] = {
        f"{ANY}/variants": variants,
        f"{ANY}/openapi": openapi,
        f"{ANY}/mcp-lists": mcp_lists,
        f"{ANY}/languages": languages,
    }
    for variant in VARIANTS:
        for name, kind in VARIANT_KINDS.items():
            found[f"{variant}/{name}"] = of_variant(kind, variant)
        if variant == "standard":
            found |= {
                "standard/puzzle-pages": puzzle_pages,
                "standard/puzzles": puzzles,
                "standard/puzzle-draws": puzzle_draws,
                "standard/not-modified": not_modified,
            }
    return found


# --- digests ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Digest:
    """What is stored of a kind's answers."""

    count: int
    requests: str
    answers: str
    chunks: tuple[str, ...]

    def stored(self) -> dict[str, object]:
        return {
            "count": self.count,
            "requests": self.requests,
            "answers": self.answers,
            "chunks": list(self.chunks),
        }

    @classmethod
    def load(cls, stored: Mapping[str, Any]) -> Digest:
        return cls(
            int(stored["count"]), str(stored["requests"]), str(stored["answers"]), tuple(stored["chunks"])
        )


def digest(answers: Sequence[Answer]) -> Digest:
    each = [hashlib.sha256(body).digest() for _, body in answers]
    requests = hashlib.sha256("\n".join(said for said, _ in answers).encode()).hexdigest()
    chunks = tuple(
        hashlib.sha256(b"".join(each[start : start + CHUNK])).hexdigest()[:16]
        for start in range(0, len(each), CHUNK)
    )
    return Digest(len(answers), requests, hashlib.sha256(b"".join(each)).hexdigest(), chunks)


def compare(key: str, stored: Digest | None, answers: Sequence[Answer]) -> str | None:
    """``None`` when ``answers`` are those whose digest is stored; else what differs, and where."""
    if stored is None:
        return (
            f"{key}: no golden digest is stored; regenerate: .venv/bin/python -m tests.support.golden --write"
        )
    got = digest(answers)
    if got == stored:
        return None
    chunk = next(
        (
            i
            for i, (mine, theirs) in enumerate(zip(got.chunks, stored.chunks, strict=False))
            if mine != theirs
        ),
        min(len(got.chunks), len(stored.chunks)),
    )
    start = chunk * CHUNK
    end = min(start + CHUNK, len(answers))
    said = [f"{key}: {got.count} answers, digest {got.answers[:16]}…"]
    said[0] += f" (stored: {stored.count}, {stored.answers[:16]}…)."
    if got.requests != stored.requests:
        said.append("The requests themselves differ from those stored (the sample or the kind changed).")
    if start < len(answers):
        said.append(
            f"The first chunk that differs holds answers {start} to {end - 1}, from request #{start}: "
            f"{answers[start][0][:300]}"
        )
    else:
        said.append(
            f"Every chunk of the {got.count} answers matches: {stored.count - got.count} are missing."
        )
    said.append(
        f"See them: .venv/bin/python -m tests.support.golden --show {key} --start {start} --count {CHUNK} "
        "(here, and where the answers matched)."
    )
    return "\n".join(said)


def load(path: Path = GOLDEN) -> dict[str, Digest]:
    stored = json.loads(path.read_text())
    if stored.get("chunk") != CHUNK:
        raise ValueError(f"{path}: chunks of {stored.get('chunk')} answers, not {CHUNK}: regenerate")
    return {key: Digest.load(value) for key, value in stored["kinds"].items()}


def save(digests: Mapping[str, Digest], path: Path = GOLDEN) -> None:
    document = {
        "about": "SHA-256 digests of the service's answers, by variant and kind: "
        "see tests/support/golden.py; regenerate with: python -m tests.support.golden --write",
        "chunk": CHUNK,
        "kinds": {key: found.stored() for key, found in digests.items()},
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=1) + "\n")


async def answers_of(s: Session, key: str) -> list[Answer]:
    return await kinds()[key](s)


# --- the command -------------------------------------------------------------------------------------------


def selected(keys: Sequence[str]) -> list[str]:
    unknown = [key for key in keys if key not in kinds()]
    if unknown:
        raise SystemExit(f"unknown keys: {', '.join(unknown)}; known: {', '.join(kinds())}")
    return list(keys) or list(kinds())


async def run(arguments: argparse.Namespace) -> int:
    keys = selected(arguments.keys)
    path: Path = arguments.golden
    stored = load(path) if arguments.check else {}
    digests: dict[str, Digest] = {}
    failed = 0
    async with session() as s:
        for key in keys:
            began = time.perf_counter()
            answers = await answers_of(s, key)
            took = time.perf_counter() - began
            if arguments.show:
                for index in range(arguments.start, min(arguments.start + arguments.count, len(answers))):
                    said, body = answers[index]
                    print(f"#{index} {said}\n{body.decode(errors='replace')}\n")
                continue
            digests[key] = digest(answers)
            problem = compare(key, stored.get(key), answers) if arguments.check else None
            failed += problem is not None
            print(f"{key}: {len(answers):,} answers, {took:.1f} s{'' if problem is None else ', DIFFERENT'}")
            if problem is not None:
                print(problem, file=sys.stderr)
    if arguments.write:
        if arguments.keys and path.exists():  # only these kinds are written again
            digests = {**load(path), **digests}
            digests = {key: digests[key] for key in kinds() if key in digests}
        save(digests, path)
        print(f"wrote {len(digests)} digests to {path}")
    return 1 if failed else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.support.golden", description="Golden digests of the service's answers."
    )
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument(
        "--write", action="store_true", help="compute and store the digests (of KEYs only, if given)"
    )
    action.add_argument("--check", action="store_true", help="compute and compare with the stored digests")
    action.add_argument("--show", action="store_true", help="print requests and answers of one KEY")
    action.add_argument("--list", action="store_true", help="list the keys, with their stored counts")
    parser.add_argument("keys", nargs="*", metavar="KEY", help="variant/kind, e.g. standard/best-move-post")
    parser.add_argument("--start", type=int, default=0, help="with --show: the first answer's index")
    parser.add_argument("--count", type=int, default=CHUNK, help="with --show: how many answers")
    parser.add_argument(
        "--golden", type=Path, default=GOLDEN, help="the digests' file (default: tests/golden/answers.json)"
    )
    arguments = parser.parse_args(argv)
    if arguments.list:
        stored = load(arguments.golden) if arguments.golden.exists() else {}
        for key in kinds():
            print(f"{key}: {stored[key].count:,}" if key in stored else f"{key}: not stored")
        return 0
    if arguments.show and len(arguments.keys) != 1:
        parser.error("--show takes one KEY")
    return asyncio.run(run(arguments))


if __name__ == "__main__":
    sys.exit(main())
