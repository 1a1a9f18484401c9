"""The middleware, one concern each: headers of every answer, early leavers, labels, gzip, HEAD, order."""

from __future__ import annotations

import gzip
import logging

import httpx
import pytest
from fastapi import FastAPI
from starlette.types import Message

from service.settings import Settings
from service.web.app import create_app
from service.web.middleware import compression
from tests.support.bodies import post_scope

pytestmark = pytest.mark.anyio


def requests_counted(app: FastAPI, route: str, method: str, status: str) -> float:
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


async def test_a_client_that_leaves_mid_body_is_499_logged_once_at_info() -> None:
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
    assert [r.levelno for r in kept.records] == [logging.INFO] * 3
    assert all(r.exc_info is None and "disconnected" in r.getMessage() for r in kept.records)


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
        "RequestIdMiddleware",
        "AccessMiddleware",
        "ErrorMiddleware",
        "HeadMiddleware",
        "CompressionMiddleware",
        "BodyLimitMiddleware",
        "ProblemCORSMiddleware",
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
