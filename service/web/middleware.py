"""The service's middleware: one pure ASGI layer around the app, for what every request needs.

:class:`ServiceMiddleware`, outermost of the app's own middleware, does for
each HTTP request, in one pass:

* gives it an id (the client's ``X-Request-ID`` when it is a sensible token)
  and sends it back, with ``X-Content-Type-Options: nosniff``;
* answers ``HEAD`` as ``GET`` without the body, and gzips an answer of 1 KiB or
  more when the client accepts it (``Vary: Accept-Encoding``; small answers are
  left alone, and static assets come compressed already);
* refuses a body over the limit with ``413`` (a declared ``Content-Length``
  before reading, a chunked body as soon as it grows past it);
* answers a bug (an exception that escaped every handler) with a ``500``
  problem, and logs its traceback: the one place that answers ``500``;
* notices a client that leaves before its request is complete: counted and
  logged with status ``499`` (the client's doing, not the service's), once,
  at info level, without a traceback;
* counts and times the request (Prometheus) and writes one access log line.
"""

from __future__ import annotations

import gzip
import os
import re
import time

from starlette.datastructures import Headers, MutableHeaders
from starlette.middleware.cors import CORSMiddleware
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..logs import AccessLog, logger
from .caching import accepts_gzip, compressible
from .metrics import Metrics
from .problems import BAD_REQUEST, BODY_TOO_LARGE, INTERNAL_ERROR, problem

REQUEST_ID_HEADER = b"x-request-id"
_VALID_REQUEST_ID = re.compile(rb"^[A-Za-z0-9._:\-]{1,128}$")
_NOSNIFF = (b"x-content-type-options", b"nosniff")
#: The status counted and logged for a client that left before its request was complete.
CLIENT_CLOSED_REQUEST = 499
#: Methods counted under their own name; any other is counted as ``OTHER`` (labels stay few).
KNOWN_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


class ClientDisconnected(Exception):
    """The client closed the connection before its whole request arrived."""


class BodyTooLarge(Exception):
    """A chunked request body grew past the limit."""


def request_id(scope: Scope) -> str:
    """The client's ``X-Request-ID`` when it is a sensible token, else a new random id."""
    for name, value in scope["headers"]:
        if name == REQUEST_ID_HEADER and _VALID_REQUEST_ID.match(value):
            return bytes(value).decode()
    return os.urandom(12).hex()


def route_template(scope: Scope) -> str:
    """The route a request matched, as its template (``/v1/positions/{board}``), to keep labels few."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    if isinstance(path, str):
        return path if getattr(route, "methods", None) else f"{path}/{{path}}"
    mounted = scope.get("root_path", "")
    if scope.get("endpoint") is not None and mounted:
        return f"{mounted}/{{path}}"
    return "<unmatched>"


def vary_on(headers: list[tuple[bytes, bytes]], name: str) -> None:
    """Name ``name`` in the answer's one ``Vary`` header, unless it is named there already."""
    varying = MutableHeaders(raw=headers)
    named = {token.strip().lower() for token in varying.get("vary", "").split(",")}
    if name.lower() not in named:
        varying.add_vary_header(name)


def _header(headers: list[tuple[bytes, bytes]], name: bytes) -> str | None:
    for key, value in headers:
        if key == name:
            return bytes(value).decode("latin-1")
    return None


def _worth_compressing(headers: list[tuple[bytes, bytes]]) -> bool:
    """An answer of a compressible type and known length over the threshold, not encoded yet."""
    length = media_type = None
    for name, value in headers:
        if name == b"content-length":
            length = value
        elif name == b"content-type":
            media_type = value
        elif name == b"content-encoding":
            return False
    if length is None or media_type is None or not length.isdigit():
        return False
    return compressible(bytes(media_type).decode("latin-1"), int(length))


def _gzip_headers(headers: list[tuple[bytes, bytes]], length: int) -> list[tuple[bytes, bytes]]:
    """The headers of a compressed answer: its length, its coding, and a weak entity tag."""
    changed: list[tuple[bytes, bytes]] = [(b"content-encoding", b"gzip")]
    for name, value in headers:
        if name == b"content-length":
            changed.append((name, str(length).encode()))
        elif name == b"etag" and not value.startswith(b"W/"):
            changed.append((name, b"W/" + value))  # another encoding of the same content
        else:
            changed.append((name, value))
    return changed


def _body_length(scope: Scope) -> tuple[int | None, bool]:
    """The declared ``Content-Length`` (``None`` if absent or not a number) and whether it is chunked."""
    length: int | None = None
    chunked = False
    for name, value in scope["headers"]:
        if name == b"content-length":
            length = int(value) if value.isdigit() else None
        elif name == b"transfer-encoding":
            chunked = b"chunked" in value.lower()
    return length, chunked


class _Exchange:
    """One request as the middleware follows it: the body received so far, the status answered."""

    __slots__ = (
        "_held",
        "_receive",
        "_send",
        "complete",
        "head",
        "headers",
        "limit",
        "received",
        "request_headers",
        "status",
    )

    def __init__(
        self,
        receive: Receive,
        send: Send,
        headers: tuple[tuple[bytes, bytes], ...],
        limit: int,
        *,
        complete: bool,
        head: bool,
        request_headers: list[tuple[bytes, bytes]],
    ) -> None:
        self._receive = receive
        self._send = send
        self.headers = headers
        self.limit = limit
        self.received = 0
        self.complete = complete
        self.head = head
        self.request_headers = request_headers
        self.status = 0
        self._held: Message | None = None

    async def receive(self) -> Message:
        """The next message from the client; :class:`BodyTooLarge` or :class:`ClientDisconnected` raised."""
        message = await self._receive()
        if message["type"] == "http.request":
            self.received += len(message.get("body", b""))
            if self.received > self.limit:
                raise BodyTooLarge
            self.complete = not message.get("more_body", False)
        elif message["type"] == "http.disconnect" and not self.complete:
            raise ClientDisconnected
        return message

    async def send(self, message: Message) -> None:
        """Send a message of the answer, with the headers every answer carries, gzipped if it pays."""
        if message["type"] == "http.response.start":
            self.status = message["status"]
            headers = [*message.get("headers", ()), *self.headers]
            message["headers"] = headers
            if _worth_compressing(headers):
                vary_on(headers, "Accept-Encoding")
                if accepts_gzip(_header(self.request_headers, b"accept-encoding")):
                    self._held = message  # sent with the body, once it is compressed
                    return
        elif self._held is not None:
            start, self._held = self._held, None
            if not message.get("more_body", False):
                body = gzip.compress(message.get("body", b""), compresslevel=6, mtime=0)
                start["headers"] = _gzip_headers(start["headers"], len(body))
                message = {**message, "body": body}
            await self._send(start)
        if self.head and message.get("body"):
            message = {**message, "body": b""}  # HEAD: the headers of GET, no body
        await self._send(message)


class ServiceMiddleware:
    """Request ids, body limit, error answers, metrics and access log; see the module's docstring."""

    def __init__(self, app: ASGIApp, *, metrics: Metrics, access_log: AccessLog, max_body_bytes: int) -> None:
        self.app = app
        self.metrics = metrics
        self.access_log = access_log
        self.max_body_bytes = max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        rid = request_id(scope)
        scope.setdefault("state", {})["request_id"] = rid
        method: str = scope["method"]
        if method == "HEAD":
            scope = {**scope, "method": "GET"}  # every GET resource answers HEAD (RFC 9110 9.3.2)
        length, chunked = _body_length(scope)
        exchange = _Exchange(
            receive,
            send,
            ((REQUEST_ID_HEADER, rid.encode()), _NOSNIFF),
            self.max_body_bytes,
            complete=length is None and not chunked,  # no body: a disconnect is not an early one
            head=method == "HEAD",
            request_headers=scope["headers"],
        )
        try:
            if length is not None and length > self.max_body_bytes:
                raise BodyTooLarge
            await self.app(scope, exchange.receive, exchange.send)
        except BodyTooLarge:
            if exchange.status:
                raise
            await self._too_large(scope, exchange.send)
        except ClientDisconnected:
            exchange.status = CLIENT_CLOSED_REQUEST
            logger.info(
                "client disconnected before its request was complete: %s %s",
                method,
                scope["path"],
                extra={"request_id": rid},
            )
        except Exception:
            logger.exception("unhandled error on %s %s", method, scope["path"], extra={"request_id": rid})
            if exchange.status:
                raise
            answer = problem(INTERNAL_ERROR, "the service failed to answer this request", scope["path"])
            await answer(scope, _no_body, exchange.send)
        finally:
            self._record(scope, method, exchange.status or 500, time.perf_counter() - started, rid)

    def _record(self, scope: Scope, method: str, status: int, seconds: float, rid: str) -> None:
        """Count, time and log one answered request."""
        route = route_template(scope)
        label = method if method in KNOWN_METHODS else "OTHER"
        self.metrics.count(route, label, status, seconds)
        if self.access_log.enabled:
            self.access_log.write(scope, method, route=route, status=status, seconds=seconds, request_id=rid)

    async def _too_large(self, scope: Scope, send: Send) -> None:
        response = problem(
            BODY_TOO_LARGE,
            f"the request body is larger than the limit of {self.max_body_bytes} bytes",
            scope["path"],
            headers={"Connection": "close"},
        )
        await response(scope, _no_body, send)


async def _no_body() -> Message:
    return {"type": "http.request", "body": b"", "more_body": False}


class ProblemCORSMiddleware(CORSMiddleware):
    """Starlette's CORS, with a refused preflight answered as problem+json like every error.

    A request without an ``Origin`` header (not from a browser on another origin) gets only what
    Starlette gives it, ``Vary: Origin`` (so that a cache keeps it apart from answers to
    browsers), without the header parsing Starlette does first.
    """

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or any(name == b"origin" for name, _ in scope["headers"]):
            await super().__call__(scope, receive, send)
            return

        async def send_varying(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", ()))
                vary_on(message["headers"], "Origin")
            await send(message)

        await self.app(scope, receive, send_varying)

    def preflight_response(self, request_headers: Headers) -> Response:
        response = super().preflight_response(request_headers)
        if response.status_code != 400:
            return response
        refused = bytes(response.body).decode().removeprefix("Disallowed CORS ")
        headers = {
            name: value
            for name, value in response.headers.items()
            if name not in ("content-length", "content-type")
        }
        detail = f"this cross-origin request is not allowed: its {refused} (see Access-Control-Allow-*)"
        return problem(BAD_REQUEST, detail, None, headers=headers)
