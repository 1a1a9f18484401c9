"""Move choice: options, the moves each option may pick, and one reproducible random stream per seed.

The moves are the standard game's, ranked by the engine (:meth:`Values.ranked`, from the shipped table);
which of them each option may pick is read from :mod:`tests.support.oracle`.
"""

from __future__ import annotations

import pytest

from service.game import STANDARD, Options, Values, choose
from service.game.choice import MAX_DEPTH, generator
from service.game.tables import table
from service.game.variants import State
from tests.support import oracle

VALUES = Values(STANDARD, table("standard"))
#: Positions with several optimal moves, or a horizon that differs from perfect play.
POSITIONS = [".........", "X........", "XX..O....", "X...O...X", "XO..X...."]


def test_every_seed_has_its_own_stream() -> None:
    draws = {seed: generator(seed).getrandbits(64) for seed in range(-500, 501)}
    assert len(set(draws.values())) == len(draws)
    assert generator(5).getrandbits(64) != generator(-5).getrandbits(64)


def test_a_seed_repeats_its_stream() -> None:
    assert [generator(-7).random() for _ in range(3)] == [generator(-7).random() for _ in range(3)]
    assert generator(2**64 - 1).random() == generator(2**64 - 1).random()


def test_negative_and_positive_seeds_play_differently() -> None:
    ranked = VALUES.ranked(STANDARD.start())
    moves = {seed: choose(ranked, Options(skill=0.0, seed=seed)).cell for seed in range(-40, 41)}
    assert any(moves[seed] != moves[-seed] for seed in range(1, 41))


def test_a_seed_repeats_its_choice() -> None:
    state = STANDARD.resolve("X........").state
    ranked = VALUES.ranked(state)
    for options in (Options(skill=0.5, seed=9), Options(randomize=True, seed=-9), Options(depth=2, seed=3)):
        chosen = {choose(ranked, options, lambda depth: VALUES.within(state, depth)) for _ in range(5)}
        assert len(chosen) == 1, options


@pytest.mark.parametrize("cells", POSITIONS)
def test_perfect_play_takes_the_oracles_move(cells: str) -> None:
    position = STANDARD.resolve(cells)
    side = 1 if position.player == "X" else -1
    ranked = VALUES.ranked(position.state)
    assert choose(ranked).cell == oracle.choose(oracle.encode(cells), side)
    assert choose(ranked, Options(seed=4)).cell == oracle.choose(oracle.encode(cells), side)


@pytest.mark.parametrize("cells", POSITIONS)
def test_randomize_draws_every_optimal_move_and_no_other(cells: str) -> None:
    position = STANDARD.resolve(cells)
    side = 1 if position.player == "X" else -1
    ranked = VALUES.ranked(position.state)
    drawn = {choose(ranked, Options(randomize=True, seed=seed)).cell for seed in range(200)}
    assert sorted(drawn) == oracle.optimal_moves(oracle.encode(cells), side)


@pytest.mark.parametrize("cells", POSITIONS)
def test_a_depth_draws_every_move_best_within_it_and_no_other(cells: str) -> None:
    position = STANDARD.resolve(cells)
    side = 1 if position.player == "X" else -1
    state: State = position.state
    ranked = VALUES.ranked(state)
    for depth in range(1, 10):
        drawn = {
            choose(ranked, Options(depth=depth, seed=seed), lambda d: VALUES.within(state, d)).cell
            for seed in range(200)
        }
        assert sorted(drawn) == oracle.horizon_best_moves(oracle.encode(cells), side, depth), depth


def test_skill_zero_draws_every_legal_move() -> None:
    state = STANDARD.resolve("X...O...X").state
    ranked = VALUES.ranked(state)
    drawn = {choose(ranked, Options(skill=0.0, seed=seed)).cell for seed in range(300)}
    assert sorted(drawn) == [1, 2, 3, 5, 6, 7]


def test_a_depth_needs_the_moves_best_within_it() -> None:
    ranked = VALUES.ranked(STANDARD.start())
    with pytest.raises(ValueError, match="depth needs"):
        choose(ranked, Options(depth=2, seed=1))


def test_a_finished_game_has_no_move_to_choose() -> None:
    with pytest.raises(ValueError, match="game is over"):
        choose([])


@pytest.mark.parametrize("skill", [-0.1, 1.5])
def test_skill_outside_zero_to_one_is_refused(skill: float) -> None:
    with pytest.raises(ValueError, match="skill"):
        Options(skill=skill)


@pytest.mark.parametrize("depth", [0, MAX_DEPTH + 1])
def test_depth_outside_one_to_the_largest_board_is_refused(depth: int) -> None:
    with pytest.raises(ValueError, match="depth"):
        Options(depth=depth)
