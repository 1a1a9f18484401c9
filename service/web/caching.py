"""HTTP caching, written once: entity tags, ``If-None-Match``, ``Cache-Control`` and ``Vary``."""

from __future__ import annotations

import hashlib
from typing import NamedTuple

from starlette.datastructures import MutableHeaders
from starlette.responses import Response

from .media import JSON

#: What a cacheable answer allows: any cache may keep it for a day.
CACHE_CONTROL = "public, max-age=86400"
#: What an answer that involved randomness, or that changes, allows: nothing kept.
NO_STORE = {"Cache-Control": "no-store"}


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


def vary_on(headers: list[tuple[bytes, bytes]], name: str) -> None:
    """Name ``name`` in the one ``Vary`` header of raw answer headers (changed in place), unless there.

    Every answer passes here, so the common case, no ``Vary`` yet, is found by one look at the
    raw names before Starlette's :class:`~starlette.datastructures.MutableHeaders` is asked.
    """
    if all(key != b"vary" for key, _ in headers):
        headers.append((b"vary", name.encode("latin-1")))
        return
    varying = MutableHeaders(raw=headers)
    if name.lower() not in {token.strip().lower() for token in varying["vary"].split(",")}:
        varying.add_vary_header(name)
