"""How the engine picks its move: perfect by default, weaker on request.

* With default options the move is the first of :attr:`Analysis.moves`
  (steps 1–4 of the move order), always the same.
* ``randomize`` breaks the ties left after steps 1–2 uniformly at random
  instead of by steps 3–4: still optimal, but varied.
* ``skill`` is a difficulty slider from 0 to 1: with probability ``skill``
  the move is chosen as above, otherwise uniformly from all legal moves.
  ``1`` is perfect play, ``0`` a random player.

A ``seed`` makes every random draw reproducible, and every integer seed has a stream of
its own (:func:`generator`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .solver import Analysis, MoveValue


@dataclass(frozen=True, slots=True)
class Options:
    """How to choose a move."""

    skill: float = 1.0
    randomize: bool = False
    seed: int | None = None

    def __post_init__(self) -> None:
        if not 0.0 <= self.skill <= 1.0:
            raise ValueError(f"skill must be between 0 and 1, got {self.skill}")

    @property
    def deterministic(self) -> bool:
        """Whether the choice involves no randomness (and so is always the same move)."""
        return self.skill >= 1.0 and not self.randomize


DEFAULT = Options()


def generator(seed: int | None) -> random.Random:
    """The random generator of a request: fresh entropy without a seed, else one stream per seed.

    :class:`random.Random` seeds with the absolute value of an integer, so ``5`` and ``-5``
    would share a stream. A non-negative seed is used as it is (its stream stays what it has
    always been); a negative one seeds with its decimal text, which is hashed to a number far
    beyond every integer seed.
    """
    if seed is None:
        return random.Random()
    return random.Random(seed if seed >= 0 else str(seed))


def choose(analysis: Analysis, options: Options = DEFAULT) -> MoveValue:
    """The move to play in the position of ``analysis`` (which must not be finished)."""
    if not analysis.moves:
        raise ValueError("the game is over: there is no move to make")
    if options.deterministic:
        return analysis.moves[0]
    rng = generator(options.seed)
    if rng.random() >= options.skill:
        return rng.choice(sorted(analysis.moves, key=lambda move: move.cell))
    if options.randomize:
        best = set(analysis.best_moves)
        return rng.choice(
            [move for move in sorted(analysis.moves, key=lambda m: m.cell) if move.cell in best]
        )
    return analysis.moves[0]
