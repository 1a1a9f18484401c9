"""Logging: one JSON object per line on standard error, never blocking the event loop.

Every line, the service's and uvicorn's records and the access log alike, is
formatted where it happens and handed to :data:`writer`, which writes what
has gathered every 50 ms in one go. In the service, standard error is written
through an asyncio pipe transport (non-blocking: when the reader is slow, lines
wait in a bounded buffer instead of stalling requests). A writer thread would
cost more than it saves: each time it wakes it takes the interpreter lock
from the event loop. The access log (:class:`AccessLog`) skips the
:mod:`logging` machinery, which would cost more than answering most requests,
and formats its line directly.

Text is written with ``ensure_ascii=False`` for legibility, except the line
and paragraph separators U+0085, U+2028 and U+2029, which are escaped so that
no tool splits a line on them.
"""

from __future__ import annotations

import asyncio
import atexit
import json
import logging
import os
import re
import stat
import sys
import threading
import time
import traceback
from collections.abc import Mapping
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any, TextIO

logger = logging.getLogger("service")

#: Attributes every log record has; anything else was passed in ``extra`` and is logged as a field.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {
    "message",
    "asctime",
    "taskName",
    "color_message",
}
_SEPARATORS = str.maketrans({"\u0085": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"})
#: A character that a JSON string cannot hold as it is (or that is escaped here for legibility).
_NEEDS_ESCAPE = re.compile(r"[^ !#-\[\]-~]")


def dumps(value: object) -> str:
    """JSON on one line: UTF-8 text as it is, but the Unicode line separators escaped."""
    return json.dumps(value, default=str, ensure_ascii=False, separators=(",", ":")).translate(_SEPARATORS)


def quoted(text: str) -> str:
    """``text`` as a JSON string: printable ASCII without quotes or backslashes goes as it is."""
    return f'"{text}"' if _NEEDS_ESCAPE.search(text) is None else dumps(text)


class _Writer:
    """Writes log lines to standard error in batches, in the order they came.

    In a running event loop a batch is written ``interval`` seconds after its first line,
    through the loop's pipe transport once :meth:`start` has made one; elsewhere (start-up,
    shutdown, other threads) lines are written at once. Lines beyond ``limit`` bytes waiting
    for a slow reader are dropped, and counted in :attr:`dropped`.
    """

    def __init__(self, interval: float = 0.05, limit: int = 4 * 1024 * 1024) -> None:
        self.interval = interval
        self.limit = limit
        self.stream: TextIO | None = None  # None: sys.stderr as it is when a batch is written
        self.dropped = 0
        self._lines: list[str] = []
        self._scheduled = False
        self._transport: asyncio.WriteTransport | None = None
        self._lock = threading.Lock()

    async def start(self) -> None:
        """Write through a non-blocking transport on this loop when standard error is a pipe.

        Only a pipe or a socket (as under a container runtime or a supervisor): a terminal or a
        file takes a write without waiting on a reader, and uvloop refuses regular files.
        """
        if self._transport is not None or self.stream is not None:
            return
        try:
            mode = os.fstat(sys.stderr.fileno()).st_mode
        except (AttributeError, OSError, ValueError):  # no real standard error (captured, closed)
            return
        if not (stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)):
            return
        pipe = os.fdopen(os.dup(sys.stderr.fileno()), "wb", buffering=0)
        try:
            self._transport, _ = await asyncio.get_running_loop().connect_write_pipe(asyncio.Protocol, pipe)
        except (OSError, ValueError):
            pipe.close()

    def stop(self) -> None:
        """Write what is left and close the transport."""
        self.flush()
        transport, self._transport = self._transport, None
        if transport is not None:
            transport.close()

    def put(self, line: str) -> None:
        with self._lock:
            self._lines.append(line)
            if self._scheduled:
                return
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                loop = None
            if loop is not None:
                self._scheduled = True
                loop.call_later(self.interval, self._write_batch)
                return
        self.flush()

    def _take(self) -> str:
        with self._lock:
            lines, self._lines = self._lines, []
            self._scheduled = False
        return "\n".join(lines) + "\n" if lines else ""

    def _write_batch(self) -> None:
        text = self._take()
        transport = self._transport
        if not text:
            return
        if transport is None or transport.is_closing():
            self._write(text)
        elif transport.get_write_buffer_size() > self.limit:
            self.dropped += text.count("\n")
        else:
            transport.write(text.encode())

    def flush(self) -> None:
        """Write every line so far, now."""
        text = self._take()
        if text:
            self._write(text)

    def _write(self, text: str) -> None:
        stream = self.stream or sys.stderr
        try:
            stream.write(text)
            stream.flush()
        except (OSError, ValueError):  # a closed stream: nothing left to tell
            pass


writer = _Writer()
atexit.register(writer.flush)


class JSONFormatter(logging.Formatter):
    """Format a record as one line of JSON: time, level, logger, message, extra fields, traceback."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in vars(record).items():
            if key not in _STANDARD and not key.startswith("_"):
                entry[key] = value
        if record.exc_info:
            entry["traceback"] = "".join(traceback.format_exception(*record.exc_info))
        return dumps(entry)


class JSONLineHandler(logging.Handler):
    """Hand each record, formatted as a JSON line, to the writer thread."""

    def __init__(self, level: int | str = logging.NOTSET) -> None:
        super().__init__(level)
        self.setFormatter(JSONFormatter())

    def emit(self, record: logging.LogRecord) -> None:
        try:
            writer.put(self.format(record))
        except Exception:  # a record that cannot be formatted must not break the request
            self.handleError(record)


def config(level: str) -> dict[str, Any]:
    """A :func:`logging.config.dictConfig` for the service and uvicorn (also given to uvicorn)."""
    handler = {"()": JSONLineHandler}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "handlers": {"json": handler},
        "loggers": {
            "service": {"handlers": ["json"], "level": level.upper(), "propagate": False},
            "uvicorn": {"handlers": ["json"], "level": level.upper(), "propagate": False},
            "uvicorn.error": {"level": level.upper()},
            "uvicorn.access": {"handlers": [], "level": "WARNING", "propagate": False},
        },
    }


def configure(level: str) -> None:
    """Send the service's log records to standard error as JSON at ``level``."""
    if not any(isinstance(handler, JSONLineHandler) for handler in logger.handlers):
        logger.addHandler(JSONLineHandler())
        logger.propagate = False
    logger.setLevel(level.upper())


class AccessLog:
    """One JSON line per answered request, logger ``service.access``, at level info.

    On when the service's log level is ``info`` or ``debug``. The fields:
    ``time``, ``level``, ``logger``, ``message``, ``request_id``, ``method``,
    ``path``, ``route``, ``status``, ``duration_ms`` and ``client`` (the peer's
    address). Only the path and the method come from the client unchecked,
    so only they go through the JSON encoder.
    """

    def __init__(self, level: str) -> None:
        self.enabled = logging.getLevelName(level.upper()) <= logging.INFO
        self._second = -1
        self._stamp = ""

    def line(
        self,
        scope: Mapping[str, Any],
        method: str,
        *,
        route: str,
        status: int,
        seconds: float,
        request_id: str,
        when: float,
    ) -> str:
        """The access log line of one request that ended at ``when`` (seconds since the epoch)."""
        second = int(when)
        if second != self._second:
            self._second = second
            self._stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))
        millis = int((when - second) * 1000)
        client = scope.get("client")
        peer = f'"{client[0]}"' if client else "null"
        before_id, before_path, after_path = _access_fields(method, route, status)
        return (
            f'{{"time":"{self._stamp}.{millis:03d}+00:00",{before_id}{request_id}{before_path}'
            f'{quoted(scope["path"])}{after_path}{seconds * 1000:.3f},"client":{peer}}}'
        )


@lru_cache(maxsize=1024)
def _access_fields(method: str, route: str, status: int) -> tuple[str, str, str]:
    """The fields of an access log line that follow from its method, route and status, as JSON: the
    text before the request id, between it and the path, and from the path to the duration."""
    message = quoted(f"{method} {route} {status}")
    return (
        f'"level":"info","logger":"service.access","message":{message},"request_id":"',
        f'","method":{quoted(method)},"path":',
        f',"route":"{route}","status":{status},"duration_ms":',
    )
