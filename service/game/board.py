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

from .words import Listed, Message, Plural, Said

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

    ``code`` is a short machine-readable name of the rule that failed, ``said`` what is wrong, in any
    language (:class:`~.words.Said`; :attr:`message` in English), and ``field`` which input is at
    fault: ``"board"`` or ``"player"``.
    """

    def __init__(self, code: str, said: Said, field: Literal["board", "player"] = "board") -> None:
        super().__init__(str(said))
        self.code = code
        self.said = said
        self.field = field

    @property
    def message(self) -> str:
        return str(self.said)


#: How many marks in a row make a line, in words, by the line's length.
IN_A_ROW = {
    # TRANSLATORS: A line of a game, as the rules and the errors name it ("X has three in a row").
    3: Message("in a row", "three in a row"),
    4: Message("in a row", "four in a row"),
}


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

    def cell_name(self, cell: int) -> Said:
        """``cell 5 (row 1, column 2)``, with the board first when there are several."""
        board, offset = divmod(cell, self.size * self.size)
        row, column = divmod(offset, self.size)
        if self.boards > 1:
            # TRANSLATORS: A cell of a board string, by its index, as an error names it.
            message = Message("error", "cell {cell} (board {board}, row {row}, column {column})")
            return Said.of(message, cell=cell, board=board, row=row, column=column)
        return Said.of(
            Message("error", "cell {cell} (row {row}, column {column})"), cell=cell, row=row, column=column
        )


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
        where = [shape.cell_name(cell) for cell, mark in enumerate(cells) if mark in unused]
        said = Said.of(
            Plural(
                "error",
                "this game's boards hold only {marks}; {cells} has {unused}",
                "this game's boards hold only {marks}; {cells} have {unused}",
            ),
            len(where),
            marks=Listed(tuple(shape.marks)),
            cells=Listed(tuple(where), clauses=True),
            unused=Listed(tuple(unused)),
        )
        raise BoardError("board_symbol", said)
    return cells


def _forms(shape: Shape) -> Said:
    n, size = shape.cells, shape.size
    if shape.boards > 1:
        message = Message(
            "error",
            "a board is a string of {n} characters: {boards} boards of {cells} cells, one after another",
        )
        return Said.of(message, n=n, boards=shape.boards, cells=size * size)
    message = Message(
        "error",
        "a board is a string of {n} characters, an array of {n} cells, "
        "or an array of {size} rows of {size} cells",
    )
    return Said.of(message, n=n, size=size)


def _from_string(value: str, shape: Shape) -> str:
    n = shape.cells
    if len(value) != n:
        message = Message("error", "a board string has exactly {n} characters, one per cell; got {got}")
        raise BoardError("board_length", Said.of(message, n=n, got=len(value)))
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
                message = Message(
                    "error", "row {index} of the board has {got} cells; every row has exactly {size}"
                )
                raise BoardError("board_length", Said.of(message, index=index, got=len(row), size=size))
        return _from_symbols([cell for row in rows for cell in row], ARRAY_SYMBOLS, shape)
    if len(items) != shape.cells:
        message = Message(
            "error",
            "a board array has exactly {cells} cells, or {size} rows of {size} cells; got {got} items",
        )
        raise BoardError("board_length", Said.of(message, cells=shape.cells, size=size, got=len(items)))
    return _from_symbols(items, ARRAY_SYMBOLS, shape)


def _from_symbols(symbols: list[object], table: dict[str, str], shape: Shape) -> str:
    cells: list[str] = []
    unknown: list[Said] = []
    for cell, symbol in enumerate(symbols):
        canonical = EMPTY if symbol is None and table is ARRAY_SYMBOLS else None
        if isinstance(symbol, str):
            canonical = table.get(symbol)
        if canonical is None:
            # TRANSLATORS: A cell of a board sent with a symbol that is not one ("{symbol}" quoted).
            has = Message("error", "{cell} has {symbol}")
            unknown.append(Said.of(has, cell=shape.cell_name(cell), symbol=_describe(symbol)))
        else:
            cells.append(canonical)
    if unknown:
        if table is ARRAY_SYMBOLS:
            message = Message(
                "error",
                "unknown symbol: {cells}. "
                "Use {marks} for a mark and '.', '-', '_', ' ', '' or null for an empty cell",
            )
        else:
            message = Message(
                "error",
                "unknown symbol: {cells}. Use {marks} for a mark and '.', '-', '_', ' ' for an empty cell",
            )
        marks = Listed(tuple(shape.marks), either=True)
        raise BoardError(
            "board_symbol", Said.of(message, cells=Listed(tuple(unknown), clauses=True), marks=marks)
        )
    return "".join(cells)


def counts_apart(x: int, o: int) -> BoardError | None:
    """The error of a board whose own-mark counts ``x`` and ``o`` cannot alternate, if they cannot."""
    if abs(x - o) <= 1:
        return None
    message = Message(
        "error", "the board has {x} X and {o} O; the sides alternate, so the counts differ by at most one"
    )
    return BoardError("board_counts", Said.of(message, x=x, o=o))


def side_to_move(x: int, o: int, player: str | None, line_maker: str | None, in_a_row: Message) -> str:
    """The mark to move when each side places its own mark: by the counts ``x`` and ``o``, else
    ``player``, else the side that did not make the line (X on a board without one). Raises
    :class:`BoardError` (``field`` ``"player"``) when ``player`` contradicts the counts, or is the
    side that made the line, which moved last."""
    if x != o:
        to_move = "O" if x > o else "X"
        if player is not None and player != to_move:
            message = Message("error", "the board has {x} X and {o} O, so {to_move} is to move, not {player}")
            said = Said.of(message, x=x, o=o, to_move=to_move, player=player)
            raise BoardError("player_contradicts_counts", said, field="player")
    elif player is not None:
        to_move = player
    else:
        to_move = "X" if line_maker in (None, "O") else "O"
    if line_maker is not None and line_maker == to_move:
        message = Message(
            "error", "{side} has {in_a_row}, so {side} moved last and cannot be the player to move"
        )
        said = Said.of(message, side=line_maker, in_a_row=Said.of(in_a_row))
        raise BoardError("player_winner_not_last", said, field="player")
    return to_move


def late_move(winner: str, loser: str, in_a_row: Message = IN_A_ROW[3]) -> BoardError:
    message = Message(
        "error",
        "{winner} has {in_a_row} but {loser} has more marks, so {loser} moved after the game was over",
    )
    return BoardError(
        "board_winner_not_last", Said.of(message, winner=winner, loser=loser, in_a_row=Said.of(in_a_row))
    )


def _describe(symbol: object) -> object:
    """A cell's symbol as an error names it: at most 20 characters of it."""
    if isinstance(symbol, str):
        if len(symbol) == 1:
            return f"{symbol!r} (U+{ord(symbol):04X})"
        if len(symbol) <= 20:
            return repr(symbol)
        # TRANSLATORS: A long text a client sent, cut to its start ("{start}", quoted), and its length.
        return Said.of(
            Message("error", "{start}… ({length} characters)"), start=repr(symbol[:20]), length=len(symbol)
        )
    if symbol is None:
        # TRANSLATORS: JSON's null, as a cell of a board holds it.
        return Said.of(Message("error", "null"))
    shown = repr(symbol)
    # TRANSLATORS: A value of a JSON type that is not a cell's, e.g. "a int (5)": {type} is Python's name.
    return Said.of(
        Message("error", "a {type} ({shown})"),
        type=type(symbol).__name__,
        shown=shown if len(shown) <= 20 else shown[:20] + "…",
    )
