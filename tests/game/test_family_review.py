"""Reviews of games of the variants, against a review written here from the contract over the oracle.

The oracle (:mod:`tests.support.variant_oracle`) gives exact values and its own depth-limited search;
the review is written again from the contract's "Review of a game", read with the variant's moves
(a cell and a mark): judgements, only moves, and each side's posterior over the random player and the
five levels (:mod:`tests.support.coach_oracle`'s strengths, ``perfect`` seeing the whole game), exact
as fractions. Every move of every position that a game of ``misere`` and ``notakto`` reaches is
reviewed on its own, and random games of ``misere``, ``wild``, ``notakto`` and ``notakto-2`` whole.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from service.game.exact import Values
from service.game.family_review import FamilyReview, review_game
from service.game.levels import CALIBRATED
from service.game.review import IllegalMove
from service.game.tables import table
from service.game.variants import VARIANTS, Move
from tests.support import coach_oracle as co
from tests.support.variant_oracle import VARIANTS as ORACLES
from tests.support.variant_oracle import Rules
from tests.support.variant_review_oracle import OraclePly, Played, likelihood, oracle_ply, posterior


def check(variant_id: str, review: FamilyReview, cells: str, mover: str, moves: list[Played]) -> None:
    """``review`` of ``moves`` from ``cells`` with ``mover`` to move is the oracle's."""
    oracle = ORACLES[variant_id]
    chances: dict[str, list[dict[str, Fraction]]] = {}
    assert len(review.plies) == len(moves)
    for ply, move in zip(review.plies, moves, strict=True):
        expected = oracle_ply(oracle, cells, mover, move)
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
        assert (ply.better is None) == (expected.judgement == "best")
        chance = {
            name: likelihood(oracle, cells, mover, move, depth, skill) for name, depth, skill in co.STRENGTHS
        }
        chances.setdefault(mover, []).append(chance)
        cells, _ = oracle.after(cells, move)
        mover = oracle.other(mover)
    assert review.final.cells == cells
    ratings = CALIBRATED.get(variant_id)
    for side in review.sides:
        mine = [ply for ply in review.plies if ply.before.player == side.player]
        assert side.moves == len(mine)
        assert side.only_moves == sum(ply.only_move for ply in mine)
        assert sum(side.judgements.values()) == len(mine)
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


def values_of(variant_id: str) -> Values:
    return Values(VARIANTS[variant_id], table(variant_id))


@pytest.mark.parametrize("variant_id", ["misere", "notakto"])
def test_every_move_of_every_position_is_judged_as_the_oracle_judges_it(variant_id: str) -> None:
    variant, oracle, values = VARIANTS[variant_id], ORACLES[variant_id], values_of(variant_id)
    reviewed = 0
    for first in ["X", "O"] if variant.marks == "own" else ["first"]:
        for cells, mover in oracle.reachable(first):
            start = variant.resolve(cells, mover)
            for move in oracle.moves(cells, mover):
                check(
                    variant_id, review_game(values, start, as_moves(variant_id, [move])), cells, mover, [move]
                )
                reviewed += 1
    assert reviewed == {"misere": 32_334, "notakto": 1_297}[variant_id]  # every move of every position


def random_game(oracle: Rules, rng: random.Random, first: str) -> tuple[str, str, list[Played]]:
    """A random game of the oracle's variant: a start some random moves in, and the moves after it."""
    cells, mover, moves = oracle.start(), first, []
    while True:
        options = list(oracle.moves(cells, mover))
        move = rng.choice(options)
        moves.append(move)
        cells, ended = oracle.after(cells, move)
        mover = oracle.other(mover)
        if ended is not None:
            break
    skip = rng.randrange(len(moves))
    cells, mover = oracle.start(), first
    for move in moves[:skip]:
        cells, _ = oracle.after(cells, move)
        mover = oracle.other(mover)
    return cells, mover, moves[skip:]


@pytest.mark.parametrize(
    ("variant_id", "games"), [("misere", 400), ("wild", 400), ("notakto", 200), ("notakto-2", 150)]
)
def test_random_games_are_reviewed_as_the_oracle_reviews_them(variant_id: str, games: int) -> None:
    variant, oracle, values = VARIANTS[variant_id], ORACLES[variant_id], values_of(variant_id)
    rng = random.Random(f"review {variant_id}")
    judged = set()
    for number in range(games):
        first = ("X", "O")[number % 2] if variant.marks == "own" else "first"
        cells, mover, moves = random_game(oracle, rng, first)
        review = review_game(values, variant.resolve(cells, mover), as_moves(variant_id, moves))
        check(variant_id, review, cells, mover, moves)
        judged |= {ply.judgement.value for ply in review.plies}
    assert judged == {"best", "inaccuracy", "mistake", "blunder"} - (
        {"mistake"} if variant.marks == "x_only" else set()
    )


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
    ],
)
def test_a_move_that_cannot_be_played_is_named_by_its_index(
    variant_id: str, cells: str, moves: list[int | Move], index: int, words: str
) -> None:
    variant = VARIANTS[variant_id]
    with pytest.raises(IllegalMove) as raised:
        review_game(values_of(variant_id), variant.resolve(cells), moves)
    assert raised.value.index == index
    assert words in raised.value.message


def test_a_finished_start_or_no_moves_is_refused() -> None:
    variant = VARIANTS["notakto"]
    with pytest.raises(ValueError, match="over"):
        review_game(values_of("notakto"), variant.resolve("XXX......"), [4])
    with pytest.raises(ValueError, match="at least one move"):
        review_game(values_of("notakto"), variant.resolve("........."), [])
