"""Difficulty levels: named presets of look-ahead and skill, for opponents people can beat.

A level stands for a combination of :attr:`Options.depth` (how many plies the
engine looks ahead, :mod:`.horizon`) and :attr:`Options.skill` (the chance of
choosing with that horizon rather than uniformly at random): :data:`PRESETS`
lists them, with the kind of player each one plays like.

The presets were chosen by calibration (``make calibrate``, which writes
``docs/levels.md``): each level beats the one before it head to head, and does
better than it both against a uniformly random player and against perfect play.
The same round robin rates every level on the Elo scale, a uniformly random
player anchored at 0 (:data:`RATINGS`).

An opponent of any *rating* from 0 to the ``perfect`` level's (:func:`rated`)
mixes, move by move, the two calibrated players whose ratings are around it.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping
from enum import StrEnum
from fractions import Fraction
from itertools import pairwise
from typing import NamedTuple

from .choice import Options, generator


class Preset(NamedTuple):
    """The options a level stands for."""

    depth: int
    skill: float
    #: The kind of player the level plays like, in a few words.
    plays_like: str


class Level(StrEnum):
    """A named difficulty, weakest first."""

    BEGINNER = "beginner"
    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"
    PERFECT = "perfect"

    @property
    def preset(self) -> Preset:
        """The depth and skill this level stands for."""
        return PRESETS[self]

    def options(self, seed: int | None = None, *, cells: int = 9) -> Options:
        """How a player of this level chooses its move (reproducibly with ``seed``), in a game of
        ``cells`` cells: a preset that sees the whole standard game (depth 9) sees the whole game."""
        preset = self.preset
        return Options(skill=preset.skill, depth=in_game(preset.depth, cells), seed=seed)


def in_game(depth: int, cells: int) -> int:
    """A calibrated player's ``depth`` in a game of ``cells`` cells: a depth that sees the whole standard
    game (9 plies) sees the whole game."""
    return cells if depth >= 9 else depth


#: What every level stands for (see the module's docstring and ``docs/levels.md``).
PRESETS: dict[Level, Preset] = {
    Level.BEGINNER: Preset(2, 0.3, "someone new to the game: mostly anywhere, now and then a win or a block"),
    Level.EASY: Preset(2, 0.6, "a casual player: a win or a block more often than not"),
    Level.MEDIUM: Preset(2, 1.0, "always takes a win or blocks one, otherwise plays anywhere"),
    Level.HARD: Preset(4, 1.0, "also makes forks and sees most of the opponent's coming"),
    Level.PERFECT: Preset(9, 1.0, "perfect play, varied among the optimal moves: never loses"),
}


#: The uniformly random player: not a level, but the anchor of the ratings.
RANDOM = "random"

#: Every calibrated player, weakest first, as the likelihood of a move reads it:
#: ``(name, depth, skill)``, the random player with no depth and skill 0.
STRENGTHS: tuple[tuple[str, int | None, Fraction], ...] = (
    (RANDOM, None, Fraction(0)),
    *((level.value, preset.depth, Fraction(str(preset.skill))) for level, preset in PRESETS.items()),
)

#: The calibrated rating of every player of :data:`STRENGTHS` on the Elo scale, as measured by
#: ``make calibrate`` (``docs/levels.md``, which a test keeps equal to these figures).
RATINGS: dict[str, int] = {
    RANDOM: 0,
    "beginner": 94,
    "easy": 181,
    "medium": 316,
    "hard": 382,
    "perfect": 493,
}

#: The calibrated ratings of every variant whose levels are calibrated (``make calibrate``), by the
#: variant's id: ``rating`` applies in these variants only, and a review's rating comes from here.
#: Each variant has a scale of its own, measured in its own round robin (``docs/levels.md``, which a
#: test keeps equal to these figures).
CALIBRATED: dict[str, dict[str, int]] = {
    "standard": RATINGS,
}

#: The highest rating an opponent may be asked for in the standard game: perfect play's.
MAX_RATING = RATINGS[Level.PERFECT.value]
#: The highest rating an opponent may be asked for in any calibrated variant.
HIGHEST_RATING = max(ratings[Level.PERFECT.value] for ratings in CALIBRATED.values())
#: The names of :data:`STRENGTHS`, weakest first.
NAMES = tuple(name for name, _, _ in STRENGTHS)


def top_rating(ratings: Mapping[str, int] = RATINGS) -> int:
    """The highest rating an opponent may be asked for on the scale ``ratings``: perfect play's."""
    return ratings[Level.PERFECT.value]


class Blend(NamedTuple):
    """An opponent of a typed rating: it plays each move as ``upper`` with probability ``weight``,
    otherwise as ``lower``; both are calibrated players (names of :data:`STRENGTHS`)."""

    lower: str
    upper: str
    weight: float


def blend(rating: float, *, ratings: Mapping[str, int] = RATINGS) -> Blend:
    """The two calibrated players around ``rating`` (0 to :func:`top_rating`), and the weight of the
    stronger: it grows linearly from 0 at the weaker's rating to 1 at the stronger's. ``ratings``
    is the scale: a variant's calibrated ratings (:data:`CALIBRATED`), the standard game's by default;
    they must increase from the random player to perfect play."""
    scale = tuple(ratings[name] for name in NAMES)
    if any(low >= high for low, high in pairwise(scale)):
        raise ValueError(f"the ratings must increase from {NAMES[0]} to {NAMES[-1]}, got {scale}")
    if not 0 <= rating <= scale[-1]:
        raise ValueError(f"rating must be from 0 to {scale[-1]}, got {rating}")
    upper = min(bisect_right(scale, rating), len(scale) - 1)
    lower = upper - 1
    weight = (rating - scale[lower]) / (scale[upper] - scale[lower])
    return Blend(STRENGTHS[lower][0], STRENGTHS[upper][0], weight)


def rated(
    rating: float, seed: int | None = None, *, ratings: Mapping[str, int] = RATINGS, cells: int = 9
) -> Options:
    """How an opponent of ``rating`` on the scale ``ratings`` chooses one move in a game of ``cells``
    cells (reproducibly with ``seed``): one draw picks which of the two players of :func:`blend`
    plays it, and the rest of the seed's stream seeds that player's own choice, its depth read in the
    game as :meth:`Level.options` reads it (:func:`in_game`)."""
    mix = blend(rating, ratings=ratings)
    rng = generator(seed)
    name = mix.upper if rng.random() < mix.weight else mix.lower
    _, depth, skill = STRENGTHS[NAMES.index(name)]
    seen = None if depth is None else in_game(depth, cells)
    return Options(skill=float(skill), depth=seen, seed=rng.getrandbits(64))
