"""ServiceMiddleware: the headers of every answer, clients that leave early, bounded metric labels."""

from __future__ import annotations

import logging

import httpx
import pytest
from fastapi import FastAPI
from starlette.types import Message

from service.settings import Settings
from service.web.app import create_app
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
