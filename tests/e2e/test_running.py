"""The service as `make run` starts it: settings, flags, start-up log, shutdown."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable

import httpx
import pytest

from service.__main__ import parse_args
from service.schemas import MAX_BODY_BYTES
from service.settings import Settings
from tests.support.commands import run
from tests.support.server import free_port, running
from tests.support.stats import counts


def test_settings_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ["HOST", "PORT", "WORKERS", "LOG_LEVEL", "CORS_ORIGINS", "MAX_BODY_BYTES"]:
        monkeypatch.delenv(f"TICTACTOE_{name}", raising=False)
    settings = Settings()
    assert (settings.host, settings.port, settings.workers) == ("127.0.0.1", 8000, 1)
    assert settings.log_level == "info"
    assert settings.cors_origins == ["*"]
    assert settings.max_body_bytes == MAX_BODY_BYTES
    assert settings.forwarded_allow_ips == []


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


def test_bad_settings_stop_the_service_with_each_named_and_no_traceback() -> None:
    environment = {**os.environ, "TICTACTOE_WORKERS": "0", "TICTACTOE_LOG_LEVEL": "loud"}
    result = run([sys.executable, "-m", "service"], env=environment, timeout=60, check=False)
    assert result.returncode == 1, result.output
    assert "error: invalid settings: TICTACTOE_WORKERS: " in result.output, result.output
    assert "TICTACTOE_LOG_LEVEL: " in result.output and "Traceback" not in result.output


def test_flags() -> None:
    args = parse_args(["--host", "::1", "--port", "8123"])
    assert (args.host, args.port) == ("::1", "8123")  # checked with the settings, as the variables are
    assert parse_args([]).host is None


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--port", "99999"], "error: invalid settings: --port: Input should be less than or equal to 65535"),
        (["--port", "eighty"], "error: invalid settings: --port: Input should be a valid integer"),
    ],
)
def test_a_wrong_option_is_named_as_the_option(args: list[str], said: str) -> None:
    environment = {**os.environ, "TICTACTOE_PORT": "8000"}
    result = run([sys.executable, "-m", "service", *args], env=environment, timeout=60, check=False)
    assert result.returncode == 1, result.output
    assert said in result.output and "TICTACTOE_PORT" not in result.output, result.output
    assert "Traceback" not in result.output


def test_the_help_is_plain_text() -> None:
    help_text = run([sys.executable, "-m", "service", "--help"], timeout=60).stdout
    assert help_text.startswith("usage: python -m service [-h] [--host HOST] [--port PORT]")
    assert "``" not in help_text and ":mod:" not in help_text, help_text


#: ``python -m service`` with ``uvicorn.run`` replaced by a stand-in that builds the app as uvicorn
#: does, and says whether the garbage collector was on before and after, and what was frozen.
START_UP = """
import gc, importlib, json, sys
import uvicorn
import service.__main__ as entry
seen = []
def build(app, **settings):
    seen.append(gc.isenabled())
    module, _, factory = app.partition(":")
    getattr(importlib.import_module(module), factory)()
    seen.extend([gc.isenabled(), gc.get_freeze_count()])
uvicorn.run = build
entry.main([])
print(json.dumps(seen))
"""


@pytest.mark.parametrize("workers", ["1", "2"])
def test_the_app_freezes_what_start_up_made_and_the_collector_stays_on(workers: str) -> None:
    env = {**os.environ, "TICTACTOE_WORKERS": workers, "TICTACTOE_LOG_LEVEL": "warning"}
    before, after, frozen = json.loads(run([sys.executable, "-c", START_UP], env=env).stdout)
    assert before is True and after is True
    # 0 without the freeze; start-up makes some 80,000 objects (the answers, the puzzle book, the imports)
    assert frozen > 50_000


def test_service_starts_logs_the_time_to_be_ready_and_stops_cleanly() -> None:
    with running() as server:
        response = httpx.post(f"{server.url}/v1/best-move", json={"board": "X........"})
        assert response.status_code == 200
        assert response.json()["position"] == 4
        assert "server" not in response.headers
        code = server.stop()
    log = "".join(server.output)
    assert code == 0, log
    assert re.search(r"engine ready: 8 variants, \d+ positions in their tables, ready in [\d.]+ ms", log), log
    assert "Traceback" not in log


def answer_on(sock: socket.socket, request: str) -> tuple[bytes, dict[str, str], bytes]:
    """Send ``request`` on a kept-alive connection: the status line, headers and body (none for a HEAD)."""
    sock.sendall(request.encode())
    received = b""
    while b"\r\n\r\n" not in received:
        chunk = sock.recv(1)  # byte by byte: what follows the head belongs to the next answer
        assert chunk, f"the connection closed after {received!r}"
        received += chunk
    status, *lines = received.decode("latin-1").split("\r\n")[:-2]
    headers = {name.lower(): value.strip() for name, _, value in (line.partition(":") for line in lines)}
    body = b""
    if not request.startswith("HEAD"):
        while len(body) < int(headers["content-length"]):
            body += sock.recv(65536)
    return status.encode(), headers, body


def test_head_through_the_server_has_the_get_headers_and_keeps_the_connection() -> None:
    """uvicorn sends no body for a ``HEAD`` only if its scope still says ``HEAD`` as the answer goes out."""
    unstable = {"date", "x-request-id"}
    with running() as server, socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
        for target in [
            "/v1/best-move?board=X........",
            "/v1/positions/XX.OO....",
            "/nowhere",
            "/v1/best-move",
        ]:
            got = answer_on(sock, f"GET {target} HTTP/1.1\r\nHost: t\r\n\r\n")
            head = answer_on(sock, f"HEAD {target} HTTP/1.1\r\nHost: t\r\n\r\n")
            assert head[0] == got[0], target
            assert {k: v for k, v in head[1].items() if k not in unstable} == {
                k: v for k, v in got[1].items() if k not in unstable
            }, target
        assert answer_on(sock, "GET /health HTTP/1.1\r\nHost: t\r\n\r\n")[0] == b"HTTP/1.1 200 OK"
        server.stop()
    log = "".join(server.output)
    assert "Traceback" not in log, log
    assert "shorter than Content-Length" not in log, log


def test_port_flag_overrides_the_environment() -> None:
    port = free_port()
    with running(["--port", str(port)], env={"TICTACTOE_PORT": "1"}) as server:
        assert server.url.endswith(f":{port}")
        assert httpx.get(f"{server.url}/health").json()["positions"] == 8533


def scrape(url: str, name: str, **labels: str) -> float:
    """One sample of a Prometheus text page (0 when absent)."""
    text = httpx.get(url, timeout=5).text
    wanted = name + ("{" + ",".join(f'{k}="{v}"' for k, v in sorted(labels.items())) + "}" if labels else "")
    for line in text.splitlines():
        if line.split(" ")[0] == wanted:
            return float(line.rsplit(" ", 1)[1])
    return 0.0


def until(check: Callable[[], bool], seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "not reached in time"
        time.sleep(0.1)


async def send_plain_requests(url: str, count: int, connections: int = 20) -> list[int]:
    """``count`` plain GETs over ``connections`` connections at once; their statuses."""
    statuses: list[int] = []
    limits = httpx.Limits(max_connections=connections, max_keepalive_connections=0)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=10) as client:

        async def sender(share: int) -> None:
            for _ in range(share):
                answer = await client.get("/v1/best-move", params={"board": "X........"})
                statuses.append(answer.status_code)

        shares = [count // connections + (i < count % connections) for i in range(connections)]
        await asyncio.gather(*(sender(share) for share in shares))
    return statuses


def workers_of(pid: int) -> list[int]:
    """The worker processes uvicorn started (not multiprocessing's helpers)."""
    command = ["pgrep", "-P", str(pid), "-f", "spawn_main"]
    found = subprocess.run(command, capture_output=True, text=True, check=False)
    return [int(child) for child in found.stdout.split()]


WORKERS = {"TICTACTOE_LOG_LEVEL": "warning", "TICTACTOE_WORKERS": "2"}
MOVES = {"route": "/v1/best-move", "method": "GET", "status": "200"}


def test_metrics_on_a_port_of_their_own_add_up_every_worker() -> None:
    metrics_port = free_port()
    metrics = f"http://127.0.0.1:{metrics_port}/metrics"
    with running(env={**WORKERS, "TICTACTOE_METRICS_PORT": str(metrics_port)}) as server:
        until(lambda: scrape(metrics, "tictactoe_workers") == 2)
        assert httpx.get(f"{server.url}/metrics").status_code == 404
        statuses = asyncio.run(send_plain_requests(server.url, 1000))
        assert statuses == [200] * 1000
        readings = [scrape(metrics, "tictactoe_http_requests_total", **MOVES) for _ in range(12)]
        counts["metrics: 12 scrapes after 1,000 requests, 2 workers, all read 1,000"] = readings.count(1000)
        assert readings == [1000] * 12


def test_metrics_on_the_public_port_add_up_every_worker_and_never_go_back() -> None:
    with running(env=WORKERS) as server:
        metrics = f"{server.url}/metrics"
        until(lambda: scrape(metrics, "tictactoe_workers") == 2)
        asyncio.run(send_plain_requests(server.url, 300))
        assert [scrape(metrics, "tictactoe_http_requests_total", **MOVES) for _ in range(6)] == [300] * 6
        # A worker killed outright is replaced by uvicorn; what it counted is kept, and it is no
        # longer counted among the workers (2, not 3, once its successor is up).
        before = workers_of(server.process.pid)
        os.kill(before[0], signal.SIGKILL)
        until(lambda: len(set(workers_of(server.process.pid)) - set(before)) == 1)
        until(lambda: scrape(metrics, "tictactoe_workers") == 2)
        asyncio.run(send_plain_requests(server.url, 200))
        assert [scrape(metrics, "tictactoe_http_requests_total", **MOVES) for _ in range(6)] == [500] * 6
