"""Hypothesis properties of the standard game: board forms, and the symmetry of values.

Boards are read by the standard variant (:meth:`Variant.parse`, :meth:`Variant.board`,
:meth:`Variant.resolve`), values are the engine's (:class:`Values`, from the shipped table and solved
from scratch), and each image of a position under a symmetry of the square is compared with what
:mod:`tests.support.oracle` gives the original: its status, lines, value and moves, mapped.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.game import STANDARD, BoardError, Values
from service.game.tables import table
from tests.support import oracle
from tests.support.stats import counts

MARK_SPELLINGS = {"X": ["X", "x"], "O": ["O", "o"], ".": [".", "-", "_", " "]}
ARRAY_EMPTY = [None, "", " ", ".", "-", "_"]

# The 8 symmetries of the square, as permutations: cell i goes to cell perm[i].
ROTATE = (6, 3, 0, 7, 4, 1, 8, 5, 2)  # the cell now at i came from ROTATE[i]
IDENTITY = tuple(range(9))


def compose(first: tuple[int, ...], second: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(first[second[i]] for i in range(9))


def symmetries() -> list[tuple[int, ...]]:
    mirror = (2, 1, 0, 5, 4, 3, 8, 7, 6)
    result = []
    turn = IDENTITY
    for _ in range(4):
        result += [turn, compose(turn, mirror)]
        turn = compose(turn, ROTATE)
    assert len(set(result)) == 8
    return result


SYMMETRIES = symmetries()


def positions() -> list[tuple[str, int | None]]:
    """Every board a game reaches, with each side that can be to move on it (``None`` once it is
    finished)."""
    found: list[tuple[str, int | None]] = []
    for cells, sides in sorted(oracle.reachable().items()):
        movers: list[int | None] = [*sorted(sides)] or [None]
        found += [(oracle.decode(cells), side) for side in movers]
    return found


POSITIONS = positions()
#: The engine's values as the service reads them, and solved anew.
SOURCES = [Values(STANDARD, table("standard")), Values(STANDARD)]

canonical_cells = st.lists(st.sampled_from("XO."), min_size=9, max_size=9).map("".join)


@given(cells=canonical_cells, data=st.data())
@settings(max_examples=400)
def test_every_form_round_trips_to_the_canonical_string(cells: str, data: st.DataObject) -> None:
    counts["property examples"] += 1
    text = "".join(data.draw(st.sampled_from(MARK_SPELLINGS[c])) for c in cells)
    array = [
        data.draw(st.sampled_from(ARRAY_EMPTY)) if c == "." else data.draw(st.sampled_from(MARK_SPELLINGS[c]))
        for c in cells
    ]
    rows = [array[0:3], array[3:6], array[6:9]]
    for form in (text, array, rows, cells):
        assert STANDARD.parse(form) == cells
    assert STANDARD.parse(STANDARD.parse(text)) == cells
    # Read with its rules, a form is the legal board of its cells, or refused as they are.
    try:
        STANDARD.resolve(cells)
    except BoardError as error:
        for form in (text, array, rows):
            with pytest.raises(BoardError) as found:
                STANDARD.board(form)
            assert (found.value.code, found.value.message) == (error.code, error.message)
    else:
        assert {STANDARD.board(form).cells for form in (text, array, rows)} == {cells}


def transform(cells: str, perm: tuple[int, ...]) -> str:
    """The board whose cell i holds what ``cells`` has at ``perm[i]``."""
    return "".join(cells[perm[i]] for i in range(9))


def status(board: tuple[int, ...]) -> str:
    """The contract's status of an oracle board."""
    if oracle.has_line(board, 1):
        return "x_won"
    if oracle.has_line(board, -1):
        return "o_won"
    return "in_progress" if 0 in board else "draw"


@given(
    key=st.sampled_from(POSITIONS),
    perm=st.sampled_from(SYMMETRIES),
    values=st.sampled_from(SOURCES),
)
@settings(max_examples=600)
def test_symmetric_positions_have_symmetric_values(
    key: tuple[str, int | None], perm: tuple[int, ...], values: Values
) -> None:
    counts["property examples"] += 1
    cells, side = key
    board = oracle.encode(cells)
    player = None if side is None else "X" if side == 1 else "O"
    image = STANDARD.resolve(transform(cells, perm), player)
    assert (image.player, image.status) == (player, status(board))
    where = {perm[i]: i for i in range(9)}  # cell c of the original is cell where[c] of the image
    lines = [line for line in oracle.WIN_LINES if board[line[0]] != 0 and len({board[c] for c in line}) == 1]
    assert sorted(sorted(where[c] for c in line) for line in lines) == sorted(
        sorted(line) for line in image.winning_lines
    )
    if side is None:
        return
    assert values.value(image.state) == oracle.value(board, side)
    assert {m.cell: (m.score, m.plies, m.traps) for m in values.ranked(image.state)} == {
        where[cell]: (score, plies, oracle.traps(board, side, cell))
        for cell, score, plies in oracle.move_values(board, side)
    }
    optimal = [m.cell for m in values.ranked(image.state) if (m.score, m.plies) == oracle.value(board, side)]
    assert sorted(optimal) == sorted(where[c] for c in oracle.optimal_moves(board, side))


def test_the_sampled_positions_are_every_position_a_game_reaches() -> None:
    # 9,040 unfinished positions, and 1,916 finished boards (8,533 boards, 6,617 of them unfinished).
    assert len(POSITIONS) == len(set(POSITIONS)) == 9040 + 8533 - 6617
    assert sum(1 for _, side in POSITIONS if side is None) == 8533 - 6617


@pytest.mark.parametrize("perm", SYMMETRIES)
def test_symmetries_preserve_lines(perm: tuple[int, ...]) -> None:
    lines = {frozenset(line) for line in STANDARD.grid.lines}
    assert len(lines) == 8
    assert {frozenset(perm[c] for c in line) for line in lines} == lines
