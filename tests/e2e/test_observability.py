"""What operators see: request ids, one JSON log line per request, Prometheus metrics, log levels."""

from __future__ import annotations

import json
import re

import httpx
import pytest

from tests.support.server import running

pytestmark = pytest.mark.anyio


async def test_request_id_is_echoed_or_made(client: httpx.AsyncClient) -> None:
    given = await client.get("/health", headers={"x-request-id": "front-end-42"})
    assert given.headers["x-request-id"] == "front-end-42"
    made = await client.get("/health")
    assert re.fullmatch(r"[0-9a-f]{24}", made.headers["x-request-id"])
    unsafe = await client.get("/health", headers={"x-request-id": "bad id\twith spaces" + "x" * 200})
    assert re.fullmatch(r"[0-9a-f]{24}", unsafe.headers["x-request-id"])
    other = await client.get("/health")
    assert other.headers["x-request-id"] != made.headers["x-request-id"]
    error = await client.post("/v1/best-move", json={"board": "?"}, headers={"x-request-id": "e-1"})
    assert error.headers["x-request-id"] == "e-1"


def sample(text: str, name: str, **labels: str) -> float:
    for line in text.splitlines():
        if line.startswith(name + "{") or line.startswith(name + " "):
            found = dict(re.findall(r'(\w+)="([^"]*)"', line.split(" ")[0]))
            if all(found.get(key) == value for key, value in labels.items()):
                return float(line.rsplit(" ", 1)[1])
    raise AssertionError(f"no sample {name} {labels}")


async def test_metrics_count_requests_by_route_method_and_status(client: httpx.AsyncClient) -> None:
    before = (await client.get("/metrics")).text
    for _ in range(3):
        await client.get("/v1/positions/X........")
    await client.get("/v1/positions/XX.......")
    await client.post("/v1/best-move", json={"board": "X........"})
    response = await client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8"
    text = response.text
    route = "/v1/positions/{board}"

    def grew(name: str, **labels: str) -> float:
        try:
            old = sample(before, name, **labels)
        except AssertionError:
            old = 0.0
        return sample(text, name, **labels) - old

    assert grew("tictactoe_http_requests_total", route=route, method="GET", status="200") == 3
    assert grew("tictactoe_http_requests_total", route=route, method="GET", status="422") == 1
    assert grew("tictactoe_http_requests_total", route="/v1/best-move", method="POST", status="200") == 1
    assert grew("tictactoe_http_request_duration_seconds_count", route=route, method="GET") == 4
    assert (
        sample(text, "tictactoe_http_request_duration_seconds_bucket", route=route, method="GET", le="+Inf")
        >= 4
    )
    assert sample(text, "tictactoe_solved_positions") == 8533
    assert sample(text, "tictactoe_build_info", version=(await client.get("/health")).json()["version"]) == 1
    assert "/v1/positions/X........" not in text  # labels use the route template, not the path


def test_one_json_log_line_per_request() -> None:
    with running(env={"TICTACTOE_LOG_LEVEL": "info"}) as server:
        with httpx.Client(base_url=server.url) as client:
            client.post("/v1/best-move", json={"board": "X........"}, headers={"x-request-id": "log-1"})
            client.get("/v1/positions/nope", headers={"x-request-id": "log-2"})
            client.get("/missing", headers={"x-request-id": "log-3"})
        server.stop()
    lines = [json.loads(line) for line in "".join(server.output).splitlines() if line.strip()]
    assert all({"time", "level", "logger", "message"} <= set(line) for line in lines)
    access = [
        line for line in lines if line["logger"] == "service.access" and line["request_id"].startswith("log-")
    ]
    assert [(a["request_id"], a["method"], a["route"], a["status"]) for a in access] == [
        ("log-1", "POST", "/v1/best-move", 200),
        ("log-2", "GET", "/v1/positions/{board}", 422),
        ("log-3", "GET", "<unmatched>", 404),
    ]
    assert all(isinstance(a["duration_ms"], float) and a["duration_ms"] >= 0 for a in access)
    assert any("solved table ready" in line["message"] for line in lines)
    assert not any("Traceback" in json.dumps(line) for line in lines)


def test_log_level_from_settings() -> None:
    with running(env={"TICTACTOE_LOG_LEVEL": "warning"}) as server:
        httpx.get(f"{server.url}/health")
        server.stop()
    assert "".join(server.output).strip() == ""
