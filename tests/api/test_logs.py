"""The log's writer: a queue that a slow reader of standard error slows, drops counted and told, and
lines written in batches, in order, every one of them before the writer stops."""

from __future__ import annotations

import io
import json
import logging
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service import logs

#: How long a test lets a call that should return at once run before it says the call is stuck: a
#: guard against a hang, never a measure (the calls it guards take milliseconds).
STUCK = 120.0


class Slow(io.StringIO):
    """Standard error read slowly: each line waits a little, and every line waits while ``gate`` is
    shut. It counts the calls to ``write`` and ``flush``."""

    def __init__(self, pause: float = 0.0) -> None:
        super().__init__()
        self.pause = pause
        self.gate = threading.Event()
        self.gate.set()
        self.writes = self.flushes = 0

    def write(self, text: str) -> int:
        self.gate.wait()
        time.sleep(self.pause)
        self.writes += 1
        return super().write(text)

    def flush(self) -> None:
        self.flushes += 1
        super().flush()


@pytest.fixture
def small(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[logs.LineQueue, logging.Logger]]:
    """A handler of its own with a queue of 10 lines and 0.5 s of patience, and a logger using it."""
    monkeypatch.setattr(logs, "QUEUED", 10)
    monkeypatch.setattr(logs, "PATIENCE", 0.5)
    with own_handler(monkeypatch) as pair:
        yield pair


@pytest.fixture
def handled(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[logs.LineQueue, logging.Logger]]:
    """A handler of its own with the service's queue, and a logger using it."""
    with own_handler(monkeypatch) as pair:
        yield pair


@contextmanager
def own_handler(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[logs.LineQueue, logging.Logger]]:
    handler = logs.LineQueue()
    logger = logging.getLogger("service.tests.queue")
    logger.addHandler(handler)
    logger.propagate = False
    logger.setLevel(logging.INFO)
    monkeypatch.setattr(logs, "logger", logger)  # the warning about drops, through this handler
    try:
        yield handler, logger
    finally:
        logger.removeHandler(handler)
        handler.close()


def written(stream: io.StringIO) -> list[dict[str, object]]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def messages(stream: io.StringIO) -> list[object]:
    return [line["message"] for line in written(stream)]


def returns(call: Callable[[], None]) -> bool:
    """Whether ``call`` returns, run in a thread of its own (see :data:`STUCK`)."""
    thread = threading.Thread(target=call, daemon=True)
    thread.start()
    thread.join(STUCK)
    return not thread.is_alive()


def quiet(writer: logs.Writer | None) -> logs.Writer:
    """``writer`` once it waits for a line after a quiet moment: the next line starts a pause."""
    assert writer is not None
    stuck = time.monotonic() + STUCK
    while not writer.idle:
        assert time.monotonic() < stuck, "the writer never waits for a line"
        time.sleep(0.001)
    return writer


def test_a_slow_reader_slows_the_writer_and_loses_no_line(
    small: tuple[logs.LineQueue, logging.Logger], monkeypatch: pytest.MonkeyPatch
) -> None:
    handler, logger = small
    slow = Slow(0.002)
    monkeypatch.setattr(sys, "stderr", slow)
    for number in range(200):  # twenty times the queue
        logger.info("line %d", number)
    handler.flush()
    assert messages(slow) == [f"line {number}" for number in range(200)]
    assert handler.dropped == 0
    assert slow.writes == slow.flushes <= 200


def test_a_reader_that_stops_costs_lines_counted_and_told(
    small: tuple[logs.LineQueue, logging.Logger], monkeypatch: pytest.MonkeyPatch
) -> None:
    handler, logger = small
    counted: list[int] = []
    handler.on_drop = counted.append
    stopped = Slow()
    stopped.gate.clear()
    monkeypatch.setattr(sys, "stderr", stopped)
    try:
        for number in range(30):
            logger.info("line %d", number)
    finally:
        stopped.gate.set()
    # The writer holds one batch of ten lines at most, the queue ten more; the next line waited in
    # vain, and the rest were dropped without waiting again.
    dropped = handler.dropped
    assert dropped == sum(counted) >= 30 - 2 * 10
    handler.flush()  # the reader takes the lines queued
    logger.info("after")
    handler.flush()
    lines = written(stopped)
    assert [line["message"] for line in lines] == [f"line {number}" for number in range(30 - dropped)] + [
        "after",
        f"{dropped} log lines were dropped: standard error took no line for 0.5 s "
        "(tictactoe_log_lines_dropped_total counts every drop)",
    ]
    assert lines[-1]["level"] == "warning"


def test_every_line_is_written_when_the_handler_closes(monkeypatch: pytest.MonkeyPatch) -> None:
    handler = logs.LineQueue()
    record = logging.LogRecord("service", logging.INFO, "", 0, "closing %d", (1,), None)
    slow = Slow(0.001)
    monkeypatch.setattr(sys, "stderr", slow)
    for _ in range(50):
        handler.handle(record)
    handler.close()  # as logging.shutdown does at exit, and logging.config when it is run again
    assert messages(slow) == ["closing 1"] * 50
    handler.exit()
    handler.handle(record)  # after exit, written at once
    assert len(written(slow)) == 51


def test_the_drops_are_counted_from_the_start(small: tuple[logs.LineQueue, logging.Logger]) -> None:
    handler, _ = small
    handler.dropped = 3
    counted: list[int] = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(logs, "handler", handler)
        logs.count_drops(counted.append)
    assert counted == [3]
    handler.drop()
    assert counted == [3, 1]


def test_the_lines_queued_while_the_reader_is_busy_are_written_together(
    handled: tuple[logs.LineQueue, logging.Logger], monkeypatch: pytest.MonkeyPatch
) -> None:
    """One ``write`` and one ``flush`` for every line that waited, not one each."""
    handler, logger = handled
    busy = Slow()
    busy.gate.clear()
    monkeypatch.setattr(sys, "stderr", busy)
    try:
        for number in range(300):  # the writer takes the first lines, and waits at the gate with them
            logger.info("line %d", number)
    finally:
        busy.gate.set()
    handler.flush()
    assert messages(busy) == [f"line {number}" for number in range(300)]
    assert busy.writes == busy.flushes <= 2  # those the writer held, and every line queued meanwhile


def test_a_line_after_a_quiet_moment_waits_for_those_after_it(
    handled: tuple[logs.LineQueue, logging.Logger], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The writer woken by a line lets the next ones come, and a flush cuts its pause short."""
    handler, logger = handled
    monkeypatch.setattr(logs, "PAUSE", 10 * STUCK)
    stream = Slow()
    monkeypatch.setattr(sys, "stderr", stream)
    logger.info("first")
    assert returns(handler.flush)
    quiet(handler.writer)
    before = stream.writes
    for number in range(20):
        logger.info("line %d", number)
    assert returns(handler.flush)
    assert stream.writes == before + 1
    assert messages(stream) == ["first"] + [f"line {number}" for number in range(20)]


def test_no_line_is_lost_when_the_writer_stops_in_its_pause(
    handled: tuple[logs.LineQueue, logging.Logger], monkeypatch: pytest.MonkeyPatch
) -> None:
    handler, logger = handled
    monkeypatch.setattr(logs, "PAUSE", 10 * STUCK)
    stream = Slow()
    monkeypatch.setattr(sys, "stderr", stream)
    logger.info("first")
    handler.flush()
    quiet(handler.writer)
    for number in range(20):
        logger.info("line %d", number)
    assert returns(handler.close)  # the lifespan's end, logging.config again, or the process's exit
    assert handler.writer is None
    logger.info("again")  # a later line starts the writer again
    assert returns(handler.exit)
    logger.info("last")  # after exit, written at once
    assert messages(stream) == ["first", *[f"line {number}" for number in range(20)], "again", "last"]


def test_lines_logged_from_many_threads_are_each_written_once_in_each_ones_order(
    small: tuple[logs.LineQueue, logging.Logger], monkeypatch: pytest.MonkeyPatch
) -> None:
    handler, logger = small  # a queue of 10 lines: the threads wait for room again and again
    stream = Slow()
    monkeypatch.setattr(sys, "stderr", stream)

    def log(name: str) -> None:
        for number in range(300):
            logger.info("%s %d", name, number)

    threads = [threading.Thread(target=log, args=(name,)) for name in "abcd"]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    handler.flush()
    said = [str(message).split() for message in messages(stream)]
    for name in "abcd":
        assert [int(number) for who, number in said if who == name] == list(range(300))
    assert len(said) == 4 * 300 and handler.dropped == 0
    assert stream.writes == stream.flushes < len(said)  # a full queue is written in batches


@given(st.floats(min_value=0, max_value=2**34, allow_nan=False, allow_infinity=False))
def test_a_lines_time_is_the_records_in_utc_to_the_millisecond(created: float) -> None:
    """As :mod:`datetime` writes it, with its rounding, though only each new second is formatted."""
    formatter = FORMATTER  # one formatter for every example: its second goes on changing
    expected = datetime.fromtimestamp(created, UTC).isoformat(timespec="milliseconds")
    assert formatter.time(created) == expected
    assert formatter.time(created) == expected  # the second kept


FORMATTER = logs.JSONFormatter()
