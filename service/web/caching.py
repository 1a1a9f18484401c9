"""HTTP caching and content coding, written once: entity tags, ``If-None-Match``, gzip."""

from __future__ import annotations

import hashlib
from typing import NamedTuple

from starlette.responses import Response

from .media import JSON

#: What a cacheable answer allows: any cache may keep it for a day.
CACHE_CONTROL = "public, max-age=86400"
#: What an answer that involved randomness, or that changes, allows: nothing kept.
NO_STORE = {"Cache-Control": "no-store"}

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


class Entity(NamedTuple):
    """A deterministic answer: its JSON bytes and their strong entity tag."""

    body: bytes
    tag: str

    @classmethod
    def of(cls, body: bytes) -> Entity:
        return cls(body, etag(body))


def cacheable(entity: Entity, if_none_match: str | None, cache_control: str = CACHE_CONTROL) -> Response:
    """A cacheable answer: ``304`` when the client already holds this entity."""
    headers = {"ETag": entity.tag, "Cache-Control": cache_control}
    if etag_matches(if_none_match, entity.tag):
        return Response(status_code=304, headers=headers)
    return Response(entity.body, media_type=JSON, headers=headers)


def json_response(body: bytes, *, deterministic: bool = True) -> Response:
    """A JSON answer; ``Cache-Control: no-store`` when it involved randomness."""
    return Response(body, media_type=JSON, headers=None if deterministic else NO_STORE)


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
    """Whether an ``Accept-Encoding`` value allows gzip (RFC 9110 §12.5.3).

    gzip's own quality counts when it is named (``x-gzip`` is the same coding), else that of
    ``*``; a quality of 0 refuses it, and a value that names neither does not allow it.
    """
    named: float | None = None
    anything: float | None = None
    for token in (accept_encoding or "").lower().split(","):
        name, _, params = token.strip().partition(";")
        coding = name.strip()
        if coding in ("gzip", "x-gzip"):
            named = _quality(params) if named is None else max(named, _quality(params))
        elif coding == "*":
            anything = _quality(params)
    quality = named if named is not None else anything
    return quality is not None and quality > 0


def _quality(params: str) -> float:
    """The ``q`` of a coding's parameters: 1 when absent or not a number in [0, 1] (ignored)."""
    for param in params.split(";"):
        name, _, value = param.strip().partition("=")
        if name.strip() == "q":
            try:
                quality = float(value.strip())
            except ValueError:
                return 1.0
            return quality if 0 <= quality <= 1 else 1.0
    return 1.0


def compressible(media_type: str | None, length: int) -> bool:
    """Whether an answer of this type and size is worth compressing."""
    return length >= MIN_COMPRESSED and (media_type or "").startswith(COMPRESSIBLE)
