"""A typed Python client of the tic-tac-toe best-move service, sync and async.

>>> from tictactoe_client import Client
>>> with Client() as client:  # TICTACTOE_URL, or http://127.0.0.1:8000
...     client.best_move("X........").position
4

It needs only httpx and pydantic, and imports nothing else. Answers are Pydantic models
generated from the service's OpenAPI document (:class:`BestMoveResponse`,
:class:`AnalysisResponse`, :class:`ReviewResponse`, :class:`PuzzlePage`, :class:`Puzzle`,
:class:`HealthResponse`, :class:`VariantInfo`, :class:`LanguageList`). A review is typed by its
variant: in the standard game, misère, 4×4 and 4×4-3 (:data:`MarkVariant`) a :class:`MarkReview`,
whose ``players`` is :class:`Sides` (``X``, ``O``), in wild and Notakto (:data:`TurnVariant`) a
:class:`TurnReview`, whose ``players`` is :class:`TurnSides` (``first``, ``second``), and a
:class:`ReviewResponse`, either, for a variant known only as a :data:`Variant`; in wild its moves
name their mark, as a ``(cell, mark)`` pair or a :class:`MarkedMove` (:data:`ReviewMove`).
The sentences for people come in the language of ``lang``, a BCP 47 tag given to the client
(``Client(lang="es")``) or to one call (``client.best_move("X........", lang="fr")``); the
languages offered are ``client.languages()``.
Every error answer raises :class:`ServiceError` with its problem details; a service that
cannot be reached or does not answer in time raises httpx's ``TransportError``
(``ConnectError``, ``TimeoutException``). ``help(Client)`` tells the rest.
"""

from ._base import DEFAULT_URL, URL_VARIABLE
from ._client import AsyncClient, Client
from ._errors import ServiceError
from ._models import (
    AnalysisResponse,
    BestMoveResponse,
    ErrorDetail,
    HealthResponse,
    Judgement,
    Judgements,
    LanguageInfo,
    LanguageList,
    Level,
    MarkedMove,
    Move,
    MoveInfo,
    PlyReview,
    Problem,
    Puzzle,
    PuzzlePage,
    ReviewResponse,
    SideReview,
    Sides,
    Status,
    TurnSides,
    VariantInfo,
    VariantList,
    VariantStart,
)
from ._reviews import MarkPlyReview, MarkReview, MarkStatus, TurnPlyReview, TurnReview, TurnStatus
from ._types import (
    BestMoveItem,
    BoardInput,
    Fetched,
    Mark,
    MarkVariant,
    NotModified,
    Player,
    PuzzleOutcome,
    ReviewMove,
    Theme,
    Turn,
    TurnVariant,
    Variant,
)
from ._version import __version__

__all__ = [
    "DEFAULT_URL",
    "URL_VARIABLE",
    "AnalysisResponse",
    "AsyncClient",
    "BestMoveItem",
    "BestMoveResponse",
    "BoardInput",
    "Client",
    "ErrorDetail",
    "Fetched",
    "HealthResponse",
    "Judgement",
    "Judgements",
    "LanguageInfo",
    "LanguageList",
    "Level",
    "Mark",
    "MarkPlyReview",
    "MarkReview",
    "MarkStatus",
    "MarkVariant",
    "MarkedMove",
    "Move",
    "MoveInfo",
    "NotModified",
    "Player",
    "PlyReview",
    "Problem",
    "Puzzle",
    "PuzzleOutcome",
    "PuzzlePage",
    "ReviewMove",
    "ReviewResponse",
    "ServiceError",
    "SideReview",
    "Sides",
    "Status",
    "Theme",
    "Turn",
    "TurnPlyReview",
    "TurnReview",
    "TurnSides",
    "TurnStatus",
    "TurnVariant",
    "Variant",
    "VariantInfo",
    "VariantList",
    "VariantStart",
    "__version__",
]
