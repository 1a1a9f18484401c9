"""Figures measured in this process, without HTTP: the solve, a lookup, and a textbook minimax."""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable
from typing import Any

from service.answers import Answers
from service.game import solve

from .mixes import positions
from .textbook import best_move as textbook_best_move


def timed(function: Callable[[], object], repeat: int) -> list[float]:
    """Seconds of each of ``repeat`` calls."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        function()
        times.append(time.perf_counter() - started)
    return times


def solver_figures(solves: int, repeats: int, textbook: int) -> dict[str, Any]:
    """Whole-table solve (median of ``solves``), lookups per query, and the textbook minimax.

    The lookup is averaged over every position, median of ``repeats`` loops after a warm-up,
    Python's loop overhead included: ``game[position]`` (the analysis), the rendered answer of a
    position (its bytes, as a ``POST`` sends them; the first loop renders them), and the whole path
    from a board string and player to the rendered answer (what a plain request needs), which the
    2 µs target applies to.
    """
    seconds = []
    for _ in range(solves):
        gc.collect()  # each solve starts with no garbage left from the one before
        seconds.append(timed(solve, 1)[0])
    game = solve()
    gc.collect()
    gc.freeze()  # as the service does with its table
    answers = Answers(game)
    every = [analysis.position for analysis in game]
    asked = positions()
    resolved = [game.lookup(board, player) for board, player in asked]
    unfinished = [position for position in resolved if position is not None]
    if len(unfinished) != len(asked):
        raise RuntimeError("the service does not know every position the oracle reaches")

    def lookups() -> None:
        for position in every:
            game[position]

    def rendered() -> None:
        for position in unfinished:
            answers.best_body(position)

    def requests() -> None:
        lookup, best_body = game.lookup, answers.best_body
        for board, player in asked:
            best_body(lookup(board, player))  # type: ignore[arg-type]

    for loop in (lookups, rendered, requests):  # warm-up
        loop()
    request = statistics.median(timed(requests, repeats)) / len(asked)
    empty = statistics.median(timed(lambda: textbook_best_move(".........", "X"), textbook))
    one_mark = statistics.median(timed(lambda: textbook_best_move("X........", "O"), max(3, textbook)))
    gc.unfreeze()
    return {
        "solve_ms": statistics.median(seconds) * 1000,
        "solve_ms_min": min(seconds) * 1000,
        "solve_ms_max": max(seconds) * 1000,
        "solves": len(seconds),
        "lookup_us": statistics.median(timed(lookups, repeats)) / len(every) * 1e6,
        "lookup_positions": len(every),
        "answer_lookup_us": statistics.median(timed(rendered, repeats)) / len(unfinished) * 1e6,
        "request_lookup_us": request * 1e6,
        "request_positions": len(asked),
        "textbook_empty_board_s": empty,
        "textbook_one_mark_s": one_mark,
        "speedup_empty_board": empty / request,
        "speedup_one_mark": one_mark / request,
    }
