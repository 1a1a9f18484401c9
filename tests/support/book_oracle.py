"""The puzzle books of every variant, worked out again from the contract over the variant oracle.

It shares nothing with ``service``: positions, moves and values come from the textbook oracle
(:mod:`tests.support.variant_oracle`), solve rates from the review oracle's likelihoods
(:mod:`tests.support.variant_review_oracle`), themes from the tactics oracle
(:mod:`tests.support.tactics_oracle`), and the strengths and ratings of each variant from
``docs/levels.md`` (:func:`tests.support.coach_oracle.documented_ladder`).

A *puzzle* ("Puzzles", "Every capability in every variant") is an unfinished position a game
reaches, with at least two legal moves, exactly one of which keeps the position's score, a win or a
draw; it is posed on its canonical board: the smallest of the alike boards compared as text (the
eight symmetries of the square applied to the whole board; in Notakto each board's own eight, and
the boards in any order). The shipped book files (``service/answers/data/<variant>.book``) are read
here as text, as a user's copy of the package holds them.

Notakto with two or three boards is solved with a memo keyed by the canonical board
(:class:`CanonicalNotakto`): a value does not change when a board is turned or the boards are
reordered, since no board's lines depend on another's and every move places ``X``. Its positions are
walked one per class of alike positions (:func:`canonical_positions`): three boards reach about 80
million positions, but far fewer classes.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import Any, NamedTuple

from tests.support import ROOT
from tests.support import coach_oracle as co
from tests.support import tactics_oracle as to
from tests.support import variant_review_oracle as vro
from tests.support.variant_oracle import VARIANTS as ORACLES
from tests.support.variant_oracle import Rules

#: Where the shipped books are.
DATA = ROOT / "service" / "answers" / "data"
#: The tags of where a move is, which are not themes.
PLACES = frozenset({"center", "corner", "edge", "opposite_corner", "opposite"})
#: A player solves a puzzle, for its rating, when it plays the solution at least this often.
SOLVED = Fraction(1, 2)
#: The variants whose book holds every puzzle, and how many each has (notakto-3's as the oracle's
#: walk of its classes finds them).
COMPLETE = {
    "standard": 588,
    "misere": 468,
    "wild": 442,
    "notakto": 16,
    "notakto-2": 804,
    "notakto-3": 23_568,
}
#: The variants whose book is a selection.
SELECTED = ("4x4", "4x4-3")
#: A selection holds at least this many, of a variant with more than :data:`COMPLETE_UP_TO`.
AT_LEAST, COMPLETE_UP_TO = 5_000, 50_000

Strengths = tuple[tuple[str, int | None, Fraction], ...]


class Line(NamedTuple):
    """One puzzle's line of a book file: its fields before the JSON, and the JSON read."""

    id: str
    rating: int
    outcome: str
    themes: tuple[str, ...]
    etag: str
    body: bytes
    puzzle: dict[str, Any]


@dataclass(frozen=True)
class BookFile:
    """A shipped book: how many puzzles its variant has in all, and its lines in order."""

    found: int
    lines: tuple[Line, ...] = field(repr=False)


@cache
def shipped(variant_id: str) -> BookFile:
    """The book file shipped for ``variant_id``, read as text."""
    text = (DATA / f"{variant_id}.book").read_bytes()
    first, *rest = text.split(b"\n")
    assert rest[-1] == b"", "a book ends with a newline"
    mark, found = first.split(b"\t")
    assert mark == b"#", first
    lines = []
    for raw in rest[:-1]:
        puzzle_id, rating, outcome, themes, tag, body = raw.split(b"\t")
        lines.append(
            Line(
                puzzle_id.decode(),
                int(rating),
                outcome.decode(),
                tuple(themes.decode().split(",")) if themes else (),
                tag.decode(),
                body,
                json.loads(body),
            )
        )
    return BookFile(int(found), tuple(lines))


def ladder(variant_id: str) -> tuple[Strengths, dict[str, int]]:
    """The variant's strengths and ratings as ``docs/levels.md`` documents them."""
    strengths, ratings = co.documented_ladder(variant_id)
    assert ratings is not None, f"docs/levels.md does not document {variant_id} as calibrated"
    return strengths, ratings


# --- the rules, with a memo by class for Notakto ----------------------------------------------------


class CanonicalNotakto(Rules):
    """Notakto on several boards with its memo keyed by the canonical board; whether a board is dead
    remembered (by board: there are 512), and the recent boards' canonical forms and boards after a
    move (a puzzle's likelihoods play each of its moves again for every level)."""

    #: How many recent results are kept, of canonical forms and of moves played.
    RECENT = 100_000

    def __init__(self, boards: int) -> None:
        super().__init__(3, 3, boards, "x_only", misere=True)
        self._dead: dict[str, bool] = {}
        self._canonical: dict[str, str] = {}
        self._after: dict[tuple[str, tuple[int, str]], tuple[str, int | None]] = {}

    def key(self, cells: str, mover: str) -> tuple[str, str]:
        found = self._canonical.get(cells)
        if found is None:
            if len(self._canonical) >= self.RECENT:
                self._canonical.clear()
            found = self._canonical[cells] = canonical(self, cells)
        return found, mover

    def after(self, cells: str, move: tuple[int, str]) -> tuple[str, int | None]:
        found = self._after.get((cells, move))
        if found is None:
            if len(self._after) >= self.RECENT:
                self._after.clear()
            found = self._after[cells, move] = super().after(cells, move)
        return found

    def dead(self, board: str) -> bool:
        found = self._dead.get(board)
        if found is None:
            found = self._dead[board] = super().dead(board)
        return found


@cache
def rules_of(variant_id: str) -> Rules:
    """The oracle's rules of the variant (Notakto on several boards with a memo by class)."""
    spec = ORACLES[variant_id]
    if spec.marks == "x_only" and spec.boards > 1:
        return CanonicalNotakto(spec.boards)
    return spec


@cache
def _square(size: int) -> Rules:
    return Rules(size, size)


@cache
def _smallest(size: int, board: str) -> str:
    """The smallest of the eight images of one board of ``size`` × ``size``."""
    return min(_square(size).images(board))


def canonical(rules: Rules, cells: str) -> str:
    """The smallest of the boards alike to ``cells``: of the eight images of the whole board; in
    Notakto each board at its smallest, the boards in order (the smallest of their arrangements)."""
    if rules.boards == 1:
        return _smallest(rules.size, cells)
    return "".join(sorted(_smallest(rules.size, rules.board(cells, index)) for index in range(rules.boards)))


def firsts(rules: Rules) -> tuple[str, ...]:
    """The sides that may start: X or O where the sides have marks, else ``first``."""
    return ("X", "O") if rules.marks == "own" else ("first",)


def mover_of(rules: Rules, cells: str, first: str = "first") -> str:
    """The side to move on ``cells`` where the number of marks says it (``first`` on an even number)."""
    return first if (len(cells) - cells.count(".")) % 2 == 0 else rules.other(first)


def canonical_positions(rules: Rules) -> set[tuple[str, str]]:
    """Every class of alike unfinished positions a game reaches, each on its canonical board: by a walk
    of the classes (the canonical board after each move of each class's canonical board)."""
    found: set[tuple[str, str]] = set()
    waiting = [(rules.start(), first) for first in firsts(rules)]
    found.update(waiting)
    while waiting:
        cells, mover = waiting.pop()
        for move in rules.moves(cells, mover):
            played, ended = rules.after(cells, move)
            if ended is None:
                state = (canonical(rules, played), rules.other(mover))
                if state not in found:
                    found.add(state)
                    waiting.append(state)
    return found


def reachable_classes(rules: Rules) -> set[tuple[str, str]]:
    """Every unfinished position a game reaches (with every side that may start), on its canonical
    board: by the oracle's own walk of the positions."""
    return {
        (canonical(rules, cells), mover) for first in firsts(rules) for cells, mover in rules.reachable(first)
    }


def reached(rules: Rules, cells: str, mover: str) -> bool:
    """Whether a game started by either side that may start reaches ``cells`` with ``mover`` to move."""
    return any(rules.reached(cells, mover, first) for first in firsts(rules))


# --- one puzzle ---------------------------------------------------------------------------------


def puzzle_id(variant_id: str, rules: Rules, cells: str, mover: str) -> str:
    prefix = "" if variant_id == "standard" else f"{variant_id}:"
    return prefix + cells + (mover if rules.marks == "own" else "")


def rounded(rate: Fraction) -> float:
    """A probability to 4 decimals, rounded from its exact value, half to even."""
    return float(round(rate, 4))


def puzzle(
    variant_id: str, cells: str, mover: str, strengths: Strengths, ratings: dict[str, int]
) -> dict[str, Any] | None:
    """The puzzle of the position as the API gives it (without its reason), or ``None`` when the
    position is not a puzzle."""
    rules = rules_of(variant_id)
    moves = list(rules.moves(cells, mover))
    score, plies = rules.value(cells, mover)
    if len(moves) < 2 or score < 0:
        return None
    keeping = []
    for move in moves:
        if vro.move_value(rules, cells, mover, move)[0] == score:
            keeping.append(move)
            if len(keeping) > 1:
                return None
    if not keeping:
        raise AssertionError(f"no move keeps the value of {cells} for {mover}")
    (solution,) = keeping
    assert vro.move_value(rules, cells, mover, solution) == (score, plies)
    rates = {
        name: vro.likelihood(rules, cells, mover, solution, depth, skill) for name, depth, skill in strengths
    }
    cell, mark = solution
    found: dict[str, Any] = {
        "id": puzzle_id(variant_id, rules, cells, mover),
        "variant": variant_id,
        "board": cells,
        "player": mover,
        "solution": cell,
    }
    if rules.marks == "either":
        found["mark"] = mark
    if rules.marks == "x_only":
        found["grid"] = cell // rules.width
    return found | {
        "outcome": {1: "win", 0: "draw"}[score],
        "plies_to_end": plies,
        "themes": [tag for tag in to.tactics(rules, cells, mover, cell, mark) if tag not in PLACES],
        "solve_rates": {name: rounded(rate) for name, rate in rates.items()},
        "rating": next(ratings[name] for name, rate in rates.items() if rate >= SOLVED),
    }


def book(
    variant_id: str, positions: Sequence[tuple[str, str]], strengths: Strengths, ratings: dict[str, int]
) -> list[dict[str, Any]]:
    """The puzzles among ``positions`` (each on its canonical board), by rating, then id."""
    found = [puzzle(variant_id, cells, mover, strengths, ratings) for cells, mover in positions]
    return sorted((each for each in found if each is not None), key=lambda each: (each["rating"], each["id"]))


def without_reason(body: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in body.items() if key != "reason"}
