"""A fixed-rate, open-loop HTTP/1.1 load generator: the latency a client sees at a given rate.

Method. Request ``i`` is due at ``t0 + i / rate``, whatever became of the earlier
ones: the schedule is open loop, so a slow answer does not slow the sender down
(wrk is closed loop: each connection waits for its answer before it sends again,
and its ``delay()`` only adds a pause after each answer, so the rate it reaches
depends on the latency it measures). A due request goes out on an idle
keep-alive connection; when every connection is busy a new one is opened, up to
``max_connections``; past that the request queues for the first connection to
free up. Latency counts from when the request was *due*, not from when it was
sent, so time spent queueing behind a slow answer, or waiting for the generator
itself, is counted: no coordinated omission (the correction wrk2 makes).

Limits. The generator is one Python process on asyncio (uvloop when installed)
sharing the machine's cores with the server. Its timers fire up to about a
millisecond late, and it sends the requests that fell due meanwhile in a burst;
that lag is part of every latency it reports (``send_lag_p99_ms`` says how much),
so its figures err on the high side. It reads answers framed by
``Content-Length`` only (the service never sends chunked answers), never
pipelines, and can sustain a few thousand requests per second, not tens of
thousands: it is for moderate rates such as half the service's maximum.
"""

from __future__ import annotations

import asyncio
import gc
import re
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

_CONTENT_LENGTH = re.compile(rb"\r\ncontent-length:[ \t]*(\d+)", re.IGNORECASE)


@dataclass(frozen=True)
class OpenLoopResult:
    rate: float
    """The rate asked for, requests per second."""
    achieved: float
    """Answers per second over the run, from the first due time to the last answer."""
    requests: int
    errors: int
    p50_ms: float
    p99_ms: float
    max_ms: float
    sent_p99_ms: float
    """The 99th percentile counted from when each request was actually sent, as wrk counts."""
    send_lag_p99_ms: float
    """How late the generator sent its requests (the 99th percentile): its own share of the latency."""
    connections: int
    """Connections it had to open to keep to the schedule."""


def percentile(sorted_values: list[float], fraction: float) -> float:
    """The nearest-rank percentile of already sorted values."""
    if not sorted_values:
        return float("nan")
    index = min(len(sorted_values) - 1, max(0, round(fraction * len(sorted_values)) - 1))
    return sorted_values[index]


class _Connection(asyncio.Protocol):
    """One keep-alive connection with at most one request in flight."""

    def __init__(
        self, answered: Callable[[_Connection, int], None], lost: Callable[[_Connection], None]
    ) -> None:
        self.answered = answered
        self.lost = lost
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.expected = -1
        self.status = 0
        self.due = 0.0
        self.sent = 0.0
        self.busy = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's transports are not subclasses

    def send(self, request: bytes, due: float, now: float) -> None:
        assert self.transport is not None
        self.due = due
        self.sent = now
        self.busy = True
        self.transport.write(request)

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        while True:
            if self.expected < 0:
                end = self.buffer.find(b"\r\n\r\n")
                if end < 0:
                    return
                head = bytes(self.buffer[:end])
                self.status = int(head[9:12])
                length = _CONTENT_LENGTH.search(head)
                self.expected = end + 4 + (int(length.group(1)) if length else 0)
            if len(self.buffer) < self.expected:
                return
            del self.buffer[: self.expected]
            self.expected = -1
            self.busy = False
            self.answered(self, self.status)

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost(self)


class _Schedule:
    """One run: requests sent at fixed times over a pool of connections, answers timed from those times."""

    def __init__(self, port: int, requests: list[bytes], max_connections: int) -> None:
        self.loop = asyncio.get_running_loop()
        self.port = port
        self.requests = requests
        self.max_connections = max_connections
        self.idle: deque[_Connection] = deque()
        self.every: list[_Connection] = []
        self.opening: set[asyncio.Task[None]] = set()
        self.backlog: deque[tuple[int, float]] = deque()
        self.latencies: list[float] = []
        self.service_times: list[float] = []
        self.lags: list[float] = []
        self.errors = 0
        self.opened = 0
        self.most = 0
        self.outstanding = 0
        self.finished: asyncio.Future[None] = self.loop.create_future()

    def settle(self) -> None:
        self.outstanding -= 1
        if self.outstanding <= 0 and not self.finished.done():
            self.finished.set_result(None)

    def send(self, connection: _Connection, index: int, due: float) -> None:
        now = time.perf_counter()
        self.lags.append(now - due)
        connection.send(self.requests[index % len(self.requests)], due, now)

    def answered(self, connection: _Connection, status: int) -> None:
        now = time.perf_counter()
        self.latencies.append(now - connection.due)
        self.service_times.append(now - connection.sent)
        if not 200 <= status < 300:
            self.errors += 1
        if self.backlog:
            self.send(connection, *self.backlog.popleft())
        else:
            self.idle.append(connection)
        self.settle()

    def lost(self, connection: _Connection) -> None:
        self.opened -= 1
        if connection in self.idle:
            self.idle.remove(connection)
        if connection.busy:
            self.errors += 1
            self.settle()

    async def connect(self) -> _Connection:
        """A new connection; the caller has counted it in ``opened`` already."""
        try:
            _, connection = await self.loop.create_connection(
                lambda: _Connection(self.answered, self.lost), "127.0.0.1", self.port
            )
        except OSError:
            self.opened -= 1
            raise
        self.every.append(connection)
        return connection

    async def open_and_send(self, index: int, due: float) -> None:
        try:
            connection = await self.connect()
        except OSError:
            self.errors += 1
            self.settle()
            return
        self.send(connection, index, due)

    def dispatch(self, index: int, due: float) -> None:
        """Send request ``index`` now: on an idle connection, a new one, or the first to free up."""
        if self.idle:
            self.send(self.idle.popleft(), index, due)
        elif self.opened < self.max_connections:
            self.opened += 1
            self.most = max(self.most, self.opened)
            task = self.loop.create_task(self.open_and_send(index, due))
            self.opening.add(task)
            task.add_done_callback(self.opening.discard)
        else:
            self.backlog.append((index, due))

    async def run(self, rate: float, seconds: float, connections: int) -> OpenLoopResult:
        total = self.outstanding = max(1, round(rate * seconds))
        self.opened = self.most = connections
        for _ in range(connections):
            self.idle.append(await self.connect())
        started = time.perf_counter() + 0.01
        for index in range(total):
            due = started + index / rate
            wait = due - time.perf_counter()
            if wait > 0:
                await asyncio.sleep(wait)
            self.dispatch(index, due)
        try:
            await asyncio.wait_for(asyncio.shield(self.finished), timeout=seconds + 30)
        except TimeoutError:
            self.errors += self.outstanding
        ended = time.perf_counter()
        for connection in self.every:
            if connection.transport is not None:
                connection.transport.close()
        latencies, lags = sorted(self.latencies), sorted(self.lags)
        return OpenLoopResult(
            rate=rate,
            achieved=len(latencies) / (ended - started) if ended > started else 0.0,
            requests=len(latencies),
            errors=self.errors,
            p50_ms=percentile(latencies, 0.5) * 1000,
            p99_ms=percentile(latencies, 0.99) * 1000,
            max_ms=latencies[-1] * 1000 if latencies else float("nan"),
            sent_p99_ms=percentile(sorted(self.service_times), 0.99) * 1000,
            send_lag_p99_ms=percentile(lags, 0.99) * 1000,
            connections=self.most,
        )


def fixed_rate(
    port: int, requests: list[bytes], rate: float, seconds: float, connections: int = 16
) -> OpenLoopResult:
    """Send ``rate × seconds`` requests to 127.0.0.1:``port`` on a fixed schedule, cycling ``requests``.

    Runs on a fresh event loop (uvloop's when it is installed, as under uvicorn), with the garbage
    collector paused: a full collection of this process's heap would stall the schedule.
    """
    try:
        import uvloop  # noqa: PLC0415 (optional)

        factory: Callable[[], asyncio.AbstractEventLoop] | None = uvloop.new_event_loop
    except ImportError:
        factory = None

    async def main() -> OpenLoopResult:
        return await _Schedule(port, requests, max_connections=256).run(rate, seconds, connections)

    gc.collect()
    gc.disable()
    try:
        with asyncio.Runner(loop_factory=factory) as runner:
            return runner.run(main())
    finally:
        gc.enable()
