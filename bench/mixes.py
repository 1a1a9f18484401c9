"""The requests the benchmark sends: every unfinished position, as a client would ask for it.

The positions come from the tests' independent oracle
(:func:`tests.support.oracle.reachable`), not from the service: the 6,617
unfinished boards reached in real play with either side starting, each with
every side that may be to move on it, 9,040 positions. ``player`` is sent only
when both sides have as many marks (otherwise the marks say whose turn it is),
as a client would. The coach's requests come from the tests' independent oracles
too: complete drawn games of 9 moves found by a seeded walk over legal moves, and
pages of the puzzle book (:func:`tests.support.coach_oracle.puzzles`) under every
filter, each page's cursor the id of the last puzzle of the page before. A mix is a
file of request lines, ``METHOD<TAB>PATH<TAB>BODY``, that ``requests.lua`` cycles through.
"""

from __future__ import annotations

import asyncio
import http.client
import itertools
import json
import math
import random
from pathlib import Path
from typing import Literal

from service.language import DEFAULT, LANGUAGES
from tests.support.coach_oracle import RATINGS, Puzzle, puzzles
from tests.support.loadgen import Request, load
from tests.support.oracle import decode, has_line, reachable
from tests.support.variant_games import finished, most_moves, replay, variant_positions, walk
from tests.support.variant_oracle import VARIANTS as VARIANT_RULES

from .asgi import CONSTANT, CONSTANT_OF, CONSTANT_PATH

BATCH_SIZE = 100
Player = Literal["X", "O"]
#: The positions of each variant other than the standard game in the ``variants`` mix.
VARIANT_POSITIONS = 1000


def positions() -> list[tuple[str, Player | None]]:
    """``(board, player)`` of every unfinished position, ``player`` only when the counts leave it open."""
    found: list[tuple[str, Player | None]] = []
    for cells, sides in reachable().items():
        board = decode(cells)
        for side in sorted(sides):
            player: Player = "X" if side == 1 else "O"
            found.append((board, player if board.count("X") == board.count("O") else None))
    return sorted(found, key=lambda position: (position[0], position[1] or ""))


def halfway(
    variant_id: str, avoid: set[tuple[str, str]], rather_not: set[tuple[str, str]], seed: int = 2
) -> tuple[str, str]:
    """``(board, side to move)`` of an unfinished position halfway through a seeded walk
    (:func:`walk`): not one of ``avoid``, nor of ``rather_not`` unless 1,000 walks find none."""
    rng, plies, found = random.Random(seed), most_moves(variant_id) // 2, []
    for _ in range(1000):
        game = walk(variant_id, rng, plies)
        position = replay(variant_id, game)[-1]
        if len(game) == plies and position not in avoid and not finished(variant_id, game):
            if position not in rather_not:
                return position
            found.append(position)
    if not found:
        raise RuntimeError(f"no position halfway through a game of {variant_id} out of the ones to avoid")
    return found[0]


def a_move(variant_id: str, board: str, mover: str) -> tuple[int, str]:
    """The first legal move of ``mover`` on ``board`` (unfinished), by cell."""
    return next(VARIANT_RULES[variant_id].moves(board, mover))


def near_empty(variant_id: str, marks: int) -> list[tuple[str, str]]:
    """``(board, side to move)`` of every position with at most ``marks`` marks reached in play from the
    empty board (the first side X in the variants where each side has its mark), fewest marks first."""
    rules = VARIANT_RULES[variant_id]
    level = [(rules.start(), "X" if rules.marks == "own" else "first")]
    found = list(level)
    for _ in range(marks):
        following: dict[tuple[str, str], None] = {}
        for cells, mover in level:
            for move in rules.moves(cells, mover):
                played, ended = rules.after(cells, move)
                if ended is None:
                    following[played, rules.other(mover)] = None
        level = list(following)
        found += level
    return found


def compact(value: object) -> str:
    """JSON as a browser's ``JSON.stringify`` writes it: no spaces."""
    return json.dumps(value, separators=(",", ":"))


def body(board: str, player: str | None) -> dict[str, str]:
    return {"board": board} | ({"player": player} if player else {})


def query(board: str, player: str | None) -> str:
    return f"board={board}" + (f"&player={player}" if player else "")


#: The languages of the ``languages`` mix: every one offered but the default.
OTHER_LANGUAGES = tuple(tag for tag in LANGUAGES if tag != DEFAULT)
#: The difficulty levels, in the order the ``level`` mix takes them in turn.
LEVELS = ("beginner", "easy", "medium", "hard", "perfect")
#: The ``skill`` of the ``skill`` mix.
SKILL = 0.5
#: Games in the ``review`` mix, and the seed of the walk that finds them.
REVIEW_GAMES = 1000
REVIEW_SEED = 9
#: Puzzles per page in the ``puzzles`` mix (the API's default, sent as ``limit``).
PAGE_SIZE = 20
#: The puzzles' themes: every one is a filter of the ``puzzles`` mix.
THEMES = ("win", "block", "fork", "threat", "block_fork")


def drawn_games(count: int = REVIEW_GAMES, seed: int = REVIEW_SEED) -> list[list[int]]:
    """``count`` different complete games of 9 moves from the empty board, each a draw.

    A seeded walk: X and O in turn on a cell drawn among the empty ones, the game
    kept when nobody has three in a row after any of its 9 moves, so that every
    move is legal when it is played.
    """
    draw = random.Random(seed)
    found: dict[tuple[int, ...], None] = {}
    while len(found) < count:
        cells, moves = [0] * 9, list(range(9))
        draw.shuffle(moves)
        for ply, cell in enumerate(moves):
            side = 1 if ply % 2 == 0 else -1
            cells[cell] = side
            if has_line(tuple(cells), side):
                break
        else:
            found.setdefault(tuple(moves))
    return [list(game) for game in found]


Filter = dict[str, str | int]


def puzzle_filters() -> list[Filter]:
    """The filters of the ``puzzles`` mix: none; each theme; each outcome; rating windows between
    the calibrated ratings, and at or above and at or below one; themes with an outcome and with a
    rating window."""
    ratings = sorted(set(RATINGS.values()))
    pairs = itertools.pairwise(ratings)
    windows: list[Filter] = [{"min_rating": low, "max_rating": high} for low, high in pairs]
    themes: list[Filter] = [{"theme": theme} for theme in THEMES]
    return [
        {},
        *themes,
        {"outcome": "win"},
        {"outcome": "draw"},
        *windows,
        {"min_rating": RATINGS["easy"]},
        {"max_rating": RATINGS["easy"]},
        {"theme": "block", "outcome": "draw"},
        {"theme": "block_fork", "outcome": "win"},
        {"theme": "threat", "min_rating": RATINGS["beginner"], "max_rating": RATINGS["medium"]},
    ]


def matches(puzzle: Puzzle, wanted: Filter) -> bool:
    theme, outcome = wanted.get("theme"), wanted.get("outcome")
    low, high = wanted.get("min_rating"), wanted.get("max_rating")
    return (
        (theme is None or theme in puzzle.themes)
        and (outcome is None or puzzle.outcome == outcome)
        and (not isinstance(low, int) or puzzle.rating >= low)
        and (not isinstance(high, int) or puzzle.rating <= high)
    )


def puzzle_pages() -> list[str]:
    """The query of every page of :data:`PAGE_SIZE` puzzles under each of :func:`puzzle_filters`: the
    first page without a cursor, each following one with the id of the last puzzle before it."""
    book = puzzles()  # in the book's order: rating, then id
    queries = []
    for wanted in puzzle_filters():
        matching = [puzzle for puzzle in book if matches(puzzle, wanted)]
        filters = "".join(f"{name}={value}&" for name, value in wanted.items())
        for start in range(0, len(matching), PAGE_SIZE):
            cursor = "" if start == 0 else f"&cursor={matching[start - 1].id}"
            queries.append(f"{filters}limit={PAGE_SIZE}{cursor}")
    return queries


def mixes() -> dict[str, list[str]]:
    """Request lines for each mix: ``constant`` (and ``constant_post``, the bodies of ``post`` sent
    to the constant route), ``post``, ``get``, ``batch``, ``positions``, and ``random``,
    ``depth``, ``level`` and ``skill`` (``POST /v1/best-move`` with ``random: true``, with a depth
    of 1 to 9 in turn, with each level in turn, and with a skill of 0.5 and a seed, the
    request's number); ``post_es`` (``post`` with ``Accept-Language: es``);
    ``review`` (``POST /v1/review`` of each of :func:`drawn_games`) and
    ``puzzles`` (``GET /v1/puzzles``, each of :func:`puzzle_pages`); ``variants`` (plain ``POST
    /v1/best-move`` in each variant but the standard game in turn, :data:`VARIANT_POSITIONS` positions
    of each), ``analysis`` (``POST /v1/analysis`` of every position) and ``analysis_4x4`` (as many
    positions of ``4x4``); ``languages``: in each language but English, the best moves of every
    position by ``lang`` and by ``Accept-Language``, the pages of puzzles, and the variants' moves.

    The batches take 100 positions at a time, the last wrapping around to the first ones.
    """
    every = positions()
    variant_moves = [
        {"variant": variant, "board": board, "player": player}
        for variant in VARIANT_RULES
        if variant != "standard"
        for board, player in variant_positions(variant, VARIANT_POSITIONS)
    ]
    count = math.ceil(len(every) / BATCH_SIZE)
    ring = every + every[: count * BATCH_SIZE - len(every)]
    batches = [ring[i * BATCH_SIZE : (i + 1) * BATCH_SIZE] for i in range(count)]
    return {
        "constant": [f"GET\t{CONSTANT_PATH}\t"],
        "constant_post": [f"POST\t{CONSTANT_PATH}\t{compact(body(*p))}" for p in every],
        "post": [f"POST\t/v1/best-move\t{compact(body(*p))}" for p in every],
        "post_es": [f"POST\t/v1/best-move\t{compact(body(*p))}\tAccept-Language: es" for p in every],
        "get": [f"GET\t/v1/best-move?{query(*p)}\t" for p in every],
        "batch": [f"POST\t/v1/best-move/batch\t{compact({'items': [body(*p) for p in b]})}" for b in batches],
        "positions": [
            f"GET\t/v1/positions/{board}" + (f"?player={player}" if player else "") + "\t"
            for board, player in every
        ],
        "random": [f"POST\t/v1/best-move\t{compact(body(*p) | {'random': True})}" for p in every],
        "depth": [
            f"POST\t/v1/best-move\t{compact(body(*p) | {'depth': 1 + i % 9})}" for i, p in enumerate(every)
        ],
        "level": [
            f"POST\t/v1/best-move\t{compact(body(*p) | {'level': LEVELS[i % len(LEVELS)]})}"
            for i, p in enumerate(every)
        ],
        "skill": [
            f"POST\t/v1/best-move\t{compact(body(*p) | {'skill': SKILL, 'seed': i})}"
            for i, p in enumerate(every)
        ],
        "review": [f"POST\t/v1/review\t{compact({'moves': game})}" for game in drawn_games()],
        "variants": [
            f"POST\t/v1/best-move\t{compact({'variant': variant, 'board': board, 'player': player})}"
            for group in zip(
                *(
                    [(variant, *position) for position in variant_positions(variant, VARIANT_POSITIONS)]
                    for variant in VARIANT_RULES
                    if variant != "standard"
                ),
                strict=True,
            )
            for variant, board, player in group
        ],
        "analysis": [f"POST\t/v1/analysis\t{compact(body(*p))}" for p in every],
        "analysis_4x4": [
            f"POST\t/v1/analysis\t{compact({'variant': '4x4', 'board': board, 'player': player})}"
            for board, player in variant_positions("4x4", len(every))
        ],
        "puzzles": [f"GET\t/v1/puzzles?{page}\t" for page in puzzle_pages()],
        "languages": [
            line
            for language in OTHER_LANGUAGES
            for line in (
                *(f"GET\t/v1/best-move?{query(*p)}&lang={language}\t" for p in every),
                *(f"POST\t/v1/best-move\t{compact(body(*p))}\tAccept-Language: {language}" for p in every),
                *(f"GET\t/v1/puzzles?{page}&lang={language}\t" for page in puzzle_pages()),
                *(f"POST\t/v1/best-move\t{compact(move | {'lang': language})}" for move in variant_moves),
            )
        ],
    }


def write(lines: dict[str, list[str]], folder: Path) -> dict[str, Path]:
    """Each mix in a file of its own, for ``requests.lua``."""
    files = {}
    for name, mix in lines.items():
        files[name] = folder / f"{name}.tsv"
        files[name].write_text("\n".join(mix) + "\n")
    return files


def fields(line: str) -> tuple[str, str, str, dict[str, str]]:
    """A request line of a mix: its method, target and body, and the one header it may add."""
    method, target, payload, *header = line.split("\t", 3)
    name, _, value = (header or [""])[0].partition(": ")
    return method, target, payload, {name: value} if name else {}


def raw_request(line: str, port: int) -> bytes:
    """A request line of a mix as HTTP/1.1 bytes, as wrk sends it."""
    method, target, payload, headers = fields(line)
    head = f"{method} {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
    head += "".join(f"{name}: {value}\r\n" for name, value in headers.items())
    if payload:
        head += f"Content-Type: application/json\r\nContent-Length: {len(payload.encode())}\r\n"
    return (head + "\r\n" + payload).encode()


def every_request(port: int, lines: list[str], connections: int = 16) -> None:
    """Send each request of ``lines`` once (over ``connections`` at a time); each must answer ``200``."""
    requests = []
    for line in lines:
        method, target, payload, headers = fields(line)
        header = "".join(f"{name}: {value}" for name, value in headers.items())
        requests.append(Request(method, target, payload.encode(), header))
    answers = asyncio.run(load(port, requests, connections, timeout=300))
    failed = [(request, answer) for request, answer in answers if answer.status != 200]
    if failed:
        request, answer = failed[0]
        raise RuntimeError(
            f"{len(failed)} of {len(requests)} requests failed; {request.method} {request.path} "
            f"answered {answer.status}: {answer.body[:500]!r}"
        )


def fetch(
    port: int, method: str, target: str, payload: str = "", headers: dict[str, str] | None = None
) -> tuple[int, bytes]:
    """One request to 127.0.0.1:``port``, perhaps with ``headers``: the status and the body of the answer."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        sent = ({"Content-Type": "application/json"} if payload else {}) | (headers or {})
        connection.request(method, target, body=payload or None, headers=sent)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def check_constant(port: int) -> None:
    """The product on ``port`` answers ``GET CONSTANT_OF`` with ``CONSTANT``, byte for byte.

    The constant targets send those bytes so that they send back as much as the product;
    when the product's answer has changed, the constant must change with it.
    """
    status, answer = fetch(port, "GET", CONSTANT_OF)
    if status != 200 or answer != CONSTANT:
        raise RuntimeError(
            f"bench.asgi.CONSTANT is not the product's answer to GET {CONSTANT_OF}: the product "
            f"answered {status} with {len(answer)} bytes,\n{answer.decode(errors='replace')}\n"
            f"where CONSTANT has {len(CONSTANT)} bytes,\n{CONSTANT.decode()}\n"
            "Make CONSTANT in bench/asgi.py the product's answer."
        )


def check(name: str, port: int, mix: list[str]) -> None:
    """A mix's first and last requests, and its first with a ``player``, answer ``200`` with JSON.

    Not a test of the service (the test suite checks every answer): it makes
    sure that the benchmark measures answers, not error pages.
    """
    samples = {mix[0], mix[-1], *[line for line in mix[:200] if "player" in line][:1]}
    for line in samples:
        method, target, payload, headers = fields(line)
        status, answer = fetch(port, method, target, payload, headers)
        if status != 200:
            raise RuntimeError(f"{name}: {method} {target} answered {status}: {answer[:500]!r}")
        if target == CONSTANT_PATH and answer != CONSTANT:
            raise RuntimeError(f"{name}: {target} answered {answer[:500]!r}, not the constant")
        found = json.loads(answer)
        if target.endswith("/batch") and len(found["results"]) != BATCH_SIZE:
            raise RuntimeError(f"{name}: {len(found['results'])} results in a batch of {BATCH_SIZE}")
        if target == "/v1/review" and (len(found["plies"]) != 9 or found["status"] != "draw"):
            plies, status = len(found["plies"]), found["status"]
            raise RuntimeError(f"{name}: {payload} reviewed as {plies} plies, {status}")
        if target.startswith("/v1/puzzles?") and not 0 < len(found["puzzles"]) <= PAGE_SIZE:
            raise RuntimeError(f"{name}: {target} answered a page of {len(found['puzzles'])} puzzles")
