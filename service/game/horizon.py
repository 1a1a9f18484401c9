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

from .board import Position, opponent
from .geometry import CELLS_OF, FULL, HAS_LINE, TERNARY_SIZE, mask_of, ternary

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
    if not _BEST_CELLS[slot]:
        _search(own, other, depth, slot)
    return _BEST_CELLS[slot] & FULL


def _best(own: int, other: int, depth: int) -> tuple[int, int]:
    """``(score, plies)`` of the best move of the side holding ``own``."""
    slot = _slot(own, other, depth)
    known = _VALUES[slot] or _search(own, other, depth, slot)
    return (known - 1) // 10 - 1, (known - 1) % 10


def _search(own: int, other: int, depth: int, slot: int) -> int:
    """Value every move of the side holding ``own`` (see the module's docstring), keep the best value
    and the best cells in the memos at ``slot``, and return the kept value.

    Moves are compared by their *merit*, larger for better values in the order of
    :func:`~.solver.rank`: ``20 - plies`` for a win, ``10`` for any draw, ``plies`` for a loss. The
    first move of the best merit gives the value kept.
    """
    taken = own | other
    top, cells, kept = -1, 0, 0
    for cell in CELLS_OF[FULL ^ taken]:
        bit = 1 << cell
        played = own | bit
        if HAS_LINE[played]:
            merit, score, plies = 19, 1, 1
        elif played | other == FULL or depth == 1:
            merit, score, plies = 10, 0, 1
        else:
            score, plies = _best(other, played, depth - 1)
            score, plies = -score, plies + 1
            merit = 20 - plies if score > 0 else 10 if score == 0 else plies
        if merit > top:
            top, cells, kept = merit, bit, 1 + 10 * (score + 1) + plies
        elif merit == top:
            cells |= bit
    _VALUES[slot] = kept
    _BEST_CELLS[slot] = 512 | cells
    return kept


def masks(position: Position) -> tuple[int, int]:
    """The cells of the side to move and of the other side, as bit masks."""
    mover = position.to_move
    if mover is None:
        raise ValueError("the game is over: there is no move to make")
    cells = position.board.cells
    return mask_of(cells, mover), mask_of(cells, opponent(mover))
