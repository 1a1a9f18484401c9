"""What operators see: request ids, one JSON access log line per request, and Prometheus metrics.

Metrics are per process: with several workers each scrape reaches one of
them, so run one worker per container and scale with replicas when exact
totals matter.
"""

from __future__ import annotations

import logging
import os
import re
import time

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, Info
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .logs import access_logger

REQUEST_ID_HEADER = b"x-request-id"
_VALID_REQUEST_ID = re.compile(rb"^[A-Za-z0-9._:\-]{1,128}$")
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
        Info("tictactoe_build", "Version of the service.", registry=self.registry).info(
            {"version": version, "pid": str(os.getpid())}
        )


def route_template(scope: Scope) -> str:
    """The route a request matched, as its template (``/v1/positions/{board}``), to keep labels few."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    if isinstance(path, str):
        return path if getattr(route, "methods", None) else f"{path}/{{path}}"
    mounted = scope.get("root_path", "")
    if scope.get("endpoint") is not None and mounted:
        return f"{mounted}/{{path}}"
    return "<unmatched>"


def request_id(scope: Scope) -> str:
    """The client's ``X-Request-ID`` when it is a sensible token, else a new random id."""
    for name, value in scope["headers"]:
        if name == REQUEST_ID_HEADER and _VALID_REQUEST_ID.match(value):
            return bytes(value).decode()
    return os.urandom(12).hex()


class ObservabilityMiddleware:
    """Give every request an id, then count, time and log it once it is answered."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        rid = request_id(scope)
        scope.setdefault("state", {})["request_id"] = rid
        header = (REQUEST_ID_HEADER, rid.encode())
        status = 500

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [*message.get("headers", ()), header]
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            duration = time.perf_counter() - started
            route = route_template(scope)
            method = scope["method"]
            self.metrics.requests.labels(route, method, str(status)).inc()
            self.metrics.latency.labels(route, method).observe(duration)
            if access_logger.isEnabledFor(logging.INFO):
                access_logger.info(
                    "%s %s %d",
                    method,
                    route,
                    status,
                    extra={
                        "request_id": rid,
                        "method": method,
                        "path": scope["path"],
                        "route": route,
                        "status": status,
                        "duration_ms": round(duration * 1000, 3),
                    },
                )
