"""What a request's headers say of its body, read once and kept in the request's state.

The body limit (:mod:`.middleware.limits`), the refusal of encoded bodies
(:mod:`.middleware.encoding`), admission control (:mod:`.admission`), the fast lane and the
routes' strict reading (:mod:`.strict`) all ask what a request declares of its body: its
``Content-Length``, whether it is chunked, its ``Content-Type``, its ``Content-Encoding``.
:func:`body_facts` reads the headers the first time one of them asks, and every later one reads
the same answer from ``scope["state"]``. A request is *costly* (:func:`costly`) when its body may
be large: admission control takes a few at a time, and their long work is done off the event loop.
"""

from __future__ import annotations

from dataclasses import dataclass

from starlette.datastructures import Headers
from starlette.types import Scope

#: The key of ``scope["state"]`` under which the facts are kept.
STATE_KEY = "body_facts"

#: Bodies larger than this make a request costly: some 40 best-move requests in a batch.
COSTLY_BODY = 8 * 1024


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
    #: The ``Content-Encoding``, as sent (several of its headers joined by ``", "``); ``None`` when absent.
    content_encoding: str | None

    @property
    def has_body(self) -> bool:
        """Whether a body may follow the headers."""
        return self.sized or self.chunked

    @property
    def coding(self) -> str | None:
        """The ``Content-Encoding`` as sent when it names a content coding other than ``identity``.

        ``None`` when the header is absent, empty or names only ``identity``: ``identity`` is no
        coding at all (RFC 9110 §8.4.1). Any other name, known or not, in any case, anywhere in the
        list (``identity, gzip``), is one.
        """
        value = self.content_encoding
        if value is None or all(name.strip().lower() in ("", "identity") for name in value.split(",")):
            return None
        return value


def body_facts(scope: Scope) -> BodyFacts:
    """What the request of ``scope`` declares of its body, read from its headers once."""
    state = scope.setdefault("state", {})
    found: BodyFacts | None = state.get(STATE_KEY)
    if found is None:
        headers = Headers(scope=scope)
        length = headers.get("content-length")
        codings = headers.getlist("content-encoding")
        number = int(length) if length is not None and length.isascii() and length.isdigit() else None
        found = state[STATE_KEY] = BodyFacts(
            sized=length is not None,
            length=number,
            chunked="transfer-encoding" in headers,
            content_type=headers.get("content-type"),
            content_encoding=", ".join(codings) if codings else None,
        )
    return found


def costly(scope: Scope) -> bool:
    """Whether a request brings a body over :data:`COSTLY_BODY` bytes, or one of unknown length."""
    if scope["method"] not in ("POST", "PUT", "PATCH"):
        return False
    facts = body_facts(scope)
    if not facts.sized:
        return facts.chunked
    return facts.length is None or facts.length > COSTLY_BODY


#: The key of ``scope["state"]`` under which a body's JSON, or its fault, is kept once parsed
#: (:func:`.strict.hand_on`).
PARSED_BODY = "parsed_body"


def body_fault(scope: Scope) -> Exception | None:
    """Why a request's body is not JSON, when it was read and parsed and is not (its exception)."""
    parsed = scope.get("state", {}).get(PARSED_BODY)
    return parsed if isinstance(parsed, Exception) else None


def parsed_body(scope: Scope) -> object:
    """The JSON of a request's body, when it was read and parsed; ``None`` otherwise (a body that
    is not JSON is kept as its fault, an exception)."""
    parsed = scope.get("state", {}).get(PARSED_BODY)
    return None if isinstance(parsed, Exception) else parsed
