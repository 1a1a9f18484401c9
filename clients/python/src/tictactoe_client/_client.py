"""The clients: :class:`Client` (sync) and :class:`AsyncClient`, one method per operation of the API.

Both send the calls :class:`~._base.BaseClient` builds and parse the answers it parses; this
module holds only the I/O, so the two cannot drift apart.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from types import TracebackType
from typing import Self, TypeVar, overload

import httpx

from ._base import DEFAULT_RETRIES, DEFAULT_TIMEOUT, BaseClient, Call
from ._models import (
    AnalysisResponse,
    BestMoveResponse,
    HealthResponse,
    LanguageList,
    Level,
    Puzzle,
    PuzzlePage,
    ReviewResponse,
    VariantInfo,
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

__all__ = ["AsyncClient", "Client"]

AnswerT = TypeVar("AnswerT")


class Client(BaseClient):
    """A synchronous client of the tic-tac-toe best-move service.

    ``Client()`` talks to the URL in the ``TICTACTOE_URL`` environment variable, or to
    ``http://127.0.0.1:8000`` without one; ``Client("http://host:8000")`` to that URL. Use it
    as a context manager (``with Client() as client: ...``), or call :meth:`close` when done.

    Each method sends one request: :meth:`best_move` (``POST /v1/best-move``),
    :meth:`get_best_move` (``GET /v1/best-move``, cacheable), :meth:`batch`
    (``POST /v1/best-move/batch``), :meth:`position` (``GET /v1/positions/{board}``,
    cacheable), :meth:`analyze` (``POST /v1/analysis``), :meth:`review` (``POST /v1/review``),
    :meth:`puzzles` (``GET /v1/puzzles``, cacheable), :meth:`puzzle` (``GET /v1/puzzles/{id}``,
    cacheable), :meth:`random_puzzle` (``GET /v1/puzzles/random``, cacheable with a ``seed``),
    :meth:`variants` (``GET /v1/variants``), :meth:`languages` (``GET /v1/languages``) and
    :meth:`health` (``GET /health``); :meth:`iter_puzzles` follows :meth:`puzzles` page after
    page. Answers are Pydantic models generated from the service's OpenAPI document.

    Languages. The sentences for people (a move's or a puzzle's ``reason``, a review's, a variant's
    ``name`` and ``rules``, a problem's ``title``, ``detail`` and errors) come in ``en``, ``es``,
    ``fr``, ``de`` or ``pt`` (:meth:`languages`). ``lang``, a BCP 47 tag such as ``"es"`` or
    ``"pt-BR"``, asks for one: given to the client, it is sent with every request that answers
    sentences; given to a method, for that call, over the client's. It is the ``lang`` query parameter
    of a ``GET`` and the ``lang`` member of a ``POST`` body (the batch's, not its items'). Without
    either the service chooses, by an ``Accept-Language`` in ``headers``, else English; a language it
    does not offer gets English, and a malformed tag a ``ServiceError`` (``422``). Tags, ids and enum
    values (``tactics``, ``outcome``, ``judgement``) are the same in every language. A
    :class:`~tictactoe_client.Fetched` answer says its language in ``language``.

    Errors. Every method raises:

    * :class:`~tictactoe_client.ServiceError` when the service answers with an error (any
      status but 2xx, and 304 to a request that was not conditional): ``error.status`` and
      ``error.problem``, the problem details (``type``, ``title``, ``detail``, ``errors`` with
      each fault's ``loc``, ``game_status``), say what was wrong; ``error.response`` is the
      response;
    * ``httpx.TimeoutException`` (``ConnectTimeout``, ``ReadTimeout``, ``WriteTimeout``,
      ``PoolTimeout``) when the service does not answer in time: ``timeout`` seconds (default
      5) for each step of a request;
    * ``httpx.ConnectError`` and the other ``httpx.TransportError`` errors when the service cannot
      be reached; failed connections are tried again ``retries`` times first (default 2).
      ``httpx.TimeoutException`` is a ``TransportError`` too;
    * ``pydantic.ValidationError`` when a success answer is not what the API documents
      (something else answers at ``base_url``).

    ``headers`` are sent with every request; ``transport`` replaces httpx's (then ``retries``
    is the transport's business).
    """

    def __init__(
        self,
        base_url: str | None = None,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        retries: int = DEFAULT_RETRIES,
        headers: Mapping[str, str] | None = None,
        lang: str | None = None,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        super().__init__(base_url, lang)
        self._http = httpx.Client(
            base_url=self.base_url,
            timeout=timeout,
            headers=self._headers(headers),
            transport=transport or httpx.HTTPTransport(retries=retries),
        )

    def _send(self, call: Call[AnswerT]) -> AnswerT:
        response = self._http.request(
            call.method, call.path, params=call.params, json=call.json, headers=call.headers
        )
        return call.parse(response)

    def best_move(
        self,
        board: BoardInput,
        player: Player | None = None,
        *,
        variant: Variant | None = None,
        level: Level | None = None,
        skill: float | None = None,
        random: bool | None = None,
        seed: int | None = None,
        depth: int | None = None,
        rating: float | None = None,
        lang: str | None = None,
    ) -> BestMoveResponse:
        """The move to play on ``board``, its value and why (``POST /v1/best-move``).

        ``board`` is a string, a sequence of cells or a sequence of rows, of the variant's size
        (9 cells or 3 rows of 3 in the standard game, 16 or 4 rows of 4 on a 4×4 board, Notakto's
        2 or 3 boards as a string of 18 or 27); ``player`` the side to move, needed only when both
        sides have as many marks. ``variant`` names the rules (the standard game by default; see
        :meth:`variants`): in wild and Notakto ``player`` is ``"first"`` or ``"second"``. Options
        left ``None`` are not sent, and apply in every variant:
        ``level`` (``"beginner"`` to ``"perfect"``; not with ``skill`` or ``depth``), ``skill``
        (0 to 1), ``random`` (break ties at random), ``seed`` (reproducible randomness),
        ``depth`` (1 to the variant's number of cells, plies ahead), ``rating`` (an opponent of
        that Elo strength, 0 for a random player to 493 for ``"perfect"`` in the standard game;
        in a variant whose ``rated`` is false, a ``ServiceError``; not with ``level``, ``skill``
        or ``depth``).
        Raises :class:`~tictactoe_client.ServiceError` for an illegal or finished board
        (``problem.type`` ``/problems/game-over``) or a bad option.
        """
        call = self._best_move_call(
            board,
            player,
            variant=variant,
            level=level,
            skill=skill,
            random=random,
            seed=seed,
            depth=depth,
            rating=rating,
            lang=lang,
        )
        return self._send(call)

    @overload
    def get_best_move(
        self,
        board: str,
        player: Player | None = None,
        *,
        variant: Variant | None = None,
        lang: str | None = None,
    ) -> Fetched[BestMoveResponse]: ...
    @overload
    def get_best_move(
        self,
        board: str,
        player: Player | None = None,
        *,
        variant: Variant | None = None,
        if_none_match: str | None,
        lang: str | None = None,
    ) -> Fetched[BestMoveResponse] | NotModified: ...
    def get_best_move(
        self,
        board: str,
        player: Player | None = None,
        *,
        variant: Variant | None = None,
        if_none_match: str | None = None,
        lang: str | None = None,
    ) -> Fetched[BestMoveResponse] | NotModified:
        """The default move on a board string, cacheable (``GET /v1/best-move``).

        Returns :class:`~tictactoe_client.Fetched`: the answer (``value``) and its ``etag``.
        With ``if_none_match`` (an ``etag`` of an earlier answer) it may instead return
        :class:`~tictactoe_client.NotModified`: that answer still holds.
        """
        return self._send(self._get_best_move_call(board, player, variant, if_none_match, lang))

    def batch(self, items: Sequence[BestMoveItem], *, lang: str | None = None) -> list[BestMoveResponse]:
        """Many best-move requests in one round trip, answered in order (``POST /v1/best-move/batch``).

        Each item is the body of a best-move request but its language: ``{"board": "X........",
        "level": "easy"}``; ``lang`` (or the client's) is the batch's, the language of every
        answer. One invalid item fails the batch: the :class:`~tictactoe_client.ServiceError`'s
        ``errors[0].loc`` is ``["body", "items", index, field]``.
        """
        return self._send(self._batch_call(items, lang))

    @overload
    def position(
        self,
        board: str,
        player: Player | None = None,
        *,
        variant: Variant | None = None,
        lang: str | None = None,
    ) -> Fetched[AnalysisResponse]: ...
    @overload
    def position(
        self,
        board: str,
        player: Player | None = None,
        *,
        variant: Variant | None = None,
        if_none_match: str | None,
        lang: str | None = None,
    ) -> Fetched[AnalysisResponse] | NotModified: ...
    def position(
        self,
        board: str,
        player: Player | None = None,
        *,
        variant: Variant | None = None,
        if_none_match: str | None = None,
        lang: str | None = None,
    ) -> Fetched[AnalysisResponse] | NotModified:
        """Everything about a board string, cacheable (``GET /v1/positions/{board}``).

        Returns :class:`~tictactoe_client.Fetched`: the analysis (``value``) and its ``etag``.
        With ``if_none_match`` (an ``etag`` of an earlier answer) it may instead return
        :class:`~tictactoe_client.NotModified`: that answer still holds.
        """
        return self._send(self._position_call(board, player, variant, if_none_match, lang))

    def analyze(
        self,
        board: BoardInput,
        player: Player | None = None,
        *,
        variant: Variant | None = None,
        lang: str | None = None,
    ) -> AnalysisResponse:
        """Everything about a board in any form (``POST /v1/analysis``); a finished board too."""
        return self._send(self._analyze_call(board, player, variant, lang))

    @overload
    def review(
        self,
        moves: Sequence[ReviewMove],
        board: BoardInput | None = None,
        player: Player | None = None,
        *,
        variant: MarkVariant | None = None,
        lang: str | None = None,
    ) -> MarkReview: ...
    @overload
    def review(
        self,
        moves: Sequence[ReviewMove],
        board: BoardInput | None = None,
        player: Player | None = None,
        *,
        variant: TurnVariant,
        lang: str | None = None,
    ) -> TurnReview: ...
    @overload
    def review(
        self,
        moves: Sequence[ReviewMove],
        board: BoardInput | None = None,
        player: Player | None = None,
        *,
        variant: Variant | None = None,
        lang: str | None = None,
    ) -> ReviewResponse: ...
    def review(
        self,
        moves: Sequence[ReviewMove],
        board: BoardInput | None = None,
        player: Player | None = None,
        *,
        variant: Variant | None = None,
        lang: str | None = None,
    ) -> ReviewResponse:
        """A game graded move by move, as a coach would (``POST /v1/review``).

        ``moves`` are the cells played (0 to 8), in order, from ``board`` (the variant's empty
        board by default; any form, as for :meth:`best_move`) with ``player`` to move (needed only
        when both sides have as many marks). ``variant`` names the rules (the standard game by
        default): a 4×4 board's cells are 0 to 15, Notakto's 0 to 8, 17 or 26 (board ``j`` holds
        cells ``9j`` to ``9j + 8``), and in wild each move names its mark too, as a ``(cell,
        mark)`` pair such as ``(4, "O")`` or a :class:`~tictactoe_client.MarkedMove`
        (:data:`~tictactoe_client.ReviewMove`); in wild and Notakto ``player`` is ``"first"`` or
        ``"second"``. Each ply of the answer has its ``judgement`` (``"best"``, ``"inaccuracy"``,
        ``"mistake"``, ``"blunder"``), ``only_move``, ``reason`` and, when it was not best, the
        ``better`` move (in wild each with its ``mark``, in Notakto its ``grid``); ``players`` sums
        up each side (``accuracy``, ``only_moves``, the ``level`` and ``rating`` it played like,
        the rating ``None`` where the variant's levels are not calibrated).

        The answer is typed by ``variant``: without one (the standard game), and in misère, 4×4
        and 4×4-3 (:data:`~tictactoe_client.MarkVariant`), a
        :class:`~tictactoe_client.MarkReview`, whose ``players`` is a
        :class:`~tictactoe_client.Sides` (``X``, ``O``) and whose ``player``, ``winner`` and
        plies' ``player`` are marks; in wild and Notakto (:data:`~tictactoe_client.TurnVariant`),
        a :class:`~tictactoe_client.TurnReview`, with a :class:`~tictactoe_client.TurnSides`
        (``first``, ``second``) and sides named by their turn. Both are subclasses of
        :class:`~tictactoe_client.ReviewResponse`, the type of the answer when ``variant`` is only
        known as a :data:`~tictactoe_client.Variant`. A move that cannot be played, or in the wrong
        form for the variant, raises
        :class:`~tictactoe_client.ServiceError` whose ``errors[0].loc`` starts with ``["body",
        "moves", index]``; a pair that is not two items, ``TypeError`` naming its index.
        """
        return self._send(self._review_call(moves, board, player, variant, lang))

    @overload
    def puzzles(
        self,
        *,
        variant: Variant | None = None,
        theme: Theme | None = None,
        outcome: PuzzleOutcome | None = None,
        min_rating: int | None = None,
        max_rating: int | None = None,
        limit: int | None = None,
        cursor: str | None = None,
        lang: str | None = None,
    ) -> Fetched[PuzzlePage]: ...
    @overload
    def puzzles(
        self,
        *,
        variant: Variant | None = None,
        theme: Theme | None = None,
        outcome: PuzzleOutcome | None = None,
        min_rating: int | None = None,
        max_rating: int | None = None,
        limit: int | None = None,
        cursor: str | None = None,
        if_none_match: str | None,
        lang: str | None = None,
    ) -> Fetched[PuzzlePage] | NotModified: ...
    def puzzles(
        self,
        *,
        variant: Variant | None = None,
        theme: Theme | None = None,
        outcome: PuzzleOutcome | None = None,
        min_rating: int | None = None,
        max_rating: int | None = None,
        limit: int | None = None,
        cursor: str | None = None,
        if_none_match: str | None = None,
        lang: str | None = None,
    ) -> Fetched[PuzzlePage] | NotModified:
        """A page of the puzzles that match every filter given, cacheable (``GET /v1/puzzles``).

        ``variant`` names the variant's book (``None``: the service's default, the standard
        game). Filters left ``None`` are not sent: ``theme`` (one of the variant's themes, its
        ``tactics`` in :meth:`variants` but those of places: ``"win"``, ``"block"``, ``"fork"``,
        ``"threat"``, ``"block_fork"`` in the standard game), ``outcome`` (``"win"``,
        ``"draw"``), ``min_rating`` and ``max_rating`` (on the variant's own scale, 0 to its
        ``rating_max``). Pages are in order of rating, then id, ``limit`` puzzles each (1 to 100,
        default 20); the page's ``next`` is the ``cursor`` of the following one (``None`` on the
        last), and ``total`` counts every match. :meth:`iter_puzzles` follows the pages for you.

        Returns :class:`~tictactoe_client.Fetched`: the page (``value``) and its ``etag``.
        With ``if_none_match`` (an ``etag`` of an earlier answer) it may instead return
        :class:`~tictactoe_client.NotModified`: that answer still holds.
        """
        call = self._puzzles_call(
            variant=variant,
            theme=theme,
            outcome=outcome,
            min_rating=min_rating,
            max_rating=max_rating,
            limit=limit,
            cursor=cursor,
            if_none_match=if_none_match,
            lang=lang,
        )
        return self._send(call)

    def iter_puzzles(
        self,
        *,
        variant: Variant | None = None,
        theme: Theme | None = None,
        outcome: PuzzleOutcome | None = None,
        min_rating: int | None = None,
        max_rating: int | None = None,
        limit: int | None = None,
        lang: str | None = None,
    ) -> Iterator[Puzzle]:
        """Every puzzle that matches the filters, in order, a page of ``limit`` per request.

        ``variant`` and the filters are those of :meth:`puzzles`; it asks for the next page (its ``cursor``)
        only when the puzzles of the one before have all been taken.
        """
        cursor: str | None = None
        while True:
            page = self.puzzles(
                variant=variant,
                theme=theme,
                outcome=outcome,
                min_rating=min_rating,
                max_rating=max_rating,
                limit=limit,
                cursor=cursor,
                lang=lang,
            ).value
            yield from page.puzzles
            if page.next is None:
                return
            cursor = page.next

    @overload
    def puzzle(self, puzzle_id: str, *, lang: str | None = None) -> Fetched[Puzzle]: ...
    @overload
    def puzzle(
        self, puzzle_id: str, *, if_none_match: str | None, lang: str | None = None
    ) -> Fetched[Puzzle] | NotModified: ...
    def puzzle(
        self, puzzle_id: str, *, if_none_match: str | None = None, lang: str | None = None
    ) -> Fetched[Puzzle] | NotModified:
        """One puzzle by its id, cacheable (``GET /v1/puzzles/{puzzle_id}``).

        An unknown id (a board only turned or mirrored from a puzzle's too) raises
        :class:`~tictactoe_client.ServiceError` with ``status`` 404. Returns
        :class:`~tictactoe_client.Fetched`: the puzzle (``value``) and its ``etag``; with
        ``if_none_match`` it may instead return :class:`~tictactoe_client.NotModified`.
        """
        return self._send(self._puzzle_call(puzzle_id, if_none_match, lang))

    @overload
    def random_puzzle(
        self,
        seed: int | None = None,
        *,
        variant: Variant | None = None,
        theme: Theme | None = None,
        min_rating: int | None = None,
        max_rating: int | None = None,
        lang: str | None = None,
    ) -> Fetched[Puzzle]: ...
    @overload
    def random_puzzle(
        self,
        seed: int | None = None,
        *,
        variant: Variant | None = None,
        theme: Theme | None = None,
        min_rating: int | None = None,
        max_rating: int | None = None,
        if_none_match: str | None,
        lang: str | None = None,
    ) -> Fetched[Puzzle] | NotModified: ...
    def random_puzzle(
        self,
        seed: int | None = None,
        *,
        variant: Variant | None = None,
        theme: Theme | None = None,
        min_rating: int | None = None,
        max_rating: int | None = None,
        if_none_match: str | None = None,
        lang: str | None = None,
    ) -> Fetched[Puzzle] | NotModified:
        """A puzzle drawn at random among those that match the filters (``GET /v1/puzzles/random``).

        ``variant`` and the filters are those of :meth:`puzzles` but ``outcome``. With ``seed`` the draw is
        reproducible and the answer cacheable: :class:`~tictactoe_client.Fetched` has its
        ``etag``, and ``if_none_match`` may get :class:`~tictactoe_client.NotModified`; without
        one each call draws anew and ``etag`` is ``None``. No match raises
        :class:`~tictactoe_client.ServiceError` with ``status`` 404.
        """
        call = self._random_puzzle_call(
            seed=seed,
            variant=variant,
            theme=theme,
            min_rating=min_rating,
            max_rating=max_rating,
            if_none_match=if_none_match,
            lang=lang,
        )
        return self._send(call)

    def variants(self, *, lang: str | None = None) -> list[VariantInfo]:
        """Every rule variant the service solves, the standard game first (``GET /v1/variants``):
        each one's ``id`` (the ``variant`` to send), ``name``, ``rules``, board (``rows``,
        ``columns``, ``boards``, ``line``), ``marks``, ``misere``, value from the empty board
        (``start``), ``positions``, ``tactics`` and whether ``rating`` applies (``rated``). Each
        one's ``name`` and ``rules`` are in the language of ``lang`` (or the client's)."""
        return self._send(self._variants_call(lang))

    def languages(self) -> LanguageList:
        """The languages the service speaks (``GET /v1/languages``): ``languages``, each a
        :class:`~tictactoe_client.LanguageInfo` with its BCP 47 ``tag`` (the ``lang`` to send) and
        its ``name`` in itself, English first; and ``default``, the language of an answer when none
        offered is asked for (``"en"``)."""
        return self._send(self._languages_call())

    def health(self) -> HealthResponse:
        """The service's health (``GET /health``): ``status`` ``"ok"``, ``version``, ``positions``."""
        return self._send(self._health_call())

    def close(self) -> None:
        """Close the connections."""
        self._http.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()


class AsyncClient(BaseClient):
    """An asynchronous client of the tic-tac-toe best-move service (asyncio or trio, through httpx).

    ``AsyncClient()`` talks to the URL in the ``TICTACTOE_URL`` environment variable, or to
    ``http://127.0.0.1:8000`` without one; ``AsyncClient("http://host:8000")`` to that URL.
    Use it as an async context manager (``async with AsyncClient() as client: ...``), or await
    :meth:`aclose` when done.

    Each method sends one request: :meth:`best_move` (``POST /v1/best-move``),
    :meth:`get_best_move` (``GET /v1/best-move``, cacheable), :meth:`batch`
    (``POST /v1/best-move/batch``), :meth:`position` (``GET /v1/positions/{board}``,
    cacheable), :meth:`analyze` (``POST /v1/analysis``), :meth:`review` (``POST /v1/review``),
    :meth:`puzzles` (``GET /v1/puzzles``, cacheable), :meth:`puzzle` (``GET /v1/puzzles/{id}``,
    cacheable), :meth:`random_puzzle` (``GET /v1/puzzles/random``, cacheable with a ``seed``),
    :meth:`variants` (``GET /v1/variants``), :meth:`languages` (``GET /v1/languages``) and
    :meth:`health` (``GET /health``); :meth:`iter_puzzles` follows :meth:`puzzles` page after
    page. Answers are Pydantic models generated from the service's OpenAPI document.

    Languages. The sentences for people (a move's or a puzzle's ``reason``, a review's, a variant's
    ``name`` and ``rules``, a problem's ``title``, ``detail`` and errors) come in ``en``, ``es``,
    ``fr``, ``de`` or ``pt`` (:meth:`languages`). ``lang``, a BCP 47 tag such as ``"es"`` or
    ``"pt-BR"``, asks for one: given to the client, it is sent with every request that answers
    sentences; given to a method, for that call, over the client's. It is the ``lang`` query parameter
    of a ``GET`` and the ``lang`` member of a ``POST`` body (the batch's, not its items'). Without
    either the service chooses, by an ``Accept-Language`` in ``headers``, else English; a language it
    does not offer gets English, and a malformed tag a ``ServiceError`` (``422``). Tags, ids and enum
    values (``tactics``, ``outcome``, ``judgement``) are the same in every language. A
    :class:`~tictactoe_client.Fetched` answer says its language in ``language``.

    Errors. Every method raises:

    * :class:`~tictactoe_client.ServiceError` when the service answers with an error (any
      status but 2xx, and 304 to a request that was not conditional): ``error.status`` and
      ``error.problem``, the problem details (``type``, ``title``, ``detail``, ``errors`` with
      each fault's ``loc``, ``game_status``), say what was wrong; ``error.response`` is the
      response;
    * ``httpx.TimeoutException`` (``ConnectTimeout``, ``ReadTimeout``, ``WriteTimeout``,
      ``PoolTimeout``) when the service does not answer in time: ``timeout`` seconds (default
      5) for each step of a request;
    * ``httpx.ConnectError`` and the other ``httpx.TransportError`` errors when the service cannot
      be reached; failed connections are tried again ``retries`` times first (default 2).
      ``httpx.TimeoutException`` is a ``TransportError`` too;
    * ``pydantic.ValidationError`` when a success answer is not what the API documents
      (something else answers at ``base_url``).

    ``headers`` are sent with every request; ``transport`` replaces httpx's (then ``retries``
    is the transport's business), such as ``httpx.ASGITransport(app=app)`` for an app in-process.
    """

    def __init__(
        self,
        base_url: str | None = None,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        retries: int = DEFAULT_RETRIES,
        headers: Mapping[str, str] | None = None,
        lang: str | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        super().__init__(base_url, lang)
        self._http = httpx.AsyncClient(
            base_url=self.base_url,
            timeout=timeout,
            headers=self._headers(headers),
            transport=transport or httpx.AsyncHTTPTransport(retries=retries),
        )

    async def _send(self, call: Call[AnswerT]) -> AnswerT:
        response = await self._http.request(
            call.method, call.path, params=call.params, json=call.json, headers=call.headers
        )
        return call.parse(response)

    async def best_move(
        self,
        board: BoardInput,
        player: Player | None = None,
        *,
        variant: Variant | None = None,
        level: Level | None = None,
        skill: float | None = None,
        random: bool | None = None,
        seed: int | None = None,
        depth: int | None = None,
        rating: float | None = None,
        lang: str | None = None,
    ) -> BestMoveResponse:
        """The move to play on ``board``, its value and why (``POST /v1/best-move``).

        ``board`` is a string, a sequence of cells or a sequence of rows, of the variant's size
        (9 cells or 3 rows of 3 in the standard game, 16 or 4 rows of 4 on a 4×4 board, Notakto's
        2 or 3 boards as a string of 18 or 27); ``player`` the side to move, needed only when both
        sides have as many marks. ``variant`` names the rules (the standard game by default; see
        :meth:`variants`): in wild and Notakto ``player`` is ``"first"`` or ``"second"``. Options
        left ``None`` are not sent, and apply in every variant:
        ``level`` (``"beginner"`` to ``"perfect"``; not with ``skill`` or ``depth``), ``skill``
        (0 to 1), ``random`` (break ties at random), ``seed`` (reproducible randomness),
        ``depth`` (1 to the variant's number of cells, plies ahead), ``rating`` (an opponent of
        that Elo strength, 0 for a random player to 493 for ``"perfect"`` in the standard game;
        in a variant whose ``rated`` is false, a ``ServiceError``; not with ``level``, ``skill``
        or ``depth``).
        Raises :class:`~tictactoe_client.ServiceError` for an illegal or finished board
        (``problem.type`` ``/problems/game-over``) or a bad option.
        """
        call = self._best_move_call(
            board,
            player,
            variant=variant,
            level=level,
            skill=skill,
            random=random,
            seed=seed,
            depth=depth,
            rating=rating,
            lang=lang,
        )
        return await self._send(call)

    @overload
    async def get_best_move(
        self,
        board: str,
        player: Player | None = None,
        *,
        variant: Variant | None = None,
        lang: str | None = None,
    ) -> Fetched[BestMoveResponse]: ...
    @overload
    async def get_best_move(
        self,
        board: str,
        player: Player | None = None,
        *,
        variant: Variant | None = None,
        if_none_match: str | None,
        lang: str | None = None,
    ) -> Fetched[BestMoveResponse] | NotModified: ...
    async def get_best_move(
        self,
        board: str,
        player: Player | None = None,
        *,
        variant: Variant | None = None,
        if_none_match: str | None = None,
        lang: str | None = None,
    ) -> Fetched[BestMoveResponse] | NotModified:
        """The default move on a board string, cacheable (``GET /v1/best-move``).

        Returns :class:`~tictactoe_client.Fetched`: the answer (``value``) and its ``etag``.
        With ``if_none_match`` (an ``etag`` of an earlier answer) it may instead return
        :class:`~tictactoe_client.NotModified`: that answer still holds.
        """
        return await self._send(self._get_best_move_call(board, player, variant, if_none_match, lang))

    async def batch(
        self, items: Sequence[BestMoveItem], *, lang: str | None = None
    ) -> list[BestMoveResponse]:
        """Many best-move requests in one round trip, answered in order (``POST /v1/best-move/batch``).

        Each item is the body of a best-move request but its language: ``{"board": "X........",
        "level": "easy"}``; ``lang`` (or the client's) is the batch's, the language of every
        answer. One invalid item fails the batch: the :class:`~tictactoe_client.ServiceError`'s
        ``errors[0].loc`` is ``["body", "items", index, field]``.
        """
        return await self._send(self._batch_call(items, lang))

    @overload
    async def position(
        self,
        board: str,
        player: Player | None = None,
        *,
        variant: Variant | None = None,
        lang: str | None = None,
    ) -> Fetched[AnalysisResponse]: ...
    @overload
    async def position(
        self,
        board: str,
        player: Player | None = None,
        *,
        variant: Variant | None = None,
        if_none_match: str | None,
        lang: str | None = None,
    ) -> Fetched[AnalysisResponse] | NotModified: ...
    async def position(
        self,
        board: str,
        player: Player | None = None,
        *,
        variant: Variant | None = None,
        if_none_match: str | None = None,
        lang: str | None = None,
    ) -> Fetched[AnalysisResponse] | NotModified:
        """Everything about a board string, cacheable (``GET /v1/positions/{board}``).

        Returns :class:`~tictactoe_client.Fetched`: the analysis (``value``) and its ``etag``.
        With ``if_none_match`` (an ``etag`` of an earlier answer) it may instead return
        :class:`~tictactoe_client.NotModified`: that answer still holds.
        """
        return await self._send(self._position_call(board, player, variant, if_none_match, lang))

    async def analyze(
        self,
        board: BoardInput,
        player: Player | None = None,
        *,
        variant: Variant | None = None,
        lang: str | None = None,
    ) -> AnalysisResponse:
        """Everything about a board in any form (``POST /v1/analysis``); a finished board too."""
        return await self._send(self._analyze_call(board, player, variant, lang))

    @overload
    async def review(
        self,
        moves: Sequence[ReviewMove],
        board: BoardInput | None = None,
        player: Player | None = None,
        *,
        variant: MarkVariant | None = None,
        lang: str | None = None,
    ) -> MarkReview: ...
    @overload
    async def review(
        self,
        moves: Sequence[ReviewMove],
        board: BoardInput | None = None,
        player: Player | None = None,
        *,
        variant: TurnVariant,
        lang: str | None = None,
    ) -> TurnReview: ...
    @overload
    async def review(
        self,
        moves: Sequence[ReviewMove],
        board: BoardInput | None = None,
        player: Player | None = None,
        *,
        variant: Variant | None = None,
        lang: str | None = None,
    ) -> ReviewResponse: ...
    async def review(
        self,
        moves: Sequence[ReviewMove],
        board: BoardInput | None = None,
        player: Player | None = None,
        *,
        variant: Variant | None = None,
        lang: str | None = None,
    ) -> ReviewResponse:
        """A game graded move by move, as a coach would (``POST /v1/review``).

        ``moves`` are the cells played (0 to 8), in order, from ``board`` (the variant's empty
        board by default; any form, as for :meth:`best_move`) with ``player`` to move (needed only
        when both sides have as many marks). ``variant`` names the rules (the standard game by
        default): a 4×4 board's cells are 0 to 15, Notakto's 0 to 8, 17 or 26 (board ``j`` holds
        cells ``9j`` to ``9j + 8``), and in wild each move names its mark too, as a ``(cell,
        mark)`` pair such as ``(4, "O")`` or a :class:`~tictactoe_client.MarkedMove`
        (:data:`~tictactoe_client.ReviewMove`); in wild and Notakto ``player`` is ``"first"`` or
        ``"second"``. Each ply of the answer has its ``judgement`` (``"best"``, ``"inaccuracy"``,
        ``"mistake"``, ``"blunder"``), ``only_move``, ``reason`` and, when it was not best, the
        ``better`` move (in wild each with its ``mark``, in Notakto its ``grid``); ``players`` sums
        up each side (``accuracy``, ``only_moves``, the ``level`` and ``rating`` it played like,
        the rating ``None`` where the variant's levels are not calibrated).

        The answer is typed by ``variant``: without one (the standard game), and in misère, 4×4
        and 4×4-3 (:data:`~tictactoe_client.MarkVariant`), a
        :class:`~tictactoe_client.MarkReview`, whose ``players`` is a
        :class:`~tictactoe_client.Sides` (``X``, ``O``) and whose ``player``, ``winner`` and
        plies' ``player`` are marks; in wild and Notakto (:data:`~tictactoe_client.TurnVariant`),
        a :class:`~tictactoe_client.TurnReview`, with a :class:`~tictactoe_client.TurnSides`
        (``first``, ``second``) and sides named by their turn. Both are subclasses of
        :class:`~tictactoe_client.ReviewResponse`, the type of the answer when ``variant`` is only
        known as a :data:`~tictactoe_client.Variant`. A move that cannot be played, or in the wrong
        form for the variant, raises
        :class:`~tictactoe_client.ServiceError` whose ``errors[0].loc`` starts with ``["body",
        "moves", index]``; a pair that is not two items, ``TypeError`` naming its index.
        """
        return await self._send(self._review_call(moves, board, player, variant, lang))

    @overload
    async def puzzles(
        self,
        *,
        variant: Variant | None = None,
        theme: Theme | None = None,
        outcome: PuzzleOutcome | None = None,
        min_rating: int | None = None,
        max_rating: int | None = None,
        limit: int | None = None,
        cursor: str | None = None,
        lang: str | None = None,
    ) -> Fetched[PuzzlePage]: ...
    @overload
    async def puzzles(
        self,
        *,
        variant: Variant | None = None,
        theme: Theme | None = None,
        outcome: PuzzleOutcome | None = None,
        min_rating: int | None = None,
        max_rating: int | None = None,
        limit: int | None = None,
        cursor: str | None = None,
        if_none_match: str | None,
        lang: str | None = None,
    ) -> Fetched[PuzzlePage] | NotModified: ...
    async def puzzles(
        self,
        *,
        variant: Variant | None = None,
        theme: Theme | None = None,
        outcome: PuzzleOutcome | None = None,
        min_rating: int | None = None,
        max_rating: int | None = None,
        limit: int | None = None,
        cursor: str | None = None,
        if_none_match: str | None = None,
        lang: str | None = None,
    ) -> Fetched[PuzzlePage] | NotModified:
        """A page of the puzzles that match every filter given, cacheable (``GET /v1/puzzles``).

        ``variant`` names the variant's book (``None``: the service's default, the standard
        game). Filters left ``None`` are not sent: ``theme`` (one of the variant's themes, its
        ``tactics`` in :meth:`variants` but those of places: ``"win"``, ``"block"``, ``"fork"``,
        ``"threat"``, ``"block_fork"`` in the standard game), ``outcome`` (``"win"``,
        ``"draw"``), ``min_rating`` and ``max_rating`` (on the variant's own scale, 0 to its
        ``rating_max``). Pages are in order of rating, then id, ``limit`` puzzles each (1 to 100,
        default 20); the page's ``next`` is the ``cursor`` of the following one (``None`` on the
        last), and ``total`` counts every match. :meth:`iter_puzzles` follows the pages for you.

        Returns :class:`~tictactoe_client.Fetched`: the page (``value``) and its ``etag``.
        With ``if_none_match`` (an ``etag`` of an earlier answer) it may instead return
        :class:`~tictactoe_client.NotModified`: that answer still holds.
        """
        call = self._puzzles_call(
            variant=variant,
            theme=theme,
            outcome=outcome,
            min_rating=min_rating,
            max_rating=max_rating,
            limit=limit,
            cursor=cursor,
            if_none_match=if_none_match,
            lang=lang,
        )
        return await self._send(call)

    async def iter_puzzles(
        self,
        *,
        variant: Variant | None = None,
        theme: Theme | None = None,
        outcome: PuzzleOutcome | None = None,
        min_rating: int | None = None,
        max_rating: int | None = None,
        limit: int | None = None,
        lang: str | None = None,
    ) -> AsyncIterator[Puzzle]:
        """Every puzzle that matches the filters, in order, a page of ``limit`` per request.

        ``variant`` and the filters are those of :meth:`puzzles`; it asks for the next page (its ``cursor``)
        only when the puzzles of the one before have all been taken.
        """
        cursor: str | None = None
        while True:
            fetched = await self.puzzles(
                variant=variant,
                theme=theme,
                outcome=outcome,
                min_rating=min_rating,
                max_rating=max_rating,
                limit=limit,
                cursor=cursor,
                lang=lang,
            )
            page = fetched.value
            for puzzle in page.puzzles:
                yield puzzle
            if page.next is None:
                return
            cursor = page.next

    @overload
    async def puzzle(self, puzzle_id: str, *, lang: str | None = None) -> Fetched[Puzzle]: ...
    @overload
    async def puzzle(
        self, puzzle_id: str, *, if_none_match: str | None, lang: str | None = None
    ) -> Fetched[Puzzle] | NotModified: ...
    async def puzzle(
        self, puzzle_id: str, *, if_none_match: str | None = None, lang: str | None = None
    ) -> Fetched[Puzzle] | NotModified:
        """One puzzle by its id, cacheable (``GET /v1/puzzles/{puzzle_id}``).

        An unknown id (a board only turned or mirrored from a puzzle's too) raises
        :class:`~tictactoe_client.ServiceError` with ``status`` 404. Returns
        :class:`~tictactoe_client.Fetched`: the puzzle (``value``) and its ``etag``; with
        ``if_none_match`` it may instead return :class:`~tictactoe_client.NotModified`.
        """
        return await self._send(self._puzzle_call(puzzle_id, if_none_match, lang))

    @overload
    async def random_puzzle(
        self,
        seed: int | None = None,
        *,
        variant: Variant | None = None,
        theme: Theme | None = None,
        min_rating: int | None = None,
        max_rating: int | None = None,
        lang: str | None = None,
    ) -> Fetched[Puzzle]: ...
    @overload
    async def random_puzzle(
        self,
        seed: int | None = None,
        *,
        variant: Variant | None = None,
        theme: Theme | None = None,
        min_rating: int | None = None,
        max_rating: int | None = None,
        if_none_match: str | None,
        lang: str | None = None,
    ) -> Fetched[Puzzle] | NotModified: ...
    async def random_puzzle(
        self,
        seed: int | None = None,
        *,
        variant: Variant | None = None,
        theme: Theme | None = None,
        min_rating: int | None = None,
        max_rating: int | None = None,
        if_none_match: str | None = None,
        lang: str | None = None,
    ) -> Fetched[Puzzle] | NotModified:
        """A puzzle drawn at random among those that match the filters (``GET /v1/puzzles/random``).

        ``variant`` and the filters are those of :meth:`puzzles` but ``outcome``. With ``seed`` the draw is
        reproducible and the answer cacheable: :class:`~tictactoe_client.Fetched` has its
        ``etag``, and ``if_none_match`` may get :class:`~tictactoe_client.NotModified`; without
        one each call draws anew and ``etag`` is ``None``. No match raises
        :class:`~tictactoe_client.ServiceError` with ``status`` 404.
        """
        call = self._random_puzzle_call(
            seed=seed,
            variant=variant,
            theme=theme,
            min_rating=min_rating,
            max_rating=max_rating,
            if_none_match=if_none_match,
            lang=lang,
        )
        return await self._send(call)

    async def variants(self, *, lang: str | None = None) -> list[VariantInfo]:
        """Every rule variant the service solves, the standard game first (``GET /v1/variants``);
        each one's ``name`` and ``rules`` in the language of ``lang`` (or the client's)."""
        return await self._send(self._variants_call(lang))

    async def languages(self) -> LanguageList:
        """The languages the service speaks (``GET /v1/languages``), English first, each with its
        ``tag`` and its ``name``; and the ``default`` one (``"en"``)."""
        return await self._send(self._languages_call())

    async def health(self) -> HealthResponse:
        """The service's health (``GET /health``): ``status`` ``"ok"``, ``version``, ``positions``."""
        return await self._send(self._health_call())

    async def aclose(self) -> None:
        """Close the connections."""
        await self._http.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        await self.aclose()
