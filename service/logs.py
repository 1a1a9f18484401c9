"""Logging: one JSON object per line on standard error, through the standard library's logging.

Every record (the service's, uvicorn's, the MCP SDK's and the access log's) is formatted as one
line of JSON (:class:`JSONFormatter`) and written to standard error at once, by one
handler (:data:`handler`). When the reader of standard error is slower
than the service, the write waits for it: a slow consumer slows the writer, and no line is lost.
(A queue and a writer thread, :class:`~logging.handlers.QueueListener`, cost three times as much
per line here, most of it in handing the interpreter lock back and forth, for no line more.)

Text is written with ``ensure_ascii=False`` for legibility, except the line and paragraph
separators U+0085, U+2028 and U+2029, which are escaped so that no tool splits a line on them.

A client can put any text in what is logged (a path, a name in an MCP call, a header): every text
of a line, its message and each field, is cut to :data:`MAX_TEXT` characters, followed by ``…``,
and the line gives the full length beside it (``message_length``, ``path_length``, …); a traceback
is cut line by line. A line is never longer than a few kilobytes, however large a request.
"""

from __future__ import annotations

import json
import logging
import sys
import traceback
from datetime import UTC, datetime
from typing import Any

logger = logging.getLogger("service")
#: One line per answered request (:mod:`service.web.middleware.access`), at level info.
access = logging.getLogger("service.access")

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


class StandardError(logging.Handler):
    """Writes each record as a JSON line to standard error as it is at that moment (a test runner
    may replace it), and flushes it."""

    def __init__(self) -> None:
        super().__init__()
        self.setFormatter(JSONFormatter())

    def emit(self, record: logging.LogRecord) -> None:
        try:
            line = self.format(record)
            sys.stderr.write(line + "\n")
            sys.stderr.flush()
        except RecursionError:
            raise
        except Exception:  # a record that cannot be written must not break the request
            self.handleError(record)


#: The one handler of every logger the service configures.
handler = StandardError()


def the_handler() -> StandardError:
    """:data:`handler`, for a logging configuration that names it (:func:`config`)."""
    return handler


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
