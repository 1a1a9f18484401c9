"""Logging: one JSON object per line on standard error, written off the event loop.

Every line, the service's and uvicorn's records and the access log alike, is
formatted where it happens and handed to one writer thread, which writes what
has queued up in one go: the event loop never waits on a write. The access
log (:class:`AccessLog`) skips the :mod:`logging` machinery, which would cost
more than answering most requests, and formats its line directly.

Text is written with ``ensure_ascii=False`` for legibility, except the line
and paragraph separators U+0085, U+2028 and U+2029, which are escaped so that
no tool splits a line on them.
"""

from __future__ import annotations

import atexit
import json
import logging
import queue
import sys
import threading
import time
import traceback
from collections.abc import Mapping
from datetime import UTC, datetime
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


def dumps(value: object) -> str:
    """JSON on one line: UTF-8 text as it is, but the Unicode line separators escaped."""
    return json.dumps(value, default=str, ensure_ascii=False).translate(_SEPARATORS)


class _Writer:
    """The one thread that writes log lines to a stream, in batches, in the order they came."""

    def __init__(self) -> None:
        self._lines: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self.stream: TextIO | None = None  # None: sys.stderr as it is when a batch is written

    def put(self, line: str) -> None:
        if self._thread is None:
            self._start()
        self._lines.put(line)

    def _start(self) -> None:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="log-writer", daemon=True)
                self._thread.start()
                atexit.register(self.flush)

    def _run(self) -> None:
        while True:
            line = self._lines.get()
            batch: list[str] = []
            while line is not None:
                batch.append(line)
                try:
                    line = self._lines.get_nowait()
                except queue.Empty:
                    break
            if batch:
                stream = self.stream or sys.stderr
                try:
                    stream.write("\n".join(batch) + "\n")
                    stream.flush()
                except (OSError, ValueError):  # a closed stream: nothing left to tell
                    pass
            if line is None:
                return

    def flush(self) -> None:
        """Write every queued line, then stop the thread (it starts again on the next line)."""
        with self._lock:
            thread, self._thread = self._thread, None
        if thread is not None:
            self._lines.put(None)
            thread.join(timeout=5)


writer = _Writer()


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
        self, scope: Mapping[str, Any], *, route: str, status: int, seconds: float, request_id: str
    ) -> str:
        """The access log line of one request."""
        now = time.time()
        second = int(now)
        if second != self._second:
            self._second = second
            self._stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))
        millis = int((now - second) * 1000)
        client = scope.get("client")
        peer = f'"{client[0]}"' if client else "null"
        path = dumps(scope["path"])
        method = dumps(scope["method"])
        message = dumps(f"{scope['method']} {route} {status}")
        return (
            f'{{"time":"{self._stamp}.{millis:03d}+00:00","level":"info","logger":"service.access",'
            f'"message":{message},"request_id":"{request_id}",'
            f'"method":{method},"path":{path},"route":"{route}","status":{status},'
            f'"duration_ms":{round(seconds * 1000, 3)},"client":{peer}}}'
        )

    def write(
        self, scope: Mapping[str, Any], *, route: str, status: int, seconds: float, request_id: str
    ) -> None:
        writer.put(self.line(scope, route=route, status=status, seconds=seconds, request_id=request_id))
