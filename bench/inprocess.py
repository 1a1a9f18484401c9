"""Figures measured in this process, without HTTP: the engine made ready, a lookup, a textbook
minimax, and what the fast lane saves."""

from __future__ import annotations

import asyncio
import gc
import statistics
import time
from collections.abc import Callable
from typing import Any

from starlette.types import ASGIApp, Message

from service.answers import Answers, Coach
from service.game.tables import table
from service.game.variants import STANDARD, reach

from .mixes import positions
from .textbook import best_move as textbook_best_move


def timed(function: Callable[[], object], repeat: int) -> list[float]:
    """Seconds of each of ``repeat`` calls."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        function()
        times.append(time.perf_counter() - started)
    return times


def solver_figures(solves: int, repeats: int, textbook: int) -> dict[str, Any]:
    """The engine made ready (median of ``solves``), lookups per query, and the textbook minimax.

    Ready is what a worker does before it serves: every variant's table opened and the standard
    game's positions walked (each time afresh), and the answers and the puzzle book made
    (:class:`Answers`, :class:`Coach`). The lookup is averaged over every position the oracle
    reaches, median of ``repeats`` loops after a warm-up, Python's loop overhead included: the
    position of a board string and player (a legal one, kept), the rendered answer of a position
    (its bytes, as a ``POST`` sends them; the first loop renders them), and the whole path from a
    board string and player to the rendered answer (what a plain request needs), which the 2 µs
    target applies to.
    """
    seconds = []

    def ready() -> None:
        table.cache_clear()
        reach.cache_clear()
        Answers()
        Coach()

    for _ in range(solves):
        gc.collect()  # each start begins with no garbage left from the one before
        seconds.append(timed(ready, 1)[0])
    answers = Answers()
    gc.collect()
    gc.freeze()  # as the service does with what it made at start-up
    asked = positions()
    resolved = [answers.lookup(STANDARD.id, board, player) for board, player in asked]
    unfinished = [position for position in resolved if position is not None]
    if len(unfinished) != len(asked):
        raise RuntimeError("the service does not know every position the oracle reaches")

    def lookups() -> None:
        lookup, standard = answers.lookup, STANDARD.id
        for board, player in asked:
            lookup(standard, board, player)

    def rendered() -> None:
        for position in unfinished:
            answers.best_body(position)

    def requests() -> None:
        lookup, best_body, standard = answers.lookup, answers.best_body, STANDARD.id
        for board, player in asked:
            best_body(lookup(standard, board, player))  # type: ignore[arg-type]

    for loop in (lookups, rendered, requests):  # warm-up
        loop()
    request = statistics.median(timed(requests, repeats)) / len(asked)
    empty = statistics.median(timed(lambda: textbook_best_move(".........", "X"), textbook))
    one_mark = statistics.median(timed(lambda: textbook_best_move("X........", "O"), max(3, textbook)))
    gc.unfreeze()
    return {
        "solve_ms": statistics.median(seconds) * 1000,
        "solve_ms_min": min(seconds) * 1000,
        "solve_ms_max": max(seconds) * 1000,
        "solves": len(seconds),
        "lookup_us": statistics.median(timed(lookups, repeats)) / len(asked) * 1e6,
        "lookup_positions": len(asked),
        "answer_lookup_us": statistics.median(timed(rendered, repeats)) / len(unfinished) * 1e6,
        "request_lookup_us": request * 1e6,
        "request_positions": len(asked),
        "textbook_empty_board_s": empty,
        "textbook_one_mark_s": one_mark,
        "speedup_empty_board": empty / request,
        "speedup_one_mark": one_mark / request,
    }


#: The plain requests of the fast lane: method, path, query string and body.
LANE_REQUESTS = {
    "post": ("POST", "/v1/best-move", b"", b'{"board": "X........"}'),
    "get": ("GET", "/v1/best-move", b"board=X........", b""),
    "position": ("GET", "/v1/positions/X........", b"", b""),
}


def lane_figures(rounds: int, requests: int) -> dict[str, Any]:
    """µs per plain request, answered in this process by the app as it is and by the app without the
    fast lane (every request through the routes): what the fast lane saves, median of ``rounds``
    interleaved rounds of ``requests`` requests each, the access log off."""
    from service.settings import Settings  # noqa: PLC0415 - the server's packages, only here
    from service.web.app import create_app  # noqa: PLC0415
    from service.web.fast_lane import FastLane  # noqa: PLC0415

    apps = {
        "lane": create_app(Settings(log_level="warning")),
        "routes": create_app(Settings(log_level="warning")),
    }
    apps["routes"].user_middleware = [m for m in apps["routes"].user_middleware if m.cls is not FastLane]  # type: ignore[comparison-overlap]
    found: dict[str, Any] = {}
    for name, (method, path, query, body) in LANE_REQUESTS.items():
        scope = {
            "type": "http",
            "http_version": "1.1",
            "method": method,
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": query,
            "root_path": "",
            "headers": [(b"host", b"bench")]
            + (
                [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
                if body
                else []
            ),
            "client": ("127.0.0.1", 1),
            "server": ("127.0.0.1", 80),
        }
        times: dict[str, list[float]] = {kind: [] for kind in apps}
        for _ in range(rounds):
            for kind, app in apps.items():
                times[kind].append(asyncio.run(_per_request(app, scope, body, requests)))
        found[name] = {kind: statistics.median(runs) * 1e6 for kind, runs in times.items()}
    return found


async def _per_request(app: ASGIApp, scope: dict[str, Any], body: bytes, requests: int) -> float:
    """Seconds per request of ``requests`` answered by ``app`` in a row, after as many to warm up."""

    async def one() -> None:
        pending = [{"type": "http.request", "body": body, "more_body": False}]

        async def receive() -> Message:
            return pending.pop() if pending else {"type": "http.disconnect"}

        async def send(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] != 200:
                raise RuntimeError(f"{scope['method']} {scope['path']}: {message['status']}")

        await app(dict(scope), receive, send)

    for _ in range(requests):
        await one()
    started = time.perf_counter()
    for _ in range(requests):
        await one()
    return (time.perf_counter() - started) / requests
