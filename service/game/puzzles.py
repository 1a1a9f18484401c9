"""Puzzles: positions where exactly one move keeps what the position is worth, in every variant.

A *puzzle* is an unfinished position with at least two legal moves in which exactly one move keeps
the position's score, and that score is a win or a draw; that move is its *solution* (in ``wild`` a
cell and a mark). Positions that are alike are one puzzle, posed on its *canonical* board: the
smallest of the alike boards, compared as text, with the same side to move. Alike boards are those
the symmetries of the square make of each other, applied to every board at once; in Notakto, where
no board's marks depend on another's, each board's own symmetries and any order of the boards
(:func:`canonical_form`). Its id is that board, after the variant's id and a colon outside the
default variant, then the side to move where the sides are X and O (:func:`puzzle_id`).

Each puzzle carries its *themes* (the solution's tactics, without those of where it is on the board,
:data:`~.tactics.PLACES`), the sentence that explains the solution (:mod:`.tactics`), the
probability that each calibrated player of the variant's ladder (:attr:`~.levels.Ladder.strengths`)
plays the solution (:func:`~.review.likelihood`), and its *rating*: the calibrated rating of the
weakest of them who plays it with a probability of at least one half. A variant's puzzles are found
from its exact values (:class:`~.exact.Values`) by walking every position a game can reach, with
either side first, one per class of alike positions (:func:`canonical_positions`).

A variant's *book* holds every puzzle where there are at most :data:`COMPLETE_UP_TO`; otherwise a
selection of at least :data:`SELECTED` spread over the ratings and themes (:func:`selection`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import chain, zip_longest
from operator import itemgetter

from .exact import OUTCOMES, Outcome, RankedMove, Values
from .geometry import grid
from .levels import Ladder
from .review import likelihood
from .tactics import PLACES, TACTICS, explain_move
from .variants import O_MARK, STANDARD, VARIANTS, X_MARK, Move, State, Variant

#: A player solves a puzzle, for its rating, when it plays the solution at least this often.
SOLVED = Fraction(1, 2)
#: A book holds every puzzle of its variant up to this many, else a selection (:func:`selection`).
COMPLETE_UP_TO = 50_000
#: How many puzzles a selection holds at least.
SELECTED = 5_000


def themes_of(variant: Variant) -> tuple[str, ...]:
    """The tactics of ``variant`` that make a puzzle's themes, in their order: all but places."""
    return tuple(tag for tag in TACTICS[variant.id] if tag not in PLACES)


#: Every theme of any variant, each once, in the order of the registry's variants and their tactics.
THEMES: tuple[str, ...] = tuple(dict.fromkeys(chain.from_iterable(map(themes_of, VARIANTS.values()))))


def canonical_form(variant: Variant, cells: str) -> str:
    """The smallest of the boards alike to the board text ``cells`` of ``variant``, compared as text
    (see the module's docstring): each board at its smallest, the boards in order. A variant of one
    board has only the symmetries of the square; one of several, Notakto, also any order of them."""
    picks, width = _pickers(variant.size), variant.board_cells
    boards = (cells[start : start + width] for start in range(0, len(cells), width))
    return "".join(sorted(min("".join(pick(board)) for pick in picks) for board in boards))


@cache
def _pickers(size: int) -> tuple[Callable[[str], tuple[str, ...]], ...]:
    """What picks the old cells of a board text in the order of each symmetry of the grid."""
    return tuple(itemgetter(*symmetry) for symmetry in grid(size, size).symmetries)


def puzzle_id(variant: Variant, cells: str, mover: str) -> str:
    """The id of the puzzle on the canonical ``cells`` of ``variant`` with ``mover`` to move: the board,
    after ``<variant>:`` outside the default variant, then the side where the sides are X and O."""
    prefix = "" if variant is STANDARD else f"{variant.id}:"
    return prefix + cells + (mover if variant.marks == "own" else "")


def read_id(puzzle_id: str) -> tuple[Variant, str, str | None] | None:
    """The variant, board text and side of a puzzle id as :func:`puzzle_id` writes them (the side
    ``None`` where the board implies it); ``None`` when the id names no variant."""
    name, colon, rest = puzzle_id.rpartition(":")
    variant = VARIANTS.get(name) if colon else STANDARD
    if variant is None:
        return None
    if variant.marks == "own":
        return variant, rest[:-1], rest[-1:]
    return variant, rest, None


def cells_of(variant: Variant, state: State) -> str:
    """The board text of ``state``: ``X``, ``O`` and ``.``, cell by cell."""
    return "".join(
        "X" if state.x >> cell & 1 else "O" if state.o >> cell & 1 else "." for cell in range(variant.cells)
    )


def state_of(cells: str, mover: int) -> State:
    """The state of a board text with ``mover`` to move."""
    x = sum(1 << cell for cell, mark in enumerate(cells) if mark == "X")
    o = sum(1 << cell for cell, mark in enumerate(cells) if mark == "O")
    return State(x, o, mover)


def canonical_positions(variant: Variant) -> Iterator[State]:
    """One state per class of alike unfinished positions a game of ``variant`` can reach (with either
    side first where the sides have marks), each on its canonical board, in no particular order."""
    seen: set[tuple[str, int]] = set()
    waiting = [variant.start(first) for first in ((X_MARK, O_MARK) if variant.marks == "own" else (X_MARK,))]
    while waiting:
        state = waiting.pop()
        canonical = (canonical_form(variant, cells_of(variant, state)), state.mover)
        if canonical in seen:
            continue
        seen.add(canonical)
        yield state_of(*canonical)
        for move in variant.moves(state):
            after, ended = variant.play(state, move)
            if ended is None:
                waiting.append(after)


@dataclass(frozen=True, slots=True)
class Puzzle:
    """One puzzle, on its canonical board (see the module's docstring)."""

    variant: Variant
    id: str
    board: str
    player: str
    solution: Move
    outcome: Outcome
    plies: int
    themes: tuple[str, ...]
    reason: str
    solve_rates: dict[str, Fraction]
    rating: int


def puzzles(values: Values, ladder: Ladder) -> tuple[Puzzle, ...]:
    """Every puzzle of the variant of ``values``, one per class of alike positions, with the solve rates
    of the players of ``ladder`` (the variant's, calibrated), rated on its scale, in order of rating,
    then id."""
    if ladder.ratings is None:
        raise ValueError("puzzles are rated on a calibrated ladder: this one has no ratings")
    found = []
    for state in canonical_positions(values.variant):
        solution = _solution(values.ranked(state))
        if solution is not None:
            found.append(_puzzle(values, state, solution, ladder.strengths, ladder.ratings))
    return tuple(sorted(found, key=lambda puzzle: (puzzle.rating, puzzle.id)))


def _solution(ranked: list[RankedMove]) -> RankedMove | None:
    """The only move that keeps the score of a position that is a puzzle; ``None`` when it is not one."""
    if len(ranked) < 2 or ranked[0].score < 0:
        return None
    return ranked[0] if ranked[1].score != ranked[0].score else None


def _puzzle(
    values: Values,
    state: State,
    solution: RankedMove,
    strengths: Sequence[tuple[str, int | None, Fraction]],
    ratings: Mapping[str, int],
) -> Puzzle:
    """The puzzle of a position on its canonical board whose only move keeping the score is
    ``solution``."""
    variant = values.variant
    move = Move(solution.cell, solution.mark)
    mover = variant.sides[state.mover]
    cells = cells_of(variant, state)
    tactics, reason = explain_move(variant, state, move, solution.score, solution.plies)
    rates = {name: likelihood(values, state, move, depth, skill) for name, depth, skill in strengths}
    return Puzzle(
        variant=variant,
        id=puzzle_id(variant, cells, mover),
        board=cells,
        player=mover,
        solution=move,
        outcome=OUTCOMES[solution.score],
        plies=solution.plies,
        themes=tuple(tactic for tactic in themes_of(variant) if tactic in tactics),
        reason=reason,
        solve_rates=rates,
        rating=next(ratings[name] for name, rate in rates.items() if rate >= SOLVED),
    )


def selection(found: Sequence[Puzzle]) -> tuple[Puzzle, ...]:
    """The book of a variant whose puzzles are ``found``: all of them up to :data:`COMPLETE_UP_TO`, else
    at least :data:`SELECTED`, spread over the ratings and themes, in order of rating, then id.

    The puzzles are grouped by rating and themes, each group in the order of the SHA-256 of the ids;
    rounds then take the next puzzle of every group that has one left, until a round ends with at
    least :data:`SELECTED` taken: every group gives as many as the rounds, or all it has."""
    if len(found) <= COMPLETE_UP_TO:
        return tuple(found)
    groups: dict[tuple[int, tuple[str, ...]], list[Puzzle]] = {}
    for puzzle in found:
        groups.setdefault((puzzle.rating, puzzle.themes), []).append(puzzle)
    ordered = [sorted(group, key=_digest) for _, group in sorted(groups.items())]
    chosen: list[Puzzle] = []
    for round_ in zip_longest(*ordered):
        chosen.extend(puzzle for puzzle in round_ if puzzle is not None)
        if len(chosen) >= SELECTED:
            break
    return tuple(sorted(chosen, key=lambda puzzle: (puzzle.rating, puzzle.id)))


def _digest(puzzle: Puzzle) -> str:
    return hashlib.sha256(puzzle.id.encode()).hexdigest()
