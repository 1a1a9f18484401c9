"""Move choice: options, and one reproducible random stream per seed."""

from __future__ import annotations

import pytest

from service.game import Options, Position, choose, solve
from service.game.board import Board
from service.game.choice import generator


def test_every_seed_has_its_own_stream() -> None:
    draws = {seed: generator(seed).getrandbits(64) for seed in range(-500, 501)}
    assert len(set(draws.values())) == len(draws)
    assert generator(5).getrandbits(64) != generator(-5).getrandbits(64)


def test_a_seed_repeats_its_stream() -> None:
    assert [generator(-7).random() for _ in range(3)] == [generator(-7).random() for _ in range(3)]
    assert generator(2**64 - 1).random() == generator(2**64 - 1).random()


def test_negative_and_positive_seeds_play_differently() -> None:
    analysis = solve()[Position.resolve(Board.empty())]
    moves = {seed: choose(analysis, Options(skill=0.0, seed=seed)).cell for seed in range(-40, 41)}
    assert any(moves[seed] != moves[-seed] for seed in range(1, 41))


@pytest.mark.parametrize("skill", [-0.1, 1.5])
def test_skill_outside_zero_to_one_is_refused(skill: float) -> None:
    with pytest.raises(ValueError, match="skill"):
        Options(skill=skill)
