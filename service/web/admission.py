"""Admission control for costly requests, per worker process.

What a request costs grows with its body: a plain best move is a table lookup
of a body under a hundred bytes, while a batch of 1,000 items in their longest
form takes a hundred milliseconds or more to parse, validate and answer. A
request is *costly* when its body is larger than :data:`COSTLY_BODY` bytes, or
of unknown length (chunked). At most ``limit`` costly requests are in progress
in a worker at once; one more is answered ``503`` at once, with
``Retry-After``, before its body is read, so that a queue of them never builds
up in front of the cheap requests. The proxy in front sends a request that got
``503`` to another replica (``proxy_next_upstream http_503``). The long work of a large request
(parsing, validating, answering a batch) is done in a worker thread, so that the event loop goes
on serving the others meanwhile (:mod:`.work`).
"""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send

from ..game.words import Message, Said
from .facts import costly
from .language import of_scope
from .problems import UNAVAILABLE, problem

#: Seconds a client refused for want of room is told to wait.
RETRY_AFTER = 1


class AdmissionMiddleware:
    """At most ``limit`` costly requests in progress at once; see the module's docstring."""

    def __init__(self, app: ASGIApp, *, limit: int) -> None:
        self.app = app
        self.limit = limit
        self.in_progress = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not costly(scope):
            await self.app(scope, receive, send)
            return
        if self.in_progress >= self.limit:
            message = Message(
                "error",
                "this worker is answering as many large requests as it takes at once ({limit}); "
                "retry in {seconds} s",
            )
            response = problem(
                UNAVAILABLE,
                Said.of(message, limit=self.limit, seconds=RETRY_AFTER),
                scope["path"],
                of_scope(scope),
                headers={"Retry-After": str(RETRY_AFTER)},
            )
            await response(scope, receive, send)
            return
        self.in_progress += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.in_progress -= 1
