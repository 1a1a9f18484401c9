"""Tactics and reasons of moves, on every move of every unfinished position, against the oracle."""

from __future__ import annotations

from service.game import Board, Mark
from service.game.tactics import reason, tactics
from tests.support import oracle

MARK: dict[int, Mark] = {1: "X", -1: "O"}


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
        sentence = reason(board, MARK[side], cell, score, plies)
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
        if main is None:
            assert f"cell {cell}" in sentence or f"corner {cell}" in sentence or "center" in sentence, (
                sentence
            )
        if main != "win":
            value = {1: "wins with best play", 0: "draw with best play", -1: "can force a win"}[score]
            assert value in sentence, sentence


def test_reasons_read_well() -> None:
    assert reason(Board("XX.OO...."), "X", 2, 1, 1) == "Completes X's row 0-1-2: X wins."
    assert (
        reason(Board("XX..O...."), "O", 2, 0, 7) == "Blocks X's row 0-1-2; the game is a draw with best play."
    )
    assert reason(Board("........."), "X", 4, 0, 9) == "Takes the center; the game is a draw with best play."
    assert tactics(Board("X...O...."), "X", 8) == ("corner",)
    assert tactics(Board("........X"), "X", 0) == ("threat", "corner")  # its own mark opposite
    assert tactics(Board("........O"), "X", 0) == ("corner", "opposite_corner")
