"""What a request's headers say of its body, read once and kept in the request's state.

The body limit (:mod:`.middleware.limits`), admission control (:mod:`.admission`), the fast lane
and the routes' strict reading (:mod:`.strict`) all ask what a request declares of its body: its
``Content-Length``, whether it is chunked, its ``Content-Type``. :func:`body_facts` reads the
headers the first time one of them asks, and every later one reads the same answer from
``scope["state"]``.
"""

from __future__ import annotations

from dataclasses import dataclass

from starlette.datastructures import Headers
from starlette.types import Scope

#: The key of ``scope["state"]`` under which the facts are kept.
STATE_KEY = "body_facts"


@dataclass(frozen=True, slots=True)
class BodyFacts:
    """What a request declares of its body."""

    #: Whether it has a ``Content-Length`` header, a number or not.
    sized: bool
    #: The ``Content-Length`` as a number of bytes; ``None`` when absent or not a number.
    length: int | None
    #: Whether it has a ``Transfer-Encoding`` (a body of unknown length).
    chunked: bool
    #: The ``Content-Type``, as sent.
    content_type: str | None

    @property
    def has_body(self) -> bool:
        """Whether a body may follow the headers."""
        return self.sized or self.chunked


def body_facts(scope: Scope) -> BodyFacts:
    """What the request of ``scope`` declares of its body, read from its headers once."""
    state = scope.setdefault("state", {})
    found: BodyFacts | None = state.get(STATE_KEY)
    if found is None:
        headers = Headers(scope=scope)
        length = headers.get("content-length")
        number = int(length) if length is not None and length.isascii() and length.isdigit() else None
        found = state[STATE_KEY] = BodyFacts(
            sized=length is not None,
            length=number,
            chunked="transfer-encoding" in headers,
            content_type=headers.get("content-type"),
        )
    return found
