"""Cross-origin requests: Starlette's CORS, with a refused preflight answered as problem+json."""

from __future__ import annotations

from starlette.datastructures import Headers
from starlette.middleware.cors import CORSMiddleware
from starlette.responses import Response
from starlette.types import Message, Receive, Scope, Send

from ..caching import vary_on
from ..headers import header
from ..problems import BAD_REQUEST, problem


class ProblemCORSMiddleware(CORSMiddleware):
    """Starlette's CORS, with a refused preflight answered as problem+json like every error.

    A request without an ``Origin`` header (not from a browser on another origin) gets only what
    Starlette gives it, ``Vary: Origin`` (so that a cache keeps it apart from answers to
    browsers), without the header parsing Starlette does first.
    """

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or header(scope["headers"], b"origin") is not None:
            await super().__call__(scope, receive, send)
            return

        async def send_varying(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", ()))
                vary_on(message["headers"], "Origin")
            await send(message)

        await self.app(scope, receive, send_varying)

    def preflight_response(self, request_headers: Headers) -> Response:
        response = super().preflight_response(request_headers)
        if response.status_code != 400:
            return response
        refused = bytes(response.body).decode().removeprefix("Disallowed CORS ")
        headers = {
            name: value
            for name, value in response.headers.items()
            if name not in ("content-length", "content-type")
        }
        detail = f"this cross-origin request is not allowed: its {refused} (see Access-Control-Allow-*)"
        return problem(BAD_REQUEST, detail, None, headers=headers)
