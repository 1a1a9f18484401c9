"""What a move does, in the words of the game: its tactics, and a sentence that explains it.

Let P be the side that moves and Q the other. A *completing cell* of a side is
an empty cell that would finish one of its lines (a line with two of its marks
and the third cell empty); a *fork cell* of a side is an empty cell that would
give it two or more distinct completing cells. A move has, in this order:

* ``win``: it completes a line of P;
* ``block``: it takes a completing cell of Q;
* ``fork``: not a win, and after it P has two or more distinct completing cells;
* ``threat``: not a win, and after it P has exactly one completing cell;
* ``block_fork``: before it Q had a fork cell, and after it Q has none;
* ``center``, ``corner`` or ``edge``: where it is (cell 4; 0, 2, 6, 8; 1, 3, 5, 7);
* ``opposite_corner``: it is on a corner whose opposite corner holds Q's mark.
"""

from __future__ import annotations

from array import array
from typing import Literal, TypeAlias

from .board import Board, Mark, opponent
from .geometry import (
    CELLS,
    CELLS_OF,
    CENTER,
    CORNERS,
    FULL,
    LINE_MASKS,
    LINES,
    TERNARY_SIZE,
    Line,
    mask_of,
    row,
    ternary,
)

#: The tactics of a move, in the order in which they are listed.
Tactic: TypeAlias = Literal[
    "win", "block", "fork", "threat", "block_fork", "center", "corner", "edge", "opposite_corner"
]


def tactics(board: Board, mover: Mark, cell: int) -> tuple[Tactic, ...]:
    """The tactics of ``mover`` playing the empty ``cell`` of ``board``, in the order of :data:`Tactic`."""
    own, other = _masks(board.cells, mover)
    return _tactics(own, other, cell)


def explain(board: Board, mover: Mark, cell: int, score: int, plies: int) -> tuple[tuple[Tactic, ...], str]:
    """The tactics of a move, and one sentence for a person: its main tactic, with its cells, and its value.

    ``score`` and ``plies`` are the move's value for ``mover`` under perfect play afterwards
    (:mod:`.solver`). Cells and lines are named as a person sees them on the board (:data:`CELL_NAMES`,
    :func:`line_name`), never by an index, so the sentence reads the same in every front end,
    whether it numbers cells from 0 or from 1.
    """
    own, other = _masks(board.cells, mover)
    return explain_masks(own, other, mover, cell, score=score, plies=plies)


def explain_masks(
    own: int, other: int, mover: Mark, cell: int, *, score: int, plies: int
) -> tuple[tuple[Tactic, ...], str]:
    """:func:`explain`, the position given as the bit masks of ``mover``'s cells and of the other side's."""
    found, when_x, when_o = _described(own, other, cell)
    action = when_x if mover == "X" else when_o
    if found[0] == "win":
        return found, f"{action}: {mover} wins."
    return found, f"{action}; {outcome_words(mover, score, plies)}."


def _find_tactics(own: int, other: int, cell: int) -> tuple[Tactic, ...]:
    """:func:`tactics` for the side holding ``own`` against ``other`` (bit masks)."""
    return (*_line_tactics(own, other, cell), *_place_tactics(other, cell))


def _line_tactics(own: int, other: int, cell: int) -> list[Tactic]:
    """What playing ``cell`` does to the lines: ``win``, ``block``, ``fork``, ``threat``, ``block_fork``."""
    bit = 1 << cell
    after = own | bit
    won = any(after & mask == mask for mask in LINE_MASKS if mask & bit)
    threats = 0 if won else _completing(after, other).bit_count()
    found: list[Tactic] = ["win"] if won else []
    if _completing(other, own) & bit:
        found.append("block")
    if threats:
        found.append("fork" if threats >= 2 else "threat")
    if _forks(other, own) and not _forks(other, after):
        found.append("block_fork")
    return found


def _place_tactics(other: int, cell: int) -> tuple[Tactic, ...]:
    """Where ``cell`` is: ``center``, ``corner`` or ``edge``, and ``opposite_corner`` to ``other``'s mark."""
    if cell == CENTER:
        return ("center",)
    if cell not in CORNERS:
        return ("edge",)
    return ("corner", "opposite_corner") if other >> (8 - cell) & 1 else ("corner",)


def _action(own: int, other: int, mover: Mark, cell: int, found: tuple[Tactic, ...]) -> str:
    """The first half of the sentence of :func:`explain`: the move's main tactic, with its cells."""
    bit = 1 << cell
    after = own | bit
    main = found[0]
    if main == "win":
        return f"Completes {mover}'s {line_name(_line(after, 0, bit, 3))}"
    if main == "block":
        return f"Blocks {opponent(mover)}'s {line_name(_line(other, own, bit, 2))}"
    if main == "fork":
        return f"Forks: {mover} threatens to win at {_listed(CELLS_OF[_completing(after, other)])}"
    if "block_fork" in found:
        forks = CELLS_OF[_forks(other, own)]
        return f"Takes away {opponent(mover)}'s fork{'s' if len(forks) > 1 else ''} at {_listed(forks)}"
    if main == "threat":
        target = _completing(after, other) & -_completing(after, other)  # the lowest one
        return (
            f"Threatens to complete the {line_name(_line(after, other, target, 2))} "
            f"at {CELL_NAMES[target.bit_length() - 1]}"
        )
    if "opposite_corner" in found:
        return f"Takes {CELL_NAMES[cell]}, opposite {opponent(mover)}'s mark in {CELL_NAMES[8 - cell]}"
    return f"Takes {CELL_NAMES[cell]}"


def _line(own: int, other: int, through: int, marks: int) -> Line:
    """The first line through a cell of ``through`` with ``marks`` cells of ``own`` and none of ``other``."""
    return next(
        line
        for line, mask in zip(LINES, LINE_MASKS, strict=True)
        if mask & through and (own & mask).bit_count() == marks and not other & mask
    )


#: Every cell as a person names it.
CELL_NAMES = (
    "the top-left corner",
    "the top edge",
    "the top-right corner",
    "the left edge",
    "the center",
    "the right edge",
    "the bottom-left corner",
    "the bottom edge",
    "the bottom-right corner",
)


def line_name(line: Line) -> str:
    """A line as a person names it: ``top row``, ``left column``, ``diagonal from the top-left``."""
    step = line[1] - line[0]
    if step == 1:
        return ("top", "middle", "bottom")[row(line[0])] + " row"
    if step == 3:
        return ("left", "middle", "right")[line[0]] + " column"
    return "diagonal from the top-left" if line[0] == 0 else "diagonal from the top-right"


def _listed(cells: tuple[int, ...]) -> str:
    """``the center``, or ``the top edge and the center``, or ``A, B and C``, in cell order."""
    names = [CELL_NAMES[cell] for cell in cells]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" and {names[-1]}"


def outcome_words(mover: Mark, score: int, plies: int) -> str:
    """The value of a move in words, for the side that makes it."""
    if score > 0:
        return f"{mover} wins with best play, in {plies} moves"
    if score < 0:
        return f"{opponent(mover)} can force a win, in {plies} moves"
    return "the game is a draw with best play"


def _masks(cells: str, mark: Mark) -> tuple[int, int]:
    """The cells of ``mark`` and of the other side, as bit masks."""
    return mask_of(cells, mark), mask_of(cells, opponent(mark))


# Memos of :func:`_completing` and :func:`_forks`, filled as positions are asked for, indexed by
# :func:`~.geometry.ternary`: ``512 | cells`` (a bit mask), 0 when not yet known; 40 KiB each.
_COMPLETING = array("H", bytes(2 * TERNARY_SIZE))
_FORKS = array("H", bytes(2 * TERNARY_SIZE))


#: The distinct descriptions of moves, each once: the tactics, and the first half of the sentence of
#: :func:`explain` when ``X`` moves and when ``O`` does (a few hundred in the whole game).
_KINDS: list[tuple[tuple[Tactic, ...], str, str]] = []
_KIND_INDEX: dict[tuple[tuple[Tactic, ...], str, str], int] = {}
#: A memo of :func:`_described`, indexed by position (:func:`~.geometry.ternary`) and cell: 1 + the
#: index of the move's description in :data:`_KINDS`, 0 when not yet known.
_DESCRIBED = array("H", bytes(2 * 9 * TERNARY_SIZE))


def _tactics(own: int, other: int, cell: int) -> tuple[Tactic, ...]:
    """:func:`_find_tactics`, remembered."""
    return _described(own, other, cell)[0]


def _described(own: int, other: int, cell: int) -> tuple[tuple[Tactic, ...], str, str]:
    """The tactics of the move ``cell`` of the side holding ``own``, and :func:`_action` when that side
    is ``X`` and when it is ``O``; remembered."""
    slot = 9 * ternary(own, other) + cell
    known = _DESCRIBED[slot]
    if not known:
        found = _find_tactics(own, other, cell)
        kind = (found, _action(own, other, "X", cell, found), _action(own, other, "O", cell, found))
        index = _KIND_INDEX.get(kind)
        if index is None:
            index = _KIND_INDEX[kind] = len(_KINDS)
            _KINDS.append(kind)
        known = _DESCRIBED[slot] = 1 + index
    return _KINDS[known - 1]


def _completing(own: int, other: int) -> int:
    """The completing cells of the side holding ``own``, as a bit mask."""
    slot = ternary(own, other)
    known = _COMPLETING[slot]
    if not known:
        found = 0
        for mask in LINE_MASKS:
            if (own & mask).bit_count() == 2 and not other & mask:
                found |= mask & ~own
        known = _COMPLETING[slot] = 512 | found
    return known & FULL


def _forks(own: int, other: int) -> int:
    """The fork cells of the side holding ``own``, as a bit mask."""
    slot = ternary(own, other)
    known = _FORKS[slot]
    if not known:
        taken = own | other
        found = 0
        for cell in CELLS:
            bit = 1 << cell
            if not taken & bit and _completing(own | bit, other).bit_count() >= 2:
                found |= bit
        known = _FORKS[slot] = 512 | found
    return known & FULL
