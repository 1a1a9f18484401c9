"""The solved table, checked position by position against the independent oracle."""

from __future__ import annotations

import pytest

from service.game.board import Board, Mark, Position, Status
from service.game.solver import SolvedGame, rank, solve
from tests.support import oracle


@pytest.fixture(scope="module")
def game() -> SolvedGame:
    return solve()


def side(mark: str) -> int:
    return 1 if mark == "X" else -1


def test_table_sizes(game: SolvedGame) -> None:
    reachable = oracle.reachable()
    assert game.boards == len(reachable) == 8533
    unfinished = [a for a in game if a.status is Status.IN_PROGRESS]
    assert len({a.position.board.cells for a in unfinished}) == 6617
    assert game.positions == sum(max(1, len(sides)) for sides in reachable.values())


def test_every_position_matches_the_oracle(game: SolvedGame) -> None:
    checked = 0
    for analysis in game:
        cells = oracle.encode(analysis.position.board.cells)
        if analysis.position.to_move is None:
            assert oracle.finished(cells)
            assert analysis.moves == () and analysis.score is None and analysis.plies is None
            continue
        mover = side(analysis.position.to_move)
        assert (analysis.score, analysis.plies) == oracle.value(cells, mover)
        expected_moves = {cell: (score, plies) for cell, score, plies in oracle.move_values(cells, mover)}
        assert {m.cell: (m.score, m.plies) for m in analysis.moves} == expected_moves
        assert {m.cell: m.traps for m in analysis.moves} == {
            cell: oracle.traps(cells, mover, cell) for cell in expected_moves
        }
        assert list(analysis.best_moves) == oracle.optimal_moves(cells, mover)
        assert analysis.choice is not None
        assert analysis.choice.cell == oracle.choose(cells, mover)
        assert list(analysis.principal_variation) == oracle.principal_variation(cells, mover)
        checked += 1
    assert checked == game.positions - sum(1 for a in game if a.position.to_move is None)
    assert checked > 9000


def test_moves_are_ordered_best_first(game: SolvedGame) -> None:
    for analysis in game:
        keys = [(*rank(move.score, move.plies), -move.traps, move.cell) for move in analysis.moves]
        assert keys == sorted(keys)


@pytest.mark.parametrize(
    ("cells", "to_move", "score", "plies", "choice"),
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
    game: SolvedGame, cells: str, to_move: Mark, score: int, plies: int, choice: int
) -> None:
    analysis = game[Position(Board(cells), to_move)]
    assert (analysis.score, analysis.plies) == (score, plies)
    assert analysis.choice is not None and analysis.choice.cell == choice


def test_winner_prefers_the_fastest_win(game: SolvedGame) -> None:
    # X can win at once on 2, or set up a fork; the immediate win must come first.
    analysis = game[Position(Board("XX.O.O..."), "X")]
    assert analysis.choice is not None
    assert (analysis.choice.cell, analysis.choice.plies) == (2, 1)


def test_finished_boards_have_status_and_lines(game: SolvedGame) -> None:
    analysis = game[Position(Board("XXXOO.O.."), None)]
    assert analysis.status is Status.X_WON
    assert analysis.winner == "X"
    assert analysis.winning_lines == ((0, 1, 2),)
    assert analysis.moves == () and analysis.principal_variation == ()
