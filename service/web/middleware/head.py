"""``HEAD`` answered as ``GET`` without the body (RFC 9110 9.3.2): every GET resource answers HEAD.

It sits outside compression, so that a ``HEAD`` gets the very headers of the ``GET``,
``Content-Length`` of the compressed body included.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send


class HeadMiddleware:
    """Sends a ``HEAD`` request on as a ``GET``, and drops the body of its answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def send_headers_only(message: Message) -> None:
            if message["type"] == "http.response.body" and message.get("body"):
                message = {**message, "body": b""}
            await send(message)

        # A copy, as the ASGI specification asks of middleware that changes the scope: the server
        # reads the method of its own scope as the answer goes out, and sends no body for a HEAD.
        inner = {**scope, "method": "GET"}
        try:
            await self.app(inner, receive, send_headers_only)
        finally:  # what routing added (the route, for the metrics' labels) is read by the layers outside
            scope.update((key, value) for key, value in inner.items() if key != "method")
