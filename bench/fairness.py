"""How long cheap requests take while clients loop costly ones: the latency ratios of fairness.

The suite checks fairness by the order of answers (``tests/e2e/test_fairness.py``); how long a
cheap request takes among costly ones is a duration, so it is measured here and printed, never
asserted. A fixed-rate, open-loop generator (:mod:`.openloop`) sends ``GET /health`` at
:data:`RATE` per second, first with nothing else running (*idle*), then while wrk keeps 1, then 4,
connections looping the costliest valid request (:data:`COSTLY`, a batch of 1,000 items with a
level and a seed, as the fairness test sends it). The service takes a few costly requests at a time
and refuses the rest with ``503`` at once, so the looping clients are also a flood of refusals.
Each load runs in every round, in turn (idle, 1, 4, idle, 1, 4, …), and the figures are medians
over the rounds; a ratio is a load's p50 or p99 over the idle one.

The same is measured with one client looping the largest valid ``/mcp`` call (:data:`MCP_CALL`, a
``review_game`` of 9 moves with every argument, as ``tools/call``), directly and through the proxy
of ``deploy/proxy`` (the system's nginx with the shipped configuration, when there is one): through
the proxy, ``GET /health`` is sent through it too, and its ratio is to its own idle figure there.
That client sends from an address of its own in 127.0.0.0/8 (all of it loopback), as a client of
its own would reach the proxy, whose rates are per address; the proxy's general rate is raised
(:data:`PROXY`) so that the 100 ``GET /health`` a second are never refused, and ``/mcp`` keeps the
shipped rate of the costly operations.

Then one client loops each of the costly requests of the variants (:func:`loops`), directly and
through the proxy, the same way: a batch of 1,000 Notakto-3 items without options, a review of a
16-move ``4x4`` game, a review of a 21-move Notakto-3 game (the longest there is), and an analysis of
a near-empty ``4x4`` board. Each client cycles through many different requests (17 batches of 1,000
different positions, 200 games, 1,937 boards), more than the service keeps answers of, so that its
caches do not answer them; each sends from an address of its own, so that the proxy's rates for one
do not carry over to the next. The target for each, as for ``/mcp``: a ``GET /health`` p99 at most
:data:`TARGET` times its idle figure, directly and through the proxy.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.support import variant_games
from tests.support.proxy import proxied

from . import mixes, openloop, wrk

#: ``GET /health`` per second during each measurement.
RATE = 100
#: The costliest valid request: a batch of 1,000 items, each a board in rows with a level and a seed.
ROWS = [["X", "O", None], [None, "X", None], [None, None, "O"]]
COSTLY = json.dumps(
    {"items": [{"board": ROWS, "level": "hard", "seed": n} for n in range(1000)]}, separators=(",", ":")
)
#: Connections looping :data:`COSTLY` under each load; 0 is the idle measurement.
LOADS = (0, 1, 4)
#: Seconds the looping clients run before the measurement begins.
SETTLE = 0.5
#: The largest valid ``/mcp`` call: a review of 9 moves (a whole drawn game) with every argument.
MCP_CALL = json.dumps(
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {
            "name": "review_game",
            "arguments": {"moves": [4, 0, 2, 6, 3, 5, 1, 7, 8], "board": ".........", "player": "X"},
        },
    },
    separators=(",", ":"),
)
#: The address the ``/mcp`` client sends from; the clients of :func:`loops` send from the next ones.
FIRST_CLIENT = 3
#: The proxy's settings here: the shipped ones, but a general rate above the ``GET /health`` sent.
PROXY = {"PROXY_RATE": "1000", "PROXY_BURST": "1000"}
#: The most a ``GET /health`` p99 under a looping client may be, in multiples of its idle p99.
TARGET = 10
#: A client looping through the requests of a mix file (``METHOD<TAB>PATH<TAB>BODY`` lines), from a
#: random one on, on one keep-alive connection (opened again when an answer closes it), from an
#: address of its own, for a number of seconds; it then prints how many answers of each status it
#: got (``no answer``: none within 10 s, or the connection failed).
LOOP = """
import http.client, json, random, sys, time
port, source, mix, seconds = int(sys.argv[1]), sys.argv[2], sys.argv[3], float(sys.argv[4])
deadline = time.monotonic() + seconds
with open(mix) as lines:
    requests = [line.rstrip("\\n").split("\\t", 2) for line in lines if line.strip()]
headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
statuses, number = {}, random.randrange(len(requests))
connection = http.client.HTTPConnection("127.0.0.1", port, source_address=(source, 0), timeout=10)
while time.monotonic() < deadline:
    method, path, body = requests[number % len(requests)]
    number += 1
    try:
        connection.request(method, path, body.encode() or None, headers)
        response = connection.getresponse()
        response.read()
        answer = str(response.status)
    except (OSError, http.client.HTTPException):
        answer = "no answer"
        connection.close()
    statuses[answer] = statuses.get(answer, 0) + 1
print(json.dumps(statuses), flush=True)
"""


@dataclass(frozen=True)
class Loop:
    """A costly request of a variant that one client loops: what it is, and the requests it cycles through."""

    key: str
    label: str
    lines: list[str]


def loops() -> list[Loop]:
    """The costly requests of the variants, each as many different ones as caches cannot keep: 17
    batches of 1,000 different Notakto-3 positions (more than the 16,384 best moves a worker keeps),
    200 different 16-move ``4x4`` games and 200 different 21-move Notakto-3 games (the positions on
    their way more than the 1,024 analyses kept), and every ``4x4`` board with at most 3 marks
    (1,937)."""
    positions = variant_games.variant_positions("notakto-3", 17 * 1000)
    batches = [positions[i : i + 1000] for i in range(0, len(positions), 1000)]
    items = [[{"variant": "notakto-3", "board": board, "player": side} for board, side in b] for b in batches]

    def reviews(variant: str) -> list[str]:
        games = variant_games.longest_games(variant, 200)
        bodies = [{"variant": variant, "moves": variant_games.game_moves(variant, game)} for game in games]
        return [f"POST\t/v1/review\t{mixes.compact(body)}" for body in bodies]

    boards = mixes.near_empty("4x4", 3)
    return [
        Loop(
            "notakto-3 batch",
            "a batch of 1,000 Notakto-3 items, no options",
            [f"POST\t/v1/best-move/batch\t{mixes.compact({'items': batch})}" for batch in items],
        ),
        Loop("4x4 review", "a review of a 16-move `4x4` game", reviews("4x4")),
        Loop("notakto-3 review", "a review of a 21-move Notakto-3 game", reviews("notakto-3")),
        Loop(
            "4x4 analysis",
            "`POST /v1/analysis` of a `4x4` board with at most 3 marks",
            [
                f"POST\t/v1/analysis\t{mixes.compact({'variant': '4x4', 'board': b, 'player': p})}"
                for b, p in boards
            ],
        ),
    ]


@dataclass(frozen=True)
class Looping:
    """wrk looping one request on ``connections`` connections, until stopped."""

    port: int
    mix: Path
    connections: int

    def stop(self, process: subprocess.Popen[str]) -> str:
        """Stop wrk with ``SIGINT``: what it printed."""
        process.send_signal(signal.SIGINT)
        out, _ = process.communicate(timeout=60)
        return out

    def start(self) -> subprocess.Popen[str]:
        """wrk, running until it is sent ``SIGINT`` (it then prints its ``BENCH`` line and exits)."""
        return subprocess.Popen(
            [
                "wrk",
                "-t1",
                f"-c{self.connections}",
                "-d1h",
                "-s",
                str(wrk.SCRIPT),
                f"http://127.0.0.1:{self.port}",
            ],
            env={**os.environ, "BENCH_REQUESTS": str(self.mix)},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )


@dataclass(frozen=True)
class LoopingCall:
    """One client looping through the requests of ``mix`` from ``source`` for ``seconds`` (:data:`LOOP`)."""

    port: int
    mix: Path
    source: str
    seconds: float

    def start(self) -> subprocess.Popen[str]:
        return subprocess.Popen(
            [sys.executable, "-c", LOOP, str(self.port), self.source, str(self.mix), str(self.seconds)],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )

    def stop(self, process: subprocess.Popen[str]) -> str:
        """Wait for the client to end its loop: what it printed."""
        out, _ = process.communicate(timeout=self.seconds + 60)
        return out


def health_requests(port: int) -> list[bytes]:
    return [f"GET /health HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()]


def measure(port: int, folder: Path, rounds: int, seconds: float) -> dict[str, Any]:
    """Every load in every round, on the service at 127.0.0.1:``port``: the batch loads of
    :data:`LOADS`, then one ``/mcp`` client and one client of each of :func:`loops`, directly and
    through the proxy (see the module's docstring).
    """
    mix = folder / "costly.tsv"
    mix.write_text(f"POST\t/v1/best-move/batch\t{COSTLY}\n")
    calls = {"/mcp": folder / "mcp.tsv"}
    calls["/mcp"].write_text(f"POST\t/mcp\t{MCP_CALL}\n")
    labels = {"/mcp": "the largest valid `/mcp` call"}
    for number, loop in enumerate(loops()):
        calls[loop.key] = folder / f"loop-{number}.tsv"
        calls[loop.key].write_text("\n".join(loop.lines) + "\n")
        labels[loop.key] = loop.label
        method, path, body = loop.lines[0].split("\t", 2)
        status, answer = mixes.fetch(port, method, path, body)
        if status != 200:
            raise RuntimeError(f"fairness, {loop.key}: {method} {path} answered {status}: {answer[:500]!r}")
    sources = {key: f"127.0.0.{FIRST_CLIENT + number}" for number, key in enumerate(calls)}
    with through_proxy(port) as proxy:
        loads: dict[str, tuple[int, Looping | LoopingCall | None]] = {
            str(load): (port, Looping(port, mix, load) if load else None) for load in LOADS
        }
        for key, file in calls.items():
            loads[f"1 {key}"] = (port, LoopingCall(port, file, sources[key], SETTLE + seconds))
        if proxy is not None:
            loads["through the proxy: 0"] = (proxy, None)
            for key, file in calls.items():
                loads[f"through the proxy: 1 {key}"] = (
                    proxy,
                    LoopingCall(proxy, file, sources[key], SETTLE + seconds),
                )
        runs: dict[str, list[openloop.OpenLoopResult]] = {key: [] for key in loads}
        looped: dict[str, list[dict[str, int]]] = {key: [] for key in loads}
        for _ in range(rounds):
            for key, (target, clients) in loads.items():
                if clients is None:
                    runs[key].append(openloop.fixed_rate(target, health_requests(target), RATE, seconds))
                    continue
                process = clients.start()
                try:
                    time.sleep(SETTLE)
                    runs[key].append(openloop.fixed_rate(target, health_requests(target), RATE, seconds))
                finally:
                    out = clients.stop(process)
                looped[key].append(statuses(out))
    figures: dict[str, Any] = {
        "rate": RATE,
        "seconds": seconds,
        "rounds": rounds,
        "target": TARGET,
        "loads": {},
    }
    for key in loads:
        idle = runs["through the proxy: 0" if key.startswith("through the proxy") else "0"]
        p50 = statistics.median(r.p50_ms for r in runs[key])
        p99 = statistics.median(r.p99_ms for r in runs[key])
        answers: dict[str, int] = {}
        for found in looped[key]:
            for answered, count in found.items():
                answers[answered] = answers.get(answered, 0) + count
        looping = key.removeprefix("through the proxy: ").removeprefix("1 ")
        figures["loads"][key] = {
            "p50_ms": p50,
            "p99_ms": p99,
            "p99_ms_runs": [round(r.p99_ms, 3) for r in runs[key]],
            "max_ms": max(r.max_ms for r in runs[key]),
            "send_lag_p99_ms": statistics.median(r.send_lag_p99_ms for r in runs[key]),
            "connections": max(r.connections for r in runs[key]),
            "p50_ratio": p50 / statistics.median(r.p50_ms for r in idle),
            "p99_ratio": p99 / statistics.median(r.p99_ms for r in idle),
            "errors": sum(r.errors for r in runs[key]),
            "costly_sent": answers.pop("sent", sum(answers.values())),
            "statuses": answers,
            **({"looping": labels[looping], "target": TARGET} if looping in labels else {}),
        }
    return figures


def statuses(out: str) -> dict[str, int]:
    """What a looping client sent, from what it printed: for wrk, ``sent`` (its ``BENCH`` line) and
    ``non-2xx``; for :data:`LOOP`, the count of answers of each status."""
    line = next((x for x in out.splitlines() if x.startswith("BENCH ")), None)
    if line is not None:
        found = json.loads(line.removeprefix("BENCH "))
        return {"sent": found["requests"], "non-2xx": found["non2xx"]}
    printed = out.strip().splitlines()
    counts: dict[str, int] = json.loads(printed[-1]) if printed else {}
    return counts


@contextmanager
def through_proxy(port: int) -> Iterator[int | None]:
    """The proxy of deploy/proxy in front of the service, its port; ``None`` without nginx."""
    if shutil.which("nginx") is None:
        yield None
        return
    with proxied([f"127.0.0.1:{port}"], PROXY) as proxy:
        yield proxy.port
