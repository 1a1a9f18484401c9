"""Compression, written once: gzip of every answer worth it, for clients that accept it.

An answer is worth compressing when its length is known and at least
:data:`~service.web.media.MIN_COMPRESSED` bytes, its media type is text-like
(:func:`~service.web.media.compressible`), and it is not encoded already. Such an
answer always gets ``Vary: Accept-Encoding``; it is compressed when the request's
``Accept-Encoding`` allows gzip (:func:`accepts_gzip`), and then its strong ``ETag``
becomes weak (``W/``): the same content, another encoding. A ``304`` says what its
``200`` would have (:func:`not_modified`): whoever answers it names
``Accept-Encoding`` in its ``Vary`` when the ``200`` would be worth compressing, and
its entity tag is made weak here when the client takes gzip.

A strong entity tag names one representation of one resource, byte for byte
(RFC 9110 §8.8.1): an answer with one never changes, so its compressed bytes are kept
(:class:`GzipCache`, bounded), keyed by a digest of the bytes compressed, never by
anything the client wrote (a path can be spelled many ways): a static bundle or the
OpenAPI document is compressed once, not on every request. This is why
:mod:`service.web.assets` serves only identity bytes: gzip is written here, once.
A body of :data:`THREAD_MINIMUM` bytes or more is compressed in a thread, off the
event loop, as Starlette does.

Starlette's ``GZipMiddleware`` is not used: it compresses whenever the header
contains the text ``gzip``, ``gzip;q=0`` (a refusal) included, keeps a strong
entity tag on the compressed variant, and compresses the same bytes again on
every request.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from gzip import compress
from hashlib import blake2b

from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import media
from ..caching import vary_on

#: Bodies at least this long are compressed in a thread.
THREAD_MINIMUM = 128 * 1024
#: gzip's level: 6, zlib's default, for answers compressed on every request; 9 for kept ones.
LEVEL, KEPT_LEVEL = 6, 9
#: Bytes of the digest that keys a kept answer.
DIGEST = 16


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


class GzipCache:
    """The compressed bytes of answers with a strong entity tag, the most recently used kept.

    Keyed by a digest of the bytes compressed (BLAKE2b, 16 bytes: some 2 µs for an answer of
    4 KB, beside some 100 µs to compress it): the same bytes compress to the same gzip whatever
    the resource, and the key is bounded whatever the request. Bounded by the bytes kept, which
    count each key too.
    """

    def __init__(self, max_bytes: int = 8 * 1024 * 1024) -> None:
        self.max_bytes = max_bytes
        self.size = 0
        self.kept: OrderedDict[bytes, bytes] = OrderedDict()

    async def compressed(self, body: bytes) -> bytes:
        """The gzip of ``body``, an answer with a strong entity tag: kept, or made and kept."""
        key = blake2b(body, digest_size=DIGEST).digest()
        found = self.kept.get(key)
        if found is not None:
            self.kept.move_to_end(key)
            return found
        found = await _gzip(body, KEPT_LEVEL)
        if DIGEST + len(found) <= self.max_bytes:
            self.kept[key] = found
            self.size += DIGEST + len(found)
            while self.size > self.max_bytes:
                _, dropped = self.kept.popitem(last=False)
                self.size -= DIGEST + len(dropped)
        return found


async def _gzip(body: bytes, level: int) -> bytes:
    if len(body) >= THREAD_MINIMUM:
        return await asyncio.to_thread(compress, body, level, mtime=0)
    return compress(body, level, mtime=0)


def worth_compressing(headers: Headers) -> bool:
    """An answer of a compressible type and known length over the threshold, not encoded yet."""
    length = headers.get("content-length")
    if "content-encoding" in headers or length is None or not length.isdigit():
        return False
    return media.compressible(headers.get("content-type"), int(length))


def not_modified(start: Message, scope: Scope) -> None:
    """A ``304`` says what the ``200`` would have (RFC 9110 §15.4.5): when its representation varies
    on ``Accept-Encoding`` (its ``Vary`` says so) and the client takes gzip, the entity tag the
    client holds is the gzip one's, weak."""
    headers = MutableHeaders(raw=list(start.get("headers", ())))
    tag = headers.get("etag")
    if tag is None or tag.startswith("W/"):
        return
    varies = "accept-encoding" in (token.strip().lower() for token in headers.get("vary", "").split(","))
    if varies and accepts_gzip(Headers(scope=scope).get("accept-encoding")):
        headers["ETag"] = "W/" + tag
        start["headers"] = headers.raw


class CompressionMiddleware:
    """gzip for answers worth it, when the client accepts it; see the module's docstring."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.cache = GzipCache()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        held: Message | None = None

        async def send_compressed(message: Message) -> None:
            nonlocal held
            if message["type"] == "http.response.start":
                if message["status"] == 304:
                    not_modified(message, scope)
                elif worth_compressing(Headers(raw=message.get("headers", []))):
                    headers = MutableHeaders(raw=list(message["headers"]))
                    vary_on(headers, "Accept-Encoding")
                    message["headers"] = headers.raw
                    if accepts_gzip(Headers(scope=scope).get("accept-encoding")):
                        held = message  # sent with the body, once it is compressed
                        return
            elif held is not None:
                start, held = held, None
                if not message.get("more_body", False):
                    body = await self._compress(start, message.get("body", b""))
                    message = {**message, "body": body}
                await send(start)
            await send(message)

        await self.app(scope, receive, send_compressed)

    async def _compress(self, start: Message, body: bytes) -> bytes:
        """``body`` compressed, and the headers of ``start`` made to say so."""
        headers = MutableHeaders(raw=start["headers"])
        tag = headers.get("etag")
        if tag is not None and not tag.startswith("W/"):
            compressed = await self.cache.compressed(body)
            headers["ETag"] = "W/" + tag  # another encoding of the same content
        else:
            compressed = await _gzip(body, LEVEL)
        headers["Content-Encoding"] = "gzip"
        headers["Content-Length"] = str(len(compressed))
        return compressed
