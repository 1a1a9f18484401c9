"""The HTTP/1.1 protocol the service runs under uvicorn: httptools' with deadlines and limits.

uvicorn bounds neither the time a client takes to send a request nor its size
before the app sees it: a client that sends its headers a byte at a time, or
without end, holds a connection and memory for as long as it likes.
:class:`GuardedHttpProtocol` adds what hardened servers have (nginx's
``client_header_timeout``, ``client_body_timeout``, ``send_timeout``,
``large_client_header_buffers``, ``lingering_close``; Go's ``ReadHeaderTimeout``
and ``MaxHeaderBytes``), each a setting of :class:`~service.settings.Settings`:

* a deadline for a request's line and headers, counted from its first byte (or
  from the connection, for its first request), and one for its body: ``408``;
* a cap on the request line (``414``), on the line and headers together and on
  the number of header fields (``431``); the parser never holds more than the
  cap and one read;
* a deadline for an answer the client does not read: the connection is dropped;
* a cap on open connections, and one on the bytes of request bodies in flight
  (by their declared length): requests beyond either get ``503`` with ``Retry-After``;
* HTTP/1.1 requests name exactly one ``Host``, and HTTP/0.9 is refused (``400``);
* after an early answer the connection is closed lingering: what the client
  still sends is read and discarded for a while (bounded), so that it reads the
  answer instead of a reset;
* on shutdown, idle keep-alive connections are given a moment for a request
  already on its way, which is answered with ``Connection: close``.

Refusals are answered as problem+json, logged, and counted by reason
(:data:`~service.web.metrics.REFUSALS`: ``tictactoe_http_refused_total``).
"""

from __future__ import annotations

import asyncio
import errno
import json
import logging
import resource
from functools import cache
from http import HTTPStatus
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from ..settings import Settings
from .metrics import REFUSALS

logger = logging.getLogger("service")


@cache
def settings() -> Settings:
    """The limits, read once per worker process from the ``TICTACTOE_*`` environment."""
    return Settings()


@cache
def connection_cap() -> int:
    """``max_connections``, kept 64 below the descriptor limit so that refusing never runs out."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    cap = settings().max_connections
    return cap if soft == resource.RLIM_INFINITY else max(1, min(cap, soft - 64))


#: The problem type of each status the protocol answers itself.
_PROBLEM_TYPES = {
    400: "bad-request",
    408: "request-timeout",
    414: "uri-too-long",
    431: "headers-too-large",
    503: "unavailable",
}


def _problem(status: int, detail: str, headers: dict[str, str] | None = None) -> bytes:
    """A complete HTTP/1.1 answer with a problem+json body that closes the connection."""
    phrase = HTTPStatus(status).phrase
    slug = _PROBLEM_TYPES[status]
    body = json.dumps(
        {"type": f"/problems/{slug}", "title": phrase, "status": status, "detail": detail},
        separators=(",", ":"),
    ).encode()
    lines = [
        f"HTTP/1.1 {status} {phrase}",
        "content-type: application/problem+json",
        f"content-length: {len(body)}",
        "x-content-type-options: nosniff",
        "connection: close",
        *(f"{name}: {value}" for name, value in (headers or {}).items()),
    ]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


class GuardedHttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with deadlines and limits; see the module's docstring."""

    #: Bytes of request bodies in flight in this process, by their declared length.
    bodies_in_flight = 0

    def __init__(self, *args: Any, **kwargs: Any) -> None:  # noqa: ANN401 - uvicorn's signature
        super().__init__(*args, **kwargs)
        self.limits = settings()
        self._deadline: asyncio.TimerHandle | None = None
        self._write_deadline: asyncio.TimerHandle | None = None
        self._head_bytes = 0
        self._in_head = False
        self._fields = 0
        self._refusal: tuple[int, str, str] | None = None  # status, reason, detail
        self._lingering = 0  # bytes still to discard; -1: not lingering
        self._draining = False
        self._reserved = 0  # this request's share of bodies_in_flight

    # --- connection --------------------------------------------------------------------------------

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._lingering = -1
        self._arm(self.limits.header_timeout, "header_timeout", "the request's headers")

    def connection_lost(self, exc: Exception | None) -> None:
        self._release()
        self._disarm()
        if self._write_deadline is not None:
            self._write_deadline.cancel()
            self._write_deadline = None
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._lingering >= 0:
            self._lingering -= len(data)
            if self._lingering < 0:
                self.transport.close()
            return
        if not self._in_head and _simple_request(data):
            self._refuse(400, "http_version", "HTTP/0.9 is not served; use HTTP/1.1")
            return
        super().data_received(data)
        if self._in_head:  # counted after parsing: the read that began the request counts too
            self._head_bytes += len(data)
        if self._refusal is not None:
            self._refuse(*self._refusal)
        elif self._in_head and self._head_bytes > self.limits.max_header_bytes:
            self._refuse(431, "headers_too_large", f"the request line and headers exceed {self._cap()}")

    def eof_received(self) -> None:
        if self._lingering >= 0:
            self.transport.close()

    def shutdown(self) -> None:
        """Close an idle connection soon, not at once: a request may be on its way already."""
        if self.cycle is None or self.cycle.response_complete:
            self._draining = True
            self._disarm()
            self._deadline = self.loop.call_later(min(1.0, self.limits.keep_alive_timeout), self._close)
        else:
            super().shutdown()

    def pause_writing(self) -> None:
        super().pause_writing()
        if self._write_deadline is None:
            self._write_deadline = self.loop.call_later(self.limits.write_timeout, self._reader_gone)

    def resume_writing(self) -> None:
        super().resume_writing()
        if self._write_deadline is not None:
            self._write_deadline.cancel()
            self._write_deadline = None

    # --- parser callbacks --------------------------------------------------------------------------

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._in_head = True
        self._head_bytes = 0
        self._fields = 0
        if self._deadline is None or self.cycle is not None:  # the first request armed it already
            self._arm(self.limits.header_timeout, "header_timeout", "the request's headers")

    def on_url(self, url: bytes) -> None:
        super().on_url(url)
        if len(self.url) > self.limits.max_header_bytes and self._refusal is None:
            self._refusal = (414, "uri_too_long", f"the request line exceeds {self._cap()}")

    def on_header(self, name: bytes, value: bytes) -> None:
        self._fields += 1
        if self._fields > self.limits.max_headers:
            if self._refusal is None:
                self._refusal = (
                    431,
                    "headers_too_large",
                    f"more than {self.limits.max_headers} header fields",
                )
            return
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._in_head = False
        self._disarm()
        if self._refusal is None and self._head_size() > self.limits.max_header_bytes:
            self._refusal = (431, "headers_too_large", f"the request line and headers exceed {self._cap()}")
        if self._refusal is not None:
            return
        version = self.parser.get_http_version()
        hosts = sum(1 for name, _ in self.headers if name == b"host")
        if version not in ("1.0", "1.1"):
            self._refusal = (400, "http_version", f"HTTP/{version} is not served; use HTTP/1.1")
            return
        if version == "1.1" and hosts != 1:
            self._refusal = (400, "host", f"an HTTP/1.1 request has exactly one Host header; got {hosts}")
            return
        reserved = self._body_length()
        if reserved and GuardedHttpProtocol.bodies_in_flight + reserved > self.limits.max_body_buffer:
            self._refusal = (503, "body_buffer_full", "too many request bodies are on their way; retry soon")
            return
        if len(self.connections) > connection_cap():
            self._refusal = (
                503,
                "too_many_connections",
                "the service has too many connections open; retry soon",
            )
            return
        super().on_headers_complete()
        if self._draining:
            self.cycle.keep_alive = False
        if reserved:
            self._reserved = reserved
            GuardedHttpProtocol.bodies_in_flight += reserved
            self.cycle.transport = _AnswerTransport(self)  # type: ignore[assignment]
        self._arm(self.limits.body_timeout, "body_timeout", "the request's body")

    def on_body(self, body: bytes) -> None:
        if self.cycle is not None and self._refusal is None:
            super().on_body(body)

    def on_message_complete(self) -> None:
        self._disarm()
        self._release()
        if self.cycle is not None and self._refusal is None:
            super().on_message_complete()

    def send_400_response(self, msg: str) -> None:
        """What the parser refuses, as problem+json (uvicorn answers it in plain text)."""
        self._refuse(400, "malformed", "the request is not valid HTTP/1.1")

    def close_after_answer(self) -> None:
        """Close once an answer is sent: lingering when the client is still sending its body."""
        if self.cycle is not None and self.cycle.more_body and not self.transport.is_closing():
            self.linger()
        else:
            self.transport.close()

    # --- refusals ----------------------------------------------------------------------------------

    def _body_length(self) -> int:
        """The body this request may bring: its ``Content-Length`` or, chunked, the body limit.

        Never more than the limit: a longer body gets ``413`` before it is read.
        """
        for name, value in self.headers:
            if name == b"content-length":
                return min(int(value), self.limits.max_body_bytes) if value.isdigit() else 0
            if name == b"transfer-encoding":
                return self.limits.max_body_bytes
        return 0

    def _release(self) -> None:
        GuardedHttpProtocol.bodies_in_flight -= self._reserved
        self._reserved = 0

    def _head_size(self) -> int:
        """The request line and headers as received (near enough: separators counted, not spaces)."""
        return len(self.url) + sum(len(name) + len(value) + 4 for name, value in self.headers)

    def _cap(self) -> str:
        return f"{self.limits.max_header_bytes} bytes"

    def _arm(self, seconds: float, reason: str, what: str) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(seconds, self._expired, reason, what, seconds)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expired(self, reason: str, what: str, seconds: float) -> None:
        self._deadline = None
        if self.transport.is_closing():
            return
        if self.cycle is not None and self.cycle.response_started:
            REFUSALS[reason] += 1
            self.transport.close()  # the answer has begun: nothing else can be said
            return
        if not self._in_head and (self.cycle is None or self.cycle.response_complete):
            self._close()  # an idle connection, not a late request
            return
        if self.cycle is not None and not self.cycle.response_complete:
            self.cycle.disconnected = True  # the app stops waiting for the body
            self.cycle.message_event.set()
        self._refuse(408, reason, f"{what} did not arrive within {seconds:g} seconds")

    def _refuse(self, status: int, reason: str, detail: str) -> None:
        """Answer ``status`` at once, then close lingering; count it under ``reason``."""
        self._refusal = None
        REFUSALS[reason] += 1
        client = f"{self.client[0]}" if self.client else "unknown"
        logger.info("refused a request from %s: %d %s", client, status, detail, extra={"status": status})
        headers = {"retry-after": "1"} if status == 503 else None
        self.transport.write(_problem(status, detail, headers))
        self.linger()

    def linger(self) -> None:
        """Stop answering; read and discard what the client still sends (bounded), then close."""
        if self.transport.is_closing():
            return
        self._disarm()
        self._lingering = self.limits.linger_bytes
        self.flow.resume_reading()
        if self.transport.can_write_eof():
            self.transport.write_eof()
        self._deadline = self.loop.call_later(self.limits.linger_seconds, self._close)

    def _close(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()

    def _reader_gone(self) -> None:
        self._write_deadline = None
        REFUSALS["write_timeout"] += 1
        logger.info("dropped a connection whose client did not read its answer")
        self.transport.abort()


def _simple_request(data: bytes) -> bool:
    """Whether ``data`` begins an HTTP/0.9 request: a complete first line without a version."""
    line, found, _ = data.lstrip(b"\r\n").partition(b"\r\n")
    return bool(found) and len(line.split()) == 2


class _AnswerTransport:
    """The transport as a request with a body sees it: closing it closes lingering when needed.

    uvicorn closes the connection after an answer with ``Connection: close``; an early answer
    (a ``413`` before the body is read) would then reset a client that is still sending.
    """

    def __init__(self, protocol: GuardedHttpProtocol) -> None:
        self._protocol = protocol
        transport = protocol.transport
        self.write = transport.write
        self.is_closing = transport.is_closing
        self.get_extra_info = transport.get_extra_info

    def close(self) -> None:
        self._protocol.close_after_answer()


def watch_descriptors(loop: asyncio.AbstractEventLoop) -> None:
    """Log and count a failed ``accept()`` for want of descriptors (the cap should prevent it).

    The event loop reports it to its exception handler and then pauses accepting for a
    moment; without this the clients it refuses meanwhile would leave no trace.
    """
    previous = loop.get_exception_handler()

    def handle(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        error = context.get("exception")
        if isinstance(error, OSError) and error.errno in (errno.EMFILE, errno.ENFILE):
            REFUSALS["descriptors_exhausted"] += 1
            logger.error("out of file descriptors: new connections wait (%s)", error)
            return
        if previous is not None:
            previous(loop, context)
        else:
            loop.default_exception_handler(context)

    loop.set_exception_handler(handle)
