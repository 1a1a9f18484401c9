"""Cross-origin requests: Starlette's ``CORSMiddleware`` with the service's policy, and a refused
preflight answered as problem+json, like every error.

Starlette answers every request (``Vary: Origin`` included, so that caches keep answers to
browsers apart) and refuses a preflight that the policy does not allow with a plain-text ``400``.
:class:`RefusedPreflightMiddleware`, just outside it, gives such a refusal a problem+json body,
keeping the headers Starlette set; its detail names what the request asked for that the policy
(:class:`CORSPolicy`) does not allow, read from the policy, not from Starlette's words.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from starlette.datastructures import Headers, MutableHeaders
from starlette.middleware.cors import SAFELISTED_HEADERS
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.types import Message as ASGIMessage

from ...game.words import Listed, Message, Said
from ..caching import ONE_DAY
from ..language import of_scope
from ..problems import BAD_REQUEST, problem


@dataclass(frozen=True)
class CORSPolicy:
    """Which origins, methods and request headers a browser may use, and which answer headers it reads."""

    origins: Sequence[str]
    methods: Sequence[str] = ("GET", "HEAD", "POST", "OPTIONS")
    headers: Sequence[str] = ("Content-Type", "If-None-Match", "X-Request-ID", "Mcp-Protocol-Version")
    exposed: Sequence[str] = ("ETag", "X-Request-ID", "Retry-After")

    def options(self) -> dict[str, Any]:
        """The options of Starlette's ``CORSMiddleware`` that apply the policy."""
        return {
            "allow_origins": list(self.origins),
            "allow_methods": list(self.methods),
            "allow_headers": list(self.headers),
            "expose_headers": list(self.exposed),
            "allow_credentials": False,
            "max_age": ONE_DAY,
        }

    def refused(self, request: Headers) -> list[Said]:
        """What a preflight asks for that the policy does not allow, in words; empty when all is allowed."""
        found = []
        origin = request.get("origin", "")
        if "*" not in self.origins and origin not in self.origins:
            # TRANSLATORS: What a cross-origin request asks for that is not allowed.
            found.append(Said.of(Message("error", "its origin {origin}"), origin=origin))
        method = request.get("access-control-request-method", "")
        if method not in self.methods:
            found.append(Said.of(Message("error", "its method {method}"), method=method))
        allowed = {name.lower() for name in (*self.headers, *SAFELISTED_HEADERS)}
        asked = request.get("access-control-request-headers", "").split(",")
        headers = [name.strip() for name in asked if name.strip() and name.strip().lower() not in allowed]
        if headers:
            found.append(Said.of(Message("error", "its headers {headers}"), headers=", ".join(headers)))
        return found


class RefusedPreflightMiddleware:
    """A preflight the policy refuses, answered as problem+json; see the module's docstring."""

    def __init__(self, app: ASGIApp, *, policy: CORSPolicy) -> None:
        self.app = app
        self.policy = policy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        refused = []
        if scope["type"] == "http" and scope["method"] == "OPTIONS":
            request = Headers(scope=scope)
            if "origin" in request and "access-control-request-method" in request:
                refused = self.policy.refused(request)
        if not refused:
            await self.app(scope, receive, send)
            return
        given: list[ASGIMessage] = []

        async def keep(message: ASGIMessage) -> None:
            given.append(message)

        await self.app(scope, receive, keep)
        kept = MutableHeaders(raw=list(given[0].get("headers", ())))
        del kept["content-length"]
        del kept["content-type"]
        message = Message(
            "error", "this cross-origin request is not allowed: {refused} (see Access-Control-Allow-*)"
        )
        detail = Said.of(message, refused=Listed(tuple(refused), clauses=True))
        await problem(BAD_REQUEST, detail, None, of_scope(scope), headers=dict(kept))(scope, receive, send)
