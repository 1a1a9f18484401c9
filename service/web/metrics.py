"""The service's Prometheus metrics.

Metrics are per process: with several workers each scrape reaches one of
them, so run one worker per container and scale with replicas when exact
totals matter.
"""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, Info

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
