"""HTTP caching, written once: entity tags, ``If-None-Match``, ``Cache-Control`` and ``Vary``."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from starlette.datastructures import MutableHeaders
from starlette.responses import Response

from ..answers import Entity
from .media import JSON, compressible

#: What a cacheable answer allows: any cache may keep it for a day.
CACHE_CONTROL = "public, max-age=86400"
#: What an answer that involved randomness, or that changes, allows: nothing kept.
NO_STORE = {"Cache-Control": "no-store"}


def cacheable(entity: Entity, if_none_match: str | None, cache_control: str = CACHE_CONTROL) -> Response:
    """A cacheable answer: ``304`` when the client already holds this entity."""
    given: tuple[tuple[bytes, bytes], ...] = (
        (b"etag", entity.tag.encode("latin-1")),
        (b"cache-control", cache_control.encode("latin-1")),
    )
    if etag_matches(if_none_match, entity.tag):
        if compressible(JSON, len(entity.body)):  # the 200 would vary on it (see the compression middleware)
            given = (*given, (b"vary", b"Accept-Encoding"))
        return JSONAnswer(b"", 304, given)
    return JSONAnswer(entity.body, 200, given)


def json_response(body: bytes, *, deterministic: bool = True) -> Response:
    """A JSON answer; ``Cache-Control: no-store`` when it involved randomness."""
    return JSONAnswer(body, 200, () if deterministic else _NO_STORE)


_NO_STORE = tuple((name.lower().encode(), value.encode()) for name, value in NO_STORE.items())


class JSONAnswer(Response):
    """A JSON answer with the headers Starlette's :class:`Response` writes, made once per kind.

    Those are the ``given`` ones, then ``Content-Length`` and ``Content-Type`` (neither on a
    ``304``); :meth:`init_headers` takes the last two from a small cache keyed by the body's
    length, since a plain request is answered in a few microseconds and building them again
    would be a fair share of it. For the same reason the answer is made as Starlette's
    ``Response.__init__`` makes it, without its choices that a body of JSON bytes never needs
    (content to render, a media type to pick): what it sets is set directly.
    """

    media_type = JSON

    def __init__(self, body: bytes, status_code: int, given: tuple[tuple[bytes, bytes], ...]) -> None:
        self.given = given
        self.status_code = status_code
        self.background = None
        self.body = body
        self.init_headers()

    def init_headers(self, headers: Mapping[str, str] | None = None) -> None:
        if self.status_code == 304:
            self.raw_headers = list(self.given)
        else:
            self.raw_headers = [*self.given, *_body_headers(len(self.body))]


@lru_cache(maxsize=1024)
def _body_headers(length: int) -> tuple[tuple[bytes, bytes], ...]:
    """``Content-Length`` and ``Content-Type`` of a JSON body of ``length`` bytes (answers have a few
    hundred lengths, so the cache holds them all; the entity tags, all different, are not in its key)."""
    return (b"content-length", str(length).encode()), (b"content-type", JSON.encode())


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
    for key, _ in headers:
        if key == b"vary":
            break
    else:
        headers.append((b"vary", name.encode("latin-1")))
        return
    varying = MutableHeaders(raw=headers)
    if name.lower() not in {token.strip().lower() for token in varying["vary"].split(",")}:
        varying.add_vary_header(name)
