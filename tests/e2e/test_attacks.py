"""Attacks on the HTTP layer, each bounded in count and time, against a real server on 127.0.0.1.

Each test asserts what a hardened server does and records its figures (memory,
time to drop, answer sizes, exit time) for the session summary. The server runs
with short deadlines so that the tests take seconds, not minutes.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator

import httpx
import pytest

from tests.support.loadgen import Answer, Broken, Request, read_answer, rss_kib
from tests.support.server import Server, running
from tests.support.stats import counts
from tests.support.tools import require_tool

HEADER_TIMEOUT = 2
BODY_TIMEOUT = 3
LIMITS = {
    "TICTACTOE_LOG_LEVEL": "warning",
    "TICTACTOE_HEADER_TIMEOUT": str(HEADER_TIMEOUT),
    "TICTACTOE_BODY_TIMEOUT": str(BODY_TIMEOUT),
    "TICTACTOE_MAX_CONNECTIONS": "200",
}


@pytest.fixture(scope="module")
def guarded() -> Iterator[Server]:
    """The service with short deadlines, for this module's attacks."""
    with running(env=LIMITS) as server:
        yield server


def sample(server: Server, name: str, **labels: str) -> float:
    """One sample of the server's metrics (0 when absent)."""
    text = httpx.get(f"{server.url}/metrics").text
    wanted = name + ("{" + ",".join(f'{k}="{v}"' for k, v in sorted(labels.items())) + "}" if labels else "")
    for line in text.splitlines():
        if line.split(" ")[0] == wanted:
            return float(line.rsplit(" ", 1)[1])
    return 0.0


async def endless_headers(port: int, limit: int) -> int:
    """Send header lines of 1 KiB until the server stops reading or answers; the bytes it took."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    sent = 0
    writer.write(f"GET /health HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode())
    line = b"X-Filler: " + b"a" * 1012 + b"\r\n"
    try:
        while sent < limit:
            writer.write(line * 16)
            await asyncio.wait_for(writer.drain(), timeout=5)
            sent += len(line) * 16
            if reader.at_eof() or reader._buffer:  # type: ignore[attr-defined]  # the answer began
                break
    except (ConnectionError, TimeoutError):
        pass
    finally:
        writer.close()
    return sent


def test_endless_headers_are_cut_off_and_memory_stays_flat(guarded: Server) -> None:
    before = rss_kib(guarded.process.pid)
    limit = 20 * 1024 * 1024

    async def attack() -> list[int]:
        return list(await asyncio.gather(*(endless_headers(guarded.port, limit) for _ in range(5))))

    taken = asyncio.run(attack())
    after = rss_kib(guarded.process.pid)
    counts["endless headers: most bytes one connection sent (KiB)"] = max(taken) // 1024
    counts["endless headers: RSS growth (KiB)"] = after - before
    assert all(sent < limit // 4 for sent in taken), taken  # cut off long before 20 MiB
    assert after - before <= 64 * 1024
    assert httpx.get(f"{guarded.url}/health").status_code == 200


def test_one_oversized_header_gets_431_and_a_long_line_414(guarded: Server) -> None:
    with socket.create_connection(("127.0.0.1", guarded.port), timeout=10) as sock:
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + b"b" * 40_000 + b"\r\n\r\n")
        assert sock.recv(100).startswith(b"HTTP/1.1 431 ")
    with socket.create_connection(("127.0.0.1", guarded.port), timeout=10) as sock:
        sock.sendall(b"GET /health?" + b"q" * 40_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
        assert sock.recv(100).startswith(b"HTTP/1.1 414 ")


async def slow_header(port: int) -> float:
    """A connection that starts a request and never finishes its headers: seconds until dropped."""
    started = time.monotonic()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ")
    await writer.drain()
    try:
        while True:
            await asyncio.sleep(0.5)
            writer.write(b"s")  # a byte now and then: keep-alive timers would be reset by it
            await writer.drain()
            if reader.at_eof() or reader._buffer:  # type: ignore[attr-defined]
                break
    except ConnectionError:
        pass
    writer.close()
    return time.monotonic() - started


async def normal_requests(port: int, seconds: float) -> list[float]:
    latencies = []
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as client:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            started = time.monotonic()
            response = await client.get("/v1/best-move", params={"board": "X........"})
            assert response.status_code == 200
            latencies.append(time.monotonic() - started)
            await asyncio.sleep(0.01)
    return sorted(latencies)


def test_slow_header_connections_are_dropped_while_others_are_served(guarded: Server) -> None:
    async def attack() -> tuple[list[float], list[float]]:
        slow = asyncio.gather(*(slow_header(guarded.port) for _ in range(50)))
        normal = normal_requests(guarded.port, HEADER_TIMEOUT + 1)
        dropped, latencies = await asyncio.gather(slow, normal)
        return list(dropped), latencies

    dropped, latencies = asyncio.run(attack())
    counts["slow headers: last of 50 dropped after (ms)"] = round(max(dropped) * 1000)
    counts["slow headers: p99 of normal clients meanwhile (ms)"] = round(
        latencies[int(len(latencies) * 0.99) - 1] * 1000
    )
    assert max(dropped) < HEADER_TIMEOUT + 5, dropped


def test_a_stalled_body_gets_408(guarded: Server) -> None:
    with socket.create_connection(("127.0.0.1", guarded.port), timeout=BODY_TIMEOUT + 10) as sock:
        sock.sendall(
            b"POST /v1/best-move HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100\r\n\r\n{"
        )
        started = time.monotonic()
        answer = sock.recv(200)
        counts["stalled body: answered after (ms)"] = round((time.monotonic() - started) * 1000)
    assert answer.startswith(b"HTTP/1.1 408 "), answer
    assert b"application/problem+json" in answer


def test_repeated_query_parameters_are_refused_quickly(guarded: Server) -> None:
    for size, status in [(64 * 1024, b"414"), (15 * 1024, b"422")]:
        query = "&".join(["ab="] * (size // 4))
        with socket.create_connection(("127.0.0.1", guarded.port), timeout=10) as sock:
            started = time.monotonic()
            sock.sendall(f"GET /v1/best-move?board=X........&{query} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            answer = sock.recv(65536)
            counts[f"{size // 1024} KiB of repeated query parameters: answered in (ms)"] = round(
                (time.monotonic() - started) * 1000
            )
        assert answer.split(b" ")[1] == status, answer[:200]
        assert len(answer) < 4096


def test_aborted_uploads_are_counted_apart_never_as_500(guarded: Server) -> None:
    route = {"route": "/v1/best-move", "method": "POST"}
    before = sample(guarded, "tictactoe_http_requests_total", status="499", **route)
    for _ in range(200):
        with socket.create_connection(("127.0.0.1", guarded.port), timeout=5) as sock:
            sock.sendall(
                b"POST /v1/best-move HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b"Content-Length: 100\r\n\r\n{"
            )
    deadline = time.monotonic() + 10
    while sample(guarded, "tictactoe_http_requests_total", status="499", **route) < before + 200:
        assert time.monotonic() < deadline, "the aborted uploads were not all counted"
        time.sleep(0.1)
    assert sample(guarded, "tictactoe_http_requests_total", status="500", **route) == 0


def test_odd_methods_leave_few_metric_labels(guarded: Server) -> None:
    methods = ["PROPFIND", "MKCOL", "COPY", "MOVE", "LOCK", "UNLOCK", "PROPPATCH", "REPORT", "SEARCH", "BIND"]
    with httpx.Client(base_url=guarded.url) as client:
        for method in methods * 2:
            assert client.request(method, "/v1/best-move").status_code in (400, 405, 501)
        text = client.get("/metrics").text
    labels = {part.split('"')[1] for part in text.split("method=")[1:]}
    counts["distinct method labels after 20 odd methods"] = len(labels)
    assert len(labels) <= 10, labels


def test_an_early_413_reaches_every_upload(guarded: Server, tmp_path: object) -> None:
    curl = require_tool("curl")
    body = os.path.join(str(tmp_path), "body.json")
    with open(body, "wb") as file:
        file.write(b"{" + b" " * (2 * 1024 * 1024) + b"}")
    seen = 0
    for _ in range(100):
        result = subprocess.run(
            [
                curl,
                "-s",
                "-o",
                os.devnull,
                "-w",
                "%{http_code}",
                "-H",
                "Content-Type: application/json",
                "-H",
                "Expect:",
                "--data-binary",
                f"@{body}",
                f"{guarded.url}/v1/best-move",
            ],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
        seen += result.stdout == "413"
    counts["early 413 without Expect: uploads that saw it (of 100)"] = seen
    assert seen == 100


def test_connections_over_the_cap_get_503_with_retry_after() -> None:
    with running(env={"TICTACTOE_LOG_LEVEL": "warning", "TICTACTOE_MAX_CONNECTIONS": "10"}) as server:
        held: list[socket.socket] = []
        answers = []
        try:
            for _ in range(12):  # each kept open (keep-alive) after its answer
                held.append(socket.create_connection(("127.0.0.1", server.port), timeout=5))
                held[-1].sendall(f"GET /health HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n\r\n".encode())
                answers.append(held[-1].recv(4096))
        finally:
            for sock in held:
                sock.close()
    refused = [answer for answer in answers if answer.startswith(b"HTTP/1.1 503 ")]
    assert len(refused) == 2 and all(b"retry-after: 1" in answer for answer in refused)
    assert all(answer.startswith(b"HTTP/1.1 200 ") for answer in answers[:10])


def test_sigterm_with_a_stalled_upload_exits_within_the_shutdown_timeout() -> None:
    env = {
        "TICTACTOE_LOG_LEVEL": "warning",
        "TICTACTOE_SHUTDOWN_TIMEOUT": "2",
        "TICTACTOE_BODY_TIMEOUT": "120",
    }
    with running(env=env) as server:
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        sock.sendall(
            b"POST /v1/best-move HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 1000\r\n\r\n{"
        )
        time.sleep(0.2)
        started = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        code = server.process.wait(timeout=30)
        counts["SIGTERM with a stalled upload: exit after (ms)"] = round((time.monotonic() - started) * 1000)
        sock.close()
    assert code == 0
    assert time.monotonic() - started < 2 + 5


async def keep_alive_client(port: int, stop: asyncio.Event) -> tuple[int, int]:
    """Requests one after another on one connection until the server closes it: (answered, lost)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    request = Request("GET", "/v1/best-move?board=X........").encode(port)
    answered = 0
    try:
        while True:
            writer.write(request)
            await writer.drain()
            answer: Answer | None = await asyncio.wait_for(read_answer(reader), timeout=15)
            if answer is None:
                return answered, 1  # written, then the connection closed without an answer
            answered += 1
            if answer.headers.get("connection") == "close":
                return answered, 0
            if stop.is_set():
                await asyncio.sleep(0.01)
    except (ConnectionError, Broken):
        return answered, 1
    finally:
        writer.close()


def test_sigterm_under_keep_alive_load_answers_every_written_request() -> None:
    with running(env={"TICTACTOE_LOG_LEVEL": "warning"}) as server:

        async def load() -> list[tuple[int, int]]:
            stop = asyncio.Event()
            clients = [asyncio.create_task(keep_alive_client(server.port, stop)) for _ in range(20)]
            await asyncio.sleep(1)
            stop.set()
            os.kill(server.process.pid, signal.SIGTERM)
            return list(await asyncio.gather(*clients))

        results = asyncio.run(load())
        code = server.process.wait(timeout=30)
    lost = sum(lost for _, lost in results)
    counts["SIGTERM under keep-alive load: requests answered"] = sum(done for done, _ in results)
    counts["SIGTERM under keep-alive load: written requests lost"] = lost
    assert code == 0
    assert lost == 0


async def stalled_upload(port: int, size: int) -> bytes:
    """Send all but the last byte of a body and wait: the answer, if one comes before the deadline."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        f"POST /v1/best-move HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        f"Content-Length: {size}\r\n\r\n".encode()
    )
    try:
        writer.write(b" " * (size - 1))
        await writer.drain()
        return await asyncio.wait_for(reader.read(200), timeout=BODY_TIMEOUT + 5)
    except (ConnectionError, TimeoutError):
        return b""
    finally:
        writer.close()


def test_stalled_bodies_cannot_fill_the_memory() -> None:
    env = {**LIMITS, "TICTACTOE_MAX_BODY_BUFFER": str(16 * 1024 * 1024)}
    with running(env=env) as server:
        before = rss_kib(server.process.pid)
        peak = before

        async def attack() -> list[bytes]:
            nonlocal peak
            uploads = asyncio.gather(*(stalled_upload(server.port, 1024 * 1024) for _ in range(100)))
            while not uploads.done():
                peak = max(peak, rss_kib(server.process.pid))
                await asyncio.sleep(0.2)
            return list(await uploads)

        answers = asyncio.run(attack())
        after = rss_kib(server.process.pid)
    busy = [answer for answer in answers if answer.startswith(b"HTTP/1.1 503 ")]
    late = [answer for answer in answers if answer.startswith(b"HTTP/1.1 408 ")]
    counts["100 stalled 1 MiB bodies: RSS growth at the peak (KiB)"] = peak - before
    counts["100 stalled 1 MiB bodies: refused at once with 503"] = len(busy)
    assert len(busy) >= 80 and len(busy) + len(late) == 100, [answer[:12] for answer in answers]
    assert peak - before <= 64 * 1024
    assert after - before <= 64 * 1024


def test_clients_that_never_read_are_dropped_after_the_write_deadline() -> None:
    env = {**LIMITS, "TICTACTOE_WRITE_TIMEOUT": "2"}
    batch = Request.post("/v1/best-move/batch", {"items": [{"board": "X........"}] * 1000})
    with running(env=env) as server:
        before = rss_kib(server.process.pid)
        sockets = []
        for _ in range(10):
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.sendall(batch.encode(server.port) * 40)  # about 7 MB of answers, never read
            sockets.append(sock)
        deadline = time.monotonic() + 15
        while sample(server, "tictactoe_http_refused_total", reason="write_timeout") < 10:
            assert time.monotonic() < deadline, "clients that never read were not dropped"
            time.sleep(0.5)
        peak = rss_kib(server.process.pid)
        for sock in sockets:
            sock.close()
    counts["10 clients that never read 7 MB of answers: RSS growth (KiB)"] = peak - before
    assert peak - before <= 64 * 1024


def test_http_0_9_and_missing_hosts_are_refused_at_once(guarded: Server) -> None:
    for request in [
        b"GET /health\r\n",
        b"GET /health HTTP/1.1\r\n\r\n",
        b"GET /health HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
    ]:
        with socket.create_connection(("127.0.0.1", guarded.port), timeout=HEADER_TIMEOUT - 1) as sock:
            sock.sendall(request)
            answer = sock.recv(4096)
        assert answer.startswith(b"HTTP/1.1 400 "), (request, answer[:80])
        assert b"application/problem+json" in answer
