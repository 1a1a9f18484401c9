"""Reading a board in any form a request may send it, and the words of the rules a board breaks.

A board of a game of ``shape`` (:class:`Shape`: its boards, their size, the marks they hold) is its
cells one after another, each board numbered as :mod:`.geometry` says (row-major, cell 0
top-left). Its canonical text holds ``X``, ``O`` and ``.``; :func:`read_cells` reads it from a
string in any spelling or, on a single board, from an array of cells or of rows. The rules of
turns and lines that make a board legal are the variant's (:mod:`.variants`), and they raise a
:class:`BoardError` built here: for own marks,

* the mark counts ``x`` and ``o`` differ by at most one (:func:`counts_apart`);
* ``O`` moves when ``x = o + 1``, ``X`` moves when ``o = x + 1``; when ``x = o`` the side to move
  is the given player, ``X`` by default (:func:`side_to_move`);
* at most one side has a line, and that side moved last (:func:`late_move`).

Nothing here knows about HTTP.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, TypeAlias

Mark: TypeAlias = Literal["X", "O"]

EMPTY = "."

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
