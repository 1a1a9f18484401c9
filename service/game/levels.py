"""Difficulty levels: named presets of look-ahead and skill, for opponents people can beat.

A level stands for a combination of :attr:`Options.depth` (how many plies the
engine looks ahead, :mod:`.horizon`) and :attr:`Options.skill` (the chance of
choosing with that horizon rather than uniformly at random): :data:`PRESETS`
lists them, with the kind of player each one plays like.

The presets were chosen by calibration (``make calibrate``, which writes
``docs/levels.md``): each level beats the one before it head to head, and does
better than it both against a uniformly random player and against perfect play.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from .choice import Options


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

    def options(self, seed: int | None = None) -> Options:
        """How a player of this level chooses its move (reproducibly with ``seed``)."""
        preset = self.preset
        return Options(skill=preset.skill, depth=preset.depth, seed=seed)


#: What every level stands for (see the module's docstring and ``docs/levels.md``).
PRESETS: dict[Level, Preset] = {
    Level.BEGINNER: Preset(2, 0.3, "someone new to the game: mostly anywhere, now and then a win or a block"),
    Level.EASY: Preset(2, 0.6, "a casual player: a win or a block more often than not"),
    Level.MEDIUM: Preset(2, 1.0, "always takes a win or blocks one, otherwise plays anywhere"),
    Level.HARD: Preset(4, 1.0, "also makes forks and sees most of the opponent's coming"),
    Level.PERFECT: Preset(9, 1.0, "perfect play, varied among the optimal moves: never loses"),
}
