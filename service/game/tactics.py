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

from typing import Literal, TypeAlias

from .board import EMPTY, LINES, Board, Line, Mark, opponent

Tactic: TypeAlias = Literal[
    "win", "block", "fork", "threat", "block_fork", "center", "corner", "edge", "opposite_corner"
]
TACTICS: tuple[Tactic, ...] = (
    "win",
    "block",
    "fork",
    "threat",
    "block_fork",
    "center",
    "corner",
    "edge",
    "opposite_corner",
)
CORNERS = (0, 2, 6, 8)
EDGES = (1, 3, 5, 7)
CENTER = 4


def completing_cells(cells: str, mark: Mark) -> frozenset[int]:
    """The empty cells that would finish a line of ``mark``."""
    own, other = _masks(cells, mark)
    return _cells_of(_completing(own, other))


def fork_cells(cells: str, mark: Mark) -> frozenset[int]:
    """The empty cells that would give ``mark`` two or more distinct completing cells."""
    own, other = _masks(cells, mark)
    return _cells_of(_forks(own, other))


def tactics(board: Board, mover: Mark, cell: int) -> tuple[Tactic, ...]:
    """The tactics of ``mover`` playing the empty ``cell`` of ``board``, in the order of :data:`TACTICS`."""
    own, other = _masks(board.cells, mover)
    bit = 1 << cell
    after = own | bit
    won = any(after & mask == mask for mask in _MASKS if mask & bit)
    threats = _completing(after, other).bit_count()
    found: list[Tactic] = []
    if won:
        found.append("win")
    if _completing(other, own) & bit:
        found.append("block")
    if not won and threats >= 2:
        found.append("fork")
    if not won and threats == 1:
        found.append("threat")
    if _forks(other, own) and not _forks(other, after):
        found.append("block_fork")
    found.append("center" if cell == CENTER else "corner" if cell in CORNERS else "edge")
    if cell in CORNERS and other >> (8 - cell) & 1:
        found.append("opposite_corner")
    return tuple(found)


def reason(board: Board, mover: Mark, cell: int, score: int, plies: int) -> str:
    """One sentence for a person: the move's main tactic, with its cells, and the move's value.

    ``score`` and ``plies`` are the move's value for ``mover`` under perfect play afterwards
    (:mod:`.solver`).
    """
    cells = board.cells
    other = opponent(mover)
    after = _play(cells, cell, mover)
    found = tactics(board, mover, cell)
    if "win" in found:
        line = next(line for line in LINES if cell in line and all(after[c] == mover for c in line))
        return f"Completes {mover}'s {line_name(line)}: {mover} wins."
    if "block" in found:
        line = next(line for line in open_lines(cells, other) if cell in line)
        action = f"Blocks {other}'s {line_name(line)}"
    elif "fork" in found:
        action = f"Forks: {mover} threatens to win on cells {_cells(completing_cells(after, mover))}"
    elif "block_fork" in found:
        action = f"Takes away {other}'s fork on cell{_plural(fork_cells(cells, other))}"
    elif "threat" in found:
        target = next(iter(completing_cells(after, mover)))
        line = next(line for line in open_lines(after, mover) if target in line)
        action = f"Threatens to complete {line_name(line)} on cell {target}"
    elif "center" in found:
        action = "Takes the center"
    elif "opposite_corner" in found:
        action = f"Takes corner {cell}, opposite {other}'s corner {8 - cell}"
    else:
        action = f"Takes {'corner' if 'corner' in found else 'edge'} cell {cell}"
    return f"{action}; {outcome_words(mover, score, plies)}."


def outcome_words(mover: Mark, score: int, plies: int) -> str:
    """The value of a move in words, for the side that makes it."""
    if score > 0:
        return f"{mover} wins with best play, in {plies} moves"
    if score < 0:
        return f"{opponent(mover)} can force a win, in {plies} moves"
    return "the game is a draw with best play"


def line_name(line: Line) -> str:
    """``row 0-1-2``, ``column 1-4-7`` or ``diagonal 2-4-6``."""
    kind = "row" if line[1] - line[0] == 1 else "column" if line[1] - line[0] == 3 else "diagonal"
    return f"{kind} {'-'.join(str(cell) for cell in line)}"


def open_lines(cells: str, mark: Mark) -> list[Line]:
    """The lines with two of ``mark`` and the third cell empty."""
    return [
        line
        for line in LINES
        if [cells[c] for c in line].count(mark) == 2 and EMPTY in (cells[c] for c in line)
    ]


def _cells(cells: frozenset[int]) -> str:
    ordered = sorted(cells)
    return ", ".join(str(cell) for cell in ordered[:-1]) + f" and {ordered[-1]}"


def _plural(cells: frozenset[int]) -> str:
    ordered = sorted(cells)
    if len(ordered) == 1:
        return f" {ordered[0]}"
    return "s " + ", ".join(str(cell) for cell in ordered[:-1]) + f" and {ordered[-1]}"


def _play(cells: str, cell: int, mark: Mark) -> str:
    return cells[:cell] + mark + cells[cell + 1 :]


#: The lines as bit masks of their cells.
_MASKS = tuple(sum(1 << cell for cell in line) for line in LINES)


def _masks(cells: str, mark: Mark) -> tuple[int, int]:
    """The cells of ``mark`` and of the other side, as bit masks."""
    own = sum(1 << cell for cell in range(9) if cells[cell] == mark)
    other = sum(1 << cell for cell in range(9) if cells[cell] not in (mark, EMPTY))
    return own, other


def _completing(own: int, other: int) -> int:
    """The completing cells of the side holding ``own``, as a bit mask."""
    found = 0
    for mask in _MASKS:
        if (own & mask).bit_count() == 2 and not other & mask:
            found |= mask & ~own
    return found


def _forks(own: int, other: int) -> int:
    """The fork cells of the side holding ``own``, as a bit mask."""
    taken = own | other
    found = 0
    for cell in range(9):
        bit = 1 << cell
        if not taken & bit and _completing(own | bit, other).bit_count() >= 2:
            found |= bit
    return found


def _cells_of(mask: int) -> frozenset[int]:
    return frozenset(cell for cell in range(9) if mask >> cell & 1)
