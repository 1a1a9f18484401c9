"""A request's headers read on the hot path: one scan of the raw list, nothing raised when absent.

Starlette's :class:`~starlette.datastructures.Headers` reads the same list, and is used
wherever a request's cost allows it. But ``Headers.get`` of a header that is absent raises
and catches ``KeyError`` inside, some 2.5 µs here, as long as the fast lane takes to answer;
every request passes layers that look for headers it usually lacks (``X-Request-ID``,
``Origin``, ``Transfer-Encoding``, ``If-None-Match``), so those layers use :func:`header`.
"""

from __future__ import annotations

from collections.abc import Iterable


def header(headers: Iterable[tuple[bytes, bytes]], name: bytes) -> str | None:
    """The first header ``name`` (lower case, as ASGI gives names) of raw ``headers``, or ``None``."""
    for key, value in headers:
        if key == name:
            return bytes(value).decode("latin-1")
    return None
