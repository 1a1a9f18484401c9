"""Logging: one JSON object per line on standard error, through the standard library's logging.

Every record (the service's, uvicorn's, the MCP SDK's and the access log's) goes to :data:`handler`
(:class:`LineQueue`, a :class:`logging.Handler`), which takes what its line says where it is logged
(:meth:`JSONFormatter.entry`: message, fields, traceback, each text cut) and puts it in a bounded
queue; one thread (:class:`Writer`) encodes the lines as JSON and writes them to standard error, in
order, many with one ``write``.

The queue is bounded and a full queue makes the logging thread wait (the design, and why, is in
:class:`LineQueue`): a slow consumer of standard error slows the service instead of losing lines.
Only a consumer that takes no line at all for :data:`PATIENCE` seconds makes lines drop; each is
counted (``tictactoe_log_lines_dropped_total``, see :func:`count_drops`) and said in a warning
line as soon as lines go through again.

The writer thread starts with the first line of a process (in a process forked from one that
logged, with its first line too), the app's lifespan waits for every line queued so far to be
written when it ends (:func:`flush`), and at exit the thread writes what is left and stops; after
that, lines are written at once by the logging thread.

What a line costs. An access line is logged for every request, on the event loop, so its cost is
the service's: measured with wrk on ``POST /v1/best-move``, one worker, the access log at info
first served 66 to 72 % of what it served at warning (the median of interleaved pairs, in two
series of 8 and 10), and cost the event loop about 25 µs of processor a request. The event loop
formatted each line as JSON (about 10 µs in the service, twice what it costs alone), and each line
woke the writer thread (``queue.Queue``'s notify), which took the GIL from the event loop to write
and flush that one line (a system call each). Now:

* the event loop does the least: a record's entry (no JSON, no time text), appended to a
  :class:`collections.deque` (one step, no lock), and the writer woken only if it sleeps;
* the writer sleeps until the first line after a quiet moment, then waits :data:`PAUSE` seconds
  for those after it, encodes them all (the time text made once a second) and writes them with one
  ``write`` and one ``flush``: it wakes a few dozen times a second, not once a line, and encoding
  a batch at once costs less than a line at a time between requests.

Measured the same way, the access log at info now serves 78 to 79 % of what it serves at
warning (81 to 83 % as the ratio of the medians), and costs the event loop about 14 µs a request
and the writer 4. A line reaches standard error :data:`PAUSE` seconds after it is logged at most,
besides the writing; :func:`flush` and the writer's end cut the pause short. The standard library's
:class:`~logging.handlers.MemoryHandler` would batch records, but hands its target one record at a
time (one write each: standard error is line-buffered) and flushes on a full buffer or a level,
not a timer; :class:`~logging.handlers.QueueListener` hands records over one at a time too, and its
queue's ``put`` and ``task_done`` take two locks a line. Nothing outside logging's documented API
is used: handlers, formatters and records, as documented.

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
import sys
import threading
import traceback
from collections import deque
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

logger = logging.getLogger("service")
#: One line per answered request (:mod:`service.web.middleware.access`), at level info.
access = logging.getLogger("service.access")

#: Lines waiting to be written, at most, per process (see :class:`LineQueue`).
QUEUED = 1000
#: Seconds a line waits for room in a full queue before it is dropped (see :class:`LineQueue`).
PATIENCE = 5.0
#: Seconds the writer lets lines gather after the first line of a quiet moment, to write them together
#: (see :class:`Writer`): how late a line may reach standard error, at most, besides the writing.
PAUSE = 0.02

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
#: The types of the fields whose line may be encoded later, by the writer: nothing can change them.
_PLAIN = frozenset({str, int, float, bool, type(None)})


def dumps(value: object) -> str:
    """JSON on one line: UTF-8 text as it is, but the Unicode line separators escaped."""
    line = _ENCODER.encode(value)
    return line if line.isascii() else line.translate(_SEPARATORS)


class JSONFormatter(logging.Formatter):
    """Format a record as one line of JSON: time, level, logger, message, extra fields, traceback.

    In two steps, which :class:`LineQueue` takes on two threads: :meth:`entry`, what the line says,
    each text cut, and :meth:`encode`, the line itself.
    """

    def __init__(self) -> None:
        super().__init__()
        #: The last whole second formatted, and its text: most lines share their second with the last.
        self.second: tuple[int, str] = (-1, "")

    def format(self, record: logging.LogRecord) -> str:
        entry, _ = self.entry(record)
        return self.encode(record.created, entry)

    def entry(self, record: logging.LogRecord) -> tuple[dict[str, Any], bool]:
        """What the line of ``record`` says, but its time (:meth:`encode` adds it, first), with each
        text cut to :data:`MAX_TEXT` characters; and whether it holds only texts, numbers, booleans
        and ``None``, which nothing can change before the line is encoded."""
        entry: dict[str, Any] = {
            "time": None,
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        long = len(entry["message"]) > MAX_TEXT or len(record.name) > MAX_TEXT
        plain, long_field = _fields(record, entry)
        if long or long_field:
            _cut_texts(entry)
        if record.exc_info:
            entry["traceback"] = "".join(_cut(line) for line in traceback.format_exception(*record.exc_info))
        return entry, plain

    def encode(self, created: float, entry: dict[str, Any]) -> str:
        """The line of an :meth:`entry`, with the time of its record, ``created``."""
        entry["time"] = self.time(created)
        return dumps(entry)

    def time(self, created: float) -> str:
        """``created`` (seconds since the epoch) as ``datetime.fromtimestamp(created, UTC).isoformat(
        timespec="milliseconds")`` writes it, at a fraction of the cost: only a new second is formatted
        by :mod:`datetime`, and the milliseconds are rounded as it rounds them (to the microsecond,
        half to even, then cut)."""
        whole = int(created)
        micro = round((created - whole) * 1_000_000)
        if micro >= 1_000_000:
            whole, micro = whole + 1, micro - 1_000_000
        second, text = self.second
        if whole != second:
            text = datetime.fromtimestamp(whole, UTC).isoformat(timespec="seconds").removesuffix("+00:00")
            self.second = (whole, text)
        return f"{text}.{micro // 1000:03d}+00:00"


def _fields(record: logging.LogRecord, entry: dict[str, Any]) -> tuple[bool, bool]:
    """Add to ``entry`` the fields of ``record`` (what it was given in ``extra``), in their order;
    whether they are all texts, numbers, booleans and ``None`` (plain), and whether one of them may
    be a text longer than :data:`MAX_TEXT` characters (a subclass of :class:`str` is counted as one)."""
    plain, long = True, False
    for key, value in vars(record).items():
        if key in _STANDARD:
            continue
        entry[key] = value
        kind = type(value)
        if kind is str:
            long = long or len(value) > MAX_TEXT
        elif kind not in _PLAIN:
            plain = False
            long = long or isinstance(value, str)
    return plain, long


def _cut_texts(entry: dict[str, Any]) -> None:
    """Cut each text of ``entry`` longer than :data:`MAX_TEXT` characters, followed by ``…``, and add
    its full length beside it, as ``<key>_length`` (after the fields, in their order)."""
    lengths = {
        key: len(value) for key, value in entry.items() if isinstance(value, str) and len(value) > MAX_TEXT
    }
    for key, length in lengths.items():
        entry[key] = entry[key][:MAX_TEXT] + "…"
        entry[f"{key}_length"] = length


def _cut(text: str) -> str:
    """Each line of ``text`` cut to :data:`MAX_TEXT` characters."""
    return "\n".join(
        line if len(line) <= MAX_TEXT else f"{line[:MAX_TEXT]}… ({len(line)} characters)"
        for line in text.split("\n")
    )


class StandardError(logging.Handler):
    """Writes lines to standard error as it is at that moment (a test runner may replace it): each
    batch with one ``write`` and one ``flush`` (:meth:`write`), for the writer thread (:class:`Writer`)."""

    def write(self, lines: list[str]) -> None:
        """Write ``lines``, each ended by a newline, at once; a failure is reported as logging
        reports a handler's (:meth:`~logging.Handler.handleError`), and does not stop the writer."""
        try:
            stream = sys.stderr
            stream.write("\n".join(lines) + "\n")
            stream.flush()
        except RecursionError:
            raise
        except Exception:
            self.handleError(
                logging.LogRecord("service", logging.ERROR, "", 0, "%d log lines", (len(lines),), None)
            )

    def emit(self, record: logging.LogRecord) -> None:
        self.write([record.getMessage()])


#: What is queued for a line: the record's time and :meth:`JSONFormatter.entry`, for the writer to
#: encode, or the line already encoded (a record with fields that might change before the writer).
Item = tuple[float, dict[str, Any]] | str


class Writer(threading.Thread):
    """The thread that writes the queued lines to standard error, in order, a batch at a time.

    While lines keep coming, each turn takes every line queued (up to :data:`QUEUED`), encodes them
    and writes them with one ``write`` and one ``flush``. After a quiet moment (nothing queued), the
    first line wakes the thread (:attr:`awake`, set by :meth:`LineQueue.put`), which then waits
    :data:`PAUSE` seconds for the lines after it (unless :attr:`hurry` is set, by
    :meth:`LineQueue.flush` and :meth:`stop`) before it writes: the thread is woken a few dozen
    times a second at most, not once a line.
    """

    def __init__(self, handler: LineQueue) -> None:
        super().__init__(name="service.logs writer", daemon=True)
        self.handler = handler
        #: Whether the thread waits for a line (:attr:`awake`): the next line sets :attr:`awake`.
        self.idle = False
        #: Set by the first line after a quiet moment, and to end.
        self.awake = threading.Event()
        #: Set to end the pause at once: someone waits for the lines (a flush, the end).
        self.hurry = threading.Event()
        #: Set to end once every line queued is written.
        self.ending = False

    def run(self) -> None:
        lines = self.handler.lines
        while True:
            if not lines and not self.ending:
                self.sleep(lines)
            taken = self.take(lines)
            self.write(taken)
            if self.ending and not lines:
                return

    def sleep(self, lines: deque[Item]) -> None:
        """After a quiet moment (nothing in ``lines``): wait for the first line, or to end (:attr:`awake`),
        then :data:`PAUSE` seconds for the lines after it, unless :attr:`hurry` is set."""
        self.hurry.clear()
        self.idle = True
        if not lines and not self.ending:  # a line queued since then has seen idle, and set awake
            self.awake.wait()
        self.idle = False
        self.awake.clear()
        if lines:  # not woken for nothing (a flush): let the lines after the first come
            self.hurry.wait(PAUSE)

    def take(self, lines: deque[Item]) -> list[Item]:
        """The first lines of ``lines``, in order, up to :data:`QUEUED`, taken from the queue; the lines
        that wait for room are told of it."""
        taken: list[Item] = []
        while lines and len(taken) < QUEUED:
            taken.append(lines.popleft())
        if taken:
            with self.handler.room:  # room for the lines that wait for it
                self.handler.room.notify_all()
        return taken

    def write(self, taken: list[Item]) -> None:
        """Encode the lines ``taken`` and write them with one ``write`` (if any could be encoded), then
        count them as written, for :meth:`LineQueue.flush`."""
        handler = self.handler
        batch = self.encode(taken)
        if batch:
            handler.output.write(batch)
        with handler.room:  # the lines written, for flush
            handler.written += len(taken)
            handler.room.notify_all()

    def encode(self, taken: list[Item]) -> list[str]:
        """The lines ``taken`` as JSON, in order; a line that cannot be encoded (a field whose
        ``str()`` raises) is left out and reported as logging reports a handler's failure."""
        handler = self.handler
        encode = handler.json.encode
        batch: list[str] = []
        for item in taken:
            try:
                batch.append(item if isinstance(item, str) else encode(*item))
            except Exception:  # a field that cannot be encoded (its str() raised) costs its line only
                handler.output.handleError(
                    logging.LogRecord(
                        "service", logging.ERROR, "", 0, "a log line could not be encoded", None, None
                    )
                )
        return batch

    def stop(self) -> None:
        """Write every line queued so far, then end."""
        self.ending = True
        self.hurry.set()
        self.awake.set()
        self.join()


class LineQueue(logging.Handler):
    """Formats each record where it is logged, and queues its line for the writer thread
    (:class:`Writer`), which writes it to standard error.

    Why a bounded queue that waits, then drops and counts:

    * An unbounded queue never slows the service and never drops a line, but a consumer slower than
      the service (a log shipper behind, a terminal scrolled back) makes it grow without end: the
      memory of the process becomes the log's buffer, until the process is killed with every line
      it holds.
    * A bounded queue whose ``put`` waits for room makes a slow consumer slow the service: when the
      queue is full, the thread that logs (the event loop, for the access log) waits until the
      writer has taken lines. That is what is asked: no line lost, however slow the consumer, and
      at most :data:`QUEUED` lines queued, and as many in the writer's hands (each a few kilobytes
      at most: see :data:`MAX_TEXT`).
    * Waiting without end would make a consumer that has stopped reading (not slow: gone, or
      stuck) stop the service too, every request waiting on its line. So a line waits
      :data:`PATIENCE` seconds for room; if the writer took no line in all that time, the line is
      dropped, and while the queue stays full the next lines are dropped at once, without waiting
      again. Every drop is counted (:attr:`dropped`, and ``tictactoe_log_lines_dropped_total``
      through :func:`count_drops`), and a warning line gives their number as soon as a line goes
      through again. A consumer that takes a line even every few seconds loses nothing.

    What is queued is what the line says (:meth:`JSONFormatter.entry`: each text cut), not the
    record logged, which may hold a client's whole text in its fields: the queue holds no more than
    the lines say. The writer encodes it as JSON (:meth:`JSONFormatter.encode`); a record with a
    field that could change before then (anything but a text, a number, a boolean or ``None``) is
    encoded where it is logged.

    The queue is a :class:`collections.deque` (appending is one step, safe between threads), and
    room is waited for on :attr:`room` only when it is full: the lines are logged one at a time
    (with the handler's lock held), and only the writer takes them.
    """

    def __init__(self) -> None:
        super().__init__()
        self.json = JSONFormatter()
        self.setFormatter(self.json)
        self.output = StandardError()
        self.writer: Writer | None = None
        #: Whether lines are written where they are logged: at exit, once the writer has stopped.
        self.direct = False
        #: Whether the writer took no line for :data:`PATIENCE` seconds, and the queue is still full.
        self.stalled = False
        #: Lines dropped since the process started, and those no warning has told of yet.
        self.dropped = self.unsaid = 0
        #: Called with the number of lines just dropped (:func:`count_drops`).
        self.on_drop: Callable[[int], None] | None = None
        self.fresh()

    def fresh(self) -> None:
        """An empty queue: the lines waiting, the condition that tells of room and of lines written,
        and the counts of lines queued and written (by :meth:`flush`)."""
        self.lines: deque[Item] = deque()
        self.room = threading.Condition()
        self.queued = self.written = 0

    def emit(self, record: logging.LogRecord) -> None:
        # Called with the handler's lock held: one thread at a time starts, stops or fills the queue.
        try:
            entry, plain = self.json.entry(record)
            item: Item = (record.created, entry) if plain else self.json.encode(record.created, entry)
            if self.direct:
                self.output.write([item if isinstance(item, str) else self.json.encode(*item)])
                return
            if self.writer is None:
                self.start()
            self.put(item)
        except RecursionError:
            raise
        except Exception:
            self.handleError(record)

    def put(self, item: Item) -> None:
        """Queue a line: wait for room, then drop it (see the class's docstring)."""
        if len(self.lines) >= QUEUED and not self.wait_for_room():
            self.stalled = True
            self.drop()
            return
        self.lines.append(item)
        self.queued += 1
        if self.writer is not None and self.writer.idle:  # waiting for a line: wake it
            self.writer.awake.set()
        self.stalled = False
        if self.unsaid:
            said, self.unsaid = self.unsaid, 0
            logger.warning(
                "%d log lines were dropped: standard error took no line for %g s "
                "(tictactoe_log_lines_dropped_total counts every drop)",
                said,
                PATIENCE,
            )

    def wait_for_room(self) -> bool:
        """Whether the full queue has room within :data:`PATIENCE` seconds (at once, if stalled)."""
        with self.room:
            return self.room.wait_for(lambda: len(self.lines) < QUEUED, 0 if self.stalled else PATIENCE)

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
                self.writer = Writer(self)
                self.writer.start()
        finally:
            self.release()

    def flush(self) -> None:
        """Wait until every line queued so far is written (the writer's pause cut short)."""
        writer, queued = self.writer, self.queued
        if writer is None:
            return
        writer.hurry.set()
        writer.awake.set()
        with self.room:
            while self.written < queued and writer.is_alive():
                self.room.wait(1.0)

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
        self.fresh()
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
