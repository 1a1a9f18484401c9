"""The geometry of a board, defined once from its size: cells, lines, symmetries, and sets of cells as
bit masks.

A :class:`Grid` is a square board of ``size`` × ``size`` cells whose lines are runs of ``line``
cells. Its cells are numbered in row-major order: cell ``i`` is at row ``i // size`` and column
``i % size``, cell 0 top-left. A *line* is ``line`` consecutive cells of a row, a column, a
diagonal or an anti-diagonal. A set of cells is also written as a bit mask: bit ``i`` is set when
cell ``i`` is in the set. The eight symmetries of the square map lines onto lines, so they keep
every rule and value of a game played on the grid.

Every game of the family reads its board through one grid (the standard game's is ``grid(3, 3)``,
with eight lines); nothing here is particular to one of them.

Nothing here knows about marks or turns: :mod:`.board` and :mod:`.variants` add them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import TypeAlias

Line: TypeAlias = tuple[int, ...]
#: A symmetry as a permutation ``p`` of the cells: the board transformed by ``p`` shows at cell
#: ``i`` the old cell ``p[i]``.
Symmetry: TypeAlias = tuple[int, ...]


@dataclass(frozen=True)
class Grid:
    """A square board of ``size`` × ``size`` cells, whose lines are runs of ``line`` cells.

    Build one with :func:`grid`, which makes each grid once.
    """

    size: int
    line: int
    #: Every line: the rows' runs (top row first, each from the left), then the columns' (left
    #: column first, each from the top), then the diagonals' (down to the right) and the
    #: anti-diagonals' (down to the left), each by its first cell.
    lines: tuple[Line, ...] = field(init=False)
    #: The eight symmetries of the square: the four turns (none, a quarter, a half, three quarters
    #: clockwise), then each of them after a mirror from left to right.
    symmetries: tuple[Symmetry, ...] = field(init=False)

    def __post_init__(self) -> None:
        n = self.size
        quarter = tuple((n - 1 - i % n) * n + i // n for i in range(n * n))  # top row: left column, upwards
        mirror = tuple((i // n) * n + n - 1 - i % n for i in range(n * n))
        turns = (
            tuple(range(n * n)),
            quarter,
            _then(quarter, quarter),
            _then(_then(quarter, quarter), quarter),
        )
        object.__setattr__(self, "lines", _lines(n, self.line))
        object.__setattr__(self, "symmetries", turns + tuple(_then(mirror, turn) for turn in turns))

    @property
    def cells(self) -> range:
        return range(self.size * self.size)

    @property
    def full(self) -> int:
        """The mask of every cell."""
        return (1 << self.size * self.size) - 1

    @property
    def line_masks(self) -> tuple[int, ...]:
        """The lines as bit masks of their cells."""
        return tuple(sum(1 << cell for cell in line) for line in self.lines)

    def row(self, cell: int) -> int:
        """The row of ``cell``, 0 at the top."""
        return cell // self.size

    def column(self, cell: int) -> int:
        """The column of ``cell``, 0 on the left."""
        return cell % self.size


def _lines(n: int, k: int) -> tuple[Line, ...]:
    """The lines of ``k`` cells on an ``n`` × ``n`` grid, in the order :attr:`Grid.lines` gives."""
    starts, ends = range(n - k + 1), range(k - 1, n)
    # Each family: the step from one cell of a line to the next, and its first cells in order.
    families = (
        (1, [(r, c) for r in range(n) for c in starts]),  # rows
        (n, [(r, c) for c in range(n) for r in starts]),  # columns
        (n + 1, [(r, c) for r in starts for c in starts]),  # diagonals
        (n - 1, [(r, c) for r in starts for c in ends]),  # anti-diagonals
    )
    return tuple(
        tuple(r * n + c + i * step for i in range(k)) for step, firsts in families for r, c in firsts
    )


def _then(first: Symmetry, second: Symmetry) -> Symmetry:
    """The permutation of transforming by ``first``, then by ``second``."""
    return tuple(first[second[i]] for i in range(len(first)))


@cache
def grid(size: int, line: int) -> Grid:
    """The grid of ``size`` × ``size`` cells with lines of ``line`` cells, made once."""
    if not 1 <= line <= size:
        raise ValueError(f"a line of {line} cells does not fit a {size} × {size} grid")
    return Grid(size, line)
