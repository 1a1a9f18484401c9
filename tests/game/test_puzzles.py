"""Puzzles (:mod:`service.game.puzzles`) and the symmetries of the square, against the coach oracle:
the whole set, field by field, built here by brute force over every reachable position."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import product

from service.game import Board, Mark, Position, SolvedGame, solve
from service.game.geometry import LINES, SYMMETRIES
from service.game.puzzles import THEMES, Puzzle, canonical_form, puzzles
from service.game.tactics import explain
from tests.support import coach_oracle as co
from tests.support import oracle

IDENTITY = tuple(range(9))


@cache
def solved() -> SolvedGame:
    return solve()


@cache
def made() -> tuple[Puzzle, ...]:
    return puzzles(solved())


def compose(p: tuple[int, ...], q: tuple[int, ...]) -> tuple[int, ...]:
    """Transforming by ``p`` then by ``q`` (new cell ``i`` shows old cell ``p[q[i]]``)."""
    return tuple(p[q[i]] for i in range(9))


# --- the symmetries ---------------------------------------------------------------------------------


def test_the_oracles_symmetries_are_the_eight_of_the_square() -> None:
    perms = co.SYMMETRIES
    assert len(set(perms)) == 8
    assert perms[0] == IDENTITY
    lines = {frozenset(line) for line in oracle.WIN_LINES}
    for p in perms:
        assert {frozenset(p[i] for i in line) for line in lines} == lines
        assert p[4] == 4
    assert {compose(p, q) for p, q in product(perms, perms)} == set(perms)
    # a quarter turn clockwise: the top row becomes the right column
    assert co.transform("XO.......", co.SYMMETRIES[1]) == "..X..O..."


def test_the_symmetries_are_a_group_of_eight_distinct_permutations_preserving_lines() -> None:
    assert isinstance(SYMMETRIES, tuple)
    assert len(SYMMETRIES) == 8
    assert len(set(SYMMETRIES)) == 8
    assert SYMMETRIES[0] == IDENTITY
    lines = {frozenset(line) for line in LINES}
    assert len(lines) == 8
    for p in SYMMETRIES:
        assert isinstance(p, tuple)
        assert sorted(p) == list(range(9))
        assert {frozenset(p[i] for i in line) for line in lines} == lines
    group = set(SYMMETRIES)
    assert {compose(p, q) for p, q in product(SYMMETRIES, SYMMETRIES)} == group
    assert all(any(compose(p, q) == IDENTITY for q in SYMMETRIES) for p in SYMMETRIES)
    assert group == set(co.SYMMETRIES)


def test_canonical_form_of_every_legal_board() -> None:
    boards = [oracle.decode(cells) for cells in oracle.reachable()]
    assert len(boards) == 8533
    for board in boards:
        assert canonical_form(board) == co.canonical_form(board), board
    assert canonical_form("X........") == "........X"
    assert canonical_form(".X.......") == ".......X."
    assert canonical_form("....X....") == "....X...."
    assert canonical_form("O.......X") == "..O...X.."


def test_canonical_form_on_boards_of_every_shape() -> None:
    """Not only legal boards: every board of the 3⁹ with at most 4 marks."""
    for cells in product("XO.", repeat=9):
        if cells.count(".") >= 5:
            board = "".join(cells)
            assert canonical_form(board) == co.canonical_form(board), board


# --- the puzzle set ---------------------------------------------------------------------------------


def test_the_oracles_puzzles_are_consistent() -> None:
    """Every puzzle position, in whatever orientation, is its class's puzzle turned: the class is there,
    reachable, and the solution lands on the class's solution."""
    by_id = {puzzle.id: puzzle for puzzle in co.puzzles()}
    assert len(by_id) == len(co.puzzles())
    positions = set(co.positions())
    for cells, side in co.puzzle_positions():
        board = oracle.decode(cells)
        puzzle = by_id[co.canonical_form(board) + co.MARK[side]]
        assert (oracle.encode(puzzle.board), side) in positions
        solution = co.puzzle_solution(cells, side)
        assert solution is not None
        assert co.canonical_cell(board, solution) == puzzle.solution
        assert oracle.value(cells, side) == (1 if puzzle.outcome == "win" else 0, puzzle.plies)
    assert len(co.puzzle_positions()) == 4368
    assert len(co.puzzles()) == 588


def test_themes() -> None:
    assert sorted(THEMES) == sorted(["win", "block", "fork", "threat", "block_fork"])
    assert len(THEMES) == 5


def test_the_whole_set_of_puzzles() -> None:
    game = solved()
    got = made()
    expected = co.puzzles()
    assert isinstance(got, tuple)
    assert len(got) == len(expected) == 588
    for puzzle, mine in zip(got, expected, strict=True):
        assert isinstance(puzzle, Puzzle)
        assert puzzle.id == mine.id
        assert puzzle.board == mine.board
        assert puzzle.player == mine.player
        assert puzzle.solution == mine.solution, mine.id
        assert puzzle.outcome == mine.outcome, mine.id
        assert puzzle.plies == mine.plies, mine.id
        assert puzzle.themes == mine.themes, mine.id
        assert puzzle.solve_rates == mine.solve_rates, mine.id
        assert list(puzzle.solve_rates) == list(co.NAMES)
        assert all(type(rate) is Fraction for rate in puzzle.solve_rates.values())
        assert puzzle.rating == mine.rating, mine.id
        score = 1 if mine.outcome == "win" else 0
        player: Mark = "X" if mine.player == "X" else "O"
        assert game[Position(Board(mine.board), player)].score == score  # a position the game knows
        assert puzzle.reason == explain(Board(mine.board), player, mine.solution, score, mine.plies)[1]


def test_puzzles_are_in_order_of_rating_then_id() -> None:
    got = made()
    keys = [(puzzle.rating, puzzle.id) for puzzle in got]
    assert keys == sorted(keys)
    assert len(set(keys)) == len(keys)


def test_every_symmetry_class_once_and_every_id_canonical() -> None:
    got = made()
    ids = [puzzle.id for puzzle in got]
    assert len(set(ids)) == len(ids)
    for puzzle in got:
        assert puzzle.id == puzzle.board + puzzle.player
        assert len(puzzle.board) == 9
        assert canonical_form(puzzle.board) == puzzle.board == co.canonical_form(puzzle.board)
    classes = Counter(
        co.canonical_form(oracle.decode(cells)) + co.MARK[side] for cells, side in co.puzzle_positions()
    )
    assert set(ids) == set(classes)
    assert sum(classes.values()) == 4368


def test_the_spread_of_the_set() -> None:
    """What the oracle's set holds, so that a wrong oracle cannot pass unnoticed either."""
    got = made()
    assert Counter(puzzle.rating for puzzle in got) == Counter(puzzle.rating for puzzle in co.puzzles())
    assert {puzzle.rating for puzzle in co.puzzles()} == set(co.RATINGS.values()) - {316}
    assert Counter(puzzle.outcome for puzzle in co.puzzles()) == {"win": 418, "draw": 170}
    assert {theme for puzzle in co.puzzles() for theme in puzzle.themes} == set(THEMES)
