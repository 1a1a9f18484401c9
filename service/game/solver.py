"""The solved game: every legal position, its value, and the move to play.

Values are from the point of view of the side to move, under perfect play
by both sides afterwards:

* ``score``: ``1`` the side to move can force a win, ``0`` draw, ``-1`` the
  opponent can force a win;
* ``plies``: how many moves the game still lasts, the next one included,
  when the winner hurries and the loser delays (a draw lasts until the board
  is full).

Moves are ordered, best first, by

1. the best score;
2. a win in the fewest plies, a loss in the most plies;
3. the most *traps*: opponent replies whose result for the opponent is
   worse than the opponent's perfect-play result after the move;
4. the lowest cell index.

Steps 1–2 decide which moves are optimal; steps 3–4 pick one of them.
:func:`solve` computes all of it once, by memoized minimax over every
position reachable with either side starting, so that a query is a lookup.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal, NamedTuple, TypeAlias

from .board import EMPTY, MARKS, Board, Mark, Position, Status, canonical, opponent
from .geometry import CELLS_OF, FULL, HAS_LINE, Line, column, place, row

Outcome: TypeAlias = Literal["win", "draw", "loss"]
OUTCOMES: dict[int, Outcome] = {1: "win", 0: "draw", -1: "loss"}


class MoveValue(NamedTuple):
    """One legal move and its value for the side that plays it."""

    cell: int
    score: int
    plies: int
    traps: int

    @property
    def row(self) -> int:
        return row(self.cell)

    @property
    def column(self) -> int:
        return column(self.cell)

    @property
    def outcome(self) -> Outcome:
        return OUTCOMES[self.score]


def rank(score: int, plies: int) -> tuple[int, int]:
    """Steps 1–2 of the move order as a key that sorts better values first: the score, then the
    fastest win or the slowest loss; draws tie whatever their length."""
    return (-score, plies if score > 0 else -plies if score < 0 else 0)


class Analysis(NamedTuple):
    """Everything the solved game knows about one position.

    ``moves`` holds every legal move, best first (steps 1–4); ``best_moves``
    the cells that are optimal by steps 1–2, in increasing order;
    ``principal_variation`` the cells of the rest of the game when both sides
    follow steps 1–4. On a finished board ``score`` and ``plies`` are ``None``
    and there are no moves.
    """

    position: Position
    status: Status
    winner: Mark | None
    winning_lines: tuple[Line, ...]
    score: int | None
    plies: int | None
    moves: tuple[MoveValue, ...]
    best_moves: tuple[int, ...]
    principal_variation: tuple[int, ...]

    @property
    def outcome(self) -> Outcome | None:
        return None if self.score is None else OUTCOMES[self.score]

    @property
    def choice(self) -> MoveValue | None:
        """The move steps 1–4 choose, ``None`` on a finished board."""
        return self.moves[0] if self.moves else None


@dataclass(frozen=True)
class SolvedGame:
    """The analysis of every legal position, keyed by canonical board and side to move."""

    analyses: dict[tuple[str, Mark | None], Analysis]
    seconds: float = field(compare=False)
    #: ``Position.resolve`` of every legal board string and player that resolves, made once.
    resolved: dict[tuple[str, Mark | None], Position] = field(compare=False, repr=False, default_factory=dict)

    def __getitem__(self, position: Position) -> Analysis:
        return self.analyses[position.board.cells, position.to_move]

    def __iter__(self) -> Iterator[Analysis]:
        return iter(self.analyses.values())

    def after(self, analysis: Analysis, cell: int) -> Analysis:
        """The analysis of the position after the side to move in ``analysis`` plays ``cell``, one of its
        moves: :meth:`Position.play`, looked up."""
        mover = analysis.position.to_move
        assert mover is not None, "a finished board has no move"
        cells = place(analysis.position.board.cells, cell, mover)
        return self.analyses.get((cells, opponent(mover))) or self.analyses[cells, None]

    def lookup(self, text: str, player: Mark | None) -> Position | None:
        """``Position.resolve(Board.parse(text), player)`` for a board string, when that is legal.

        A lookup in a table made once from the solved positions; ``None`` means
        the input is not a legal board and player (or a finished board with an
        explicit player), and :meth:`Position.resolve` must be asked to say why.
        """
        found = self.resolved.get((text, player))  # a board in canonical symbols, as most are written
        if found is not None:
            return found
        cells = canonical(text)
        return None if cells is None else self.resolved.get((cells, player))

    @cached_property
    def boards(self) -> int:
        """How many distinct legal boards there are (8,533)."""
        return len({cells for cells, _ in self.analyses})

    @property
    def positions(self) -> int:
        """How many positions: boards with ``x = o`` in play count once per side to move."""
        return len(self.analyses)


#: Positions as integers: ``x`` and ``o`` are the masks of each side's cells (see :mod:`.geometry`).
_SIDES: tuple[Mark, Mark] = MARKS
#: The sort keys, before the cell, of a move that ends the game: a win in one ply, a draw in one
#: (:func:`rank`, and no traps).
_WIN_NOW, _DRAW_NOW = (*rank(1, 1), 0), (*rank(0, 1), 0)


class _Solver:
    """Memoized negamax over unfinished positions, keyed by :func:`_key` (mover 0 is X, 1 is O).

    Alongside each position's value it keeps its moves in order (steps 1–4),
    its optimal cells, the number of mistakes open to the side to move (the
    traps its opponent set), and its canonical cells.
    """

    def __init__(self) -> None:
        self.values: dict[int, tuple[int, int]] = {}
        self.ordered: dict[int, tuple[MoveValue, ...]] = {}
        self.best: dict[int, tuple[int, ...]] = {}
        self.mistakes: dict[int, int] = {}
        self.cells: dict[int, str] = {}
        self.finished: set[str] = set()
        self.interned: dict[tuple[int, int, int, int], MoveValue] = {}
        self.orders: dict[tuple[MoveValue, ...], tuple[MoveValue, ...]] = {}
        self.sequences: dict[tuple[int, ...], tuple[int, ...]] = {}

    def cells_once(self, cells: tuple[int, ...]) -> tuple[int, ...]:
        """``cells`` (best cells, or a variation), as the one object of its value."""
        return self.sequences.setdefault(cells, cells)

    def value(self, x: int, o: int, mover: int, cells: str) -> tuple[int, int]:
        """``(score, plies)`` of an unfinished position for the side to move."""
        key = x | o << 9 | mover << 18
        found = self.values.get(key)
        if found is None:
            found = self._record(key, cells, sorted(self._ranked(x, o, mover, cells)))
        return found

    def _ranked(
        self, x: int, o: int, mover: int, cells: str
    ) -> Iterator[tuple[int, int, int, int, int, int]]:
        """Each move of the position: its sort key (steps 1–4: :func:`rank`, traps, cell), score and plies."""
        own = o if mover else x
        mark = _SIDES[mover]
        taken = x | o
        for cell in CELLS_OF[FULL ^ taken]:
            bit = 1 << cell
            if HAS_LINE[own | bit] or taken | bit == FULL:
                self.finished.add(place(cells, cell, mark))
                yield (*_WIN_NOW, cell, 1, 1) if HAS_LINE[own | bit] else (*_DRAW_NOW, cell, 0, 1)
                continue
            child_key = x | (o | bit) << 9 if mover else (x | bit) | o << 9 | 1 << 18
            child = self.values.get(child_key)
            if child is None:  # not solved yet: its board text is needed
                after = place(cells, cell, mark)
                child = self.value(x, o | bit, 0, after) if mover else self.value(x | bit, o, 1, after)
            score, plies = -child[0], child[1] + 1
            yield (*rank(score, plies), -self.mistakes[child_key], cell, score, plies)

    def _record(
        self, key: int, cells: str, ranked: list[tuple[int, int, int, int, int, int]]
    ) -> tuple[int, int]:
        """Keep what the solved game holds of a position, from its moves ranked best first."""
        first = ranked[0]
        best_score, best_plies = first[4], first[5]
        # Equal values are one object: a few thousand move values, not 41,374; some 3,500 move
        # lists and 1,000 variations, and a few hundred sets of best cells, not one per position.
        interned = self.interned
        ordered = tuple(
            interned.get(v) or interned.setdefault(v, MoveValue(*v))
            for v in [(m[3], m[4], m[5], -m[2]) for m in ranked]
        )
        self.ordered[key] = self.orders.setdefault(ordered, ordered)
        self.best[key] = self.cells_once(
            tuple(sorted(m[3] for m in ranked if m[0] == first[0] and m[1] == first[1]))
        )
        self.mistakes[key] = sum(1 for m in ranked if m[4] < best_score)
        self.cells[key] = cells
        self.values[key] = found = (best_score, best_plies)
        return found


def solve() -> SolvedGame:
    """Solve every legal position, with either side starting."""
    started = time.perf_counter()
    solver = _Solver()
    for mover in (0, 1):
        solver.value(0, 0, mover, EMPTY * 9)

    variations: dict[int, tuple[int, ...]] = {}

    def variation(key: int) -> tuple[int, ...]:
        line = variations.get(key)
        if line is None:
            cell = solver.ordered[key][0].cell
            bit = 1 << cell
            child = key + (bit << 9) - (1 << 18) if key >> 18 else key + bit + (1 << 18)
            line = (cell, *variation(child)) if child in solver.values else (cell,)
            line = variations[key] = solver.cells_once(line)
        return line

    boards: dict[str, Board] = {}
    analyses: dict[tuple[str, Mark | None], Analysis] = {}
    for key, (score, plies) in solver.values.items():
        cells = solver.cells[key]
        board = boards.get(cells) or boards.setdefault(cells, Board(cells))
        side = _SIDES[key >> 18]
        analyses[cells, side] = Analysis(
            Position(board, side),
            Status.IN_PROGRESS,
            None,
            (),
            score,
            plies,
            solver.ordered[key],
            solver.best[key],
            variation(key),
        )
    for cells in solver.finished:
        board = Board(cells)
        analyses[cells, None] = Analysis(
            Position(board, None), board.status, board.winner, board.winning_lines(), None, None, (), (), ()
        )
    resolved = _resolutions(analyses)
    return SolvedGame(analyses, time.perf_counter() - started, resolved)


def _resolutions(
    analyses: dict[tuple[str, Mark | None], Analysis],
) -> dict[tuple[str, Mark | None], Position]:
    """What :meth:`Position.resolve` makes of each legal board with no player or the side to move."""
    table: dict[tuple[str, Mark | None], Position] = {}
    for key, analysis in analyses.items():
        cells, to_move = key
        position = analysis.position
        table[key] = position
        if to_move is not None and (cells.count("X") != cells.count("O") or to_move == "X"):
            table[cells, None] = position
    return table
