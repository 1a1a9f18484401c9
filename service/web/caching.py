"""HTTP caching, written once: entity tags, ``If-None-Match``, ``Cache-Control`` and ``Vary``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlette.datastructures import MutableHeaders
from starlette.responses import Response

from ..answers import Entity
from .media import JSON, compressible

if TYPE_CHECKING:
    from .language import Spoken

#: How long a cache may keep an answer that never changes for a given version: a day, in seconds.
ONE_DAY = 86400
#: What a cacheable answer allows: any cache may keep it for a day.
CACHE_CONTROL = f"public, max-age={ONE_DAY}"
#: What an answer that involved randomness, or that changes, allows: nothing kept.
NO_STORE = {"Cache-Control": "no-store"}


def cacheable(
    entity: Entity, if_none_match: str | None, language: Spoken, cache_control: str = CACHE_CONTROL
) -> Response:
    """A cacheable answer in ``language``: ``304`` when the client already holds this entity."""
    headers = {"ETag": entity.tag, "Cache-Control": cache_control}
    if etag_matches(if_none_match, entity.tag):
        if compressible(JSON, len(entity.body)):  # the 200 would vary on it (see the compression middleware)
            headers["Vary"] = "Accept-Encoding"
        response = Response(status_code=304, headers=headers)
    else:
        response = Response(entity.body, media_type=JSON, headers=headers)
    language.say(response.headers)
    return response


def json_response(body: bytes, language: Spoken, *, deterministic: bool = True) -> Response:
    """A JSON answer in ``language``; ``Cache-Control: no-store`` when it involved randomness."""
    response = Response(body, media_type=JSON, headers=None if deterministic else NO_STORE)
    language.say(response.headers)
    return response


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


def vary_on(headers: MutableHeaders, name: str) -> None:
    """Name ``name`` in an answer's ``Vary`` header, unless it is named there already."""
    if name.lower() not in {token.strip().lower() for token in headers.get("vary", "").split(",")}:
        headers.add_vary_header(name)
