"""Every exchange named: a request id, sent back as ``X-Request-ID``."""

from __future__ import annotations

import random
import re

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

REQUEST_ID_HEADER = "x-request-id"
_NAME = REQUEST_ID_HEADER.encode()
#: A client's own id is kept when it is a sensible token; anything else gets a new one.
SENSIBLE_ID = re.compile(r"[A-Za-z0-9._:\-]{1,128}")
#: The key of ``scope["state"]`` that holds the id, for the log lines of the request.
STATE_KEY = "request_id"
#: New ids: 96 random bits, unique in practice; they name requests, they guard nothing, so they
#: need not be unpredictable (os.urandom, a system call per request, would cost more).
_ids = random.Random()


def request_id(scope: Scope) -> str:
    """The client's ``X-Request-ID`` when it is a sensible token, else a new random id."""
    given = Headers(scope=scope).get(REQUEST_ID_HEADER)
    if given is not None and SENSIBLE_ID.fullmatch(given):
        return given
    return _ids.randbytes(12).hex()


class RequestIdMiddleware:
    """Gives each HTTP request an id (in ``scope["state"]``), and every answer the id."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        rid = request_id(scope)
        scope.setdefault("state", {})[STATE_KEY] = rid
        named = (_NAME, rid.encode())

        async def send_named(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), named]
            await send(message)

        await self.app(scope, receive, send_named)
