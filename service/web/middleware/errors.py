"""The one error path: an exception that escaped every handler is a bug, answered ``500``.

Its traceback is logged with the request id; the client gets a ``500``
problem without one. An exception after the answer has begun can only be
logged: it goes on, and the server closes the connection. A client that left
(:class:`~.limits.ClientDisconnected`) is not a bug: it goes on to the access
layer, which records it.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.types import Message as ASGIMessage

from ...game.words import Message, Said
from ...logs import logger
from ..language import of_scope
from ..problems import INTERNAL_ERROR, problem
from .limits import ClientDisconnected
from .request_id import STATE_KEY


class ErrorMiddleware:
    """Answers ``500`` for any exception that escaped the app; see the module's docstring."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def send_tracked(message: ASGIMessage) -> None:
            nonlocal started
            started = True
            await send(message)

        try:
            await self.app(scope, receive, send_tracked)
        except ClientDisconnected:
            raise
        except Exception:
            rid = scope.get("state", {}).get(STATE_KEY)
            logger.exception(
                "unhandled error on %s %s", scope["method"], scope["path"], extra={"request_id": rid}
            )
            if started:
                raise
            failed = Said.of(Message("error", "the service failed to answer this request"))
            answer = problem(INTERNAL_ERROR, failed, scope["path"], of_scope(scope))
            await answer(scope, receive, send)
