"""The types of what a program gives the client: marks, boards, batch items, puzzle filters; and of
cacheable answers.

The answers themselves are the generated models of :mod:`._models`. These input types are
written by hand, because they are wider than the schemas (a board may be any sequence, not only
a list); a test checks them against the OpenAPI document's ``BestMoveRequest`` schema.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, Literal, Required, TypedDict, TypeVar

from ._models import Level

__all__ = ["BestMoveItem", "BoardInput", "Fetched", "Mark", "NotModified", "PuzzleOutcome", "Theme"]

#: A side: the request's ``player``, and every answer's marks.
Mark = Literal["X", "O"]

#: A puzzle's theme, the ``theme`` filter of the puzzle queries: what its solution does.
Theme = Literal["win", "block", "fork", "threat", "block_fork"]

#: What a puzzle's solution keeps, the ``outcome`` filter of :meth:`~._client.Client.puzzles`.
PuzzleOutcome = Literal["win", "draw"]

#: A board in any of the three request forms: a string of 9 characters (``"X.O...X.."``), a
#: sequence of 9 cells, or a sequence of 3 rows of 3 cells. A cell is ``"X"`` or ``"O"`` (either
#: case), or empty as ``None``, ``""``, ``" "``, ``"."``, ``"-"`` or ``"_"``. (Written as one
#: sequence of cells or rows, so that mypy takes a literal such as ``[["X", None, "O"], ["", "",
#: ""], ...]``, whose rows differ in type; the service checks the shape.)
BoardInput = str | Sequence[str | Sequence[str | None] | None]


class BestMoveItem(TypedDict, total=False):
    """One request of a batch: the body of ``POST /v1/best-move``. Only ``board`` is required.

    ``level`` stands for a ``depth`` and a ``skill`` of its own, so the service refuses it beside
    either of them; ``rating`` (0 to 493, an opponent of that Elo strength) refuses all three.
    """

    board: Required[BoardInput]
    player: Mark | None
    level: Level | None
    skill: float
    random: bool
    seed: int | None
    depth: int | None
    rating: float | None


T = TypeVar("T")


@dataclass(frozen=True)
class Fetched(Generic[T]):
    """A cacheable answer (of a ``GET``) and its entity tag, to send back as ``if_none_match``."""

    value: T
    #: The answer's ``ETag``: strong (``"..."``), or weak (``W/"..."``) when it came compressed.
    etag: str | None


@dataclass(frozen=True)
class NotModified:
    """``304 Not Modified``: the answer is still the one whose tag was sent as ``if_none_match``."""

    etag: str | None
