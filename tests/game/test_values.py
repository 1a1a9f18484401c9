"""Exact values and the move order of every variant, against oracles that share nothing with ``service``.

* the standard game, position by position, against :mod:`tests.support.oracle` (a brute-force minimax
  of the standard game): every unfinished position a game reaches, either side starting, with its
  value, its ranked moves (value, traps, the contract's order), its mistakes, the engine's move and the
  principal variation; from the shipped table and solved from scratch without it;
* every variant against :mod:`tests.support.variant_oracle` (a textbook negamax over board strings,
  written from the contract's table of variants): every position a game of ``standard``, ``misere``,
  ``wild``, ``notakto`` and ``notakto-2`` reaches, with its value (from the shipped table and solved
  from scratch) and legal moves; the ranked moves of every position of the variants on one 3 × 3
  board; ``notakto-3`` (tens of millions of positions) on the later positions of random games; each
  start against the contract's facts.

The horizon (:meth:`Values.within`) is checked in ``test_horizon.py``, the 4 × 4 variants in
``test_variants_4x4.py``.
"""

from __future__ import annotations

import random

import pytest

from service.game import STANDARD, VARIANTS, Values, Variant
from service.game.tables import table
from service.game.variants import O_MARK, X_MARK, State, reach
from tests.support import oracle
from tests.support.variant_oracle import VARIANTS as ORACLES

#: The contract's facts: the start's value for the first side, by variant.
STARTS = {
    "standard": (0, 9),
    "misere": (0, 9),
    "wild": (1, 7),
    "notakto": (1, 6),
    "notakto-2": (-1, 11),
    "notakto-3": (1, 14),
    "4x4": (0, 16),
    "4x4-3": (1, 5),
}
#: Unfinished positions (a board and its side to move) that games reach, either side starting where that
#: applies, as the oracle's walk finds them.
REACHED = {"standard": 9040, "misere": 9040, "wild": 11093, "notakto": 230, "notakto-2": 154100}
#: Marks from which ``notakto-3``'s positions in random games are checked: the oracle, with no
#: symmetries, solves what follows them in seconds.
LATE = 12


def order(score: int, plies: int, traps: int, cell: int, mark: int = X_MARK) -> tuple[int, ...]:
    """The contract's move order as a key, best first: the score, the fastest win or slowest loss (draws
    tie whatever their length), the most traps, the lowest cell, X before O."""
    return (-score, plies if score > 0 else -plies if score < 0 else 0, -traps, cell, mark)


# --- the standard game, against the brute-force minimax of tests.support.oracle ------------------------


def standard_state(cells: tuple[int, ...], side: int) -> State:
    """The engine's state of an oracle board (1 for X, -1 for O) with ``side`` to move."""
    x = sum(1 << i for i, mark in enumerate(cells) if mark == 1)
    o = sum(1 << i for i, mark in enumerate(cells) if mark == -1)
    return State(x, o, X_MARK if side == 1 else O_MARK)


def standard_positions() -> list[tuple[tuple[int, ...], int]]:
    """Every unfinished ``(board, side to move)`` of the standard game, either side starting."""
    return sorted((cells, side) for cells, sides in oracle.reachable().items() for side in sides)


@pytest.fixture(scope="module", params=["shipped table", "from scratch"])
def standard(request: pytest.FixtureRequest) -> Values:
    """The standard game's values as the service reads them (its shipped table), and solved anew."""
    return Values(STANDARD, table("standard")) if request.param == "shipped table" else Values(STANDARD)


def test_the_standard_games_reach_is_the_oracles() -> None:
    reachable = oracle.reachable()
    found = reach("standard")
    assert found.boards == len(reachable) == 8533
    assert len(found.unfinished) == len(set(found.unfinished)) == 9040
    assert set(found.unfinished) == {standard_state(cells, side) for cells, side in standard_positions()}
    assert len({(state.x, state.o) for state in found.unfinished}) == 6617
    assert sum(1 for sides in reachable.values() if not sides) == 8533 - 6617


def test_every_standard_position_has_the_oracles_values_and_move_order(standard: Values) -> None:
    checked = 0
    for cells, side in standard_positions():
        state = standard_state(cells, side)
        where = (oracle.decode(cells), side)
        assert standard.value(state) == oracle.value(cells, side), where
        moves = oracle.move_values(cells, side)
        expected = sorted(
            ((cell, score, plies, oracle.traps(cells, side, cell)) for cell, score, plies in moves),
            key=lambda m: order(m[1], m[2], m[3], m[0]),
        )
        ranked = standard.ranked(state)
        assert [(m.cell, m.score, m.plies, m.traps) for m in ranked] == expected, where
        assert {m.mark for m in ranked} == {state.mover}, where
        best = oracle.value(cells, side)[0]
        assert standard.mistakes(state) == sum(1 for _, score, _ in moves if score < best), where
        optimal = [m.cell for m in ranked if (m.score, m.plies) == oracle.value(cells, side)]
        assert sorted(optimal) == oracle.optimal_moves(cells, side), where
        assert ranked[0].cell == oracle.choose(cells, side), where
        assert [m.cell for m in standard.variation(state)] == oracle.principal_variation(cells, side), where
        checked += 1
    assert checked == 9040


@pytest.mark.parametrize(
    ("cells", "player", "score", "plies", "choice"),
    [
        (".........", "X", 0, 9, 0),  # a corner sets the most traps
        (".........", "O", 0, 9, 0),
        ("X........", "O", 0, 8, 4),  # only the centre holds the draw
        ("XX.OO....", "X", 1, 1, 2),  # win now
        ("XX.OO....", "O", 1, 1, 5),  # O to move (O started) wins first
        ("X.O...X..", "O", -1, 4, 3),  # lost: block and delay
    ],
)
def test_known_positions(
    standard: Values, cells: str, player: str, score: int, plies: int, choice: int
) -> None:
    state = STANDARD.resolve(cells, player).state
    assert standard.value(state) == (score, plies)
    assert standard.ranked(state)[0].cell == choice


def test_winner_prefers_the_fastest_win(standard: Values) -> None:
    # X can win at once on 2, or set up a fork; the immediate win must come first.
    first = standard.ranked(STANDARD.resolve("XX.O.O...", "X").state)[0]
    assert (first.cell, first.score, first.plies) == (2, 1, 1)


# --- every variant, against the textbook negamax of tests.support.variant_oracle ----------------------


def state_of(variant: Variant, cells: str, mover: str) -> State:
    """The service's state of a board string and side to move, as the oracle writes them."""
    x = sum(1 << i for i, symbol in enumerate(cells) if symbol == "X")
    o = sum(1 << i for i, symbol in enumerate(cells) if symbol == "O")
    side = {"X": X_MARK, "O": O_MARK, "first": 0, "second": 1}[mover]
    return State(x, o, side)


def shipped(variant: Variant) -> Values:
    """The values the service gives: from the variant's shipped table."""
    return Values(variant, table(variant.id))


def firsts(variant: Variant) -> list[str]:
    return ["X", "O"] if variant.marks == "own" else ["first"]


@pytest.mark.parametrize("variant_id", list(STARTS))
def test_the_start_has_the_contracts_value(variant_id: str) -> None:
    variant = VARIANTS[variant_id]
    assert shipped(variant).value(variant.start()) == STARTS[variant_id]


@pytest.mark.parametrize("variant_id", list(REACHED))
def test_every_reachable_position_has_the_oracles_value(variant_id: str) -> None:
    """From the shipped table, as the service reads it, and solved anew, as the table was made."""
    variant, oracle_of = VARIANTS[variant_id], ORACLES[variant_id]
    table_values, scratch = shipped(variant), Values(variant)
    checked = 0
    for first in firsts(variant):
        for cells, mover in oracle_of.reachable(first):
            state = state_of(variant, cells, mover)
            expected = oracle_of.value(cells, mover)
            assert table_values.value(state) == scratch.value(state) == expected, (cells, mover)
            moves = [(move.cell, "XO"[move.mark]) for move in variant.moves(state)]
            assert moves == sorted(oracle_of.moves(cells, mover), key=lambda m: (m[0], m[1] == "O"))
            checked += 1
    assert checked == REACHED[variant_id]


def test_notakto_on_three_boards_agrees_with_the_oracle_late_in_random_games() -> None:
    variant, oracle_of = VARIANTS["notakto-3"], ORACLES["notakto-3"]
    values = shipped(variant)
    rng = random.Random(3)
    checked = 0
    for _ in range(300):
        cells, mover = oracle_of.start(), "first"
        while True:
            moves = list(oracle_of.moves(cells, mover))
            played, ended = oracle_of.after(cells, rng.choice(moves))
            if ended is not None:
                break
            cells, mover = played, oracle_of.other(mover)
            if cells.count("X") >= LATE:
                assert values.value(state_of(variant, cells, mover)) == oracle_of.value(cells, mover), cells
                checked += 1
    assert checked >= 500


@pytest.mark.parametrize("variant_id", ["standard", "misere", "wild", "notakto"])
def test_every_reachable_positions_moves_are_ranked_by_the_oracles_values(variant_id: str) -> None:
    variant, oracle_of = VARIANTS[variant_id], ORACLES[variant_id]
    values = shipped(variant)
    checked = 0
    for first in firsts(variant):
        for cells, mover in oracle_of.reachable(first):
            ranked = values.ranked(state_of(variant, cells, mover))
            for move in ranked:
                played, ended = oracle_of.after(cells, (move.cell, "XO"[move.mark]))
                if ended is not None:
                    assert (move.score, move.plies, move.traps) == (ended, 1, 0), (cells, move)
                else:
                    score, plies = oracle_of.value(played, oracle_of.other(mover))
                    traps = oracle_of.traps(played, oracle_of.other(mover))
                    assert (move.score, move.plies, move.traps) == (-score, plies + 1, traps), (cells, move)
            keys = [order(m.score, m.plies, m.traps, m.cell, m.mark) for m in ranked]
            assert keys == sorted(keys)
            assert len(ranked) == len(list(oracle_of.moves(cells, mover)))
            checked += 1
    assert checked == REACHED[variant_id]
