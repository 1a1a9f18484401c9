"""``make bench``: the service measured beside fair baselines, every figure beside its target.

Every target runs on a uvicorn worker of its own, on 127.0.0.1: the baselines on
stock uvicorn as a user runs an app, the product exactly as ``python -m service``
runs it (see ``serve.py``); wrk drives them in interleaved rounds (A B C … C B A …)
and the figures are medians of the rounds.
Prints Markdown tables and writes ``bench/results.json``. It asserts nothing: the
figures are for people to read, and ``short`` beside a target is information,
not a failure (the exit status is 0 unless something did not run).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import math
import os
import platform
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from service.game.variants import VARIANTS
from tests.support import ROOT

from . import cpu, edge, fairness, mixes, openloop, report, servers, wrk
from .asgi import CONSTANT_PATH
from .inprocess import lane_figures, solver_figures
from .servers import Checkout, Server, Spec

RESULTS = report.RESULTS
FIXED_RATE_CONNECTIONS = 16


@dataclass(frozen=True)
class Mode:
    name: str
    rounds: int
    seconds: int
    """Length of one wrk run in whole seconds (wrk takes no fractions)."""
    warmup: int
    """Seconds of one wrk run per target before the rounds; 0 for none."""
    connections: int
    soak_requests: int
    startups: int
    solves: int
    repeats: int
    """Timings of each in-process lookup loop (the median is kept)."""
    textbook: int
    """Timings of the textbook minimax on the empty board."""
    pairs: int
    """Pairs of back-to-back runs for each ratio of :data:`PAIRED` (their order alternating)."""
    pair_seconds: int
    """Length of each run of a pair, in whole seconds."""
    cpu_repeats: int
    """Repetitions of each request of the table of CPU time by operation and variant (:mod:`.cpu`)."""


MODES = {
    "full": Mode("full", 5, 5, 2, 32, 100_000, 5, 9, 7, 3, 15, 2, 5),
    "quick": Mode("quick", 3, 2, 1, 32, 20_000, 3, 5, 5, 2, 5, 1, 3),
    "smoke": Mode("smoke", 1, 1, 0, 8, 2_000, 1, 1, 1, 1, 1, 1, 1),
}

#: The throughput ratios also measured in pairs, ``(target, baseline)``: the product's plain best
#: moves against the baselines, and with its access log against without it. See :func:`paired`.
PAIRED = [
    ("post", "bare"),
    ("get", "bare"),
    ("post", "raw"),
    ("variants", "post"),
    ("post", "post_quiet"),
    ("post_es", "post"),
]


@dataclass(frozen=True)
class Target:
    key: str
    label: str
    server: str
    mix: str


TARGETS = [
    Target("raw", "raw ASGI app", "raw", "constant"),
    Target("bare", "bare FastAPI app", "bare", "constant"),
    Target("constant", "constant route, first in the product app", "constant", "constant"),
    Target(
        "constant_post",
        "constant route, first in the product app, sent the bodies of `POST /v1/best-move`",
        "constant",
        "constant_post",
    ),
    Target("post", "`POST /v1/best-move`", "product", "post"),
    Target("get", "`GET /v1/best-move`", "product", "get"),
    Target("batch", f"`POST /v1/best-move/batch` ({mixes.BATCH_SIZE} boards)", "product", "batch"),
    Target("positions", "`GET /v1/positions/{board}`", "product", "positions"),
    Target("random", "`POST /v1/best-move` with `random: true`", "product", "random"),
    Target("depth", "`POST /v1/best-move` with `depth` (1 to 9 in turn)", "product", "depth"),
    Target("level", "`POST /v1/best-move` with `level` (each in turn)", "product", "level"),
    Target("skill", f"`POST /v1/best-move` with `skill` {mixes.SKILL:g} and a `seed`", "product", "skill"),
    Target("review", "`POST /v1/review` of a 9-move game", "product", "review"),
    Target("puzzles", f"`GET /v1/puzzles`, a page of {mixes.PAGE_SIZE}", "product", "puzzles"),
    Target("variants", "plain `POST /v1/best-move` in the variants (each in turn)", "product", "variants"),
    Target("analysis", "`POST /v1/analysis` of a 3×3 position", "product", "analysis"),
    Target("analysis_4x4", "`POST /v1/analysis` of a 4×4 position", "product", "analysis_4x4"),
]


#: Targets measured only in pairs (:data:`PAIRED`), not in the rounds.
PAIR_ONLY = [
    Target("post_quiet", "`POST /v1/best-move`, log level `warning` (no access log)", "quiet", "post"),
    Target("post_es", "`POST /v1/best-move` with `Accept-Language: es`", "product", "post_es"),
]
#: The settings of the server ``quiet``: the product, its access log off.
QUIET = (("TICTACTOE_LOG_LEVEL", "warning"),)


def against_targets(ref: str) -> list[Target]:
    return [
        Target("ref_post", f"`POST /v1/best-move` at {ref}", "ref", "post"),
        Target("ref_get", f"`GET /v1/best-move` at {ref}", "ref", "get"),
        Target("ref_batch", f"`POST /v1/best-move/batch` at {ref}", "ref", "batch"),
        Target("ref_variants", f"plain `POST /v1/best-move` in the variants at {ref}", "ref", "variants"),
    ]


def specs(checkout: Checkout | None) -> list[Spec]:
    """The servers: the baselines on stock uvicorn; the diagnostic constant route inside the
    product app, with the product's uvicorn settings; the product as ``python -m service`` runs
    it, from this tree and at ``--against``."""
    found = [
        Spec("raw", ROOT, CONSTANT_PATH, stock="bench.asgi:raw_asgi"),
        Spec("bare", ROOT, CONSTANT_PATH, stock="bench.asgi:bare_fastapi"),
        Spec("constant", ROOT, "/health", app="bench.asgi:product_with_constant_route"),
        Spec("product", ROOT, "/health"),
        Spec("quiet", ROOT, "/health", settings=QUIET),
    ]
    if checkout is not None:
        found.append(Spec("ref", checkout.tree, "/health"))
    return found


# --- HTTP ----------------------------------------------------------------------------------------------


def rounds(
    mode: Mode, targets: list[Target], running: dict[str, Server], files: dict[str, Path]
) -> dict[str, list[wrk.Run]]:
    """Every target once per round, the order reversed every other round, after a warm-up of each."""
    if mode.warmup:
        for target in targets:  # every path taken; in full mode, every request of a mix at least once
            wrk.run(running[target.server].port, files[target.mix], mode.warmup, mode.connections)
    runs: dict[str, list[wrk.Run]] = {target.key: [] for target in targets}
    for number in range(mode.rounds):
        for target in targets if number % 2 == 0 else reversed(targets):
            server = running[target.server]
            runs[target.key].append(wrk.run(server.port, files[target.mix], mode.seconds, mode.connections))
        print(
            f"  round {number + 1}/{mode.rounds}: "
            + ", ".join(f"{t.key} {runs[t.key][-1].rps:,.0f}/s" for t in targets),
            flush=True,
        )
    return runs


def paired(
    mode: Mode, targets: list[Target], running: dict[str, Server], files: dict[str, Path]
) -> dict[str, dict[str, Any]]:
    """Each ratio of :data:`PAIRED` from ``mode.pairs`` pairs of runs, the target's and its baseline's
    back to back (in turn first), their median and the spread of the pairs' ratios.

    A round of every target lasts minutes, and the machine's speed swings within it (a server's
    throughput can double from one run to the next), so the rounds' two medians may come from
    different spells. Runs a few seconds apart share their spell: many such pairs measure the
    ratio itself. Each server is sent each request of its paired mixes once first, so that each
    pair compares answers alike made (kept, in every language), whatever the rounds made.
    """
    by_key = {target.key: target for target in [*targets, *PAIR_ONLY]}
    found: dict[str, dict[str, Any]] = {}
    if mode.pairs < 1:
        return found  # none asked for (--pairs 0): the targets read the rounds
    paired_targets = {by_key[key] for pair in PAIRED for key in pair}
    for server, mix in sorted({(target.server, target.mix) for target in paired_targets}):
        mixes.every_request(running[server].port, files[mix].read_text().splitlines())
    for key, baseline in PAIRED:
        ratios: list[float] = []
        runs: dict[str, list[float]] = {key: [], baseline: []}
        for number in range(mode.pairs):
            pair = (by_key[key], by_key[baseline]) if number % 2 == 0 else (by_key[baseline], by_key[key])
            rps = {
                target.key: wrk.run(
                    running[target.server].port, files[target.mix], mode.pair_seconds, mode.connections
                ).rps
                for target in pair
            }
            ratios.append(rps[key] / rps[baseline])
            for name, value in rps.items():
                runs[name].append(value)
        quartiles = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else [ratios[0]] * 3
        name = f"{key}/{baseline}"
        found[name] = {
            "ratio": statistics.median(ratios),
            "q1": quartiles[0],
            "q3": quartiles[2],
            "ratios": [round(value, 3) for value in ratios],
            "rps": statistics.median(runs[key]),
            "baseline_rps": statistics.median(runs[baseline]),
        }
        print(f"  pairs {name}: {found[name]['ratio']:.2f}, the median of {len(ratios)}", flush=True)
    return found


def fixed_rate(
    mode: Mode, ports: dict[str, int], requests: list[str], rate: float
) -> dict[str, dict[str, Any]]:
    """Open-loop runs at ``rate`` against each server of ``ports``, interleaved, one per round."""
    runs: dict[str, list[openloop.OpenLoopResult]] = {name: [] for name in ports}
    for number in range(mode.rounds):
        for name in ports if number % 2 == 0 else reversed(ports):
            encoded = [mixes.raw_request(line, ports[name]) for line in requests]
            runs[name].append(
                openloop.fixed_rate(ports[name], encoded, rate, mode.seconds, FIXED_RATE_CONNECTIONS)
            )
    return {name: fixed_rate_summary(rate, found) for name, found in runs.items()}


def fixed_rate_summary(rate: float, runs: list[openloop.OpenLoopResult]) -> dict[str, Any]:
    return {
        "rate": rate,
        "achieved": statistics.median(r.achieved for r in runs),
        "p50_ms": statistics.median(r.p50_ms for r in runs),
        "p99_ms": statistics.median(r.p99_ms for r in runs),
        "p99_ms_runs": [round(r.p99_ms, 3) for r in runs],
        "max_ms": max(r.max_ms for r in runs),
        "sent_p99_ms": statistics.median(r.sent_p99_ms for r in runs),
        "send_lag_p99_ms": statistics.median(r.send_lag_p99_ms for r in runs),
        "requests": sum(r.requests for r in runs),
        "errors": sum(r.errors for r in runs),
        "connections": max(r.connections for r in runs),
        "runs": len(runs),
    }


def http_figures(
    mode: Mode, checkout: Checkout | None, lines: dict[str, list[str]], files: dict[str, Path]
) -> dict[str, Any]:
    """The interleaved rounds, then the fixed-rate runs, on one set of servers."""
    targets = TARGETS + (against_targets(checkout.ref) if checkout else [])
    timings: dict[str, float] = {}
    with servers.serving(specs(checkout)) as running:
        mixes.check_constant(running["product"].port)
        for target in [*targets, *PAIR_ONLY]:
            mixes.check(target.key, running[target.server].port, lines[target.mix])
        started = time.monotonic()
        runs = rounds(mode, targets, running, files)
        timings["http_s"] = time.monotonic() - started

        started = time.monotonic()
        for name in ("product", "quiet"):  # every answer of the mix made once, as the rounds made them
            mixes.every_request(running[name].port, lines["post"])
        pairs = paired(mode, targets, running, files)
        timings["pairs_s"] = time.monotonic() - started

        started = time.monotonic()
        rate = statistics.median(r.rps for r in runs["post"]) / 2
        ports = {"product": running["product"].port} | ({"ref": running["ref"].port} if checkout else {})
        fixed = fixed_rate(mode, ports, lines["post"], rate)
        timings["fixed_rate_s"] = time.monotonic() - started

        started = time.monotonic()
        fair = fairness.measure(running["product"].port, files["post"].parent, mode.rounds, mode.seconds)
        timings["fairness_s"] = time.monotonic() - started

        started = time.monotonic()
        cache = edge.measure(
            running["product"].port,
            lines["positions"],
            files["positions"],
            rounds=mode.rounds,
            seconds=mode.seconds,
            connections=mode.connections,
        )
        timings["edge_s"] = time.monotonic() - started
        described = {
            spec.name: {
                "rss_mib": running[spec.name].rss_mib(),
                "tree": tree_name(spec.tree, checkout),
                **running[spec.name].settings(),
            }
            for spec in specs(checkout)
        }
    http: dict[str, Any] = {}
    for target in targets:
        http[target.key] = {"label": target.label, "server": target.server, **wrk.summary(runs[target.key])}
    http["batch"]["batch_size"] = mixes.BATCH_SIZE
    return {
        "http": http,
        "pairs": pairs,
        "fixed_rate": fixed["product"],
        "fixed_rate_against": fixed.get("ref"),
        "fairness": fair,
        "edge": cache,
        "servers": described,
        "steal_pct": statistics.median(r.steal_pct for found in runs.values() for r in found),
        "timings": timings,
    }


def tree_name(tree: Path, checkout: Checkout | None) -> str:
    if checkout is not None and tree == checkout.tree:
        return f"worktree of {checkout.ref} ({checkout.commit[:12]})"
    return "this checkout"


# --- python -m service: start-up and memory -------------------------------------------------------------


def startup_figures(mode: Mode, checkout: Checkout | None) -> dict[str, dict[str, Any]]:
    """Spawn of ``python -m service`` to its first ``200`` from ``/health``; the ``--against`` one in turn."""
    trees = {"product": ROOT} | ({"ref": checkout.tree} if checkout else {})
    times: dict[str, list[float]] = {name: [] for name in trees}
    for number in range(mode.startups):
        for name in trees if number % 2 == 0 else reversed(trees):
            with servers.service(trees[name]) as (_, seconds):
                times[name].append(seconds)
    return {
        name: {
            "startup_s": statistics.median(found),
            "startup_s_min": min(found),
            "startup_s_max": max(found),
            "startups": len(found),
        }
        for name, found in times.items()
    }


WARMED = ("post", "get", "positions", "batch", "depth", "level", "puzzles", "review", "languages")
"""The mixes whose answers a worker makes on first use and keeps (and the reviews, every game of which
must answer ``200``): each request is sent once."""
SOAKED = (*WARMED, "random", "skill", "variants", "analysis_4x4")
"""The product's mixes, which the soak takes in turn."""


def python_lines(tree: Path, folder: str = "service/web") -> int | None:
    """The non-empty lines of the Python files under ``folder`` in ``tree`` (``None`` without it)."""
    where = tree / folder
    if not where.is_dir():
        return None
    return sum(
        1
        for path in where.rglob("*.py")
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip()
    )


def memory_figures(
    mode: Mode, lines: dict[str, list[str]], files: dict[str, Path], rate: float
) -> dict[str, Any]:
    """A ``python -m service`` worker's resident memory: after start, after every request once, after a soak.

    First every request of the mixes of :data:`WARMED` is sent once (and each must answer
    ``200``), so that everything the worker keeps once made (rendered analyses, entity tags,
    look-aheads, pages of puzzles) is made; then the soak: wrk runs for a time, not a count, so it
    runs in chunks of at most 10 s, each mix of :data:`SOAKED` in turn, until enough requests were
    sent and every mix has had a chunk (so that a short soak has the reviews and puzzles too). The
    memory is read after each chunk: ``rss_trace`` holds the requests sent so far, the MiB, and the
    mix of the chunk.
    """
    with servers.service() as (server, _):
        start = server.rss_mib()
        mixes.every_request(server.port, [line for name in WARMED for line in lines[name]])
        warm = server.rss_mib()
        sent, trace = 0, [(0, round(warm, 2), "every request once")]
        while sent < mode.soak_requests or len(trace) <= len(SOAKED):
            left = (mode.soak_requests - sent) / max(rate, 1000) / len(SOAKED)  # seconds for each mix
            seconds = min(10, max(1, math.ceil(left)))
            name = SOAKED[(len(trace) - 1) % len(SOAKED)]
            sent += wrk.run(server.port, files[name], seconds, mode.connections).requests
            trace.append((sent, round(server.rss_mib(), 2), name))
        after = server.rss_mib()
        private, mapped = server.private_mib(), server.mapped_mib()
    return {
        "rss_start_mib": start,
        "rss_warm_mib": warm,
        "rss_after_mib": after,
        "private_after_mib": private,
        "mapped_after_mib": mapped,
        "soak_requests": sent,
        "rss_growth_pct": (after - warm) / warm * 100,
        "rss_growth_from_start_pct": (after - start) / start * 100,
        "rss_trace": trace,
    }


# --- the run -------------------------------------------------------------------------------------------


def package_version(name: str) -> str | None:
    try:
        return version(name)
    except PackageNotFoundError:
        return None


def machine() -> dict[str, Any]:
    model = "unknown"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    wrk_version = subprocess.run(["wrk", "-v"], capture_output=True, text=True, check=False).stdout
    return {
        "cpu": model,
        "cores": os.cpu_count(),
        "usable_cores": len(os.sched_getaffinity(0)),
        "kernel": platform.release(),
        "python": platform.python_version(),
        **{
            name: package_version(name) for name in ("fastapi", "starlette", "uvicorn", "uvloop", "httptools")
        },
        "pydantic": package_version("pydantic"),
        "wrk": wrk_version.split("\n")[0].split(" Copyright")[0],
    }


def this_tree() -> str:
    """The commit measured, and where the checkout had changes on top of it."""
    commit = servers.git("rev-parse", "--short=12", "HEAD")
    status = servers.git("status", "--porcelain", "--untracked-files=all").splitlines()
    changed = sorted({line[3:].split("/", 1)[0] for line in status if line})
    return commit + (f" with uncommitted changes in {', '.join(changed)}" if changed else "")


def command(argv: list[str]) -> str:
    return f'make bench BENCH_ARGS="{shlex.join(argv)}"' if argv else "make bench"


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="make bench BENCH_ARGS=...",
        description="The service beside fair baselines, every figure beside its target; "
        "writes bench/results.json.",
    )
    preset = parser.add_mutually_exclusive_group()
    preset.add_argument("--quick", action="store_true", help="3 rounds of 2 s, a 20,000-request soak")
    preset.add_argument("--smoke", action="store_true", help="1 round of 1 s: only checks that it all runs")
    parser.add_argument(
        "--against",
        metavar="GIT_REF",
        help="also measure the product as it was at GIT_REF (a temporary git worktree), in the same rounds",
    )
    full = MODES["full"]
    parser.add_argument("--rounds", type=int, help=f"rounds of every target (full: {full.rounds})")
    parser.add_argument("--seconds", type=int, help=f"seconds of each wrk run (full: {full.seconds})")
    parser.add_argument("--warmup", type=int, help=f"seconds of warm-up per target (full: {full.warmup})")
    parser.add_argument("--connections", type=int, help=f"wrk connections (full: {full.connections})")
    parser.add_argument(
        "--soak-requests",
        type=int,
        help=f"requests before the second memory reading (full: {full.soak_requests:,})",
    )
    parser.add_argument(
        "--pairs", type=int, help=f"back-to-back pairs of runs for each headline ratio (full: {full.pairs})"
    )
    parser.add_argument("--startups", type=int, help=f"start-ups to time (full: {full.startups})")
    parser.add_argument(
        "--cpu-repeats",
        type=int,
        help=f"repetitions of each request of the CPU table, each in a process of its own "
        f"(full: {full.cpu_repeats})",
    )
    parser.add_argument("--output", type=Path, default=RESULTS, help="where to write the JSON results")
    return parser.parse_args(argv)


def settings(args: argparse.Namespace) -> Mode:
    mode = MODES["smoke" if args.smoke else "quick" if args.quick else "full"]
    overrides = {
        field.name: getattr(args, field.name)
        for field in dataclasses.fields(Mode)
        if getattr(args, field.name, None) is not None
    }
    if overrides:
        mode = dataclasses.replace(mode, name=f"{mode.name}, changed", **overrides)
    return mode


@contextlib.contextmanager
def checked_out(ref: str | None) -> Iterator[Checkout | None]:
    if ref is None:
        yield None
        return
    with servers.worktree(ref) as checkout:
        print(f"  {ref} is {checkout.commit[:12]}, checked out in {checkout.tree}")
        yield checkout


def measure(mode: Mode, checkout: Checkout | None) -> dict[str, Any]:
    lines = mixes.mixes()
    with tempfile.TemporaryDirectory(prefix="bench-") as folder:
        files = mixes.write(lines, Path(folder))
        found = http_figures(mode, checkout, lines, files)
        timings = found.pop("timings")
        print("  start-up and memory...", flush=True)
        started = time.monotonic()
        startups = startup_figures(mode, checkout)
        service = startups["product"] | memory_figures(mode, lines, files, found["http"]["post"]["rps"])
        timings["service_s"] = time.monotonic() - started
        print("  CPU time by operation and variant...", flush=True)
        started = time.monotonic()
        costs = cpu.measure(list(VARIANTS), mode.cpu_repeats, Path(folder))
        timings["cpu_s"] = time.monotonic() - started
    print("  in-process figures...", flush=True)
    started = time.monotonic()
    solver = solver_figures(mode.solves, mode.repeats, mode.textbook)
    lane = lane_figures(mode.repeats, 2000)
    timings["solver_s"] = time.monotonic() - started
    return {
        **found,
        "startup_against": startups.get("ref"),
        "solver": solver,
        "lane": lane,
        "service": service,
        "cpu": costs,
        "timings": timings,
    }


def run(argv: list[str], mode: Mode, against: str | None) -> dict[str, Any]:
    """Everything measured, with the targets checked."""
    with checked_out(against) as checkout:
        results: dict[str, Any] = {
            "date": datetime.now(UTC).isoformat(timespec="seconds"),
            "command": command(argv),
            "mode": mode.name,
            "tree": this_tree(),
            "against": None if checkout is None else {"ref": checkout.ref, "commit": checkout.commit},
            "machine": machine(),
            "settings": {
                **dataclasses.asdict(mode),
                "load_threads": wrk.THREADS,
                "fixed_rate_connections": FIXED_RATE_CONNECTIONS,
                "batch_size": mixes.BATCH_SIZE,
                "positions_per_mix": len(mixes.positions()),
            },
            "web_lines": {
                "folder": "service/web",
                "counted": "non-empty lines of the .py files",
                "now": python_lines(ROOT),
                "before": None if checkout is None else python_lines(checkout.tree),
            },
            **measure(mode, checkout),
        }
    results["targets"] = [target.as_dict() for target in report.targets(results)]
    results["earlier_targets"] = [target.as_dict() for target in report.earlier_targets(results)]
    return results


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    mode = settings(args)
    if shutil.which("wrk") is None:
        print("make bench needs wrk, the HTTP load generator: apt-get install wrk", file=sys.stderr)
        return 2
    started = time.monotonic()
    print(
        f"benchmark ({mode.name}): {mode.rounds} round(s) of {mode.seconds} s per target, "
        f"{mode.connections} connections",
        flush=True,
    )
    try:
        results = run(argv, mode, args.against)
    except RuntimeError as error:
        print(f"make bench: {error}", file=sys.stderr)
        return 1
    results["timings"]["total_s"] = time.monotonic() - started
    print()
    print(report.render(results))
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    shown = args.output.resolve()
    print(
        f"\nwrote {shown.relative_to(ROOT) if shown.is_relative_to(ROOT) else shown} "
        f"in {results['timings']['total_s']:.0f} s ("
        + ", ".join(
            f"{k.removesuffix('_s')} {v:.0f} s" for k, v in results["timings"].items() if k != "total_s"
        )
        + ")"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
