"""Attacks on the edge of a running deployment, bounded in count and time (standard library only).

    python3 scripts/attacks.py http://127.0.0.1:8080    # the proxy of deploy/proxy, with its defaults

Each attack asserts what the edge does and prints its figures; the exit status is the
number of attacks that failed. The container test runs it through the proxy image in
front of the service's replicas; tests/e2e/test_attacks.py covers more attacks, in more
depth, with the proxy's configuration run from the repository.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import socket
import sys
import threading
import time
from collections.abc import Callable
from urllib.parse import urlsplit

HEADER_TIMEOUT = 10.0  # the proxy's default


class Target:
    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or 80

    def connect(self, timeout: float = 10.0) -> socket.socket:
        return socket.create_connection((self.host, self.port), timeout=timeout)

    def exchange(self, request: bytes, timeout: float = 10.0) -> bytes:
        """Send ``request`` and read until the server closes or stops sending."""
        with self.connect(timeout) as sock:
            with contextlib.suppress(OSError):
                sock.sendall(request)
            return read_some(sock)


def read_some(sock: socket.socket, limit: int = 1 << 20) -> bytes:
    data = b""
    try:
        while len(data) < limit:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
            if b"\r\n\r\n" in data and _complete(data):
                break
    except OSError:
        pass
    return data


def _complete(data: bytes) -> bool:
    head, _, body = data.partition(b"\r\n\r\n")
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return len(body) >= int(value)
    return False


def status(answer: bytes) -> int:
    parts = answer.split(b" ", 2)
    return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0


def problem(answer: bytes) -> dict[str, object]:
    head, _, body = answer.partition(b"\r\n\r\n")
    assert b"application/problem+json" in head.lower(), head[:300]
    document: dict[str, object] = json.loads(body)
    return document


def get(path: str, *headers: str) -> bytes:
    lines = [f"GET {path} HTTP/1.1", "Host: 127.0.0.1", *headers, "", ""]
    return "\r\n".join(lines).encode()


# --- attacks ----------------------------------------------------------------------------------------


def endless_headers(target: Target) -> str:
    """5 connections sending header lines of 1 KiB, up to 20 MiB each: all cut off early."""
    taken: list[int] = []

    def one() -> None:
        sent = 0
        with target.connect() as sock, contextlib.suppress(OSError):
            sock.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            line = b"X-Filler: " + b"a" * 1012 + b"\r\n"
            while sent < 20 * 1024 * 1024:
                sock.sendall(line * 16)
                sent += len(line) * 16
                try:
                    if sock.recv(4096, socket.MSG_DONTWAIT) is not None:
                        break  # the server answered (or closed): it stopped reading headers
                except BlockingIOError:
                    continue
        taken.append(sent)

    threads = [threading.Thread(target=one) for _ in range(5)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert len(taken) == 5 and max(taken) < 4 * 1024 * 1024, taken
    return f"cut off after at most {max(taken) // 1024} KiB"


def slow_headers(target: Target) -> str:
    """20 connections that never finish their headers: all dropped within the header deadline.

    nginx drops them without an answer (it sends no 408 for a request that timed out)."""
    dropped: list[float] = []

    def one() -> None:
        started = time.monotonic()
        with target.connect() as sock:
            sock.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            sock.settimeout(0.5)
            while time.monotonic() - started < HEADER_TIMEOUT + 10:
                try:
                    sock.sendall(b"s")  # a byte now and then, as slowloris does
                    sock.recv(4096)  # an answer (408) or the end of the connection
                    break
                except TimeoutError:
                    continue
                except OSError:
                    break
        dropped.append(time.monotonic() - started)

    threads = [threading.Thread(target=one) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(HEADER_TIMEOUT + 20)
    assert len(dropped) == 20 and max(dropped) < HEADER_TIMEOUT + 5, dropped
    return f"all dropped within {max(dropped):.1f} s"


def early_413(target: Target) -> str:
    """20 uploads of 2 MiB without Expect: 100-continue: every one sees the 413."""
    body = b" " * (2 * 1024 * 1024)
    head = (
        "POST /v1/best-move HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode()
    seen = 0
    for _ in range(20):
        with target.connect() as sock:
            with contextlib.suppress(OSError):
                sock.sendall(head + body)
            seen += status(read_some(sock)) == 413
    assert seen == 20, seen
    return f"{seen}/20 saw 413"


def repeated_query(target: Target) -> str:
    """64 KiB of repeated query parameters: a 4xx at once, and a small one."""
    query = "&".join(["ab="] * (64 * 1024 // 4))
    started = time.monotonic()
    answer = target.exchange(get(f"/v1/best-move?board=X........&{query}"))
    took = time.monotonic() - started
    assert 400 <= status(answer) < 500 and len(answer) < 8192, answer[:200]
    problem(answer)
    return f"{status(answer)} in {took * 1000:.0f} ms"


def missing_host(target: Target) -> str:
    """HTTP/1.1 without Host, or with two: 400 as problem+json."""
    for request in [b"GET /health HTTP/1.1\r\n\r\n", b"GET /health HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"]:
        answer = target.exchange(request)
        assert status(answer) == 400, answer[:200]
        problem(answer)
    return "400 problem+json"


def odd_methods(target: Target) -> str:
    """Methods nobody serves: 405 with Allow (or 400), never a 5xx."""
    codes = set()
    for method in ["PROPFIND", "MKCOL", "LOCK", "BREW", "TRACE"]:
        answer = target.exchange(f"{method} /v1/best-move HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        codes.add(status(answer))
    assert codes <= {400, 405, 501}, codes
    return f"answered {sorted(codes)}"


def rate_limit(target: Target) -> str:
    """A burst from one client beyond the proxy's rate: 429 problem+json with Retry-After."""
    codes: list[int] = []
    answers: list[bytes] = []
    with target.connect() as sock:
        for _ in range(300):
            sock.sendall(get("/health"))
            answer = read_some(sock)
            codes.append(status(answer))
            answers.append(answer)
    limited = [answer for answer in answers if status(answer) == 429]
    assert limited, codes[-10:]
    assert b"retry-after:" in limited[0].lower(), limited[0][:300]
    problem(limited[0])
    return f"{len(limited)} of 300 answered 429"


def still_serving(target: Target) -> str:
    answer = target.exchange(get("/health", "Connection: close"))
    assert status(answer) in (200, 429), answer[:200]
    return f"GET /health: {status(answer)}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("url", help="the proxy, such as http://127.0.0.1:8080")
    args = parser.parse_args(argv)
    target = Target(args.url)
    attacks: list[Callable[[Target], str]] = [
        rate_limit,
        endless_headers,
        early_413,
        repeated_query,
        missing_host,
        odd_methods,
        slow_headers,
        still_serving,
    ]
    failures = 0
    for attack in attacks:
        try:
            print(f"PASS: {attack.__name__}: {attack(target)}")
        except Exception as error:  # every attack is reported, whatever it raised
            failures += 1
            print(f"FAIL: {attack.__name__}: {type(error).__name__}: {error}")
        time.sleep(1.2)  # let a per-client rate limit refill between attacks
    return failures


if __name__ == "__main__":
    sys.exit(main())
