"""wrk runs: one thread, N keep-alive connections, cycling through a mix of requests (``requests.lua``)."""

from __future__ import annotations

import contextlib
import json
import os
import statistics
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCRIPT = Path(__file__).resolve().parent / "requests.lua"
THREADS = 1


@dataclass(frozen=True)
class Run:
    requests: int
    rps: float
    p50_ms: float
    p99_ms: float
    errors: int
    """Connection errors, time-outs, and answers with a status of 400 or more."""
    steal_pct: float
    """The share of the machine's CPU time the hypervisor took during the run."""


def cpu_times() -> tuple[int, int]:
    """Jiffies of the whole machine so far: ``(total, stolen by the hypervisor)``."""
    with contextlib.suppress(OSError, ValueError, IndexError):
        with open("/proc/stat", encoding="ascii") as stat:
            fields = [int(v) for v in stat.readline().split()[1:9]]
        return sum(fields), fields[7]
    return 0, 0


def run(port: int, mix: Path, seconds: int, connections: int) -> Run:
    """One wrk run of ``seconds`` against 127.0.0.1:``port`` over the requests in the file ``mix``."""
    total_before, steal_before = cpu_times()
    result = subprocess.run(
        [
            "wrk",
            f"-t{THREADS}",
            f"-c{connections}",
            f"-d{max(1, seconds)}s",
            "-s",
            str(SCRIPT),
            f"http://127.0.0.1:{port}",
        ],
        env={**os.environ, "BENCH_REQUESTS": str(mix)},
        capture_output=True,
        text=True,
        check=False,
        timeout=seconds + 60,
    )
    total_after, steal_after = cpu_times()
    line = next((line for line in result.stdout.splitlines() if line.startswith("BENCH ")), None)
    if result.returncode != 0 or line is None:
        raise RuntimeError(f"wrk failed ({result.returncode}): {result.stdout}{result.stderr}")
    data = json.loads(line.removeprefix("BENCH "))
    return Run(
        requests=data["requests"],
        rps=data["requests"] / data["seconds"],
        p50_ms=data["p50_us"] / 1000,
        p99_ms=data["p99_us"] / 1000,
        errors=data["errors"] + data["non2xx"],
        steal_pct=100 * (steal_after - steal_before) / max(1, total_after - total_before),
    )


def summary(runs: list[Run]) -> dict[str, Any]:
    """Medians over the rounds, with every round's throughput for the spread."""
    return {
        "rps": statistics.median(r.rps for r in runs),
        "p50_ms": statistics.median(r.p50_ms for r in runs),
        "p99_ms": statistics.median(r.p99_ms for r in runs),
        "rps_min": min(r.rps for r in runs),
        "rps_max": max(r.rps for r in runs),
        "rps_runs": [round(r.rps, 1) for r in runs],
        "requests": sum(r.requests for r in runs),
        "errors": sum(r.errors for r in runs),
        "steal_pct": statistics.median(r.steal_pct for r in runs),
        "runs": len(runs),
    }
