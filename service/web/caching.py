"""HTTP caching and content coding, written once: entity tags, ``If-None-Match``, gzip."""

from __future__ import annotations

import hashlib

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


def etag(body: bytes) -> str:
    """A strong entity tag for a body: a hash of its bytes, so equal bodies share it."""
    return '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"'


def etag_matches(if_none_match: str | None, tag: str) -> bool:
    """RFC 9110 weak comparison of an ``If-None-Match`` value against ``tag``."""
    if not if_none_match:
        return False
    bare = tag.removeprefix("W/")
    for candidate in if_none_match.split(","):
        given = candidate.strip()
        if given == "*" or given.removeprefix("W/") == bare:
            return True
    return False


def accepts_gzip(accept_encoding: str | None) -> bool:
    """Whether an ``Accept-Encoding`` value allows gzip (``q=0`` refuses it)."""
    for token in (accept_encoding or "").lower().split(","):
        name, _, params = token.strip().partition(";")
        if name.strip() not in ("gzip", "*"):
            continue
        quality = params.strip().removeprefix("q=").strip()
        try:
            return float(quality) > 0 if quality else True
        except ValueError:
            return True
    return False


def compressible(media_type: str | None, length: int) -> bool:
    """Whether an answer of this type and size is worth compressing."""
    return length >= MIN_COMPRESSED and (media_type or "").startswith(COMPRESSIBLE)
