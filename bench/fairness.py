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
"""

from __future__ import annotations

import json
import os
import signal
import statistics
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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


def health_requests(port: int) -> list[bytes]:
    return [f"GET /health HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()]


def measure(port: int, folder: Path, rounds: int, seconds: float) -> dict[str, Any]:
    """Every load of :data:`LOADS` in every round, on the service at 127.0.0.1:``port``."""
    mix = folder / "costly.tsv"
    mix.write_text(f"POST\t/v1/best-move/batch\t{COSTLY}\n")
    cheap = health_requests(port)
    runs: dict[int, list[openloop.OpenLoopResult]] = {load: [] for load in LOADS}
    looped: dict[int, list[int]] = {load: [] for load in LOADS}
    for _ in range(rounds):
        for load in LOADS:
            if load == 0:
                runs[load].append(openloop.fixed_rate(port, cheap, RATE, seconds))
                continue
            clients = Looping(port, mix, load).start()
            try:
                time.sleep(SETTLE)
                runs[load].append(openloop.fixed_rate(port, cheap, RATE, seconds))
            finally:
                clients.send_signal(signal.SIGINT)
                out, _ = clients.communicate(timeout=60)
            line = next((x for x in out.splitlines() if x.startswith("BENCH ")), None)
            looped[load].append(json.loads(line.removeprefix("BENCH "))["requests"] if line else 0)
    idle = runs[0]
    idle_p50 = statistics.median(r.p50_ms for r in idle)
    idle_p99 = statistics.median(r.p99_ms for r in idle)
    figures: dict[str, Any] = {"rate": RATE, "seconds": seconds, "rounds": rounds, "loads": {}}
    for load in LOADS:
        p50 = statistics.median(r.p50_ms for r in runs[load])
        p99 = statistics.median(r.p99_ms for r in runs[load])
        figures["loads"][str(load)] = {
            "p50_ms": p50,
            "p99_ms": p99,
            "p99_ms_runs": [round(r.p99_ms, 3) for r in runs[load]],
            "p50_ratio": p50 / idle_p50,
            "p99_ratio": p99 / idle_p99,
            "errors": sum(r.errors for r in runs[load]),
            "costly_sent": sum(looped[load]),
        }
    return figures
