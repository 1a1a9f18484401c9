"""The request body: refused over the limit (``413``), and a client that leaves before sending it all.

* The limit is ``max_body_bytes``, or a smaller one for the paths of ``path_limits`` (``/mcp``,
  whose messages are small).
* A declared ``Content-Length`` over the limit is refused before the body is
  read; a chunked body as soon as it grows past the limit. Either way the
  answer is a ``413`` problem with ``Connection: close``, unless an answer
  has already begun (then the error goes on, to the error path).
* A client that disconnects before its request is complete raises
  :class:`ClientDisconnected` from ``receive``; the access layer
  (:mod:`.access`) counts and logs it with status ``499``.
"""

from __future__ import annotations

from collections.abc import Mapping

from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.types import Message as ASGIMessage

from ...game.words import Message, Said
from ..facts import body_facts
from ..language import of_scope
from ..problems import BODY_TOO_LARGE, problem


class ClientDisconnected(Exception):
    """The client closed the connection before its whole request arrived."""


class BodyTooLarge(Exception):
    """A request body grew past the limit."""


class BodyLimitMiddleware:
    """Bodies of at most ``max_body_bytes``; see the module's docstring."""

    def __init__(
        self, app: ASGIApp, *, max_body_bytes: int, path_limits: Mapping[str, int] | None = None
    ) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.path_limits = {path: min(limit, max_body_bytes) for path, limit in (path_limits or {}).items()}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        facts = body_facts(scope)
        if not facts.has_body:
            await self.app(scope, receive, send)  # no body: nothing to limit, no request left to wait for
            return
        limit = self.path_limits.get(scope["path"], self.max_body_bytes)
        if facts.length is not None:
            if facts.length > limit:
                await self._too_large(scope, receive, send, limit)
            else:  # the server delivers the declared length, no more: only a departure to watch for
                await self.app(scope, _watched(receive), send)
            return
        received = 0
        started = False

        async def receive_limited() -> ASGIMessage:
            nonlocal received
            message = await watched()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge
            return message

        async def send_tracked(message: ASGIMessage) -> None:
            nonlocal started
            started = True
            await send(message)

        watched = _watched(receive)
        try:
            await self.app(scope, receive_limited, send_tracked)
        except BodyTooLarge:
            if started:
                raise
            await self._too_large(scope, receive, send, limit)

    async def _too_large(self, scope: Scope, receive: Receive, send: Send, limit: int) -> None:
        response = problem(
            BODY_TOO_LARGE,
            Said.of(
                Message("error", "the request body is larger than the limit of {limit} bytes"), limit=limit
            ),
            scope["path"],
            of_scope(scope),
            headers={"Connection": "close"},
        )
        await response(scope, receive, send)


def _watched(receive: Receive) -> Receive:
    """``receive`` raising :class:`ClientDisconnected` when the client leaves before its body is complete."""
    complete = False

    async def watched() -> ASGIMessage:
        nonlocal complete
        message = await receive()
        if message["type"] == "http.request":
            complete = not message.get("more_body", False)
        elif message["type"] == "http.disconnect" and not complete:
            raise ClientDisconnected
        return message

    return watched
