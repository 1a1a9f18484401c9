"""The fast lane: which requests it answers, and that it answers them exactly as the routes do.

The app is compared with itself without the fast lane (``routes_only_app``): the same
status, headers (but the request id) and bytes, for plain requests on every position
and for requests the fast lane must leave to the routes.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from urllib.parse import quote, unquote

import httpx
import pytest
from fastapi import FastAPI
from starlette.responses import Response
from starlette.types import Message, Receive, Scope, Send

from service.answers import Answers, Entity
from service.game.variants import VARIANTS
from service.web import fast_lane
from service.web.caching import CACHE_CONTROL, cacheable, json_response
from service.web.fast_lane import FastLane
from service.web.language import ENGLISH, Spoken
from service.web.routes import analysis, moves, puzzles, review
from tests.support import oracle
from tests.support.variant_oracle import VARIANTS as ORACLES

pytestmark = pytest.mark.anyio

Request = tuple[str, str, bytes | None, dict[str, str]]
JSON = {"Content-Type": "application/json"}


def body(value: object) -> bytes:
    return json.dumps(value).encode()


async def taken(request: Request, chunk: int | None = None) -> str:
    """``"fast lane"`` when the fast lane answers ``request``, ``"routes"`` when it passes it on.

    With ``chunk``, the body arrives in pieces of that many bytes.
    """
    method, url, content, headers = request
    path, _, query = url.partition("?")
    raw = content or b""
    pieces = [raw[i : i + chunk] for i in range(0, len(raw), chunk)] if chunk and raw else [raw]
    messages: list[Message] = [
        {"type": "http.request", "body": piece, "more_body": i < len(pieces) - 1}
        for i, piece in enumerate(pieces)
    ]
    passed_on: list[bytes] = []

    async def routes(scope: Scope, receive: Receive, send: Send) -> None:
        received = b""
        while True:
            message = await receive()
            received += message.get("body", b"")
            if not message.get("more_body", False):
                break
        passed_on.append(received)

    async def receive() -> Message:
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    sent: list[Message] = []

    async def send(message: Message) -> None:
        sent.append(message)

    lane = FastLane(
        routes,
        answers=Answers(),
        routes=[*moves.router.routes, *analysis.router.routes, *review.router.routes, *puzzles.router.routes],
    )
    framing = {} if content is None else {"Content-Length": str(len(raw))}
    if chunk is not None and content is not None:
        framing = {"Transfer-Encoding": "chunked"}
    scope = {
        "type": "http",
        "method": method,
        "path": path,
        "query_string": query.encode(),
        "headers": [
            (name.lower().encode(), value.encode()) for name, value in {**headers, **framing}.items()
        ],
    }
    await lane(scope, receive, send)
    if passed_on:
        assert passed_on == [raw], "the routes get the body as it came"
        assert sent == []
        return "routes"
    assert sent[0]["status"] in (200, 304)
    return "fast lane"


PLAIN: list[Request] = [
    ("POST", "/v1/best-move", body({"board": "X........"}), JSON),
    ("POST", "/v1/best-move", body({"board": "x-o------", "player": "X"}), JSON),
    (
        "POST",
        "/v1/best-move",
        body({"player": "O", "board": "XX.O.O..X"}),
        {"Content-Type": "application/json; charset=utf-8"},
    ),
    ("POST", "/v1/best-move", b'{ "board" : "........." }', {"Content-Type": "application/vnd.api+json"}),
    ("GET", "/v1/best-move?board=X.O......&player=X", None, {}),
    ("GET", "/v1/best-move?board=X%20O%20%20%20%20%20%20", None, {}),
    ("GET", "/v1/best-move?board=X.O......", None, {"If-None-Match": '"abc", *'}),
    ("GET", "/v1/positions/XXXOO.O..", None, {}),
    ("GET", "/v1/positions/XX.OO....?player=X", None, {}),
    ("GET", "/v1/positions/.........?player=O", None, {}),
    # Spaced, escaped, another empty symbol: the same JSON, answered alike.
    ("POST", "/v1/best-move", b'\r\n{\t"player" :null ,\n"board":"X........"  }\n', JSON),
    ("POST", "/v1/best-move", b'{"board":"X\\u002e.......","player":"O"}', JSON),
    ("POST", "/v1/best-move", b'{"board":"X O      ","player":"O"}', JSON),
    # Variants: a board string in canonical symbols, perhaps a player.
    ("POST", "/v1/best-move", body({"variant": "wild", "board": "X........"}), JSON),
    ("POST", "/v1/best-move", body({"variant": "wild", "board": "x--------"}), JSON),  # any spelling
    ("POST", "/v1/best-move", body({"variant": "standard", "board": "X........", "player": "O"}), JSON),
    ("GET", "/v1/best-move?variant=4x4&board=X....O..........&player=X", None, {}),
    ("GET", "/v1/positions/XXX......X........?variant=notakto-2", None, {}),
    # In a language: named by lang, or by Accept-Language.
    ("GET", "/v1/best-move?board=X.O......&lang=es", None, {}),
    ("GET", "/v1/best-move?board=X.O......", None, {"Accept-Language": "de-CH, fr;q=0.9"}),
    ("POST", "/v1/best-move", body({"board": "X........", "lang": "pt-BR"}), JSON),
    ("GET", "/v1/positions/XX.OO....?player=X&lang=fr", None, {"Accept-Language": "es"}),
]
NOT_PLAIN: list[Request] = [
    # Not a table lookup: always the routes'.
    ("POST", "/v1/best-move/batch", body({"items": [{"board": "X........"}, {"board": "........."}]}), JSON),
    ("POST", "/v1/review", body({"moves": [4, 0, 8, 2, 1, 7, 6, 3, 5]}), JSON),
    ("GET", "/v1/puzzles", None, {}),
    ("GET", "/v1/puzzles/.....OOXXX", None, {}),
    ("POST", "/v1/best-move", body({"board": ["X", None, None, None, None, None, None, None, None]}), JSON),
    ("POST", "/v1/best-move", body({"board": "X........", "skill": 0.5, "seed": 1}), JSON),
    ("POST", "/v1/best-move", body({"board": "X........", "level": "easy", "seed": 3}), JSON),
    ("POST", "/v1/best-move", body({"board": "XXXOO...."}), JSON),  # over: 422 game-over
    ("POST", "/v1/best-move", body({"board": "XX......."}), JSON),  # illegal
    ("POST", "/v1/best-move", body({"board": "X........", "player": "X"}), JSON),  # the wrong side
    ("POST", "/v1/best-move", body({"board": "X........", "player": None, "extra": 1}), JSON),
    ("POST", "/v1/best-move", body({"board": "X........"}), {"Content-Type": "text/plain"}),  # 415
    ("POST", "/v1/best-move", body({"board": "X........"}), {}),  # 415
    ("POST", "/v1/best-move", b'{"board": "X........", "board": "O........"}', JSON),  # 400
    ("POST", "/v1/best-move", b'{"board": "X........"', JSON),  # 400
    ("POST", "/v1/best-move", b"", JSON),
    ("POST", "/v1/best-move", b"null", JSON),
    ("POST", "/v1/best-move/batch", body({"items": [{"board": "X........"}, {"board": "Z........"}]}), JSON),
    (
        "POST",
        "/v1/best-move/batch",
        body({"items": [{"board": "X........", "random": True, "seed": 5}]}),
        JSON,
    ),
    ("POST", "/v1/best-move/batch", body({"items": []}), JSON),
    ("POST", "/v1/best-move/batch", body({"items": [{"board": "X........"}] * 1001}), JSON),
    ("POST", "/v1/analysis", body({"board": "XXXOO.O.."}), JSON),
    ("GET", "/v1/best-move?board=X.O......&skill=1", None, {}),
    ("GET", "/v1/best-move?board=X.O......&board=X.O......", None, {}),  # 422: given twice
    ("GET", "/v1/best-move?board=XXXOO.O..", None, {}),  # over
    ("GET", "/v1/best-move?board=X.O......&player=", None, {}),
    ("GET", "/v1/best-move", None, {}),
    ("GET", "/v1/positions/XX.OO....?player=Z", None, {}),
    ("GET", "/v1/positions/XX.OO....?player=X&player=X", None, {}),
    ("GET", "/v1/positions/XXXXXXXXX", None, {}),
    ("GET", "/v1/positions/", None, {}),
    ("PUT", "/v1/best-move", body({"board": "X........"}), JSON),
    ("GET", "/v1/best-move/", None, {}),
    ("GET", "/health", None, {}),
    ("POST", "/v1/review", body({"moves": [4, 4]}), JSON),  # 422 at moves.1
    ("POST", "/v1/review", body({"moves": [0, 3, 1, 4, 2, 5]}), JSON),  # 422: after the end
    ("POST", "/v1/review", body({"moves": [9]}), JSON),
    ("POST", "/v1/review", body({"moves": [True]}), JSON),
    ("POST", "/v1/review", body({"moves": []}), JSON),
    ("POST", "/v1/review", body({"moves": [4], "board": None}), JSON),  # 200: the empty board
    ("POST", "/v1/review", body({"moves": [4], "board": list(".........")}), JSON),  # 200, by the routes
    ("POST", "/v1/review", body({"moves": [4], "level": "easy"}), JSON),
    ("POST", "/v1/review", body({"moves": [5], "board": "XXXOO...."}), JSON),  # 422 game over
    ("GET", "/v1/puzzles?limit=020", None, {}),  # 200: not written plainly, left to the routes
    ("GET", "/v1/puzzles?limit=0", None, {}),
    ("GET", "/v1/puzzles?limit=101", None, {}),
    ("GET", "/v1/puzzles?min_rating=300&max_rating=200", None, {}),
    ("GET", "/v1/puzzles?theme=center", None, {}),
    ("GET", "/v1/puzzles?outcome=loss", None, {}),
    ("GET", "/v1/puzzles?cursor=X...O...XO", None, {}),
    ("GET", "/v1/puzzles?theme=fork&theme=win", None, {}),
    ("GET", "/v1/puzzles?colour=blue", None, {}),
    ("GET", "/v1/puzzles?min_rating=%2B5", None, {}),  # 200 ("+5"), by the routes
    ("GET", "/v1/puzzles/random?seed=1", None, {}),
    ("GET", "/v1/puzzles/...O..XXOX", None, {}),  # a puzzle turned: 404 naming it
    ("GET", "/v1/puzzles/.....OOXXX?x=1", None, {}),  # 422: it takes no parameter
    ("POST", "/v1/best-move", b'{"board":"X........","board":"X........"}', JSON),  # 400
    ("POST", "/v1/best-move", b'{"player":"O"}', JSON),  # 422: no board
    ("POST", "/v1/best-move", b'{"player":"O","player":"O"}', JSON),  # 400
    ("POST", "/v1/best-move", b'{"board":"X........","player":"o"}', JSON),  # 422
    ("POST", "/v1/best-move", b'{"board":null,"player":"O"}', JSON),  # 422
    ("POST", "/v1/best-move", '{"board":"X…","player":"O"}'.encode(), JSON),  # 422
    ("POST", "/v1/best-move?player=O", body({"board": "X........"}), JSON),  # 422: it takes no parameter
    ("POST", "/v1/best-move", body({"variant": "chess", "board": "X........"}), JSON),  # 422
    ("GET", "/v1/positions/X........?variant=wild&player=X", None, {}),  # 422: wild's sides
    ("POST", "/v1/best-move", body({"variant": "notakto", "board": "XXX......"}), JSON),  # 422: over
    ("POST", "/v1/best-move", body({"variant": ["wild"], "board": "X........"}), JSON),  # 422
    ("GET", "/v1/best-move?board=X.O......&lang=not%20a%20tag", None, {}),  # 422: malformed
    ("POST", "/v1/best-move", body({"board": "X........", "lang": 5}), JSON),  # 422
    ("POST", "/v1/best-move", body({"board": "X........", "lang": "e"}), JSON),  # 422
]


@pytest.mark.parametrize("request_", PLAIN, ids=lambda r: f"{r[0]} {r[1]}")
@pytest.mark.parametrize("chunk", [None, 1, 7])
async def test_plain_requests_are_answered_by_the_fast_lane(request_: Request, chunk: int | None) -> None:
    assert await taken(request_, chunk) == "fast lane"


@pytest.mark.parametrize("request_", NOT_PLAIN, ids=lambda r: f"{r[0]} {r[1]} {r[2]!r:.40}")
async def test_everything_else_is_left_to_the_routes(request_: Request) -> None:
    assert await taken(request_, 5) == "routes"


async def test_a_body_too_long_to_be_plain_is_not_read() -> None:
    long = body({"board": "X........", "pad": " " * fast_lane.MAX_PLAIN_BODY})
    assert await taken(("POST", "/v1/best-move", long, JSON), 256) == "routes"


def answer(response: httpx.Response) -> tuple[int, list[tuple[str, str]], bytes]:
    headers = [(name, value) for name, value in response.headers.multi_items() if name != "x-request-id"]
    return response.status_code, headers, response.content


async def answers(
    app: FastAPI, requests: Iterable[Request]
) -> list[tuple[int, list[tuple[str, str]], bytes]]:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
        return [
            answer(await client.request(method, url, content=content, headers=headers))
            for method, url, content, headers in requests
        ]


async def test_the_fast_lane_answers_as_the_routes_do(app: FastAPI, routes_only_app: FastAPI) -> None:
    requests = PLAIN + NOT_PLAIN
    fast, routed = await answers(app, requests), await answers(routes_only_app, requests)
    for request, one, other in zip(requests, fast, routed, strict=True):
        assert one == other, request
    statuses = [status for status, _, _ in fast]
    assert statuses[: len(PLAIN)] == [200] * 6 + [304] + [200] * 15
    assert statuses[len(PLAIN) :] == [
        *(200, 200, 200, 200),
        *(200, 200, 200, 422, 422, 422, 422, 415, 415, 400, 400, 422, 422),
        *(422, 200, 422, 422, 200),
        *(422, 422, 422, 422, 422, 422, 422, 422, 404, 405, 404, 200),
        *(422, 422, 422, 422, 422, 200, 200, 422, 422),
        *(200, 422, 422, 422, 422, 422, 422, 422, 422, 200, 200, 404, 422),
        *(400, 422, 400, 422, 422, 422, 422),
        *(422, 422, 422, 422),
        *(422, 422, 422),
    ]


async def served(app: FastAPI, request: Request) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
    """``request``'s answer from ``app``, called as an ASGI app: status, headers but the request id, body."""
    method, url, content, headers = request
    path, _, query = url.partition("?")
    scope = {
        "type": "http",
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": unquote(path),
        "raw_path": path.encode(),
        "query_string": query.encode(),
        "root_path": "",
        "headers": [(name.lower().encode(), value.encode()) for name, value in headers.items()],
        "client": ("127.0.0.1", 1),
        "server": ("127.0.0.1", 80),
    }
    messages: list[Message] = [{"type": "http.request", "body": content or b"", "more_body": False}]
    sent: list[Message] = []

    async def receive() -> Message:
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message: Message) -> None:
        sent.append(message)

    await app(scope, receive, send)
    start, *bodies = sent
    kept = [(name, value) for name, value in start["headers"] if name != b"x-request-id"]
    return start["status"], kept, b"".join(message.get("body", b"") for message in bodies)


async def test_every_position_is_answered_alike_on_both_paths(app: FastAPI, routes_only_app: FastAPI) -> None:
    """Every plain request the fast lane answers, on every legal board and side, with and without it."""
    for cells, sides in sorted(oracle.reachable().items()):
        board = oracle.decode(cells)
        players = {"X" if side == 1 else "O" for side in sides}
        for player in [None, *sorted(players)] if sides else [None]:
            query = f"player={player}" if player else ""
            requests: list[Request] = [("GET", f"/v1/positions/{quote(board)}?{query}", None, {})]
            if sides:
                item = {"board": board} if player is None else {"board": board, "player": player}
                requests.append(("POST", "/v1/best-move", body(item), JSON))
                requests.append(("GET", f"/v1/best-move?board={quote(board)}&{query}".rstrip("&"), None, {}))
            for request in requests:
                fast = await served(app, request)
                assert fast[0] == 200 and fast == await served(routes_only_app, request), request


@pytest.mark.parametrize("variant_id", ["misere", "wild", "notakto", "notakto-2", "4x4"])
async def test_positions_of_the_variants_are_answered_alike_on_both_paths(
    app: FastAPI, routes_only_app: FastAPI, variant_id: str
) -> None:
    """Every position of the small variants (400 of each larger one, from random games), as plain
    requests, with and without the fast lane; in own-mark variants with each side to start."""
    variant, oracle = VARIANTS[variant_id], ORACLES[variant_id]
    firsts = ["X", "O"] if variant.marks == "own" else ["first"]
    if variant.cells == 9:
        found = sorted({position for first in firsts for position in oracle.reachable(first)})
    else:
        found = sorted(random_positions(variant_id, 400))
    for cells, mover in found:
        requests: list[Request] = [
            ("GET", f"/v1/positions/{cells}?variant={variant_id}&player={mover}", None, {}),
            ("POST", "/v1/best-move", body({"variant": variant_id, "board": cells, "player": mover}), JSON),
            ("GET", f"/v1/best-move?variant={variant_id}&board={cells}&player={mover}", None, {}),
        ]
        for request in requests:
            fast = await served(app, request)
            routed = await served(routes_only_app, request)
            assert fast == routed and fast[0] == 200, request


#: Every JSON type, for a member to take the wrong one of.
JSON_VALUES: list[object] = [None, True, 0, 1.5, "", [], {}]


def wrong_members(variant_id: str) -> list[Request]:
    """Plain bodies of a variant but for one member, of each JSON type in turn (null included, and
    ``"variant": null`` beside a member the lane does not take, as the routes see it)."""
    variant = VARIANTS[variant_id]
    plain = {"variant": variant_id, "board": "X" + "." * (variant.cells - 1), "player": variant.sides[1]}
    found: list[Request] = []
    for member in plain:
        for value in JSON_VALUES:
            found.append(("POST", "/v1/best-move", body(plain | {member: value}), JSON))
    found.append(("POST", "/v1/best-move", body(plain | {"variant": None, "seed": 1}), JSON))
    found.append(("POST", "/v1/best-move", body({"variant": None, "board": plain["board"]}), JSON))
    return found


@pytest.mark.parametrize("variant_id", list(VARIANTS))
async def test_members_of_every_json_type_are_answered_alike_on_both_paths(
    app: FastAPI, routes_only_app: FastAPI, variant_id: str
) -> None:
    """Each member of a plain body with a value of each JSON type, ``"variant": null`` among them:
    the lane answers what the routes answer: ``422``, but for ``"player": null``, the player left out."""
    for request in wrong_members(variant_id):
        fast = await served(app, request)
        assert fast == await served(routes_only_app, request), request
        valid = b'"player": null' in (request[2] or b"")
        assert fast[0] == (200 if valid else 422), request


def random_positions(variant_id: str, count: int) -> set[tuple[str, str]]:
    """``count`` unfinished positions of random games of a variant (the oracle's moves), X or O first."""
    oracle, rng = ORACLES[variant_id], random.Random(count)
    found: set[tuple[str, str]] = set()
    while len(found) < count:
        cells, mover = oracle.start(), rng.choice(["X", "O"] if oracle.marks == "own" else ["first"])
        for _ in range(rng.randrange(oracle.width * oracle.boards)):
            played, ended = oracle.after(cells, rng.choice(list(oracle.moves(cells, mover))))
            if ended is not None:
                break
            cells, mover = played, oracle.other(mover)
        found.add((cells, mover))
    return found


@pytest.mark.parametrize("cache_control", [CACHE_CONTROL, "no-cache"])
@pytest.mark.parametrize("if_none_match", [None, '"other"', "*"])
def test_cacheable_answers_have_the_headers_starlette_writes(
    cache_control: str, if_none_match: str | None
) -> None:
    """The entity's headers are made once; they are those a plain Starlette Response would have."""
    entity = Entity.of(b'{"board":"X........"}', "es")
    answer = cacheable(entity, if_none_match, Spoken("es", by_header=True), cache_control)
    given = {"ETag": entity.tag, "Cache-Control": cache_control, "Content-Language": "es"}
    given |= {"Vary": "Accept-Language"}
    expected = (
        Response(status_code=304, headers=given)
        if if_none_match == "*"
        else Response(entity.body, media_type="application/json", headers=given)
    )
    assert (answer.status_code, sorted(answer.raw_headers), answer.body) == (
        expected.status_code,
        sorted(expected.raw_headers),
        expected.body,
    )


@pytest.mark.parametrize("deterministic", [True, False])
def test_json_answers_have_the_headers_starlette_writes(deterministic: bool) -> None:
    body = b'{"results":[]}'
    answer = json_response(body, ENGLISH, deterministic=deterministic)
    headers = {"Content-Language": "en"} | ({} if deterministic else {"Cache-Control": "no-store"})
    expected = Response(body, media_type="application/json", headers=headers)
    assert (answer.status_code, sorted(answer.raw_headers), answer.body) == (
        200,
        sorted(expected.raw_headers),
        body,
    )
