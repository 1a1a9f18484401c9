"""Faults: SIGTERM under load, slow clients, and what the process says on its way out."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
import os
import signal
import socket
import sys
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


def stall_an_upload(port: int) -> socket.socket:
    """A connection to the service on ``port`` with a request whose body stops after its first byte."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=60)
    sock.sendall(
        b"POST /v1/best-move HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 1000\r\n\r\n{"
    )
    return sock


def test_sigterm_with_a_stalled_upload_exits_within_the_shutdown_timeout() -> None:
    """A client that never finishes its body does not hold the shutdown past its timeout.

    Two services each get a stalled upload, then SIGTERM at the same moment: one with a shutdown
    timeout of 2 s, the other of 60 s. The first exits, with status 0, while the other still
    waits for its upload: what ended the first one's wait is its timeout.
    """
    short = {"TICTACTOE_LOG_LEVEL": "warning", "TICTACTOE_SHUTDOWN_TIMEOUT": "2"}
    long = {**short, "TICTACTOE_SHUTDOWN_TIMEOUT": "60"}
    with (
        running(env=short) as server,
        running(env=long) as control,
        stall_an_upload(server.port),
        stall_an_upload(control.port),
    ):
        # Each service has read the request's head once its own connection holds no unread bytes.
        deadline = time.monotonic() + 60
        while unread(server.port) or unread(control.port):
            assert time.monotonic() < deadline, "the services did not read the requests"
            time.sleep(0.01)
        started = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        control.process.send_signal(signal.SIGTERM)
        code = server.process.wait(timeout=50)
        took = time.monotonic() - started
        still_waiting = control.process.poll() is None
        control.process.kill()
    counts["SIGTERM with a stalled upload: exit after (ms)"] = round(took * 1000)
    assert code == 0
    assert still_waiting, "the service with a shutdown timeout of 60 s exited as soon"


async def slow_body(port: int, sending: asyncio.Semaphore, release: asyncio.Event) -> None:
    """A client that sends its body a byte at a time, and its last byte only once ``release`` is set
    (then the rest at once). It releases ``sending`` once its head and first byte are sent."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    body = b'{"board": "X........"}'
    writer.write(
        f"POST /v1/best-move HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n".encode()
    )
    sent = 0
    while sent < len(body) - 1 and not release.is_set():
        writer.write(body[sent : sent + 1])
        await writer.drain()
        sent += 1
        if sent == 1:
            sending.release()
        with contextlib.suppress(TimeoutError):  # a byte every 0.2 s, until released
            await asyncio.wait_for(release.wait(), timeout=0.2)
    await release.wait()
    writer.write(body[sent:])
    answer = await read_answer(reader)
    assert answer is not None and answer.status == 200
    writer.close()


async def slow_and_fast(port: int, slow_clients: int = 20) -> list[float]:
    """200 plain requests while ``slow_clients`` are in the middle of their bodies: how long each took."""
    sending = asyncio.Semaphore(0)
    release = asyncio.Event()
    slow = [asyncio.create_task(slow_body(port, sending, release)) for _ in range(slow_clients)]
    try:
        for _ in slow:
            await asyncio.wait_for(sending.acquire(), timeout=60)
        latencies = []
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60) as client:
            for _ in range(200):
                started = time.monotonic()
                response = await client.post("/v1/best-move", json={"board": "XX.OO...."})
                latencies.append(time.monotonic() - started)
                assert response.status_code == 200
        assert not any(task.done() for task in slow), "a slow client stopped before the others were answered"
    finally:
        release.set()
    await asyncio.wait_for(asyncio.gather(*slow), timeout=60)
    return latencies


def test_slow_clients_do_not_block_others() -> None:
    """Plain requests are answered while 20 clients are in the middle of their bodies.

    The slow clients send their last byte only after the plain requests are answered: a service
    that waited for a body before serving others would answer none of them.
    """
    with running(env={"TICTACTOE_LOG_LEVEL": "warning"}) as server:
        latencies = asyncio.run(slow_and_fast(server.port))
    latencies.sort()
    counts["slow-client test: p99 latency of others (ms)"] = round(
        latencies[int(len(latencies) * 0.99) - 1] * 1000
    )


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
    monkeypatch.setattr(sys, "stderr", written)  # where the service writes its lines
    try:
        monkeypatch.setattr(Answers, "best_body", broken)  # what a plain POST reads

        async def call() -> httpx.Response:
            transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
            async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
                return await client.post(
                    "/v1/best-move", json={"board": "X........"}, headers={"x-request-id": "bug-1"}
                )

        response = asyncio.run(call())
        logs.flush()  # every line logged is written
    finally:
        logging.getLogger("service").removeHandler(keeper)
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
