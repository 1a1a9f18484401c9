"""Logging: one JSON object per line on standard error, through the standard library's logging.

Every record (the service's, uvicorn's, the MCP SDK's and the access log's) is formatted as one
line of JSON where it is logged (:class:`JSONFormatter`) and put in a bounded queue
(:class:`LineQueue`, a :class:`~logging.handlers.QueueHandler`); one
:class:`~logging.handlers.QueueListener` thread writes the lines to standard error, in order.
When the reader of standard error is slower than the service, the queue fills and the service
waits for room: a slow consumer slows the writer, and no line is lost. Only a line that waited
:data:`PATIENCE` seconds in vain is dropped; drops are counted (:attr:`LineQueue.dropped`) and
said in a warning line as soon as a line goes through again.

Text is written with ``ensure_ascii=False`` for legibility, except the line and paragraph
separators U+0085, U+2028 and U+2029, which are escaped so that no tool splits a line on them.
"""

from __future__ import annotations

import atexit
import json
import logging
import queue
import sys
import traceback
from datetime import UTC, datetime
from logging.handlers import QueueHandler, QueueListener
from typing import Any, TextIO

logger = logging.getLogger("service")
#: One line per answered request (:mod:`service.web.middleware.access`), at level info.
access = logging.getLogger("service.access")

#: Lines waiting to be written, at most.
QUEUED = 10_000
#: Seconds a line waits for room in the queue before it is dropped.
PATIENCE = 5.0

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
    return json.dumps(value, default=str, ensure_ascii=False, separators=(",", ":")).translate(_SEPARATORS)


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


class StandardError(logging.StreamHandler[TextIO]):
    """Writes each line to standard error as it is at that moment (a test runner may replace it)."""

    def __init__(self) -> None:
        super().__init__(sys.stderr)
        self.setFormatter(logging.Formatter("%(message)s"))  # the line, formatted when it was logged

    def emit(self, record: logging.LogRecord) -> None:
        self.setStream(sys.stderr)
        super().emit(record)


class LineQueue(QueueHandler):
    """Formats each record as a JSON line and queues it for the thread that writes the lines to
    standard error (:attr:`writer`); see the module's docstring."""

    def __init__(self) -> None:
        self.lines: queue.Queue[logging.LogRecord] = queue.Queue(QUEUED)
        super().__init__(self.lines)
        self.setFormatter(JSONFormatter())
        self.writer = QueueListener(self.lines, StandardError())
        self.writing = False
        #: Lines dropped since the start, for want of room in the queue; those not yet said.
        self.dropped = self.unsaid = 0

    def enqueue(self, record: logging.LogRecord) -> None:
        try:
            self.lines.put(record, timeout=PATIENCE)
        except queue.Full:
            self.dropped += 1
            self.unsaid += 1
            return
        if self.unsaid:
            said, self.unsaid = self.unsaid, 0
            logger.warning("%d log lines were dropped: standard error was not read for %g s", said, PATIENCE)

    def start(self) -> None:
        """Start writing the queued lines, if not yet."""
        if not self.writing:
            self.writer.start()
            self.writing = True

    def stop(self) -> None:
        """Write every line queued so far, wait until it is written, and stop writing."""
        if self.writing:
            self.writer.stop()  # writes what is queued, then ends the thread
            self.writing = False

    def drain(self) -> None:
        """Write every line queued so far, and wait until it is written."""
        self.stop()
        self.start()


#: The one handler of every logger the service configures.
handler = LineQueue()
atexit.register(handler.stop)


def the_handler() -> LineQueue:
    """:data:`handler`, for a logging configuration that names it (:func:`config`)."""
    return handler


def config(level: str) -> dict[str, Any]:
    """A :func:`logging.config.dictConfig` for the service and uvicorn (also given to uvicorn)."""
    handler.start()
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "handlers": {"json": {"()": "service.logs.the_handler"}},
        "loggers": {
            "service": {"handlers": ["json"], "level": level.upper(), "propagate": False},
            "uvicorn": {"handlers": ["json"], "level": level.upper(), "propagate": False},
            "uvicorn.error": {"level": level.upper()},
            "uvicorn.access": {"handlers": [], "level": "WARNING", "propagate": False},
        },
    }


def configure(level: str, name: str = "service") -> None:
    """Send the records of logger ``name`` to standard error as JSON lines, at ``level``."""
    handler.start()
    named = logging.getLogger(name)
    if handler not in named.handlers:
        named.addHandler(handler)
        named.propagate = False
    named.setLevel(level.upper())
