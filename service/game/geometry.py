"""The geometry of the board, defined once: cells, lines, and sets of cells as bit masks.

The nine cells are numbered in row-major order: cell ``i`` is at row ``i // 3`` and column
``i % 3``, cell 0 top-left, cell 4 the center. A *line* is three cells in a row, a column or a
diagonal; there are eight. A set of cells is also written as a bit mask: bit ``i`` is set when
cell ``i`` is in the set, so the 512 masks from 0 to :data:`FULL` are every set of cells.

Nothing here knows about marks or turns: :mod:`.board` adds them.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import itemgetter
from typing import TypeAlias

Line: TypeAlias = tuple[int, int, int]

CELLS = range(9)
CENTER = 4
CORNERS = (0, 2, 6, 8)

LINES: tuple[Line, ...] = (
    (0, 1, 2),
    (3, 4, 5),
    (6, 7, 8),
    (0, 3, 6),
    (1, 4, 7),
    (2, 5, 8),
    (0, 4, 8),
    (2, 4, 6),
)

#: The lines as bit masks of their cells.
LINE_MASKS: tuple[int, ...] = tuple(sum(1 << cell for cell in line) for line in LINES)
#: The mask of every cell: a full board.
FULL = (1 << 9) - 1
#: Whether a set of cells holds a whole line, for each of the 512 sets (indexed by mask).
HAS_LINE: tuple[bool, ...] = tuple(
    any(cells & mask == mask for mask in LINE_MASKS) for cells in range(FULL + 1)
)
#: The cells of each of the 512 masks, in increasing order (indexed by mask).
CELLS_OF: tuple[tuple[int, ...], ...] = tuple(
    tuple(cell for cell in CELLS if mask >> cell & 1) for mask in range(FULL + 1)
)
#: Each mask in base 3, cell ``i`` as ``3 ** i`` (indexed by mask): see :func:`ternary`.
TERNARY: tuple[int, ...] = tuple(sum(3**cell for cell in cells) for cells in CELLS_OF)
#: How many :func:`ternary` indexes there are.
TERNARY_SIZE = 3**9


def ternary(own: int, other: int) -> int:
    """The index, from 0 to :data:`TERNARY_SIZE` - 1, of the two disjoint masks of a position seen from
    one side: in base 3, 1 for its own cells and 2 for the other's. Memos indexed by it are flat arrays."""
    return TERNARY[own] + 2 * TERNARY[other]


def row(cell: int) -> int:
    """The row of ``cell``, 0 at the top."""
    return cell // 3


def column(cell: int) -> int:
    """The column of ``cell``, 0 on the left."""
    return cell % 3


def mask_of(cells: str, symbol: str) -> int:
    """The cells of a 9-character canonical board text (``X``, ``O``, ``.``) that hold ``symbol``, as a
    bit mask: the text reversed, each cell a binary digit (cell 8 first), read as a number."""
    return int(cells[::-1].translate(_DIGITS[symbol]), 2)


#: For each symbol, the translation of a board text into binary digits: 1 where it is.
_DIGITS = {symbol: str.maketrans({s: "1" if s == symbol else "0" for s in "XO."}) for symbol in "XO."}


def place(cells: str, cell: int, symbol: str) -> str:
    """The 9-character board text with ``symbol`` written in ``cell``."""
    return cells[:cell] + symbol + cells[cell + 1 :]


def _then(first: tuple[int, ...], second: tuple[int, ...]) -> tuple[int, ...]:
    """The permutation of transforming by ``first``, then by ``second``."""
    return tuple(first[second[i]] for i in CELLS)


#: A quarter turn clockwise: the new top row is the old left column, read upwards.
QUARTER_TURN = (6, 3, 0, 7, 4, 1, 8, 5, 2)
#: A mirror from left to right.
MIRROR = (2, 1, 0, 5, 4, 3, 8, 7, 6)
_IDENTITY = tuple(CELLS)
_HALF_TURN = _then(QUARTER_TURN, QUARTER_TURN)
_TURNS = (_IDENTITY, QUARTER_TURN, _HALF_TURN, _then(_HALF_TURN, QUARTER_TURN))

#: The eight symmetries of the square: the four turns (none, a quarter, a half, three quarters
#: clockwise), then each of them after a mirror. Each is a permutation ``p`` of the cells: the board
#: transformed by ``p`` shows at cell ``i`` the old cell ``p[i]`` (:func:`transform`). They map lines
#: onto lines, so they keep every rule and value of the game.
SYMMETRIES: tuple[tuple[int, ...], ...] = _TURNS + tuple(_then(MIRROR, turn) for turn in _TURNS)


def transform(cells: str, symmetry: tuple[int, ...]) -> str:
    """The 9-character board text transformed by ``symmetry`` (one of :data:`SYMMETRIES`)."""
    return "".join(_PICKERS[symmetry](cells))


def images(cells: str) -> list[str]:
    """The 9-character board text transformed by each of the :data:`SYMMETRIES`, in their order."""
    return ["".join(pick(cells)) for pick in _PICKERS.values()]


#: What picks the old cells of a board text in the order of each symmetry.
_PICKERS: dict[tuple[int, ...], Callable[[str], tuple[str, ...]]] = {
    symmetry: itemgetter(*symmetry) for symmetry in SYMMETRIES
}
