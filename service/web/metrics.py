"""The service's Prometheus metrics.

Metrics are per process: with several workers each scrape reaches one of
them, so run one worker per container and scale with replicas when exact
totals matter.
"""

from __future__ import annotations

import asyncio
from collections import Counter as Tally
from collections.abc import Callable, Iterator

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, Info, generate_latest
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
        # Each series' child, found once: labels() takes a lock and builds a key on every call.
        self._counted: dict[tuple[str, str, int], Callable[[], None]] = {}
        self._timed: dict[tuple[str, str], Callable[[float], None]] = {}
        self.registry.register(_Refusals())

    def count(self, route: str, method: str, status: int, seconds: float) -> None:
        """Count one answered request and its time (route and method are bounded label values)."""
        counted = self._counted.get((route, method, status))
        if counted is None:
            counted = self._counted[route, method, status] = self.requests.labels(
                route, method, str(status)
            ).inc
        counted()
        timed = self._timed.get((route, method))
        if timed is None:
            timed = self._timed[route, method] = self.latency.labels(route, method).observe
        timed(seconds)


async def serve_metrics(registry: CollectorRegistry, host: str, port: int) -> asyncio.Server:
    """Answer ``GET /metrics`` on a port of its own, on the running event loop.

    A deliberately small HTTP/1.0-style responder for scrapers: one request per
    connection, a head of at most 8 KiB read within 5 seconds, nothing else served.
    """

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout=5)
            line = head.split(b"\r\n", 1)[0].split(b" ")
            if len(line) == 3 and line[0] in (b"GET", b"HEAD") and line[1].split(b"?")[0] == b"/metrics":
                body, status = generate_latest(registry), b"200 OK"
                kind = b"text/plain; version=0.0.4; charset=utf-8"
            else:
                body, status, kind = b"only GET /metrics is served here\n", b"404 Not Found", b"text/plain"
            writer.write(
                b"HTTP/1.1 "
                + status
                + b"\r\ncontent-type: "
                + kind
                + b"\r\ncontent-length: %d\r\ncache-control: no-store\r\nconnection: close\r\n\r\n"
                % len(body)
                + (b"" if line[0] == b"HEAD" else body)
            )
            await writer.drain()
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError, ConnectionError):
            pass
        finally:
            writer.close()

    return await asyncio.start_server(answer, host, port, limit=8192)
