"""A client that sends costly requests and, right behind each, cheap ones: for the fairness test.

Run as ``python -m tests.support.fairness URL WANTED TIMEOUT [PATH]`` from the repository, with the
body of the costly request on standard input. It sends ``POST PATH`` (``/v1/best-move/batch`` by
default) with that body on
a new connection, all of it but the last byte; once that is sent, it sends the last byte and,
with nothing run between the two, a cheap request (``GET /health`` and a plain best move in
turn) on a keep-alive connection of its own, then another cheap request as each is answered,
until the costly request's answer comes. It goes on until ``WANTED`` costly requests have been
taken in (answered other than ``503``), or ``TIMEOUT`` seconds have passed, pausing
:data:`PAUSE` seconds after each refusal; then it writes its :class:`Report` as one line of JSON.

The order of two answers is the order in which this process read them, in one event loop. That
is the order in which they arrived, even when the process was kept off the CPU meanwhile: the
kernel reports ready sockets in the order they became ready, and the loop serves them in that
order.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from urllib.parse import urlsplit

from tests.support.loadgen import Broken, read_answer

CHEAP_PATHS = ("/health", "/v1/best-move?board=X........")
#: The costly request sent by default.
BATCH = "/v1/best-move/batch"
#: Seconds a client waits after a refusal before it sends the next costly request.
PAUSE = 0.05

Connection = tuple[asyncio.StreamReader, asyncio.StreamWriter]


@dataclass
class Costly:
    """One costly request: when its sending began, when its last byte was sent, and when the first
    line of its answer came (``time.monotonic()``); its status (``0`` when the connection ended
    without an answer); and when each cheap request sent behind it was answered, in order."""

    sent: float
    whole: float
    answered: float
    status: int
    cheap_answered: list[float]


@dataclass
class Report:
    """What one client saw: the status of each costly request, counted; those taken in; and the
    status of each cheap request, counted."""

    statuses: Counter[int] = field(default_factory=Counter)
    admitted: list[Costly] = field(default_factory=list)
    cheap_statuses: Counter[int] = field(default_factory=Counter)


async def answer_of(reader: asyncio.StreamReader) -> tuple[int, float]:
    """The status of the answer on ``reader`` (``0`` if none came whole), and when its first line came.

    The service sends the first line of an answer with the rest, once it has done the work.
    """
    began = 0.0
    try:
        line = await reader.readline()
        began = time.monotonic()
        status = int(line.split()[1])
        length = 0
        while (header := await reader.readline()) not in (b"\r\n", b""):
            name, _, value = header.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        await reader.readexactly(length)
    except (ConnectionError, IndexError, ValueError, asyncio.IncompleteReadError):
        status = 0
    return status, began or time.monotonic()


async def cheap_until(
    answered: asyncio.Task[tuple[int, float]], cheap: Connection, report: Report
) -> list[float]:
    """Cheap requests on ``cheap``, one after another, until ``answered`` is done: when each was answered."""
    reader, writer = cheap
    times: list[float] = []
    while True:
        path = CHEAP_PATHS[len(times) % len(CHEAP_PATHS)]
        writer.write(f"GET {path} HTTP/1.1\r\nHost: tictactoe\r\n\r\n".encode())
        answer = await read_answer(reader)
        times.append(time.monotonic())
        if answer is None:
            raise Broken("the cheap requests' connection closed")
        report.cheap_statuses[answer.status] += 1
        if answered.done():
            return times


async def one_costly(url: str, path: str, body: bytes, cheap: Connection, report: Report) -> Costly:
    """Send one costly request to ``path`` with ``body``, then cheap requests on ``cheap`` until it is
    answered."""
    parts = urlsplit(url)
    reader, writer = await asyncio.open_connection(parts.hostname, parts.port)
    writer.transport.set_write_buffer_limits(high=0)  # drain() returns once every byte is sent
    request = (
        f"POST {path} HTTP/1.1\r\nHost: tictactoe\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    ).encode() + body
    try:
        sent = time.monotonic()
        writer.write(request[:-1])
        try:
            await writer.drain()
        except ConnectionError:  # refused (503) before its body was read, and the connection closed
            status, began = await answer_of(reader)
            return Costly(sent, time.monotonic(), began, status, [])
        # The last byte, and at once the first cheap request: nothing runs between the two.
        writer.write(request[-1:])
        whole = time.monotonic()
        answered = asyncio.create_task(answer_of(reader))
        cheap_answered = await cheap_until(answered, cheap, report)
        status, began = await answered
        return Costly(sent, whole, began, status, cheap_answered)
    finally:
        writer.close()


async def main(url: str, wanted: int, timeout: float, body: bytes, path: str = BATCH) -> Report:
    """Costly requests to ``path`` with ``body`` until ``wanted`` are taken in, for ``timeout`` seconds
    at most."""
    report = Report()
    parts = urlsplit(url)
    cheap = await asyncio.open_connection(parts.hostname, parts.port)
    deadline = time.monotonic() + timeout
    try:
        while len(report.admitted) < wanted and time.monotonic() < deadline:
            costly = await asyncio.wait_for(
                one_costly(url, path, body, cheap, report), deadline - time.monotonic()
            )
            report.statuses[costly.status] += 1
            if costly.status in (0, 503):
                await asyncio.sleep(PAUSE)
            else:
                report.admitted.append(costly)
    finally:
        cheap[1].close()
    return report


if __name__ == "__main__":
    path = sys.argv[4] if len(sys.argv) > 4 else BATCH
    found = asyncio.run(
        main(sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.stdin.buffer.read(), path)
    )
    admitted = [asdict(costly) for costly in found.admitted]
    print(json.dumps({**vars(found), "admitted": admitted}))
