"""The horizon rule (``depth``), on every unfinished position and every depth, against the oracle."""

from __future__ import annotations

from service.game import Board, Mark, Position
from service.game.horizon import DEPTHS, best_cells
from tests.support import oracle

MARK: dict[int, Mark] = {1: "X", -1: "O"}


def positions() -> list[tuple[tuple[int, ...], int]]:
    return sorted((cells, side) for cells, sides in oracle.reachable().items() for side in sides)


def test_best_cells_match_the_oracle_everywhere_at_every_depth() -> None:
    cases = positions()
    assert len(cases) == 9040
    for cells, side in cases:
        position = Position(Board(oracle.decode(cells)), MARK[side])
        for depth in DEPTHS:
            assert list(best_cells(position, depth)) == oracle.horizon_best_moves(cells, side, depth), (
                oracle.decode(cells),
                MARK[side],
                depth,
            )


def test_looking_far_enough_ahead_plays_perfectly() -> None:
    for cells, side in positions():
        plies_left = cells.count(0)
        position = Position(Board(oracle.decode(cells)), MARK[side])
        assert list(best_cells(position, plies_left)) == oracle.optimal_moves(cells, side)


def test_depth_one_takes_a_win_and_depth_two_blocks() -> None:
    win_or_block = Position.resolve(Board("XX.OO...."), "X")
    assert best_cells(win_or_block, 1) == (2,)  # X completes 0-1-2
    must_block = Position.resolve(Board("XX..O...."))  # O to move, X threatens 0-1-2
    assert best_cells(must_block, 1) == (2, 3, 5, 6, 7, 8)  # one ply ahead, every move is a draw
    assert best_cells(must_block, 2) == (2,)
