"""The CPU time one request costs, by operation and variant, measured in process with its caches cold.

Every operation that takes a board is asked in every variant of the service
(``service.game.variants.VARIANTS``): a plain best move, a best move with each option, a batch of
1,000 plain items, ``GET /v1/positions/{board}``, ``POST /v1/analysis``, ``POST /v1/review`` of the
longest game, and the ``/mcp`` tools that take a board. A position is asked on the empty board,
where there are the most moves to rank; a batch holds 1,000 different positions; a review is of
the longest game of the variant (:func:`tests.support.variant_games.longest_game`).

Each repetition of an operation runs in a fresh process (``python -m bench.cpu PLAN OPERATION``),
so that nothing it keeps (the app's answers, the game's memos) is made before it is measured. That
process makes the app with ``create_app`` (access log off: ``log_level`` ``warning``), runs its
lifespan, touches every page of the variants' tables (as a worker that has served a while has them),
sends ``GET /health`` and, for the tools, ``tools/list`` (which loads the MCP SDK), then the same
operation in each variant on another position (a warm-up: the code's first run, on positions the
measured ones do not share), and then, each after a garbage collection, the measured request in
each variant. The figure is ``time.process_time`` around the request's call of the ASGI app
(every thread of the process, so work moved off the event loop to a thread is counted), and the
table gives the median over the repetitions.
"""

from __future__ import annotations

import asyncio
import gc
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from tests.support import variant_games

#: Above this many milliseconds of CPU, a request is costly: it should run off the event loop, and
#: be in the proxy's stricter rate class.
COSTLY_MS = 1.0
#: The items of a batch.
BATCH_ITEMS = 1000
#: The MCP client's headers: the Streamable HTTP transport answers one that takes JSON and events.
MCP_ACCEPT = "application/json, text/event-stream"
#: The options of a best move with options, and of the ``best_move`` tool.
LEVEL, SKILL, SEED, DEPTH = "hard", 0.5, 1, 4


@dataclass(frozen=True)
class Row:
    key: str
    label: str


#: The rows of the table, in order: an operation, or the costliest of several (``options``, and the
#: ``best_move`` tool).
ROWS = (
    Row("best", "plain `POST /v1/best-move`"),
    Row("options", "`POST /v1/best-move` with options (the costliest)"),
    Row("batch", f"`POST /v1/best-move/batch`, {BATCH_ITEMS:,} different plain items"),
    Row("position", "`GET /v1/positions/{board}`"),
    Row("analysis", "`POST /v1/analysis`"),
    Row("review", "`POST /v1/review` of the longest game"),
    Row("mcp_best_move", "`/mcp` `best_move` (the costlier of `level`, `rating`; with a `seed`)"),
    Row("mcp_explain_move", "`/mcp` `explain_move`"),
    Row("mcp_analyze_position", "`/mcp` `analyze_position`"),
    Row("mcp_review_game", "`/mcp` `review_game` of the longest game"),
)


@dataclass(frozen=True)
class Call:
    """One request: its method, path and JSON body (``""`` for none), and what its answer must hold."""

    method: str
    path: str
    body: str = ""
    count: str = ""
    """The key of a list the answer holds: ``results`` of a batch, ``plies`` of a review."""
    length: int = 0
    """How many items that list holds."""


@dataclass(frozen=True)
class Operation:
    key: str
    row: str
    option: str
    """What tells it apart within its row: the option of a best move, ``""`` for most."""


def compact(value: object) -> str:
    return json.dumps(value, separators=(",", ":"))


def position_fields(variant: str, board: str, player: str) -> dict[str, str]:
    """A position as a client sends it: in the standard game, the board and, when both sides have as
    many marks, the player; in the others, the variant, the board and the side to move."""
    if variant == "standard":
        return {"board": board} | ({"player": player} if board.count("X") == board.count("O") else {})
    return {"variant": variant, "board": board, "player": player}


def tool(name: str, arguments: dict[str, Any]) -> str:
    """A ``tools/call`` of ``name`` with ``arguments``, as JSON-RPC."""
    return compact(
        {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": name, "arguments": arguments}}
    )


def rating(variant: str) -> float | None:
    """A rating between the two strongest calibrated players of a rated variant, ``None`` in the others."""
    from service.game.levels import LADDERS  # noqa: PLC0415 - the service's, only where it is needed

    ratings = sorted((LADDERS[variant].ratings or {}).values())
    return None if len(ratings) < 2 else (ratings[-1] + ratings[-2]) / 2


def requests(
    variant: str,
    position: tuple[str, str],
    batch: list[tuple[str, str]],
    game: list[tuple[int, str]],
    start: tuple[str, str],
) -> dict[Operation, Call]:
    """Each operation's request in ``variant``: on ``position``, the batch of ``batch``, the review of
    ``game`` played from ``start``."""

    board, player = position
    fields = position_fields(variant, board, player)
    moves = variant_games.game_moves(variant, game)
    reviewed = position_fields(variant, *start) | {"moves": moves}
    query = "" if variant == "standard" else f"?variant={variant}&player={player}"
    options: dict[str, dict[str, object]] = {
        "random": {"random": True},
        "depth": {"depth": DEPTH},
        "level": {"level": LEVEL, "seed": SEED},
        "skill": {"skill": SKILL, "seed": SEED},
    }
    tool_options: dict[str, dict[str, object]] = {"level": {"level": LEVEL, "seed": SEED}}
    rated = rating(variant)
    if rated is not None:
        options["rating"] = tool_options["rating"] = {"rating": rated, "seed": SEED}
    as_tool = {"variant": variant, "board": board, "player": player}
    found = {
        Operation("best", "best", ""): Call("POST", "/v1/best-move", compact(fields)),
        **{
            Operation(f"best_{name}", "options", name): Call("POST", "/v1/best-move", compact(fields | more))
            for name, more in options.items()
        },
        Operation("batch", "batch", ""): Call(
            "POST",
            "/v1/best-move/batch",
            compact({"items": [position_fields(variant, *p) for p in batch]}),
            "results",
            len(batch),
        ),
        Operation("position", "position", ""): Call("GET", f"/v1/positions/{board}{query}"),
        Operation("analysis", "analysis", ""): Call("POST", "/v1/analysis", compact(fields)),
        Operation("review", "review", ""): Call("POST", "/v1/review", compact(reviewed), "plies", len(game)),
        **{
            Operation(f"mcp_best_move_{name}", "mcp_best_move", name): Call(
                "POST", "/mcp", tool("best_move", as_tool | more)
            )
            for name, more in tool_options.items()
        },
        Operation("mcp_explain_move", "mcp_explain_move", ""): Call(
            "POST", "/mcp", tool("explain_move", as_tool)
        ),
        Operation("mcp_analyze_position", "mcp_analyze_position", ""): Call(
            "POST", "/mcp", tool("analyze_position", as_tool)
        ),
        Operation("mcp_review_game", "mcp_review_game", ""): Call(
            "POST", "/mcp", tool("review_game", reviewed), "plies", len(game)
        ),
    }
    return found


def plan(variants: Iterable[str]) -> dict[str, Any]:
    """Every operation's warm-up and measured requests in every variant, for the measuring processes.

    The measured requests ask the empty board (the first side to move), a batch of
    :data:`BATCH_ITEMS` positions of :func:`tests.support.variant_games.variant_positions`
    (different ones, or as many as the variant has, then repeated), and the review of
    :func:`tests.support.variant_games.longest_game`. The warm-up asks
    a position halfway through another game, off the longest game and out of the batch, a batch of
    that position alone, and a review of one move from it.
    """
    from . import mixes  # noqa: PLC0415

    operations: dict[str, dict[str, Any]] = {}
    described: dict[str, dict[str, Any]] = {}
    for variant in variants:
        game = variant_games.longest_game(variant)
        on_the_game = set(variant_games.replay(variant, game))
        batch = variant_games.variant_positions(variant, BATCH_ITEMS)
        aside = mixes.halfway(variant, on_the_game, set(batch))
        empty = variant_games.replay(variant, game)[0]
        measured = requests(variant, empty, batch, game, empty)
        warm = requests(variant, aside, [aside], [mixes.a_move(variant, *aside)], aside)
        for operation, call in measured.items():
            entry = operations.setdefault(operation.key, {"row": operation.row, "option": operation.option})
            entry.setdefault("variants", {})[variant] = {
                "measured": asdict(call),
                "warm": asdict(warm[operation]),
            }
        described[variant] = {
            "review_moves": len(game),
            "batch_distinct": len(set(batch)),
            "batch_items": len(batch),
        }
    return {"operations": operations, "variants": described}


# --- the measuring process --------------------------------------------------------------------------


async def call(app: Any, request: Call) -> tuple[int, bytes]:  # noqa: ANN401 - any ASGI app
    """``request`` answered by ``app`` in this process: its status and body.

    The body is received once; after it, ``receive`` waits until the answer is complete and then says
    the client has gone, as a server does.
    """
    path, _, query = request.path.partition("?")
    body = request.body.encode()
    headers = [(b"host", b"bench"), (b"accept", MCP_ACCEPT.encode() if path == "/mcp" else b"*/*")]
    if body:
        headers += [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": request.method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query.encode(),
        "root_path": "",
        "headers": headers,
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 80),
    }
    done, sent, status, parts = asyncio.Event(), False, 0, []

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        await done.wait()
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            parts.append(message.get("body", b""))
            if not message.get("more_body", False):
                done.set()

    await app(scope, receive, send)
    return status, b"".join(parts)


def checked(request: Call, status: int, answer: bytes) -> None:
    """The answer is a ``200`` with what ``request`` asks for (a tool's result, not its error)."""
    found = json.loads(answer) if status == 200 else None
    if found is not None and request.path == "/mcp":
        result = found.get("result", {})
        found = None if "error" in found or result.get("isError") else result.get("structuredContent")
    if found is None or (request.count and len(found.get(request.count, ())) != request.length):
        raise RuntimeError(
            f"{request.method} {request.path} {request.body[:300]} answered {status}: {answer[:500]!r}"
        )


def touch_tables() -> None:
    """Read a byte of every page of the variants' tables, which the service maps: a worker that has
    served a while has them in its memory."""
    from service.game.tables import TABLED, table  # noqa: PLC0415

    for variant in TABLED:
        found = table(variant.id)
        for view in (found.value_bytes, found.mistake_bytes):
            view[::4096].tobytes()
        sum(found.codes[::1024])


async def measure_operation(plan: dict[str, Any], key: str) -> dict[str, Any]:
    """One repetition of an operation of ``plan``: its CPU milliseconds in each variant (see the module's
    docstring), and those of ``GET /health``."""
    from service.settings import Settings  # noqa: PLC0415
    from service.web.app import create_app  # noqa: PLC0415

    variants = plan["operations"][key]["variants"]
    app = create_app(Settings(log_level="warning"))
    async with app.router.lifespan_context(app):
        touch_tables()
        health = Call("GET", "/health")
        for _ in range(3):
            checked(health, *await call(app, health))
        if key.startswith("mcp_"):
            listed = Call("POST", "/mcp", compact({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}))
            status, answer = await call(app, listed)
            if status != 200 or b'"tools"' not in answer:
                raise RuntimeError(f"tools/list answered {status}: {answer[:500]!r}")
        for requests_of in variants.values():
            warm = Call(**requests_of["warm"])
            checked(warm, *await call(app, warm))
        found: dict[str, float] = {}
        for variant, requests_of in [("/health", {"measured": asdict(health)}), *variants.items()]:
            request = Call(**requests_of["measured"])
            gc.collect()
            started = time.process_time()
            status, answer = await call(app, request)
            found[variant] = (time.process_time() - started) * 1000
            checked(request, status, answer)
    return {"health_ms": found.pop("/health"), "ms": found}


def main(argv: list[str] | None = None) -> int:
    """``python -m bench.cpu PLAN OPERATION``: one repetition of an operation, printed as JSON."""
    plan_file, key = sys.argv[1:] if argv is None else argv
    plan = json.loads(Path(plan_file).read_text())
    print(json.dumps(asyncio.run(measure_operation(plan, key))))
    return 0


# --- the table --------------------------------------------------------------------------------------


def measure(variants: list[str], repeats: int, folder: Path) -> dict[str, Any]:
    """Each operation of :func:`plan` in every variant, ``repeats`` times, each time in a process of its
    own (the operations in turn, in each repetition); the medians by row and variant."""
    from tests.support import ROOT  # noqa: PLC0415

    from .servers import environment  # noqa: PLC0415

    made = plan(variants)
    plan_file = folder / "cpu-plan.json"
    plan_file.write_text(json.dumps(made))
    runs: dict[str, list[dict[str, Any]]] = {key: [] for key in made["operations"]}
    for _ in range(repeats):
        for key, found in runs.items():
            done = subprocess.run(
                [sys.executable, "-m", "bench.cpu", str(plan_file), key],
                cwd=ROOT,
                env=environment(0, ROOT, product=False),
                capture_output=True,
                text=True,
                check=False,
                timeout=300,
            )
            if done.returncode != 0:
                raise RuntimeError(f"bench.cpu {key} failed ({done.returncode}):\n{done.stderr[-3000:]}")
            found.append(json.loads(done.stdout.splitlines()[-1]))
    operations = {
        key: {
            "row": made["operations"][key]["row"],
            "option": made["operations"][key]["option"],
            "ms": {
                variant: statistics.median(run["ms"][variant] for run in found) for variant in found[0]["ms"]
            },
            "ms_runs": {
                variant: [round(run["ms"][variant], 4) for run in found] for variant in found[0]["ms"]
            },
        }
        for key, found in runs.items()
    }
    rows: dict[str, dict[str, Any]] = {}
    for row in ROWS:
        mine = [op for op in operations.values() if op["row"] == row.key]
        cells = {}
        for variant in variants:
            costliest = max((op for op in mine if variant in op["ms"]), key=lambda op: op["ms"][variant])
            ms = costliest["ms"][variant]
            cells[variant] = {"ms": ms, "option": costliest["option"], "costly": ms > COSTLY_MS}
        rows[row.key] = {"label": row.label, "cells": cells}
    health = [run["health_ms"] for found in runs.values() for run in found]
    return {
        "repeats": repeats,
        "variants": variants,
        "costly_ms": COSTLY_MS,
        "rows": rows,
        "operations": operations,
        "health_ms": statistics.median(health),
        "described": made["variants"],
        "options": {"level": LEVEL, "skill": SKILL, "seed": SEED, "depth": DEPTH},
    }


if __name__ == "__main__":
    sys.exit(main())
