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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.support.proxy import proxied

from . import openloop, wrk

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
#: The address the ``/mcp`` client sends from.
MCP_CLIENT = "127.0.0.3"
#: The proxy's settings here: the shipped ones, but a general rate above the ``GET /health`` sent.
PROXY = {"PROXY_RATE": "1000", "PROXY_BURST": "1000"}
#: A client looping one ``POST`` on one keep-alive connection, from an address of its own, until
#: ``SIGINT``; it then prints how many answers it got.
LOOP = """
import http.client, signal, sys
port, source, path, body = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4].encode()
headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
answered = 0
try:
    connection = http.client.HTTPConnection("127.0.0.1", port, source_address=(source, 0), timeout=30)
    while True:
        connection.request("POST", path, body, headers)
        connection.getresponse().read()
        answered += 1
except KeyboardInterrupt:
    pass
print(answered, flush=True)
"""


@dataclass(frozen=True)
class Looping:
    """wrk looping one request on ``connections`` connections, until stopped."""

    port: int
    mix: Path
    connections: int

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
    """One client looping ``body`` to ``path`` from :data:`MCP_CLIENT`, until stopped (:data:`LOOP`)."""

    port: int
    path: str
    body: str

    def start(self) -> subprocess.Popen[str]:
        return subprocess.Popen(
            [sys.executable, "-c", LOOP, str(self.port), MCP_CLIENT, self.path, self.body],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )


def health_requests(port: int) -> list[bytes]:
    return [f"GET /health HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()]


def measure(port: int, folder: Path, rounds: int, seconds: float) -> dict[str, Any]:
    """Every load in every round, on the service at 127.0.0.1:``port``: the batch loads of
    :data:`LOADS`, then one ``/mcp`` client, directly and through the proxy (see the module's docstring).
    """
    mix = folder / "costly.tsv"
    mix.write_text(f"POST\t/v1/best-move/batch\t{COSTLY}\n")
    with through_proxy(port) as proxy:
        loads: dict[str, tuple[int, Callable[[], subprocess.Popen[str]] | None]] = {
            str(load): (port, Looping(port, mix, load).start if load else None) for load in LOADS
        }
        loads["1 /mcp"] = (port, LoopingCall(port, "/mcp", MCP_CALL).start)
        if proxy is not None:
            loads["through the proxy: 0"] = (proxy, None)
            loads["through the proxy: 1 /mcp"] = (proxy, LoopingCall(proxy, "/mcp", MCP_CALL).start)
        runs: dict[str, list[openloop.OpenLoopResult]] = {key: [] for key in loads}
        looped: dict[str, list[int]] = {key: [] for key in loads}
        for _ in range(rounds):
            for key, (target, start) in loads.items():
                if start is None:
                    runs[key].append(openloop.fixed_rate(target, health_requests(target), RATE, seconds))
                    continue
                clients = start()
                try:
                    time.sleep(SETTLE)
                    runs[key].append(openloop.fixed_rate(target, health_requests(target), RATE, seconds))
                finally:
                    clients.send_signal(signal.SIGINT)
                    out, _ = clients.communicate(timeout=60)
                looped[key].append(sent(out))
    figures: dict[str, Any] = {"rate": RATE, "seconds": seconds, "rounds": rounds, "loads": {}}
    for key in loads:
        idle = runs["through the proxy: 0" if key.startswith("through the proxy") else "0"]
        p50 = statistics.median(r.p50_ms for r in runs[key])
        p99 = statistics.median(r.p99_ms for r in runs[key])
        figures["loads"][key] = {
            "p50_ms": p50,
            "p99_ms": p99,
            "p99_ms_runs": [round(r.p99_ms, 3) for r in runs[key]],
            "p50_ratio": p50 / statistics.median(r.p50_ms for r in idle),
            "p99_ratio": p99 / statistics.median(r.p99_ms for r in idle),
            "errors": sum(r.errors for r in runs[key]),
            "costly_sent": sum(looped[key]),
        }
    return figures


def sent(out: str) -> int:
    """The requests a looping client made, from what it printed: wrk's ``BENCH`` line, or a count."""
    line = next((x for x in out.splitlines() if x.startswith("BENCH ")), None)
    if line is not None:
        requests: int = json.loads(line.removeprefix("BENCH "))["requests"]
        return requests
    return int(out.split(maxsplit=1)[0]) if out.split() else 0


@contextmanager
def through_proxy(port: int) -> Iterator[int | None]:
    """The proxy of deploy/proxy in front of the service, its port; ``None`` without nginx."""
    if shutil.which("nginx") is None:
        yield None
        return
    with proxied([f"127.0.0.1:{port}"], PROXY) as proxy:
        yield proxy.port
