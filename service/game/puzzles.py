"""Puzzles: positions where exactly one move keeps what the position is worth.

A *puzzle* is an unfinished position with at least two legal moves in which exactly
one move keeps the position's score, and that score is a win or a draw; that move is
its *solution*. Positions that are the same under the eight symmetries of the square
(:data:`~.geometry.SYMMETRIES`) are one puzzle, posed on its *canonical* board: the
smallest of the eight transformed boards, compared as text, with the same side to move.
Its id is that board followed by the side to move.

Each puzzle carries its *themes* (the solution's tactics, without where it is on the
board), the sentence that explains the solution, the probability that each calibrated
player (:data:`~.levels.STRENGTHS`) plays the solution (the likelihood of
:mod:`.review`), and its *rating*: the calibrated rating of the weakest of them who
plays it with a probability of at least one half.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, TypeAlias

from .board import Mark
from .geometry import images
from .levels import RATINGS, STRENGTHS
from .review import likelihood
from .solver import Analysis, MoveValue, Outcome, SolvedGame
from .tactics import explain

#: The tactics that make a puzzle's themes, in their order of :data:`~.tactics.Tactic`.
Theme: TypeAlias = Literal["win", "block", "fork", "threat", "block_fork"]
THEMES: tuple[Theme, ...] = ("win", "block", "fork", "threat", "block_fork")

#: A player solves a puzzle, for its rating, when it plays the solution at least this often.
SOLVED = Fraction(1, 2)


def canonical_form(cells: str) -> str:
    """The smallest of the eight transforms of a 9-character board text, compared as text."""
    return min(images(cells))


@dataclass(frozen=True, slots=True)
class Puzzle:
    """One puzzle, on its canonical board (see the module's docstring)."""

    id: str
    board: str
    player: Mark
    solution: int
    outcome: Outcome
    plies: int
    themes: tuple[Theme, ...]
    reason: str
    solve_rates: dict[str, Fraction]
    rating: int


def puzzles(game: SolvedGame) -> tuple[Puzzle, ...]:
    """Every puzzle of the game, one per symmetry class, in order of rating, then id."""
    found = (
        _puzzle(analysis, solution)
        for analysis in game
        if (solution := _solution(analysis)) is not None
        and canonical_form(analysis.position.board.cells) == analysis.position.board.cells
    )
    return tuple(sorted(found, key=lambda puzzle: (puzzle.rating, puzzle.id)))


def _solution(analysis: Analysis) -> MoveValue | None:
    """The only move that keeps the score of a position that is a puzzle; ``None`` when it is not one."""
    if (
        analysis.position.to_move is None
        or len(analysis.moves) < 2
        or analysis.score is None
        or analysis.score < 0
    ):
        return None
    keeping = [move for move in analysis.moves if move.score == analysis.score]
    return keeping[0] if len(keeping) == 1 else None


def _puzzle(analysis: Analysis, solution: MoveValue) -> Puzzle:
    """The puzzle of a position whose only move keeping the score is ``solution``."""
    position, mover = analysis.position, analysis.position.to_move
    assert mover is not None
    tactics, reason = explain(position.board, mover, solution.cell, solution.score, solution.plies)
    rates = {name: likelihood(position, solution.cell, depth, skill) for name, depth, skill in STRENGTHS}
    return Puzzle(
        id=position.board.cells + mover,
        board=position.board.cells,
        player=mover,
        solution=solution.cell,
        outcome=solution.outcome,
        plies=solution.plies,
        themes=tuple(tactic for tactic in THEMES if tactic in tactics),
        reason=reason,
        solve_rates=rates,
        rating=next(RATINGS[name] for name, rate in rates.items() if rate >= SOLVED),
    )
