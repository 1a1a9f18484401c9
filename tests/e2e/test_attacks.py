"""Attacks on the topology we ship: the proxy of deploy/proxy in front of stock uvicorn.

The proxy is the system's nginx running the repository's configuration, rendered by the image's
own entrypoint, on 127.0.0.1. Each attacker sends from an address of its own in 127.0.0.0/8
(all of it is loopback), so that the proxy's per-client limits tell it apart from the client
that checks the service still answers. Each attack is bounded in count and time, asserts what
the edge does, and records its figures for the session summary. The proxy runs with short
deadlines (2 s for headers, 3 s for bodies and for clients that do not read) so that the tests
take seconds, and with a rate of 200 requests a second per client, so that the client that
checks the service never reaches it. Its edge cache is off: the client that checks the service
asks for the same best move again and again, which the cache would answer without the service
(tests/e2e/test_edge_cache.py tests the cache).
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from scripts.attacks import get, problem, status
from tests.support.bodies import longest_batch
from tests.support.loadgen import rss_kib
from tests.support.proxy import Proxy, proxied, proxy_access_log, service_access_log
from tests.support.server import Server, running
from tests.support.stats import counts
from tests.support.tools import require_tool

HEADER_TIMEOUT = 2
BODY_TIMEOUT = 3
SEND_TIMEOUT = 3
#: How long a client waits for the proxy to end a request it stalls: ten times the deadlines
#: above and more, and still half nginx's own default (60 s), which would be in force without them.
GIVE_UP = 30
SHORT = {
    "PROXY_RATE": "200",  # the victim sends some 80 a second for seconds on end
    "PROXY_HEADER_TIMEOUT": str(HEADER_TIMEOUT),
    "PROXY_BODY_TIMEOUT": str(BODY_TIMEOUT),
    "PROXY_SEND_TIMEOUT": str(SEND_TIMEOUT),
    "PROXY_CACHE": "off",
}
SERVICE = {"TICTACTOE_LOG_LEVEL": "info", "TICTACTOE_FORWARDED_ALLOW_IPS": "127.0.0.1"}
#: The client that checks the service still answers, and the attackers, each at its own address.
VICTIM = "127.0.0.2"
PLAIN = b"GET /v1/best-move?board=X........ HTTP/1.1\r\nHost: tictactoe\r\n\r\n"


@dataclass
class Edge:
    service: Server
    proxy: Proxy

    @property
    def port(self) -> int:
        return self.proxy.port


@pytest.fixture(scope="module")
def edge() -> Iterator[Edge]:
    """One service behind the shipped proxy, with short deadlines."""
    with running(env=SERVICE) as service, proxied([f"127.0.0.1:{service.port}"], SHORT) as proxy:
        yield Edge(service, proxy)


def attacker(number: int) -> str:
    return f"127.0.1.{number}"


def connect(port: int, source: str, timeout: float = 10) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout, source_address=(source, 0))
    return sock


def read_answer(sock: socket.socket, limit: int = 1 << 20) -> bytes:
    """Bytes until one whole answer (by its Content-Length) is in, the server closes, or time is up."""
    data = b""
    try:
        while len(data) < limit:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
            head, found, body = data.partition(b"\r\n\r\n")
            if found:
                length = [line for line in head.lower().split(b"\r\n") if line.startswith(b"content-length:")]
                if length and len(body) >= int(length[0].split(b":")[1]):
                    break
    except OSError:
        pass
    return data


def exchange(port: int, request: bytes, source: str = VICTIM, timeout: float = 10) -> bytes:
    with connect(port, source, timeout) as sock:
        sock.sendall(request)
        return read_answer(sock)


def post(path: str, body: bytes, *headers: bytes) -> bytes:
    return (
        f"POST {path} HTTP/1.1\r\nHost: tictactoe\r\nContent-Type: application/json\r\n".encode()
        + b"".join(header + b"\r\n" for header in headers)
        + f"Content-Length: {len(body)}\r\n\r\n".encode()
        + body
    )


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


async def victim_latencies(port: int, seconds: float) -> list[float]:
    """Plain best moves one after another for ``seconds``, from :data:`VICTIM`: each one's time.

    Every answer must be ``200``: the victim is never refused.
    """
    latencies = []
    transport = httpx.AsyncHTTPTransport(local_address=VICTIM)
    async with httpx.AsyncClient(
        base_url=f"http://127.0.0.1:{port}", transport=transport, timeout=10
    ) as client:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            started = time.monotonic()
            answer = await client.get("/v1/best-move", params={"board": "X........"})
            assert answer.status_code == 200, answer.text[:200]
            latencies.append(time.monotonic() - started)
            await asyncio.sleep(0.01)
    return latencies


# --- valid requests, however their bytes arrive ----------------------------------------------------


def seen_by_the_service(edge: Edge, source: str) -> int:
    """How many requests from ``source`` reached the service."""
    return sum(line["client"] == source for line in service_access_log(edge.service))


def segmented(request: bytes, pieces: list[int], port: int, pause: float = 0.02) -> int:
    """Send ``request`` cut at ``pieces`` (sizes, the rest last), pausing between: the status."""
    with connect(port, VICTIM) as sock:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        at = 0
        for size in pieces:
            sock.sendall(request[at : at + size])
            at += size
            time.sleep(pause)
        sock.sendall(request[at:])
        return status(read_answer(sock))


def pretty_batch(items: int, indent: int) -> bytes:
    rows = [["X", "O", None], [None, "X", None], [None, None, "O"]]
    body = {"items": [{"board": rows, "level": "hard", "seed": n} for n in range(items)]}
    return json.dumps(body, indent=indent).replace("\n", "\r\n").encode()


@pytest.mark.parametrize("through", ["proxy", "service"])
def test_valid_bodies_in_any_segmentation_are_answered(edge: Edge, through: str) -> None:
    port = edge.port if through == "proxy" else edge.service.port
    crlf = b'{"board": "X........"}\r\n'
    head = post("/v1/best-move", crlf)
    header_length = len(head) - len(crlf)
    chunked = (
        b"POST /v1/best-move HTTP/1.1\r\nHost: tictactoe\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n"
        + b"".join(b"1\r\n" + bytes([byte]) + b"\r\n" for byte in crlf)
        + b"0\r\n\r\n"
    )
    batch = post("/v1/best-move/batch", pretty_batch(800, 4))
    longest = post("/v1/best-move/batch", longest_batch(indent=8))
    cases = {
        "a CRLF body in a segment of its own": (head, [header_length]),
        "a body a byte at a time": (head, [header_length] + [1] * (len(crlf) - 1)),
        "1-byte chunks": (chunked, [len(chunked) // 2]),
        f"a {len(batch) // 1000} KB pretty-printed CRLF batch in 8 KiB pieces": (
            batch,
            [8192] * (len(batch) // 8192),
        ),
        f"the longest valid request ({len(longest) // 1000} KB) in 8 KiB pieces": (
            longest,
            [8192] * (len(longest) // 8192),
        ),
    }
    answered = 0
    for name, (request, pieces) in cases.items():
        tries = 5 if len(request) > 100_000 else 1
        statuses = [
            segmented(request, pieces, port, 0.001 if len(pieces) > 20 else 0.05) for _ in range(tries)
        ]
        assert statuses == [200] * tries, (name, statuses)
        answered += tries
    counts[f"valid requests in odd segmentations, {through}: answered 200"] = answered


# --- headers ------------------------------------------------------------------------------------------


def test_endless_headers_are_cut_off_within_their_buffers(edge: Edge) -> None:
    sent = 0
    with connect(edge.port, attacker(1)) as sock:
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: tictactoe\r\n")
        line = b"X-Filler: " + b"a" * 1012 + b"\r\n"
        try:
            while sent < 20 * 1024 * 1024:
                sock.sendall(line * 16)
                sent += len(line) * 16
                try:
                    if sock.recv(4096, socket.MSG_DONTWAIT) is not None:
                        break  # answered or closed: the proxy stopped reading the headers
                except BlockingIOError:
                    continue
        except OSError:
            pass
    counts["endless headers: bytes taken before the proxy stopped (KiB)"] = sent // 1024
    assert sent < 1024 * 1024
    assert status(exchange(edge.port, PLAIN)) == 200


def test_one_oversized_header_gets_431_and_a_long_line_414(edge: Edge) -> None:
    answer = exchange(
        edge.port, b"GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + b"b" * 40_000 + b"\r\n\r\n", attacker(2)
    )
    assert status(answer) == 431 and problem(answer)["status"] == 431
    answer = exchange(
        edge.port, b"GET /health?" + b"q" * 40_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", attacker(2)
    )
    assert status(answer) == 414 and problem(answer)["status"] == 414


async def slow_header(port: int, source: str) -> tuple[bool, float]:
    """A request whose headers never end, a byte now and then: whether the proxy dropped it (rather
    than the client giving up after :data:`GIVE_UP` seconds), and after how long."""
    started = time.monotonic()
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    writer.write(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ")
    dropped = False
    try:
        while time.monotonic() - started < GIVE_UP:
            writer.write(b"s")
            await writer.drain()
            try:
                await asyncio.wait_for(reader.read(1), timeout=0.5)
            except TimeoutError:
                continue
            dropped = True  # an answer (408) began, or the connection ended
            break
    except ConnectionError:
        dropped = True
    writer.close()
    return dropped, time.monotonic() - started


def test_slow_headers_are_dropped_while_others_are_served(edge: Edge) -> None:
    async def attack() -> tuple[list[tuple[bool, float]], list[float]]:
        slow = asyncio.gather(*(slow_header(edge.port, attacker(3)) for _ in range(50)))
        normal = victim_latencies(edge.port, HEADER_TIMEOUT + 1)
        dropped, latencies = await asyncio.gather(slow, normal)
        return list(dropped), latencies

    dropped, latencies = asyncio.run(attack())
    counts["slowloris: last of 50 dropped after (ms)"] = round(max(seconds for _, seconds in dropped) * 1000)
    counts["slowloris: victim's p99 meanwhile (ms)"] = round(percentile(latencies, 0.99) * 1000)
    assert all(by_the_proxy for by_the_proxy, _ in dropped), dropped


def test_framing_is_strict(edge: Edge) -> None:
    """Smuggling variants and requests that are not HTTP/1.1: refused by the proxy, never passed on."""
    requests = {
        "Content-Length with Transfer-Encoding": (
            b"POST /v1/best-move HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            400,
        ),
        "two Content-Lengths": (
            b"POST /v1/best-move HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!",
            400,
        ),
        "an unknown transfer coding": (
            b"POST /v1/best-move HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: xchunked\r\n\r\n0\r\n\r\n",
            501,
        ),
        "a folded header line": (b"GET /health HTTP/1.1\r\nHost: a\r\nX-A: 1\r\n  folded\r\n\r\n", 400),
        "no Host": (b"GET /health HTTP/1.1\r\n\r\n", 400),
        "two Hosts": (b"GET /health HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
        "HTTP/2.0 in an HTTP/1 request line": (b"GET /health HTTP/2.0\r\nHost: a\r\n\r\n", 505),
    }
    for name, (request, expected) in requests.items():
        answer = exchange(edge.port, request, attacker(4))
        assert status(answer) == expected, (name, answer[:200])
        assert problem(answer)["status"] == expected, name
    # HTTP/0.9 has no status line: the refusal is a body alone, and nothing reaches the service.
    simple = exchange(edge.port, b"GET /health\r\n", attacker(4))
    assert b'"status":"ok"' not in simple
    assert seen_by_the_service(edge, attacker(4)) == 0, "a refused request reached the service"
    counts["smuggling and framing variants refused by the proxy"] = len(requests) + 1


def header_value(answer: bytes, name: bytes) -> bytes:
    head = answer.partition(b"\r\n\r\n")[0]
    (value,) = [
        line.split(b":", 1)[1].strip() for line in head.split(b"\r\n") if line.lower().startswith(name + b":")
    ]
    return value


def test_control_bytes_in_headers_and_raw_bytes_in_the_path_are_refused_as_problems(edge: Edge) -> None:
    """What uvicorn would refuse with a plain-text 400, the proxy refuses first as problem+json,
    with a request id and a line in its access log; nothing of it reaches the service."""
    refused = {
        f"{name} with {byte!r}": get("/v1/best-move?board=X........", f"{name}: a{byte}b")
        for name in ("User-Agent", "Content-Type", "If-None-Match", "Origin", "Cookie", "Mcp-Session-Id")
        for byte in ("\x01", "\x1b", "\x7f")
    } | {
        "UTF-8 in the path": b"GET /v1/positions/X\xc3\xa9....... HTTP/1.1\r\nHost: a\r\n\r\n",
        "a raw byte in the query": b"GET /v1/best-move?board=X........&x=\xff HTTP/1.1\r\nHost: a\r\n\r\n",
        "a raw byte in a POST's path": post("/v1/best-move/\x80", b'{"board": "X........"}'),
        "a control byte in a POST's Content-Type": post("/v1/analysis", b"{}").replace(
            b"application/json", b"application/\x01json"
        ),
    }
    for name, request in refused.items():
        answer = exchange(edge.port, request, attacker(35))
        assert status(answer) == 400, (name, answer[:300])
        assert "percent-encode" in str(problem(answer)["detail"]), name
        request_id = header_value(answer, b"x-request-id").decode()
        (line,) = [
            line for line in proxy_access_log(edge.proxy, request_id) if line["request_id"] == request_id
        ]
        assert line["status"] == 400 and line["upstream"] == "", (name, line)
    assert seen_by_the_service(edge, attacker(35)) == 0
    # The client's X-Request-ID is never passed on unless it is a clean token: it gets a new one.
    answer = exchange(edge.port, get("/v1/best-move?board=X........", "X-Request-ID: a\x01b"), attacker(36))
    assert status(answer) == 200 and b"\x01" not in header_value(answer, b"x-request-id")
    # A header the proxy does not look at reaches uvicorn, which refuses it (deploy/README.md).
    answer = exchange(edge.port, get("/health", "X-Anything: a\x01b"), attacker(36))
    assert status(answer) == 400
    counts["control and raw bytes refused by the proxy as problems"] = len(refused)


# --- bodies -----------------------------------------------------------------------------------------


def test_a_stalled_body_is_dropped_after_the_body_deadline(edge: Edge) -> None:
    """nginx ends a request whose body stops coming by resetting its connection (it sends no 408).

    It does so after its body deadline (not before), and before the client gives up.
    """
    with connect(edge.port, attacker(5), GIVE_UP) as sock:
        started = time.monotonic()
        sock.sendall(post("/v1/best-move", b"{" + b" " * 99)[:-50])
        answer, closed = b"", False
        try:
            while chunk := sock.recv(65536):
                answer += chunk
            closed = True
        except ConnectionResetError:
            closed = True
        except TimeoutError:
            pass
        took = time.monotonic() - started
    counts["stalled body: dropped after (ms)"] = round(took * 1000)
    assert closed and answer == b"", answer[:200]
    assert took > BODY_TIMEOUT - 0.5  # nginx's clock of the deadline starts after this one
    assert seen_by_the_service(edge, attacker(5)) == 0


async def stalled_upload(port: int, source: str) -> bytes:
    """Headers for a 1 MiB body, a little of it, then nothing: the answer, if one comes."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    try:
        writer.write(post("/v1/best-move", b" " * (1024 * 1024 - 1))[:400])
        await writer.drain()
        return await asyncio.wait_for(reader.read(200), timeout=BODY_TIMEOUT + 5)
    except (ConnectionError, TimeoutError):
        return b""
    finally:
        writer.close()


def test_stalled_uploads_hold_no_budget_of_other_clients(edge: Edge) -> None:
    before = rss_kib(edge.service.process.pid)

    async def attack() -> tuple[list[bytes], list[float]]:
        uploads = asyncio.gather(*(stalled_upload(edge.port, attacker(6)) for _ in range(65)))
        await asyncio.sleep(0.5)
        victim = victim_latencies(edge.port, 2)
        answers, latencies = await asyncio.gather(uploads, victim)
        return list(answers), latencies

    answers, latencies = asyncio.run(attack())
    statuses = sorted({status(answer) for answer in answers})
    counts["65 stalled uploads: the victim's requests answered 200"] = len(latencies)
    counts["65 stalled uploads: service RSS growth (KiB)"] = rss_kib(edge.service.process.pid) - before
    assert set(statuses) <= {0, 408, 429}, statuses  # timed out, or over the per-client connections


def test_the_proxys_own_errors_are_problems_a_script_of_any_origin_reads(edge: Edge) -> None:
    """Its 413, and its 404 for its own pages and for the metrics, which are each replica's."""
    origin = b"Origin: https://game.example"
    too_large = (
        b"POST /v1/best-move HTTP/1.1\r\nHost: a\r\n" + origin + b"\r\nContent-Length: 9999999\r\n\r\n"
    )
    internal = [get(path, origin.decode()) for path in ("/_problems/429.json", "/metrics")]
    for request, code in [(too_large, 413), (internal[0], 404), (internal[1], 404)]:
        answer = exchange(edge.port, request, attacker(8))
        assert status(answer) == code and problem(answer)["status"] == code, answer[:300]
        head = answer.partition(b"\r\n\r\n")[0].lower()
        assert b"\r\naccess-control-allow-origin: *" in head, head
        assert b"\r\naccess-control-expose-headers: retry-after, x-request-id" in head, head
        assert b"retry-after" not in head.replace(b"expose-headers: retry-after", b""), head


def test_a_huge_declared_chunk_gets_413_at_once(edge: Edge) -> None:
    request = (
        b"POST /v1/best-move HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n7fffffff\r\n{"
    )
    started = time.monotonic()
    answer = exchange(edge.port, request, attacker(7))
    counts["a chunk of 0x7fffffff bytes declared: refused after (ms)"] = round(
        (time.monotonic() - started) * 1000
    )
    # At once: the client sent a byte of the chunk and no more, and a request whose body stops
    # coming ends in a reset without an answer (test_a_stalled_body_is_dropped_after_the_body_deadline).
    assert status(answer) == 413 and problem(answer)["status"] == 413


def test_chunk_extensions_cost_the_service_nothing(edge: Edge) -> None:
    """Chunk extensions of 10 KB each: nginx skips them (it has no limit on them, see deploy/README.md);
    they never reach the service, whose other clients are answered meanwhile."""
    proxy_cpu = sum(cpu_seconds(pid) for pid in edge.proxy.workers())
    sent = 0

    async def attack() -> list[float]:
        nonlocal sent
        _, writer = await asyncio.open_connection("127.0.0.1", edge.port, local_addr=(attacker(8), 0))
        writer.write(
            b"POST /v1/best-move HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n"
        )
        chunk = b"1;" + b"e" * 10_000 + b"\r\n \r\n"

        async def flood() -> None:
            nonlocal sent
            deadline = time.monotonic() + 3
            try:
                while time.monotonic() < deadline:
                    writer.write(chunk * 10)
                    await asyncio.wait_for(writer.drain(), timeout=3)
                    sent += len(chunk) * 10
            except (ConnectionError, TimeoutError):
                pass

        _, latencies = await asyncio.gather(flood(), victim_latencies(edge.port, 3))
        writer.close()
        return latencies

    latencies = asyncio.run(attack())
    used = sum(cpu_seconds(pid) for pid in edge.proxy.workers()) - proxy_cpu
    counts["chunk extensions: MB the proxy read in 3 s"] = sent // 1_000_000
    counts["chunk extensions: proxy CPU per 100 MB (ms)"] = round(used / max(sent, 1) * 1e8 * 1000)
    counts["chunk extensions: victim's p99 meanwhile (ms)"] = round(percentile(latencies, 0.99) * 1000)
    assert sent > 0


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_an_early_413_reaches_every_upload(edge: Edge, tmp_path: Path) -> None:
    curl = require_tool("curl")
    body = tmp_path / "body.json"
    body.write_bytes(b"{" + b" " * (2 * 1024 * 1024) + b"}")
    seen = 0
    for _ in range(20):
        result = subprocess.run(
            [curl, "-s", "-o", os.devnull, "-w", "%{http_code}", "--interface", attacker(9)]
            + ["-H", "Content-Type: application/json", "-H", "Expect:", "--data-binary", f"@{body}"]
            + [f"{edge.proxy.url}/v1/best-move"],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
        seen += result.stdout == "413"
    counts["early 413 without Expect: uploads that saw it (of 20)"] = seen
    assert seen == 20


def test_aborted_uploads_never_reach_the_service(edge: Edge) -> None:
    for _ in range(100):
        with connect(edge.port, attacker(10), 5) as sock:
            sock.sendall(post("/v1/best-move", b"{" + b" " * 99)[:-50])
    assert seen_by_the_service(edge, attacker(10)) == 0  # the proxy reads whole bodies first
    assert status(exchange(edge.port, PLAIN)) == 200


# --- connections and pipelining ---------------------------------------------------------------------


def test_pipelined_requests_never_read_cost_bounded_memory(edge: Edge) -> None:
    """A client pipelines 10 MB of requests and never reads the answers: the service's memory stays
    bounded, and another client is answered throughout (how fast is a figure, not a condition)."""
    before = rss_kib(edge.service.process.pid)
    idle = asyncio.run(victim_latencies(edge.port, 2))
    sent = 0

    async def attack() -> list[float]:
        nonlocal sent
        _, writer = await asyncio.open_connection("127.0.0.1", edge.port, local_addr=(attacker(11), 0))
        sock = writer.get_extra_info("socket")
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)

        async def pipeline() -> None:
            nonlocal sent
            try:
                while sent < 10_000_000:
                    writer.write(PLAIN * 100)
                    await asyncio.wait_for(writer.drain(), timeout=SEND_TIMEOUT + 2)
                    sent += len(PLAIN) * 100
            except (ConnectionError, TimeoutError):
                pass

        _, latencies = await asyncio.gather(pipeline(), victim_latencies(edge.port, SEND_TIMEOUT + 2))
        writer.close()
        return latencies

    loaded = asyncio.run(attack())
    growth = rss_kib(edge.service.process.pid) - before
    counts["pipelining never read: MB the edge took"] = sent // 1_000_000
    counts["pipelining never read: service RSS growth (KiB)"] = growth
    counts["pipelining never read: victim's p99 idle (ms)"] = round(percentile(idle, 0.99) * 1000)
    counts["pipelining never read: victim's p99 meanwhile (ms)"] = round(percentile(loaded, 0.99) * 1000)
    assert growth <= 10 * 1024


FLOOD = """
import socket, sys, time
port, source, count, seconds = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
held = []
for _ in range(count):
    try:
        sock = socket.socket()
        # the port is chosen at connect, not at bind: a bind to port 0 searches every bound port
        sock.setsockopt(socket.IPPROTO_IP, socket.IP_BIND_ADDRESS_NO_PORT, 1)
        sock.bind((source, 0))
        sock.connect(("127.0.0.1", port))
        held.append(sock)
    except OSError:
        break
print(len(held), flush=True)
time.sleep(seconds)
"""


def test_an_idle_connection_flood_leaves_other_clients_served() -> None:
    """20,000 connections that send nothing, from one address: another client is still answered."""
    with (
        running(env=SERVICE) as service,
        # The victim's rate (some 80 a second, SHORT) stays within the proxy's: this is about connections.
        proxied(
            [f"127.0.0.1:{service.port}"], {"PROXY_CACHE": "off", "PROXY_RATE": SHORT["PROXY_RATE"]}
        ) as proxy,
    ):
        floods = [
            subprocess.Popen(
                [sys.executable, "-c", FLOOD, str(proxy.port), attacker(12), "5000", "8"],
                stdout=subprocess.PIPE,
                text=True,
            )
            for _ in range(4)
        ]
        try:
            time.sleep(4)
            latencies = asyncio.run(victim_latencies(proxy.port, 3))
            nginx = sum(rss_kib(pid) for pid in proxy.workers())
        finally:
            opened = [int((flood.communicate(timeout=60)[0] or "0").split()[0]) for flood in floods]
    counts["idle flood: connections opened"] = sum(opened)
    counts["idle flood: victim's requests answered 200"] = len(latencies)
    counts["idle flood: victim's p99 (ms)"] = round(percentile(latencies, 0.99) * 1000)
    counts["idle flood: proxy RSS (MiB)"] = nginx // 1024
    assert sum(opened) == 20_000


def test_a_burst_beyond_the_rate_gets_429_with_retry_after(edge: Edge) -> None:
    answers = []
    with connect(edge.port, attacker(13)) as sock:
        for _ in range(300):
            sock.sendall(PLAIN)
            answers.append(read_answer(sock))
    limited = [answer for answer in answers if status(answer) == 429]
    counts["burst of 300 from one client: answered 429"] = len(limited)
    assert limited and set(map(status, answers)) == {200, 429}
    assert b"retry-after: 1" in limited[0].lower()
    assert problem(limited[0])["status"] == 429
    assert status(exchange(edge.port, PLAIN)) == 200  # other clients are not limited by it


def test_mcp_has_the_stricter_rate_and_its_own_body_limit_at_the_proxy(edge: Edge) -> None:
    """``/mcp`` gets the costly operations' rate (5 a second, a burst of 10, by default), and a body
    past its 16 KiB limit is refused by the proxy itself, as problem+json, before the service reads it."""
    listing = post(
        "/mcp",
        b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}',
        b"Accept: application/json, text/event-stream",
    )
    answers = []
    with connect(edge.port, attacker(40)) as sock:
        for _ in range(30):
            sock.sendall(listing)
            answers.append(read_answer(sock))
    statuses = [status(answer) for answer in answers]
    # The first and a burst of 10 pass at once; the general class (a burst of 100) would pass all 30.
    assert statuses[:11] == [200] * 11 and set(statuses) == {200, 429}, statuses
    too_large = exchange(edge.port, post("/mcp", b" " * (16 * 1024 + 1)), attacker(41))
    assert status(too_large) == 413 and problem(too_large)["status"] == 413
    assert seen_by_the_service(edge, attacker(41)) == 0, "a refused request reached the service"


def test_clients_that_never_read_are_dropped_after_the_send_deadline(edge: Edge) -> None:
    before = rss_kib(edge.service.process.pid)
    batch = post("/v1/best-move/batch", json.dumps({"items": [{"board": "X........"}] * 1000}).encode())
    sockets = []
    for number in range(10):
        sock = connect(edge.port, attacker(14 + number))
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.settimeout(SEND_TIMEOUT + 10)
        sock.sendall(batch * 4)  # about 1.2 MB of answers, never read
        sockets.append(sock)
    time.sleep(SEND_TIMEOUT + 2)
    closed = 0
    for sock in sockets:
        # What was sent before the deadline is read, then the end of the connection: a close or a
        # reset. A connection still open would instead send the rest, then time out here.
        sock.settimeout(10)
        try:
            while sock.recv(1 << 20):
                pass
            closed += 1
        except TimeoutError:
            pass
        except OSError:  # reset: nginx resets a connection that timed out
            closed += 1
        sock.close()
    counts["10 clients that never read: service RSS growth (KiB)"] = (
        rss_kib(edge.service.process.pid) - before
    )
    assert closed == 10
    assert rss_kib(edge.service.process.pid) - before <= 10 * 1024


# --- what the service itself refuses, through the proxy ----------------------------------------------


def test_repeated_query_parameters_are_refused_quickly(edge: Edge) -> None:
    for size, expected in [(64 * 1024, 414), (7 * 1024, 422)]:
        query = "&".join(["ab="] * (size // 4))
        started = time.monotonic()
        answer = exchange(
            edge.port, f"GET /v1/best-move?board=X........&{query} HTTP/1.1\r\nHost: x\r\n\r\n".encode()
        )
        counts[f"{size // 1024} KiB of repeated query parameters: answered in (ms)"] = round(
            (time.monotonic() - started) * 1000
        )
        assert status(answer) == expected and len(answer) < 8192, answer[:200]


def test_odd_methods_leave_few_metric_labels(edge: Edge) -> None:
    """Methods the service does not serve: refused by the proxy as problems, or by the service with Allow."""
    methods = ["PROPFIND", "MKCOL", "COPY", "MOVE", "LOCK", "UNLOCK", "PROPPATCH", "REPORT", "SEARCH", "BIND"]
    methods += ["FOO", "BREW", "TRACE", "PUT", "DELETE"]
    codes = set()
    for method in methods * 2:
        answer = exchange(edge.port, f"{method} /v1/best-move HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        codes.add(status(answer))
        assert problem(answer)["status"] == status(answer), (method, answer[:300])
        if status(answer) == 405:
            assert b"\r\nallow: get, head, post" in answer.lower(), answer[:300]
    assert codes == {405, 501}, codes
    text = httpx.get(f"{edge.service.url}/metrics").text
    labels = {part.split('"')[1] for part in text.split("method=")[1:]}
    counts["distinct method labels after 30 odd methods"] = len(labels)
    assert len(labels) <= 10, labels
    assert 'status="500"' not in text


# --- who sent it ------------------------------------------------------------------------------------


def test_forged_forwarded_for_is_logged_as_the_real_address(edge: Edge) -> None:
    forged = b"X-Forwarded-For: 203.0.113.7\r\nX-Real-IP: 203.0.113.8\r\nX-Request-ID: forged-1\r\n"
    request = b"GET /v1/best-move?board=X........ HTTP/1.1\r\nHost: x\r\n" + forged + b"\r\n"
    assert status(exchange(edge.port, request, attacker(30))) == 200
    direct = request.replace(b"forged-1", b"forged-2")
    assert status(exchange(edge.service.port, direct, attacker(31))) == 200
    proxy_lines = proxy_access_log(edge.proxy, "forged-1")
    (proxy_line,) = [line for line in proxy_lines if line["request_id"] == "forged-1"]
    service_lines = {line["request_id"]: line for line in service_access_log(edge.service)}
    assert proxy_line["client"] == attacker(30)
    assert service_lines["forged-1"]["client"] == attacker(30)  # through the proxy: the real client
    assert service_lines["forged-2"]["client"] == attacker(31)  # directly: its own address, not the header


def test_the_proxy_and_the_service_log_one_request_id(edge: Edge) -> None:
    answer = exchange(edge.port, PLAIN, attacker(32))
    rid = next(
        line.split(b":", 1)[1].strip().decode()
        for line in answer.split(b"\r\n\r\n")[0].split(b"\r\n")
        if line.lower().startswith(b"x-request-id:")
    )
    proxy_ids = [line["request_id"] for line in proxy_access_log(edge.proxy, rid)]
    assert rid in proxy_ids
    assert rid in {line["request_id"] for line in service_access_log(edge.service)}
