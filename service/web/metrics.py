"""The service's Prometheus metrics, right with any number of workers.

With several worker processes a scrape reaches only one of them, so per-process
counters would read a fraction of the truth and seem to go backwards from one
scrape to the next. The service therefore uses prometheus_client's
*multiprocess mode*, as its documentation describes: ``python -m service``
gives every worker the same empty directory (``PROMETHEUS_MULTIPROC_DIR``,
see :mod:`service.__main__`), each worker writes its samples to
memory-mapped files there, and a scrape adds up the files of every worker,
the dead included, so that counters never decrease when a worker is replaced.
Gauges say how workers combine (``multiprocess_mode``); the one gauge that
only live workers count, ``tictactoe_workers``, has the files of dead workers
removed (:func:`prometheus_client.multiprocess.mark_process_dead`) before a
scrape is collected.

Without that directory (the app built in-process, as the tests do) the metrics
live in the process, in a registry of their own.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.core import Metric
from prometheus_client.multiprocess import MultiProcessCollector, mark_process_dead
from prometheus_client.registry import Collector

from ..settings import MULTIPROCESS_DIR

LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)

#: The files of gauges that count live processes only, which name the process that wrote them.
_LIVE_GAUGE_FILE = re.compile(r"^gauge_live\w*?_(\d+)\.db$")


def multiprocess_dir() -> str | None:
    """The directory of the workers' metric files, or ``None`` when metrics live in the process."""
    return os.environ.get(MULTIPROCESS_DIR) or None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: alive
        return True
    return True


def forget_dead_workers(path: str) -> None:
    """Remove the live-only gauge files of processes that have exited, as the docs say to."""
    for file in Path(path).iterdir():
        found = _LIVE_GAUGE_FILE.match(file.name)
        if found is not None and not _alive(int(found.group(1))):
            mark_process_dead(int(found.group(1)), path)  # type: ignore[no-untyped-call]


class EveryWorker(Collector):
    """Every worker's metric files, added up by prometheus_client's own collector, without the dead
    workers' live gauges (a custom collector, as prometheus_client's documentation describes them)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.files = MultiProcessCollector(None, path)  # type: ignore[no-untyped-call]  # registered nowhere

    def collect(self) -> Iterable[Metric]:
        forget_dead_workers(self.path)
        collected: Iterable[Metric] = self.files.collect()  # type: ignore[no-untyped-call]
        return collected


def export_registry() -> CollectorRegistry | None:
    """A registry that collects every worker's files, or ``None`` outside multiprocess mode."""
    path = multiprocess_dir()
    if path is None:
        return None
    registry = CollectorRegistry()
    registry.register(EveryWorker(path))
    return registry


class Metrics:
    """The service's Prometheus metrics, and :attr:`registry`, the one to export."""

    def __init__(self, version: str, positions: Mapping[str, int], ready_seconds: float) -> None:
        # In multiprocess mode the metrics are written to files and collected from them: they are
        # registered nowhere, or a scrape would count this worker twice.
        self.registry = export_registry() or CollectorRegistry(auto_describe=True)
        own = None if multiprocess_dir() else self.registry
        self.requests = Counter(
            "tictactoe_http_requests",
            "HTTP requests answered, by route template, method and status code.",
            ["route", "method", "status"],
            registry=own,
        )
        self.latency = Histogram(
            "tictactoe_http_request_duration_seconds",
            "Time from the start of a request to the end of its answer, by route template and method.",
            ["route", "method"],
            buckets=LATENCY_BUCKETS,
            registry=own,
        )
        solved = Gauge(
            "tictactoe_solved_positions",
            "Unfinished positions of each variant that its shipped table of exact values stands for.",
            ["variant"],
            registry=own,
            multiprocess_mode="max",
        )
        for variant, count in positions.items():
            solved.labels(variant).set(count)
        Gauge(
            "tictactoe_solve_seconds",
            "Time the engine took to be ready at start-up: tables opened, puzzle book made (the slowest "
            "worker's).",
            registry=own,
            multiprocess_mode="max",
        ).set(ready_seconds)
        Gauge(
            "tictactoe_workers",
            "Worker processes serving requests.",
            registry=own,
            multiprocess_mode="livesum",
        ).set(1)
        self.log_lines_dropped = Counter(
            "tictactoe_log_lines_dropped",
            "Log lines dropped because standard error took no line for seconds (see service.logs).",
            registry=own,
        )
        # An info metric as a gauge: prometheus_client's Info has no multiprocess mode.
        Gauge(
            "tictactoe_build_info",
            "Version of the service.",
            ["version"],
            registry=own,
            multiprocess_mode="max",
        ).labels(version).set(1)
        # Each series' child, found once: labels() takes a lock and builds a key on every call.
        self._counted: dict[tuple[str, str, int], Callable[[float], None]] = {}
        self._timed: dict[tuple[str, str], Callable[[float], None]] = {}

    def count(self, route: str, method: str, status: int, requests: int = 1) -> None:
        """Count answered requests (route and method are bounded label values)."""
        counted = self._counted.get((route, method, status))
        if counted is None:
            counted = self._counted[route, method, status] = self.requests.labels(
                route, method, str(status)
            ).inc
        counted(requests)

    def time(self, route: str, method: str, seconds: float) -> None:
        """Observe the time one request took, from its start to the end of its answer."""
        timed = self._timed.get((route, method))
        if timed is None:
            timed = self._timed[route, method] = self.latency.labels(route, method).observe
        timed(seconds)
