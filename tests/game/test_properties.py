"""Hypothesis properties of the domain: board forms, and the symmetry of values."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.game.board import Board, Mark, Position
from service.game.solver import SolvedGame, solve
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
GAME: SolvedGame = solve()
POSITIONS = sorted(GAME.analyses, key=lambda key: (key[0], key[1] or ""))

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
        assert str(Board.parse(form)) == cells
    assert Board.parse(str(Board.parse(text))) == Board(cells)


def transform(cells: str, perm: tuple[int, ...]) -> str:
    """The board whose cell i holds what ``cells`` has at ``perm[i]``."""
    return "".join(cells[perm[i]] for i in range(9))


@given(key=st.sampled_from(POSITIONS), perm=st.sampled_from(SYMMETRIES))
@settings(max_examples=600)
def test_symmetric_positions_have_symmetric_values(
    key: tuple[str, Mark | None], perm: tuple[int, ...]
) -> None:
    counts["property examples"] += 1
    cells, to_move = key
    original = GAME.analyses[key]
    image = Position.resolve(Board(transform(cells, perm)), to_move)
    mapped = GAME[image]
    assert (mapped.status, mapped.winner, mapped.score, mapped.plies) == (
        original.status,
        original.winner,
        original.score,
        original.plies,
    )
    where = {perm[i]: i for i in range(9)}  # cell c of the original is cell where[c] of the image
    assert {where[m.cell]: (m.score, m.plies, m.traps) for m in original.moves} == {
        m.cell: (m.score, m.plies, m.traps) for m in mapped.moves
    }
    assert sorted(where[c] for c in original.best_moves) == list(mapped.best_moves)
    assert sorted(sorted(where[c] for c in line) for line in original.winning_lines) == sorted(
        sorted(line) for line in mapped.winning_lines
    )


@pytest.mark.parametrize("perm", SYMMETRIES)
def test_symmetries_preserve_lines(perm: tuple[int, ...]) -> None:
    from service.game.geometry import LINES

    lines = {frozenset(line) for line in LINES}
    assert {frozenset(perm[c] for c in line) for line in lines} == lines
