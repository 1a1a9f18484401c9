"""Reviews typed by the sides of their variant: :class:`MarkReview` and :class:`TurnReview`.

The generated :class:`~._models.ReviewResponse` serves every variant, so its ``players`` is
``Sides | TurnSides`` and its sides are :data:`~._models.Player` (``X``, ``O``, ``first``,
``second``). A variant's review has one kind of side only: ``X`` and ``O`` in the standard game,
misère, 4×4 and 4×4-3 (:data:`~._types.MarkVariant`), ``first`` and ``second`` in wild and Notakto
(:data:`~._types.TurnVariant`). These subclasses say so: the client parses a review with the one
its ``variant`` calls for, and :meth:`~._client.Client.review` is typed by its ``variant``, so a
program of the standard game reads ``review.players.O`` as it did before the variants. They are
still :class:`~._models.ReviewResponse` (and :class:`~._models.PlyReview`) instances, and parse
the same JSON, refusing only an answer whose sides are not those of its variant.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from ._models import PlyReview, ReviewResponse, Sides, TurnSides
from ._types import Mark, Turn

__all__ = ["MarkPlyReview", "MarkReview", "MarkStatus", "TurnPlyReview", "TurnReview", "TurnStatus"]

#: Where a game whose sides are marks stands: ``x_won`` and ``o_won`` name the mark that won
#: (in misère, the side that did not make the line).
MarkStatus = Literal["in_progress", "x_won", "o_won", "draw"]

#: Where a game of wild or Notakto stands: ``first_won`` and ``second_won`` name the side by its turn.
TurnStatus = Literal["in_progress", "first_won", "second_won", "draw"]


class MarkPlyReview(PlyReview):
    """One move of a reviewed game whose sides are marks: its ``player`` is ``"X"`` or ``"O"``."""

    player: Annotated[Mark, Field(description="The side that played the move: X or O.")]


class TurnPlyReview(PlyReview):
    """One move of a reviewed game of wild or Notakto: its ``player`` is ``"first"`` or ``"second"``."""

    player: Annotated[Turn, Field(description="The side that played the move: first or second.")]


class MarkReview(ReviewResponse):
    """A review of a game whose sides are the marks X and O (:data:`~._types.MarkVariant`: the
    standard game, misère, 4×4, 4×4-3): ``players`` is :class:`~._models.Sides`, and ``player``,
    ``winner`` and each ply's ``player`` are marks."""

    player: Annotated[Mark, Field(description="The side that played the first move: X or O.")]
    players: Annotated[Sides, Field(description="Each side: X and O.")]
    # A list of narrower plies: mypy holds lists invariant, but an answer's plies are only read.
    plies: Annotated[list[MarkPlyReview], Field(description="Every move, in order.")]  # type: ignore[assignment]
    status: Annotated[MarkStatus, Field(description="The status of the final board.")]
    winner: Annotated[Mark | None, Field(description="The mark that won the game, if any.")]


class TurnReview(ReviewResponse):
    """A review of a game whose sides are named by their turn (:data:`~._types.TurnVariant`: wild
    and Notakto): ``players`` is :class:`~._models.TurnSides`, and ``player``, ``winner`` and each
    ply's ``player`` are ``"first"`` or ``"second"``."""

    player: Annotated[Turn, Field(description="The side that played the first move: first or second.")]
    players: Annotated[TurnSides, Field(description="Each side: first and second.")]
    # A list of narrower plies: mypy holds lists invariant, but an answer's plies are only read.
    plies: Annotated[list[TurnPlyReview], Field(description="Every move, in order.")]  # type: ignore[assignment]
    status: Annotated[TurnStatus, Field(description="The status of the final board.")]
    winner: Annotated[Turn | None, Field(description="The side that won the game, if any.")]
