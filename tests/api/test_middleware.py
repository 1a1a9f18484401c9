"""The middleware, one concern each: headers of every answer, early leavers, labels, gzip, HEAD, order.

The first tests go through the whole app; the last ones take the layers one by one, around
small ASGI apps.
"""

from __future__ import annotations

import gzip
import json
import logging
import threading
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from opentelemetry import trace
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service import logs
from service.settings import Settings
from service.web import facts, media
from service.web.app import create_app
from service.web.metrics import Metrics
from service.web.middleware import compression
from service.web.middleware.access import AccessMiddleware
from service.web.middleware.compression import CompressionMiddleware
from service.web.middleware.cors import CORSPolicy, RefusedPreflightMiddleware
from service.web.middleware.errors import ErrorMiddleware
from service.web.middleware.head import HeadMiddleware
from service.web.middleware.limits import BodyLimitMiddleware
from service.web.middleware.request_id import RequestIdMiddleware
from service.web.middleware.security import NoSniffMiddleware
from tests.support.bodies import post_scope

#: The ``service_log`` fixture: the service's log lines so far, parsed.
ServiceLog = Callable[[], list[dict[str, Any]]]

pytestmark = pytest.mark.anyio


def requests_counted(app: FastAPI, route: str, method: str, status: str) -> float:
    """The requests counted so far."""
    value = app.state.metrics.registry.get_sample_value(
        "tictactoe_http_requests_total", {"route": route, "method": method, "status": status}
    )
    return value or 0.0


class Kept(logging.Handler):
    """Keeps the records of the ``service`` logger (which does not propagate to the root)."""

    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


async def test_a_client_that_leaves_mid_body_is_499_logged_once_at_info(service_log: ServiceLog) -> None:
    app = create_app(Settings(log_level="info"))
    sent: list[Message] = []
    messages: list[Message] = []

    async def receive() -> Message:
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message: Message) -> None:
        sent.append(message)

    kept = Kept()
    logging.getLogger("service").addHandler(kept)
    try:
        for _ in range(3):
            messages[:] = [{"type": "http.request", "body": b"{", "more_body": True}]
            await app(post_scope(100), receive, send)
    finally:
        logging.getLogger("service").removeHandler(kept)
    assert sent == []  # nobody is left to read an answer
    assert requests_counted(app, "/v1/best-move", "POST", "499") == 3
    assert requests_counted(app, "/v1/best-move", "POST", "500") == 0
    disconnected = [r for r in kept.records if r.name == "service"]  # the access lines apart
    assert [r.levelno for r in disconnected] == [logging.INFO] * 3
    assert all(r.exc_info is None and "disconnected" in r.getMessage() for r in disconnected)
    said = [(line["level"], line["message"]) for line in service_log() if line["logger"] == "service"]
    assert said == [("info", "client disconnected before its request was complete: POST /v1/best-move")] * 3


async def test_every_answer_says_nosniff_and_carries_a_request_id(client: httpx.AsyncClient) -> None:
    for response in [
        await client.post("/v1/best-move", json={"board": "X........"}),
        await client.post("/v1/best-move", json={"board": "Z"}),
        await client.get("/nowhere"),
        await client.get("/health"),
        await client.get("/static/play.js"),
    ]:
        assert response.headers["x-content-type-options"] == "nosniff", response.url
        assert response.headers["x-request-id"], response.url


async def test_odd_methods_share_one_metric_label(client: httpx.AsyncClient, app: FastAPI) -> None:
    before = requests_counted(app, "/v1/best-move", "OTHER", "405")
    for method in ["PROPFIND", "MKCOL", "LOCK", "BREW"]:
        response = await client.request(method, "/v1/best-move")
        assert response.status_code == 405
    assert requests_counted(app, "/v1/best-move", "OTHER", "405") == before + 4
    text = (await client.get("/metrics")).text
    assert "PROPFIND" not in text and "BREW" not in text
    assert "pid=" not in text


def test_the_middleware_is_stacked_in_the_documented_order(app: FastAPI) -> None:
    """Outermost first, as service/web/middleware/__init__.py gives it and explains."""
    names = [middleware.cls.__name__ for middleware in app.user_middleware]  # type: ignore[attr-defined]
    assert names == [
        "NoSniffMiddleware",
        "RequestIdMiddleware",
        "AccessMiddleware",
        "HeadMiddleware",
        "ErrorMiddleware",
        "CompressionMiddleware",
        "RefusedPreflightMiddleware",
        "CORSMiddleware",
        "ContentEncodingMiddleware",
        "BodyLimitMiddleware",
        "AdmissionMiddleware",
        "FastLane",
    ]


async def test_an_answer_with_an_entity_tag_is_compressed_once(
    client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[int] = []

    def counted(body: bytes, level: int, *, mtime: float) -> bytes:
        made.append(len(body))
        return gzip.compress(body, level, mtime=mtime)

    monkeypatch.setattr(compression, "compress", counted)
    asset = "/static/play.css"
    answers = [await client.get(asset, headers={"accept-encoding": "gzip"}) for _ in range(3)]
    assert [answer.headers["content-encoding"] for answer in answers] == ["gzip"] * 3
    assert len({answer.content for answer in answers}) == 1
    assert len(made) <= 1  # once, or never if another test asked for it first
    batch = {"items": [{"board": "X........"}] * 8}
    for _ in range(2):  # no entity tag: compressed every time
        await client.post("/v1/best-move/batch", json=batch, headers={"accept-encoding": "gzip"})
    assert len(made) >= 2


async def test_head_has_the_headers_of_get_compressed_length_included(client: httpx.AsyncClient) -> None:
    for path in ["/v1/positions/.........", "/static/play.js", "/openapi.json"]:
        gzip_ok = {"accept-encoding": "gzip"}
        got = await client.get(path, headers=gzip_ok)
        head = await client.head(path, headers=gzip_ok)
        assert head.status_code == got.status_code == 200
        assert head.content == b""
        assert head.headers["content-encoding"] == got.headers["content-encoding"] == "gzip", path
        assert head.headers["content-length"] == got.headers["content-length"], path
        assert head.headers["etag"] == got.headers["etag"], path


def test_a_refused_gzip_is_never_sent() -> None:
    for value in ["gzip;q=0", "identity", "", "br", "gzip;q=0, *;q=1", "*;q=0"]:
        assert not compression.accepts_gzip(value), value
    for value in ["gzip", "x-gzip", "*", "br, gzip;q=0.1", "GZIP"]:
        assert compression.accepts_gzip(value), value


# The layers one by one, around small ASGI apps.

HELLO: Message = {"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]}


def get_scope(path: str = "/x", headers: list[tuple[bytes, bytes]] | None = None) -> Scope:
    return {
        "type": "http",
        "method": "GET",
        "path": path,
        "root_path": "",
        "query_string": b"",
        "headers": headers or [],
    }


async def nothing_received() -> Message:
    return {"type": "http.request", "body": b"", "more_body": False}


async def answered(app: ASGIApp, scope: Scope) -> list[Message]:
    sent: list[Message] = []

    async def send(message: Message) -> None:
        sent.append(message)

    await app(scope, nothing_received, send)
    return sent


def each_layer(inner: ASGIApp) -> list[ASGIApp]:
    return [
        NoSniffMiddleware(inner),
        RequestIdMiddleware(inner),
        AccessMiddleware(inner, metrics=Metrics("test", {"standard": 1}, 0.0)),
        ErrorMiddleware(inner),
        HeadMiddleware(inner),
        CompressionMiddleware(inner),
        BodyLimitMiddleware(inner, max_body_bytes=10),
        RefusedPreflightMiddleware(inner, policy=CORSPolicy(["*"])),
    ]


async def test_a_layer_with_nothing_to_do_passes_receive_and_send_on() -> None:
    passed: list[tuple[Receive, Send]] = []

    async def inner(scope: Scope, receive: Receive, send: Send) -> None:
        passed.append((receive, send))

    async def send(message: Message) -> None:
        raise AssertionError("nothing is sent")

    for layer in each_layer(inner):  # not HTTP: every layer stands aside
        await layer({"type": "lifespan"}, nothing_received, send)
    assert passed == [(nothing_received, send)] * 8
    passed.clear()
    idle: list[ASGIApp] = [HeadMiddleware(inner), BodyLimitMiddleware(inner, max_body_bytes=10)]
    for layer in idle:
        await layer(get_scope(), nothing_received, send)  # a GET without a body: nothing to do
    assert passed == [(nothing_received, send)] * 2


async def test_a_length_in_digits_outside_ascii_is_no_declared_length() -> None:
    """``²`` is a digit to Python, not to HTTP: the limit counts the body, and admission calls it costly."""
    scope = post_scope(0)
    scope["headers"][-1] = (b"content-length", "\u00b2".encode("latin-1"))
    read: list[bytes] = []

    async def inner(scope: Scope, receive: Receive, send: Send) -> None:
        read.append((await receive())["body"])

    async def two_bytes() -> Message:
        return {"type": "http.request", "body": b"{}", "more_body": False}

    async def send(message: Message) -> None:
        raise AssertionError("the inner app answers nothing")

    await BodyLimitMiddleware(inner, max_body_bytes=10)(scope, two_bytes, send)
    assert read == [b"{}"]
    assert facts.costly(scope)


async def test_the_request_id_is_kept_in_a_state_made_for_it() -> None:
    seen: list[Scope] = []

    async def inner(scope: Scope, receive: Receive, send: Send) -> None:
        seen.append(scope)
        await send(HELLO)
        await send({"type": "http.response.body", "body": b"hi"})

    scope = get_scope(headers=[(b"x-request-id", b"front-7")])
    assert "state" not in scope
    (start, _) = await answered(NoSniffMiddleware(RequestIdMiddleware(inner)), scope)
    assert seen[0]["state"] == {"request_id": "front-7"}
    assert Headers(raw=start["headers"])["x-request-id"] == "front-7"
    assert Headers(raw=start["headers"])["x-content-type-options"] == "nosniff"


async def test_an_escaped_exception_is_one_500_problem_and_its_traceback_logged(
    service_log: ServiceLog,
) -> None:
    async def broken(scope: Scope, receive: Receive, send: Send) -> None:
        raise RuntimeError("a bug")

    kept = Kept()
    logging.getLogger("service").addHandler(kept)
    try:
        scope = get_scope("/broken", headers=[(b"x-request-id", b"bug-7")])
        start, body = await answered(RequestIdMiddleware(ErrorMiddleware(broken)), scope)
    finally:
        logging.getLogger("service").removeHandler(kept)
    headers = Headers(raw=start["headers"])
    assert start["status"] == 500
    assert headers["content-type"] == "application/problem+json"
    assert headers["x-request-id"] == "bug-7"
    problem = json.loads(body["body"])
    assert problem["type"] == "/problems/internal-error" and problem["status"] == 500
    assert "a bug" not in body["body"].decode() and "Traceback" not in body["body"].decode()
    (record,) = kept.records
    assert record.levelno == logging.ERROR and record.exc_info is not None
    assert getattr(record, "request_id", None) == "bug-7"
    (line,) = service_log()
    assert (line["level"], line["request_id"]) == ("error", "bug-7")
    assert line["message"] == "unhandled error on GET /broken"
    assert line["traceback"].endswith("RuntimeError: a bug\n")


async def test_the_500_of_a_head_has_no_body_either(app: FastAPI, service_log: ServiceLog) -> None:
    async def broken(scope: Scope, receive: Receive, send: Send) -> None:
        raise RuntimeError("a bug")

    layers = [middleware.cls.__name__ for middleware in app.user_middleware]  # type: ignore[attr-defined]
    assert layers.index("HeadMiddleware") < layers.index("ErrorMiddleware")  # outside it, as here
    kept = Kept()
    logging.getLogger("service").addHandler(kept)
    try:
        head = dict(get_scope(), method="HEAD")
        start, body = await answered(HeadMiddleware(ErrorMiddleware(broken)), head)
    finally:
        logging.getLogger("service").removeHandler(kept)
    assert start["status"] == 500
    assert int(Headers(raw=start["headers"])["content-length"]) > 0  # the GET's length
    assert body["body"] == b""
    assert len(kept.records) == 1
    (line,) = service_log()
    # HeadMiddleware hands the request on as a GET
    assert (line["level"], line["message"]) == ("error", "unhandled error on GET /x")
    assert line["traceback"].endswith("RuntimeError: a bug\n")


async def test_an_exception_after_the_answer_began_goes_on(service_log: ServiceLog) -> None:
    async def half(scope: Scope, receive: Receive, send: Send) -> None:
        await send(HELLO)
        raise RuntimeError("mid-answer")

    sent: list[Message] = []

    async def send(message: Message) -> None:
        sent.append(message)

    with pytest.raises(RuntimeError, match="mid-answer"):
        await ErrorMiddleware(half)(get_scope(), nothing_received, send)
    assert sent == [HELLO]  # no second start: the server closes the connection
    (line,) = service_log()  # logged here, and raised for the server to log too
    assert (line["level"], line["message"]) == ("error", "unhandled error on GET /x")
    assert line["traceback"].endswith("RuntimeError: mid-answer\n")


def text_answer(body: bytes, etag: str | None = None) -> ASGIApp:
    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        headers = [(b"content-type", b"text/plain"), (b"content-length", str(len(body)).encode())]
        if etag is not None:
            headers.append((b"etag", etag.encode()))
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    return app


async def test_large_bodies_are_compressed_off_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    threads: list[int] = []

    def counted(body: bytes, level: int, *, mtime: float) -> bytes:
        threads.append(threading.get_ident())
        return gzip.compress(body, level, mtime=mtime)

    monkeypatch.setattr(compression, "compress", counted)
    gzip_ok = get_scope(headers=[(b"accept-encoding", b"gzip")])
    for size in [media.MIN_COMPRESSED, compression.THREAD_MINIMUM]:
        body = b"tic tac toe " * (size // 12 + 1)
        start, answer = await answered(CompressionMiddleware(text_answer(body)), gzip_ok)
        assert Headers(raw=start["headers"])["content-encoding"] == "gzip"
        assert gzip.decompress(answer["body"]) == body
        assert int(Headers(raw=start["headers"])["content-length"]) == len(answer["body"])
    small, large = threads
    assert small == threading.get_ident() != large


async def test_kept_gzip_copies_are_bounded_and_keyed_by_their_bytes() -> None:
    cache = compression.GzipCache(max_bytes=200)
    one, other = b"a" * 2000, b"b" * 2000
    first = await cache.compressed(one)
    assert await cache.compressed(bytes(one)) is first  # the same bytes, kept once
    assert gzip.decompress(await cache.compressed(other)) == other
    for n in range(20):
        await cache.compressed(bytes([n]) * 2000)
    assert 0 < cache.size <= 200 and len(cache.kept) < 20
    assert await cache.compressed(one) is not first  # the least recently used went first
    assert all(len(key) == compression.DIGEST for key in cache.kept)


async def test_the_paths_of_one_answer_keep_one_gzip_copy() -> None:
    """Many spellings of a path with one answer: one copy kept, keyed by its bytes, not the path."""
    body = b"x" * 4096
    app = CompressionMiddleware(text_answer(body, etag='"abc"'))
    for n in range(50):
        await answered(app, get_scope("/v1/positions/" + "." * n, [(b"accept-encoding", b"gzip")]))
    assert len(app.cache.kept) == 1


async def test_a_strong_tag_is_weakened_on_the_gzip_variant_only() -> None:
    body = b"x" * 4096
    app = CompressionMiddleware(text_answer(body, etag='"abc"'))
    packed, _ = await answered(app, get_scope(headers=[(b"accept-encoding", b"gzip")]))
    plain, _ = await answered(app, get_scope(headers=[(b"accept-encoding", b"gzip;q=0")]))
    assert Headers(raw=packed["headers"])["etag"] == 'W/"abc"'
    assert Headers(raw=plain["headers"])["etag"] == '"abc"'
    assert Headers(raw=plain["headers"])["vary"] == "Accept-Encoding"
    assert "content-encoding" not in Headers(raw=plain["headers"])


async def test_each_request_is_counted_and_logged_as_it_ends(service_log: ServiceLog) -> None:
    async def inner(scope: Scope, receive: Receive, send: Send) -> None:
        await send(HELLO)
        await send({"type": "http.response.body", "body": b"hi"})

    metrics = Metrics("test", {"standard": 1}, 0.0)
    logs.configure("info")
    layer = AccessMiddleware(inner, metrics=metrics)
    stamps = []
    for number in range(3):
        began = time.time()
        await answered(layer, get_scope(f"/x/{number}"))
        stamps.append((began, time.time()))
        counted = metrics.registry.get_sample_value(
            "tictactoe_http_requests_total", {"route": "<unmatched>", "method": "GET", "status": "200"}
        )
        assert counted == number + 1  # counted as it ended, not later
    lines = [line for line in service_log() if line["logger"] == "service.access"]
    assert [line["path"] for line in lines] == ["/x/0", "/x/1", "/x/2"]
    for line, (began, ended) in zip(lines, stamps, strict=True):  # each stamped as its request ended
        stamp = datetime.fromisoformat(line["time"]).timestamp()
        assert began - 0.001 <= stamp <= ended + 0.001


@pytest.mark.parametrize("opentelemetry", [False, True])
async def test_fastapi_looks_for_opentelemetry_only_when_asked(
    opentelemetry: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Off by default (the service's metrics are Prometheus's); TICTACTOE_OPENTELEMETRY turns it on."""
    looked: list[object] = []
    unset = trace.get_tracer_provider

    def provider() -> trace.TracerProvider:
        looked.append(provider)
        return unset()

    monkeypatch.setattr(trace, "get_tracer_provider", provider)
    app = create_app(Settings(log_level="warning", opentelemetry=opentelemetry))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as client:
        assert (await client.get("/health")).status_code == 200
    assert bool(looked) is opentelemetry


async def test_a_clients_long_text_is_cut_in_the_log_with_its_length(service_log: ServiceLog) -> None:
    """Whatever a client sends, each text of a log line is at most ``MAX_TEXT`` characters and ``…``."""

    async def inner(scope: Scope, receive: Receive, send: Send) -> None:
        await send(HELLO)
        await send({"type": "http.response.body", "body": b"hi"})

    logs.configure("info")
    path = "/" + "é" * 5000
    await answered(AccessMiddleware(inner, metrics=Metrics("test", {"standard": 1}, 0.0)), get_scope(path))
    try:
        raise ValueError("x" * 100_000)
    except ValueError:
        logs.logger.warning("refused: %s", "n" * 900_000, exc_info=True)
    access, warning = [line for line in service_log() if line["logger"] in ("service.access", "service")]
    assert access["path"] == path[: logs.MAX_TEXT] + "…" and access["path_length"] == 5001
    assert "route_length" not in access and access["route"] == "<unmatched>"
    assert (
        len(warning["message"]) == logs.MAX_TEXT + 1
        and warning["message_length"] == len("refused: ") + 900_000
    )
    assert all(len(line) <= logs.MAX_TEXT + 30 for line in warning["traceback"].splitlines())
    assert f"… ({len('ValueError: ') + 100_000} characters)" in warning["traceback"]
