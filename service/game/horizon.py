"""A player that looks only ``depth`` plies ahead: the moves it finds best.

The engine's own move is ply 1. Within the horizon a move is valued as the
solver values it (:mod:`.solver`), with the game cut short:

* a move that completes a line is worth ``+1`` in 1 ply;
* a move that fills the board is worth ``0``;
* at the horizon (``depth`` 1), any other move is worth ``0``: the game goes on;
* otherwise a move is worth the negation of the opponent's best value one ply
  shallower, one ply longer.

Moves are ranked by score; among wins the fewest plies come first, among
losses the most; all ``0`` values tie. What each depth then finds is
:data:`DEPTH_IN_WORDS` (a perfect player chooses among all optimal moves, not
by traps).
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator

from .board import Position, opponent
from .geometry import CELLS, CELLS_OF, FULL, HAS_LINE, TERNARY_SIZE, mask_of, ternary
from .solver import rank

#: The depths a player may look ahead: 1 (take a win) to 9 (the whole game).
DEPTHS = range(1, 10)
#: What each depth finds, in the words the API's schema, the CLI's help and the docs use.
DEPTH_IN_WORDS = (
    "1 takes a win, 2 also blocks, 3 also forks, and a depth of at least the moves left plays perfectly"
)

# Memos, filled as positions are asked for, in flat arrays rather than dictionaries of tuples
# (half a megabyte for every position at every depth, against about 11 MiB). A position is
# indexed from the mover's side (:func:`~.geometry.ternary`), then by depth; 0 means not yet known.
_SLOTS = TERNARY_SIZE * len(DEPTHS)
#: ``1 + 10 * (score + 1) + plies`` of the best move, for :func:`_best`.
_VALUES = bytearray(_SLOTS)
#: ``512 | cells`` (a bit mask) of the best moves, for :func:`_best_cells`.
_BEST_CELLS = array("H", bytes(2 * _SLOTS))


def best_cells(position: Position, depth: int) -> tuple[int, ...]:
    """The cells a player looking ``depth`` plies ahead finds best, in increasing order."""
    if depth not in DEPTHS:
        raise ValueError(f"depth must be from 1 to 9, got {depth}")
    own, other = masks(position)
    return _best_cells(own, other, depth)


def _slot(own: int, other: int, depth: int) -> int:
    return ternary(own, other) * len(DEPTHS) + depth - 1


def _best_cells(own: int, other: int, depth: int) -> tuple[int, ...]:
    return CELLS_OF[best_mask(own, other, depth)]


def best_mask(own: int, other: int, depth: int) -> int:
    """:func:`best_cells` as a bit mask, for the side holding ``own`` against ``other`` (bit masks of
    a position whose game is not over; ``depth`` from 1 to 9, unchecked)."""
    slot = _slot(own, other, depth)
    known = _BEST_CELLS[slot]
    if not known:
        values = [(cell, rank(*_value(own, other, cell, depth))) for cell in _empty(own | other)]
        best = min(key for _, key in values)
        known = _BEST_CELLS[slot] = 512 | sum(1 << cell for cell, key in values if key == best)
    return known & FULL


def _best(own: int, other: int, depth: int) -> tuple[int, int]:
    """``(score, plies)`` of the best move of the side holding ``own``."""
    slot = _slot(own, other, depth)
    known = _VALUES[slot]
    if not known:
        values = (_value(own, other, cell, depth) for cell in _empty(own | other))
        score, plies = min(values, key=lambda value: rank(*value))
        known = _VALUES[slot] = 1 + 10 * (score + 1) + plies
    return (known - 1) // 10 - 1, (known - 1) % 10


def _value(own: int, other: int, cell: int, depth: int) -> tuple[int, int]:
    """``(score, plies)`` of playing ``cell``, for the side holding ``own``."""
    played = own | 1 << cell
    if HAS_LINE[played]:
        return 1, 1
    if played | other == FULL or depth == 1:
        return 0, 1
    score, plies = _best(other, played, depth - 1)
    return -score, plies + 1


def _empty(taken: int) -> Iterator[int]:
    """The empty cells, given the taken ones as a bit mask."""
    return (cell for cell in CELLS if not taken >> cell & 1)


def masks(position: Position) -> tuple[int, int]:
    """The cells of the side to move and of the other side, as bit masks."""
    mover = position.to_move
    if mover is None:
        raise ValueError("the game is over: there is no move to make")
    cells = position.board.cells
    return mask_of(cells, mover), mask_of(cells, opponent(mover))
