"""How the engine picks its move: perfect by default, weaker on request.

* With default options the move is the first of :attr:`Analysis.moves`
  (steps 1–4 of the move order), always the same.
* ``randomize`` breaks the ties left after steps 1–2 uniformly at random
  instead of by steps 3–4: still optimal, but varied.
* ``skill`` is a difficulty slider from 0 to 1: with probability ``skill``
  the move is chosen as above, otherwise uniformly from all legal moves.
  ``1`` is perfect play, ``0`` a random player.
* ``depth`` (1 to 9, or to the cells of a variant) makes the engine look only
  that many plies ahead (:mod:`.horizon`; :meth:`.exact.Values.within` in the
  variants): the move is drawn uniformly from the moves best within that
  horizon (``randomize`` adds nothing to it). With ``skill`` below 1, the
  random legal move still comes first, with probability ``1 - skill``.

A ``seed`` makes every random draw reproducible, and every integer seed has a stream of
its own (:func:`generator`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .horizon import best_cells
from .solver import Analysis, MoveValue

#: The deepest horizon of any game of the family: every cell of Notakto's three boards.
MAX_DEPTH = 27


@dataclass(frozen=True, slots=True)
class Options:
    """How to choose a move."""

    skill: float = 1.0
    randomize: bool = False
    seed: int | None = None
    depth: int | None = None

    def __post_init__(self) -> None:
        if not 0.0 <= self.skill <= 1.0:
            raise ValueError(f"skill must be between 0 and 1, got {self.skill}")
        if self.depth is not None and not 1 <= self.depth <= MAX_DEPTH:
            raise ValueError(f"depth must be from 1 to {MAX_DEPTH}, got {self.depth}")

    @property
    def deterministic(self) -> bool:
        """Whether the choice involves no randomness (and so is always the same move)."""
        return self.skill >= 1.0 and not self.randomize and self.depth is None


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
        return _drawn(rng, analysis, {move.cell for move in analysis.moves})
    if options.depth is not None:
        return _drawn(rng, analysis, set(best_cells(analysis.position, options.depth)))
    if options.randomize:
        return _drawn(rng, analysis, set(analysis.best_moves))
    return analysis.moves[0]


def _drawn(rng: random.Random, analysis: Analysis, cells: set[int]) -> MoveValue:
    """A move drawn uniformly from those on ``cells``, taken in the order of their cells."""
    return rng.choice(sorted((move for move in analysis.moves if move.cell in cells), key=lambda m: m.cell))
