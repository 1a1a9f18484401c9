"""The review of a game (:mod:`service.game.review`) against the independent coach oracle.

Judgements and only-moves on every legal move of every unfinished position; likelihoods of every
move under every strength; exact posteriors and whole reviews of seeded games between the random
player and the five levels; illegal moves; a side with no moves.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from itertools import product

import pytest

from service.game import Board, Level, Mark, MoveValue, Position, SolvedGame, choose, levels, solve
from service.game.review import (
    IllegalMove,
    Judgement,
    PlyReview,
    Review,
    SideReview,
    likelihood,
    most_likely,
    only_move,
    posterior,
    review,
)
from service.game.tactics import explain
from tests.support import ROOT, oracle
from tests.support import coach_oracle as co

MARK: dict[int, Mark] = {1: "X", -1: "O"}
PLAYERS = co.NAMES  # the random player and the five levels
GAMES_PER_PAIRING = 100
SEED = 20261124


@cache
def solved() -> SolvedGame:
    return solve()


def position(cells: tuple[int, ...], side: int) -> Position:
    return Position(Board(oracle.decode(cells)), MARK[side])


# --- the strengths ---------------------------------------------------------------------------------


def documented_levels() -> dict[str, tuple[int | None, Fraction, int]]:
    """``name -> (depth, skill, rating)`` from the standard game's table of docs/levels.md (the part
    before the variants' sections)."""
    text = (ROOT / "docs" / "levels.md").read_text(encoding="utf-8").split("\n## The variants\n")[0]
    rows = re.findall(r"^\| `(\w+)` \| (\S+) \| (\S+) \| [^|]+ \| (\d+)", text, flags=re.MULTILINE)
    found: dict[str, tuple[int | None, Fraction, int]] = {}
    for name, depth, skill, rating in rows:
        found[name] = (None if depth == "–" else int(depth), Fraction(skill), int(rating))
    return found


def test_the_oracles_strengths_are_those_of_the_levels_report() -> None:
    documented = documented_levels()
    assert list(documented) == list(co.NAMES)
    for name, depth, skill in co.STRENGTHS:
        assert documented[name] == (depth, skill, co.RATINGS[name]), name


def test_levels_presets_strengths_and_ratings_agree_with_the_oracle() -> None:
    assert [level.value for level in levels.PRESETS] == list(co.NAMES[1:])
    for name, depth, skill in co.STRENGTHS[1:]:
        preset = levels.PRESETS[Level(name)]
        assert (preset.depth, Fraction(str(preset.skill))) == (depth, skill), name
    assert levels.STRENGTHS == co.STRENGTHS
    assert all(type(skill) is Fraction for _, _, skill in levels.STRENGTHS)
    assert levels.RATINGS == co.RATINGS
    assert list(levels.RATINGS) == list(co.NAMES)


# --- the oracle itself, on what the contract says of it --------------------------------------------


def test_the_oracles_horizon_plays_perfectly_far_enough_and_agrees_with_the_other_oracle() -> None:
    """ "a depth at least the number of plies left plays perfectly" (everywhere), and the horizon
    agrees with :mod:`.oracle`'s own at depths 1 to 4 (on every 5th position, for time)."""
    for cells, side in co.positions():
        assert sorted(co.horizon_best(cells, side, cells.count(0))) == oracle.optimal_moves(cells, side)
        assert sorted(co.horizon_best(cells, side, 9)) == oracle.optimal_moves(cells, side)
        assert list(co.optimal(cells, side)) == oracle.optimal_moves(cells, side)
    for cells, side in co.positions()[::5]:
        for depth in (1, 2, 3, 4):
            assert sorted(co.horizon_best(cells, side, depth)) == oracle.horizon_best_moves(
                cells, side, depth
            )


def test_the_oracles_horizon_on_the_contracts_examples() -> None:
    """ "depth 1 takes a win when there is one, depth 2 also blocks, depth 3 also forks"."""
    cells = oracle.encode("XX.OO....")  # X to move: 2 wins; depth 1 sees only that
    assert co.horizon_best(cells, 1, 1) == {2}
    cells = oracle.encode("XX..O....")  # O to move: X threatens 2
    assert co.horizon_best(cells, -1, 1) == {2, 3, 5, 6, 7, 8}  # every move is 0 one ply ahead
    assert co.horizon_best(cells, -1, 2) == {2}
    cells = oracle.encode("X...O...X")  # O to move: an edge holds, a corner lets X fork
    assert co.horizon_best(cells, -1, 2) == {1, 2, 3, 5, 6, 7}
    assert co.horizon_best(cells, -1, 4) == {1, 3, 5, 7}
    cells = oracle.encode("OOX....X.")  # X to move: 6 and 8 fork (no immediate win or threat to block)
    assert co.horizon_best(cells, 1, 2) == {3, 4, 5, 6, 8}
    assert co.horizon_best(cells, 1, 3) == {6, 8}
    assert all("fork" in oracle.tactics(cells, 1, cell) for cell in (6, 8))
    cells = oracle.encode("XX.OO....")  # L = 5, H at depth 2 = {2}
    assert co.likelihood(cells, 1, 2, 2, Fraction(3, 10)) == Fraction(7, 10) / 5 + Fraction(3, 10)
    assert co.likelihood(cells, 1, 5, 2, Fraction(3, 10)) == Fraction(7, 50)
    assert co.likelihood(cells, 1, 5, None, Fraction(1)) == Fraction(1, 5)
    assert co.likelihood(cells, 1, 5, 2, Fraction(1)) == 0


def test_the_oracles_judgements_on_known_positions() -> None:
    cells = oracle.encode("XX.OO....")  # X to move wins at 2 in 1 ply
    assert [co.judgement(cells, 1, cell) for cell in (2, 5, 6, 7, 8)] == [
        "best",
        "mistake",  # blocks 3-4-5 and threatens 2, but O blocks it: a draw
        "blunder",  # O completes 3-4-5
        "blunder",
        "blunder",
    ]
    assert co.only_move(cells, 1, 2) is True
    cells = oracle.encode("OO.....XX")  # X to move wins at 6 in 1 ply; blocking at 2 wins later
    assert co.judgement(cells, 1, 6) == "best"
    assert co.judgement(cells, 1, 2) == "inaccuracy"
    assert co.only_move(cells, 1, 6) is False
    cells = oracle.encode("OO....X..")  # X to move loses whatever it does; blocking at 2 delays it
    assert co.judgement(cells, 1, 2) == "best"
    assert co.judgement(cells, 1, 8) == "inaccuracy"
    assert co.only_move(cells, 1, 2) is False  # every move keeps the (lost) outcome
    cells = oracle.encode("X...O...X")  # O to move must take an edge: a corner loses
    assert [co.judgement(cells, -1, cell) for cell in (1, 2, 3, 5, 6, 7)] == [
        "best",
        "blunder",
        "best",
        "best",
        "blunder",
        "best",
    ]
    assert not any(co.only_move(cells, -1, cell) for cell in co.legal(cells))
    cells = oracle.encode("X........")  # O to move must take the center
    assert [cell for cell in co.legal(cells) if co.only_move(cells, -1, cell)] == [4]
    assert [cell for cell in co.legal(cells) if co.judgement(cells, -1, cell) == "blunder"] == [
        1,
        2,
        3,
        5,
        6,
        7,
        8,
    ]
    assert co.accuracy(1, 3) == 33.3
    assert co.accuracy(2, 3) == 66.7
    assert co.accuracy(0, 0) is None
    assert co.accuracy(5, 5) == 100.0


# --- judgements and only moves, everywhere ---------------------------------------------------------


def test_every_judgement_and_only_move_on_every_legal_move_of_every_position() -> None:
    game = solved()
    checked = 0
    seen: set[str] = set()
    for cells, side in co.positions():
        analysis = game[position(cells, side)]
        for cell in co.legal(cells):
            expected = co.judgement(cells, side, cell)
            got = review(game, analysis.position, [cell]).plies[0].judgement
            assert isinstance(got, Judgement)
            assert got == expected, (oracle.decode(cells), MARK[side], cell)
            assert only_move(analysis, cell) is co.only_move(cells, side, cell), (
                oracle.decode(cells),
                MARK[side],
                cell,
            )
            seen.add(expected)
            checked += 1
    assert checked == 32334
    assert seen == set(co.JUDGEMENTS)


def test_judgement_values() -> None:
    assert [judgement.value for judgement in Judgement] == list(co.JUDGEMENTS)


# --- likelihoods ---------------------------------------------------------------------------------


def test_the_likelihood_of_every_move_under_every_strength() -> None:
    for cells, side in co.positions():
        here = position(cells, side)
        for cell in co.legal(cells):
            for _, depth, skill in co.STRENGTHS:
                got = likelihood(here, cell, depth, skill)
                assert type(got) is Fraction
                assert got == co.likelihood(cells, side, cell, depth, skill), (
                    oracle.decode(cells),
                    MARK[side],
                    cell,
                    depth,
                )


def test_the_likelihood_at_other_depths_and_skills() -> None:
    """Every depth 1 to 9 with skills no level has, on every 31st position."""
    skills = (Fraction(0), Fraction(1, 7), Fraction(5, 6))
    for cells, side in co.positions()[::31]:
        here = position(cells, side)
        for cell in co.legal(cells):
            for depth, skill in product(range(1, 10), skills):
                assert likelihood(here, cell, depth, skill) == co.likelihood(cells, side, cell, depth, skill)
            # the random player ignores skill
            assert likelihood(here, cell, None, Fraction(1, 2)) == Fraction(1, len(co.legal(cells)))


# --- seeded games between every pairing ------------------------------------------------------------


Game = tuple[Position, tuple[int, ...]]


def play_out(start: Position, x: str, o: str, rng: random.Random) -> tuple[int, ...]:
    """A game from ``start`` with ``x`` playing X and ``o`` playing O (input generation only)."""
    game = solved()
    moves: list[int] = []
    here = start
    while here.to_move is not None:
        name = x if here.to_move == "X" else o
        analysis = game[here]
        if name == "random":
            cell = rng.choice(sorted(move.cell for move in analysis.moves))
        else:
            cell = choose(analysis, Level(name).options(rng.randrange(2**32))).cell
        moves.append(cell)
        here = here.play(cell)
    return tuple(moves)


@cache
def games(x: str, o: str) -> tuple[Game, ...]:
    """``GAMES_PER_PAIRING`` seeded games of ``x`` (as X) against ``o``, X and O starting in turn."""
    rng = random.Random(f"{SEED}-{x}-{o}")
    made: list[Game] = []
    for index in range(GAMES_PER_PAIRING):
        start = Position(Board.empty(), "X" if index % 2 == 0 else "O")
        made.append((start, play_out(start, x, o, rng)))
    return tuple(made)


@cache
def games_from_anywhere() -> tuple[Game, ...]:
    """Games from 300 unfinished positions drawn at random, each side a random strength."""
    rng = random.Random(SEED)
    made: list[Game] = []
    for cells, side in rng.sample(co.positions(), 300):
        start = position(cells, side)
        made.append((start, play_out(start, rng.choice(PLAYERS), rng.choice(PLAYERS), rng)))
    return tuple(made)


Step = tuple[tuple[int, ...], int, int]


def walk(start: Position, moves: Sequence[int]) -> tuple[Step, ...]:
    """``(cells, side, cell)`` of each move, in the oracle's terms."""
    cells = oracle.encode(start.board.cells)
    assert start.to_move is not None
    side = co.SIDE[start.to_move]
    out = []
    for cell in moves:
        assert not oracle.finished(cells) and cells[cell] == 0
        out.append((cells, side, cell))
        cells = co.play(cells, side, cell)
        side = -side
    return tuple(out)


def check_review(start: Position, moves: Sequence[int]) -> Review:
    """``review`` of a game, every field against the oracle."""
    game = solved()
    got = review(game, start, moves)
    assert isinstance(got, Review)
    steps = walk(start, moves)
    assert got.start == start
    last_cells, last_side, last_cell = steps[-1]
    final_cells = co.play(last_cells, last_side, last_cell)
    final = Position(
        Board(oracle.decode(final_cells)), None if oracle.finished(final_cells) else MARK[-last_side]
    )
    assert got.final == final
    assert isinstance(got.plies, tuple)
    assert len(got.plies) == len(moves)
    for index, ((cells, side, cell), ply) in enumerate(zip(steps, got.plies, strict=True)):
        assert isinstance(ply, PlyReview)
        before = oracle.decode(cells)
        mark = MARK[side]
        score_before, plies_before = oracle.value(cells, side)
        score, plies = co.move_value(cells, side, cell)
        judgement = co.judgement(cells, side, cell)
        better: MoveValue | None = None
        better_reason: str | None = None
        if judgement != "best":
            engine = oracle.choose(cells, side)
            engine_score, engine_plies = co.move_value(cells, side, engine)
            better = MoveValue(engine, engine_score, engine_plies, oracle.traps(cells, side, engine))
            better_reason = explain(Board(before), mark, engine, engine_score, engine_plies)[1]
        expected = {
            "ply": index + 1,
            "player": mark,
            "cell": cell,
            "board_before": before,
            "board_after": oracle.decode(co.play(cells, side, cell)),
            "score_before": score_before,
            "plies_before": plies_before,
            "score": score,
            "plies": plies,
            "best_moves": co.optimal(cells, side),
            "judgement": judgement,
            "only_move": co.only_move(cells, side, cell),
            "tactics": co.tactics(cells, side, cell),
            "reason": explain(Board(before), mark, cell, score, plies)[1],
            "better": better,
            "better_reason": better_reason,
        }
        for name, value in expected.items():
            assert getattr(ply, name) == value, (name, start.board.cells, start.to_move, list(moves), index)
        assert isinstance(ply.judgement, Judgement)
        assert ply.better is None or isinstance(ply.better, MoveValue)
    assert set(got.sides) == {"X", "O"}
    for mark in ("X", "O"):
        side_review = got.sides[mark]
        assert isinstance(side_review, SideReview)
        mine = tuple(step for step in steps if MARK[step[1]] == mark)
        judged = [co.judgement(*step) for step in mine]
        chances = co.posterior(mine) if mine else None
        level = co.most_likely(chances) if chances is not None else None
        side_expected = {
            "player": mark,
            "moves": len(mine),
            "judgements": {Judgement(name): judged.count(name) for name in co.JUDGEMENTS},
            "accuracy": co.accuracy(judged.count("best"), len(mine)),
            "only_moves": sum(co.only_move(*step) for step in mine),
            "posterior": chances,
            "level": level,
            "rating": None if level is None else co.RATINGS[level],
        }
        for field, wanted in side_expected.items():
            assert getattr(side_review, field) == wanted, (
                field,
                mark,
                start.board.cells,
                start.to_move,
                list(moves),
            )
        if chances is not None:
            assert side_review.posterior is not None
            assert list(side_review.posterior) == list(co.NAMES)
            assert all(type(p) is Fraction for p in side_review.posterior.values())
    return got


PAIRINGS = list(product(PLAYERS, PLAYERS))


@pytest.mark.parametrize(("x", "o"), PAIRINGS, ids=[f"{x}-{o}" for x, o in PAIRINGS])
def test_posteriors_and_reviews_of_seeded_games(x: str, o: str) -> None:
    for start, moves in games(x, o):
        for mark in ("X", "O"):
            mine = tuple(step for step in walk(start, moves) if MARK[step[1]] == mark)
            chances = posterior([(position(cells, side), cell) for cells, side, cell in mine])
            expected = co.posterior(mine)
            assert chances == expected, (start.to_move, moves, mark)
            assert list(chances) == list(co.NAMES)
            assert sum(chances.values()) == 1
            assert most_likely(chances) == co.most_likely(expected)
        check_review(start, moves)


def test_the_seeded_games_are_varied() -> None:
    """The input generation covers what it must: every judgement, both outcomes of only-move, and
    every strength the most likely one for some side."""
    judgements: set[str] = set()
    likeliest: set[str] = set()
    lengths: set[int] = set()
    for x, o in PAIRINGS:
        for start, moves in games(x, o):
            steps = walk(start, moves)
            lengths.add(len(moves))
            judgements.update(co.judgement(*step) for step in steps)
            for side in (1, -1):
                mine = tuple(step for step in steps if step[1] == side)
                likeliest.add(co.most_likely(co.posterior(mine)))
    assert judgements == set(co.JUDGEMENTS)
    assert likeliest == set(co.NAMES)
    assert lengths >= {5, 6, 7, 8, 9}


def test_reviews_of_games_from_positions_anywhere() -> None:
    for start, moves in games_from_anywhere():
        check_review(start, moves)


def test_posterior_of_one_move_and_of_one_side_of_a_known_game() -> None:
    # X takes the center, O an edge (a blunder), X a corner, O must block, X forks.
    start = Position(Board.empty(), "X")
    moves = [4, 1, 0, 8, 6]
    steps = walk(start, moves)
    x_moves = [(position(cells, side), cell) for cells, side, cell in steps if side == 1]
    assert posterior(x_moves) == co.posterior(tuple(step for step in steps if step[1] == 1))
    assert posterior(x_moves[:1]) == co.posterior(steps[:1])
    got = check_review(start, moves)
    assert got.plies[1].judgement == Judgement.BLUNDER
    assert got.plies[1].better is not None


def test_posterior_by_hand() -> None:
    # The first move of a game: every strength finds every cell best (nothing can happen within 4
    # plies, and every cell draws), so each move is 1/9 for all and the posterior stays uniform.
    chances = posterior([(Position(Board.empty(), "X"), 4)])
    assert chances == dict.fromkeys(co.NAMES, Fraction(1, 6))
    assert list(chances) == list(co.NAMES)
    assert most_likely(chances) == "random"
    # Missing a win in 1 (X plays 5 on XX.OO....): 1/5, 7/10 * 1/5, 4/10 * 1/5, then 0, 0, 0.
    chances = posterior([(Position.resolve(Board("XX.OO....")), 5)])
    assert chances == {
        "random": Fraction(10, 21),
        "beginner": Fraction(7, 21),
        "easy": Fraction(4, 21),
        "medium": Fraction(0),
        "hard": Fraction(0),
        "perfect": Fraction(0),
    }
    assert most_likely(chances) == "random"
    # Taking it: 10/50, 7/50 + 15/50, 4/50 + 30/50, then 1, 1, 1 (the sum is 216/50).
    chances = posterior([(Position.resolve(Board("XX.OO....")), 2)])
    assert chances["medium"] == chances["hard"] == chances["perfect"] == Fraction(50, 216)
    assert chances["random"] == Fraction(10, 216)
    assert chances["easy"] == Fraction(34, 216)
    assert most_likely(chances) == "medium"


def test_posterior_rejects_no_moves() -> None:
    with pytest.raises(ValueError):
        posterior([])


def test_most_likely_takes_the_weaker_on_a_tie() -> None:
    even = {name: Fraction(1, 6) for name in co.NAMES}
    assert most_likely(even) == "random"
    top = {name: Fraction(0) for name in co.NAMES} | {"hard": Fraction(1, 2), "perfect": Fraction(1, 2)}
    assert most_likely(top) == "hard"
    top = {name: Fraction(1, 10) for name in co.NAMES} | {"easy": Fraction(1, 4), "medium": Fraction(1, 4)}
    assert most_likely(top) == "easy"
    clear = {name: Fraction(1, 20) for name in co.NAMES} | {"perfect": Fraction(3, 4)}
    assert most_likely(clear) == "perfect"


# --- illegal moves ------------------------------------------------------------------------------


def raised(start: Position, moves: Sequence[int]) -> IllegalMove:
    with pytest.raises(IllegalMove) as caught:
        review(solved(), start, moves)
    assert isinstance(caught.value, ValueError)
    return caught.value


EMPTY_X = Position(Board.empty(), "X")


@pytest.mark.parametrize(
    ("start", "moves", "index", "cell"),
    [
        (EMPTY_X, [4, 4], 1, 4),
        (EMPTY_X, [4, 0, 8, 0, 1], 3, 0),
        (EMPTY_X, [4, 0, 4, 99], 2, 4),  # the first illegal move is the one reported
        (Position(Board.empty(), "O"), [0, 1, 2, 3, 2], 4, 2),
        (Position.resolve(Board("X...O....")), [4], 0, 4),
        (Position.resolve(Board("X...O...."), "O"), [1, 0], 1, 0),
    ],
)
def test_a_move_on_an_occupied_cell(start: Position, moves: list[int], index: int, cell: int) -> None:
    error = raised(start, moves)
    assert error.index == index
    assert f"cell {cell}" in error.message
    assert "taken" in error.message


@pytest.mark.parametrize(
    ("moves", "index", "cell"),
    [([9], 0, 9), ([4, -1], 1, -1), ([4, 0, 100, 4], 2, 100), ([0, 4, 8, 1, 7, 6, 2, 5, 9], 8, 9)],
)
def test_a_cell_out_of_range(moves: list[int], index: int, cell: int) -> None:
    error = raised(EMPTY_X, moves)
    assert error.index == index
    assert str(cell) in error.message


@pytest.mark.parametrize(
    ("start", "moves", "index", "status"),
    [
        (EMPTY_X, [0, 3, 1, 4, 2, 5], 5, "x_won"),  # X completes 0-1-2 on move 4
        (EMPTY_X, [0, 3, 1, 4, 2, 5, 6], 5, "x_won"),
        (EMPTY_X, [0, 3, 1, 4, 8, 5, 2], 6, "o_won"),  # O completes 3-4-5 on move 5
        (Position(Board.empty(), "O"), [0, 3, 1, 4, 2, 5], 5, "o_won"),  # O starts, completes 0-1-2
        (Position(Board.empty(), "O"), [1, 0, 2, 4, 5, 8, 3], 6, "x_won"),  # X completes 0-4-8
        (Position.resolve(Board("XX.OO....")), [2, 5], 1, "x_won"),
    ],
)
def test_a_move_after_the_game_is_over(start: Position, moves: list[int], index: int, status: str) -> None:
    steps_before = moves[:index]
    cells = oracle.encode(start.board.cells)
    assert start.to_move is not None
    side = co.SIDE[start.to_move]
    for step, cell in enumerate(steps_before):
        assert not oracle.finished(cells), step
        cells = co.play(cells, side, cell)
        side = -side
    assert co.status(cells) == status  # the case is what it says
    assert cells[moves[index]] == 0  # an empty cell: only the game being over makes it illegal
    error = raised(start, moves)
    assert error.index == index
    assert "over" in error.message
    assert status in error.message


def test_a_move_after_a_draw() -> None:
    moves = [0, 4, 8, 1, 7, 6, 2, 5, 3]  # a drawn game that fills the board
    got = check_review(EMPTY_X, moves)
    assert got.final.status.value == "draw"
    error = raised(EMPTY_X, [*moves, 4])
    assert error.index == 9
    assert "over" in error.message or "taken" in error.message


def test_a_finished_start_is_rejected() -> None:
    for cells in co.finished_boards()[::50]:
        start = Position(Board(oracle.decode(cells)), None)
        with pytest.raises(ValueError) as caught:
            review(solved(), start, [cells.index(0)] if 0 in cells else [0])
        # the start is at fault, not a move: not an IllegalMove (the API places it on "board")
        assert not isinstance(caught.value, IllegalMove)


# --- a side with no moves ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("start", "moves", "silent"),
    [
        (EMPTY_X, [4], "O"),
        (Position(Board.empty(), "O"), [4], "X"),
        (Position.resolve(Board("XOXOXOOX.")), [8], "O"),  # X fills the last cell (and wins on 0-4-8)
        (Position.resolve(Board("XX.OO....")), [2], "O"),  # X wins at once
        (Position.resolve(Board("XX.OO....")), [5], "O"),
    ],
)
def test_a_side_with_no_moves(start: Position, moves: list[int], silent: Mark) -> None:
    got = check_review(start, moves)
    side = got.sides[silent]
    assert side.moves == 0
    assert side.judgements == dict.fromkeys(Judgement, 0)
    assert side.accuracy is None
    assert side.only_moves == 0
    assert side.posterior is None
    assert side.level is None
    assert side.rating is None
    other = got.sides["X" if silent == "O" else "O"]
    assert other.moves == len(moves)
    assert other.posterior is not None and other.level is not None and other.rating is not None
