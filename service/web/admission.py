"""Admission control for costly requests, per worker process.

What a request costs grows with its body: a plain best move is a table lookup
of a body under a hundred bytes, while a batch of 1,000 items in their longest
form takes a hundred milliseconds or more to parse, validate and answer. A
request is *costly* when its body is larger than :data:`COSTLY_BODY` bytes, or
of unknown length (chunked). At most ``limit`` costly requests are in progress
in a worker at once; one more is answered ``503`` at once, with
``Retry-After``, before its body is read, so that a queue of them never builds
up in front of the cheap requests. The proxy in front sends a request that got
``503`` to another replica (``proxy_next_upstream http_503``). Work on a large request is done in pieces,
between which :class:`Turns` lets the event loop serve the others.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any
from weakref import WeakKeyDictionary

from starlette.types import ASGIApp, Receive, Scope, Send

from .headers import header
from .problems import UNAVAILABLE, problem

#: Bodies larger than this make a request costly: some 40 best-move requests in a batch.
COSTLY_BODY = 8 * 1024
#: Seconds a client refused for want of room is told to wait.
RETRY_AFTER = 1
#: The longest a large request holds the event loop before it lets other requests have a turn.
TURN_SECONDS = 0.001


class Turns:
    """The event loop's turns for one request's long work, done in pieces: :meth:`take` between two.

    A request is served by one task, and its turns are counted across the stages of its work
    (reading the body, validating it, answering): :func:`turns` gives the same clock to each.
    """

    def __init__(self) -> None:
        self._last = time.perf_counter()

    def due(self) -> bool:
        """Whether :data:`TURN_SECONDS` have passed since other requests last could run."""
        return time.perf_counter() - self._last > TURN_SECONDS

    async def take(self) -> None:
        """Let other requests run, if :meth:`due`."""
        if self.due():
            await give_way()
            self._last = time.perf_counter()


async def give_way() -> None:
    """Let the requests that are ready, and those whose bytes have arrived, run before this task goes on.

    One ``sleep(0)`` puts the task at the end of the loop's queue, and the loop then reads the
    sockets; a request whose bytes it reads there is queued behind the task, so without a second
    ``sleep(0)`` it would wait for one more piece of the long work before it began.
    """
    await asyncio.sleep(0)
    await asyncio.sleep(0)


#: The turns of each task that took some; uvicorn serves each request in a task of its own.
_turns: WeakKeyDictionary[asyncio.Task[Any], Turns] = WeakKeyDictionary()


def turns() -> Turns:
    """The turns of the request in progress (its task's), counted from the first call."""
    task = asyncio.current_task()
    assert task is not None, "turns are taken by a task"
    found = _turns.get(task)
    if found is None:
        found = _turns[task] = Turns()
    return found


def costly(scope: Scope) -> bool:
    """Whether a request brings a body over :data:`COSTLY_BODY` bytes, or one of unknown length."""
    if scope["method"] not in ("POST", "PUT", "PATCH"):
        return False
    length = header(scope["headers"], b"content-length")
    if length is None:
        return header(scope["headers"], b"transfer-encoding") is not None
    return not (length.isascii() and length.isdigit()) or int(length) > COSTLY_BODY


class AdmissionMiddleware:
    """At most ``limit`` costly requests in progress at once; see the module's docstring."""

    def __init__(self, app: ASGIApp, *, limit: int) -> None:
        self.app = app
        self.limit = limit
        self.in_progress = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not costly(scope):
            await self.app(scope, receive, send)
            return
        if self.in_progress >= self.limit:
            response = problem(
                UNAVAILABLE,
                f"this worker is answering as many large requests as it takes at once ({self.limit}); "
                f"retry in {RETRY_AFTER} s",
                scope["path"],
                headers={"Retry-After": str(RETRY_AFTER)},
            )
            await response(scope, receive, send)
            return
        self.in_progress += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.in_progress -= 1
