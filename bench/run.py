"""``make bench``: the service measured layer by layer, side by side, with its targets.

Runs the real server on 127.0.0.1 under uvicorn with the settings ``python -m
service`` uses, drives it with wrk, interleaves the things it compares (A B A B
...) and reports medians. Prints a table and writes ``bench/results.json``.
It asserts nothing: the figures are for people to read.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import platform
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib.metadata import version
from pathlib import Path
from typing import Any

from service.game.board import Position
from service.game.solver import SolvedGame, solve
from service.web.answers import Answers

from .textbook import best_move as textbook_best_move

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SCRIPT = HERE / "requests.lua"
RESULTS = HERE / "results.json"
BATCH_SIZE = 100


@dataclass(frozen=True)
class Mode:
    rounds: int
    seconds: float
    connections: int
    soak_requests: int
    startups: int
    solves: int


FULL = Mode(rounds=5, seconds=5.0, connections=32, soak_requests=100_000, startups=5, solves=9)
QUICK = Mode(rounds=3, seconds=2.0, connections=32, soak_requests=20_000, startups=3, solves=5)
SMOKE = Mode(rounds=1, seconds=1.0, connections=8, soak_requests=2_000, startups=1, solves=1)


# --- the server --------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_healthy(port: int, process: subprocess.Popen[bytes], timeout: float = 30) -> float:
    """Poll ``/health`` until it answers 200; the seconds it took."""
    started = time.perf_counter()
    while time.perf_counter() - started < timeout:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with {process.returncode}")
        with contextlib.suppress(OSError):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
            connection.request("GET", "/health")
            if connection.getresponse().status == 200:
                return time.perf_counter() - started
        time.sleep(0.005)
    raise RuntimeError("the server did not become healthy")


@contextlib.contextmanager
def server(command: list[str], port: int) -> Iterator[subprocess.Popen[bytes]]:
    env = {**os.environ, "TICTACTOE_HOST": "127.0.0.1", "TICTACTOE_PORT": str(port)}
    process = subprocess.Popen(
        command,
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_healthy(port, process)
        yield process
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


def bench_server_command(port: int) -> list[str]:
    """uvicorn with the settings of ``python -m service``, serving :mod:`bench.asgi`."""
    code = (
        "import uvicorn; from service import logs; from service.settings import Settings; s = Settings(); "
        f"uvicorn.run('bench.asgi:app', factory=True, host='127.0.0.1', port={port}, "
        "log_level=s.log_level, log_config=logs.config(s.log_level), access_log=False, "
        "server_header=False, date_header=True)"
    )
    return [sys.executable, "-c", code]


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


# --- request mixes -----------------------------------------------------------------------------------


def positions(game: SolvedGame) -> list[Position]:
    """Every unfinished position: all 6,617 unfinished boards, each with every side that may move."""
    return sorted(
        (a.position for a in game if a.position.to_move is not None),
        key=lambda p: (p.board.cells, p.to_move or ""),
    )


def body(position: Position) -> dict[str, str]:
    return {"board": position.board.cells, "player": position.to_move or ""}


def mixes(game: SolvedGame) -> dict[str, list[str]]:
    """Request lines (METHOD, PATH, BODY separated by tabs) for each thing measured."""
    every = positions(game)
    batches = [every[i : i + BATCH_SIZE] for i in range(0, len(every), BATCH_SIZE)]
    return {
        "bare": ["GET\t/bench/bare\t"],
        "constant": ["GET\t/bench/constant\t"],
        "POST /v1/best-move": [f"POST\t/v1/best-move\t{json.dumps(body(p))}" for p in every],
        "GET /v1/best-move": [
            f"GET\t/v1/best-move?board={p.board.cells}&player={p.to_move}\t" for p in every
        ],
        "GET /v1/positions/{board}": [
            f"GET\t/v1/positions/{p.board.cells}?player={p.to_move}\t" for p in every
        ],
        "POST /v1/best-move/batch": [
            f"POST\t/v1/best-move/batch\t{json.dumps({'items': [body(p) for p in batch]})}"
            for batch in batches
            if len(batch) == BATCH_SIZE
        ],
    }


@dataclass(frozen=True)
class Run:
    requests: int
    rps: float
    p50_ms: float
    p99_ms: float
    errors: int


def wrk(port: int, lines: list[str], seconds: float, connections: int, delay_ms: float = 0) -> Run:
    with tempfile.NamedTemporaryFile("w", suffix=".tsv", delete=False) as handle:
        handle.write("\n".join(lines) + "\n")
    try:
        env = {**os.environ, "BENCH_REQUESTS": handle.name, "BENCH_DELAY_MS": str(delay_ms)}
        result = subprocess.run(
            [
                "wrk",
                "-t1",
                f"-c{connections}",
                f"-d{max(1, round(seconds))}s",
                "-s",
                str(SCRIPT),
                f"http://127.0.0.1:{port}",
            ],
            env=env,
            capture_output=True,
            text=True,
            check=True,
            timeout=seconds + 60,
        )
    finally:
        os.unlink(handle.name)
    line = next(line for line in result.stdout.splitlines() if line.startswith("BENCH "))
    data = json.loads(line.removeprefix("BENCH "))
    return Run(
        requests=data["requests"],
        rps=data["requests"] / data["seconds"],
        p50_ms=data["p50_us"] / 1000,
        p99_ms=data["p99_us"] / 1000,
        errors=data["errors"] + data["non2xx"],
    )


def median_run(runs: list[Run]) -> dict[str, float]:
    return {
        "rps": statistics.median(r.rps for r in runs),
        "p50_ms": statistics.median(r.p50_ms for r in runs),
        "p99_ms": statistics.median(r.p99_ms for r in runs),
        "errors": sum(r.errors for r in runs),
        "runs": len(runs),
    }


# --- in-process figures ------------------------------------------------------------------------------


def timed(function: Callable[[], object], repeat: int) -> float:
    """Median seconds of ``repeat`` calls."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        function()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def solver_figures(mode: Mode) -> dict[str, float]:
    solve_seconds = statistics.median(solve().seconds for _ in range(mode.solves))
    game = solve()
    every = [a.position for a in game]
    docs = Answers(game)
    unfinished = [p for p in every if p.to_move is not None]
    for position in unfinished:
        docs.best_move(position)

    def lookups() -> None:
        for position in every:
            game[position]

    def answers() -> None:
        for position in unfinished:
            docs.best_move(position)

    def requests() -> None:
        for position in unfinished:
            docs.best_move(game.lookup(position.board.cells, position.to_move))  # type: ignore[arg-type]

    lookup = timed(lookups, 7) / len(every)
    answer = timed(answers, 7) / len(unfinished)
    request = timed(requests, 7) / len(unfinished)
    empty = timed(lambda: textbook_best_move(".........", "X"), 1 if mode is SMOKE else 3)
    one_mark = timed(lambda: textbook_best_move("X........", "O"), 3)
    return {
        "solve_ms": solve_seconds * 1000,
        "lookup_us": lookup * 1e6,
        "answer_lookup_us": answer * 1e6,
        "request_lookup_us": request * 1e6,
        "textbook_empty_board_s": empty,
        "textbook_one_mark_s": one_mark,
        "speedup_empty_board": empty / request,
        "speedup_one_mark": one_mark / request,
    }


def startup_and_memory(mode: Mode, lines: list[str]) -> dict[str, float]:
    """Start-up to healthy of ``python -m service``, and a worker's memory before and after a soak."""
    startups = []
    for _ in range(mode.startups):
        port = free_port()
        env = {**os.environ, "TICTACTOE_HOST": "127.0.0.1", "TICTACTOE_PORT": str(port)}
        started = time.perf_counter()
        process = subprocess.Popen(
            [sys.executable, "-m", "service"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            wait_healthy(port, process)
            startups.append(time.perf_counter() - started)
        finally:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=10)

    port = free_port()
    with server([sys.executable, "-m", "service"], port) as process:
        before = rss_mib(process.pid)
        sent = 0
        while sent < mode.soak_requests:  # wrk runs for a time, not a count: run until enough were sent
            sent += wrk(
                port, lines, seconds=max(1.0, (mode.soak_requests - sent) / 6000), connections=32
            ).requests
        after = rss_mib(process.pid)
    return {
        "startup_s": statistics.median(startups),
        "rss_start_mib": before,
        "rss_after_mib": after,
        "soak_requests": sent,
        "rss_growth_pct": (after - before) / before * 100,
    }


# --- the report --------------------------------------------------------------------------------------


def machine() -> dict[str, Any]:
    cpu = "unknown"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "fastapi": version("fastapi"),
        "uvicorn": version("uvicorn"),
        "pydantic": version("pydantic"),
        "wrk": subprocess.run(["wrk", "-v"], capture_output=True, text=True, check=False).stdout.split("\n")[
            0
        ],
    }


def verdict(ok: bool) -> str:
    return "pass" if ok else "short"


def report(results: dict[str, Any], order: list[str]) -> None:
    """Print the figures as Markdown tables and lines."""
    print()
    print("| endpoint | requests/s | p50 ms | p99 ms | vs constant | vs bare ASGI |")
    print("|---|---:|---:|---:|---:|---:|")
    for name in order:
        f = results["http"][name]
        print(
            f"| {name} | {f['rps']:,.0f} | {f['p50_ms']:.2f} | {f['p99_ms']:.2f} | "
            f"{f['vs_constant']:.2f} | {f['vs_bare']:.2f} |"
        )
    per_board = results["http"]["POST /v1/best-move/batch"]["boards_per_s"]
    print(f"| batch of {BATCH_SIZE}, per board | {per_board:,.0f} | | | | |")
    print()
    print("| target | measured | |")
    print("|---|---:|---|")
    for item in results["targets"]:
        print(f"| {item['target']} | {item['value']:,.3g} | {verdict(item['pass'])} |")
    print()
    sv, sr, fixed_rate = results["solver"], results["service"], results["fixed_rate"]
    half, worker_rss = fixed_rate["rate"], sr["bench_worker_rss_mib"]
    print(f"solver: whole table {sv['solve_ms']:.1f} ms")
    print(
        f"lookup per query: {sv['lookup_us']:.3f} µs (analysis), {sv['answer_lookup_us']:.3f} µs "
        f"(rendered answer), {sv['request_lookup_us']:.3f} µs (board string to rendered answer)"
    )
    print(
        f"textbook minimax: {sv['textbook_empty_board_s']:.2f} s on the empty board "
        f"({sv['speedup_empty_board']:,.0f} × slower), {sv['textbook_one_mark_s'] * 1000:.0f} ms "
        f"with one mark ({sv['speedup_one_mark']:,.0f} ×)"
    )
    print(f"start-up to healthy: {sr['startup_s']:.2f} s")
    print(
        f"worker memory: {sr['rss_start_mib']:.1f} MiB after start, {sr['rss_after_mib']:.1f} MiB after "
        f"{sr['soak_requests']:,} requests ({sr['rss_growth_pct']:+.1f} %); "
        f"benchmark server {worker_rss:.1f} MiB"
    )
    print(
        f"fixed rate: {half:,.0f} requests/s (half the maximum): p50 {fixed_rate['p50_ms']:.2f} ms, "
        f"p99 {fixed_rate['p99_ms']:.2f} ms"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="make bench", description=__doc__.splitlines()[0] if __doc__ else None
    )
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--quick", action="store_true", help="3 rounds of 2 s, 20,000 soak requests")
    group.add_argument(
        "--smoke", action="store_true", help="seconds in all: only checks that the benchmark runs"
    )
    parser.add_argument("--output", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    mode = SMOKE if args.smoke else QUICK if args.quick else FULL
    if shutil.which("wrk") is None:
        print("make bench needs wrk, the HTTP load generator: apt-get install wrk", file=sys.stderr)
        return 2

    started = time.monotonic()
    game = solve()
    lines = mixes(game)
    order = list(lines)
    runs: dict[str, list[Run]] = {name: [] for name in order}
    port = free_port()
    print(
        f"benchmark: {mode.rounds} round(s) of {mode.seconds:g} s per target, {mode.connections} connections"
    )
    with server(bench_server_command(port), port) as process:
        for name in order:  # warm-up: every answer rendered once
            wrk(port, lines[name], seconds=min(2.0, mode.seconds), connections=mode.connections)
        for round_number in range(mode.rounds):
            for name in order if round_number % 2 == 0 else reversed(order):
                runs[name].append(wrk(port, lines[name], mode.seconds, mode.connections))
            print(f"  round {round_number + 1}: " + ", ".join(f"{n} {runs[n][-1].rps:,.0f}/s" for n in order))
        single = median_run(runs["POST /v1/best-move"])
        half = single["rps"] / 2
        connections = 16
        fixed = [
            wrk(
                port,
                lines["POST /v1/best-move"],
                mode.seconds,
                connections,
                delay_ms=1000 * connections / half,
            )
            for _ in range(mode.rounds)
        ]
        worker_rss = rss_mib(process.pid)

    http_figures = {name: median_run(r) for name, r in runs.items()}
    fixed_rate = median_run(fixed)
    solver = solver_figures(mode)
    service = startup_and_memory(mode, lines["POST /v1/best-move"])

    constant = http_figures["constant"]["rps"]
    bare = http_figures["bare"]["rps"]
    for figures in http_figures.values():
        figures["vs_constant"] = figures["rps"] / constant
        figures["vs_bare"] = figures["rps"] / bare
    batch = http_figures["POST /v1/best-move/batch"]
    batch["boards_per_s"] = batch["rps"] * BATCH_SIZE
    batch["boards_vs_single"] = batch["boards_per_s"] / single["rps"]

    targets = [
        (
            "POST /v1/best-move ≥ 0.9 × constant route",
            http_figures["POST /v1/best-move"]["vs_constant"],
            0.9,
            ">=",
        ),
        (
            "GET /v1/best-move ≥ 0.9 × constant route",
            http_figures["GET /v1/best-move"]["vs_constant"],
            0.9,
            ">=",
        ),
        (
            "GET /v1/positions/{board} ≥ 0.9 × constant route",
            http_figures["GET /v1/positions/{board}"]["vs_constant"],
            0.9,
            ">=",
        ),
        ("batch of 100: boards/s ≥ 20 × single POST", batch["boards_vs_single"], 20, ">="),
        ("p99 at half the maximum rate ≤ 10 ms", fixed_rate["p99_ms"], 10, "<="),
        ("whole-table solve ≤ 100 ms", solver["solve_ms"], 100, "<="),
        ("lookup ≤ 2 µs per query", solver["request_lookup_us"], 2, "<="),
        (
            "≥ 100,000 × faster than textbook minimax (empty board)",
            solver["speedup_empty_board"],
            100_000,
            ">=",
        ),
        ("start-up to healthy ≤ 1.5 s", service["startup_s"], 1.5, "<="),
        ("worker memory ≤ 80 MB", service["rss_after_mib"] * 1.048576, 80, "<="),
        ("memory growth < 5 % over the soak", service["rss_growth_pct"], 5, "<"),
    ]
    checked = [
        {
            "target": text,
            "value": value,
            "limit": limit,
            "pass": value >= limit if op == ">=" else value <= limit if op == "<=" else value < limit,
        }
        for text, value, limit, op in targets
    ]

    results = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "mode": "full" if mode is FULL else "quick" if mode is QUICK else "smoke",
        "machine": machine(),
        "settings": {"rounds": mode.rounds, "seconds": mode.seconds, "connections": mode.connections},
        "http": http_figures,
        "fixed_rate": {**fixed_rate, "rate": half, "connections": connections},
        "solver": solver,
        "service": {**service, "bench_worker_rss_mib": worker_rss},
        "targets": checked,
        "elapsed_s": time.monotonic() - started,
    }
    report(results, order)
    args.output.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    print(
        f"\nwrote {args.output.relative_to(ROOT) if args.output.is_relative_to(ROOT) else args.output}"
        f" in {results['elapsed_s']:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
