"""Exact values of every position of any variant (:mod:`.variants`), by negamax with a memo.

A value is ``(score, plies)`` from the point of view of the side to move, under perfect play by
both sides afterwards: ``score`` 1 when the side to move can force a win, 0 a draw, -1 when the
opponent can force a win (:data:`OUTCOMES`), and ``plies`` the moves the game still lasts, the next
one included, when the winner hurries and the loser delays (a draw lasts until the board is full).

Moves are ordered, best first (:meth:`Values.ranked`), by

1. the best score;
2. a win in the fewest plies, a loss in the most plies;
3. the most *traps*: opponent replies whose result for the opponent is worse than the opponent's
   perfect-play result after the move;
4. the lowest cell, then X before O.

Steps 1–2 decide which moves are optimal; steps 3–4 pick one of them. Positions that the
symmetries make alike share one entry of the memo (or of the shipped table, :mod:`.tables`):

* ``own`` marks: the eight symmetries of the square, and the swap of X and O with the side to move;
* ``either``: the same, and the side to move does not matter (both sides have the same moves);
* ``x_only``: each board under its symmetries, every board with a line alike (it takes no more
  moves), the boards in any order, and the side to move does not matter.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Mapping
from functools import cache, lru_cache
from typing import Literal, NamedTuple, TypeAlias

from .geometry import grid
from .variants import X_MARK, Move, State, Variant

Value = tuple[int, int]

#: What a score means, for the side it belongs to.
Outcome: TypeAlias = Literal["win", "draw", "loss"]
OUTCOMES: dict[int, Outcome] = {1: "win", 0: "draw", -1: "loss"}


class Entry(NamedTuple):
    """What is known of an unfinished position for its side to move: its value (``score``, ``plies``)
    and ``mistakes``, how many of its moves score worse than perfect play."""

    score: int
    plies: int
    mistakes: int


def rank(value: Value) -> tuple[int, int]:
    """The first two steps of the move order as a key that sorts better values first: the score, then
    the fastest win or the slowest loss; draws tie whatever their length."""
    score, plies = value
    return (-score, plies if score > 0 else -plies if score < 0 else 0)


class RankedMove(NamedTuple):
    """One legal move of a position and its value for the side that plays it: ``traps`` counts the
    opponent's replies whose score is worse for the opponent than its perfect-play score after the
    move (0 when the move ends the game)."""

    cell: int
    mark: int
    score: int
    plies: int
    traps: int


#: How many positions' first ranked moves a :class:`Values` keeps (the most recent), for
#: :meth:`Values.variation`: the lines from many positions of a game end the same way.
FIRSTS_KEPT = 8192


class Values:
    """The exact value of every position of ``variant``, each class of alike positions solved once.

    With a ``table`` (a mapping from :func:`key_of`'s keys to entries, such as a shipped
    :class:`~.tables.Table`), positions are looked up in it and never solved.
    """

    def __init__(self, variant: Variant, table: Mapping[int, Entry] | None = None) -> None:
        self.variant = variant
        self.memo: dict[int, Entry] = {}
        self.table = table
        self.key = key_of(variant)
        self.first = lru_cache(maxsize=FIRSTS_KEPT)(self._first)

    def entry(self, state: State) -> Entry:
        """The :class:`Entry` of an unfinished ``state``."""
        key = self.key(state)
        if self.table is not None:
            return self.table[key]
        found = self.memo.get(key)
        if found is None:
            found = self.solve(state)
            self.memo[key] = found
        return found

    def solve(self, state: State) -> Entry:
        """The :class:`Entry` of an unfinished ``state``, from the values of its moves."""
        values = [self.move_value(state, move) for move in self.variant.moves(state)]
        score, plies = min(values, key=rank)
        return Entry(score, plies, sum(1 for value in values if value[0] < score))

    def value(self, state: State) -> Value:
        """``(score, plies)`` of an unfinished ``state`` for its side to move."""
        score, plies, _ = self.entry(state)
        return score, plies

    def mistakes(self, state: State) -> int:
        """How many moves of an unfinished ``state`` score worse for its side to move than perfect play."""
        return self.entry(state).mistakes

    def ranked(self, state: State) -> list[RankedMove]:
        """Every move of an unfinished ``state``, best first, in the contract's order: the score, the
        fastest win or slowest loss, the most traps, the lowest cell, then X before O."""
        found = []
        for move in self.variant.moves(state):
            after, ended = self.variant.play(state, move)
            if ended is not None:
                found.append(RankedMove(move.cell, move.mark, ended, 1, 0))
            else:
                score, plies, mistakes = self.entry(after)
                found.append(RankedMove(move.cell, move.mark, -score, plies + 1, mistakes))
        return sorted(found, key=lambda m: (*rank((m.score, m.plies)), -m.traps, m.cell, m.mark))

    def within(self, state: State, depth: int) -> set[Move]:
        """The moves of an unfinished ``state`` that a player looking ``depth`` plies ahead finds best.

        The engine's own move is ply 1. Within the horizon a move is valued as the game values it,
        with the game cut short: a move that ends the game is worth its result in 1 ply; at the
        horizon any other move is worth ``0`` (the game goes on); otherwise a move is worth the
        negation of the opponent's best value one ply shallower, one ply longer. Among wins the
        fewest plies come first, among losses the most; all ``0`` values tie.

        Within a horizon of ``d`` plies a side can force a win exactly when perfect play wins in at
        most ``d`` plies, and then in as many; it must lose exactly when perfect play loses in at most
        ``d``, and then as late; every other position is worth ``0``, as are all draws. So the value of a
        move within the horizon is its exact value when that is decisive in at most ``depth`` plies,
        else ``0``: the table answers it, without a search.
        """
        found: dict[Move, tuple[int, int]] = {}
        for move in self.variant.moves(state):
            after, ended = self.variant.play(state, move)
            if ended is not None:
                found[move] = rank((ended, 1))
                continue
            score, plies = self.value(after)
            decisive = score != 0 and plies + 1 <= depth
            found[move] = rank((-score, plies + 1)) if decisive else rank((0, 0))
        best = min(found.values())
        return {move for move, key in found.items() if key == best}

    def variation(self, state: State, first: RankedMove | None = None) -> list[RankedMove]:
        """The rest of the game from an unfinished ``state`` when both sides play the first ranked move
        (``first``, when it is already known)."""
        line: list[RankedMove] = []
        while True:
            first = self.first(state) if first is None else first
            line.append(first)
            state, ended = self.variant.play(state, Move(first.cell, first.mark))
            if ended is not None:
                return line
            first = None

    def _first(self, state: State) -> RankedMove:
        """The first ranked move of an unfinished ``state`` (see :attr:`first`, which keeps them)."""
        return self.ranked(state)[0]

    def move_value(self, state: State, move: Move) -> Value:
        """The value of ``move`` in ``state`` for the side that plays it."""
        after, ended = self.variant.play(state, move)
        if ended is not None:
            return ended, 1
        score, plies = self.value(after)
        return -score, plies + 1


def key_of(variant: Variant) -> Callable[[State], int]:
    """What identifies a state's class of alike positions in ``variant``, as a number below 2 ** 32.

    * ``own`` marks: the smallest image, under the symmetries, of the mover's marks (high bits) and
      the other side's (low bits);
    * ``either``: the same with X's marks and O's, whichever of them comes first smaller;
    * ``x_only``: the classes of the boards, smallest first, each the smallest image of its marks, or
      ``2 ** cells`` for a dead board.
    """
    images = permutations(variant.size)
    width = variant.board_cells
    if variant.marks == "x_only":
        dead, full = 1 << width, variant.grid.full

        def boards(state: State) -> int:
            classes = []
            for board in range(variant.boards):
                cells = state.x >> board * width & full
                classes.append(dead if variant.has_line(state.x, board) else min(p[cells] for p in images))
            classes.sort()
            return sum(found << board * (width + 1) for board, found in enumerate(classes))

        return boards

    if variant.marks == "either":

        def either(state: State) -> int:
            x, o = state.x, state.o
            return min([min(p[x] << width | p[o], p[o] << width | p[x]) for p in images])

        return either

    def own(state: State) -> int:
        mine, theirs = (state.x, state.o) if state.mover == X_MARK else (state.o, state.x)
        return min([p[mine] << width | p[theirs] for p in images])

    return own


@cache
def permutations(size: int) -> tuple[array[int], ...]:
    """For each symmetry of the ``size`` × ``size`` grid, the image of every mask of its cells: an array
    of 2-byte numbers (1 MiB for the eight of 4 × 4), made from the images of a mask's low byte and of
    the rest."""
    count = size * size
    tables = []
    for symmetry in grid(size, size).symmetries:
        # The transformed board shows at cell i the old cell symmetry[i]: old bit c goes to bit i.
        moved_to = [0] * count
        for new, old in enumerate(symmetry):
            moved_to[old] = new

        def image(mask: int, moved_to: list[int] = moved_to) -> int:
            return sum(1 << moved_to[cell] for cell in range(count) if mask >> cell & 1)

        low = [image(byte) for byte in range(256)]
        high = [image(rest << 8) for rest in range(1 << (count - 8))]
        tables.append(array("H", [rest | byte for rest in high for byte in low]))
    return tuple(tables)
