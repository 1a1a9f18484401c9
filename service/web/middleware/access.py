"""Every request counted, timed (Prometheus) and written to the access log, once, with its outcome.

The status is the answer's; ``499`` for a client that left before its request
was complete (:class:`~.limits.ClientDisconnected`: the client's doing, logged
at info level without a traceback), ``500`` when an exception escaped every
layer inside. Requests are labelled by the route they matched, as its template
(``/v1/positions/{board}``), so that the labels stay few.

A request is only noted as it ends (its scope, status and times); the notes are
counted and logged together, by a callback the event loop runs in its next turn
(:meth:`Ledger.record`). The requests the loop answers in one turn are
so recorded in one pass, with the metrics' and the log's code and data at hand,
instead of each paying for them cold between its own socket reads and writes;
and nothing is left waiting longer than that turn, so that the metrics and the
log are exact as soon as the loop has gone round once after an answer.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ...logs import AccessLog, logger, writer
from ..metrics import Metrics
from .limits import ClientDisconnected
from .request_id import STATE_KEY

#: The status counted and logged for a client that left before its request was complete.
CLIENT_CLOSED_REQUEST = 499
#: Methods counted under their own name; any other is counted as ``OTHER`` (labels stay few).
KNOWN_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})

#: What is noted of a request as it ends: its scope, method, status, and when it began and ended
#: (:func:`time.perf_counter`).
Note = tuple[Scope, str, int, float, float]


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


class Ledger:
    """The requests noted as they ended, and their recording: counted and timed, then logged.

    :meth:`note` only keeps what :meth:`record` needs, and has the event loop call :meth:`record`
    in its next turn; whoever reads the metrics in this process calls :meth:`record` first.
    """

    def __init__(self, metrics: Metrics, access_log: AccessLog) -> None:
        self.metrics = metrics
        self.access_log = access_log
        self.noted: list[Note] = []

    def note(self, scope: Scope, method: str, status: int, started: float, ended: float) -> None:
        """Keep a request that has ended, to be recorded in the event loop's next turn."""
        if not self.noted:
            asyncio.get_running_loop().call_soon(self.record)
        self.noted.append((scope, method, status, started, ended))

    def record(self) -> None:
        """Count and log the requests noted so far: their metrics, then their log lines."""
        noted, self.noted = self.noted, []
        counts: Counter[tuple[str, str, int]] = Counter()
        lines: list[str] = []
        # A request's wall-clock end, from its perf_counter end: one look at each clock per call.
        offset = time.time() - time.perf_counter()
        for scope, method, status, started, ended in noted:
            route = route_template(scope)
            label = method if method in KNOWN_METHODS else "OTHER"
            counts[route, label, status] += 1
            self.metrics.time(route, label, ended - started)
            if self.access_log.enabled:
                lines.append(
                    self.access_log.line(
                        scope,
                        method,
                        route=route,
                        status=status,
                        seconds=ended - started,
                        request_id=scope.get("state", {}).get(STATE_KEY, ""),
                        when=ended + offset,
                    )
                )
        for (route, label, status), count in counts.items():
            self.metrics.count(route, label, status, count)
        if lines:
            writer.put("\n".join(lines))


class AccessMiddleware:
    """Notes every HTTP request in the :class:`Ledger` as it ends; see the module's docstring."""

    def __init__(self, app: ASGIApp, *, ledger: Ledger) -> None:
        self.app = app
        self.ledger = ledger

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
            self.ledger.note(scope, method, status, started, time.perf_counter())
