"""Every request counted, timed (Prometheus) and written to the access log, once, with its outcome.

The status is the answer's; ``499`` for a client that left before its request
was complete (:class:`~.limits.ClientDisconnected`: the client's doing, logged
at info level without a traceback), ``500`` when an exception escaped every
layer inside. Requests are labelled by the route they matched, as its template
(``/v1/positions/{board}``), so that the labels stay few.
"""

from __future__ import annotations

import logging
import time

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ...logs import access, logger
from ..metrics import Metrics
from .limits import ClientDisconnected
from .request_id import STATE_KEY

#: The status counted and logged for a client that left before its request was complete.
CLIENT_CLOSED_REQUEST = 499
#: Methods counted under their own name; any other is counted as ``OTHER`` (labels stay few).
KNOWN_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


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


class AccessMiddleware:
    """Counts, times and logs every HTTP request as it ends; see the module's docstring."""

    def __init__(self, app: ASGIApp, *, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        method: str = scope["method"]
        status = 500  # unless an answer says otherwise

        async def send_counted(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_counted)
        except ClientDisconnected:
            status = CLIENT_CLOSED_REQUEST
            logger.info(
                "client disconnected before its request was complete: %s %s",
                method,
                scope["path"],
                extra={"request_id": scope.get("state", {}).get(STATE_KEY)},
            )
        finally:
            self.record(scope, method, status, time.perf_counter() - started)

    def record(self, scope: Scope, method: str, status: int, seconds: float) -> None:
        """Count and time a request that has ended, and write its access log line."""
        route = route_template(scope)
        label = method if method in KNOWN_METHODS else "OTHER"
        self.metrics.count(route, label, status)
        self.metrics.time(route, label, seconds)
        if access.isEnabledFor(logging.INFO):
            # Made and handled as a record of its own: the line says where the request came from,
            # not which line of this file logged it, so logging need not look up the caller.
            client = scope.get("client")
            fields = {
                "request_id": scope.get("state", {}).get(STATE_KEY, ""),
                "method": method,
                "path": scope["path"],
                "route": route,
                "status": status,
                "duration_ms": round(seconds * 1000, 3),
                "client": client[0] if client else None,
            }
            line = (method, route, status)
            access.handle(
                access.makeRecord(access.name, logging.INFO, "", 0, "%s %s %d", line, None, extra=fields)
            )
