"""A textbook solver of the tic-tac-toe family, written from the API contract's rules alone.

It shares nothing with ``service.game``: boards are strings of ``X``, ``O`` and ``.`` (Notakto's
boards one after another), lines are found by walking the board, and values come from plain
negamax with a memo over ``(board string, side to move)``, with no bit masks and no symmetries.
A value is ``(score, plies)`` for the side to move: ``1`` it can force a win, ``0`` a draw, ``-1``
a loss; ``plies`` the moves left, the next one included, the winner hurrying and the loser
delaying.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property


@dataclass
class Rules:
    """One variant as the contract's table states it."""

    size: int
    line: int
    boards: int = 1
    #: ``own``: the side to move places its mark; ``either``: X or O; ``x_only``: X.
    marks: str = "own"
    #: Whether the side that makes the (last) line loses.
    misere: bool = False
    memo: dict[tuple[str, str], tuple[int, int]] = field(default_factory=dict, repr=False)

    @property
    def width(self) -> int:
        return self.size * self.size

    def start(self) -> str:
        return "." * self.width * self.boards

    def board(self, cells: str, index: int) -> str:
        return cells[index * self.width : (index + 1) * self.width]

    @cached_property
    def lines(self) -> list[list[int]]:
        """Every line of one board: ``line`` cells in a row, walking every direction from every cell."""
        n, found = self.size, []
        for row in range(n):
            for column in range(n):
                for down, right in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    end_row, end_column = row + down * (self.line - 1), column + right * (self.line - 1)
                    if 0 <= end_row < n and 0 <= end_column < n:
                        found.append([(row + down * i) * n + column + right * i for i in range(self.line)])
        return found

    def has_line(self, board: str, mark: str) -> bool:
        """Whether ``mark`` fills a line of one board."""
        return any(all(board[cell] == mark for cell in line) for line in self.lines)

    def dead(self, board: str) -> bool:
        return self.has_line(board, "X") or self.has_line(board, "O")

    def moves(self, cells: str, mover: str) -> Iterator[tuple[int, str]]:
        """Each legal move ``(cell, mark)`` of ``mover``: ``X`` or ``O`` in ``own``, else a side."""
        marks = {"own": [mover], "either": ["X", "O"], "x_only": ["X"]}[self.marks]
        for index in range(self.boards):
            if self.dead(self.board(cells, index)):
                continue
            for offset in range(self.width):
                cell = index * self.width + offset
                if cells[cell] == ".":
                    for mark in marks:
                        yield cell, mark

    def after(self, cells: str, move: tuple[int, str]) -> tuple[str, int | None]:
        """The board after ``move``, and the mover's score if it ended the game."""
        cell, mark = move
        played = cells[:cell] + mark + cells[cell + 1 :]
        index = cell // self.width
        lined = self.has_line(self.board(played, index), mark)
        if lined and all(self.dead(self.board(played, j)) for j in range(self.boards)):
            return played, -1 if self.misere else 1
        live_empty = any(
            "." in self.board(played, j) and not self.dead(self.board(played, j)) for j in range(self.boards)
        )
        return played, None if live_empty else 0

    def other(self, mover: str) -> str:
        return {"X": "O", "O": "X", "first": "second", "second": "first"}[mover]

    def value(self, cells: str, mover: str) -> tuple[int, int]:
        """Negamax: the best of each move's value, by score, then the fastest win or slowest loss."""
        found = self.memo.get((cells, mover))
        if found is not None:
            return found
        best: tuple[int, int] | None = None
        for move in self.moves(cells, mover):
            played, ended = self.after(cells, move)
            if ended is not None:
                candidate = (ended, 1)
            else:
                score, plies = self.value(played, self.other(mover))
                candidate = (-score, plies + 1)
            if best is None or better(candidate, best):
                best = candidate
        assert best is not None, f"no move on an unfinished board {cells}"
        self.memo[cells, mover] = best
        return best

    def games(self, first: str) -> dict[tuple[str, str], int | None]:
        """Every ``(board, side to move)`` that a game started by ``first`` reaches, finished or not,
        with the score of the move that ended it for the side that made it (``None`` while it goes on)."""
        found: dict[tuple[str, str], int | None] = {(self.start(), first): None}
        frontier = [(self.start(), first)]
        while frontier:
            cells, mover = frontier.pop()
            for move in self.moves(cells, mover):
                played, ended = self.after(cells, move)
                state = (played, self.other(mover))
                if state not in found:
                    found[state] = ended
                    if ended is None:
                        frontier.append(state)
        return found

    def reachable(self, first: str) -> Iterator[tuple[str, str]]:
        """Every unfinished ``(board, side to move)`` that a game started by ``first`` reaches."""
        seen = {(self.start(), first)}
        frontier = [(self.start(), first)]
        while frontier:
            cells, mover = frontier.pop()
            yield cells, mover
            for move in self.moves(cells, mover):
                played, ended = self.after(cells, move)
                state = (played, self.other(mover))
                if ended is None and state not in seen:
                    seen.add(state)
                    frontier.append(state)


def better(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether value ``a`` is better than ``b`` for the side that gets it."""
    if a[0] != b[0]:
        return a[0] > b[0]
    if a[0] > 0:
        return a[1] < b[1]
    if a[0] < 0:
        return a[1] > b[1]
    return False


#: The contract's variants, by ``id``.
VARIANTS = {
    "standard": Rules(3, 3),
    "misere": Rules(3, 3, misere=True),
    "wild": Rules(3, 3, marks="either"),
    "notakto": Rules(3, 3, 1, "x_only", misere=True),
    "notakto-2": Rules(3, 3, 2, "x_only", misere=True),
    "notakto-3": Rules(3, 3, 3, "x_only", misere=True),
    "4x4": Rules(4, 4),
    "4x4-3": Rules(4, 3),
}
