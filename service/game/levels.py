"""Difficulty levels: named presets of look-ahead and skill, for opponents people can beat, in every
variant.

A level stands for a combination of :attr:`Options.depth` (how many plies the
engine looks ahead) and :attr:`Options.skill` (the chance of choosing with that
horizon rather than uniformly at random). The same five :class:`Level` names hold
in every variant, but each variant has a :class:`Ladder` of its own (:data:`LADDERS`):
its presets, with depths in the variant's own plies, and the ratings measured there.

The presets were chosen by calibration in each variant (``make calibrate``, which
writes ``docs/levels.md``): each level beats the one before it head to head, and
does better than it both against a uniformly random player and against perfect
play. The same round robin rates every level on the Elo scale of its variant, a
uniformly random player anchored at 0 (:attr:`Ladder.ratings`).

An opponent of any *rating* from 0 to the ``perfect`` level's (:meth:`Ladder.rated`)
mixes, move by move, the two calibrated players whose ratings are around it.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from itertools import pairwise
from typing import NamedTuple

from .choice import Options, generator


class Preset(NamedTuple):
    """The options a level stands for: ``depth`` in the plies of its variant, and ``skill``."""

    depth: int
    skill: float


class Level(StrEnum):
    """A named difficulty, weakest first."""

    BEGINNER = "beginner"
    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"
    PERFECT = "perfect"


#: The uniformly random player: not a level, but the anchor of the ratings.
RANDOM = "random"
#: Every calibrated player of a ladder, weakest first: the random player, then the levels.
NAMES: tuple[str, ...] = (RANDOM, *(level.value for level in Level))


class Blend(NamedTuple):
    """An opponent of a typed rating: it plays each move as ``upper`` with probability ``weight``,
    otherwise as ``lower``; both are calibrated players (names of :data:`NAMES`)."""

    lower: str
    upper: str
    weight: float


@dataclass(frozen=True)
class Ladder:
    """One variant's five levels (``presets``, weakest first) and, once the calibration has found
    every check passing there, the rating of every player of :data:`NAMES` on the variant's own
    Elo scale (``ratings``; ``None`` while the variant is not calibrated)."""

    presets: Mapping[Level, Preset]
    ratings: Mapping[str, int] | None = None

    def __post_init__(self) -> None:
        if list(self.presets) != list(Level):
            raise ValueError(f"a ladder names the levels {[level.value for level in Level]}, in that order")
        scale = self.ratings
        if scale is not None and any(scale[low] >= scale[high] for low, high in pairwise(NAMES)):
            raise ValueError(f"the ratings must increase from {NAMES[0]} to {NAMES[-1]}, got {scale}")

    @property
    def strengths(self) -> tuple[tuple[str, int | None, Fraction], ...]:
        """Every calibrated player, weakest first, as the likelihood of a move reads it:
        ``(name, depth, skill)``, the random player with no depth and skill 0."""
        return (
            (RANDOM, None, Fraction(0)),
            *(
                (level.value, preset.depth, Fraction(str(preset.skill)))
                for level, preset in self.presets.items()
            ),
        )

    @property
    def rating_max(self) -> int | None:
        """The highest rating an opponent may be asked for: perfect play's (``None`` uncalibrated)."""
        return None if self.ratings is None else self.ratings[Level.PERFECT.value]

    def options(self, level: Level, seed: int | None = None) -> Options:
        """How a player of ``level`` chooses its move, reproducibly with ``seed``."""
        preset = self.presets[level]
        return Options(skill=preset.skill, depth=preset.depth, seed=seed)

    def blend(self, rating: float) -> Blend:
        """The two calibrated players around ``rating`` (0 to :attr:`rating_max`), and the weight of
        the stronger: it grows linearly from 0 at the weaker's rating to 1 at the stronger's."""
        if self.ratings is None:
            raise ValueError("this ladder is not calibrated: it has no ratings")
        scale = tuple(self.ratings[name] for name in NAMES)
        if not 0 <= rating <= scale[-1]:
            raise ValueError(f"rating must be from 0 to {scale[-1]}, got {rating}")
        upper = min(bisect_right(scale, rating), len(scale) - 1)
        lower = upper - 1
        weight = (rating - scale[lower]) / (scale[upper] - scale[lower])
        return Blend(NAMES[lower], NAMES[upper], weight)

    def rated(self, rating: float, seed: int | None = None) -> Options:
        """How an opponent of ``rating`` chooses one move (reproducibly with ``seed``): one draw picks
        which of the two players of :meth:`blend` plays it, and the rest of the seed's stream seeds
        that player's own choice."""
        mix = self.blend(rating)
        rng = generator(seed)
        name = mix.upper if rng.random() < mix.weight else mix.lower
        _, depth, skill = self.strengths[NAMES.index(name)]
        return Options(skill=float(skill), depth=depth, seed=rng.getrandbits(64))


#: The standard game's ladder: what its levels stand for, and their ratings, as measured by
#: ``make calibrate`` (``docs/levels.md``, which a test keeps equal to these figures).
STANDARD_LADDER = Ladder(
    presets={
        Level.BEGINNER: Preset(2, 0.3),
        Level.EASY: Preset(2, 0.6),
        Level.MEDIUM: Preset(2, 1.0),
        Level.HARD: Preset(4, 1.0),
        Level.PERFECT: Preset(9, 1.0),
    },
    ratings={RANDOM: 0, "beginner": 94, "easy": 181, "medium": 316, "hard": 382, "perfect": 493},
)

#: The kind of player each of the standard game's levels plays like, in a few words.
PLAYS_LIKE: dict[Level, str] = {
    Level.BEGINNER: "someone new to the game: mostly anywhere, now and then a win or a block",
    Level.EASY: "a casual player: a win or a block more often than not",
    Level.MEDIUM: "always takes a win or blocks one, otherwise plays anywhere",
    Level.HARD: "also makes forks and sees most of the opponent's coming",
    Level.PERFECT: "perfect play, varied among the optimal moves: never loses",
}


def _ladder(cells: int, *steps: tuple[int, float], ratings: Sequence[int] | None = None) -> Ladder:
    """A variant's ladder: the (depth, skill) of beginner, easy, medium and hard, perfect play seeing
    all ``cells`` cells, and the ratings of random, the four and perfect, where calibrated."""
    presets = dict(
        zip(Level, (*(Preset(depth, skill) for depth, skill in steps), Preset(cells, 1.0)), strict=True)
    )
    return Ladder(presets, None if ratings is None else dict(zip(NAMES, ratings, strict=True)))


#: Every variant's ladder, by the variant's id, in the order of the registry, as ``make calibrate``
#: chose and measured it (``docs/levels.md``, which a test keeps equal to these figures).
LADDERS: dict[str, Ladder] = {
    "standard": STANDARD_LADDER,
    "misere": _ladder(9, (3, 0.3), (4, 0.6), (5, 0.8), (7, 0.9), ratings=(0, 53, 120, 196, 285, 413)),
    "wild": _ladder(9, (2, 0.3), (3, 0.5), (5, 0.7), (5, 0.9), ratings=(0, 155, 250, 358, 483, 683)),
    "notakto": _ladder(9, (6, 0.2), (6, 0.4), (6, 0.6), (6, 0.8), ratings=(0, 61, 129, 216, 337, 518)),
    "notakto-2": _ladder(18, (18, 0.3), (18, 0.5), (18, 0.7), (18, 0.9), ratings=(0, 92, 177, 292, 477, 613)),
    "notakto-3": _ladder(
        27, (27, 0.4), (27, 0.6), (27, 0.75), (27, 0.9), ratings=(0, 131, 226, 344, 499, 652)
    ),
    "4x4": _ladder(16, (2, 0.2), (2, 0.4), (2, 0.7), (4, 0.8), ratings=(0, 50, 100, 164, 206, 258)),
    "4x4-3": _ladder(16, (2, 0.3), (2, 0.7), (3, 0.8), (4, 0.9), ratings=(0, 164, 315, 452, 542, 709)),
}

#: The highest rating an opponent may be asked for in any calibrated variant.
HIGHEST_RATING = max(ladder.rating_max or 0 for ladder in LADDERS.values())
