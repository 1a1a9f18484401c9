"""Request bodies are read as sent: a body with a content coding is refused (``415``).

A request that declares a body (:attr:`~service.web.facts.BodyFacts.has_body`) with a
``Content-Encoding`` other than ``identity`` (:attr:`~service.web.facts.BodyFacts.coding`:
``gzip``, ``br``, ``deflate``, any name at all) is answered ``415`` problem+json naming the coding,
with ``Accept-Encoding: identity``, as RFC 9110 says a server does for a content coding it does not
support (§8.4, §15.5.16). The body is not read. This holds for every path, the API's operations,
the fast lane's among them, and ``/mcp``.

No coding is decoded, gzip included: request bodies are small JSON (at most the body limit, 1 MiB
by default), no client needs to compress them, and a decoder is one more thing an attacker can
feed (a body that inflates a thousandfold, say) for no gain.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send

from ...game.words import Message, Said
from ..facts import body_facts
from ..language import of_scope
from ..problems import UNSUPPORTED_MEDIA_TYPE, problem, quoted


def unsupported_coding(content_encoding: str) -> Said:
    """What is wrong with a body sent with ``content_encoding`` as its coding (the ``415``'s detail)."""
    message = Message(
        "error",
        "the request body is sent with Content-Encoding {coding}; "
        "send it unencoded (no Content-Encoding, or identity)",
    )
    return Said.of(message, coding=quoted(content_encoding))


class ContentEncodingMiddleware:
    """Refuses a request body sent with a content coding; see the module's docstring."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            facts = body_facts(scope)
            coding = facts.coding
            if coding is not None and facts.has_body:
                response = problem(
                    UNSUPPORTED_MEDIA_TYPE,
                    unsupported_coding(coding),
                    scope["path"],
                    of_scope(scope),
                    headers={"Accept-Encoding": "identity"},
                )
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)
