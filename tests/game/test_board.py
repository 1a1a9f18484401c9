"""Board parsing, legality and status."""

from __future__ import annotations

import itertools

import pytest

from service.game.board import Board, BoardError, Mark, Position, Status
from tests.support import oracle


@pytest.mark.parametrize(
    "form",
    [
        "X.O...X..",
        "x-o___x  ",
        ["X", None, "O", "", " ", ".", "x", "-", "_"],
        [["X", None, "o"], ["", " ", "."], ["X", "-", "_"]],
    ],
)
def test_three_forms_parse_to_one_canonical_board(form: object) -> None:
    assert Board.parse(form) == Board("X.O...X..")
    assert str(Board.parse(form)) == "X.O...X.."


@pytest.mark.parametrize(
    ("form", "fragment"),
    [
        ("X.O", "exactly 9 characters, one per cell; got 3"),
        ("X.O.......", "got 10"),
        ([None] * 8, "got 8 items"),
        ([[None] * 3, [None] * 3, [None] * 2], "row 2 of the board has 2 cells"),
        (42, "a board is a string of 9 characters"),
        ({"cells": "X........"}, "a board is a string of 9 characters"),
        (None, "a board is a string of 9 characters"),
    ],
)
def test_shape_errors_say_what_is_wrong(form: object, fragment: str) -> None:
    with pytest.raises(BoardError) as error:
        Board.parse(form)
    assert fragment in error.value.message
    assert error.value.field == "board"


def test_unknown_symbols_name_every_cell() -> None:
    with pytest.raises(BoardError) as error:
        Board.parse("XZ..\u0425....")  # Cyrillic Kha looks like X
    assert error.value.code == "board_symbol"
    assert "cell 1 (row 0, column 1) has 'Z'" in error.value.message
    assert "cell 4 (row 1, column 1) has '\u0425' (U+0425)" in error.value.message


def test_array_cells_must_be_strings_or_null() -> None:
    with pytest.raises(BoardError) as error:
        Board.parse([1, None, None, None, None, None, None, None, True])
    assert "cell 0 (row 0, column 0) has a int (1)" in error.value.message
    assert "cell 8 (row 2, column 2) has a bool (True)" in error.value.message


def test_null_is_empty_in_arrays_only() -> None:
    assert Board.parse([None] * 9) == Board.empty()
    with pytest.raises(BoardError):
        Board.parse(["XX"] + [None] * 8)


@pytest.mark.parametrize(
    ("cells", "status", "winner", "lines"),
    [
        (".........", Status.IN_PROGRESS, None, ()),
        ("XXXOO....", Status.X_WON, "X", ((0, 1, 2),)),
        ("XXOXO.O..", Status.O_WON, "O", ((2, 4, 6),)),
        ("XOXXOOOXX", Status.DRAW, None, ()),
        ("XXXXOOXOO", Status.X_WON, "X", ((0, 1, 2), (0, 3, 6))),
    ],
)
def test_status_winner_and_lines(
    cells: str, status: Status, winner: str | None, lines: tuple[tuple[int, int, int], ...]
) -> None:
    board = Board(cells)
    assert board.status is status
    assert board.winner == winner
    assert board.winning_lines() == lines


@pytest.mark.parametrize(
    ("cells", "player", "to_move"),
    [
        (".........", None, "X"),
        (".........", "O", "O"),
        ("X........", None, "O"),
        ("X........", "O", "O"),
        ("O........", None, "X"),
        ("XO.......", None, "X"),
        ("XO.......", "O", "O"),
        ("XXXOO....", None, None),
        ("XXXOO.O..", None, None),  # x = o and X won: O started, X moved last
        ("XOXXOOOXX", None, None),
    ],
)
def test_side_to_move(cells: str, player: Mark | None, to_move: Mark | None) -> None:
    assert Position.resolve(Board(cells), player).to_move == to_move


@pytest.mark.parametrize(
    ("cells", "player", "code", "field"),
    [
        ("XX.......", None, "board_counts", "board"),
        ("OOO.X....", None, "board_counts", "board"),
        ("XXXOO.O..", "X", "player_winner_not_last", "player"),
        ("XXXO.....", None, "board_counts", "board"),
        ("XXXOOOX..", None, "board_two_winners", "board"),
        ("OOOXX.XX.", None, "board_winner_not_last", "board"),
        ("XXXOO.OO.", None, "board_winner_not_last", "board"),
        ("X........", "X", "player_contradicts_counts", "player"),
        ("O........", "O", "player_contradicts_counts", "player"),
    ],
)
def test_illegal_positions_name_the_rule(cells: str, player: Mark | None, code: str, field: str) -> None:
    with pytest.raises(BoardError) as error:
        Position.resolve(Board(cells), player)
    assert error.value.code == code
    assert error.value.field == field


def test_legal_boards_are_exactly_the_reachable_ones() -> None:
    reachable = oracle.reachable()
    legal: dict[str, set[str]] = {}
    for cells in map("".join, itertools.product("XO.", repeat=9)):
        players: tuple[Mark | None, ...] = (None, "X", "O")
        for player in players:
            try:
                position = Position.resolve(Board(cells), player)
            except BoardError:
                continue
            sides = legal.setdefault(cells, set())
            if position.to_move is not None:
                sides.add(position.to_move)
    assert len(legal) == 8533
    assert sum(1 for sides in legal.values() if sides) == 6617
    assert legal == {
        oracle.decode(cells): {"X" if side == 1 else "O" for side in sides}
        for cells, sides in reachable.items()
    }


def test_play_puts_the_mark_and_hands_over_the_turn() -> None:
    position = Position.resolve(Board("XX.OO...."))
    after = position.play(2)
    assert after.board == Board("XXXOO....")
    assert after.to_move is None
    assert after.status is Status.X_WON
    with pytest.raises(ValueError, match="not empty"):
        position.play(0)
    with pytest.raises(ValueError, match="game is over"):
        after.play(5)
