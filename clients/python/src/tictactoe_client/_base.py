"""What the sync and the async client share: everything but the I/O.

:class:`BaseClient` resolves the base URL, builds each operation's request as a :class:`Call`
and turns a response into the operation's answer or a :class:`~._errors.ServiceError`.
:class:`~._client.Client` and :class:`~._client.AsyncClient` only send the calls, each with
its own httpx client, as httpx's own ``Client`` and ``AsyncClient`` share ``BaseClient``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, get_args
from urllib.parse import quote

import httpx
from pydantic import BaseModel

from ._errors import ServiceError
from ._models import (
    AnalysisResponse,
    BatchResponse,
    BestMoveResponse,
    HealthResponse,
    LanguageList,
    Level,
    MarkedMove,
    Puzzle,
    PuzzlePage,
    ReviewResponse,
    VariantInfo,
    VariantList,
)
from ._reviews import MarkReview, TurnReview
from ._types import (
    BestMoveItem,
    BoardInput,
    Fetched,
    MarkVariant,
    NotModified,
    Player,
    PuzzleOutcome,
    ReviewMove,
    Theme,
    TurnVariant,
    Variant,
)
from ._version import __version__

__all__ = ["DEFAULT_RETRIES", "DEFAULT_TIMEOUT", "DEFAULT_URL", "URL_VARIABLE", "BaseClient", "Call"]

#: Where the service is when neither the ``base_url`` argument nor :data:`URL_VARIABLE` says.
DEFAULT_URL = "http://127.0.0.1:8000"
#: The environment variable that gives the base URL when the program does not.
URL_VARIABLE = "TICTACTOE_URL"
#: Seconds to wait for each step of a request (connect, send, each read), and attempts to connect.
DEFAULT_TIMEOUT = 5.0
DEFAULT_RETRIES = 2

ModelT = TypeVar("ModelT", bound=BaseModel)
AnswerT = TypeVar("AnswerT")


def path_segment(value: str) -> str:
    """``value`` as one segment of a path: every reserved character escaped, and ``.`` and ``..``
    too, which URL resolution would otherwise take as this folder and the one above it."""
    segment = quote(value, safe="")
    return segment.replace(".", "%2E") if segment in (".", "..") else segment


@dataclass(frozen=True)
class Call(Generic[AnswerT]):
    """One request of an operation, and how its response becomes the answer."""

    method: str
    path: str
    parse: Callable[[httpx.Response], AnswerT]
    params: Mapping[str, str] | None = None
    json: Any = None
    headers: Mapping[str, str] | None = None


def board_json(board: BoardInput) -> str | list[Any]:
    """A board as JSON: a string as it is, any sequence of cells or rows as lists."""
    if isinstance(board, str):
        return board
    return [cell if cell is None or isinstance(cell, str) else list(cell) for cell in board]


def move_json(move: ReviewMove, index: int) -> int | dict[str, Any]:
    """A review's move as JSON: a cell as it is, a move with its mark (a ``(cell, mark)`` pair or a
    :class:`MarkedMove`) as the API's object; ``TypeError`` naming its index for a pair of another
    length."""
    if isinstance(move, MarkedMove):
        return move.model_dump(mode="json")
    if isinstance(move, tuple):
        if len(move) != 2:
            raise TypeError(
                f"moves[{index}]: a move with its mark is a (cell, mark) pair, such as (4, 'X'); got {move!r}"
            )
        position, mark = move
        return {"position": position, "mark": mark}
    return move


#: The variants of each kind of review, as the client tells them apart at run time.
MARK_VARIANTS: frozenset[str] = frozenset(get_args(MarkVariant))
TURN_VARIANTS: frozenset[str] = frozenset(get_args(TurnVariant))


def review_model(variant: Variant | None) -> type[ReviewResponse]:
    """The model of a review in ``variant``: :class:`MarkReview` where the sides are X and O (the
    standard game when ``None``), :class:`TurnReview` where they are first and second, and the
    generated :class:`ReviewResponse`, whose sides are either, for a variant this client does not
    know."""
    if variant is None or variant in MARK_VARIANTS:
        return MarkReview
    if variant in TURN_VARIANTS:
        return TurnReview
    return ReviewResponse


def parse(response: httpx.Response, model: type[ModelT]) -> ModelT:
    """The answer of a successful response, as ``model``; :class:`ServiceError` for any other."""
    if not response.is_success:
        raise ServiceError(response)
    return model.model_validate_json(response.content)


def parse_cacheable(
    response: httpx.Response, model: type[ModelT], conditional: bool
) -> Fetched[ModelT] | NotModified:
    """The answer with its entity tag and language, or :class:`NotModified` for a 304 to a
    conditional request."""
    etag = response.headers.get("etag")
    if conditional and response.status_code == httpx.codes.NOT_MODIFIED:
        return NotModified(etag)
    return Fetched(parse(response, model), etag, response.headers.get("content-language"))


def query(**params: object) -> dict[str, str]:
    """The query of a ``GET``: the parameters that are not ``None``, as text."""
    return {name: str(value) for name, value in params.items() if value is not None}


def conditional(if_none_match: str | None) -> dict[str, str] | None:
    """The header of a conditional request, when there is a tag to send."""
    return None if if_none_match is None else {"If-None-Match": if_none_match}


def with_lang(body: dict[str, Any], lang: str | None) -> dict[str, Any]:
    """A ``POST`` body with its ``lang`` member, when there is a language to ask for."""
    if lang is not None:
        body["lang"] = lang
    return body


class BaseClient:
    """The state and the non-I/O code of :class:`Client` and :class:`AsyncClient`."""

    def __init__(self, base_url: str | None, lang: str | None = None) -> None:
        #: The service's URL: the argument, else the ``TICTACTOE_URL`` environment variable, else
        #: ``http://127.0.0.1:8000``.
        self.base_url = base_url or os.environ.get(URL_VARIABLE) or DEFAULT_URL
        #: The language of the answers' sentences for people, a BCP 47 tag (``"es"``, ``"pt-BR"``),
        #: sent as ``lang`` with every request that answers sentences unless the call gives its own;
        #: ``None`` sends none, and the service chooses (by ``Accept-Language``, else English).
        self.lang = lang

    def __repr__(self) -> str:
        lang = "" if self.lang is None else f", lang={self.lang!r}"
        return f"{type(self).__name__}({self.base_url!r}{lang})"

    @staticmethod
    def _headers(headers: Mapping[str, str] | None) -> dict[str, str]:
        return {"User-Agent": f"tictactoe-client/{__version__}", **(headers or {})}

    def _lang(self, lang: str | None) -> str | None:
        """The language of one call: its own ``lang``, else the client's."""
        return self.lang if lang is None else lang

    # --- one Call per operation --------------------------------------------------------------------

    def _best_move_call(
        self,
        board: BoardInput,
        player: Player | None,
        *,
        variant: Variant | None,
        level: Level | None,
        skill: float | None,
        random: bool | None,
        seed: int | None,
        depth: int | None,
        rating: float | None,
        lang: str | None,
    ) -> Call[BestMoveResponse]:
        body: dict[str, Any] = {"board": board_json(board)}
        options = {
            "variant": variant,
            "player": player,
            "level": level,
            "skill": skill,
            "random": random,
            "seed": seed,
            "depth": depth,
            "rating": rating,
            "lang": self._lang(lang),
        }
        body.update({name: value for name, value in options.items() if value is not None})
        return Call("POST", "/v1/best-move", lambda response: parse(response, BestMoveResponse), json=body)

    def _get_best_move_call(
        self,
        board: str,
        player: Player | None,
        variant: Variant | None,
        if_none_match: str | None,
        lang: str | None,
    ) -> Call[Fetched[BestMoveResponse] | NotModified]:
        params = query(board=board, variant=variant, player=player, lang=self._lang(lang))
        return Call(
            "GET",
            "/v1/best-move",
            lambda response: parse_cacheable(response, BestMoveResponse, if_none_match is not None),
            params=params,
            headers=conditional(if_none_match),
        )

    def _batch_call(self, items: Sequence[BestMoveItem], lang: str | None) -> Call[list[BestMoveResponse]]:
        # The language is the batch's, a member of its body beside the items, never of an item.
        items_json = [{**item, "board": board_json(item["board"])} for item in items]
        body = with_lang({"items": items_json}, self._lang(lang))
        return Call(
            "POST", "/v1/best-move/batch", lambda response: parse(response, BatchResponse).results, json=body
        )

    def _position_call(
        self,
        board: str,
        player: Player | None,
        variant: Variant | None,
        if_none_match: str | None,
        lang: str | None,
    ) -> Call[Fetched[AnalysisResponse] | NotModified]:
        params = query(variant=variant, player=player, lang=self._lang(lang))
        return Call(
            "GET",
            f"/v1/positions/{path_segment(board)}",
            lambda response: parse_cacheable(response, AnalysisResponse, if_none_match is not None),
            params=params or None,
            headers=conditional(if_none_match),
        )

    def _analyze_call(
        self, board: BoardInput, player: Player | None, variant: Variant | None, lang: str | None
    ) -> Call[AnalysisResponse]:
        body: dict[str, Any] = {"board": board_json(board)}
        if variant is not None:
            body["variant"] = variant
        if player is not None:
            body["player"] = player
        with_lang(body, self._lang(lang))
        return Call("POST", "/v1/analysis", lambda response: parse(response, AnalysisResponse), json=body)

    def _review_call(
        self,
        moves: Sequence[ReviewMove],
        board: BoardInput | None,
        player: Player | None,
        variant: Variant | None,
        lang: str | None,
    ) -> Call[ReviewResponse]:
        body: dict[str, Any] = {"moves": [move_json(move, index) for index, move in enumerate(moves)]}
        if variant is not None:
            body["variant"] = variant
        if board is not None:
            body["board"] = board_json(board)
        if player is not None:
            body["player"] = player
        with_lang(body, self._lang(lang))
        model = review_model(variant)
        return Call("POST", "/v1/review", lambda response: parse(response, model), json=body)

    def _puzzles_call(
        self,
        *,
        variant: Variant | None,
        theme: Theme | None,
        outcome: PuzzleOutcome | None,
        min_rating: int | None,
        max_rating: int | None,
        limit: int | None,
        cursor: str | None,
        if_none_match: str | None,
        lang: str | None,
    ) -> Call[Fetched[PuzzlePage] | NotModified]:
        params = query(
            variant=variant,
            theme=theme,
            outcome=outcome,
            min_rating=min_rating,
            max_rating=max_rating,
            limit=limit,
            cursor=cursor,
            lang=self._lang(lang),
        )
        return Call(
            "GET",
            "/v1/puzzles",
            lambda response: parse_cacheable(response, PuzzlePage, if_none_match is not None),
            params=params,
            headers=conditional(if_none_match),
        )

    def _puzzle_call(
        self, puzzle_id: str, if_none_match: str | None, lang: str | None
    ) -> Call[Fetched[Puzzle] | NotModified]:
        return Call(
            "GET",
            f"/v1/puzzles/{path_segment(puzzle_id)}",
            lambda response: parse_cacheable(response, Puzzle, if_none_match is not None),
            params=query(lang=self._lang(lang)) or None,
            headers=conditional(if_none_match),
        )

    def _random_puzzle_call(
        self,
        *,
        seed: int | None,
        variant: Variant | None,
        theme: Theme | None,
        min_rating: int | None,
        max_rating: int | None,
        if_none_match: str | None,
        lang: str | None,
    ) -> Call[Fetched[Puzzle] | NotModified]:
        return Call(
            "GET",
            "/v1/puzzles/random",
            lambda response: parse_cacheable(response, Puzzle, if_none_match is not None),
            params=query(
                variant=variant,
                seed=seed,
                theme=theme,
                min_rating=min_rating,
                max_rating=max_rating,
                lang=self._lang(lang),
            ),
            headers=conditional(if_none_match),
        )

    def _variants_call(self, lang: str | None) -> Call[list[VariantInfo]]:
        return Call(
            "GET",
            "/v1/variants",
            lambda response: parse(response, VariantList).variants,
            params=query(lang=self._lang(lang)) or None,
        )

    @staticmethod
    def _languages_call() -> Call[LanguageList]:
        # No lang: the list is the same in every language (each one's name is in itself).
        return Call("GET", "/v1/languages", lambda response: parse(response, LanguageList))

    @staticmethod
    def _health_call() -> Call[HealthResponse]:
        return Call("GET", "/health", lambda response: parse(response, HealthResponse))
