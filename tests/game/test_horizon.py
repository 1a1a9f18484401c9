"""The horizon rule (``depth``): :meth:`Values.within`, on every unfinished position of every variant on
one 3 × 3 board and at every depth, against depth-limited searches written apart.

:meth:`Values.within` reads the horizon off exact values, without a search; the oracles search it, depth
by depth: :mod:`tests.support.oracle` the standard game (from the shipped table and from values solved
from scratch), :mod:`tests.support.variant_oracle` every variant on one board (from the shipped tables).
"""

from __future__ import annotations

import pytest

from service.game import STANDARD, VARIANTS, Values
from service.game.tables import table
from service.game.variants import O_MARK, X_MARK, State
from tests.support import oracle
from tests.support.variant_oracle import VARIANTS as ORACLES


def standard_state(cells: tuple[int, ...], side: int) -> State:
    """The engine's state of an oracle board (1 for X, -1 for O) with ``side`` to move."""
    x = sum(1 << i for i, mark in enumerate(cells) if mark == 1)
    o = sum(1 << i for i, mark in enumerate(cells) if mark == -1)
    return State(x, o, X_MARK if side == 1 else O_MARK)


def positions() -> list[tuple[tuple[int, ...], int]]:
    return sorted((cells, side) for cells, sides in oracle.reachable().items() for side in sides)


@pytest.fixture(scope="module", params=["shipped table", "from scratch"])
def standard(request: pytest.FixtureRequest) -> Values:
    """The standard game's values as the service reads them (its shipped table), and solved anew."""
    return Values(STANDARD, table("standard")) if request.param == "shipped table" else Values(STANDARD)


def best_cells(values: Values, state: State, depth: int) -> list[int]:
    """The cells of the moves best within ``depth`` plies, each the mover's own mark."""
    found = values.within(state, depth)
    assert {move.mark for move in found} == {state.mover}
    return sorted(move.cell for move in found)


def test_within_matches_the_oracle_everywhere_at_every_depth(standard: Values) -> None:
    cases = positions()
    assert len(cases) == 9040
    compared = 0
    for cells, side in cases:
        state = standard_state(cells, side)
        for depth in range(1, 10):
            assert best_cells(standard, state, depth) == oracle.horizon_best_moves(cells, side, depth), (
                oracle.decode(cells),
                side,
                depth,
            )
            compared += 1
    assert compared == 9040 * 9


def test_looking_far_enough_ahead_plays_perfectly(standard: Values) -> None:
    for cells, side in positions():
        state = standard_state(cells, side)
        for depth in range(cells.count(0), 10):
            assert best_cells(standard, state, depth) == oracle.optimal_moves(cells, side)


def test_depth_one_takes_a_win_and_depth_two_blocks(standard: Values) -> None:
    win_or_block = STANDARD.resolve("XX.OO....", "X").state
    assert best_cells(standard, win_or_block, 1) == [2]  # X completes 0-1-2
    must_block = STANDARD.resolve("XX..O....").state  # O to move, X threatens 0-1-2
    assert best_cells(standard, must_block, 1) == [2, 3, 5, 6, 7, 8]  # one ply ahead, every move draws
    assert best_cells(standard, must_block, 2) == [2]


@pytest.mark.parametrize("variant_id", ["standard", "misere", "wild", "notakto"])
def test_the_horizon_of_each_small_variant_is_the_oracles_depth_limited_search(variant_id: str) -> None:
    variant, rules = VARIANTS[variant_id], ORACLES[variant_id]
    values = Values(variant, table(variant_id))
    compared = 0
    for first in ["X", "O"] if variant.marks == "own" else ["first"]:
        for cells, mover in rules.reachable(first):
            x = sum(1 << i for i, symbol in enumerate(cells) if symbol == "X")
            o = sum(1 << i for i, symbol in enumerate(cells) if symbol == "O")
            state = State(x, o, {"X": X_MARK, "O": O_MARK, "first": 0, "second": 1}[mover])
            for depth in range(1, variant.cells + 1):
                expected = rules.within(cells, mover, depth)
                found = sorted((move.cell, "XO"[move.mark]) for move in values.within(state, depth))
                assert found == expected, (cells, mover, depth)
                compared += 1
    assert compared == {"standard": 9040, "misere": 9040, "wild": 11093, "notakto": 230}[variant_id] * 9
