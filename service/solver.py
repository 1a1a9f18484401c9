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
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Literal, TypeAlias

from .board import EMPTY, LINES, MARKS, Board, Line, Mark, Position, Status, canonical, opponent

Outcome: TypeAlias = Literal["win", "draw", "loss"]
OUTCOMES: dict[int, Outcome] = {1: "win", 0: "draw", -1: "loss"}


@dataclass(frozen=True, slots=True)
class MoveValue:
    """One legal move and its value for the side that plays it."""

    cell: int
    score: int
    plies: int
    traps: int

    @property
    def row(self) -> int:
        return self.cell // 3

    @property
    def column(self) -> int:
        return self.cell % 3

    @property
    def outcome(self) -> Outcome:
        return OUTCOMES[self.score]

    def rank(self) -> tuple[int, int]:
        """Steps 1–2 of the move order as a key that sorts best first."""
        return (-self.score, self.plies if self.score > 0 else -self.plies if self.score < 0 else 0)

    def order(self) -> tuple[int, int, int, int]:
        """Steps 1–4 of the move order as a key that sorts best first."""
        return (*self.rank(), -self.traps, self.cell)


@dataclass(frozen=True, slots=True)
class Analysis:
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

    def __getitem__(self, position: Position) -> Analysis:
        return self.analyses[position.board.cells, position.to_move]

    def __iter__(self) -> Iterator[Analysis]:
        return iter(self.analyses.values())

    def resolve(self, text: str, player: Mark | None) -> Position | None:
        """``Position.resolve(Board.parse(text), player)`` for a board string, when that is legal.

        A lookup in a table made once from the solved positions; ``None`` means
        the input is not a legal board and player (or a finished board with an
        explicit player), and :meth:`Position.resolve` must be asked to say why.
        """
        cells = canonical(text)
        return None if cells is None else self._resolved.get((cells, player))

    @cached_property
    def _resolved(self) -> dict[tuple[str, Mark | None], Position]:
        table: dict[tuple[str, Mark | None], Position] = {}
        for (cells, to_move), analysis in self.analyses.items():
            position = analysis.position
            table[cells, to_move] = position
            if to_move is None:
                continue
            if cells.count("X") != cells.count("O") or to_move == "X":
                table[cells, None] = position
        return table

    @cached_property
    def boards(self) -> int:
        """How many distinct legal boards there are (8,533)."""
        return len({cells for cells, _ in self.analyses})

    @property
    def positions(self) -> int:
        """How many positions: boards with ``x = o`` in play count once per side to move."""
        return len(self.analyses)


def _winner(cells: str) -> str | None:
    for a, b, c in LINES:
        if cells[a] != EMPTY and cells[a] == cells[b] == cells[c]:
            return cells[a]
    return None


class _Solver:
    """Memoized minimax over ``(cells, side to move)`` keys of unfinished boards."""

    def __init__(self) -> None:
        self.moves: dict[tuple[str, Mark], tuple[tuple[int, int, int], ...]] = {}
        self.values: dict[tuple[str, Mark], tuple[int, int]] = {}

    def value(self, cells: str, mover: Mark) -> tuple[int, int]:
        """``(score, plies)`` of an unfinished position for ``mover``."""
        key = (cells, mover)
        found = self.values.get(key)
        if found is not None:
            return found
        other = opponent(mover)
        moves: list[tuple[int, int, int]] = []
        for cell in range(9):
            if cells[cell] != EMPTY:
                continue
            child = cells[:cell] + mover + cells[cell + 1 :]
            if _winner(child) is not None:
                moves.append((cell, 1, 1))
            elif EMPTY not in child:
                moves.append((cell, 0, 1))
            else:
                score, plies = self.value(child, other)
                moves.append((cell, -score, plies + 1))
        best = min(moves, key=lambda m: (-m[1], m[2] if m[1] > 0 else -m[2] if m[1] < 0 else 0))
        self.moves[key] = tuple(moves)
        self.values[key] = found = (best[1], best[2])
        return found

    def traps(self, cells: str, mover: Mark, cell: int) -> int:
        """Opponent replies after ``mover`` plays ``cell`` that do worse than the opponent's best."""
        child = cells[:cell] + mover + cells[cell + 1 :]
        key = (child, opponent(mover))
        if key not in self.values:
            return 0
        best = self.values[key][0]
        return sum(1 for _, score, _ in self.moves[key] if score < best)


def solve() -> SolvedGame:
    """Solve every legal position, with either side starting."""
    started = time.perf_counter()
    solver = _Solver()
    for mark in MARKS:
        solver.value(EMPTY * 9, mark)

    analyses: dict[tuple[str, Mark | None], Analysis] = {}
    choice: dict[tuple[str, Mark], int] = {}
    for (cells, mover), moves in solver.moves.items():
        values = sorted(
            (MoveValue(cell, score, plies, solver.traps(cells, mover, cell)) for cell, score, plies in moves),
            key=MoveValue.order,
        )
        best = values[0].rank()
        choice[cells, mover] = values[0].cell
        score, plies = solver.values[cells, mover]
        analyses[cells, mover] = Analysis(
            position=Position(Board(cells), mover),
            status=Status.IN_PROGRESS,
            winner=None,
            winning_lines=(),
            score=score,
            plies=plies,
            moves=tuple(values),
            best_moves=tuple(sorted(v.cell for v in values if v.rank() == best)),
            principal_variation=(),
        )

    finished: set[str] = set()
    for (cells, mover), moves in solver.moves.items():
        for cell, _, _ in moves:
            child = cells[:cell] + mover + cells[cell + 1 :]
            if _winner(child) is not None or EMPTY not in child:
                finished.add(child)
    for cells in finished:
        board = Board(cells)
        analyses[cells, None] = Analysis(
            position=Position(board, None),
            status=board.status,
            winner=board.winner,
            winning_lines=board.winning_lines(),
            score=None,
            plies=None,
            moves=(),
            best_moves=(),
            principal_variation=(),
        )

    for (cells, to_move), analysis in list(analyses.items()):
        if to_move is None:
            continue
        line: list[int] = []
        current = cells
        side: Mark = to_move
        while (current, side) in choice:
            cell = choice[current, side]
            line.append(cell)
            current = current[:cell] + side + current[cell + 1 :]
            side = opponent(side)
        analyses[cells, to_move] = replace(analysis, principal_variation=tuple(line))

    return SolvedGame(analyses, time.perf_counter() - started)
