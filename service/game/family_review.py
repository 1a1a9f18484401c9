"""A game of any variant (:mod:`.variants`) reviewed as :mod:`.review` reviews the standard game.

The judgements, only moves, accuracy and strengths are :mod:`.review`'s, read with the variant's
moves and exact values (:class:`~.exact.Values`): a move is a cell and the mark placed
(:class:`~.variants.Move`), so in ``wild`` the same cell with X and with O are two moves; a move is
``best`` when it is one of the position's best by steps 1–2 of the move order, whatever its traps.
A player of depth ``d`` finds best the moves :meth:`~.exact.Values.within` gives for ``d``, and the
calibrated players' depths are read in the variant (:func:`~.levels.in_game`: ``perfect`` sees the
whole game). A side's rating is its most likely level's, where the variant's levels are calibrated
(:data:`~.levels.CALIBRATED`); elsewhere it is ``None``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .exact import RankedMove, Values, rank
from .levels import CALIBRATED, in_game
from .review import (
    PLAYERS,
    IllegalMove,
    Judgement,
    SideReview,
    chance,
    judge,
    multiplied,
    on_one_denominator,
    side_review,
)
from .variants import X_MARK, Move, State, Variant, VariantPosition


class FamilyPly(NamedTuple):
    """One move of a reviewed game: the positions around it, every move of the position before it,
    ranked (:meth:`~.exact.Values.ranked`), the move played among them, and how it is judged."""

    ply: int
    before: VariantPosition
    after: VariantPosition
    ranked: tuple[RankedMove, ...]
    played: RankedMove
    judgement: Judgement
    only_move: bool

    @property
    def best_moves(self) -> tuple[int, ...]:
        """The cells of the position's optimal moves (steps 1–2), each once, in order."""
        top = rank((self.ranked[0].score, self.ranked[0].plies))
        return tuple(sorted({m.cell for m in self.ranked if rank((m.score, m.plies)) == top}))

    @property
    def better(self) -> RankedMove | None:
        """The engine's move (steps 1–4) when the move played was not ``best``."""
        return None if self.judgement is Judgement.BEST else self.ranked[0]


class FamilyReview(NamedTuple):
    """A game from ``start`` to ``final``: every move, and each side, the side of mark X or the first
    side first (as :attr:`.variants.State.mover` numbers them)."""

    start: VariantPosition
    final: VariantPosition
    plies: tuple[FamilyPly, ...]
    sides: tuple[SideReview, SideReview]


def review_game(values: Values, start: VariantPosition, moves: Sequence[int | Move]) -> FamilyReview:
    """The review of ``moves``, in the order played, from the unfinished ``start`` of ``values``'s
    variant: each a cell, whose mark the rules imply (the mover's own, or X in Notakto), or a
    :class:`~.variants.Move` with its mark (which ``wild`` needs).

    Raises :class:`~.review.IllegalMove` for the first move that cannot be played, and a plain
    :class:`ValueError` when ``start`` is finished or there are no moves.
    """
    variant = values.variant
    if start.player is None:
        raise ValueError(f"the game is over on the starting board ({start.status})")
    if not moves:
        raise ValueError("a review needs at least one move")
    here = start
    plies: list[FamilyPly] = []
    rows: tuple[list[tuple[int, ...]], list[tuple[int, ...]]] = ([], [])
    for index, given in enumerate(moves):
        move = _legal(variant, here, index, given)
        ranked = tuple(values.ranked(here.state))
        played = next(m for m in ranked if (m.cell, m.mark) == move)
        first = ranked[0]
        after = _after(variant, here, move)
        plies.append(
            FamilyPly(
                ply=index + 1,
                before=here,
                after=after,
                ranked=ranked,
                played=played,
                judgement=judge(
                    rank((played.score, played.plies)) == rank((first.score, first.plies)),
                    first.score,
                    played.score,
                ),
                only_move=len(ranked) >= 2 and first is played and ranked[1].score != first.score,
            )
        )
        rows[here.state.mover].append(likelihoods(values, here.state, move))
        here = after
    ratings = CALIBRATED.get(variant.id)
    sides = tuple(
        side_review(
            variant.sides[side],
            [(ply.judgement, ply.only_move) for ply in plies if ply.before.state.mover == side],
            multiplied(rows[side]) if rows[side] else None,
            ratings,
        )
        for side in (0, 1)
    )
    return FamilyReview(start, here, tuple(plies), (sides[0], sides[1]))


def likelihoods(values: Values, state: State, move: Move) -> tuple[int, ...]:
    """The likelihood of ``move`` in an unfinished ``state`` under each calibrated player
    (:data:`~.review.PLAYERS`), as numerators over one common denominator."""
    cells = values.variant.cells
    legal = sum(1 for _ in values.variant.moves(state))
    horizons: dict[int, set[Move]] = {}  # the levels share depths
    found: list[tuple[int, int]] = []
    for depth, a, b in PLAYERS:
        if depth is None:
            found.append((1, legal))
            continue
        seen = in_game(depth, cells)
        best = horizons.get(seen)
        if best is None:
            best = horizons[seen] = values.within(state, seen)
        found.append(chance(legal, len(best), move in best, a, b))
    return on_one_denominator(found)


def _legal(variant: Variant, here: VariantPosition, index: int, given: int | Move) -> Move:
    """The move ``given`` as the rules read it, once it is known to be legal in ``here``."""
    if here.player is None:
        raise IllegalMove(index, f"the game is over ({here.status}) before this move: no move can follow")
    cell = given if isinstance(given, int) else given.cell
    if not 0 <= cell < variant.cells:
        raise IllegalMove(index, f"cell {cell} is not on the board: cells are 0 to {variant.cells - 1}")
    if here.cells[cell] != ".":
        raise IllegalMove(index, f"cell {cell} is taken (by {here.cells[cell]})")
    board = cell // variant.board_cells
    if not variant.live(here.state) >> cell & 1:
        raise IllegalMove(index, f"cell {cell} is on board {board}, which has a line: no move can go there")
    mover = here.state.mover
    if variant.marks == "either":
        if isinstance(given, int):
            raise IllegalMove(index, f"in {variant.id} a move names its mark: X or O, with its cell")
        return given
    implied = mover if variant.marks == "own" else X_MARK
    if not isinstance(given, int) and given.mark != implied:
        own = variant.marks == "own"
        whose = f"{variant.sides[mover]} places {'XO'[mover]}" if own else "both sides place X"
        raise IllegalMove(index, f"in {variant.id} {whose}, not {'XO'[given.mark]}")
    return Move(cell, implied)


def _after(variant: Variant, here: VariantPosition, move: Move) -> VariantPosition:
    """The position after a legal ``move`` in ``here``."""
    state, ended = variant.play(here.state, move)
    cells = here.cells[: move.cell] + "XO"[move.mark] + here.cells[move.cell + 1 :]
    return variant.resolve(cells, None if ended is not None else variant.sides[state.mover])
