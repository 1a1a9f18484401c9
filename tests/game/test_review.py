"""The review of a game (:mod:`service.game.review`), in every variant, against the independent oracles.

The standard game against :mod:`tests.support.coach_oracle` (brute force over :mod:`tests.support.oracle`):
judgements, only-moves, best moves and the ranked moves on every legal move of every unfinished
position, with the shipped table and solved from scratch; the likelihood of every move under every
strength, and at other depths and skills; exact posteriors and whole reviews, every field, of seeded
games between the random player and the five levels, and of games from positions anywhere; illegal
moves; a side with no moves.

The variants against :mod:`tests.support.variant_oracle` and the review written again over it
(:mod:`tests.support.variant_review_oracle`): every move of every position that a game of
``standard``, ``misere`` and ``notakto`` reaches reviewed on its own, random games of ``standard``,
``misere``, ``wild``, ``notakto`` and ``notakto-2`` reviewed whole, likelihoods at every depth, and
each variant's illegal moves.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import cache, partial
from itertools import product

import pytest

from service.game import STANDARD, Level, Values, choose, levels
from service.game.exact import RankedMove
from service.game.review import (
    IllegalMove,
    Judgement,
    Ply,
    Review,
    SideReview,
    accuracy,
    chances_of,
    likelihood,
    likelihoods,
    most_likely,
    multiplied,
    players,
    review_game,
)
from service.game.tables import table
from service.game.variants import O_MARK, VARIANTS, X_MARK, Move, VariantPosition
from tests.support import ROOT, oracle
from tests.support import coach_oracle as co
from tests.support.variant_games import variant_positions
from tests.support.variant_oracle import VARIANTS as ORACLES
from tests.support.variant_oracle import Rules
from tests.support.variant_review_oracle import OraclePly, Played, oracle_ply, posterior
from tests.support.variant_review_oracle import likelihood as oracle_likelihood

NAMES = co.NAMES  # the random player and the five levels
MARK_OF_SIDE = {1: X_MARK, -1: O_MARK}
GAMES_PER_PAIRING = 100
SEED = 20261124


@cache
def shipped() -> Values:
    """The standard game's values, looked up in its shipped table."""
    return Values(STANDARD, table("standard"))


@cache
def scratch() -> Values:
    """The standard game's values, solved from scratch (no table)."""
    return Values(STANDARD)


ENGINES: dict[str, Callable[[], Values]] = {"shipped table": shipped, "solved from scratch": scratch}


def values_of(variant_id: str) -> Values:
    return Values(VARIANTS[variant_id], table(variant_id))


def position(cells: co.Cells, side: int) -> VariantPosition:
    """The oracle's position (``cells``, ``side`` to move) as the engine reads it."""
    return STANDARD.resolve(oracle.decode(cells), co.MARK[side])


def move_of(cell: int, side: int) -> Move:
    return Move(cell, MARK_OF_SIDE[side])


Ranked = tuple[int, int, int, int, int]


@cache
def expected_ranked(cells: co.Cells, side: int) -> tuple[Ranked, ...]:
    """Every move of a position as ``(cell, mark, score, plies, traps)``, in the contract's move order
    (the score, the fastest win or the slowest loss, the most traps, the lowest cell), from the oracle."""
    found = [
        (cell, MARK_OF_SIDE[side], score, plies, oracle.traps(cells, side, cell))
        for cell, score, plies in oracle.move_values(cells, side)
    ]
    return tuple(
        sorted(found, key=lambda m: (-m[2], m[3] if m[2] == 1 else -m[3] if m[2] == -1 else 0, -m[4], m[0]))
    )


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
    standard = levels.STANDARD_LADDER
    assert [level.value for level in standard.presets] == list(co.NAMES[1:])
    for name, depth, skill in co.STRENGTHS[1:]:
        preset = standard.presets[Level(name)]
        assert (preset.depth, Fraction(str(preset.skill))) == (depth, skill), name
    assert levels.NAMES == co.NAMES
    for variant_id, ladder in levels.LADDERS.items():
        strengths, ratings = co.documented_ladder(variant_id)
        assert ladder.strengths == strengths, variant_id
        assert all(type(skill) is Fraction for _, _, skill in ladder.strengths)
        assert ladder.ratings == ratings, variant_id
        assert ladder.ratings is None or list(ladder.ratings) == list(co.NAMES)
    assert levels.LADDERS["standard"] is standard


def test_the_reviews_players_are_the_strengths_with_their_skills_as_fractions() -> None:
    for variant_id, ladder in levels.LADDERS.items():
        assert [(depth, Fraction(a, b)) for depth, a, b in players(ladder)] == [
            (depth, skill) for _, depth, skill in co.documented_ladder(variant_id)[0]
        ]


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


@pytest.mark.parametrize("engine", ENGINES)
def test_every_judgement_and_only_move_on_every_legal_move_of_every_position(engine: str) -> None:
    """Each legal move of each of the 9,040 unfinished positions reviewed on its own: its judgement,
    whether it was an only move, the position's best moves and every move ranked, as the oracle has them."""
    values = ENGINES[engine]()
    checked = 0
    seen: set[str] = set()
    assert len(co.positions()) == 9040
    for cells, side in co.positions():
        start = position(cells, side)
        ranked = expected_ranked(cells, side)
        for cell in co.legal(cells):
            where = (oracle.decode(cells), co.MARK[side], cell)
            ply = review_game(values, start, [cell]).plies[0]
            expected = co.judgement(cells, side, cell)
            assert isinstance(ply.judgement, Judgement)
            assert ply.judgement == expected, where
            assert ply.only_move is co.only_move(cells, side, cell), where
            assert ply.best_moves == co.optimal(cells, side), where
            assert ply.ranked == ranked, where
            assert ply.ranked[0].cell == oracle.choose(cells, side), where
            assert ply.played == next(m for m in ranked if m[0] == cell), where
            seen.add(expected)
            checked += 1
    assert checked == 32334
    assert seen == set(co.JUDGEMENTS)


def test_judgement_values() -> None:
    assert [judgement.value for judgement in Judgement] == list(co.JUDGEMENTS)


def test_accuracy_is_the_oracles_for_every_count_of_moves() -> None:
    """Per cent judged best, to one decimal, rounded half up, for every count up to 200 moves."""
    for moves in range(201):
        for best in range(moves + 1):
            assert accuracy(best, moves) == co.accuracy(best, moves), (best, moves)


# --- likelihoods ---------------------------------------------------------------------------------


@pytest.mark.parametrize("engine", ENGINES)
def test_the_likelihood_of_every_move_under_every_strength(engine: str) -> None:
    """``likelihood`` of every legal move of every unfinished position under each strength, and
    ``likelihoods`` of it (numerators over one denominator) in the oracle's proportions."""
    values = ENGINES[engine]()
    for cells, side in co.positions():
        state = position(cells, side).state
        for cell in co.legal(cells):
            where = (oracle.decode(cells), co.MARK[side], cell)
            move = move_of(cell, side)
            expected = [co.likelihood(cells, side, cell, depth, skill) for _, depth, skill in co.STRENGTHS]
            for (_, depth, skill), wanted in zip(co.STRENGTHS, expected, strict=True):
                got = likelihood(values, state, move, depth, skill)
                assert type(got) is Fraction
                assert got == wanted, (*where, depth)
            numerators = likelihoods(values, state, move)
            assert all(type(n) is int and n >= 0 for n in numerators), where
            # one denominator for all: the ratios to the random player's (never 0) are the oracle's
            assert [Fraction(n, numerators[0]) for n in numerators] == [
                chance / expected[0] for chance in expected
            ], where


def test_the_likelihood_at_other_depths_and_skills() -> None:
    """Every depth 1 to 9 with skills no level has, on every 31st position."""
    values = shipped()
    skills = (Fraction(0), Fraction(1, 7), Fraction(5, 6))
    for cells, side in co.positions()[::31]:
        state = position(cells, side).state
        for cell in co.legal(cells):
            move = move_of(cell, side)
            for depth, skill in product(range(1, 10), skills):
                assert likelihood(values, state, move, depth, skill) == co.likelihood(
                    cells, side, cell, depth, skill
                )
            # the random player ignores skill
            assert likelihood(values, state, move, None, Fraction(1, 2)) == Fraction(1, len(co.legal(cells)))


@pytest.mark.parametrize(
    ("variant_id", "count"), [("misere", 60), ("wild", 60), ("notakto", 60), ("notakto-2", 20)]
)
def test_the_likelihood_in_the_variants_at_every_depth(variant_id: str, count: int) -> None:
    """Every depth 1 to 9, the random player and a few skills, on every move of ``count`` positions of
    random games, against the review oracle's likelihood over the variant oracle's own search."""
    variant, rules, values = VARIANTS[variant_id], ORACLES[variant_id], values_of(variant_id)
    skills = (Fraction(0), Fraction(3, 10), Fraction(5, 6), Fraction(1))
    for cells, mover in variant_positions(variant_id, count, seed=7):
        state = variant.resolve(cells, mover).state
        for played in rules.moves(cells, mover):
            move = Move(played[0], "XO".index(played[1]))
            for depth, skill in product([None, *range(1, 10)], skills):
                assert likelihood(values, state, move, depth, skill) == oracle_likelihood(
                    rules, cells, mover, played, depth, skill
                ), (cells, mover, played, depth, skill)


# --- seeded games between every pairing ------------------------------------------------------------


Game = tuple[VariantPosition, tuple[int, ...]]


def play_out(start: VariantPosition, x: str, o: str, rng: random.Random) -> tuple[int, ...]:
    """A game from ``start`` with ``x`` playing X and ``o`` playing O (input generation only)."""
    values = shipped()
    moves: list[int] = []
    state = start.state
    while True:
        name = x if state.mover == X_MARK else o
        ranked = values.ranked(state)
        if name == "random":
            cell = rng.choice(sorted(move.cell for move in ranked))
        else:
            options = levels.STANDARD_LADDER.options(Level(name), rng.randrange(2**32))
            cell = choose(ranked, options, partial(values.within, state)).cell
        moves.append(cell)
        state, ended = STANDARD.play(state, Move(cell, state.mover))
        if ended is not None:
            return tuple(moves)


@cache
def games(x: str, o: str) -> tuple[Game, ...]:
    """``GAMES_PER_PAIRING`` seeded games of ``x`` (as X) against ``o``, X and O starting in turn."""
    rng = random.Random(f"{SEED}-{x}-{o}")
    made: list[Game] = []
    for index in range(GAMES_PER_PAIRING):
        start = STANDARD.resolve(".........", "X" if index % 2 == 0 else "O")
        made.append((start, play_out(start, x, o, rng)))
    return tuple(made)


@cache
def games_from_anywhere() -> tuple[Game, ...]:
    """Games from 300 unfinished positions drawn at random, each side a random strength."""
    rng = random.Random(SEED)
    made: list[Game] = []
    for cells, side in rng.sample(co.positions(), 300):
        start = position(cells, side)
        made.append((start, play_out(start, rng.choice(NAMES), rng.choice(NAMES), rng)))
    return tuple(made)


Step = tuple[co.Cells, int, int]


def walk(start: VariantPosition, moves: Sequence[int]) -> tuple[Step, ...]:
    """``(cells, side, cell)`` of each move, in the oracle's terms."""
    cells = oracle.encode(start.cells)
    assert start.player is not None
    side = co.SIDE[start.player]
    out = []
    for cell in moves:
        assert not oracle.finished(cells) and cells[cell] == 0
        out.append((cells, side, cell))
        cells = co.play(cells, side, cell)
        side = -side
    return tuple(out)


def engine_posterior(values: Values, steps: Sequence[Step]) -> dict[str, Fraction]:
    """The posterior of a side's moves from the engine's likelihoods, multiplied player by player."""
    rows = [
        likelihoods(values, position(cells, side).state, move_of(cell, side)) for cells, side, cell in steps
    ]
    return chances_of(multiplied(rows))


def check_position(got: VariantPosition, cells: co.Cells, side: int | None) -> None:
    """``got`` is the oracle's board ``cells`` with ``side`` to move (``None``: finished)."""
    assert got.variant == STANDARD
    assert got.cells == oracle.decode(cells)
    assert got.player == (None if side is None else co.MARK[side])
    assert got.status == co.status(cells)
    lines = [line for line in oracle.WIN_LINES if cells[line[0]] != 0 and len({cells[i] for i in line}) == 1]
    assert sorted(got.winning_lines) == sorted(lines)
    assert got.state.x == sum(1 << i for i, mark in enumerate(cells) if mark == 1)
    assert got.state.o == sum(1 << i for i, mark in enumerate(cells) if mark == -1)
    if side is not None:
        assert got.state.mover == MARK_OF_SIDE[side]


def check_review(start: VariantPosition, moves: Sequence[int]) -> Review:
    """``review_game`` of a game, every field against the oracle."""
    got = review_game(shipped(), start, moves)
    assert isinstance(got, Review)
    steps = walk(start, moves)
    where = (start.cells, start.player, list(moves))
    assert got.start == start
    assert isinstance(got.plies, tuple)
    assert len(got.plies) == len(moves)
    for index, ((cells, side, cell), ply) in enumerate(zip(steps, got.plies, strict=True)):
        assert isinstance(ply, Ply)
        after = co.play(cells, side, cell)
        check_position(ply.before, cells, side)
        check_position(ply.after, after, None if oracle.finished(after) else -side)
        ranked = expected_ranked(cells, side)
        judgement = co.judgement(cells, side, cell)
        expected = {
            "ply": index + 1,
            "ranked": ranked,
            "played": next(m for m in ranked if m[0] == cell),
            "judgement": judgement,
            "only_move": co.only_move(cells, side, cell),
            "best_moves": co.optimal(cells, side),
            "better": None if judgement == "best" else ranked[0],
        }
        for name, value in expected.items():
            assert getattr(ply, name) == value, (name, *where, index)
        assert (ply.ranked[0].score, ply.ranked[0].plies) == oracle.value(cells, side), (*where, index)
        assert (ply.played.score, ply.played.plies) == co.move_value(cells, side, cell), (*where, index)
        assert ply.played.mark == MARK_OF_SIDE[side]
        assert isinstance(ply.judgement, Judgement)
        assert all(isinstance(move, RankedMove) for move in ply.ranked)
        if ply.better is not None:
            assert ply.better.cell == oracle.choose(cells, side)
            assert ply.better.traps == oracle.traps(cells, side, ply.better.cell)
    last_cells, last_side, last_cell = steps[-1]
    final = co.play(last_cells, last_side, last_cell)
    check_position(got.final, final, None if oracle.finished(final) else -last_side)
    assert got.final == got.plies[-1].after
    assert [side_review.player for side_review in got.sides] == ["X", "O"]
    for side_review, side in zip(got.sides, (1, -1), strict=True):
        assert isinstance(side_review, SideReview)
        mine = tuple(step for step in steps if step[1] == side)
        judged = [co.judgement(*step) for step in mine]
        chances = co.posterior(mine) if mine else None
        level = co.most_likely(chances) if chances is not None else None
        side_expected = {
            "moves": len(mine),
            "judgements": {Judgement(name): judged.count(name) for name in co.JUDGEMENTS},
            "accuracy": co.accuracy(judged.count("best"), len(mine)),
            "only_moves": sum(co.only_move(*step) for step in mine),
            "posterior": chances,
            "level": level,
            "rating": None if level is None else co.RATINGS[level],
        }
        for field, wanted in side_expected.items():
            assert getattr(side_review, field) == wanted, (field, side_review.player, *where)
        if chances is None:
            assert side_review.weights is None
        else:
            assert side_review.posterior is not None and side_review.weights is not None
            assert list(side_review.posterior) == list(co.NAMES)
            assert all(type(p) is Fraction for p in side_review.posterior.values())
            assert all(type(w) is int for w in side_review.weights)
    return got


PAIRINGS = list(product(NAMES, NAMES))


@pytest.mark.parametrize(("x", "o"), PAIRINGS, ids=[f"{x}-{o}" for x, o in PAIRINGS])
def test_posteriors_and_reviews_of_seeded_games(x: str, o: str) -> None:
    values = shipped()
    for start, moves in games(x, o):
        steps = walk(start, moves)
        for side in (1, -1):
            mine = tuple(step for step in steps if step[1] == side)
            chances = engine_posterior(values, mine)
            expected = co.posterior(mine)
            assert chances == expected, (start.player, moves, side)
            assert list(chances) == list(co.NAMES)
            assert sum(chances.values()) == 1
            assert most_likely(chances) == co.most_likely(expected)
        check_review(start, moves)


def test_the_seeded_games_are_varied() -> None:
    """The input generation covers what it must: every judgement, both outcomes of only-move, and
    every strength the most likely one for some side."""
    judgements: set[str] = set()
    only: set[bool] = set()
    likeliest: set[str] = set()
    lengths: set[int] = set()
    for x, o in PAIRINGS:
        for start, moves in games(x, o):
            steps = walk(start, moves)
            lengths.add(len(moves))
            judgements.update(co.judgement(*step) for step in steps)
            only.update(co.only_move(*step) for step in steps)
            for side in (1, -1):
                mine = tuple(step for step in steps if step[1] == side)
                likeliest.add(co.most_likely(co.posterior(mine)))
    assert judgements == set(co.JUDGEMENTS)
    assert only == {True, False}
    assert likeliest == set(co.NAMES)
    assert lengths >= {5, 6, 7, 8, 9}


def test_reviews_of_games_from_positions_anywhere() -> None:
    for start, moves in games_from_anywhere():
        check_review(start, moves)


def test_posterior_of_one_move_and_of_one_side_of_a_known_game() -> None:
    # X takes the center, O an edge (a blunder), X a corner, O must block, X forks.
    start = STANDARD.resolve(".........", "X")
    moves = [4, 1, 0, 8, 6]
    steps = walk(start, moves)
    x_moves = tuple(step for step in steps if step[1] == 1)
    assert engine_posterior(shipped(), x_moves) == co.posterior(x_moves)
    assert engine_posterior(shipped(), steps[:1]) == co.posterior(steps[:1])
    got = check_review(start, moves)
    assert got.plies[1].judgement == Judgement.BLUNDER
    assert got.plies[1].better is not None
    assert got.sides[0].posterior == co.posterior(x_moves)


def posterior_of(moves: Sequence[tuple[VariantPosition, int]]) -> dict[str, Fraction]:
    """The posterior of ``(position, cell)`` moves of one side, from the engine's likelihoods."""
    values = shipped()
    return chances_of(
        multiplied(likelihoods(values, here.state, Move(cell, here.state.mover)) for here, cell in moves)
    )


def test_posterior_by_hand() -> None:
    # The first move of a game: every strength finds every cell best (nothing can happen within 4
    # plies, and every cell draws), so each move is 1/9 for all and the posterior stays uniform.
    chances = posterior_of([(STANDARD.resolve(".........", "X"), 4)])
    assert chances == dict.fromkeys(co.NAMES, Fraction(1, 6))
    assert list(chances) == list(co.NAMES)
    assert most_likely(chances) == "random"
    # Missing a win in 1 (X plays 5 on XX.OO....): 1/5, 7/10 * 1/5, 4/10 * 1/5, then 0, 0, 0.
    chances = posterior_of([(STANDARD.resolve("XX.OO...."), 5)])
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
    chances = posterior_of([(STANDARD.resolve("XX.OO...."), 2)])
    assert chances["medium"] == chances["hard"] == chances["perfect"] == Fraction(50, 216)
    assert chances["random"] == Fraction(10, 216)
    assert chances["easy"] == Fraction(34, 216)
    assert most_likely(chances) == "medium"


def test_posterior_rejects_no_moves() -> None:
    with pytest.raises(ValueError, match="at least one move"):
        multiplied([])


def test_most_likely_takes_the_weaker_on_a_tie() -> None:
    even = {name: Fraction(1, 6) for name in co.NAMES}
    assert most_likely(even) == "random"
    top = {name: Fraction(0) for name in co.NAMES} | {"hard": Fraction(1, 2), "perfect": Fraction(1, 2)}
    assert most_likely(top) == "hard"
    top = {name: Fraction(1, 10) for name in co.NAMES} | {"easy": Fraction(1, 4), "medium": Fraction(1, 4)}
    assert most_likely(top) == "easy"
    clear = {name: Fraction(1, 20) for name in co.NAMES} | {"perfect": Fraction(3, 4)}
    assert most_likely(clear) == "perfect"
    # weights proportional to the chances compare as the chances do
    assert most_likely({name: 3 for name in co.NAMES} | {"beginner": 7, "hard": 7}) == "beginner"


# --- illegal moves, and what a review refuses -----------------------------------------------------


def raised(start: VariantPosition, moves: Sequence[int | Move]) -> IllegalMove:
    with pytest.raises(IllegalMove) as caught:
        review_game(shipped(), start, moves)
    assert isinstance(caught.value, ValueError)
    return caught.value


EMPTY_X = STANDARD.resolve(".........", "X")
EMPTY_O = STANDARD.resolve(".........", "O")


@pytest.mark.parametrize(
    ("start", "moves", "index", "cell", "mark"),
    [
        (EMPTY_X, [4, 4], 1, 4, "X"),
        (EMPTY_X, [4, 0, 8, 0, 1], 3, 0, "O"),
        (EMPTY_X, [4, 0, 4, 99], 2, 4, "X"),  # the first illegal move is the one reported
        (EMPTY_O, [0, 1, 2, 3, 2], 4, 2, "O"),
        (STANDARD.resolve("X...O...."), [4], 0, 4, "O"),
        (STANDARD.resolve("X...O....", "O"), [1, 0], 1, 0, "X"),
    ],
)
def test_a_move_on_an_occupied_cell(
    start: VariantPosition, moves: list[int], index: int, cell: int, mark: str
) -> None:
    error = raised(start, moves)
    assert error.index == index
    assert error.message == f"cell {cell} is taken (by {mark})"
    assert str(error) == error.message


@pytest.mark.parametrize(
    ("moves", "index", "cell"),
    [([9], 0, 9), ([4, -1], 1, -1), ([4, 0, 100, 4], 2, 100), ([0, 4, 8, 1, 7, 6, 2, 5, 9], 8, 9)],
)
def test_a_cell_out_of_range(moves: list[int], index: int, cell: int) -> None:
    error = raised(EMPTY_X, moves)
    assert error.index == index
    assert error.message == f"cell {cell} is not on the board: cells are 0 to 8"


@pytest.mark.parametrize(
    ("start", "moves", "index", "status"),
    [
        (EMPTY_X, [0, 3, 1, 4, 2, 5], 5, "x_won"),  # X completes 0-1-2 on move 4
        (EMPTY_X, [0, 3, 1, 4, 2, 5, 6], 5, "x_won"),
        (EMPTY_X, [0, 3, 1, 4, 8, 5, 2], 6, "o_won"),  # O completes 3-4-5 on move 5
        (EMPTY_O, [0, 3, 1, 4, 2, 5], 5, "o_won"),  # O starts, completes 0-1-2
        (EMPTY_O, [1, 0, 2, 4, 5, 8, 3], 6, "x_won"),  # X completes 0-4-8
        (STANDARD.resolve("XX.OO...."), [2, 5], 1, "x_won"),
    ],
)
def test_a_move_after_the_game_is_over(
    start: VariantPosition, moves: list[int], index: int, status: str
) -> None:
    cells = oracle.encode(start.cells)
    assert start.player is not None
    side = co.SIDE[start.player]
    for step, cell in enumerate(moves[:index]):
        assert not oracle.finished(cells), step
        cells = co.play(cells, side, cell)
        side = -side
    assert co.status(cells) == status  # the case is what it says
    assert cells[moves[index]] == 0  # an empty cell: only the game being over makes it illegal
    error = raised(start, moves)
    assert error.index == index
    assert error.message == f"the game is over ({status}) before this move: no move can follow"


def test_a_move_after_a_draw() -> None:
    moves = [0, 4, 8, 1, 7, 6, 2, 5, 3]  # a drawn game that fills the board
    got = check_review(EMPTY_X, moves)
    assert got.final.status == "draw"
    error = raised(EMPTY_X, [*moves, 4])
    assert error.index == 9
    assert error.message == "the game is over (draw) before this move: no move can follow"


def test_a_finished_start_is_rejected() -> None:
    for cells in co.finished_boards()[::50]:
        start = STANDARD.resolve(oracle.decode(cells))
        assert start.player is None
        with pytest.raises(ValueError) as caught:
            review_game(shipped(), start, [cells.index(0)] if 0 in cells else [0])
        # the start is at fault, not a move: not an IllegalMove (the API places it on "board")
        assert not isinstance(caught.value, IllegalMove)
        assert str(caught.value) == f"the game is over on the starting board ({co.status(cells)})"


@pytest.mark.parametrize(
    ("variant_id", "cells", "moves", "index", "words"),
    [
        ("misere", ".........", [4, 4], 1, "cell 4 is taken (by X)"),
        ("misere", ".........", [9], 0, "cell 9 is not on the board: cells are 0 to 8"),
        ("4x4", "................", [16], 0, "cells are 0 to 15"),
        ("notakto-2", "XXX...............", [3], 0, "cell 3 is on board 0, which has a line"),
        ("notakto", "XX.......", [2, 3], 1, "the game is over (second_won)"),
        ("wild", ".........", [4], 0, "in wild a move names its mark"),
        ("misere", ".........", [Move(4, 1)], 0, "in misere X places X, not O"),
        ("notakto", ".........", [Move(4, 1)], 0, "in notakto both sides place X, not O"),
        ("standard", ".........", [Move(4, O_MARK)], 0, "in standard X places X, not O"),
        ("standard", "X........", [Move(4, X_MARK)], 0, "in standard O places O, not X"),
    ],
)
def test_a_move_that_cannot_be_played_is_named_by_its_index(
    variant_id: str, cells: str, moves: list[int | Move], index: int, words: str
) -> None:
    variant = VARIANTS[variant_id]
    with pytest.raises(IllegalMove) as caught:
        review_game(values_of(variant_id), variant.resolve(cells), moves)
    assert caught.value.index == index
    assert words in caught.value.message


@pytest.mark.parametrize("variant_id", ["standard", "notakto"])
def test_a_finished_start_or_no_moves_is_refused(variant_id: str) -> None:
    variant = VARIANTS[variant_id]
    finished = {"standard": "XXXOO....", "notakto": "XXX......"}[variant_id]
    with pytest.raises(ValueError, match="over") as caught:
        review_game(values_of(variant_id), variant.resolve(finished), [4])
    assert not isinstance(caught.value, IllegalMove)
    with pytest.raises(ValueError, match="at least one move") as caught:
        review_game(values_of(variant_id), variant.resolve("........."), [])
    assert not isinstance(caught.value, IllegalMove)


# --- a side with no moves ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("start", "moves", "silent"),
    [
        (EMPTY_X, [4], "O"),
        (EMPTY_O, [4], "X"),
        (STANDARD.resolve("XOXOXOOX."), [8], "O"),  # X fills the last cell (and wins on 0-4-8)
        (STANDARD.resolve("XX.OO...."), [2], "O"),  # X wins at once
        (STANDARD.resolve("XX.OO...."), [5], "O"),
    ],
)
def test_a_side_with_no_moves(start: VariantPosition, moves: list[int], silent: str) -> None:
    got = check_review(start, moves)
    sides = {side.player: side for side in got.sides}
    side = sides[silent]
    assert side.moves == 0
    assert side.judgements == dict.fromkeys(Judgement, 0)
    assert side.accuracy is None
    assert side.only_moves == 0
    assert side.weights is None
    assert side.posterior is None
    assert side.level is None
    assert side.rating is None
    other = sides["X" if silent == "O" else "O"]
    assert other.moves == len(moves)
    assert other.posterior is not None and other.level is not None and other.rating is not None


# --- the variants, against the variant oracle -------------------------------------------------------


def check(variant_id: str, review: Review, cells: str, mover: str, moves: list[Played]) -> None:
    """``review`` of ``moves`` from ``cells`` with ``mover`` to move is the review oracle's."""
    rules = ORACLES[variant_id]
    strengths, ratings = co.documented_ladder(variant_id)
    chances: dict[str, list[dict[str, Fraction]]] = {}
    judged: dict[str, list[tuple[str, bool]]] = {side: [] for side in VARIANTS[variant_id].sides}
    assert review.start.cells == cells and review.start.player == mover
    assert len(review.plies) == len(moves)
    for number, (ply, move) in enumerate(zip(review.plies, moves, strict=True), start=1):
        expected = oracle_ply(rules, cells, mover, move)
        assert ply.ply == number
        assert ply.before.cells == cells and ply.before.player == mover
        found = OraclePly(
            ply.ranked[0].score,
            ply.ranked[0].plies,
            ply.played.score,
            ply.played.plies,
            list(ply.best_moves),
            ply.judgement.value,
            ply.only_move,
        )
        assert found == expected, (cells, mover, move)
        assert (ply.played.cell, "XO"[ply.played.mark]) == move
        assert sorted((m.cell, "XO"[m.mark]) for m in ply.ranked) == sorted(rules.moves(cells, mover))
        assert (ply.better is None) == (expected.judgement == "best")
        if ply.better is not None:
            assert ply.better == ply.ranked[0]
        chance = {
            name: oracle_likelihood(rules, cells, mover, move, depth, skill)
            for name, depth, skill in strengths
        }
        chances.setdefault(mover, []).append(chance)
        judged[mover].append((expected.judgement, expected.only_move))
        cells, ended = rules.after(cells, move)
        mover = rules.other(mover)
        assert ply.after.cells == cells
        assert (ply.after.player is None) == (ended is not None)
        assert ply.after.player in (None, mover)
    assert review.final.cells == cells
    assert review.final == review.plies[-1].after
    assert [side.player for side in review.sides] == list(VARIANTS[variant_id].sides)
    for side in review.sides:
        mine = judged[side.player]
        assert side.moves == len(mine)
        assert side.only_moves == sum(only for _, only in mine)
        assert side.judgements == {
            Judgement(name): [judgement for judgement, _ in mine].count(name) for name in co.JUDGEMENTS
        }
        assert side.accuracy == co.accuracy(sum(judgement == "best" for judgement, _ in mine), len(mine))
        if not mine:
            assert side.posterior is None and side.level is None and side.rating is None
            continue
        expected_posterior = posterior(chances[side.player])
        assert side.posterior == expected_posterior
        most = max(expected_posterior.values())
        level = next(name for name in co.NAMES if expected_posterior[name] == most)
        assert side.level == level
        assert side.rating == (None if ratings is None else ratings[level])


def as_moves(variant_id: str, moves: list[Played]) -> list[int | Move]:
    """The moves as the review takes them: cells, or in ``wild`` cells with their marks."""
    if variant_id == "wild":
        return [Move(cell, "XO".index(mark)) for cell, mark in moves]
    return [cell for cell, _ in moves]


@pytest.mark.parametrize("variant_id", ["standard", "misere", "notakto"])
def test_every_move_of_every_position_is_judged_as_the_oracle_judges_it(variant_id: str) -> None:
    variant, rules, values = VARIANTS[variant_id], ORACLES[variant_id], values_of(variant_id)
    reviewed = 0
    for first in ["X", "O"] if variant.marks == "own" else ["first"]:
        for cells, mover in rules.reachable(first):
            start = variant.resolve(cells, mover)
            for move in rules.moves(cells, mover):
                review = review_game(values, start, as_moves(variant_id, [move]))
                check(variant_id, review, cells, mover, [move])
                reviewed += 1
    # every move of every position
    assert reviewed == {"standard": 32_334, "misere": 32_334, "notakto": 1_297}[variant_id]


def random_game(rules: Rules, rng: random.Random, first: str) -> tuple[str, str, list[Played]]:
    """A random game of the oracle's variant: a start some random moves in, and the moves after it."""
    cells, mover, moves = rules.start(), first, []
    while True:
        options = list(rules.moves(cells, mover))
        move = rng.choice(options)
        moves.append(move)
        cells, ended = rules.after(cells, move)
        mover = rules.other(mover)
        if ended is not None:
            break
    skip = rng.randrange(len(moves))
    cells, mover = rules.start(), first
    for move in moves[:skip]:
        cells, _ = rules.after(cells, move)
        mover = rules.other(mover)
    return cells, mover, moves[skip:]


@pytest.mark.parametrize(
    ("variant_id", "count"),
    [("standard", 400), ("misere", 400), ("wild", 400), ("notakto", 200), ("notakto-2", 150)],
)
def test_random_games_are_reviewed_as_the_oracle_reviews_them(variant_id: str, count: int) -> None:
    variant, rules, values = VARIANTS[variant_id], ORACLES[variant_id], values_of(variant_id)
    rng = random.Random(f"review {variant_id}")
    judged = set()
    for number in range(count):
        first = ("X", "O")[number % 2] if variant.marks == "own" else "first"
        cells, mover, moves = random_game(rules, rng, first)
        review = review_game(values, variant.resolve(cells, mover), as_moves(variant_id, moves))
        check(variant_id, review, cells, mover, moves)
        judged |= {ply.judgement.value for ply in review.plies}
    assert judged == {"best", "inaccuracy", "mistake", "blunder"} - (
        {"mistake"} if variant.marks == "x_only" else set()
    )


@pytest.mark.parametrize("variant_id", ["standard", "misere", "notakto", "notakto-2"])
def test_a_move_given_with_the_mark_the_rules_imply_is_its_cell(variant_id: str) -> None:
    """Where the rules imply the mark, a move given as a cell and as a cell with that mark is one move."""
    variant, rules, values = VARIANTS[variant_id], ORACLES[variant_id], values_of(variant_id)
    rng = random.Random(f"marks {variant_id}")
    for number in range(40):
        first = ("X", "O")[number % 2] if variant.marks == "own" else "first"
        cells, mover, moves = random_game(rules, rng, first)
        start = variant.resolve(cells, mover)
        with_marks = [Move(cell, "XO".index(mark)) for cell, mark in moves]
        review = review_game(values, start, with_marks)
        check(variant_id, review, cells, mover, moves)
        assert review == review_game(values, start, [cell for cell, _ in moves])
