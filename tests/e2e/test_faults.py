"""Faults: SIGTERM under load, slow clients, and what the process says on its way out."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import os
import signal
import socket
import time

import httpx
import pytest

from service import logs
from service.answers import Answers
from service.settings import Settings
from service.web.app import create_app
from tests.support.loadgen import Answer, Broken, Request, read_answer
from tests.support.server import running
from tests.support.stats import counts

# Randomized items are rendered one by one, so a batch takes the server a while: it is in flight.
BATCH = Request.post(
    "/v1/best-move/batch", {"items": [{"board": ".........", "random": True, "seed": i} for i in range(1000)]}
)


def unread(port: int) -> int:
    """What the server on ``port`` has yet to take: connections not accepted, request bytes not read.

    The kernel's table of TCP sockets (``/proc/net/tcp``) gives, for each, its receive queue: for
    the listening socket, the connections waiting to be accepted; for a connection, the bytes
    waiting to be read.
    """
    waiting = 0
    with open("/proc/net/tcp", encoding="ascii") as table:
        next(table)
        for line in table:
            fields = line.split()
            if int(fields[1].rsplit(":", 1)[1], 16) == port:
                waiting += int(fields[4].split(":")[1], 16)
    return waiting


async def in_flight_then_sigterm(port: int, pid: int, connections: int) -> list[object]:
    """Send a slow request on each connection, SIGTERM while they run, then read every answer."""
    streams = [await asyncio.open_connection("127.0.0.1", port) for _ in range(connections)]
    for _, writer in streams:
        writer.write(BATCH.encode(port))
        await writer.drain()
    # The requests have reached the server and are being answered. A busy event loop accepts one
    # connection a turn, so on a loaded machine the last may wait: uvicorn closes, on SIGTERM, a
    # connection whose request it has not read, and this test is about those it has.
    deadline = time.monotonic() + 10
    while unread(port) and time.monotonic() < deadline:
        await asyncio.sleep(0.005)
    await asyncio.sleep(0.05)
    signal_sent = time.monotonic()
    os.kill(pid, signal.SIGTERM)
    outcomes: list[object] = []
    for reader, writer in streams:
        try:
            outcomes.append(await asyncio.wait_for(read_answer(reader), timeout=30))
        except Broken as error:
            outcomes.append(error)
        writer.close()
    counts["graceful shutdown milliseconds"] = round((time.monotonic() - signal_sent) * 1000)
    return outcomes


def test_sigterm_lets_requests_in_flight_finish() -> None:
    # Every one of the 24 batches is admitted at once (by default one large request at a time is).
    env = {"TICTACTOE_LOG_LEVEL": "warning", "TICTACTOE_MAX_COSTLY_REQUESTS": "24"}
    with running(env=env) as server:
        outcomes = asyncio.run(in_flight_then_sigterm(server.port, server.process.pid, connections=24))
        code = server.process.wait(timeout=30)
    answers = [outcome for outcome in outcomes if isinstance(outcome, Answer)]
    assert answers == outcomes, [outcome for outcome in outcomes if not isinstance(outcome, Answer)]
    for answer in answers:
        assert answer.status == 200
        assert len(json.loads(answer.body)["results"]) == 1000
    counts["requests finished during shutdown"] += len(outcomes)
    assert code == 0


def test_sigterm_with_a_stalled_upload_exits_within_the_shutdown_timeout() -> None:
    """A client that never finishes its body does not hold the shutdown past its timeout."""
    env = {"TICTACTOE_LOG_LEVEL": "warning", "TICTACTOE_SHUTDOWN_TIMEOUT": "2"}
    with running(env=env) as server, socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
        sock.sendall(
            b"POST /v1/best-move HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 1000\r\n\r\n{"
        )
        time.sleep(0.2)
        started = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        code = server.process.wait(timeout=30)
        took = time.monotonic() - started
    counts["SIGTERM with a stalled upload: exit after (ms)"] = round(took * 1000)
    assert code == 0
    assert took < 2 + 3


async def slow_body(port: int, seconds: float) -> None:
    """A client that sends its body one byte at a time."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    body = b'{"board": "X........"}'
    writer.write(
        f"POST /v1/best-move HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n".encode()
    )
    for byte in body:
        writer.write(bytes([byte]))
        await writer.drain()
        await asyncio.sleep(seconds / len(body))
    answer = await read_answer(reader)
    assert answer is not None and answer.status == 200
    writer.close()


async def slow_and_fast(port: int) -> list[float]:
    slow = [asyncio.create_task(slow_body(port, seconds=4)) for _ in range(20)]
    await asyncio.sleep(0.3)
    latencies = []
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as client:
        for _ in range(200):
            started = time.monotonic()
            response = await client.post("/v1/best-move", json={"board": "XX.OO...."})
            latencies.append(time.monotonic() - started)
            assert response.status_code == 200
    still_sending = sum(not task.done() for task in slow)
    assert still_sending == len(slow), "the slow clients should still be sending"
    await asyncio.gather(*slow)
    return latencies


def test_slow_clients_do_not_block_others() -> None:
    with running(env={"TICTACTOE_LOG_LEVEL": "warning"}) as server:
        latencies = asyncio.run(slow_and_fast(server.port))
    latencies.sort()
    counts["slow-client test: p99 latency of others (ms)"] = round(
        latencies[int(len(latencies) * 0.99) - 1] * 1000
    )
    assert latencies[-1] < 1.0, latencies[-5:]


def test_a_bug_answers_500_without_traceback_and_logs_it(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(self: Answers, *args: object) -> bytes:
        raise RuntimeError("simulated bug")

    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    app = create_app(Settings())
    keeper = Keep()
    logging.getLogger("service").addHandler(keeper)
    written = io.StringIO()
    logs.writer.flush()
    monkeypatch.setattr(logs.writer, "stream", written)
    try:
        monkeypatch.setattr(Answers, "best_body", broken)  # what a plain POST reads

        async def call() -> httpx.Response:
            transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
            async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
                return await client.post(
                    "/v1/best-move", json={"board": "X........"}, headers={"x-request-id": "bug-1"}
                )

        response = asyncio.run(call())
    finally:
        logging.getLogger("service").removeHandler(keeper)
        logs.writer.flush()
    assert response.status_code == 500
    assert response.headers["content-type"] == "application/problem+json"
    assert response.json()["type"] == "/problems/internal-error"
    assert "simulated bug" not in response.text and "Traceback" not in response.text
    assert response.headers["x-request-id"] == "bug-1"
    errors = [r for r in records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and errors[0].exc_info is not None
    lines = [json.loads(line) for line in written.getvalue().splitlines()]
    access = [line for line in lines if line["logger"] == "service.access"]
    assert [(line["request_id"], line["status"]) for line in access] == [("bug-1", 500)]
    assert any("simulated bug" in line.get("traceback", "") for line in lines)
