"""Tactics and reasons of moves, on every move of every unfinished position, against the oracle."""

from __future__ import annotations

from service.game import Board, Mark
from service.game.tactics import explain, tactics
from tests.support import oracle

MARK: dict[int, Mark] = {1: "X", -1: "O"}


def said(board: Board, mover: Mark, cell: int, score: int, plies: int) -> str:
    """The sentence that explains a move."""
    return explain(board, mover, cell, score, plies)[1]


#: Cells and lines as a person names them, written here apart from the code under test.
CELL_NAMES = [
    f"the {where}" for where in (
        "top-left corner", "top edge", "top-right corner",
        "left edge", "center", "right edge",
        "bottom-left corner", "bottom edge", "bottom-right corner",
    )
]  # fmt: skip
LINE_NAMES = {
    (0, 1, 2): "top row",
    (3, 4, 5): "middle row",
    (6, 7, 8): "bottom row",
    (0, 3, 6): "left column",
    (1, 4, 7): "middle column",
    (2, 5, 8): "right column",
    (0, 4, 8): "diagonal from the top-left",
    (2, 4, 6): "diagonal from the top-right",
}


def moves() -> list[tuple[tuple[int, ...], int, int]]:
    return [
        (cells, side, cell)
        for cells, sides in sorted(oracle.reachable().items())
        for side in sorted(sides)
        for cell in range(9)
        if cells[cell] == 0
    ]


def test_tactics_match_the_oracle_on_every_move() -> None:
    every = moves()
    assert len({(cells, side) for cells, side, _ in every}) == 9040
    for cells, side, cell in every:
        got = list(tactics(Board(oracle.decode(cells)), MARK[side], cell))
        assert got == oracle.tactics(cells, side, cell), (oracle.decode(cells), MARK[side], cell)


def test_every_reason_names_the_main_tactic_its_cells_and_the_value() -> None:
    for cells, side, cell in moves():
        board = Board(oracle.decode(cells))
        score, plies = next((s, p) for i, s, p in oracle.move_values(cells, side) if i == cell)
        sentence = said(board, MARK[side], cell, score, plies)
        tags = oracle.tactics(cells, side, cell)
        main = next((tag for tag in ("win", "block", "fork", "block_fork", "threat") if tag in tags), None)
        words = {
            "win": "wins",
            "block": "Blocks",
            "fork": "Forks",
            "block_fork": "fork",
            "threat": "Threatens",
        }
        assert sentence.endswith("."), sentence
        assert main is None or words[main] in sentence, (sentence, tags)
        after = cells[:cell] + (side,) + cells[cell + 1 :]
        if main == "win":
            won = [line for line, name in LINE_NAMES.items() if all(after[c] == side for c in line)]
            assert any(f"{MARK[side]}'s {LINE_NAMES[line]}" in sentence for line in won), sentence
        if main == "block":
            blocked = [
                line
                for line in LINE_NAMES
                if cell in line and all(cells[c] == -side for c in line if c != cell)
            ]
            assert any(f"{MARK[-side]}'s {LINE_NAMES[line]}" in sentence for line in blocked), sentence
        if main == "fork":
            assert all(CELL_NAMES[c] in sentence for c in oracle.completing(after, side)), sentence
        if main is None:
            assert CELL_NAMES[cell] in sentence, sentence
        action = sentence.split(";")[0]
        assert not any(digit in action for digit in "0123456789"), sentence  # named, never numbered
        if main != "win":
            value = {1: "wins with best play", 0: "draw with best play", -1: "can force a win"}[score]
            assert value in sentence, sentence


def test_reasons_read_well() -> None:
    assert said(Board("XX.OO...."), "X", 2, 1, 1) == "Completes X's top row: X wins."
    assert said(Board("XX..O...."), "O", 2, 0, 7) == "Blocks X's top row; the game is a draw with best play."
    assert said(Board("X.O.O.X.."), "X", 3, 1, 1) == "Completes X's left column: X wins."
    assert said(Board("O...X...."), "X", 8, 0, 7) == (
        "Takes the bottom-right corner, opposite O's mark in the top-left corner; "
        "the game is a draw with best play."
    )
    assert said(Board("........."), "X", 1, 0, 9) == "Takes the top edge; the game is a draw with best play."
    assert said(Board("X...O.O.X"), "X", 2, 0, 3).startswith("Blocks O's diagonal from the top-right")
    assert said(Board("........."), "X", 4, 0, 9) == "Takes the center; the game is a draw with best play."
    assert tactics(Board("X...O...."), "X", 8) == ("corner",)
    assert tactics(Board("........X"), "X", 0) == ("threat", "corner")  # its own mark opposite
    assert tactics(Board("........O"), "X", 0) == ("corner", "opposite_corner")
