"""What a move does in any game of the tic-tac-toe family (:mod:`.variants`): its tactics, and a sentence.

:mod:`.tactics` explains the standard game; this module explains every variant in the words of its
own rules, and gives the standard game's explanations unchanged (it asks :mod:`.tactics` for them).
Let P be the side that moves and Q the other. A *line* is a line of the variant on one board
(:attr:`.geometry.Grid.lines`); a *completing cell* of a mark is an empty cell of a live board that
would finish one of its lines: a line holding that mark on all of its other cells.

``standard``, ``4x4`` and ``4x4-3`` (own marks, a line wins) have the standard game's tactics, read
with the variant's lines (of 4, or of 3 on the 4 × 4 board). A *fork cell* of a side is an empty
cell that would give it two or more distinct completing cells. In this order:

* ``win``: the move completes a line of P;
* ``block``: it takes a completing cell of Q;
* ``fork``: not a win, and after it P has two or more distinct completing cells;
* ``threat``: not a win, and after it P has exactly one completing cell;
* ``block_fork``: before it Q had a fork cell, and after it Q has none;
* ``center``, ``corner`` or ``edge``: where it is (see *Places* below);
* ``opposite_corner``: it is on a corner whose opposite corner (across the center) holds Q's mark.

``misere`` (own marks, the side that makes a line loses):

* ``lose``: the move completes a line of P, and P loses;
* ``squeeze``: not a loss, and after it every empty cell (there is at least one) is a completing
  cell of Q: whatever Q plays completes a line of Q;
* ``avoid``: not a loss, and before it P had a completing cell: the move steps around a cell that
  would complete a line of P;
* ``center``, ``corner`` or ``edge``;
* ``opposite``: the cell opposite the move's, across the center, holds Q's mark (the mirror defence).

``wild`` (each move places X or O; a line of either mark wins for the side that makes it). A
completing cell of either mark can be taken by whichever side moves next:

* ``win``: the move completes a line of the mark it places;
* ``block``: not a win, and it takes a completing cell (of either mark);
* ``gift``: not a win, and after it there is a completing cell: Q can win at once;
* ``squeeze``: not a win, after it there is no completing cell but an empty cell, and every move
  of Q (either mark in any empty cell) leaves a completing cell: P can win on its next move;
* ``center``, ``corner`` or ``edge``.

``notakto``, ``notakto-2`` and ``notakto-3`` (both sides place X on a *live* board, one without a
line; the side that makes the last line loses). Tags that cannot hold with one board are not
listed for ``notakto``:

* ``lose``: the move makes a line on the last live board, and P loses;
* ``kill``: it makes a line on its board while another board stays live: that board is dead;
* ``hand_over``: a kill after which exactly one board is live: Q moves on the last live board;
* ``squeeze``: not a loss, and after it exactly one board is live and each of its empty cells is a
  completing cell: whatever Q plays makes the last line;
* ``live``: it makes no line: its board stays live;
* ``center``, ``corner`` or ``edge``, on its board.

*Places.* On its board, a cell is a ``corner`` when its row and its column are on the border, an
``edge`` when one of them is, and ``center`` when neither is: cell 4 on 3 × 3, the four middle
cells on 4 × 4.

Sentences name cells, lines and boards as a person sees them (:func:`cell_name`, :func:`line_name`,
:func:`board_name`), never by an index, so they read the same in every front end, whether it
numbers from 0 or from 1; the names are derived from the grid's geometry, and on 3 × 3 they are the
standard game's. Notakto's boards are "the left board", "the middle board" and "the right board":
the contract writes them one after another, and front ends draw them side by side, in that order.
The value ends the sentence as :func:`.tactics.outcome_words` says it, the sides being X and O in
own-mark variants and "the first player" and "the second player" in wild and Notakto.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache, lru_cache
from typing import NamedTuple, TypeAlias, get_args

from . import tactics as standard
from .board import Mark
from .geometry import Grid, Line
from .variants import VARIANTS, X_MARK, Move, State, Variant

#: The parts of a description: the tags, the sentence's first half, and how the game ends when the
#: move ends it (``"X wins"``), else ``None``, and the value of the move ends the sentence.
Described: TypeAlias = tuple[tuple[str, ...], str, str | None]

_PLACES = ("center", "corner", "edge")
_OWN = (*get_args(standard.Tactic),)
_MISERE = ("lose", "squeeze", "avoid", *_PLACES, "opposite")
_WILD = ("win", "block", "gift", "squeeze", *_PLACES)
_NOTAKTO = ("lose", "kill", "hand_over", "squeeze", "live", *_PLACES)
_ONE_BOARD_ONLY = {"kill", "hand_over"}


def _tags_of(variant: Variant) -> tuple[str, ...]:
    """Every tactic tag of ``variant``, in listing order."""
    if variant.marks == "own":
        return _MISERE if variant.misere else _OWN
    if variant.marks == "either":
        return _WILD
    return tuple(tag for tag in _NOTAKTO if variant.boards > 1 or tag not in _ONE_BOARD_ONLY)


#: Per variant id, every tactic tag the variant uses, in listing order.
TACTICS: dict[str, tuple[str, ...]] = {variant.id: _tags_of(variant) for variant in VARIANTS.values()}


def explain_move(
    variant: Variant, state: State, move: Move, score: int, plies: int
) -> tuple[tuple[str, ...], str]:
    """The tactics of ``move`` in the unfinished ``state`` (in :data:`TACTICS` order), and one sentence for a
    person: its main tactic, with its cells and lines, and its value.

    ``score`` and ``plies`` are the move's value for the side that plays it under perfect play afterwards,
    as :class:`~.exact.RankedMove` gives them. The standard game's answer is :func:`.tactics.explain`'s.
    """
    if variant.id == "standard":
        own, other = (state.x, state.o) if state.mover == X_MARK else (state.o, state.x)
        mark: Mark = "X" if state.mover == X_MARK else "O"
        return standard.explain_masks(own, other, mark, move.cell, score=score, plies=plies)
    tags, action, ending = _described(variant.id, state, move)
    if ending is not None:
        return tags, f"{action}: {ending}."
    return tags, f"{action}; {value_words(variant, state.mover, score, plies)}."


def value_words(variant: Variant, mover: int, score: int, plies: int) -> str:
    """The value of a move in words, for the side ``mover`` (0 or 1) that makes it, as
    :func:`.tactics.outcome_words` says it."""
    names = _side_names(variant)
    moves = "move" if plies == 1 else "moves"
    if score > 0:
        return f"{names[mover]} wins with best play, in {plies} {moves}"
    if score < 0:
        return f"{names[1 - mover]} can force a win, in {plies} {moves}"
    return "the game is a draw with best play"


def _side_names(variant: Variant) -> tuple[str, str]:
    """The sides as a sentence names them: ``X`` and ``O``, or ``the first player`` and ``the second
    player``."""
    first, second = variant.sides
    return (first, second) if variant.marks == "own" else (f"the {first} player", f"the {second} player")


# --- names, derived from the geometry ------------------------------------------------------------


def _ordinal(index: int, count: int, first: str, last: str) -> str:
    """The name of row or column ``index`` of ``count``: ``first``, ``middle`` or ``second`` …, ``last``."""
    if index == 0:
        return first
    if index == count - 1:
        return last
    return "middle" if count == 3 else ("second", "third", "fourth", "fifth")[index - 1]


def _side(index: int, count: int, low: str, high: str) -> str:
    """Which half of ``count`` positions ``index`` is in: ``low``, ``high``, or ``middle`` between them."""
    twice, last = 2 * index, count - 1
    return low if twice < last else high if twice > last else "middle"


@cache
def cell_names(size: int) -> tuple[str, ...]:
    """Every cell of a ``size`` × ``size`` board as a person names it: a corner (``the top-left corner``), a
    cell of an edge (``the top edge`` on 3 × 3, ``the left cell of the top edge`` on 4 × 4), or a center cell
    (``the center`` on 3 × 3, ``the top-left center cell`` on 4 × 4)."""
    last, names = size - 1, []
    for cell in range(size * size):
        row, column = divmod(cell, size)
        rows = {0: "top", last: "bottom"}.get(row)
        columns = {0: "left", last: "right"}.get(column)
        if rows and columns:
            names.append(f"the {rows}-{columns} corner")
        elif rows or columns:
            edge, along = (rows, column) if rows else (columns, row)
            if size == 3:
                names.append(f"the {edge} edge")
            else:
                low, high = ("left", "right") if rows else ("upper", "lower")
                names.append(f"the {_side(along - 1, size - 2, low, high)} cell of the {edge} edge")
        elif size == 3:
            names.append("the center")
        else:
            vertical = _side(row - 1, size - 2, "top", "bottom")
            horizontal = _side(column - 1, size - 2, "left", "right")
            names.append(f"the {vertical}-{horizontal} center cell")
    return tuple(names)


def cell_name(grid: Grid, cell: int) -> str:
    """:func:`cell_names` of one cell of ``grid``."""
    return cell_names(grid.size)[cell]


def line_name(grid: Grid, line: Line, count: str = "three") -> str:
    """A line of ``grid`` as a person names it, ``count`` its number of cells in words: the whole row, column
    or diagonal it lies on (``top row``, ``second column``, ``diagonal from the top-right``, ``short diagonal
    above the diagonal from the top-left``), and when that is longer, which part (``left three of the top
    row``, ``lower three of the diagonal from the top-left``). On 3 × 3, they are
    :func:`.tactics.line_name`'s."""
    n = grid.size
    row, column = divmod(line[0], n)
    step = line[1] - line[0]
    if step == 1:
        whole, along, length, ends = f"{_ordinal(row, n, 'top', 'bottom')} row", column, n, ("left", "right")
    elif step == n:
        whole, along, length, ends = (
            f"{_ordinal(column, n, 'left', 'right')} column",
            row,
            n,
            ("upper", "lower"),
        )
    else:
        corner, across = ("top-left", column) if step == n + 1 else ("top-right", n - 1 - column)
        offset = across - row  # 0 on the long diagonal, more above it, less below it
        whole = f"diagonal from the {corner}"
        if offset:
            whole = f"short diagonal {'above' if offset > 0 else 'below'} the {whole}"
        along, length, ends = min(row, across), n - abs(offset), ("upper", "lower")
    if length == len(line):
        return whole
    return f"{_side(along, length - len(line) + 1, *ends)} {count} of the {whole}"


def board_name(boards: int, board: int) -> str:
    """A board as a person names it: ``the board`` alone, else ``the left board``, ``the middle board`` or
    ``the right board``, as they are written and drawn, one after another from the left."""
    if boards == 1:
        return "the board"
    return f"the {_side(board, boards, 'left', 'right')} board"


def _listed(names: Sequence[str], word: str = "and") -> str:
    """``A``, ``A and B``, or ``A, B and C``."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" {word} {names[-1]}"


# --- the variant's lines as bit masks ------------------------------------------------------------


class _Lines(NamedTuple):
    """A variant's lines over every board, in the grid's order board by board, and how to name cells."""

    variant: Variant
    masks: tuple[int, ...]
    lines: tuple[Line, ...]
    boards: tuple[int, ...]

    def completing(self, own: int, other: int, playable: int) -> int:
        """The completing cells of the mark on ``own`` against ``other``, among ``playable``, as a mask."""
        need = self.variant.line - 1
        found = 0
        for mask in self.masks:
            if not other & mask and (own & mask).bit_count() == need:
                found |= mask & ~own
        return found & playable

    def through(self, cell: int, own: int, other: int, marks: int) -> int:
        """The index of the first line through ``cell`` with ``marks`` cells of ``own``, none of ``other``."""
        bit = 1 << cell
        return next(
            index
            for index, mask in enumerate(self.masks)
            if mask & bit and (own & mask).bit_count() == marks and not other & mask
        )

    def name(self, index: int) -> str:
        """The line ``index`` by its name on its board."""
        variant = self.variant
        count = variant.in_a_row.removesuffix(" in a row")
        offset = self.boards[index] * variant.board_cells
        return line_name(variant.grid, tuple(cell - offset for cell in self.lines[index]), count)

    def cell(self, cell: int, *, board: bool = True) -> str:
        """A cell by its name, and its board's when there are several (and ``board``)."""
        variant = self.variant
        which, local = divmod(cell, variant.board_cells)
        name = cell_name(variant.grid, local)
        return f"{name} of {board_name(variant.boards, which)}" if board and variant.boards > 1 else name

    def cells(self, cells: int, word: str = "and") -> str:
        """The cells of a mask, listed in cell order."""
        return _listed([self.cell(cell) for cell in _cells_of(cells)], word)

    def place(self, cell: int) -> str:
        """``center``, ``corner`` or ``edge``: where ``cell`` is on its board."""
        size = self.variant.size
        row, column = divmod(cell % self.variant.board_cells, size)
        border = sum(index in (0, size - 1) for index in (row, column))
        return ("center", "edge", "corner")[border]

    def opposite(self, cell: int) -> int:
        """The cell opposite ``cell`` across the center of its board."""
        width = self.variant.board_cells
        return cell - cell % width + width - 1 - cell % width


@cache
def _lines_of(variant_id: str) -> _Lines:
    variant = VARIANTS[variant_id]
    width = variant.board_cells
    found = [
        (sum(1 << cell + board * width for cell in line), tuple(cell + board * width for cell in line), board)
        for board in range(variant.boards)
        for line in variant.grid.lines
    ]
    masks, lines, boards = zip(*found, strict=True)
    return _Lines(variant, masks, lines, boards)


def _cells_of(mask: int) -> list[int]:
    """The cells of a mask, in increasing order."""
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


# --- each kind of variant --------------------------------------------------------------------------


@lru_cache(maxsize=1 << 12)  # the moves of the last hundreds of positions: a bounded few MiB
def _described(variant_id: str, state: State, move: Move) -> Described:
    """The tags of a move, the first half of its sentence, and how the game ends if the move ends it."""
    variant = VARIANTS[variant_id]
    explain = _EXPLAINERS.get((variant.marks, variant.misere))
    if explain is None:
        raise ValueError(f"no tactics are defined for {variant_id}")
    return explain(_lines_of(variant_id), state, move)


def _own_lines(lines: _Lines, state: State, move: Move) -> Described:
    """Own marks, a line wins: the standard game's tactics on the variant's lines."""
    own, other = (state.x, state.o) if state.mover == X_MARK else (state.o, state.x)
    mover, rival = ("X", "O") if state.mover == X_MARK else ("O", "X")
    cell, need = move.cell, lines.variant.line - 1
    bit, everything = 1 << cell, lines.variant.grid.full
    after = own | bit
    won = bool(lines.completing(own, other, everything) & bit)
    threats = 0 if won else lines.completing(after, other, everything)
    found: list[str] = ["win"] if won else []
    if lines.completing(other, own, everything) & bit:
        found.append("block")
    if threats:
        found.append("fork" if threats.bit_count() >= 2 else "threat")
    had_forks = _fork_cells(lines.variant.id, other, own)  # the same for every move of the position
    if had_forks and not _fork_cells(lines.variant.id, other, after):
        found.append("block_fork")
    place = lines.place(cell)
    found.append(place)
    facing = place == "corner" and other >> lines.opposite(cell) & 1
    if facing:
        found.append("opposite_corner")
    tags = tuple(found)
    if won:
        line = lines.through(cell, after, 0, need + 1)
        return tags, f"Completes {mover}'s {lines.name(line)}", f"{mover} wins"
    if "block" in found:
        action = f"Blocks {rival}'s {lines.name(lines.through(cell, other, own, need))}"
    elif "fork" in found:
        action = f"Forks: {mover} threatens to win at {lines.cells(threats)}"
    elif "block_fork" in found:
        plural = "s" if had_forks.bit_count() > 1 else ""
        action = f"Takes away {rival}'s fork{plural} at {lines.cells(had_forks)}"
    elif "threat" in found:
        target = threats.bit_length() - 1
        line = lines.through(target, after, other, need)
        action = f"Threatens to complete the {lines.name(line)} at {lines.cell(target)}"
    elif facing:
        action = f"Takes {lines.cell(cell)}, opposite {rival}'s mark in {lines.cell(lines.opposite(cell))}"
    else:
        action = f"Takes {lines.cell(cell)}"
    return tags, action, None


@lru_cache(maxsize=1 << 12)
def _fork_cells(variant_id: str, mine: int, theirs: int) -> int:
    """The fork cells of the side holding ``mine`` against ``theirs`` (one board, own marks): the empty
    cells that would give it two or more distinct completing cells, as a mask."""
    lines = _lines_of(variant_id)
    everything = lines.variant.grid.full
    empty = everything & ~(mine | theirs)
    return sum(
        1 << each
        for each in _cells_of(empty)
        if lines.completing(mine | 1 << each, theirs, everything).bit_count() >= 2
    )


def _misere(lines: _Lines, state: State, move: Move) -> Described:
    """Own marks, a line loses."""
    own, other = (state.x, state.o) if state.mover == X_MARK else (state.o, state.x)
    mover, rival = ("X", "O") if state.mover == X_MARK else ("O", "X")
    cell, need = move.cell, lines.variant.line - 1
    bit, everything = 1 << cell, lines.variant.grid.full
    after = own | bit
    dangers = lines.completing(own, other, everything)
    lost = bool(dangers & bit)
    left = everything & ~(after | other)
    squeezed = not lost and bool(left) and not left & ~lines.completing(other, after, everything)
    facing = bool(other >> lines.opposite(cell) & 1)
    found = ["lose"] if lost else []
    found += ["squeeze"] if squeezed else []
    found += ["avoid"] if dangers and not lost else []
    found.append(lines.place(cell))
    found += ["opposite"] if facing else []
    tags = tuple(found)
    if lost:
        line = lines.through(cell, after, 0, need + 1)
        return tags, f"Completes {mover}'s {lines.name(line)}", f"{mover} loses"
    if squeezed:
        action = f"Leaves {rival} only cells that complete a line of {rival}: {lines.cells(left)}"
    elif dangers:
        if dangers.bit_count() == 1:
            danger = dangers.bit_length() - 1
            line = lines.through(danger, own, other, need)
            action = f"Avoids {lines.cell(danger)}, which would complete {mover}'s {lines.name(line)}"
        else:
            action = f"Avoids {lines.cells(dangers)}, where {mover} would complete a line"
    elif facing:
        action = f"Takes {lines.cell(cell)}, opposite {rival}'s mark in {lines.cell(lines.opposite(cell))}"
    else:
        action = f"Takes {lines.cell(cell)}"
    return tags, action, None


def _wild(lines: _Lines, state: State, move: Move) -> Described:
    """Either mark, a line of either mark wins for the side that makes it."""
    names = _side_names(lines.variant)
    mover, rival = names[state.mover], names[1 - state.mover]
    cell, need = move.cell, lines.variant.line - 1
    bit, everything = 1 << cell, lines.variant.grid.full
    mark = "X" if move.mark == X_MARK else "O"

    def open_cells(x: int, o: int) -> int:
        return lines.completing(x, o, everything) | lines.completing(o, x, everything)

    x, o = state.x, state.o
    placed, against = (x, o) if move.mark == X_MARK else (o, x)
    won = bool(lines.completing(placed, against, everything) & bit)
    before = open_cells(x, o)
    x2, o2 = (x | bit, o) if move.mark == X_MARK else (x, o | bit)
    left = everything & ~(x2 | o2)
    gifts = 0 if won else open_cells(x2, o2)
    squeezed = (
        not won
        and not gifts
        and bool(left)
        and all(open_cells(x2 | 1 << each, o2) and open_cells(x2, o2 | 1 << each) for each in _cells_of(left))
    )
    found = ["win"] if won else []
    found += ["block"] if not won and before & bit else []
    found += ["gift"] if gifts else []
    found += ["squeeze"] if squeezed else []
    found.append(lines.place(cell))
    tags = tuple(found)
    puts = f"Puts {mark} in {lines.cell(cell)}"
    if won:
        line = lines.through(cell, placed | bit, 0, need + 1)
        return tags, f"{puts} and completes {mark}'s {lines.name(line)}", f"{mover} wins"
    if gifts:
        if gifts.bit_count() == 1:
            target = gifts.bit_length() - 1
            line, of = _open_line(lines, target, x2, o2)
            action = f"{puts}, which lets {rival} complete {of}'s {lines.name(line)} at {lines.cell(target)}"
        else:
            action = f"{puts}, which lets {rival} complete a line at {lines.cells(gifts)}"
    elif squeezed:
        action = (
            f"{puts}, and any mark {rival} puts next, in {lines.cells(left, 'or')}, leaves a line to complete"
        )
    elif before & bit:
        line, of = _open_line(lines, cell, x, o)
        action = f"{puts}, blocking {of}'s {lines.name(line)}"
    else:
        action = puts
    return tags, action, None


def _open_line(lines: _Lines, cell: int, x: int, o: int) -> tuple[int, str]:
    """The first line that ``cell`` would complete, with X or with O, and that mark."""
    need = lines.variant.line - 1
    bit = 1 << cell
    for index, mask in enumerate(lines.masks):
        if mask & bit:
            for marks, other, name in ((x, o, "X"), (o, x, "O")):
                if not other & mask and (marks & mask).bit_count() == need:
                    return index, name
    raise ValueError(f"cell {cell} completes no line")


def _notakto(lines: _Lines, state: State, move: Move) -> Described:
    """X only, on live boards; the side that makes the last line loses."""
    variant = lines.variant
    names = _side_names(variant)
    mover, rival = names[state.mover], names[1 - state.mover]
    cell, need = move.cell, variant.line - 1
    bit, board = 1 << cell, cell // variant.board_cells
    full, width = variant.grid.full, variant.board_cells
    live = sum(
        mask
        for j, mask in enumerate(variant.board_masks)
        if not _lined(variant.id, state.x >> j * width & full)
    )
    after = state.x | bit
    lined = bool(lines.completing(state.x, 0, live) & bit)
    live_after = live & ~variant.board_masks[board] if lined else live
    boards_left = [j for j, mask in enumerate(variant.board_masks) if live_after & mask]
    left = live_after & ~after
    squeezed = len(boards_left) == 1 and not left & ~lines.completing(after, 0, live_after)
    found = ["lose" if not live_after else "kill"] if lined else []
    found += ["hand_over"] if lined and len(boards_left) == 1 else []
    found += ["squeeze"] if squeezed else []
    found += [] if lined else ["live"]
    found.append(lines.place(cell))
    tags = tuple(found)
    here = board_name(variant.boards, board)
    line = lines.name(lines.through(cell, after, 0, need + 1)) if lined else ""
    if lined and not live_after:
        where = "" if variant.boards == 1 else f" of {here}, the last live board"
        return tags, f"Completes the {line}{where}", f"{mover} loses"
    move_words = f"Kills {here}, completing its {line}" if lined else f"Takes {lines.cell(cell)}"
    if squeezed:
        last = board_name(variant.boards, boards_left[0])
        cells = _listed([lines.cell(each, board=False) for each in _cells_of(left)])
        on = f" of {last}" if variant.boards > 1 else ""
        action = f"{move_words}, and leaves {rival} only cells that complete a line: {cells}{on}"
    elif lined and len(boards_left) == 1:
        last = board_name(variant.boards, boards_left[0])
        action = f"{move_words}, and hands {rival} the last live board, {last}"
    elif lined:
        action = move_words
    elif variant.boards > 1:
        action = f"{move_words}, which stays live"
    else:
        action = f"{move_words}, leaving the board live"
    return tags, action, None


@cache
def _lined(variant_id: str, cells: int) -> bool:
    """Whether the cells of one board hold a line, as :meth:`.variants.Variant.has_line` says."""
    return VARIANTS[variant_id].has_line(cells, 0)


_EXPLAINERS: dict[tuple[str, bool], Callable[[_Lines, State, Move], Described]] = {
    ("own", False): _own_lines,
    ("own", True): _misere,
    ("either", False): _wild,
    ("x_only", True): _notakto,
}

__all__ = ["TACTICS", "board_name", "cell_name", "cell_names", "explain_move", "line_name", "value_words"]
