"""Logging: one JSON object per line on standard error, through the standard library's logging.

Every record (the service's, uvicorn's, the MCP SDK's and the access log's) is formatted as one
line of JSON (:class:`JSONFormatter`) where it is logged, and put in a bounded queue by
:data:`handler` (:class:`LineQueue`, a :class:`~logging.handlers.QueueHandler`); one
:class:`~logging.handlers.QueueListener` thread writes the lines to standard error, in order.

The queue is bounded and a full queue makes the logging thread wait (the design, and why, is in
:class:`LineQueue`): a slow consumer of standard error slows the service instead of losing lines.
Only a consumer that takes no line at all for :data:`PATIENCE` seconds makes lines drop; each is
counted (``tictactoe_log_lines_dropped_total``, see :func:`count_drops`) and said in a warning
line as soon as lines go through again.

The writer thread starts with the first line of a process, the app's lifespan waits for every
line queued so far to be written when it ends (:func:`flush`), and at exit the thread writes what
is left and stops; after that (and in a process forked from one that logged) lines are written
at once by the logging thread.

Text is written with ``ensure_ascii=False`` for legibility, except the line and paragraph
separators U+0085, U+2028 and U+2029, which are escaped so that no tool splits a line on them.

A client can put any text in what is logged (a path, a name in an MCP call, a header): every text
of a line, its message and each field, is cut to :data:`MAX_TEXT` characters, followed by ``…``,
and the line gives the full length beside it (``message_length``, ``path_length``, …); a traceback
is cut line by line. A line is never longer than a few kilobytes, however large a request.
"""

from __future__ import annotations

import atexit
import json
import logging
import os
import queue
import sys
import traceback
from collections.abc import Callable
from datetime import UTC, datetime
from logging.handlers import QueueHandler, QueueListener
from typing import Any

logger = logging.getLogger("service")
#: One line per answered request (:mod:`service.web.middleware.access`), at level info.
access = logging.getLogger("service.access")

#: Lines waiting to be written, at most, per process (see :class:`LineQueue`).
QUEUED = 1000
#: Seconds a line waits for room in a full queue before it is dropped (see :class:`LineQueue`).
PATIENCE = 5.0

#: Attributes every log record has; anything else was passed in ``extra`` and is logged as a field.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {
    "message",
    "asctime",
    "taskName",
    "color_message",
}
_SEPARATORS = str.maketrans({"\u0085": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"})
#: The most characters of one text that a log line holds (see the module's docstring).
MAX_TEXT = 200
_ENCODER = json.JSONEncoder(default=str, ensure_ascii=False, separators=(",", ":"))


def dumps(value: object) -> str:
    """JSON on one line: UTF-8 text as it is, but the Unicode line separators escaped."""
    line = _ENCODER.encode(value)
    return line if line.isascii() else line.translate(_SEPARATORS)


class JSONFormatter(logging.Formatter):
    """Format a record as one line of JSON: time, level, logger, message, extra fields, traceback."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        entry.update({key: value for key, value in vars(record).items() if key not in _STANDARD})
        for key, value in list(entry.items()):
            if isinstance(value, str) and len(value) > MAX_TEXT:
                entry[key] = value[:MAX_TEXT] + "…"
                entry[f"{key}_length"] = len(value)
        if record.exc_info:
            entry["traceback"] = "".join(_cut(line) for line in traceback.format_exception(*record.exc_info))
        return dumps(entry)


def _cut(text: str) -> str:
    """Each line of ``text`` cut to :data:`MAX_TEXT` characters."""
    return "\n".join(
        line if len(line) <= MAX_TEXT else f"{line[:MAX_TEXT]}… ({len(line)} characters)"
        for line in text.split("\n")
    )


class Line(logging.Formatter):
    """The line a record carries, formatted already (:meth:`LineQueue.prepare`)."""

    def format(self, record: logging.LogRecord) -> str:
        return record.getMessage()


class StandardError(logging.Handler):
    """Writes each line to standard error as it is at that moment (a test runner may replace it),
    and flushes it: the handler of the writer thread (:class:`LineQueue`)."""

    def __init__(self) -> None:
        super().__init__()
        self.setFormatter(Line())

    def emit(self, record: logging.LogRecord) -> None:
        try:
            line = self.format(record)
            sys.stderr.write(line + "\n")
            sys.stderr.flush()
        except RecursionError:
            raise
        except Exception:  # a line that cannot be written must not stop the writer
            self.handleError(record)


class Writer(QueueListener):
    """The thread that writes the queued lines; at its end, it waits for room for its end mark
    rather than fail on a full queue (the base class would raise :class:`queue.Full`)."""

    def __init__(self, lines: queue.Queue[logging.LogRecord | None], output: logging.Handler) -> None:
        super().__init__(lines, output)
        self.lines = lines

    def enqueue_sentinel(self) -> None:
        self.lines.put(None)  # QueueListener's end mark is None


class LineQueue(QueueHandler):
    """Formats each record as a JSON line where it is logged, and queues the line for the writer
    thread (:class:`Writer`), which writes it to standard error.

    Why a bounded queue that waits, then drops and counts:

    * An unbounded queue never slows the service and never drops a line, but a consumer slower than
      the service (a log shipper behind, a terminal scrolled back) makes it grow without end: the
      memory of the process becomes the log's buffer, until the process is killed with every line
      it holds.
    * A bounded queue whose ``put`` waits for room makes a slow consumer slow the service: when the
      queue is full, the thread that logs (the event loop, for the access log) waits until the
      writer has written a line. That is what is asked: no line lost, however slow the consumer,
      and at most :data:`QUEUED` lines (each a few kilobytes at most: see :data:`MAX_TEXT`) held.
    * Waiting without end would make a consumer that has stopped reading (not slow: gone, or
      stuck) stop the service too, every request waiting on its line. So a line waits
      :data:`PATIENCE` seconds for room; if the writer took no line in all that time, the line is
      dropped, and while the queue stays full the next lines are dropped at once, without waiting
      again. Every drop is counted (:attr:`dropped`, and ``tictactoe_log_lines_dropped_total``
      through :func:`count_drops`), and a warning line gives their number as soon as a line goes
      through again. A consumer that takes a line even every few seconds loses nothing.

    What is queued is a record of its own holding the line alone, not the record logged, which may
    hold a client's whole text in its fields: the queue holds no more than the lines say.
    """

    def __init__(self) -> None:
        self.lines: queue.Queue[logging.LogRecord | None] = queue.Queue(QUEUED)
        super().__init__(self.lines)
        self.setFormatter(JSONFormatter())
        self.writer: Writer | None = None
        #: Whether lines are written where they are logged: at exit, once the writer has stopped.
        self.direct = False
        #: Whether the writer took no line for :data:`PATIENCE` seconds, and the queue is still full.
        self.stalled = False
        #: Lines dropped since the process started, and those no warning has told of yet.
        self.dropped = self.unsaid = 0
        #: Called with the number of lines just dropped (:func:`count_drops`).
        self.on_drop: Callable[[int], None] | None = None
        self.output = StandardError()

    def prepare(self, record: logging.LogRecord) -> logging.LogRecord:
        line = self.format(record)
        return logging.LogRecord(record.name, record.levelno, "", 0, line, None, None)

    def emit(self, record: logging.LogRecord) -> None:
        # Called with the handler's lock held: one thread at a time starts, stops or fills the queue.
        if self.direct:
            self.output.handle(self.prepare(record))
            return
        if self.writer is None:
            self.start()
        super().emit(record)

    def enqueue(self, record: logging.LogRecord) -> None:
        try:
            self.lines.put(record, block=not self.stalled, timeout=PATIENCE)
        except queue.Full:
            self.stalled = True
            self.drop()
            return
        self.stalled = False
        if self.unsaid:
            said, self.unsaid = self.unsaid, 0
            logger.warning(
                "%d log lines were dropped: standard error took no line for %g s "
                "(tictactoe_log_lines_dropped_total counts every drop)",
                said,
                PATIENCE,
            )

    def drop(self) -> None:
        self.dropped += 1
        self.unsaid += 1
        if self.on_drop is not None:
            self.on_drop(1)

    def start(self) -> None:
        """Start the writer thread, unless it runs."""
        self.acquire()
        try:
            if self.writer is None:
                self.writer = Writer(self.lines, self.output)
                self.writer.start()
        finally:
            self.release()

    def flush(self) -> None:
        """Wait until every line queued so far is written."""
        if self.writer is not None:
            self.lines.join()

    def stop(self) -> None:
        """Write every line queued so far, then end the writer thread (the next line starts it again)."""
        self.acquire()
        try:
            if self.writer is not None:
                self.writer.stop()
                self.writer = None
        finally:
            self.release()

    def close(self) -> None:
        # logging.config closes every handler when it configures logging again (uvicorn does, in each
        # worker), and logging.shutdown at exit: the lines queued are written first.
        self.stop()
        super().close()

    def exit(self) -> None:
        """At exit: write what is queued, stop the writer, and write any later line at once."""
        self.acquire()
        try:
            self.stop()
            self.direct = True
        finally:
            self.release()

    def forked(self) -> None:
        """In a child process: no writer thread, and a queue of its own (the parent's lines are its own)."""
        self.queue = self.lines = queue.Queue(QUEUED)
        self.writer = None


#: The one handler of every logger the service configures.
handler = LineQueue()
atexit.register(handler.exit)
os.register_at_fork(after_in_child=handler.forked)


def the_handler() -> LineQueue:
    """:data:`handler`, for a logging configuration that names it (:func:`config`)."""
    return handler


def flush() -> None:
    """Wait until every line logged so far is written (the app's lifespan does, as it ends)."""
    handler.flush()


def count_drops(count: Callable[[int], None]) -> None:
    """Have ``count`` called with the lines dropped (a metric's ``inc``), those before it included."""
    handler.on_drop = count
    if handler.dropped:
        count(handler.dropped)


def config(level: str) -> dict[str, Any]:
    """A :func:`logging.config.dictConfig` for the service and uvicorn (also given to uvicorn)."""
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
    """Send the records of logger ``name`` to standard error as JSON lines, at ``level``.

    Records then leave out what no line shows (the thread and the process), as
    the logging documentation's "Optimization" section describes: a few microseconds a line.
    """
    logging.logThreads = False
    logging.logProcesses = False
    logging.logMultiprocessing = False
    named = logging.getLogger(name)
    if handler not in named.handlers:
        named.addHandler(handler)
        named.propagate = False
    named.setLevel(level.upper())
