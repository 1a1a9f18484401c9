"""Puzzles: positions where exactly one move keeps what the position is worth.

A *puzzle* is an unfinished position with at least two legal moves in which exactly one move keeps
the position's score, and that score is a win or a draw; that move is its *solution*. Positions
that are the same under the symmetries of the board (:attr:`~.geometry.Grid.symmetries`) are one
puzzle, posed on its *canonical* board: the smallest of the transformed boards, compared as text,
with the same side to move. Its id is that board followed by the side to move.

Each puzzle carries its *themes* (the solution's tactics, without where it is on the board), the
sentence that explains the solution (:mod:`.tactics`), the probability that each calibrated
player of the variant's ladder (:attr:`~.levels.Ladder.strengths`) plays the solution
(:func:`~.review.likelihood`), and its *rating*: the calibrated rating of the weakest of them who
plays it with a probability of at least one half. The book is made from the variant's exact values
(:class:`~.exact.Values`), over every position a game can reach with either side first
(:func:`~.variants.reach`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from operator import itemgetter
from typing import Literal, TypeAlias

from .exact import OUTCOMES, Outcome, RankedMove, Values
from .geometry import grid
from .levels import Ladder
from .review import likelihood
from .tactics import explain_move
from .variants import Move, State, Variant, reach

#: The tactics that make a puzzle's themes, in the order in which tactics are listed.
Theme: TypeAlias = Literal["win", "block", "fork", "threat", "block_fork"]
THEMES: tuple[Theme, ...] = ("win", "block", "fork", "threat", "block_fork")

#: A player solves a puzzle, for its rating, when it plays the solution at least this often.
SOLVED = Fraction(1, 2)


def canonical_form(variant: Variant, cells: str) -> str:
    """The smallest of the transforms of a board text of ``variant`` (one board), compared as text."""
    return min("".join(pick(cells)) for pick in _pickers(variant.size))


@cache
def _pickers(size: int) -> tuple[Callable[[str], tuple[str, ...]], ...]:
    """What picks the old cells of a board text in the order of each symmetry of the grid."""
    return tuple(itemgetter(*symmetry) for symmetry in grid(size, size).symmetries)


@dataclass(frozen=True, slots=True)
class Puzzle:
    """One puzzle, on its canonical board (see the module's docstring)."""

    id: str
    board: str
    player: str
    solution: int
    outcome: Outcome
    plies: int
    themes: tuple[Theme, ...]
    reason: str
    solve_rates: dict[str, Fraction]
    rating: int


def puzzles(values: Values, ladder: Ladder) -> tuple[Puzzle, ...]:
    """Every puzzle of the variant of ``values``, one per symmetry class, with the solve rates of the
    players of ``ladder`` (the variant's, calibrated), rated on its scale, in order of rating, then id."""
    if ladder.ratings is None:
        raise ValueError("puzzles are rated on a calibrated ladder: this one has no ratings")
    variant = values.variant
    found = []
    for state in reach(variant.id).unfinished:
        cells = cells_of(variant, state)
        if canonical_form(variant, cells) != cells:
            continue
        ranked = values.ranked(state)
        solution = _solution(ranked)
        if solution is not None:
            found.append(
                _puzzle(values, state, cells, solution, strengths=ladder.strengths, ratings=ladder.ratings)
            )
    return tuple(sorted(found, key=lambda puzzle: (puzzle.rating, puzzle.id)))


def cells_of(variant: Variant, state: State) -> str:
    """The board text of ``state``: ``X``, ``O`` and ``.``, cell by cell."""
    return "".join(
        "X" if state.x >> cell & 1 else "O" if state.o >> cell & 1 else "." for cell in range(variant.cells)
    )


def _solution(ranked: list[RankedMove]) -> RankedMove | None:
    """The only move that keeps the score of a position that is a puzzle; ``None`` when it is not one."""
    if len(ranked) < 2 or ranked[0].score < 0:
        return None
    return ranked[0] if ranked[1].score != ranked[0].score else None


def _puzzle(
    values: Values,
    state: State,
    cells: str,
    solution: RankedMove,
    *,
    strengths: Sequence[tuple[str, int | None, Fraction]],
    ratings: Mapping[str, int],
) -> Puzzle:
    """The puzzle of a position whose only move keeping the score is ``solution``."""
    variant = values.variant
    move = Move(solution.cell, solution.mark)
    mover = variant.sides[state.mover]
    tactics, reason = explain_move(variant, state, move, solution.score, solution.plies)
    rates = {name: likelihood(values, state, move, depth, skill) for name, depth, skill in strengths}
    return Puzzle(
        id=cells + mover,
        board=cells,
        player=mover,
        solution=solution.cell,
        outcome=OUTCOMES[solution.score],
        plies=solution.plies,
        themes=tuple(tactic for tactic in THEMES if tactic in tactics),
        reason=reason,
        solve_rates=rates,
        rating=next(ratings[name] for name, rate in rates.items() if rate >= SOLVED),
    )
