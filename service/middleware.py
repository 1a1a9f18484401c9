"""ASGI middleware of the service."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .problems import BODY_TOO_LARGE, problem


class BodyLimitMiddleware:
    """Answer ``413`` problem+json to a request body larger than ``max_bytes``.

    A declared ``Content-Length`` over the limit is refused before reading;
    one within it passes untouched (the HTTP server holds the body to that
    length). A body without a length (chunked) is read, up to the limit,
    before the app runs, so a stream that grows past the limit is refused too.
    """

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length: bytes | None = None
        chunked = False
        for name, value in scope["headers"]:
            if name == b"content-length":
                length = value
            elif name == b"transfer-encoding":
                chunked = b"chunked" in value.lower()
        if length is not None and length.isdigit() and int(length) > self.max_bytes:
            await self._refuse(scope, receive, send)
            return
        if not chunked:
            await self.app(scope, receive, send)
            return

        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await self._refuse(scope, receive, send)
                return
            chunks.append(chunk)
            more = message.get("more_body", False)

        body = b"".join(chunks)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = problem(
            BODY_TOO_LARGE,
            f"the request body is larger than the limit of {self.max_bytes} bytes",
            scope.get("path"),
            headers={"Connection": "close"},
        )
        await response(scope, receive, send)
