"""The media types the API speaks, and which answers are worth compressing, named once."""

from __future__ import annotations

from pydantic_core import to_json

from ..game.words import Message, Said

#: Every answer of the API, and every request body it reads.
JSON = "application/json"
#: Every error (RFC 9457).
PROBLEM_JSON = "application/problem+json"


def json_bytes(value: object) -> bytes:
    """``value`` (plain values: dictionaries, lists, text, numbers) as JSON, written as Pydantic writes a
    model: no spaces, UTF-8 text as it is (by Pydantic's own serializer, twice as fast as :mod:`json`)."""
    return to_json(value)


def media_type(content_type: str | None) -> str:
    """The media type a ``Content-Type`` names, in lower case, without its parameters."""
    return (content_type or "").split(";", 1)[0].strip().lower()


def is_json(content_type: str | None) -> bool:
    """Whether a ``Content-Type`` names JSON: ``application/json`` or ``application/*+json``."""
    media = media_type(content_type)
    return media == JSON or (media.startswith("application/") and media.endswith("+json"))


def not_json(content_type: str | None) -> Said:
    """What is wrong with a body sent as ``content_type``, not as JSON (the detail of a ``415``)."""
    if content_type is None:
        return Said.of(
            Message("error", "the request body must be JSON sent with Content-Type: {json}; got none"),
            json=JSON,
        )
    message = Message(
        "error", "the request body must be JSON sent with Content-Type: {json}; got {content_type}"
    )
    return Said.of(message, json=JSON, content_type=content_type)


#: Answers smaller than this are not worth compressing.
MIN_COMPRESSED = 1024
#: Media types worth compressing (prefixes).
COMPRESSIBLE = (
    "text/",
    "application/javascript",
    "application/json",
    "application/problem+json",
    "image/svg+xml",
)


def compressible(media_type: str | None, length: int) -> bool:
    """Whether an answer of this type and size is worth compressing (and so varies on ``Accept-Encoding``)."""
    return length >= MIN_COMPRESSED and (media_type or "").startswith(COMPRESSIBLE)
