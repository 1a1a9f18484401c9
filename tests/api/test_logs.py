"""The log's writer: a queue that a slow reader of standard error slows, and drops counted and told."""

from __future__ import annotations

import io
import json
import logging
import sys
import threading
import time
from collections.abc import Iterator

import pytest

from service import logs


class Slow(io.StringIO):
    """Standard error read slowly: each line waits a little, and every line waits while ``gate`` is shut."""

    def __init__(self, pause: float) -> None:
        super().__init__()
        self.pause = pause
        self.gate = threading.Event()
        self.gate.set()

    def write(self, text: str) -> int:
        self.gate.wait()
        time.sleep(self.pause)
        return super().write(text)


@pytest.fixture
def small(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[logs.LineQueue, logging.Logger]]:
    """A handler of its own with a queue of 10 lines and 0.5 s of patience, and a logger using it."""
    monkeypatch.setattr(logs, "QUEUED", 10)
    monkeypatch.setattr(logs, "PATIENCE", 0.5)
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


def test_a_slow_reader_slows_the_writer_and_loses_no_line(
    small: tuple[logs.LineQueue, logging.Logger], monkeypatch: pytest.MonkeyPatch
) -> None:
    handler, logger = small
    slow = Slow(0.002)
    monkeypatch.setattr(sys, "stderr", slow)
    for number in range(200):  # twenty times the queue
        logger.info("line %d", number)
    handler.flush()
    assert [line["message"] for line in written(slow)] == [f"line {number}" for number in range(200)]
    assert handler.dropped == 0


def test_a_reader_that_stops_costs_lines_counted_and_told(
    small: tuple[logs.LineQueue, logging.Logger], monkeypatch: pytest.MonkeyPatch
) -> None:
    handler, logger = small
    counted: list[int] = []
    handler.on_drop = counted.append
    stopped = Slow(0)
    stopped.gate.clear()
    monkeypatch.setattr(sys, "stderr", stopped)
    try:
        for number in range(30):
            logger.info("line %d", number)
    finally:
        stopped.gate.set()
    # The writer held one line, the queue ten; the 12th waited in vain, and the rest were dropped
    # without waiting again.
    assert handler.dropped == sum(counted) == 30 - 11
    handler.flush()  # the reader takes the lines queued
    logger.info("after")
    handler.flush()
    lines = written(stopped)
    assert [line["message"] for line in lines[:11]] == [f"line {number}" for number in range(11)]
    assert lines[11]["message"] == "after"
    assert lines[12]["level"] == "warning" and str(lines[12]["message"]).startswith(
        "19 log lines were dropped"
    )
    assert len(lines) == 13


def test_every_line_is_written_when_the_handler_closes(monkeypatch: pytest.MonkeyPatch) -> None:
    handler = logs.LineQueue()
    record = logging.LogRecord("service", logging.INFO, "", 0, "closing %d", (1,), None)
    slow = Slow(0.001)
    monkeypatch.setattr(sys, "stderr", slow)
    for _ in range(50):
        handler.handle(record)
    handler.close()  # as logging.shutdown does at exit, and logging.config when it is run again
    assert [line["message"] for line in written(slow)] == ["closing 1"] * 50
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
