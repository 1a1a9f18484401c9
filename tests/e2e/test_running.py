"""The service as `make run` starts it: settings, flags, start-up log, shutdown."""

from __future__ import annotations

import re

import httpx
import pytest
from pydantic import ValidationError

from service.__main__ import parse_args
from service.settings import Settings
from tests.support.server import free_port, running


def test_settings_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ["HOST", "PORT", "WORKERS", "LOG_LEVEL", "CORS_ORIGINS", "MAX_BODY_BYTES"]:
        monkeypatch.delenv(f"TICTACTOE_{name}", raising=False)
    settings = Settings()
    assert (settings.host, settings.port, settings.workers) == ("127.0.0.1", 8000, 1)
    assert settings.log_level == "info"
    assert settings.cors_origins == ["*"]
    assert settings.max_body_bytes == 1024 * 1024


def test_settings_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TICTACTOE_HOST", "0.0.0.0")
    monkeypatch.setenv("TICTACTOE_PORT", "9000")
    monkeypatch.setenv("TICTACTOE_WORKERS", "3")
    monkeypatch.setenv("TICTACTOE_LOG_LEVEL", "WARNING")
    monkeypatch.setenv("TICTACTOE_CORS_ORIGINS", "https://a.example, https://b.example")
    monkeypatch.setenv("TICTACTOE_MAX_BODY_BYTES", "2048")
    settings = Settings()
    assert (settings.host, settings.port, settings.workers) == ("0.0.0.0", 9000, 3)
    assert settings.log_level == "warning"
    assert settings.cors_origins == ["https://a.example", "https://b.example"]
    assert settings.max_body_bytes == 2048
    monkeypatch.setenv("TICTACTOE_CORS_ORIGINS", '["https://c.example"]')
    assert Settings().cors_origins == ["https://c.example"]


@pytest.mark.parametrize(("name", "value"), [("PORT", "http"), ("WORKERS", "0"), ("LOG_LEVEL", "loud")])
def test_bad_settings_are_refused(monkeypatch: pytest.MonkeyPatch, name: str, value: str) -> None:
    monkeypatch.setenv(f"TICTACTOE_{name}", value)
    with pytest.raises(ValueError, match=name.lower()):
        Settings()


def test_flags() -> None:
    args = parse_args(["--host", "::1", "--port", "8123"])
    assert (args.host, args.port) == ("::1", 8123)
    assert parse_args([]).host is None


def test_service_starts_logs_the_solve_time_and_stops_cleanly() -> None:
    with running() as server:
        response = httpx.post(f"{server.url}/v1/best-move", json={"board": "X........"})
        assert response.status_code == 200
        assert response.json()["position"] == 4
        assert "server" not in response.headers
        code = server.stop()
    log = "".join(server.output)
    assert code == 0, log
    assert re.search(r"solved table ready: 8533 boards, \d+ positions, solved in [\d.]+ ms", log), log
    assert "Traceback" not in log


def test_port_flag_overrides_the_environment() -> None:
    port = free_port()
    with running(["--port", str(port)], env={"TICTACTOE_PORT": "1"}) as server:
        assert server.url.endswith(f":{port}")
        assert httpx.get(f"{server.url}/health").json()["positions"] == 8533


def test_metrics_on_a_port_of_their_own() -> None:
    metrics_port = free_port()
    env = {"TICTACTOE_LOG_LEVEL": "warning", "TICTACTOE_METRICS_PORT": str(metrics_port)}
    with running(env=env) as server:
        assert httpx.get(f"{server.url}/health").status_code == 200
        assert httpx.get(f"{server.url}/metrics").status_code == 404
        scraped = httpx.get(f"http://127.0.0.1:{metrics_port}/metrics")
        assert scraped.status_code == 200
        assert 'tictactoe_http_requests_total{method="GET",route="/health",status="200"}' in scraped.text
        assert httpx.get(f"http://127.0.0.1:{metrics_port}/health").status_code == 404


def test_a_metrics_port_needs_a_single_worker() -> None:
    with pytest.raises(ValidationError, match="metrics_port needs workers = 1"):
        Settings(metrics_port=9100, workers=2)
