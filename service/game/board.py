"""Boards, marks, lines and the rules that make a board legal.

A board is nine cells, numbered as :mod:`.geometry` says (row-major, cell 0
top-left). Its canonical text is nine characters of ``X``, ``O`` and ``.``.

A :class:`Board` only knows its marks. A :class:`Position` adds whose turn it
is, and :meth:`Position.resolve` applies the turn and legality rules:

* the mark counts ``x`` and ``o`` differ by at most one;
* ``O`` moves when ``x = o + 1``, ``X`` moves when ``o = x + 1``; when
  ``x = o`` the side to move is the given player, ``X`` by default;
* at most one side has three in a row, and that side moved last.

Nothing here knows about HTTP.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache, lru_cache
from typing import Literal, TypeAlias, cast

from .geometry import LINES, Line, place

Mark: TypeAlias = Literal["X", "O"]

EMPTY = "."
MARKS: tuple[Mark, Mark] = ("X", "O")

#: Every symbol a request may use for a cell, and the canonical symbol it means.
SYMBOLS: dict[str, str] = {
    "X": "X",
    "x": "X",
    "O": "O",
    "o": "O",
    ".": EMPTY,
    "-": EMPTY,
    "_": EMPTY,
    " ": EMPTY,
}
#: Lower-case marks and the other empty symbols, mapped to canonical ones (for strings).
_CANONICAL = str.maketrans({"x": "X", "o": "O", "-": EMPTY, "_": EMPTY, " ": EMPTY})
#: Array forms also accept the empty string for an empty cell (and JSON ``null``).
ARRAY_SYMBOLS: dict[str, str] = {**SYMBOLS, "": EMPTY}


def canonical_symbols(text: str) -> str:
    """A board string with each symbol in its canonical spelling (``X``, ``O``, ``.``); other characters
    are left as they are."""
    return text.translate(_CANONICAL)


def canonical(text: str) -> str | None:
    """The canonical cells of a board string in any spelling, or ``None`` unless it is 9 known symbols."""
    cells = canonical_symbols(text)
    if len(cells) != 9 or cells.strip("XO."):  # strip leaves nothing only when every symbol is known
        return None
    return cells


def opponent(mark: Mark) -> Mark:
    """The other side."""
    return "O" if mark == "X" else "X"


def cell_name(cell: int) -> str:
    """``cell 5 (row 1, column 2)``: how errors and documents name a cell of the standard board."""
    return STANDARD_SHAPE.cell_name(cell)


class Status(StrEnum):
    """Where a game stands on a board."""

    IN_PROGRESS = "in_progress"
    X_WON = "x_won"
    O_WON = "o_won"
    DRAW = "draw"


class BoardError(ValueError):
    """A board or player that the rules reject.

    ``code`` is a short machine-readable name of the rule that failed, and
    ``field`` says which input is at fault: ``"board"`` or ``"player"``.
    """

    def __init__(self, code: str, message: str, field: Literal["board", "player"] = "board") -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field


@dataclass(frozen=True, slots=True)
class Shape:
    """What a board string of a game holds: ``boards`` square boards of ``size`` × ``size`` cells,
    one after another, and the marks it may hold."""

    size: int = 3
    boards: int = 1
    marks: str = "XO"

    @property
    def cells(self) -> int:
        return self.size * self.size * self.boards

    def cell_name(self, cell: int) -> str:
        """``cell 5 (row 1, column 2)``, with the board first when there are several."""
        width = self.size * self.size
        board, offset = divmod(cell, width)
        where = f"row {offset // self.size}, column {offset % self.size}"
        return f"cell {cell} ({f'board {board}, ' if self.boards > 1 else ''}{where})"


#: The standard game's board: one board of 3 × 3, X and O.
STANDARD_SHAPE = Shape()


def read_cells(value: object, shape: Shape) -> str:
    """The canonical cells of a board in any of its forms, for a game of ``shape``.

    * a string of exactly ``shape.cells`` characters from :data:`SYMBOLS`;
    * on a single board, an array of its cells, each a string from :data:`ARRAY_SYMBOLS` or
      ``None``, or an array of its rows, each an array of such cells.

    Raises :class:`BoardError` naming the length, the cells or the marks at fault.
    """
    if isinstance(value, str):
        cells = _from_string(value, shape)
    elif isinstance(value, Sequence) and not isinstance(value, (bytes, bytearray)) and shape.boards == 1:
        cells = _from_array(list(value), shape)
    else:
        raise BoardError("board_type", _forms(shape))
    unused = sorted({mark for mark in cells if mark != EMPTY and mark not in shape.marks})
    if unused:
        where = "; ".join(shape.cell_name(cell) for cell, mark in enumerate(cells) if mark in unused)
        raise BoardError(
            "board_symbol",
            f"this game's boards hold only {' and '.join(shape.marks)}; {where} "
            f"{'has' if where.count(';') == 0 else 'have'} {' and '.join(unused)}",
        )
    return cells


def _forms(shape: Shape) -> str:
    n, size = shape.cells, shape.size
    text = f"a board is a string of {n} characters"
    if shape.boards > 1:
        return f"{text}: {shape.boards} boards of {size * size} cells, one after another"
    return f"{text}, an array of {n} cells, or an array of {size} rows of {size} cells"


def _from_string(value: str, shape: Shape) -> str:
    n = shape.cells
    if len(value) != n:
        raise BoardError(
            "board_length", f"a board string has exactly {n} characters, one per cell; got {len(value)}"
        )
    cells = value.translate(_CANONICAL)
    if not cells.strip("XO."):  # strip leaves nothing only when every symbol is known
        return cells
    return _from_symbols(list(value), SYMBOLS, shape)


def _from_array(items: list[object], shape: Shape) -> str:
    size = shape.size
    if len(items) == size and all(
        isinstance(row, Sequence) and not isinstance(row, (str, bytes, bytearray)) for row in items
    ):
        rows = [list(row) for row in items]  # type: ignore[call-overload]  # each is a sequence
        for index, row in enumerate(rows):
            if len(row) != size:
                raise BoardError(
                    "board_length",
                    f"row {index} of the board has {len(row)} cells; every row has exactly {size}",
                )
        return _from_symbols([cell for row in rows for cell in row], ARRAY_SYMBOLS, shape)
    if len(items) != shape.cells:
        raise BoardError(
            "board_length",
            f"a board array has exactly {shape.cells} cells, or {size} rows of {size} cells; "
            f"got {len(items)} items",
        )
    return _from_symbols(items, ARRAY_SYMBOLS, shape)


def _from_symbols(symbols: list[object], table: dict[str, str], shape: Shape) -> str:
    cells: list[str] = []
    unknown: list[str] = []
    for cell, symbol in enumerate(symbols):
        canonical = EMPTY if symbol is None and table is ARRAY_SYMBOLS else None
        if isinstance(symbol, str):
            canonical = table.get(symbol)
        if canonical is None:
            unknown.append(f"{shape.cell_name(cell)} has {_describe(symbol)}")
        else:
            cells.append(canonical)
    if unknown:
        empties = "'.', '-', '_', ' '" + (", '' or null" if table is ARRAY_SYMBOLS else "")
        marks = " or ".join(shape.marks)
        raise BoardError(
            "board_symbol",
            "unknown symbol: "
            + "; ".join(unknown)
            + f". Use {marks} for a mark and {empties} for an empty cell",
        )
    return "".join(cells)


@dataclass(frozen=True, slots=True)
class Board:
    """Nine cells of ``X``, ``O`` or ``.``; immutable.

    ``Board(cells)`` trusts ``cells`` to be canonical; :meth:`parse` accepts
    every request form and names what is wrong with a bad one.
    """

    cells: str

    @classmethod
    def empty(cls) -> Board:
        return cls(EMPTY * 9)

    @classmethod
    def parse(cls, value: object) -> Board:
        """Read a board in any of its three forms.

        * a string of exactly 9 characters from :data:`SYMBOLS`;
        * an array of 9 cells, each a string from :data:`ARRAY_SYMBOLS` or ``None``;
        * an array of 3 rows, each an array of 3 such cells.

        Raises :class:`BoardError` naming the length or the cells at fault.
        """
        return cls(read_cells(value, STANDARD_SHAPE))

    def __str__(self) -> str:
        return self.cells

    def count(self, mark: Mark) -> int:
        """How many cells hold ``mark``."""
        return self.cells.count(mark)

    def lines_of(self, mark: Mark) -> tuple[Line, ...]:
        """The lines that ``mark`` fills completely."""
        x_lines, o_lines = _lines(self.cells)
        return x_lines if mark == "X" else o_lines

    def winning_lines(self) -> tuple[Line, ...]:
        """Every complete line of either side, in the order of :data:`LINES`."""
        return self.lines_of("X") + self.lines_of("O")

    @property
    def winner(self) -> Mark | None:
        """The side with three in a row, if exactly one has it."""
        x_lines, o_lines = _lines(self.cells)
        x, o = bool(x_lines), bool(o_lines)
        if x and not o:
            return "X"
        if o and not x:
            return "O"
        return None

    @property
    def status(self) -> Status:
        """``x_won`` or ``o_won`` for a line, ``draw`` for a full board without one."""
        winner = self.winner
        if winner == "X":
            return Status.X_WON
        if winner == "O":
            return Status.O_WON
        return Status.IN_PROGRESS if EMPTY in self.cells else Status.DRAW

    def play(self, cell: int, mark: Mark) -> Board:
        """The board after ``mark`` is put on the empty ``cell``."""
        if self.cells[cell] != EMPTY:
            raise ValueError(f"{cell_name(cell)} is not empty")
        return Board(place(self.cells, cell, mark))

    def check(self) -> None:
        """Raise :class:`BoardError` unless some game, started by either side, reaches this board.

        The rules: counts differ by at most one, at most one side has a line,
        and a side with a line could have moved last (with ``x = o`` that
        means the other side started).
        """
        x, o = self.count("X"), self.count("O")
        apart = counts_apart(x, o)
        if apart is not None:
            raise apart
        x_lines, o_lines = _lines(self.cells)
        if x_lines and o_lines:
            raise BoardError(
                "board_two_winners",
                "both X and O have three in a row; the game ends at the first line",
            )
        if x_lines and o > x:
            raise late_move("X", "O")
        if o_lines and x > o:
            raise late_move("O", "X")


@cache
def _lines(cells: str) -> tuple[tuple[Line, ...], tuple[Line, ...]]:
    """The complete lines of X and of O; remembered, since there are at most 3⁹ boards."""
    x_lines = tuple(line for line in LINES if cells[line[0]] == cells[line[1]] == cells[line[2]] == "X")
    o_lines = tuple(line for line in LINES if cells[line[0]] == cells[line[1]] == cells[line[2]] == "O")
    return x_lines, o_lines


def counts_apart(x: int, o: int) -> BoardError | None:
    """The error of a board whose own-mark counts ``x`` and ``o`` cannot alternate, if they cannot."""
    if abs(x - o) <= 1:
        return None
    return BoardError(
        "board_counts",
        f"the board has {x} X and {o} O; the sides alternate, so the counts differ by at most one",
    )


def side_to_move(x: int, o: int, player: str | None, line_maker: str | None, in_a_row: str) -> str:
    """The mark to move when each side places its own mark: by the counts ``x`` and ``o``, else
    ``player``, else the side that did not make the line (X on a board without one). Raises
    :class:`BoardError` (``field`` ``"player"``) when ``player`` contradicts the counts, or is the
    side that made the line, which moved last."""
    if x != o:
        to_move = "O" if x > o else "X"
        if player is not None and player != to_move:
            raise BoardError(
                "player_contradicts_counts",
                f"the board has {x} X and {o} O, so {to_move} is to move, not {player}",
                field="player",
            )
    elif player is not None:
        to_move = player
    else:
        to_move = "X" if line_maker in (None, "O") else "O"
    if line_maker is not None and line_maker == to_move:
        raise BoardError(
            "player_winner_not_last",
            f"{line_maker} has {in_a_row}, so {line_maker} moved last and cannot be the player to move",
            field="player",
        )
    return to_move


def late_move(winner: str, loser: str, in_a_row: str = "three in a row") -> BoardError:
    return BoardError(
        "board_winner_not_last",
        f"{winner} has {in_a_row} but {loser} has more marks, so {loser} moved after the game was over",
    )


def _describe(symbol: object) -> str:
    """A cell's symbol as an error names it: at most 20 characters of it."""
    if isinstance(symbol, str):
        if len(symbol) == 1:
            return f"{symbol!r} (U+{ord(symbol):04X})"
        return repr(symbol) if len(symbol) <= 20 else f"{symbol[:20]!r}… ({len(symbol)} characters)"
    if symbol is None:
        return "null"
    shown = repr(symbol)
    return f"a {type(symbol).__name__} ({shown if len(shown) <= 20 else shown[:20] + '…'})"


@dataclass(frozen=True, slots=True)
class Position:
    """A board and the side to move; ``to_move`` is ``None`` on a finished board.

    ``Position(board, to_move)`` trusts its arguments; :meth:`resolve` applies
    the turn and legality rules.
    """

    board: Board
    to_move: Mark | None

    @classmethod
    def resolve(cls, board: Board, player: Mark | None = None) -> Position:
        """The position on ``board`` with the side to move decided by the rules.

        ``player`` is the side to move as a request states it. It must agree
        with the counts; when ``x = o`` it chooses the side (``X`` when
        absent). On a finished board with ``x = o`` and no ``player``, the
        winner is taken to have moved last (the other side started).

        Raises :class:`BoardError` whose ``field`` is ``"player"`` when only
        the player is at fault.
        """
        return _resolved(board, player)

    @staticmethod
    def _resolve(board: Board, player: Mark | None) -> Position:
        """:meth:`resolve`, worked out (it is remembered for the most recent boards)."""
        board.check()
        counts = board.count("X"), board.count("O")
        to_move = cast(Mark, side_to_move(*counts, player, board.winner, "three in a row"))
        if board.status is not Status.IN_PROGRESS:
            return Position(board, None)
        return Position(board, to_move)

    @property
    def status(self) -> Status:
        return self.board.status

    def play(self, cell: int) -> Position:
        """The position after the side to move plays on ``cell``."""
        if self.to_move is None:
            raise ValueError("the game is over")
        after = self.board.play(cell, self.to_move)
        return Position(after, None if after.status is not Status.IN_PROGRESS else opponent(self.to_move))


@lru_cache(maxsize=4096)
def _resolved(board: Board, player: Mark | None) -> Position:
    """:meth:`Position.resolve`, remembered for the 4,096 most recent boards and players: a request's
    models ask for the same position up to three times, and a batch often repeats one. A board that
    breaks a rule raises each time, and is not remembered."""
    return Position._resolve(board, player)
