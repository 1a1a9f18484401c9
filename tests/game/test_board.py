"""The standard game's boards: reading every form, legality, the side to move and the status.

Everything goes through the standard variant, as every request's board does: :meth:`Variant.parse`
(the canonical cells of any form), :meth:`Variant.board` (read and checked by the rules a board alone
can break) and :meth:`Variant.resolve` (the side to move, the status and the lines). The rules are
checked against :mod:`tests.support.oracle` (the boards real games reach) and against the rules
written again below from the contract (which rule a board or player breaks, in which words).
"""

from __future__ import annotations

import itertools

import pytest

from service.game import STANDARD, BoardError
from service.game.exact import Values
from service.game.review import IllegalMove, review_game
from service.game.tables import table
from service.game.variants import O_MARK, X_MARK, Move, State
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
    assert STANDARD.parse(form) == "X.O...X.."
    board = STANDARD.board(form)
    assert (board.variant, board.cells) == (STANDARD, "X.O...X..")


@pytest.mark.parametrize(
    ("form", "code", "fragment"),
    [
        ("X.O", "board_length", "exactly 9 characters, one per cell; got 3"),
        ("X.O.......", "board_length", "got 10"),
        ([None] * 8, "board_length", "got 8 items"),
        ([[None] * 3, [None] * 3, [None] * 2], "board_length", "row 2 of the board has 2 cells"),
        (42, "board_type", "a board is a string of 9 characters"),
        ({"cells": "X........"}, "board_type", "a board is a string of 9 characters"),
        (None, "board_type", "a board is a string of 9 characters"),
    ],
)
def test_shape_errors_say_what_is_wrong(form: object, code: str, fragment: str) -> None:
    for read in (STANDARD.parse, STANDARD.board):
        with pytest.raises(BoardError) as error:
            read(form)
        assert fragment in error.value.message
        assert (error.value.code, error.value.field) == (code, "board")


def test_unknown_symbols_name_every_cell() -> None:
    with pytest.raises(BoardError) as error:
        STANDARD.board("XZ..\u0425....")  # Cyrillic Kha looks like X
    assert error.value.code == "board_symbol"
    assert "cell 1 (row 0, column 1) has 'Z'" in error.value.message
    assert "cell 4 (row 1, column 1) has '\u0425' (U+0425)" in error.value.message


def test_array_cells_must_be_strings_or_null() -> None:
    with pytest.raises(BoardError) as error:
        STANDARD.parse([1, None, None, None, None, None, None, None, True])
    assert error.value.code == "board_symbol"
    assert "cell 0 (row 0, column 0) has a int (1)" in error.value.message
    assert "cell 8 (row 2, column 2) has a bool (True)" in error.value.message


def test_null_is_empty_in_arrays_only() -> None:
    assert STANDARD.parse([None] * 9) == "." * 9
    assert STANDARD.board([None] * 9).cells == "." * 9
    with pytest.raises(BoardError):
        STANDARD.parse(["XX"] + [None] * 8)


def test_a_board_read_alone_is_checked_by_the_rules_a_board_breaks() -> None:
    """:meth:`Variant.board` refuses an illegal board as its resolution with no player does; reading
    the cells alone (:meth:`Variant.parse`) does not judge them."""
    assert STANDARD.parse("XX.......") == "XX......."
    with pytest.raises(BoardError) as error:
        STANDARD.board("xx.......")
    assert (error.value.code, error.value.field) == ("board_counts", "board")


@pytest.mark.parametrize(
    ("cells", "status", "lines"),
    [
        (".........", "in_progress", ()),
        ("XXXOO....", "x_won", ((0, 1, 2),)),
        ("XXOXO.O..", "o_won", ((2, 4, 6),)),
        ("XOXXOOOXX", "draw", ()),
        ("XXXXOOXOO", "x_won", ((0, 1, 2), (0, 3, 6))),
        ("XXXOO.O..", "x_won", ((0, 1, 2),)),  # x = o and X won: O started, X moved last
    ],
)
def test_status_and_lines(cells: str, status: str, lines: tuple[tuple[int, int, int], ...]) -> None:
    position = STANDARD.resolve(cells)
    assert position.status == status
    assert position.winning_lines == lines
    assert (position.player is None) == (status != "in_progress")


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
def test_side_to_move(cells: str, player: str | None, to_move: str | None) -> None:
    position = STANDARD.resolve(cells, player)
    assert position.player == to_move
    if to_move is not None:
        assert position.state.mover == (X_MARK if to_move == "X" else O_MARK)


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
        (".........", "first", "player_unknown", "player"),
    ],
)
def test_illegal_positions_name_the_rule(cells: str, player: str | None, code: str, field: str) -> None:
    with pytest.raises(BoardError) as error:
        STANDARD.resolve(cells, player)
    assert error.value.code == code
    assert error.value.field == field


def refusal(cells: str, player: str | None) -> tuple[str, str, str] | None:
    """The rule that ``cells`` with ``player`` to move breaks, as ``(code, field, message)``, written
    again from the contract: the counts of X and O differ by at most one, at most one side has three in
    a row and that side moved last, and a player agrees with the counts and did not make the line."""
    x, o = cells.count("X"), cells.count("O")
    if abs(x - o) > 1:
        return (
            "board_counts",
            "board",
            f"the board has {x} X and {o} O; the sides alternate, so the counts differ by at most one",
        )
    board = oracle.encode(cells)
    x_line, o_line = oracle.has_line(board, 1), oracle.has_line(board, -1)
    if x_line and o_line:
        return (
            "board_two_winners",
            "board",
            "both X and O have three in a row; the game ends at the first line",
        )
    winner, loser = ("X", "O") if x_line else ("O", "X") if o_line else (None, None)
    if winner is not None and loser is not None and cells.count(winner) < cells.count(loser):
        return (
            "board_winner_not_last",
            "board",
            f"{winner} has three in a row but {loser} has more marks, so {loser} moved after the game "
            "was over",
        )
    if player is None:
        return None
    if x != o and player != ("O" if x > o else "X"):
        to_move = "O" if x > o else "X"
        return (
            "player_contradicts_counts",
            "player",
            f"the board has {x} X and {o} O, so {to_move} is to move, not {player}",
        )
    if player == winner:
        return (
            "player_winner_not_last",
            "player",
            f"{winner} has three in a row, so {winner} moved last and cannot be the player to move",
        )
    return None


def test_every_board_with_every_player_resolves_by_the_rules() -> None:
    """Every string of X, O and . with no player, X and O: refused exactly when the rules say, with
    their code, field and words; otherwise the side to move, the status and the lines the rules give."""
    refused = resolved = 0
    for cells in map("".join, itertools.product("XO.", repeat=9)):
        board = oracle.encode(cells)
        for player in (None, "X", "O"):
            expected = refusal(cells, player)
            if expected is not None:
                with pytest.raises(BoardError) as error:
                    STANDARD.resolve(cells, player)
                assert (error.value.code, error.value.field, error.value.message) == expected, (cells, player)
                refused += 1
                continue
            position = STANDARD.resolve(cells, player)
            x, o = cells.count("X"), cells.count("O")
            if oracle.has_line(board, 1):
                status = "x_won"
            elif oracle.has_line(board, -1):
                status = "o_won"
            else:
                status = "in_progress" if "." in cells else "draw"
            to_move = None if status != "in_progress" else "O" if x > o else "X" if o > x else player or "X"
            lines = tuple(
                line
                for line in oracle.WIN_LINES
                if board[line[0]] != 0 and len({board[c] for c in line}) == 1
            )
            assert (position.cells, position.player, position.status, position.winning_lines) == (
                cells,
                to_move,
                status,
                lines,
            ), (cells, player)
            resolved += 1
    assert refused + resolved == 3**9 * 3
    assert resolved > 8533


def test_legal_boards_are_exactly_the_reachable_ones() -> None:
    reachable = oracle.reachable()
    legal: dict[str, set[str]] = {}
    for cells in map("".join, itertools.product("XO.", repeat=9)):
        for player in (None, "X", "O"):
            try:
                position = STANDARD.resolve(cells, player)
            except BoardError:
                continue
            sides = legal.setdefault(cells, set())
            if position.player is not None:
                sides.add(position.player)
    assert len(legal) == 8533
    assert sum(1 for sides in legal.values() if sides) == 6617
    assert legal == {
        oracle.decode(cells): {"X" if side == 1 else "O" for side in sides}
        for cells, sides in reachable.items()
    }


def test_play_puts_the_mark_and_hands_over_the_turn() -> None:
    position = STANDARD.resolve("XX.OO....")
    assert position.player == "X"
    after, ended = STANDARD.play(position.state, Move(2, X_MARK))
    assert ended == 1  # the mover wins
    assert after == State(0b111, 0b11000, O_MARK)
    finished = STANDARD.resolve("XXXOO....")
    assert (finished.state.x, finished.state.o) == (after.x, after.o)
    assert (finished.player, finished.status) == (None, "x_won")
    going_on, ended = STANDARD.play(position.state, Move(5, X_MARK))
    assert ended is None
    assert going_on == State(0b100011, 0b11000, O_MARK) == STANDARD.resolve("XX.OOX...").state


def test_a_move_on_a_taken_cell_or_after_the_end_is_refused() -> None:
    """The rules' refusals of a move, as a game's review applies them to the moves it is given."""
    values = Values(STANDARD, table("standard"))
    start = STANDARD.resolve("XX.OO....")
    with pytest.raises(IllegalMove, match="cell 0 is taken") as taken:
        review_game(values, start, [0])
    assert taken.value.index == 0
    with pytest.raises(IllegalMove, match="the game is over") as over:
        review_game(values, start, [2, 5])
    assert over.value.index == 1
