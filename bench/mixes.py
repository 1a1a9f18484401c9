"""The requests the benchmark sends: every unfinished position, as a client would ask for it.

The positions come from the tests' independent oracle
(:func:`tests.support.oracle.reachable`), not from the service: the 6,617
unfinished boards reached in real play with either side starting, each with
every side that may be to move on it, 9,040 positions. ``player`` is sent only
when both sides have as many marks (otherwise the marks say whose turn it is),
as a client would. A mix is a file of request lines, ``METHOD<TAB>PATH<TAB>BODY``,
that ``requests.lua`` cycles through.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import math
from pathlib import Path
from typing import Literal

from tests.support.loadgen import Request, load
from tests.support.oracle import decode, reachable

from .asgi import CONSTANT, CONSTANT_OF, CONSTANT_PATH

BATCH_SIZE = 100
Player = Literal["X", "O"]


def positions() -> list[tuple[str, Player | None]]:
    """``(board, player)`` of every unfinished position, ``player`` only when the counts leave it open."""
    found: list[tuple[str, Player | None]] = []
    for cells, sides in reachable().items():
        board = decode(cells)
        for side in sorted(sides):
            player: Player = "X" if side == 1 else "O"
            found.append((board, player if board.count("X") == board.count("O") else None))
    return sorted(found, key=lambda position: (position[0], position[1] or ""))


def compact(value: object) -> str:
    """JSON as a browser's ``JSON.stringify`` writes it: no spaces."""
    return json.dumps(value, separators=(",", ":"))


def body(board: str, player: str | None) -> dict[str, str]:
    return {"board": board} | ({"player": player} if player else {})


def query(board: str, player: str | None) -> str:
    return f"board={board}" + (f"&player={player}" if player else "")


#: The difficulty levels, in the order the ``level`` mix takes them in turn.
LEVELS = ("beginner", "easy", "medium", "hard", "perfect")
#: The ``skill`` of the ``skill`` mix.
SKILL = 0.5


def mixes() -> dict[str, list[str]]:
    """Request lines for each mix: ``constant`` (and ``constant_post``, the bodies of ``post`` sent
    to the constant route), ``post``, ``get``, ``batch``, ``positions``, and ``random``,
    ``depth``, ``level`` and ``skill`` (``POST /v1/best-move`` with ``random: true``, with a depth
    of 1 to 9 in turn, with each level in turn, and with a skill of 0.5 and a seed, the
    request's number).

    The batches take 100 positions at a time, the last wrapping around to the first ones.
    """
    every = positions()
    count = math.ceil(len(every) / BATCH_SIZE)
    ring = every + every[: count * BATCH_SIZE - len(every)]
    batches = [ring[i * BATCH_SIZE : (i + 1) * BATCH_SIZE] for i in range(count)]
    return {
        "constant": [f"GET\t{CONSTANT_PATH}\t"],
        "constant_post": [f"POST\t{CONSTANT_PATH}\t{compact(body(*p))}" for p in every],
        "post": [f"POST\t/v1/best-move\t{compact(body(*p))}" for p in every],
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
    }


def write(lines: dict[str, list[str]], folder: Path) -> dict[str, Path]:
    """Each mix in a file of its own, for ``requests.lua``."""
    files = {}
    for name, mix in lines.items():
        files[name] = folder / f"{name}.tsv"
        files[name].write_text("\n".join(mix) + "\n")
    return files


def raw_request(line: str, port: int) -> bytes:
    """A request line of a mix as HTTP/1.1 bytes, as wrk sends it."""
    method, target, payload = line.split("\t", 2)
    head = f"{method} {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
    if payload:
        head += f"Content-Type: application/json\r\nContent-Length: {len(payload.encode())}\r\n"
    return (head + "\r\n" + payload).encode()


def every_request(port: int, lines: list[str], connections: int = 16) -> None:
    """Send each request of ``lines`` once (over ``connections`` at a time); each must answer ``200``."""
    requests = []
    for line in lines:
        method, target, payload = line.split("\t", 2)
        requests.append(Request(method, target, payload.encode()))
    answers = asyncio.run(load(port, requests, connections, timeout=300))
    failed = [(request, answer) for request, answer in answers if answer.status != 200]
    if failed:
        request, answer = failed[0]
        raise RuntimeError(
            f"{len(failed)} of {len(requests)} requests failed; {request.method} {request.path} "
            f"answered {answer.status}: {answer.body[:500]!r}"
        )


def fetch(port: int, method: str, target: str, payload: str = "") -> tuple[int, bytes]:
    """One request to 127.0.0.1:``port``: the status and the body of the answer."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        headers = {"Content-Type": "application/json"} if payload else {}
        connection.request(method, target, body=payload or None, headers=headers)
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
        method, target, payload = line.split("\t", 2)
        status, answer = fetch(port, method, target, payload)
        if status != 200:
            raise RuntimeError(f"{name}: {method} {target} answered {status}: {answer[:500]!r}")
        if target == CONSTANT_PATH and answer != CONSTANT:
            raise RuntimeError(f"{name}: {target} answered {answer[:500]!r}, not the constant")
        results = json.loads(answer).get("results")
        if target.endswith("/batch") and len(results) != BATCH_SIZE:
            raise RuntimeError(f"{name}: {len(results)} results in a batch of {BATCH_SIZE}")
