"""The types of what a program gives the client: marks, boards, batch items, a review's moves, puzzle
filters; and of cacheable answers.

The answers themselves are the generated models of :mod:`._models`. These input types are
written by hand, because they are wider than the schemas (a board may be any sequence, not only
a list); a test checks them against the OpenAPI document's ``BestMoveRequest`` schema.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, Literal, Required, TypedDict, TypeVar

from ._models import Level, MarkedMove

__all__ = [
    "BestMoveItem",
    "BoardInput",
    "Fetched",
    "Mark",
    "MarkVariant",
    "NotModified",
    "Player",
    "PuzzleOutcome",
    "ReviewMove",
    "Theme",
    "Turn",
    "TurnVariant",
    "Variant",
]

#: A mark: the side to move in the standard game, and every answer's marks.
Mark = Literal["X", "O"]

#: A request's ``player``: a mark, or in wild and Notakto, whose sides are not marks, ``"first"`` or
#: ``"second"``.
Player = Literal["X", "O", "first", "second"]

#: A side of wild and Notakto, whose sides are named by their turn, not by a mark.
Turn = Literal["first", "second"]

#: A rule variant, the requests' ``variant`` (``"standard"`` when it is not sent): see
#: :meth:`~._client.Client.variants` for each one's rules and board.
Variant = Literal["standard", "misere", "wild", "notakto", "notakto-2", "notakto-3", "4x4", "4x4-3"]

#: The variants whose sides are the marks X and O (``marks`` ``"own"`` in ``GET /v1/variants``): a
#: review of one of them is a :class:`~._reviews.MarkReview`.
MarkVariant = Literal["standard", "misere", "4x4", "4x4-3"]

#: The variants whose sides are ``"first"`` and ``"second"``, as both place any mark (wild) or only X
#: (Notakto): a review of one of them is a :class:`~._reviews.TurnReview`.
TurnVariant = Literal["wild", "notakto", "notakto-2", "notakto-3"]

#: A move of a review: a cell, an ``int`` (0 to the board's cells - 1, as the board string indexes
#: them), or in wild, where each move places X or O, the cell and the mark placed: a ``(cell, mark)``
#: pair such as ``(4, "O")``, or a :class:`~._models.MarkedMove` (``MarkedMove(position=4,
#: mark="O")``). A pair is sent as the API's object, ``{"position": 4, "mark": "O"}``.
ReviewMove = int | tuple[int, Mark] | MarkedMove

#: A puzzle's theme, the ``theme`` filter of the puzzle queries: what its solution does. Every
#: variant's themes are here; each variant has its own (its ``tactics`` in ``GET /v1/variants`` but
#: those of places): the standard game's are the first five.
Theme = Literal[
    "win",
    "block",
    "fork",
    "threat",
    "block_fork",
    "lose",
    "squeeze",
    "avoid",
    "gift",
    "live",
    "kill",
    "hand_over",
]

#: What a puzzle's solution keeps, the ``outcome`` filter of :meth:`~._client.Client.puzzles`.
PuzzleOutcome = Literal["win", "draw"]

#: A board in any of the three request forms: a string of 9 characters (``"X.O...X.."``), a
#: sequence of 9 cells, or a sequence of 3 rows of 3 cells (in another variant, of its size; Notakto's
#: several boards only as a string). A cell is ``"X"`` or ``"O"`` (either
#: case), or empty as ``None``, ``""``, ``" "``, ``"."``, ``"-"`` or ``"_"``. (Written as one
#: sequence of cells or rows, so that mypy takes a literal such as ``[["X", None, "O"], ["", "",
#: ""], ...]``, whose rows differ in type; the service checks the shape.)
BoardInput = str | Sequence[str | Sequence[str | None] | None]


class BestMoveItem(TypedDict, total=False):
    """One request of a batch (the API's ``BestMoveItem``): the body of ``POST /v1/best-move`` but its
    ``lang``, which is the batch's (``batch(items, lang=...)``). Only ``board`` is required.

    ``level`` stands for a ``depth`` and a ``skill`` of its own, so the service refuses it beside
    either of them; ``rating`` (0 to 493, an opponent of that Elo strength) refuses all three.
    """

    board: Required[BoardInput]
    variant: Variant
    player: Player | None
    level: Level | None
    skill: float
    random: bool
    seed: int | None
    depth: int | None
    rating: float | None


T = TypeVar("T")


@dataclass(frozen=True)
class Fetched(Generic[T]):
    """A cacheable answer (of a ``GET``), its entity tag, to send back as ``if_none_match``, and the
    language of its sentences for people."""

    value: T
    #: The answer's ``ETag``: strong (``"..."``), or weak (``W/"..."``) when it came compressed.
    etag: str | None
    #: The language of the answer's sentences (each move's or puzzle's ``reason``), as its
    #: ``Content-Language`` says: one of the tags :meth:`~._client.Client.languages` lists, such as
    #: ``"es"`` (``"en"`` when the language asked for is not offered); ``None`` when it does not say.
    language: str | None = None


@dataclass(frozen=True)
class NotModified:
    """``304 Not Modified``: the answer is still the one whose tag was sent as ``if_none_match``."""

    etag: str | None
