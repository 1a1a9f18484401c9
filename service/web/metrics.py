"""The service's Prometheus metrics.

Metrics are per process: with several workers each scrape reaches one of
them, so run one worker per container and scale with replicas when exact
totals matter.
"""

from __future__ import annotations

from collections import Counter as Tally
from collections.abc import Iterator

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, Info
from prometheus_client.core import CounterMetricFamily, Metric
from prometheus_client.registry import Collector

#: Requests and connections the HTTP protocol refused or cut off before the app saw them, by
#: reason (:mod:`.protocol` counts them; every app of the process exports them).
REFUSALS: Tally[str] = Tally()


class _Refusals(Collector):
    def collect(self) -> Iterator[Metric]:
        family = CounterMetricFamily(
            "tictactoe_http_refused",
            "Requests and connections refused or cut off by the HTTP layer, by reason "
            "(header_timeout, body_timeout, write_timeout, headers_too_large, uri_too_long, host, "
            "http_version, malformed, too_many_connections, body_buffer_full, descriptors_exhausted).",
            labels=["reason"],
        )
        for reason, count in sorted(REFUSALS.items()):
            family.add_metric([reason], count)
        yield family


LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class Metrics:
    """The service's Prometheus metrics, in a registry of their own."""

    def __init__(self, version: str, positions: int, solve_seconds: float) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.requests = Counter(
            "tictactoe_http_requests",
            "HTTP requests answered, by route template, method and status code.",
            ["route", "method", "status"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "tictactoe_http_request_duration_seconds",
            "Time from the start of a request to the end of its answer, by route template and method.",
            ["route", "method"],
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        Gauge(
            "tictactoe_solved_positions",
            "Legal boards in the solved table.",
            registry=self.registry,
        ).set(positions)
        Gauge(
            "tictactoe_solve_seconds",
            "Time it took to solve the whole game at start-up.",
            registry=self.registry,
        ).set(solve_seconds)
        Info("tictactoe_build", "Version of the service.", registry=self.registry).info({"version": version})
        self.registry.register(_Refusals())
