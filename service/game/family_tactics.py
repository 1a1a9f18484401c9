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
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any, Generic, NamedTuple, Protocol, TypeAlias, TypeVar

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


class _Facts(Protocol):
    """What the facts of a move hold in every family: the variant's lines, the move's cell and where it
    is on its board, and the names of P and Q."""

    @property
    def lines(self) -> _Lines: ...
    @property
    def cell(self) -> int: ...
    @property
    def place(self) -> str: ...
    @property
    def mover(self) -> str: ...
    @property
    def rival(self) -> str: ...


F = TypeVar("F", bound=_Facts)

#: An ordered table of tags: each tag, and the predicate over a move's facts that gives the move that tag.
_Tags: TypeAlias = tuple[tuple[str, Callable[[F], bool]], ...]


class _Sentence(NamedTuple, Generic[F]):
    """A row of a table of sentences: when it says a move's sentence, the first half of that sentence,
    and, when the move ends the game, what becomes of P (``wins``, ``loses``)."""

    when: Callable[[F], bool]
    says: Callable[[F], str]
    ends: str | None = None


@dataclass(frozen=True)
class _Family(Generic[F]):
    """A family of rules as data: how a move's facts are worked out, its tags in listing order with their
    predicates, and its sentences, the first whose condition holds saying a move's."""

    facts: Callable[[_Lines, State, Move], F]
    tags: _Tags[F]
    sentences: tuple[_Sentence[F], ...]

    def describe(self, lines: _Lines, state: State, move: Move) -> Described:
        """The tags of a move, the first half of its sentence, and how the game ends if the move ends it."""
        facts = self.facts(lines, state, move)
        tags = tuple(tag for tag, holds in self.tags if holds(facts))
        sentence = next(row for row in self.sentences if row.when(facts))
        ending = None if sentence.ends is None else f"{facts.mover} {sentence.ends}"
        return tags, sentence.says(facts), ending


def _sides(lines: _Lines, state: State) -> tuple[str, str]:
    """P and Q by their names in a sentence."""
    return lines.sides[state.mover], lines.sides[1 - state.mover]


def _always(facts: _Facts) -> bool:
    """The last row of a table of sentences: it says what no row before it said."""
    return True


def _at_center(facts: _Facts) -> bool:
    return facts.place == "center"


def _at_corner(facts: _Facts) -> bool:
    return facts.place == "corner"


def _at_edge(facts: _Facts) -> bool:
    return facts.place == "edge"


#: Where a move is on its board: one of the three.
_PLACES: _Tags[_Facts] = (("center", _at_center), ("corner", _at_corner), ("edge", _at_edge))


def _takes(facts: _Facts) -> str:
    return f"Takes {facts.lines.cell(facts.cell)}"


def _takes_opposite(facts: _Facts) -> str:
    lines, cell = facts.lines, facts.cell
    return f"Takes {lines.cell(cell)}, opposite {facts.rival}'s mark in {lines.cell(lines.opposite(cell))}"


# --- own marks, a line wins ------------------------------------------------------------------------


class _OwnFacts(NamedTuple):
    """A move of P in an own-mark game: P holds ``own`` and Q ``other`` before it, P ``after`` it."""

    lines: _Lines
    cell: int
    place: str
    mover: str
    rival: str
    own: int
    other: int
    after: int
    #: The completing cells of P before the move, and of Q.
    own_completing: int
    other_completing: int
    #: The completing cells of P after the move.
    threats: int
    #: The fork cells of Q before the move, and after it (none when it had none before).
    forks: int
    forks_after: int
    #: Whether Q's mark is on the cell opposite the move's, across the center.
    facing: bool


def _own_facts(lines: _Lines, state: State, move: Move) -> _OwnFacts:
    own, other = (state.x, state.o) if state.mover == X_MARK else (state.o, state.x)
    cell, everything, variant_id = move.cell, lines.full, lines.variant.id
    after = own | 1 << cell
    forks = _fork_cells(variant_id, other, own)  # the same for every move of the position
    return _OwnFacts(
        lines,
        cell,
        lines.places[cell],
        *_sides(lines, state),
        own=own,
        other=other,
        after=after,
        own_completing=lines.completing(own, other, everything),
        other_completing=lines.completing(other, own, everything),
        threats=lines.completing(after, other, everything),
        forks=forks,
        forks_after=_fork_cells(variant_id, other, after) if forks else 0,
        facing=bool(other >> lines.opposite(cell) & 1),
    )


@lru_cache(maxsize=1 << 12)
def _fork_cells(variant_id: str, mine: int, theirs: int) -> int:
    """The fork cells of the side holding ``mine`` against ``theirs`` (one board, own marks): the empty
    cells that would give it two or more distinct completing cells, as a mask."""
    lines = _lines_of(variant_id)
    everything = lines.full
    empty = everything & ~(mine | theirs)
    return sum(
        1 << each
        for each in _cells_of(empty)
        if lines.completing(mine | 1 << each, theirs, everything).bit_count() >= 2
    )


def _wins(facts: _OwnFacts) -> bool:
    return bool(facts.own_completing >> facts.cell & 1)


def _blocks(facts: _OwnFacts) -> bool:
    return bool(facts.other_completing >> facts.cell & 1)


def _forks(facts: _OwnFacts) -> bool:
    return not _wins(facts) and facts.threats.bit_count() >= 2


def _threatens(facts: _OwnFacts) -> bool:
    return not _wins(facts) and facts.threats.bit_count() == 1


def _blocks_fork(facts: _OwnFacts) -> bool:
    return bool(facts.forks) and not facts.forks_after


def _opposite_corner(facts: _OwnFacts) -> bool:
    return facts.place == "corner" and facts.facing


def _completes_own_line(facts: _OwnFacts) -> str:
    return f"Completes {facts.mover}'s {facts.lines.completed(facts.cell, facts.after)}"


def _blocks_line(facts: _OwnFacts) -> str:
    return f"Blocks {facts.rival}'s {facts.lines.completed_at(facts.cell, facts.other, facts.own)}"


def _forks_at(facts: _OwnFacts) -> str:
    return f"Forks: {facts.mover} threatens to win at {facts.lines.cells(facts.threats)}"


def _takes_away_forks(facts: _OwnFacts) -> str:
    plural = "s" if facts.forks.bit_count() > 1 else ""
    return f"Takes away {facts.rival}'s fork{plural} at {facts.lines.cells(facts.forks)}"


def _threatens_line(facts: _OwnFacts) -> str:
    lines, target = facts.lines, facts.threats.bit_length() - 1
    line = lines.completed_at(target, facts.after, facts.other)
    return f"Threatens to complete the {line} at {lines.cell(target)}"


_OWN: _Family[_OwnFacts] = _Family(
    facts=_own_facts,
    tags=(
        ("win", _wins),
        ("block", _blocks),
        ("fork", _forks),
        ("threat", _threatens),
        ("block_fork", _blocks_fork),
        *_PLACES,
        ("opposite_corner", _opposite_corner),
    ),
    sentences=(
        _Sentence(_wins, _completes_own_line, ends="wins"),
        _Sentence(_blocks, _blocks_line),
        _Sentence(_forks, _forks_at),
        _Sentence(_blocks_fork, _takes_away_forks),
        _Sentence(_threatens, _threatens_line),
        _Sentence(_opposite_corner, _takes_opposite),
        _Sentence(_always, _takes),
    ),
)


# --- own marks, a line loses -----------------------------------------------------------------------


class _MisereFacts(NamedTuple):
    """A move of P in misère: P holds ``own`` and Q ``other`` before it, P ``after`` it."""

    lines: _Lines
    cell: int
    place: str
    mover: str
    rival: str
    own: int
    other: int
    after: int
    #: The completing cells of P before the move: each would complete a line of P.
    dangers: int
    #: The empty cells after the move, and the completing cells of Q among them.
    left: int
    other_completing: int
    #: Whether Q's mark is on the cell opposite the move's, across the center.
    facing: bool


def _misere_facts(lines: _Lines, state: State, move: Move) -> _MisereFacts:
    own, other = (state.x, state.o) if state.mover == X_MARK else (state.o, state.x)
    cell, everything = move.cell, lines.full
    after = own | 1 << cell
    return _MisereFacts(
        lines,
        cell,
        lines.places[cell],
        *_sides(lines, state),
        own=own,
        other=other,
        after=after,
        dangers=lines.completing(own, other, everything),
        left=everything & ~(after | other),
        other_completing=lines.completing(other, after, everything),
        facing=bool(other >> lines.opposite(cell) & 1),
    )


def _loses(facts: _MisereFacts) -> bool:
    return bool(facts.dangers >> facts.cell & 1)


def _leaves_only_losses(facts: _MisereFacts) -> bool:
    return not _loses(facts) and bool(facts.left) and not facts.left & ~facts.other_completing


def _avoids(facts: _MisereFacts) -> bool:
    return bool(facts.dangers) and not _loses(facts)


def _avoids_one(facts: _MisereFacts) -> bool:
    return _avoids(facts) and facts.dangers.bit_count() == 1


def _faces(facts: _MisereFacts) -> bool:
    return facts.facing


def _completes_losing_line(facts: _MisereFacts) -> str:
    return f"Completes {facts.mover}'s {facts.lines.completed(facts.cell, facts.after)}"


def _leaves_only_cells(facts: _MisereFacts) -> str:
    rival = facts.rival
    return f"Leaves {rival} only cells that complete a line of {rival}: {facts.lines.cells(facts.left)}"


def _avoids_cell(facts: _MisereFacts) -> str:
    lines, danger = facts.lines, facts.dangers.bit_length() - 1
    line = lines.completed_at(danger, facts.own, facts.other)
    return f"Avoids {lines.cell(danger)}, which would complete {facts.mover}'s {line}"


def _avoids_cells(facts: _MisereFacts) -> str:
    return f"Avoids {facts.lines.cells(facts.dangers)}, where {facts.mover} would complete a line"


_MISERE: _Family[_MisereFacts] = _Family(
    facts=_misere_facts,
    tags=(
        ("lose", _loses),
        ("squeeze", _leaves_only_losses),
        ("avoid", _avoids),
        *_PLACES,
        ("opposite", _faces),
    ),
    sentences=(
        _Sentence(_loses, _completes_losing_line, ends="loses"),
        _Sentence(_leaves_only_losses, _leaves_only_cells),
        _Sentence(_avoids_one, _avoids_cell),
        _Sentence(_avoids, _avoids_cells),
        _Sentence(_faces, _takes_opposite),
        _Sentence(_always, _takes),
    ),
)


# --- either mark, a line of either mark wins -------------------------------------------------------


class _WildFacts(NamedTuple):
    """A move that puts ``mark`` in wild: X holds ``x`` and O ``o`` before it, ``x_after`` and ``o_after``
    after it."""

    lines: _Lines
    cell: int
    place: str
    mover: str
    rival: str
    mark: str
    x: int
    o: int
    x_after: int
    o_after: int
    #: The cells of the mark the move puts, before it, and the completing cells of that mark.
    placed: int
    placed_completing: int
    #: The completing cells of either mark, before the move and after it.
    open_before: int
    open_after: int
    #: The empty cells after the move.
    left: int
    #: Whether every reply of Q leaves a completing cell; worked out only when the move neither wins
    #: nor leaves a completing cell, else false.
    replies_open: bool


def _wild_facts(lines: _Lines, state: State, move: Move) -> _WildFacts:
    cell, bit, everything = move.cell, 1 << move.cell, lines.full
    x, o = state.x, state.o
    placed, against = (x, o) if move.mark == X_MARK else (o, x)
    x_after, o_after = (x | bit, o) if move.mark == X_MARK else (x, o | bit)
    placed_completing = lines.completing(placed, against, everything)
    open_after = _open_cells(lines, x_after, o_after)
    left = everything & ~(x_after | o_after)
    return _WildFacts(
        lines,
        cell,
        lines.places[cell],
        *_sides(lines, state),
        mark="X" if move.mark == X_MARK else "O",
        x=x,
        o=o,
        x_after=x_after,
        o_after=o_after,
        placed=placed,
        placed_completing=placed_completing,
        open_before=_open_cells(lines, x, o),
        open_after=open_after,
        left=left,
        replies_open=not placed_completing & bit
        and not open_after
        and _every_reply_opens(lines, x_after, o_after, left),
    )


def _open_cells(lines: _Lines, x: int, o: int) -> int:
    """The completing cells of X or of O (one board), as a mask."""
    everything = lines.full
    return lines.completing(x, o, everything) | lines.completing(o, x, everything)


def _every_reply_opens(lines: _Lines, x: int, o: int, left: int) -> bool:
    """Whether every reply, either mark in any of the empty cells ``left``, leaves a completing cell."""
    return all(
        _open_cells(lines, x | 1 << each, o) and _open_cells(lines, x, o | 1 << each)
        for each in _cells_of(left)
    )


def _open_line(lines: _Lines, cell: int, x: int, o: int) -> tuple[int, str]:
    """The first line that ``cell`` would complete, with X or with O, and that mark."""
    need = lines.need
    bit = 1 << cell
    for index, mask in enumerate(lines.masks):
        if mask & bit:
            for marks, other, name in ((x, o, "X"), (o, x, "O")):
                if not other & mask and (marks & mask).bit_count() == need:
                    return index, name
    raise ValueError(f"cell {cell} completes no line")


def _wild_wins(facts: _WildFacts) -> bool:
    return bool(facts.placed_completing >> facts.cell & 1)


def _wild_blocks(facts: _WildFacts) -> bool:
    return not _wild_wins(facts) and bool(facts.open_before >> facts.cell & 1)


def _gifts(facts: _WildFacts) -> bool:
    return not _wild_wins(facts) and bool(facts.open_after)


def _gifts_one(facts: _WildFacts) -> bool:
    return _gifts(facts) and facts.open_after.bit_count() == 1


def _wild_squeezes(facts: _WildFacts) -> bool:
    return not _wild_wins(facts) and not facts.open_after and bool(facts.left) and facts.replies_open


def _puts(facts: _WildFacts) -> str:
    return f"Puts {facts.mark} in {facts.lines.cell(facts.cell)}"


def _puts_and_completes(facts: _WildFacts) -> str:
    line = facts.lines.completed(facts.cell, facts.placed | 1 << facts.cell)
    return f"{_puts(facts)} and completes {facts.mark}'s {line}"


def _puts_and_gifts_one(facts: _WildFacts) -> str:
    lines, target = facts.lines, facts.open_after.bit_length() - 1
    line, of = _open_line(lines, target, facts.x_after, facts.o_after)
    return (
        f"{_puts(facts)}, which lets {facts.rival} complete {of}'s {lines.name(line)} at {lines.cell(target)}"
    )


def _puts_and_gifts(facts: _WildFacts) -> str:
    return (
        f"{_puts(facts)}, which lets {facts.rival} complete a line at {facts.lines.cells(facts.open_after)}"
    )


def _puts_and_squeezes(facts: _WildFacts) -> str:
    cells = facts.lines.cells(facts.left, "or")
    return f"{_puts(facts)}, and any mark {facts.rival} puts next, in {cells}, leaves a line to complete"


def _puts_and_blocks(facts: _WildFacts) -> str:
    line, of = _open_line(facts.lines, facts.cell, facts.x, facts.o)
    return f"{_puts(facts)}, blocking {of}'s {facts.lines.name(line)}"


_WILD: _Family[_WildFacts] = _Family(
    facts=_wild_facts,
    tags=(
        ("win", _wild_wins),
        ("block", _wild_blocks),
        ("gift", _gifts),
        ("squeeze", _wild_squeezes),
        *_PLACES,
    ),
    sentences=(
        _Sentence(_wild_wins, _puts_and_completes, ends="wins"),
        _Sentence(_gifts_one, _puts_and_gifts_one),
        _Sentence(_gifts, _puts_and_gifts),
        _Sentence(_wild_squeezes, _puts_and_squeezes),
        _Sentence(_wild_blocks, _puts_and_blocks),
        _Sentence(_always, _puts),
    ),
)


# --- X only, on live boards; the last line loses ---------------------------------------------------


class _NotaktoFacts(NamedTuple):
    """A move in Notakto, on ``board``: X holds ``after`` after it."""

    lines: _Lines
    cell: int
    place: str
    mover: str
    rival: str
    board: int
    after: int
    #: Whether the move makes a line on its board.
    lined: bool
    #: The cells of the boards live after the move, those boards, and their empty cells.
    live_after: int
    boards_left: tuple[int, ...]
    left: int
    #: The completing cells of the boards live after the move.
    completing_after: int


def _notakto_facts(lines: _Lines, state: State, move: Move) -> _NotaktoFacts:
    variant, cell = lines.variant, move.cell
    board = cell // variant.board_cells
    live = _live_cells(variant.id, state.x)
    after = state.x | 1 << cell
    lined = bool(lines.completing(state.x, 0, live) >> cell & 1)
    live_after = live & ~variant.board_masks[board] if lined else live
    return _NotaktoFacts(
        lines,
        cell,
        lines.places[cell],
        *_sides(lines, state),
        board=board,
        after=after,
        lined=lined,
        live_after=live_after,
        boards_left=tuple(j for j, mask in enumerate(variant.board_masks) if live_after & mask),
        left=live_after & ~after,
        completing_after=lines.completing(after, 0, live_after),
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


def _makes_last_line(facts: _NotaktoFacts) -> bool:
    return facts.lined and not facts.live_after


def _kills(facts: _NotaktoFacts) -> bool:
    return facts.lined and bool(facts.live_after)


def _hands_over(facts: _NotaktoFacts) -> bool:
    return facts.lined and len(facts.boards_left) == 1


def _notakto_squeezes(facts: _NotaktoFacts) -> bool:
    return len(facts.boards_left) == 1 and not facts.left & ~facts.completing_after


def _stays_live(facts: _NotaktoFacts) -> bool:
    return not facts.lined


def _several_boards(facts: _NotaktoFacts) -> bool:
    return facts.lines.variant.boards > 1


def _here(facts: _NotaktoFacts) -> str:
    """The move's board by its name."""
    return board_name(facts.lines.variant.boards, facts.board)


def _last_board(facts: _NotaktoFacts) -> str:
    """The one board live after the move, by its name."""
    return board_name(facts.lines.variant.boards, facts.boards_left[0])


def _move_words(facts: _NotaktoFacts) -> str:
    """What the move does to its board: it kills it, or it takes a cell of it."""
    if facts.lined:
        return f"Kills {_here(facts)}, completing its {facts.lines.completed(facts.cell, facts.after)}"
    return f"Takes {facts.lines.cell(facts.cell)}"


def _completes_last_line(facts: _NotaktoFacts) -> str:
    where = f" of {_here(facts)}, the last live board" if _several_boards(facts) else ""
    return f"Completes the {facts.lines.completed(facts.cell, facts.after)}{where}"


def _leaves_only_lines(facts: _NotaktoFacts) -> str:
    cells = _listed([facts.lines.cell(each, board=False) for each in _cells_of(facts.left)])
    on = f" of {_last_board(facts)}" if _several_boards(facts) else ""
    return f"{_move_words(facts)}, and leaves {facts.rival} only cells that complete a line: {cells}{on}"


def _hands_over_board(facts: _NotaktoFacts) -> str:
    return f"{_move_words(facts)}, and hands {facts.rival} the last live board, {_last_board(facts)}"


def _which_stays_live(facts: _NotaktoFacts) -> str:
    return f"{_move_words(facts)}, which stays live"


def _leaving_the_board_live(facts: _NotaktoFacts) -> str:
    return f"{_move_words(facts)}, leaving the board live"


_NOTAKTO: _Family[_NotaktoFacts] = _Family(
    facts=_notakto_facts,
    tags=(
        ("lose", _makes_last_line),
        ("kill", _kills),
        ("hand_over", _hands_over),
        ("squeeze", _notakto_squeezes),
        ("live", _stays_live),
        *_PLACES,
    ),
    sentences=(
        _Sentence(_makes_last_line, _completes_last_line, ends="loses"),
        _Sentence(_notakto_squeezes, _leaves_only_lines),
        _Sentence(_hands_over, _hands_over_board),
        _Sentence(_kills, _move_words),
        _Sentence(_several_boards, _which_stays_live),
        _Sentence(_always, _leaving_the_board_live),
    ),
)
#: The tags that only a game of several boards can give.
_SEVERAL_BOARDS_ONLY = {"kill", "hand_over"}


# --- every variant ---------------------------------------------------------------------------------

#: The family of rules of a variant, by its marks and whether a line loses.
_FAMILIES: dict[tuple[str, bool], _Family[Any]] = {
    ("own", False): _OWN,
    ("own", True): _MISERE,
    ("either", False): _WILD,
    ("x_only", True): _NOTAKTO,
}


def _family_of(variant: Variant) -> _Family[Any]:
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
    return tuple(tag for tag, _ in tags if variant.boards > 1 or tag not in _SEVERAL_BOARDS_ONLY)


#: Per variant id, every tactic tag the variant uses, in listing order.
TACTICS: dict[str, tuple[str, ...]] = {variant.id: _tags_of(variant) for variant in VARIANTS.values()}

__all__ = ["TACTICS", "board_name", "cell_name", "cell_names", "explain_move", "line_name", "value_words"]
