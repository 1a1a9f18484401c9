"""The security header every answer carries: ``X-Content-Type-Options: nosniff``.

A browser then takes an answer for the media type it names, and never for another that its bytes
could pass for. The pages add their own headers (:mod:`service.web.security`).
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send


class NoSniffMiddleware:
    """Adds ``X-Content-Type-Options: nosniff`` to every HTTP answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_header(message: Message) -> None:
            if message["type"] == "http.response.start":
                MutableHeaders(scope=message).append("X-Content-Type-Options", "nosniff")
            await send(message)

        await self.app(scope, receive, send_with_header)
