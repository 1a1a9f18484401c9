"""Puzzles (:mod:`service.game.puzzles`), the symmetries, and the shipped puzzle book of every variant,
against the independent oracles.

The standard game's puzzles as the engine finds them are checked field by field against the coach
oracle, which builds them by brute force over every reachable position; their reasons against
sentences written here from the oracle's tactics.

The shipped books (``service/answers/data/<variant>.book``, what users get) are checked against the
book oracle (:mod:`tests.support.book_oracle`), which works each puzzle out again over the variant
oracle's positions, values, horizons (the review oracle's likelihoods) and tactics, with the strengths
and ratings ``docs/levels.md`` documents for the variant:

* every complete book is exactly the oracle's set, puzzle by puzzle, found by walking every position
  the oracle reaches (in ``notakto-3``, whose games reach about 80 million positions, by walking one
  position per class of alike positions, a walk checked here to find the classes of the reachable
  positions in ``notakto`` and ``notakto-2``);
* every 5th puzzle of ``4x4``'s selection and every 20th of ``4x4-3``'s is the oracle's puzzle of its
  position, which a game reaches; and each selection is as large, and as spread over ratings and
  themes, as the rule says;
* every line of every book: its fields agree with its JSON, its id has the variant's form and a
  canonical board (the smallest of the oracle's images; in Notakto, of each board's and any order
  of the boards), no two puzzles are alike, and the book is in order of rating, then id.
"""

from __future__ import annotations

import re
from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import combinations, permutations, product

import pytest

from service.answers.entity import etag
from service.game import STANDARD, VARIANTS, Values
from service.game.levels import LADDERS
from service.game.puzzles import SOLVED, THEMES, Puzzle, canonical_form, cells_of, puzzles
from service.game.tables import table
from service.game.variants import O_MARK, X_MARK, Move, State
from tests.support import book_oracle as bo
from tests.support import coach_oracle as co
from tests.support import oracle
from tests.support.sentences import standard_sentence
from tests.support.variant_oracle import VARIANTS as ORACLES

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
    """Every variant's themes: the standard game's, misère's, wild's and Notakto's."""
    every = (
        *("win", "block", "fork", "threat", "block_fork"),
        *("lose", "squeeze", "avoid"),
        "gift",
        *("live", "kill", "hand_over"),
    )
    assert every == THEMES
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
        assert puzzle.variant is STANDARD
        assert puzzle.solution == Move(mine.solution, X_MARK if mine.player == "X" else O_MARK), mine.id
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
    assert {theme for puzzle in co.puzzles() for theme in puzzle.themes} == set(THEMES[:5])


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
        assert (puzzle.solution.cell, puzzle.reason) == (solution, sentence)
        assert reason(oracle.encode(puzzle.board), co.SIDE[puzzle.player], solution, puzzle.plies) == sentence
    kinds = Counter(puzzle.reason.split(" ")[0] for puzzle in made())
    assert kinds == {"Completes": 316, "Blocks": 222, "Forks:": 34, "Takes": 10, "Threatens": 6}


# --- the shipped books against the book oracle --------------------------------------------------------

#: Every variant, as the contract lists them.
ALL = (*bo.COMPLETE, *bo.SELECTED)
#: Every how many puzzles of a selection the sample takes one: about 1,000 of ``4x4``'s and 250 of
#: ``4x4-3``'s, whose puzzles' horizons take longer to search (each about 15 s).
SAMPLE_EVERY = {"4x4": 5, "4x4-3": 20}


@cache
def classes(variant_id: str) -> frozenset[tuple[str, str]]:
    """Every class of alike unfinished positions of the variant, on its canonical board: by the
    oracle's walk of every position a game reaches, or in ``notakto-3`` of one position per class."""
    rules = bo.rules_of(variant_id)
    if variant_id == "notakto-3":
        return frozenset(bo.canonical_positions(rules))
    return frozenset(bo.reachable_classes(rules))


def id_pattern(variant_id: str) -> str:
    """The form of an id in the variant, from the contract's words: the board, after the variant and a
    colon outside the standard game, then the side to move where the sides are X and O."""
    rules = ORACLES[variant_id]
    cells = rules.width * rules.boards
    symbols = "X." if rules.marks == "x_only" else "XO."
    prefix = "" if variant_id == "standard" else re.escape(f"{variant_id}:")
    return f"{prefix}[{symbols}]{{{cells}}}" + ("[XO]" if rules.marks == "own" else "")


@pytest.mark.parametrize("variant_id", ["notakto", "notakto-2"])
def test_the_walk_of_classes_finds_the_classes_of_the_reachable_positions(variant_id: str) -> None:
    """What the walk of ``notakto-3``'s classes relies on, where the positions are few enough to walk."""
    walked = bo.canonical_positions(bo.rules_of(variant_id))
    assert walked == classes(variant_id)
    assert len(walked) == {"notakto": 46, "notakto-2": 2_967}[variant_id]


@pytest.mark.parametrize("variant_id", list(bo.COMPLETE))
def test_each_complete_book_is_the_oracles_puzzle_by_puzzle(variant_id: str) -> None:
    """Every puzzle of the book, and no other: each class of reachable positions with two or more moves
    of which exactly one keeps its score, a win or a draw; the fields of each (but its reason) as the
    oracles give them, its solve rates under the variant's documented strengths, its rating on the
    variant's documented scale; in order of rating, then id."""
    strengths, ratings = bo.ladder(variant_id)
    shipped = bo.shipped(variant_id)
    expected = bo.book(variant_id, sorted(classes(variant_id)), strengths, ratings)
    assert len(expected) == bo.COMPLETE[variant_id]
    assert shipped.found == len(shipped.lines) == len(expected)
    got = [bo.without_reason(line.puzzle) for line in shipped.lines]
    assert [puzzle["id"] for puzzle in got] == [puzzle["id"] for puzzle in expected]
    for puzzle, mine in zip(got, expected, strict=True):
        assert puzzle == mine, mine["id"]


@pytest.mark.parametrize("variant_id", bo.SELECTED)
def test_a_sample_of_each_selection_is_the_oracles(variant_id: str) -> None:
    """Every 5th or 20th puzzle of a selection: a game reaches its position, and it is the oracle's
    puzzle there, field by field (but its reason)."""
    strengths, ratings = bo.ladder(variant_id)
    rules = bo.rules_of(variant_id)
    sample = bo.shipped(variant_id).lines[:: SAMPLE_EVERY[variant_id]]
    assert len(sample) >= bo.AT_LEAST // SAMPLE_EVERY[variant_id]
    for line in sample:
        board, player = line.puzzle["board"], line.puzzle["player"]
        assert bo.reached(rules, board, player), line.id
        assert bo.without_reason(line.puzzle) == bo.puzzle(variant_id, board, player, strengths, ratings)


@pytest.mark.parametrize("variant_id", bo.SELECTED)
def test_each_selection_is_as_large_and_as_spread_as_the_rule_says(variant_id: str) -> None:
    """A variant of more than 50,000 puzzles ships at least 5,000, taken by rounds over its (rating,
    themes) groups: every group gives as many as the rounds, or every puzzle it has, and the rounds stop
    at the first that reaches 5,000; so no group has more than the rounds, and without the last round
    the book would hold fewer than 5,000."""
    shipped = bo.shipped(variant_id)
    assert shipped.found > bo.COMPLETE_UP_TO
    assert len(shipped.lines) >= bo.AT_LEAST
    groups = Counter((line.rating, line.themes) for line in shipped.lines)
    rounds = max(groups.values())
    assert sum(min(count, rounds - 1) for count in groups.values()) < bo.AT_LEAST
    # spread: over several ratings and several sets of themes
    ratings = {line.rating for line in shipped.lines}
    assert len(ratings) >= 3, ratings
    assert len({line.themes for line in shipped.lines}) >= 3


@pytest.mark.parametrize("variant_id", ALL)
def test_each_line_of_each_book(variant_id: str) -> None:
    """Its fields before the JSON are the JSON's, its entity tag is the JSON's; its id has the variant's
    form, on a canonical board (the oracle's smallest alike board) with the side to move that the marks
    say; no two puzzles alike; in order of rating, then id."""
    rules = bo.rules_of(variant_id)
    shipped = bo.shipped(variant_id)
    pattern = re.compile(id_pattern(variant_id))
    for line in shipped.lines:
        puzzle = line.puzzle
        assert (line.id, line.rating, line.outcome, list(line.themes)) == (
            puzzle["id"],
            puzzle["rating"],
            puzzle["outcome"],
            puzzle["themes"],
        )
        assert line.etag == etag(line.body)
        assert pattern.fullmatch(line.id), line.id
        board, player = puzzle["board"], puzzle["player"]
        assert puzzle["variant"] == variant_id
        assert line.id == bo.puzzle_id(variant_id, rules, board, player)
        assert bo.canonical(rules, board) == board, line.id
        if rules.marks == "own":
            # the side to move has placed as many marks as the other side, or one fewer if it did not start
            placed = board.count(rules.other(player)) - board.count(player)
            assert placed in (0, 1), line.id
        else:
            assert player == bo.mover_of(rules, board), line.id
        assert puzzle["reason"].endswith("."), line.id
    ids = [line.id for line in shipped.lines]
    assert len(set(ids)) == len(ids)
    alike = {(bo.canonical(rules, line.puzzle["board"]), line.puzzle["player"]) for line in shipped.lines}
    assert len(alike) == len(ids)
    keys = [(line.rating, line.id) for line in shipped.lines]
    assert keys == sorted(keys)


@pytest.mark.parametrize("variant_id", ["notakto-2", "notakto-3"])
def test_canonical_form_of_notakto_boards_with_few_marks(variant_id: str) -> None:
    """Every board of two or three with at most 3 marks, and those of many marks from the oracle's
    classes, turned board by board and put in every order: the engine's canonical form is the oracle's
    (each board at the smallest of its eight images, the boards in order)."""
    rules = bo.rules_of(variant_id)
    variant = VARIANTS[variant_id]
    cells = rules.width * rules.boards
    checked = 0
    for marks in range(4):
        for where in combinations(range(cells), marks):
            board = "".join("X" if cell in where else "." for cell in range(cells))
            assert canonical_form(variant, board) == bo.canonical(rules, board), board
            checked += 1
    assert checked == sum(len(list(combinations(range(cells), marks))) for marks in range(4))
    singles = sorted(board for board, _ in classes("notakto"))
    doubles = sorted(board for board, _ in classes("notakto-2"))[::7]
    for index, double in enumerate(doubles):
        board = double if rules.boards == 2 else double + singles[index % len(singles)]
        parts = [rules.board(board, index) for index in range(rules.boards)]
        for order, turn in product(permutations(parts), range(8)):
            turned = "".join(rules.images(part)[(turn + 3 * j) % 8] for j, part in enumerate(order))
            assert canonical_form(variant, turned) == bo.canonical(rules, board), turned
