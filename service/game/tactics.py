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

Sentences are said in the language of a catalogue (:mod:`.words`): each is a whole-sentence template
of the family's, by the move's facts, whose placeholders are names of cells, lines, boards and
players, each a message of its own (:data:`.words.CELLS`, :data:`.words.LINES`,
:data:`.words.BOARDS`, :data:`.words.PLAYERS`), never an index, so they read the same in every front
end, whether it numbers from 0 or from 1. Notakto's boards are "the left board", "the middle board"
and "the right board": the contract writes them one after another, and front ends draw them side by
side, in that order. A move that ends the game ends its sentence with how it ends (``X wins``); any
other ends it with the move's value, as :func:`value_words` says it, the sides being X and O in
own-mark variants and "the first player" and "the second player" in wild and Notakto.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, lru_cache
from typing import NamedTuple

from .variants import VARIANTS, X_MARK, Move, State, Variant
from .words import (
    BOARDS,
    CELLS,
    ENGLISH,
    LINES,
    PLAYERS,
    WHERE,
    Message,
    Plural,
    Words,
    listed,
    say,
    say_count,
)

#: How a sentence ends: with how the game ends, when the move ends it, else with the move's value.
_ENDED = Message("sentence", "{move}: {end}.")
# TRANSLATORS: A move's sentence: what it does, then its value ("the game is a draw with best play").
_GOES_ON = Message("sentence", "{move}; {value}.")
#: How the game ends, by what becomes of the side that moves: it wins, or it loses.
_ENDS = {
    # TRANSLATORS: How a game ends, {side} being X, O, or a player ("the first player").
    "wins": Message("end", "{side} wins"),
    "loses": Message("end", "{side} loses"),
}
_WINS = Plural(
    "value", "{side} wins with best play, in {count} move", "{side} wins with best play, in {count} moves"
)
_LOSES = Plural(
    "value", "{side} can force a win, in {count} move", "{side} can force a win, in {count} moves"
)
_DRAWN = Message("value", "the game is a draw with best play")
# TRANSLATORS: A cell of a game on several boards: a cell's name, then its board's ("of the left
# board").
_CELL_ON_BOARD = Message("cell on a board", "{cell} {board}")


def explain_move(
    variant: Variant, state: State, move: Move, score: int, plies: int, *, words: Words = ENGLISH
) -> tuple[tuple[str, ...], str]:
    """The tactics of ``move`` in the unfinished ``state`` (in :data:`TACTICS` order), and one sentence for a
    person, in the language of ``words``: its main tactic, with its cells and lines, and its value.

    ``score`` and ``plies`` are the move's value for the side that plays it under perfect play afterwards,
    as :class:`~.exact.RankedMove` gives them.
    """
    tags, row, facts = _described(variant.id, state, move)
    names = _Names(facts.lines, words)
    said = row.say(words, names, facts)
    if row.ends is not None:
        return tags, say(
            words, _ENDED, move=said, end=say(words, _ENDS[row.ends], side=names.side(facts.mover))
        )
    return tags, say(
        words, _GOES_ON, move=said, value=value_words(variant, state.mover, score, plies, words=words)
    )


def template_of(variant: Variant, state: State, move: Move) -> Message | Plural:
    """The template of the sentence that explains ``move``: the same in every language, one of its
    family's (a kind of sentence)."""
    return _described(variant.id, state, move)[1].says


def value_words(variant: Variant, mover: int, score: int, plies: int, *, words: Words = ENGLISH) -> str:
    """The value of a move in words, for the side ``mover`` (0 or 1) that makes it."""
    names = _Names(_lines_of(variant.id), words)
    if score > 0:
        return say_count(words, _WINS, plies, side=names.side(mover))
    if score < 0:
        return say_count(words, _LOSES, plies, side=names.side(1 - mover))
    return say(words, _DRAWN)


# --- the variant's lines as bit masks ------------------------------------------------------------


class _Lines(NamedTuple):
    """A variant's lines over every board, in the grid's order board by board: what the explanations of
    its moves read, worked out once per variant (:func:`_lines_of`)."""

    variant: Variant
    masks: tuple[int, ...]
    lines: tuple[tuple[int, ...], ...]
    #: The board of each line.
    boards: tuple[int, ...]
    #: The cells of one board, as a mask.
    full: int
    #: The marks a line holds when one empty cell would complete it.
    need: int
    #: Where each cell is on its board: ``center``, ``corner`` or ``edge``.
    places: tuple[str, ...]

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

    def completed(self, cell: int, marks: int) -> int:
        """The first line through ``cell`` whose cells all hold ``marks``."""
        return self.through(cell, marks, 0, self.variant.line)

    def completed_at(self, cell: int, own: int, other: int) -> int:
        """The first line that the empty ``cell`` would complete for ``own`` against ``other``."""
        return self.through(cell, own, other, self.need)

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
    return _Lines(variant, masks, lines, boards, variant.grid.full, variant.line - 1, places)


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


class _Names(NamedTuple):
    """The names a sentence says, in the language of ``words``, of a variant's cells, lines, boards and
    sides (:mod:`.words`)."""

    lines: _Lines
    words: Words

    def side(self, side: int) -> str:
        """A side as who does something: its mark (``X``, ``O``) where each side places its own, else a
        player (``the first player``)."""
        name = self.lines.variant.sides[side]
        return name if name not in PLAYERS else say(self.words, PLAYERS[name].player)

    def recipient(self, side: int) -> str:
        """A side as who is given something, or let do something."""
        name = self.lines.variant.sides[side]
        return name if name not in PLAYERS else say(self.words, PLAYERS[name].recipient)

    def line(self, index: int) -> str:
        """A line by its name on its board (no article)."""
        variant = self.lines.variant
        offset = self.lines.boards[index] * variant.board_cells
        cells = tuple(cell - offset for cell in self.lines.lines[index])
        return say(self.words, LINES[variant.size, variant.line][cells])

    def cell(self, cell: int, *, board: bool = True) -> str:
        """A cell as the thing taken, and its board's name when there are several (and ``board``)."""
        variant = self.lines.variant
        which, local = divmod(cell, variant.board_cells)
        name = say(self.words, CELLS[variant.size][local])
        if not board or variant.boards == 1:
            return name
        return say(self.words, _CELL_ON_BOARD, cell=name, board=self.board_of(which))

    def where(self, cell: int) -> str:
        """A cell of a game on one board as the place where something happens."""
        return say(self.words, WHERE[self.lines.variant.size][cell])

    def cells(self, cells: int, *, board: bool = True) -> str:
        """The cells of a mask as things, listed in cell order."""
        return listed(self.words, [self.cell(cell, board=board) for cell in _cells_of(cells)])

    def wheres(self, cells: int, *, either: bool = False) -> str:
        """The cells of a mask as places, listed in cell order (as alternatives, when ``either``)."""
        return listed(self.words, [self.where(cell) for cell in _cells_of(cells)], either=either)

    def board(self, board: int) -> str:
        """A board of a game on several boards, as the thing killed or handed over."""
        return say(self.words, BOARDS[self.lines.variant.boards][board].board)

    def board_of(self, board: int) -> str:
        """A board of a game on several boards, as what a cell or a line is of."""
        return say(self.words, BOARDS[self.lines.variant.boards][board].of)


# --- a family of rules as data ---------------------------------------------------------------------


class _Facts(NamedTuple):
    """What a move does, worked out once by its family (:attr:`_Family.facts`): the variant's lines, the
    move's cell and the mark it places, P and Q (0 or 1), what its sentences name (sets of cells as
    masks, and boards), by name, and what holds of it: its place, and every tag and condition that is
    true."""

    lines: _Lines
    cell: int
    mark: str
    mover: int
    rival: int
    known: dict[str, int]
    holds: frozenset[str]


def _facts(lines: _Lines, state: State, move: Move, known: dict[str, int], **truths: bool) -> _Facts:
    """The :class:`_Facts` of ``move``, ``truths`` naming what is true or false of it."""
    holds = frozenset((lines.places[move.cell], *(name for name, true in truths.items() if true)))
    return _Facts(lines, move.cell, "XO"[move.mark], state.mover, 1 - state.mover, known, holds)


#: What a sentence names, by its placeholders, from a move's facts and the names of its language.
Values = Callable[[_Facts, _Names], dict[str, object]]


class _Sentence(NamedTuple):
    """A row of a table of sentences: the facts that must all hold, the sentence's template (its first
    half) and what fills it, and, when the move ends the game, what becomes of P (``wins``,
    ``loses``)."""

    when: tuple[str, ...]
    says: Message | Plural
    values: Values
    ends: str | None = None

    def say(self, words: Words, names: _Names, facts: _Facts) -> str:
        """The first half of the sentence of a move with ``facts``, in the language of ``words``."""
        values = self.values(facts, names)
        if isinstance(self.says, Plural):
            count = values.pop("count")
            assert isinstance(count, int)
            return say_count(words, self.says, count, **values)
        return say(words, self.says, **values)


class _Family(NamedTuple):
    """A family of rules as data: how a move's facts are worked out, its tags in listing order (a tag is
    a move's when the fact of that name holds), and its sentences, the first whose facts hold saying
    a move's."""

    facts: Callable[[_Lines, State, Move], _Facts]
    tags: tuple[str, ...]
    sentences: tuple[_Sentence, ...]

    def describe(self, lines: _Lines, state: State, move: Move) -> tuple[tuple[str, ...], _Sentence, _Facts]:
        """The tags of a move, the row of its sentence, and its facts."""
        facts = self.facts(lines, state, move)
        tags = tuple(tag for tag in self.tags if tag in facts.holds)
        row = next(row for row in self.sentences if facts.holds.issuperset(row.when))
        return tags, row, facts


_PLACES = ("center", "corner", "edge")
#: The tags that say where a move is on the board, rather than what it does.
PLACES = (*_PLACES, "opposite_corner", "opposite")


def _taken(f: _Facts, n: _Names) -> dict[str, object]:
    return {"cell": n.cell(f.cell)}


def _opposite(f: _Facts, n: _Names) -> dict[str, object]:
    return {"cell": n.cell(f.cell), "side": n.side(f.rival), "opposite": n.where(f.lines.opposite(f.cell))}


def _completed(f: _Facts, n: _Names) -> dict[str, object]:
    return {"side": n.side(f.mover), "line": n.line(f.lines.completed(f.cell, f.known["after"]))}


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


def _threatened(f: _Facts, n: _Names) -> dict[str, object]:
    target = f.known["threats"].bit_length() - 1
    line = f.lines.completed_at(target, f.known["after"], f.known["other"])
    return {"line": n.line(line), "cell": n.where(target)}


_OWN = _Family(
    _own_facts,
    ("win", "block", "fork", "threat", "block_fork", *_PLACES, "opposite_corner"),
    (
        # TRANSLATORS: Standard tic-tac-toe and 4 × 4, where each side places its own mark and a line
        # wins: what a move does. {side} is X or O, the mark of the side that moves or of the other,
        # as the sentence says; {line} the name of a line, without an article.
        _Sentence(("win",), Message("own marks", "Completes {side}'s {line}"), _completed, ends="wins"),
        _Sentence(
            ("block",),
            Message("own marks", "Blocks {side}'s {line}"),
            lambda f, n: {
                "side": n.side(f.rival),
                "line": n.line(f.lines.completed_at(f.cell, f.known["other"], f.known["own"])),
            },
        ),
        _Sentence(
            ("fork",),
            # TRANSLATORS: {cells} is a list of cells as places ("cell, where").
            Message("own marks", "Forks: {side} threatens to win at {cells}"),
            lambda f, n: {"side": n.side(f.mover), "cells": n.wheres(f.known["threats"])},
        ),
        _Sentence(
            ("block_fork",),
            Plural(
                "own marks", "Takes away {side}'s fork at {cells}", "Takes away {side}'s forks at {cells}"
            ),
            lambda f, n: {
                "side": n.side(f.rival),
                "cells": n.wheres(f.known["forks"]),
                "count": f.known["forks"].bit_count(),
            },
        ),
        _Sentence(
            ("threat",), Message("own marks", "Threatens to complete the {line} at {cell}"), _threatened
        ),
        # TRANSLATORS: {cell} is the cell taken; {opposite} the cell across the center, as a place.
        _Sentence(
            ("opposite_corner",),
            Message("own marks", "Takes {cell}, opposite {side}'s mark in {opposite}"),
            _opposite,
        ),
        _Sentence((), Message("own marks", "Takes {cell}"), _taken),
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


def _avoided(f: _Facts, n: _Names) -> dict[str, object]:
    danger = f.known["dangers"].bit_length() - 1
    line = f.lines.completed_at(danger, f.known["own"], f.known["other"])
    return {"cell": n.cell(danger), "side": n.side(f.mover), "line": n.line(line)}


_MISERE = _Family(
    _misere_facts,
    ("lose", "squeeze", "avoid", *_PLACES, "opposite"),
    (
        # TRANSLATORS: Misère tic-tac-toe, where each side places its own mark and the side that makes
        # a line loses: what a move does. {side} is X or O.
        _Sentence(("lose",), Message("misère", "Completes {side}'s {line}"), _completed, ends="loses"),
        _Sentence(
            ("squeeze",),
            # TRANSLATORS: {cells} is a list of cells as things ("cell").
            Message("misère", "Leaves {side} only cells that complete a line of {side}: {cells}"),
            lambda f, n: {"side": n.side(f.rival), "cells": n.cells(f.known["left"])},
        ),
        _Sentence(
            ("avoid_one",), Message("misère", "Avoids {cell}, which would complete {side}'s {line}"), _avoided
        ),
        _Sentence(
            ("avoid",),
            Message("misère", "Avoids {cells}, where {side} would complete a line"),
            lambda f, n: {"cells": n.cells(f.known["dangers"]), "side": n.side(f.mover)},
        ),
        _Sentence(
            ("opposite",), Message("misère", "Takes {cell}, opposite {side}'s mark in {opposite}"), _opposite
        ),
        _Sentence((), Message("misère", "Takes {cell}"), _taken),
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


def _open_line(lines: _Lines, cell: int, x: int, o: int) -> tuple[str, int]:
    """The first line that ``cell`` would complete, with X or with O: the mark, and the line."""
    bit = 1 << cell
    for index, mask in enumerate(lines.masks):
        if mask & bit:
            for marks, other, name in ((x, o, "X"), (o, x, "O")):
                if not other & mask and (marks & mask).bit_count() == lines.need:
                    return name, index
    raise ValueError(f"cell {cell} completes no line")


def _put(f: _Facts, n: _Names) -> dict[str, object]:
    return {"mark": f.mark, "cell": n.where(f.cell)}


def _gift(f: _Facts, n: _Names) -> dict[str, object]:
    target = f.known["gifts"].bit_length() - 1
    mark, line = _open_line(f.lines, target, f.known["x_after"], f.known["o_after"])
    return _put(f, n) | {
        "player": n.recipient(f.rival),
        "owner": mark,
        "line": n.line(line),
        "target": n.where(target),
    }


def _blocked(f: _Facts, n: _Names) -> dict[str, object]:
    mark, line = _open_line(f.lines, f.cell, f.known["x"], f.known["o"])
    return _put(f, n) | {"owner": mark, "line": n.line(line)}


_WILD = _Family(
    _wild_facts,
    ("win", "block", "gift", "squeeze", *_PLACES),
    (
        # TRANSLATORS: Wild tic-tac-toe, where each move places X or O and a line of either mark wins
        # for the side that makes it: what a move does. {mark} and {owner} are X or O, marks (not
        # players); {cell} and {target} are cells as places ("cell, where"); {player} is a player.
        _Sentence(
            ("win",),
            Message("wild", "Puts {mark} in {cell} and completes {mark}'s {line}"),
            lambda f, n: _put(f, n) | {"line": n.line(f.lines.completed(f.cell, f.known["after"]))},
            ends="wins",
        ),
        # TRANSLATORS: {player} is the player given the chance ("player, recipient").
        _Sentence(
            ("gift_one",),
            Message(
                "wild", "Puts {mark} in {cell}, which lets {player} complete {owner}'s {line} at {target}"
            ),
            _gift,
        ),
        _Sentence(
            ("gift",),
            Message("wild", "Puts {mark} in {cell}, which lets {player} complete a line at {cells}"),
            lambda f, n: _put(f, n) | {"player": n.recipient(f.rival), "cells": n.wheres(f.known["gifts"])},
        ),
        # TRANSLATORS: {player} is who moves next ("player"); {cells} the empty cells, as places, as
        # alternatives ("A, B or C").
        _Sentence(
            ("squeeze",),
            Message(
                "wild",
                "Puts {mark} in {cell}, and any mark {player} puts next, in {cells}, "
                "leaves a line to complete",
            ),
            lambda f, n: (
                _put(f, n) | {"player": n.side(f.rival), "cells": n.wheres(f.known["left"], either=True)}
            ),
        ),
        _Sentence(("block",), Message("wild", "Puts {mark} in {cell}, blocking {owner}'s {line}"), _blocked),
        _Sentence((), Message("wild", "Puts {mark} in {cell}"), _put),
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


def _killed(f: _Facts, n: _Names) -> dict[str, object]:
    """The board a move kills, and the line that kills it."""
    return {"board": n.board(f.known["board"]), "line": n.line(f.lines.completed(f.cell, f.known["after"]))}


def _left_only(f: _Facts, n: _Names) -> dict[str, object]:
    """Who is left only cells that make a line, those cells, and their board when there are several."""
    found: dict[str, object] = {
        "player": n.recipient(f.rival),
        "cells": n.cells(f.known["left"], board=False),
    }
    return found | ({"last": n.board_of(f.known["last"])} if "boards" in f.holds else {})


_NOTAKTO = _Family(
    _notakto_facts,
    ("lose", "kill", "hand_over", "squeeze", "live", *_PLACES),
    (
        # TRANSLATORS: Notakto, where both players place X on boards without three in a row, and the
        # player who makes the last line loses: what a move does. {player} is a player as the one given
        # something ("player, recipient"); {board} a board as the thing killed or handed over; {last}
        # and the board of a cell, a board as what something is of ("board, of").
        _Sentence(
            ("lose", "boards"),
            Message("notakto", "Completes the {line} {board}, the last live board"),
            lambda f, n: {
                "line": n.line(f.lines.completed(f.cell, f.known["after"])),
                "board": n.board_of(f.known["board"]),
            },
            ends="loses",
        ),
        _Sentence(
            ("lose",),
            Message("notakto", "Completes the {line}"),
            lambda f, n: {"line": n.line(f.lines.completed(f.cell, f.known["after"]))},
            ends="loses",
        ),
        # TRANSLATORS: {cells} are cells as things, listed; {last} is the board they are on.
        _Sentence(
            ("squeeze", "lined"),
            Message(
                "notakto",
                "Kills {board}, completing its {line}, and leaves {player} only cells that complete a line: "
                "{cells} {last}",
            ),
            lambda f, n: _killed(f, n) | _left_only(f, n),
        ),
        _Sentence(
            ("squeeze", "boards"),
            Message(
                "notakto", "Takes {cell}, and leaves {player} only cells that complete a line: {cells} {last}"
            ),
            lambda f, n: _taken(f, n) | _left_only(f, n),
        ),
        _Sentence(
            ("squeeze",),
            Message("notakto", "Takes {cell}, and leaves {player} only cells that complete a line: {cells}"),
            lambda f, n: _taken(f, n) | _left_only(f, n),
        ),
        _Sentence(
            ("hand_over",),
            Message(
                "notakto",
                "Kills {board}, completing its {line}, and hands {player} the last live board, {last}",
            ),
            lambda f, n: _killed(f, n) | {"player": n.recipient(f.rival), "last": n.board(f.known["last"])},
        ),
        _Sentence(("kill",), Message("notakto", "Kills {board}, completing its {line}"), _killed),
        # TRANSLATORS: "which" is the board of the cell, which has no line yet.
        _Sentence(("boards",), Message("notakto", "Takes {cell}, which stays live"), _taken),
        _Sentence((), Message("notakto", "Takes {cell}, leaving the board live"), _taken),
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
def _described(variant_id: str, state: State, move: Move) -> tuple[tuple[str, ...], _Sentence, _Facts]:
    """The tags of a move, the row of its sentence, and its facts: the same in every language."""
    return _family_of(VARIANTS[variant_id]).describe(_lines_of(variant_id), state, move)


def _tags_of(variant: Variant) -> tuple[str, ...]:
    """Every tactic tag of ``variant``, in listing order: its family's, but those of several boards."""
    tags = _family_of(variant).tags
    return tuple(tag for tag in tags if variant.boards > 1 or tag not in _SEVERAL_BOARDS_ONLY)


#: Per variant id, every tactic tag the variant uses, in listing order.
TACTICS: dict[str, tuple[str, ...]] = {variant.id: _tags_of(variant) for variant in VARIANTS.values()}

__all__ = ["PLACES", "TACTICS", "explain_move", "template_of", "value_words"]
