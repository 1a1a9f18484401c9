"""The tic-tac-toe family: each rule variant as a small value, and its moves and ends on bit masks.

A :class:`Variant` says everything that sets one game of the family apart:

* ``size`` and ``line``: a square board of ``size`` × ``size`` cells, where a line is ``line``
  cells in a row, a column or a diagonal (its :class:`~.geometry.Grid`);
* ``boards``: how many such boards are played at once (Notakto plays on 1 to 3);
* ``marks``: which marks a side places: ``own`` (the first side X, the second O, or the other way
  round), ``either`` (each move places X or O, as its side chooses: wild tic-tac-toe) or
  ``x_only`` (both sides place X: Notakto);
* ``misere``: whether the side that makes a line loses, rather than wins.

The cells of a variant are numbered across its boards: board ``j`` holds cells ``j * s`` to
``j * s + s - 1``, where ``s = size * size``, each board row-major.

A *state* is a position seen as bit masks, :class:`State`: ``x`` and ``o`` (the cells of each
mark) and ``mover`` (0 or 1). In ``own`` variants the mover is the mark that moves (0 for X); in the
others it is the side (0 for the first side, which moves when the count of marks is even). A
move places a mark (0 for X, 1 for O) on an empty cell of a *live* board, one without a line.
:func:`play` says what a move leads to:

* a line of the placed mark on its board ends the game when it leaves no live board (always,
  with one board): the mover wins, or loses in a misère variant;
* otherwise the game is drawn when no live board has an empty cell;
* otherwise the other side moves.

The registry (:data:`VARIANTS`) holds every game of the family, the standard game first
(:data:`STANDARD`): what sets one apart is its data here, and every algorithm of :mod:`.exact`,
:mod:`.choice`, :mod:`.tactics`, :mod:`.review` and :mod:`.puzzles` reads it. Nothing here knows
about HTTP.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache, cached_property, lru_cache
from typing import Literal, NamedTuple, TypeAlias

from .board import EMPTY, IN_A_ROW, BoardError, Shape, counts_apart, late_move, read_cells, side_to_move
from .geometry import Grid, Line, grid
from .words import Listed, Message, Said

Marks: TypeAlias = Literal["own", "either", "x_only"]
#: The mark a move places: 0 for X, 1 for O.
X_MARK, O_MARK = 0, 1


class State(NamedTuple):
    """A position of a variant as bit masks: the cells of X, of O, and the side to move."""

    x: int
    o: int
    mover: int


class Move(NamedTuple):
    """A cell and the mark placed on it (0 for X, 1 for O)."""

    cell: int
    mark: int


@dataclass(frozen=True)
class Variant:
    """One game of the family: see the module's docstring."""

    id: str
    #: Its name, and its rules in one sentence: messages of the catalogue, said in a player's language
    #: (:func:`.words.say`).
    name: Message
    rules: Message
    size: int
    line: int
    boards: int
    marks: Marks
    misere: bool
    #: Its name as a constant in code that generators write from the API's documents
    #: (``x-enum-varnames``): a valid identifier, as ``4x4`` is not.
    constant: str

    @property
    def grid(self) -> Grid:
        """The geometry of each board."""
        return grid(self.size, self.line)

    @property
    def board_cells(self) -> int:
        """The cells of one board."""
        return self.size * self.size

    @property
    def cells(self) -> int:
        """The cells of every board together: the length of a board string."""
        return self.board_cells * self.boards

    @cached_property
    def board_masks(self) -> tuple[int, ...]:
        """The cells of each board, as a mask over every cell."""
        one = self.grid.full
        return tuple(one << j * self.board_cells for j in range(self.boards))

    @cached_property
    def lines_through(self) -> tuple[tuple[int, ...], ...]:
        """For each cell of every board, the masks of the lines through it."""
        lines = self.grid.line_masks
        s = self.board_cells
        return tuple(
            tuple(mask << j * s for mask in lines if mask >> cell & 1)
            for j in range(self.boards)
            for cell in range(s)
        )

    @property
    def marks_of_a_move(self) -> tuple[int, ...]:
        """The marks a side may place: X and O in ``either``, X alone in ``x_only``."""
        return (X_MARK, O_MARK) if self.marks == "either" else (X_MARK,)

    @property
    def in_a_row(self) -> Message:
        """``three in a row``: a line of the variant, in words (a message)."""
        return IN_A_ROW[self.line]

    @property
    def shape(self) -> Shape:
        """What its board strings hold."""
        return Shape(self.size, self.boards, "X" if self.marks == "x_only" else "XO")

    @property
    def sides(self) -> tuple[str, str]:
        """The names of the two sides: the marks in ``own`` variants, else ``first`` and ``second``."""
        return ("X", "O") if self.marks == "own" else ("first", "second")

    def parse(self, value: object) -> str:
        """The canonical cells of a board in any form the variant takes; :class:`BoardError` if none."""
        return read_cells(value, self.shape)

    def board(self, value: object) -> VariantBoard:
        """A board in any form the variant takes, checked by the rules a board alone can break;
        :class:`BoardError` naming the rule it breaks."""
        cells = self.parse(value)
        self.resolve(cells)
        return VariantBoard(self, cells)

    def resolve(self, cells: str, player: str | None = None) -> VariantPosition:
        """The position on canonical ``cells`` with its side to move, under the variant's legality rules.

        Raises :class:`BoardError` naming the rule a board or a player breaks.
        """
        return _resolved(self.id, cells, player)

    def start(self, first: int = X_MARK) -> State:
        """The empty board, ``first`` to move (in ``own`` variants, the mark that starts)."""
        return State(0, 0, first if self.marks == "own" else 0)

    @cached_property
    def lines_of_board(self) -> tuple[tuple[int, ...], ...]:
        """The masks of the lines of each board, over every cell."""
        lines = self.grid.line_masks
        return tuple(tuple(mask << j * self.board_cells for mask in lines) for j in range(self.boards))

    def has_line(self, cells: int, board: int) -> bool:
        """Whether ``cells`` hold a whole line on ``board``."""
        return any(cells & mask == mask for mask in self.lines_of_board[board])

    def live(self, state: State) -> int:
        """The mask of the boards' cells that are still live (on a board without a line)."""
        live = 0
        for board, mask in enumerate(self.board_masks):
            if not (self.has_line(state.x, board) or self.has_line(state.o, board)):
                live |= mask
        return live

    def moves(self, state: State) -> Iterator[Move]:
        """Every legal move of an unfinished ``state``, by cell, then X before O."""
        live = self.board_masks[0] if self.boards == 1 else self.live(state)  # one board: it is live
        empty = live & ~(state.x | state.o)
        marks = (state.mover,) if self.marks == "own" else self.marks_of_a_move
        cell = 0
        while empty:
            if empty & 1:
                for mark in marks:
                    yield Move(cell, mark)
            empty >>= 1
            cell += 1

    def play(self, state: State, move: Move) -> tuple[State, int | None]:
        """The state after ``move``, and the mover's score when the move ends the game (``1`` a win,
        ``0`` a draw, ``-1`` a loss), else ``None``."""
        bit = 1 << move.cell
        x, o = (state.x | bit, state.o) if move.mark == X_MARK else (state.x, state.o | bit)
        after = State(x, o, 1 - state.mover)
        placed = x if move.mark == X_MARK else o
        lined = any(placed & mask == mask for mask in self.lines_through[move.cell])
        if self.boards == 1:  # a line ends the game, else a full board does
            if lined:
                return after, -1 if self.misere else 1
            return after, None if ~(x | o) & self.board_masks[0] else 0
        if lined and not self.live(after):
            return after, -1 if self.misere else 1
        if not self.live(after) & ~(x | o):
            return after, 0
        return after, None


@dataclass(frozen=True, slots=True)
class VariantBoard:
    """A board of a variant as a request gives it: its canonical cells, checked by the board-only rules
    (:meth:`Variant.board`); the side to move is decided with the player (:meth:`Variant.resolve`)."""

    variant: Variant
    cells: str


class VariantPosition(NamedTuple):
    """A legal position of a variant: its canonical cells, its state, the side to move (``None`` on a
    finished board), its status, and the lines on its boards (as cells of the whole string)."""

    variant: Variant
    cells: str
    state: State
    player: str | None
    status: str
    winning_lines: tuple[Line, ...]


@lru_cache(maxsize=4096)
def _resolved(variant_id: str, cells: str, player: str | None) -> VariantPosition:
    """:func:`_resolve`, remembered for the 4,096 most recent legal positions: a request's models ask for
    the same position up to three times, and a batch often repeats one. A board or player that breaks
    a rule raises each time, and is not remembered: only a legal board in canonical symbols and a side
    of the variant are ever kept."""
    return _resolve(VARIANTS[variant_id], cells, player)


def _resolve(variant: Variant, cells: str, player: str | None) -> VariantPosition:
    """See :meth:`Variant.resolve`."""
    if player is not None and player not in variant.sides:
        names = Listed(tuple(f'"{side}"' for side in variant.sides), either=True)
        message = Message("error", "in {variant} the sides are {names}; got {player}")
        raise BoardError(
            "player_unknown",
            Said.of(message, variant=variant.id, names=names, player=repr(player)),
            field="player",
        )
    x, o = cells.count("X"), cells.count("O")
    apart = counts_apart(x, o) if variant.marks == "own" else None
    if apart is not None:
        raise apart
    lines, made_by = _lines(variant, cells)
    masks = State(_mask(cells, "X"), _mask(cells, "O"), 0)
    if variant.marks == "own":
        return _resolve_own(variant, cells, masks, player, lines=lines, made_by=made_by)
    return _resolve_sides(variant, cells, masks, player, lines=lines)


def _mask(cells: str, mark: str) -> int:
    """The cells of ``mark``, as a bit mask."""
    return sum(1 << i for i, symbol in enumerate(cells) if symbol == mark)


def _resolve_sides(
    variant: Variant, cells: str, masks: State, player: str | None, *, lines: tuple[Line, ...]
) -> VariantPosition:
    """Whose turn and status when both sides place any mark (wild, Notakto): the count of marks
    says whose turn it is, ``first`` when it is even."""
    marks = cells.count("X") + cells.count("O")
    mover = marks % 2
    if player is not None and player != variant.sides[mover]:
        message = Message("error", "the board has {marks} marks, so {to_move} is to move, not {player}")
        said = Said.of(message, marks=marks, to_move=variant.sides[mover], player=player)
        raise BoardError("player_contradicts_counts", said, field="player")
    state = State(masks.x, masks.o, mover)
    finished = (bool(lines) and (variant.boards == 1 or not variant.live(state))) or EMPTY not in cells
    if not finished:
        return VariantPosition(variant, cells, state, variant.sides[mover], "in_progress", lines)
    if not lines:
        return VariantPosition(variant, cells, state, None, "draw", lines)
    last = 1 - mover  # the side that made the last line
    winner = 1 - last if variant.misere else last
    return VariantPosition(variant, cells, state, None, f"{variant.sides[winner]}_won", lines)


def _lines(variant: Variant, cells: str) -> tuple[tuple[Line, ...], str | None]:
    """The lines on every board, and the mark that made them; :class:`BoardError` unless the lines of
    each board pass through one cell (the move that made them, after which the board takes no more)."""
    found = [line for board in range(variant.boards) for line in _board_lines(variant, cells, board)]
    marks = {cells[line[0]] for line in found}
    if len(marks) > 1:
        raise _two_winners(variant)
    return tuple(found), next(iter(marks), None)


def _two_winners(variant: Variant) -> BoardError:
    message = Message("error", "both X and O have {in_a_row}; the game ends at the first line")
    return BoardError("board_two_winners", Said.of(message, in_a_row=Said.of(variant.in_a_row)))


def _board_lines(variant: Variant, cells: str, board: int) -> list[Line]:
    """The lines on one board, as cells of the whole string, checked to pass through one cell."""
    offset = board * variant.board_cells
    here = [
        tuple(offset + cell for cell in line)
        for line in variant.grid.lines
        if cells[offset + line[0]] != EMPTY
        and all(cells[offset + c] == cells[offset + line[0]] for c in line)
    ]
    if len({cells[line[0]] for line in here}) > 1:
        raise _two_winners(variant)
    if here and not set(here[0]).intersection(*here[1:]):
        if variant.boards > 1:
            message = Message(
                "error",
                "board {board} has lines that share no cell; a board takes no move after its first line, "
                "so every line on it passes through the cell of that move",
            )
        else:
            message = Message(
                "error",
                "the board has lines that share no cell; a board takes no move after its first line, "
                "so every line on it passes through the cell of that move",
            )
        raise BoardError("board_lines_apart", Said.of(message, board=board))
    return here


def _resolve_own(
    variant: Variant,
    cells: str,
    masks: State,
    player: str | None,
    *,
    lines: tuple[Line, ...],
    made_by: str | None,
) -> VariantPosition:
    """Whose turn and legality when each side places its own mark: the standard game's rules."""
    x, o = cells.count("X"), cells.count("O")
    if made_by is not None and cells.count(made_by) < cells.count("O" if made_by == "X" else "X"):
        raise late_move(made_by, "O" if made_by == "X" else "X", variant.in_a_row)
    to_move = side_to_move(x, o, player, made_by, variant.in_a_row)
    state = State(masks.x, masks.o, X_MARK if to_move == "X" else O_MARK)
    if made_by is not None:
        winner = ("O" if made_by == "X" else "X") if variant.misere else made_by
        return VariantPosition(variant, cells, state, None, f"{winner.lower()}_won", lines)
    if EMPTY not in cells:
        return VariantPosition(variant, cells, state, None, "draw", lines)
    return VariantPosition(variant, cells, state, to_move, "in_progress", lines)


#: Every variant, by ``id``, in the order the API lists them.
VARIANTS: dict[str, Variant] = {
    variant.id: variant
    for variant in (
        Variant(
            "standard",
            # TRANSLATORS: The name of a variant of the game, as a menu lists it.
            Message("variant", "Tic-tac-toe"),
            # TRANSLATORS: The rules of a variant, in one sentence.
            Message("rules", "Each side places its own mark; three in a row wins."),
            3,
            3,
            1,
            "own",
            False,
            "STANDARD",
        ),
        Variant(
            "misere",
            Message("variant", "Misère tic-tac-toe"),
            Message("rules", "Each side places its own mark; the side that makes three in a row loses."),
            3,
            3,
            1,
            "own",
            True,
            "MISERE",
        ),
        Variant(
            "wild",
            Message("variant", "Wild tic-tac-toe"),
            Message(
                "rules",
                "Each move places X or O, as the side to move chooses; the side that makes three in a row "
                "of either mark wins.",
            ),
            3,
            3,
            1,
            "either",
            False,
            "WILD",
        ),
        Variant(
            "notakto",
            Message("variant", "Notakto"),
            Message(
                "rules",
                "Both sides place X on a board without three in a row; "
                "the side that makes three in a row loses.",
            ),
            3,
            3,
            1,
            "x_only",
            True,
            "NOTAKTO",
        ),
        *(
            Variant(
                f"notakto-{boards}",
                name,
                Message(
                    "rules",
                    "Both sides place X on a board without three in a row; "
                    "a board with three in a row is dead, and the side that makes the last line loses.",
                ),
                3,
                3,
                boards,
                "x_only",
                True,
                f"NOTAKTO_{boards}",
            )
            for boards, name in (
                (2, Message("variant", "Notakto on 2 boards")),
                (3, Message("variant", "Notakto on 3 boards")),
            )
        ),
        Variant(
            "4x4",
            Message("variant", "Tic-tac-toe on 4 × 4"),
            Message("rules", "Each side places its own mark on a 4 × 4 board; four in a row wins."),
            4,
            4,
            1,
            "own",
            False,
            "FOUR_BY_FOUR",
        ),
        Variant(
            "4x4-3",
            Message("variant", "Three in a row on 4 × 4"),
            Message("rules", "Each side places its own mark on a 4 × 4 board; three in a row wins."),
            4,
            3,
            1,
            "own",
            False,
            "FOUR_BY_FOUR_THREE_IN_A_ROW",
        ),
    )
}

#: The standard game: entry zero of the registry, as every answer about a standard position reads it.
STANDARD = next(iter(VARIANTS.values()))


class Reach(NamedTuple):
    """What games of a variant can reach, with either side first: every unfinished position once, in
    the order found, and how many distinct boards, finished or not."""

    unfinished: tuple[State, ...]
    boards: int


@cache
def reach(variant_id: str) -> Reach:
    """:class:`Reach` of a small variant, by walking every game once (some 0.1 s for the standard
    game's 9,040 positions; a large variant's are far too many to walk)."""
    variant = VARIANTS[variant_id]
    seen: dict[State, None] = {}
    boards = set()
    waiting = [variant.start(first) for first in (X_MARK, O_MARK)]
    while waiting:
        state = waiting.pop()
        if state in seen:
            continue
        seen[state] = None
        boards.add((state.x, state.o))
        for move in variant.moves(state):
            after, ended = variant.play(state, move)
            if ended is None:
                waiting.append(after)
            else:
                boards.add((after.x, after.o))
    return Reach(tuple(seen), len(boards))
