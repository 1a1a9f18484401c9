"""What a move does in any game of the tic-tac-toe family (:mod:`.variants`): its tactics, and a sentence.

Every variant, the standard game included, is explained here in the words of its rules. The rules
fall into four families, told apart by the variant's data, its marks and whether a line wins or
loses (:data:`_FAMILIES`): own marks where a line wins, own marks where it loses, either mark, and
X only. Each family is data (:class:`_Family`): what a move does is worked out once, into one
record of facts; its tags are those of the family's ordered table of tags whose predicate holds;
its sentence is said by the first row of the family's table of sentences whose condition holds.

Let P be the side that moves and Q the other. A *line* is a line of the variant on one board
(:attr:`.geometry.Grid.lines`); a *completing cell* of a mark is an empty cell of a live board that
would finish one of its lines: a line holding that mark on all of its other cells.

``standard``, ``4x4`` and ``4x4-3`` (own marks, a line wins): the standard game on 3 × 3, and the
same tactics read with the variant's lines (of 4, or of 3 on the 4 × 4 board). A *fork cell* of a
side is an empty cell that would give it two or more distinct completing cells. In this order:

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
numbers from 0 or from 1; the names are derived from the grid's geometry. Notakto's boards are
"the left board", "the middle board" and "the right board": the contract writes them one after
another, and front ends draw them side by side, in that order. A move that ends the game ends its
sentence with how it ends (``X wins``); any other ends it with the move's value, as
:func:`value_words` says it, the sides being X and O in own-mark variants and "the first player"
and "the second player" in wild and Notakto.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache, lru_cache
from typing import NamedTuple, TypeAlias

from .geometry import Grid, Line
from .variants import VARIANTS, X_MARK, Move, State, Variant

#: The parts of a description: the tags, the sentence's first half, and how the game ends when the
#: move ends it (``"X wins"``), else ``None``, and the value of the move ends the sentence.
Described: TypeAlias = tuple[tuple[str, ...], str, str | None]


def explain_move(
    variant: Variant, state: State, move: Move, score: int, plies: int
) -> tuple[tuple[str, ...], str]:
    """The tactics of ``move`` in the unfinished ``state`` (in :data:`TACTICS` order), and one sentence for a
    person: its main tactic, with its cells and lines, and its value.

    ``score`` and ``plies`` are the move's value for the side that plays it under perfect play afterwards,
    as :class:`~.exact.RankedMove` gives them.
    """
    tags, action, ending = _described(variant.id, state, move)
    if ending is not None:
        return tags, f"{action}: {ending}."
    return tags, f"{action}; {value_words(variant, state.mover, score, plies)}."


def value_words(variant: Variant, mover: int, score: int, plies: int) -> str:
    """The value of a move in words, for the side ``mover`` (0 or 1) that makes it."""
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
    row``, ``lower three of the diagonal from the top-left``). On 3 × 3: ``top row``, ``middle
    column``, ``diagonal from the top-left``."""
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
    """A variant's lines over every board, in the grid's order board by board, and how to name cells: what
    the explanations of its moves read, worked out once per variant (:func:`_lines_of`)."""

    variant: Variant
    masks: tuple[int, ...]
    lines: tuple[Line, ...]
    #: The board of each line.
    boards: tuple[int, ...]
    #: The cells of one board, as a mask.
    full: int
    #: The marks a line holds when one empty cell would complete it.
    need: int
    #: Where each cell is on its board: ``center``, ``corner`` or ``edge``.
    places: tuple[str, ...]
    #: The names of the sides, as :func:`_side_names` gives them.
    sides: tuple[str, str]

    def completing(self, own: int, other: int, playable: int) -> int:
        """The completing cells of the mark on ``own`` against ``other``, among ``playable``, as a mask."""
        need = self.need
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

    def completed(self, cell: int, marks: int) -> str:
        """The name of the first line through ``cell`` whose cells all hold ``marks``."""
        return self.name(self.through(cell, marks, 0, self.variant.line))

    def completed_at(self, cell: int, own: int, other: int) -> str:
        """The name of the first line that the empty ``cell`` would complete for ``own`` against ``other``."""
        return self.name(self.through(cell, own, other, self.need))

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

    def opposite(self, cell: int) -> int:
        """The cell opposite ``cell`` across the center of its board."""
        width = self.variant.board_cells
        return cell - cell % width + width - 1 - cell % width


@cache
def _lines_of(variant_id: str) -> _Lines:
    """:class:`_Lines` of a variant, worked out once."""
    variant = VARIANTS[variant_id]
    width = variant.board_cells
    found = [
        (sum(1 << cell + board * width for cell in line), tuple(cell + board * width for cell in line), board)
        for board in range(variant.boards)
        for line in variant.grid.lines
    ]
    masks, lines, boards = zip(*found, strict=True)
    places = tuple(_place(variant, cell) for cell in range(variant.cells))
    full = variant.grid.full
    return _Lines(variant, masks, lines, boards, full, variant.line - 1, places, _side_names(variant))


def _place(variant: Variant, cell: int) -> str:
    """``center``, ``corner`` or ``edge``: where ``cell`` is on its board."""
    size = variant.size
    row, column = divmod(cell % variant.board_cells, size)
    border = sum(index in (0, size - 1) for index in (row, column))
    return ("center", "edge", "corner")[border]


def _cells_of(mask: int) -> list[int]:
    """The cells of a mask, in increasing order."""
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


# --- a family of rules as data ---------------------------------------------------------------------


class _Facts(NamedTuple):
    """What a move does, worked out once by its family (:attr:`_Family.facts`): the variant's lines, the
    move's cell and the mark it places, P and Q by their names, what its sentences name (sets of cells
    as masks, and boards), by name, and what holds of it: its place, and every tag and condition that
    is true."""

    lines: _Lines
    cell: int
    mark: str
    mover: str
    rival: str
    known: dict[str, int]
    holds: frozenset[str]


def _facts(lines: _Lines, state: State, move: Move, known: dict[str, int], **truths: bool) -> _Facts:
    """The :class:`_Facts` of ``move``, ``truths`` naming what is true or false of it."""
    holds = frozenset((lines.places[move.cell], *(name for name, true in truths.items() if true)))
    mover, rival = lines.sides[state.mover], lines.sides[1 - state.mover]
    return _Facts(lines, move.cell, "XO"[move.mark], mover, rival, known, holds)


class _Sentence(NamedTuple):
    """A row of a table of sentences: the fact that must hold (``None``: always), the first half of the
    sentence, and, when the move ends the game, what becomes of P (``wins``, ``loses``)."""

    when: str | None
    says: Callable[[_Facts], str]
    ends: str | None = None


class _Family(NamedTuple):
    """A family of rules as data: how a move's facts are worked out, its tags in listing order (a tag is
    a move's when the fact of that name holds), and its sentences, the first whose fact holds saying
    a move's."""

    facts: Callable[[_Lines, State, Move], _Facts]
    tags: tuple[str, ...]
    sentences: tuple[_Sentence, ...]

    def describe(self, lines: _Lines, state: State, move: Move) -> Described:
        """The tags of a move, the first half of its sentence, and how the game ends if the move ends it."""
        facts = self.facts(lines, state, move)
        tags = tuple(tag for tag in self.tags if tag in facts.holds)
        row = next(row for row in self.sentences if row.when is None or row.when in facts.holds)
        return tags, row.says(facts), None if row.ends is None else f"{facts.mover} {row.ends}"


_PLACES = ("center", "corner", "edge")
#: The tags that say where a move is on the board, rather than what it does.
PLACES = (*_PLACES, "opposite_corner", "opposite")


def _takes(f: _Facts) -> str:
    return f"Takes {f.lines.cell(f.cell)}"


def _takes_opposite(f: _Facts) -> str:
    lines, cell = f.lines, f.cell
    return f"Takes {lines.cell(cell)}, opposite {f.rival}'s mark in {lines.cell(lines.opposite(cell))}"


def _completes(f: _Facts) -> str:
    return f"Completes {f.mover}'s {f.lines.completed(f.cell, f.known['after'])}"


# --- own marks, a line wins or loses ---------------------------------------------------------------


def _own_facts(lines: _Lines, state: State, move: Move) -> _Facts:
    own, other = (state.x, state.o) if state.mover == X_MARK else (state.o, state.x)
    cell, full = move.cell, lines.full
    after = own | 1 << cell
    won = bool(lines.completing(own, other, full) >> cell & 1)
    threats = lines.completing(after, other, full)
    forks = _fork_cells(lines.variant.id, other, own)  # the same for every move of the position
    facing = bool(other >> lines.opposite(cell) & 1)
    return _facts(
        lines,
        state,
        move,
        {"own": own, "other": other, "after": after, "threats": threats, "forks": forks},
        win=won,
        block=bool(lines.completing(other, own, full) >> cell & 1),
        fork=not won and threats.bit_count() >= 2,
        threat=not won and threats.bit_count() == 1,
        block_fork=bool(forks) and not _fork_cells(lines.variant.id, other, after),
        opposite_corner=facing and lines.places[cell] == "corner",
    )


@lru_cache(maxsize=1 << 12)
def _fork_cells(variant_id: str, mine: int, theirs: int) -> int:
    """The fork cells of the side holding ``mine`` against ``theirs`` (one board, own marks): the empty
    cells that would give it two or more distinct completing cells, as a mask."""
    lines = _lines_of(variant_id)
    empty = lines.full & ~(mine | theirs)
    return sum(
        1 << each
        for each in _cells_of(empty)
        if lines.completing(mine | 1 << each, theirs, lines.full).bit_count() >= 2
    )


def _threatens(f: _Facts) -> str:
    lines, target = f.lines, f.known["threats"].bit_length() - 1
    line = lines.completed_at(target, f.known["after"], f.known["other"])
    return f"Threatens to complete the {line} at {lines.cell(target)}"


def _takes_away_forks(f: _Facts) -> str:
    forks = f.known["forks"]
    return f"Takes away {f.rival}'s fork{'s' if forks.bit_count() > 1 else ''} at {f.lines.cells(forks)}"


_OWN = _Family(
    _own_facts,
    ("win", "block", "fork", "threat", "block_fork", *_PLACES, "opposite_corner"),
    (
        _Sentence("win", _completes, ends="wins"),
        _Sentence(
            "block",
            lambda f: f"Blocks {f.rival}'s {f.lines.completed_at(f.cell, f.known['other'], f.known['own'])}",
        ),
        _Sentence(
            "fork", lambda f: f"Forks: {f.mover} threatens to win at {f.lines.cells(f.known['threats'])}"
        ),
        _Sentence("block_fork", _takes_away_forks),
        _Sentence("threat", _threatens),
        _Sentence("opposite_corner", _takes_opposite),
        _Sentence(None, _takes),
    ),
)


def _misere_facts(lines: _Lines, state: State, move: Move) -> _Facts:
    own, other = (state.x, state.o) if state.mover == X_MARK else (state.o, state.x)
    cell, full = move.cell, lines.full
    after = own | 1 << cell
    dangers = lines.completing(own, other, full)
    lost = bool(dangers >> cell & 1)
    left = full & ~(after | other)
    return _facts(
        lines,
        state,
        move,
        {"own": own, "other": other, "after": after, "dangers": dangers, "left": left},
        lose=lost,
        squeeze=not lost and bool(left) and not left & ~lines.completing(other, after, full),
        avoid=bool(dangers) and not lost,
        avoid_one=not lost and dangers.bit_count() == 1,
        opposite=bool(other >> lines.opposite(cell) & 1),
    )


def _avoids(f: _Facts) -> str:
    lines, danger = f.lines, f.known["dangers"].bit_length() - 1
    line = lines.completed_at(danger, f.known["own"], f.known["other"])
    return f"Avoids {lines.cell(danger)}, which would complete {f.mover}'s {line}"


_MISERE = _Family(
    _misere_facts,
    ("lose", "squeeze", "avoid", *_PLACES, "opposite"),
    (
        _Sentence("lose", _completes, ends="loses"),
        _Sentence(
            "squeeze",
            lambda f: (
                f"Leaves {f.rival} only cells that complete a line of {f.rival}: "
                + f.lines.cells(f.known["left"])
            ),
        ),
        _Sentence("avoid_one", _avoids),
        _Sentence(
            "avoid",
            lambda f: f"Avoids {f.lines.cells(f.known['dangers'])}, where {f.mover} would complete a line",
        ),
        _Sentence("opposite", _takes_opposite),
        _Sentence(None, _takes),
    ),
)


# --- either mark, a line of either mark wins -------------------------------------------------------


def _wild_facts(lines: _Lines, state: State, move: Move) -> _Facts:
    bit, full = 1 << move.cell, lines.full
    x, o = state.x, state.o
    placed, against = (x, o) if move.mark == X_MARK else (o, x)
    x_after, o_after = (x | bit, o) if move.mark == X_MARK else (x, o | bit)
    won = bool(lines.completing(placed, against, full) & bit)
    gifts = 0 if won else _open_cells(lines, x_after, o_after)
    left = full & ~(x_after | o_after)
    return _facts(
        lines,
        state,
        move,
        {
            "x": x,
            "o": o,
            "after": placed | bit,
            "x_after": x_after,
            "o_after": o_after,
            "gifts": gifts,
            "left": left,
        },
        win=won,
        block=not won and bool(_open_cells(lines, x, o) & bit),
        gift=bool(gifts),
        gift_one=gifts.bit_count() == 1,
        squeeze=not won and not gifts and bool(left) and _every_reply_opens(lines, x_after, o_after, left),
    )


def _open_cells(lines: _Lines, x: int, o: int) -> int:
    """The completing cells of X or of O (one board), as a mask."""
    return lines.completing(x, o, lines.full) | lines.completing(o, x, lines.full)


def _every_reply_opens(lines: _Lines, x: int, o: int, left: int) -> bool:
    """Whether every reply, either mark in any of the empty cells ``left``, leaves a completing cell."""
    return all(
        _open_cells(lines, x | 1 << each, o) and _open_cells(lines, x, o | 1 << each)
        for each in _cells_of(left)
    )


def _open_line(lines: _Lines, cell: int, x: int, o: int) -> str:
    """The first line that ``cell`` would complete, with X or with O: ``X's top row``."""
    bit = 1 << cell
    for index, mask in enumerate(lines.masks):
        if mask & bit:
            for marks, other, name in ((x, o, "X"), (o, x, "O")):
                if not other & mask and (marks & mask).bit_count() == lines.need:
                    return f"{name}'s {lines.name(index)}"
    raise ValueError(f"cell {cell} completes no line")


def _puts(f: _Facts) -> str:
    return f"Puts {f.mark} in {f.lines.cell(f.cell)}"


def _gifts_one(f: _Facts) -> str:
    target = f.known["gifts"].bit_length() - 1
    line = _open_line(f.lines, target, f.known["x_after"], f.known["o_after"])
    return f"{_puts(f)}, which lets {f.rival} complete {line} at {f.lines.cell(target)}"


_WILD = _Family(
    _wild_facts,
    ("win", "block", "gift", "squeeze", *_PLACES),
    (
        _Sentence(
            "win",
            lambda f: f"{_puts(f)} and completes {f.mark}'s {f.lines.completed(f.cell, f.known['after'])}",
            ends="wins",
        ),
        _Sentence("gift_one", _gifts_one),
        _Sentence(
            "gift",
            lambda f: (
                f"{_puts(f)}, which lets {f.rival} complete a line at {f.lines.cells(f.known['gifts'])}"
            ),
        ),
        _Sentence(
            "squeeze",
            lambda f: (
                f"{_puts(f)}, and any mark {f.rival} puts next, in "
                f"{f.lines.cells(f.known['left'], 'or')}, leaves a line to complete"
            ),
        ),
        _Sentence(
            "block",
            lambda f: f"{_puts(f)}, blocking {_open_line(f.lines, f.cell, f.known['x'], f.known['o'])}",
        ),
        _Sentence(None, _puts),
    ),
)


# --- X only, on live boards; the last line loses ---------------------------------------------------


def _notakto_facts(lines: _Lines, state: State, move: Move) -> _Facts:
    variant, cell = lines.variant, move.cell
    board = cell // variant.board_cells
    live = _live_cells(variant.id, state.x)
    after = state.x | 1 << cell
    lined = bool(lines.completing(state.x, 0, live) >> cell & 1)
    live_after = live & ~variant.board_masks[board] if lined else live
    boards_left = [j for j, mask in enumerate(variant.board_masks) if live_after & mask]
    left = live_after & ~after
    return _facts(
        lines,
        state,
        move,
        {"after": after, "board": board, "last": boards_left[0] if boards_left else -1, "left": left},
        lined=lined,
        lose=lined and not live_after,
        kill=lined and bool(live_after),
        hand_over=lined and len(boards_left) == 1,
        squeeze=len(boards_left) == 1 and not left & ~lines.completing(after, 0, live_after),
        live=not lined,
        boards=variant.boards > 1,
    )


def _live_cells(variant_id: str, x: int) -> int:
    """The cells of the boards without a line of ``x``, as a mask."""
    variant = VARIANTS[variant_id]
    full, width = variant.grid.full, variant.board_cells
    return sum(
        mask for j, mask in enumerate(variant.board_masks) if not _lined(variant_id, x >> j * width & full)
    )


@cache
def _lined(variant_id: str, cells: int) -> bool:
    """Whether the cells of one board hold a line, as :meth:`.variants.Variant.has_line` says."""
    return VARIANTS[variant_id].has_line(cells, 0)


def _board(f: _Facts, which: str) -> str:
    """A board of the move's facts (``board``, its own; ``last``, the one left live) by its name."""
    return board_name(f.lines.variant.boards, f.known[which])


def _move_words(f: _Facts) -> str:
    """What the move does to its board: it kills it, or it takes a cell of it."""
    if "lined" in f.holds:
        return f"Kills {_board(f, 'board')}, completing its {f.lines.completed(f.cell, f.known['after'])}"
    return f"Takes {f.lines.cell(f.cell)}"


def _completes_last_line(f: _Facts) -> str:
    where = f" of {_board(f, 'board')}, the last live board" if "boards" in f.holds else ""
    return f"Completes the {f.lines.completed(f.cell, f.known['after'])}{where}"


def _leaves_only_lines(f: _Facts) -> str:
    cells = _listed([f.lines.cell(each, board=False) for each in _cells_of(f.known["left"])])
    on = f" of {_board(f, 'last')}" if "boards" in f.holds else ""
    return f"{_move_words(f)}, and leaves {f.rival} only cells that complete a line: {cells}{on}"


_NOTAKTO = _Family(
    _notakto_facts,
    ("lose", "kill", "hand_over", "squeeze", "live", *_PLACES),
    (
        _Sentence("lose", _completes_last_line, ends="loses"),
        _Sentence("squeeze", _leaves_only_lines),
        _Sentence(
            "hand_over",
            lambda f: f"{_move_words(f)}, and hands {f.rival} the last live board, {_board(f, 'last')}",
        ),
        _Sentence("kill", _move_words),
        _Sentence("boards", lambda f: f"{_move_words(f)}, which stays live"),
        _Sentence(None, lambda f: f"{_move_words(f)}, leaving the board live"),
    ),
)
#: The tags that only a game of several boards can give.
_SEVERAL_BOARDS_ONLY = {"kill", "hand_over"}


# --- every variant ---------------------------------------------------------------------------------

#: The family of rules of a variant, by its marks and whether a line loses.
_FAMILIES: dict[tuple[str, bool], _Family] = {
    ("own", False): _OWN,
    ("own", True): _MISERE,
    ("either", False): _WILD,
    ("x_only", True): _NOTAKTO,
}


def _family_of(variant: Variant) -> _Family:
    family = _FAMILIES.get((variant.marks, variant.misere))
    if family is None:
        raise ValueError(f"no tactics are defined for {variant.id}")
    return family


@lru_cache(maxsize=1 << 12)  # the moves of the last hundreds of positions: a bounded few MiB
def _described(variant_id: str, state: State, move: Move) -> Described:
    """The tags of a move, the first half of its sentence, and how the game ends if the move ends it."""
    return _family_of(VARIANTS[variant_id]).describe(_lines_of(variant_id), state, move)


def _tags_of(variant: Variant) -> tuple[str, ...]:
    """Every tactic tag of ``variant``, in listing order: its family's, but those of several boards."""
    tags = _family_of(variant).tags
    return tuple(tag for tag in tags if variant.boards > 1 or tag not in _SEVERAL_BOARDS_ONLY)


#: Per variant id, every tactic tag the variant uses, in listing order.
TACTICS: dict[str, tuple[str, ...]] = {variant.id: _tags_of(variant) for variant in VARIANTS.values()}

__all__ = [
    "PLACES",
    "TACTICS",
    "board_name",
    "cell_name",
    "cell_names",
    "explain_move",
    "line_name",
    "value_words",
]
