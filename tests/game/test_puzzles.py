"""Puzzles (:mod:`service.game.puzzles`) and the symmetries of the square, against the independent oracles.

The standard game's book, the one the service serves, is checked field by field against the coach
oracle, which builds it by brute force over every reachable position; its reasons against sentences
written here from the oracle's tactics. The book of any other small single-board variant is checked
against one built here over the variant oracle's positions, values, horizons and tactics.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import combinations, product

import pytest

from service.game import STANDARD, VARIANTS, Values
from service.game.levels import LADDERS, Ladder
from service.game.puzzles import SOLVED, THEMES, Puzzle, canonical_form, cells_of, puzzles
from service.game.tables import table
from service.game.variants import O_MARK, X_MARK, State
from tests.support import coach_oracle as co
from tests.support import oracle
from tests.support import tactics_oracle as to
from tests.support import variant_review_oracle as vro
from tests.support.sentences import standard_sentence
from tests.support.variant_oracle import VARIANTS as ORACLES
from tests.support.variant_oracle import Rules

IDENTITY = tuple(range(9))
#: How the books are made: from the shipped table, as the service does, or solved from scratch.
SOLVED_BY = ("shipped", "from scratch")


@cache
def made(solved_by: str = "shipped") -> tuple[Puzzle, ...]:
    """The standard game's book, as the service makes it (or from values solved from scratch)."""
    values = Values(STANDARD, table("standard") if solved_by == "shipped" else None)
    return puzzles(values, LADDERS["standard"])


def compose(p: tuple[int, ...], q: tuple[int, ...]) -> tuple[int, ...]:
    """Transforming by ``p`` then by ``q`` (new cell ``i`` shows old cell ``p[q[i]]``)."""
    return tuple(p[q[i]] for i in range(len(p)))


def state_of(cells: tuple[int, ...], side: int) -> State:
    """The engine's state of an oracle's board (``1`` X, ``-1`` O) with ``side`` to move."""
    x = sum(1 << i for i, mark in enumerate(cells) if mark == 1)
    o = sum(1 << i for i, mark in enumerate(cells) if mark == -1)
    return State(x, o, X_MARK if side == 1 else O_MARK)


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
    """The standard variant's symmetries, those :func:`canonical_form` turns a board by."""
    symmetries = STANDARD.grid.symmetries
    assert isinstance(symmetries, tuple)
    assert len(symmetries) == 8
    assert len(set(symmetries)) == 8
    assert symmetries[0] == IDENTITY
    lines = {frozenset(line) for line in STANDARD.grid.lines}
    assert lines == {frozenset(line) for line in oracle.WIN_LINES}
    for p in symmetries:
        assert isinstance(p, tuple)
        assert sorted(p) == list(range(9))
        assert {frozenset(p[i] for i in line) for line in lines} == lines
    group = set(symmetries)
    assert {compose(p, q) for p, q in product(symmetries, symmetries)} == group
    assert all(any(compose(p, q) == IDENTITY for q in symmetries) for p in symmetries)
    assert group == set(co.SYMMETRIES)


def test_canonical_form_of_every_legal_board() -> None:
    boards = [oracle.decode(cells) for cells in oracle.reachable()]
    assert len(boards) == 8533
    for board in boards:
        assert canonical_form(STANDARD, board) == co.canonical_form(board), board
    assert canonical_form(STANDARD, "X........") == "........X"
    assert canonical_form(STANDARD, ".X.......") == ".......X."
    assert canonical_form(STANDARD, "....X....") == "....X...."
    assert canonical_form(STANDARD, "O.......X") == "..O...X.."


def test_canonical_form_on_boards_of_every_shape() -> None:
    """Not only legal boards: every board of the 3⁹ with at most 4 marks."""
    checked = 0
    for cells in product("XO.", repeat=9):
        if cells.count(".") >= 5:
            board = "".join(cells)
            assert canonical_form(STANDARD, board) == co.canonical_form(board), board
            checked += 1
    assert checked == 1 + 9 * 2 + 36 * 4 + 84 * 8 + 126 * 16


@pytest.mark.parametrize("variant_id", ["4x4", "4x4-3"])
def test_canonical_form_on_four_by_four_boards_with_few_marks(variant_id: str) -> None:
    """Every 4 × 4 board with at most 3 marks: the smallest of the eight images the variant oracle turns
    it to, computed there from rows and columns."""
    rules = ORACLES[variant_id]
    checked = 0
    for marks in range(4):
        for where in combinations(range(16), marks):
            for symbols in product("XO", repeat=marks):
                cells = ["."] * 16
                for cell, symbol in zip(where, symbols, strict=True):
                    cells[cell] = symbol
                board = "".join(cells)
                assert canonical_form(VARIANTS[variant_id], board) == min(rules.images(board)), board
                checked += 1
    assert checked == 1 + 16 * 2 + 120 * 4 + 560 * 8


# --- the standard game's book ------------------------------------------------------------------------


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
    assert Fraction(1, 2) == SOLVED
    assert LADDERS["standard"].ratings == co.RATINGS


@pytest.mark.parametrize("solved_by", SOLVED_BY)
def test_the_whole_set_of_puzzles(solved_by: str) -> None:
    got = made(solved_by)
    expected = co.puzzles()
    values = Values(STANDARD, table("standard") if solved_by == "shipped" else None)
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
        cells, side = oracle.encode(mine.board), co.SIDE[mine.player]
        # a position the engine knows, worth what the oracle says, on the board the puzzle shows
        state = state_of(cells, side)
        assert cells_of(STANDARD, state) == mine.board
        assert (
            values.value(state)
            == oracle.value(cells, side)
            == ({"win": 1, "draw": 0}[mine.outcome], mine.plies)
        )
        assert puzzle.reason == reason(cells, side, mine.solution, mine.plies), mine.id


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
        assert puzzle.player in ("X", "O")
        assert len(puzzle.board) == 9
        assert canonical_form(STANDARD, puzzle.board) == puzzle.board == co.canonical_form(puzzle.board)
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


# --- the reason of a standard puzzle, written from the oracle's tactics ---------------------------------


def reason(cells: tuple[int, ...], side: int, cell: int, plies: int) -> str:
    """The sentence that explains ``side`` playing ``cell`` (a puzzle's solution: a win or a draw,
    ``plies`` long), as the oracle's tactics and names say it."""
    return standard_sentence(cells, side, cell, oracle.value(cells, side)[0], plies)


#: A puzzle of the book for each kind of sentence, its id, solution and reason written out in full.
WRITTEN_OUT = (
    ("..OOXOXOXX", 0, "Completes X's diagonal from the top-left: X wins."),
    ("..OOOXXOXX", 1, "Blocks O's middle column; the game is a draw with best play."),
    (
        ".....OOXXX",
        4,
        "Forks: X threatens to win at the top-left corner and the top edge; "
        "X wins with best play, in 3 moves.",
    ),
    (
        "......OXOX",
        4,
        "Takes away O's forks at the top-left corner, the top-right corner and the center; "
        "the game is a draw with best play.",
    ),
    (
        "..OO...X.X",
        4,
        "Threatens to complete the middle column at the top edge; the game is a draw with best play.",
    ),
    ("........OX", 4, "Takes the center; the game is a draw with best play."),
)


def test_reasons_written_out_for_a_puzzle_of_each_kind() -> None:
    """So that a wrong sentence writer above cannot pass unnoticed either: the book's and the writer's."""
    by_id = {puzzle.id: puzzle for puzzle in made()}
    for puzzle_id, solution, sentence in WRITTEN_OUT:
        puzzle = by_id[puzzle_id]
        assert (puzzle.solution, puzzle.reason) == (solution, sentence)
        assert reason(oracle.encode(puzzle.board), co.SIDE[puzzle.player], solution, puzzle.plies) == sentence
    kinds = Counter(puzzle.reason.split(" ")[0] for puzzle in made())
    assert kinds == {"Completes": 316, "Blocks": 222, "Forks:": 34, "Takes": 10, "Threatens": 6}


# --- the book of every small single-board variant ---------------------------------------------------------

#: A scale of ratings other than the standard game's, to rate the variants' books on.
SCALE = {"random": 0, "beginner": 100, "easy": 200, "medium": 300, "hard": 600, "perfect": 1000}
#: How many puzzles each book holds, as the oracle's finds them.
BOOKS = {"standard": 588, "misere": 468, "wild": 442, "notakto": 16}


#: The tags that make a puzzle's themes, in listing order: the standard game's tactics but places.
THEME_TAGS = ("win", "block", "fork", "threat", "block_fork")


@cache
def oracle_book(variant_id: str) -> tuple[co.Puzzle, ...]:
    """The variant's book by brute force over the variant oracle's positions, by rating then id: every
    reachable position on its canonical board (the smallest of the oracle's eight images) with two or
    more moves of which exactly one keeps its score, a win or a draw; its rates from the review oracle's
    likelihoods, its themes from the tactics oracle's tags."""
    rules: Rules = ORACLES[variant_id]
    firsts = ("X", "O") if rules.marks == "own" else ("first",)
    found = []
    for cells, mover in {position for first in firsts for position in rules.reachable(first)}:
        if min(rules.images(cells)) != cells:
            continue
        moves = list(rules.moves(cells, mover))
        score, plies = rules.value(cells, mover)
        keeping = [move for move in moves if vro.move_value(rules, cells, mover, move)[0] == score]
        if len(moves) < 2 or score < 0 or len(keeping) != 1:
            continue
        (solution,) = keeping
        rates = {
            name: vro.likelihood(rules, cells, mover, solution, depth, skill)
            for name, depth, skill in co.documented_ladder(variant_id)[0]
        }
        tags = to.tactics(rules, cells, mover, *solution)
        found.append(
            co.Puzzle(
                id=cells + mover,
                board=cells,
                player=mover,
                solution=solution[0],
                outcome={1: "win", 0: "draw"}[score],
                plies=plies,
                themes=tuple(tag for tag in THEME_TAGS if tag in tags),
                solve_rates=rates,
                rating=next(SCALE[name] for name in co.NAMES if rates[name] >= Fraction(1, 2)),
            )
        )
    return tuple(sorted(found, key=lambda puzzle: (puzzle.rating, puzzle.id)))


@pytest.mark.parametrize("solved_by", SOLVED_BY)
@pytest.mark.parametrize("variant_id", list(BOOKS))
def test_the_book_of_each_small_variant_is_the_oracles(variant_id: str, solved_by: str) -> None:
    """Field by field, but the reason (the variants' sentences are the tactics tests' business), on a
    scale of ratings of the test's own."""
    variant = VARIANTS[variant_id]
    values = Values(variant, table(variant_id) if solved_by == "shipped" else None)
    got = puzzles(values, Ladder(LADDERS[variant_id].presets, SCALE))
    expected = oracle_book(variant_id)
    assert len(expected) == BOOKS[variant_id]
    assert len(got) == len(expected)
    for puzzle, mine in zip(got, expected, strict=True):
        fields = (puzzle.board, puzzle.player, puzzle.solution, puzzle.outcome, puzzle.plies, puzzle.themes)
        assert puzzle.id == mine.id
        assert fields == (mine.board, mine.player, mine.solution, mine.outcome, mine.plies, mine.themes), (
            mine.id
        )
        assert puzzle.solve_rates == mine.solve_rates, mine.id
        assert puzzle.rating == mine.rating, mine.id
