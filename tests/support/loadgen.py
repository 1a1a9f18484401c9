"""A small HTTP/1.1 load generator over raw asyncio streams, for load and fault tests on 127.0.0.1.

Each connection sends its requests one after another over keep-alive; many
connections run at once. It is fast enough to keep a uvicorn worker busy
without needing a load tool installed, and it reports every answer in full.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass


@dataclass(frozen=True)
class Request:
    method: str
    path: str
    body: bytes = b""
    #: One more header line, ``Name: value``, or none.
    header: str = ""

    def encode(self, port: int) -> bytes:
        head = f"{self.method} {self.path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        if self.header:
            head += f"{self.header}\r\n"
        if self.body:
            head += f"Content-Type: application/json\r\nContent-Length: {len(self.body)}\r\n"
        return head.encode() + b"\r\n" + self.body

    @classmethod
    def post(cls, path: str, payload: object) -> Request:
        return cls("POST", path, json.dumps(payload).encode())


@dataclass(frozen=True)
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes


class Broken(Exception):
    """The connection ended inside an answer: a broken response."""


async def read_answer(reader: asyncio.StreamReader) -> Answer | None:
    """The next answer on the connection, ``None`` if it closed cleanly before one began."""
    line = await reader.readline()
    if not line:
        return None
    if not line.endswith(b"\r\n"):
        raise Broken(f"status line cut short: {line!r}")
    status = int(line.split()[1])
    headers: dict[str, str] = {}
    while True:
        line = await reader.readline()
        if not line.endswith(b"\r\n"):
            raise Broken("headers cut short")
        if line == b"\r\n":
            break
        name, _, value = line.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", "0"))
    try:
        body = await reader.readexactly(length)
    except asyncio.IncompleteReadError as error:
        raise Broken(f"body cut short: {len(error.partial)} of {length} bytes") from None
    return Answer(status, headers, body)


async def exchange(port: int, requests: list[Request]) -> list[Answer]:
    """Send ``requests`` one by one on one keep-alive connection; the answers in order."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    answers: list[Answer] = []
    try:
        for request in requests:
            writer.write(request.encode(port))
            answer = await read_answer(reader)
            if answer is None:
                raise Broken("the connection closed before an answer")
            answers.append(answer)
    finally:
        writer.close()
    return answers


async def load(
    port: int, requests: list[Request], connections: int, timeout: float
) -> list[tuple[Request, Answer]]:
    """Spread ``requests`` over ``connections`` concurrent connections; every request with its answer."""
    shares = [requests[i::connections] for i in range(connections)]
    results = await asyncio.wait_for(
        asyncio.gather(*(exchange(port, share) for share in shares if share)), timeout=timeout
    )
    return [
        pair
        for share, answers in zip(shares, results, strict=False)
        for pair in zip(share, answers, strict=True)
    ]


def rss_kib(pid: int) -> int:
    """Resident memory of a process, in KiB."""
    return resident_kib(pid)["VmRSS"]


def resident_kib(pid: int) -> dict[str, int]:
    """A process's resident memory in KiB, from ``/proc/PID/status``: ``VmRSS`` in all, and its parts,
    ``RssAnon`` (the process's own pages: its heap and stacks), ``RssFile`` (pages of files mapped,
    code and memory-mapped tables, which processes mapping the same file share) and ``RssShmem``."""
    found: dict[str, int] = {}
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            name, _, value = line.partition(":")
            if name in ("VmRSS", "RssAnon", "RssFile", "RssShmem"):
                found[name] = int(value.split()[0])
    if "VmRSS" not in found:
        raise RuntimeError(f"no VmRSS for process {pid}")
    return found
