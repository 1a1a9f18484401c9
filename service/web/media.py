"""The media types the API speaks, named once."""

from __future__ import annotations

#: Every answer of the API, and every request body it reads.
JSON = "application/json"
#: Every error (RFC 9457).
PROBLEM_JSON = "application/problem+json"


def is_json(content_type: str | None) -> bool:
    """Whether a ``Content-Type`` names JSON: ``application/json`` or ``application/*+json``."""
    media = (content_type or "").split(";", 1)[0].strip().lower()
    return media == JSON or (media.startswith("application/") and media.endswith("+json"))
