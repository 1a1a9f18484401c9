"""A textbook solver of the tic-tac-toe family, written from the API contract's rules alone.

It shares nothing with ``service.game``: boards are strings of ``X``, ``O`` and ``.`` (Notakto's
boards one after another), lines are found by walking the board, and values come from plain
negamax with a memo, with no bit masks. A value is ``(score, plies)`` for the side to move: ``1``
it can force a win, ``0`` a draw, ``-1`` a loss; ``plies`` the moves left, the next one included,
the winner hurrying and the loser delaying.

The memo is keyed by ``(board string, side to move)``. With ``symmetric`` (the 4 × 4 variants,
whose games reach millions of boards), it is keyed by a canonical board string instead: the board
seen by the side to move (its marks written ``X``, the other side's ``O``), turned and mirrored by
each of the eight symmetries of the square (computed here from rows and columns), the smallest of
the eight strings. A value does not change under either transformation: a symmetry maps lines onto
lines, and in these variants the two sides play by the same rules with their own marks.

:meth:`Rules.reached` says whether a game reaches a board, by taking moves back one at a time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from operator import itemgetter

#: Swaps the two marks of a board string.
SWAP = str.maketrans("XO", "OX")


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
    #: Whether the memo is keyed by canonical boards (``own`` marks on one board only).
    symmetric: bool = False
    memo: dict[tuple[str, str], tuple[int, int]] = field(default_factory=dict, repr=False)
    #: :meth:`horizon`'s memo, by board, side to move and depth.
    horizons: dict[tuple[str, str, int], int] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        assert not self.symmetric or (self.marks == "own" and self.boards == 1), (
            "symmetric: own marks, one board"
        )

    @cached_property
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

    @cached_property
    def _reads(self) -> list[Callable[[str], Sequence[str]]]:
        """For each line, what reads its cells from a board, in a tuple."""
        return [itemgetter(*line) for line in self.lines]

    @cached_property
    def _reads_through(self) -> list[list[Callable[[str], Sequence[str]]]]:
        """For each cell of one board, what reads the cells of each line through it."""
        return [[itemgetter(*line) for line in self.lines if cell in line] for cell in range(self.width)]

    @cached_property
    def symmetries(self) -> list[tuple[int, ...]]:
        """The eight symmetries of the square, each as the cell of the old board that every cell of the
        new board shows: the four turns, and the four mirrors (across the middle row, the middle
        column and the two diagonals)."""
        last = self.size - 1

        def images(row: int, column: int) -> list[tuple[int, int]]:
            return [
                (row, column),
                (column, last - row),
                (last - row, last - column),
                (last - column, row),
                (last - row, column),
                (row, last - column),
                (column, row),
                (last - column, last - row),
            ]

        cells = [images(cell // self.size, cell % self.size) for cell in range(self.width)]
        return [
            tuple(row * self.size + column for row, column in (each[k] for each in cells)) for k in range(8)
        ]

    @cached_property
    def _transforms(self) -> list[Callable[[str], Sequence[str]]]:
        return [itemgetter(*symmetry) for symmetry in self.symmetries]

    def images(self, board: str) -> list[str]:
        """One board under each of the eight symmetries."""
        return ["".join(transform(board)) for transform in self._transforms]

    def key(self, cells: str, mover: str) -> tuple[str, str]:
        """The memo's key of ``cells`` with ``mover`` to move: themselves, or with ``symmetric`` the
        smallest of the eight images of the board as the mover sees it (its marks ``X``), ``X`` to move."""
        if not self.symmetric:
            return cells, mover
        return min(self.images(cells if mover == "X" else cells.translate(SWAP))), "X"

    def has_line(self, board: str, mark: str) -> bool:
        """Whether ``mark`` fills a line of one board."""
        return (mark,) * self.line in [read(board) for read in self._reads]

    def dead(self, board: str) -> bool:
        """Whether a line of one board is full of one mark."""
        found = [read(board) for read in self._reads]
        return ("X",) * self.line in found or ("O",) * self.line in found

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
        """The board after a legal ``move`` (one of :meth:`moves`), and the mover's score if it ended
        the game. The move's board had no line, so it has one after it when a line through the cell
        is full of the mark."""
        cell, mark = move
        played = cells[:cell] + mark + cells[cell + 1 :]
        index, offset = divmod(cell, self.width)
        board = self.board(played, index)
        lined = (mark,) * self.line in [read(board) for read in self._reads_through[offset]]
        if self.boards == 1:  # a line ends the game, else a full board does
            if lined:
                return played, -1 if self.misere else 1
            return played, None if "." in played else 0
        if lined and all(j == index or self.dead(self.board(played, j)) for j in range(self.boards)):
            return played, -1 if self.misere else 1
        live_empty = any(
            "." in self.board(played, j) and not (lined if j == index else self.dead(self.board(played, j)))
            for j in range(self.boards)
        )
        return played, None if live_empty else 0

    def other(self, mover: str) -> str:
        return {"X": "O", "O": "X", "first": "second", "second": "first"}[mover]

    def traps(self, cells: str, mover: str) -> int:
        """How many of ``mover``'s moves on ``cells`` score worse for it than its best."""
        best = self.value(cells, mover)[0]
        worse = 0
        for move in self.moves(cells, mover):
            played, ended = self.after(cells, move)
            score = ended if ended is not None else -self.value(played, self.other(mover))[0]
            worse += score < best
        return worse

    def value(self, cells: str, mover: str) -> tuple[int, int]:
        """Negamax: the best of each move's value, by score, then the fastest win or slowest loss."""
        key = self.key(cells, mover)
        found = self.memo.get(key)
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
        self.memo[key] = best
        return best

    def within(self, cells: str, mover: str, depth: int) -> list[tuple[int, str]]:
        """The moves, in order, that a player looking ``depth`` plies ahead finds best: by a
        depth-limited search of its own (:meth:`merit`)."""
        merits = {move: self.merit(cells, mover, move, depth) for move in self.moves(cells, mover)}
        best = max(merits.values())
        return sorted(move for move, merit in merits.items() if merit == best)

    def horizon(self, cells: str, mover: str, depth: int) -> int:
        """The merit, larger for better, of the best move of a player looking ``depth`` plies ahead."""
        key = (cells, mover, depth)
        if key not in self.horizons:
            self.horizons[key] = max(
                self.merit(cells, mover, move, depth) for move in self.moves(cells, mover)
            )
        return self.horizons[key]

    def merit(self, cells: str, mover: str, move: tuple[int, str], depth: int) -> int:
        """A move's value within a horizon of ``depth`` plies, as a merit: ``100 - plies`` for a win, ``0``
        for no result, ``plies - 100`` for a loss (a line-ending move is worth its score in 1 ply, any
        other move at the horizon 0, else the negation of the opponent's best one ply shallower)."""
        played, ended = self.after(cells, move)
        if ended is not None:
            return 99 if ended > 0 else -99 if ended < 0 else 0
        if depth == 1:
            return 0
        theirs = self.horizon(played, self.other(mover), depth - 1)
        return 0 if theirs == 0 else -theirs + 1 if theirs > 0 else -theirs - 1

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

    def reached(self, cells: str, mover: str, first: str) -> bool:
        """Whether a game started by ``first`` reaches ``cells`` (finished or not) with ``mover`` to
        move: the start, or a board from which the side that moved last has a legal move to ``cells``
        and that a game reaches with that side to move. Each move places one mark and the sides
        alternate, so the side to move is ``first`` after an even number of marks, and with ``own``
        marks the side that started has placed the larger half of them."""
        placed = len(cells) - cells.count(".")
        if (mover == first) != (placed % 2 == 0):
            return False
        if self.marks == "own" and cells.count(first) != (placed + 1) // 2:
            return False
        if placed == 0:
            return True
        last = self.other(mover)
        marks = {"own": [last], "either": ["X", "O"], "x_only": ["X"]}[self.marks]
        for cell, symbol in enumerate(cells):
            if symbol not in marks:
                continue
            before = cells[:cell] + "." + cells[cell + 1 :]
            if (cell, symbol) in self.moves(before, last) and self.reached(before, last, first):
                return True
        return False

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
    "4x4": Rules(4, 4, symmetric=True),
    "4x4-3": Rules(4, 3, symmetric=True),
}
