"""How the engine picks its move in any variant: perfect by default, weaker on request.

* With default options the move is the first ranked move (:meth:`.exact.Values.ranked`, steps 1–4
  of the move order), always the same.
* ``randomize`` breaks the ties left after steps 1–2 uniformly at random instead of by steps 3–4:
  still optimal, but varied.
* ``skill`` is a difficulty slider from 0 to 1: with probability ``skill`` the move is chosen as
  above, otherwise uniformly from all legal moves. ``1`` is perfect play, ``0`` a random player.
* ``depth`` (1 to the variant's cells) makes the engine look only that many plies ahead
  (:meth:`.exact.Values.within`): the move is drawn uniformly from the moves best within that
  horizon (``randomize`` adds nothing to it). With ``skill`` below 1, the random legal move still
  comes first, with probability ``1 - skill``.

Draws take the moves by cell, then X before O. A ``seed`` makes every random draw reproducible, and
every integer seed has a stream of its own (:func:`generator`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from .exact import RankedMove, rank
from .variants import Move

#: The deepest horizon of any game of the family: every cell of Notakto's three boards.
MAX_DEPTH = 27
#: What each depth finds, in the words the API's schema, the CLI's help and the docs use.
DEPTH_IN_WORDS = (
    "1 takes a win, 2 also blocks, 3 also forks, and a depth of at least the moves left plays perfectly"
)


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


def choose(
    ranked: Sequence[RankedMove],
    options: Options = DEFAULT,
    within: Callable[[int], Collection[Move]] | None = None,
) -> RankedMove:
    """The move to play among ``ranked`` (:meth:`.exact.Values.ranked` of an unfinished position)
    under ``options`` (see the module's docstring); ``within`` gives the moves best within a depth
    (:meth:`.exact.Values.within` of the position), which ``depth`` needs."""
    if not ranked:
        raise ValueError("the game is over: there is no move to make")
    if options.deterministic:
        return ranked[0]
    rng = generator(options.seed)
    if rng.random() >= options.skill:
        return _drawn(rng, ranked)
    if options.depth is not None:
        if within is None:
            raise ValueError("a depth needs the moves best within it")
        best = within(options.depth)
        return _drawn(rng, [m for m in ranked if Move(m.cell, m.mark) in best])
    if options.randomize:
        top = rank((ranked[0].score, ranked[0].plies))
        return _drawn(rng, [m for m in ranked if rank((m.score, m.plies)) == top])
    return ranked[0]


def _drawn(rng: random.Random, moves: Sequence[RankedMove]) -> RankedMove:
    """One of ``moves``, drawn uniformly, taken by cell, then X before O."""
    return rng.choice(sorted(moves, key=lambda m: (m.cell, m.mark)))
