"""A typed Python client of the best-move service, sync and async.

>>> from service.client import Client
>>> with Client("http://127.0.0.1:8000") as client:
...     client.best_move("X........").position
4

Answers are the service's own Pydantic models. Every error answer of the
service raises :class:`ServiceError`, which carries the problem details.
Connection errors are retried (``retries``, default 2) and every request has a
timeout (``timeout`` seconds, default 5).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import TracebackType
from typing import Any, Self, TypeVar

import httpx
from pydantic import BaseModel

from ..game import Mark
from ..schemas import AnalysisResponse, BatchResponse, BestMoveResponse, HealthResponse, Problem

__all__ = ["AsyncClient", "BoardInput", "Client", "ServiceError"]

#: A board in any of the three request forms.
BoardInput = str | Sequence[str | None] | Sequence[Sequence[str | None]]

ModelT = TypeVar("ModelT", bound=BaseModel)

DEFAULT_URL = "http://127.0.0.1:8000"


class ServiceError(Exception):
    """An error answer of the service, with its problem details (RFC 9457)."""

    def __init__(self, status: int, problem: Problem) -> None:
        super().__init__(f"{status} {problem.title}: {problem.detail}")
        self.status = status
        self.problem = problem


def best_move_body(
    board: BoardInput,
    player: Mark | None = None,
    *,
    skill: float | None = None,
    random: bool | None = None,
    seed: int | None = None,
    depth: int | None = None,
    level: str | None = None,
) -> dict[str, Any]:
    """The JSON body of a best-move request; options left ``None`` are not sent."""
    body: dict[str, Any] = {"board": board}
    options = (
        ("player", player),
        ("level", level),
        ("skill", skill),
        ("random", random),
        ("seed", seed),
        ("depth", depth),
    )
    for name, value in options:
        if value is not None:
            body[name] = value
    return body


def _parse(response: httpx.Response, model: type[ModelT]) -> ModelT:
    if response.is_success:
        return model.model_validate_json(response.content)
    try:
        problem = Problem.model_validate_json(response.content)
    except ValueError:
        problem = Problem(
            type="about:blank",
            title=response.reason_phrase or "Error",
            status=response.status_code,
            detail=response.text[:500],
        )
    raise ServiceError(response.status_code, problem)


class Client:
    """Synchronous client. Use as a context manager, or call :meth:`close`."""

    def __init__(
        self,
        base_url: str = DEFAULT_URL,
        *,
        timeout: float = 5.0,
        retries: int = 2,
        transport: httpx.BaseTransport | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        self._http = httpx.Client(
            base_url=base_url,
            timeout=timeout,
            transport=transport or httpx.HTTPTransport(retries=retries),
            headers=headers,
        )

    def best_move(
        self,
        board: BoardInput,
        player: Mark | None = None,
        *,
        skill: float | None = None,
        random: bool | None = None,
        seed: int | None = None,
        depth: int | None = None,
        level: str | None = None,
    ) -> BestMoveResponse:
        """The move to play on ``board`` (``POST /v1/best-move``).

        ``level`` is a difficulty level (a :class:`~service.game.Level` or its name, such as
        ``"medium"``); it is not sent together with ``skill`` or ``depth``.
        """
        body = best_move_body(board, player, skill=skill, random=random, seed=seed, depth=depth, level=level)
        return _parse(self._http.post("/v1/best-move", json=body), BestMoveResponse)

    def analyze(self, board: BoardInput, player: Mark | None = None) -> AnalysisResponse:
        """Everything about a position (``POST /v1/analysis``)."""
        return _parse(self._http.post("/v1/analysis", json=best_move_body(board, player)), AnalysisResponse)

    def batch(self, items: Sequence[Mapping[str, Any]]) -> list[BestMoveResponse]:
        """Many best-move requests in one round trip; ``items`` are bodies as :func:`best_move_body` makes."""
        response = self._http.post("/v1/best-move/batch", json={"items": list(items)})
        return _parse(response, BatchResponse).results

    def health(self) -> HealthResponse:
        """The service's health (``GET /health``)."""
        return _parse(self._http.get("/health"), HealthResponse)

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()


class AsyncClient:
    """Asynchronous client. Use as an async context manager, or await :meth:`aclose`."""

    def __init__(
        self,
        base_url: str = DEFAULT_URL,
        *,
        timeout: float = 5.0,
        retries: int = 2,
        transport: httpx.AsyncBaseTransport | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        self._http = httpx.AsyncClient(
            base_url=base_url,
            timeout=timeout,
            transport=transport or httpx.AsyncHTTPTransport(retries=retries),
            headers=headers,
        )

    async def best_move(
        self,
        board: BoardInput,
        player: Mark | None = None,
        *,
        skill: float | None = None,
        random: bool | None = None,
        seed: int | None = None,
        depth: int | None = None,
        level: str | None = None,
    ) -> BestMoveResponse:
        """The move to play on ``board`` (``POST /v1/best-move``).

        ``level`` is a difficulty level (a :class:`~service.game.Level` or its name, such as
        ``"medium"``); it is not sent together with ``skill`` or ``depth``.
        """
        body = best_move_body(board, player, skill=skill, random=random, seed=seed, depth=depth, level=level)
        return _parse(await self._http.post("/v1/best-move", json=body), BestMoveResponse)

    async def analyze(self, board: BoardInput, player: Mark | None = None) -> AnalysisResponse:
        """Everything about a position (``POST /v1/analysis``)."""
        response = await self._http.post("/v1/analysis", json=best_move_body(board, player))
        return _parse(response, AnalysisResponse)

    async def batch(self, items: Sequence[Mapping[str, Any]]) -> list[BestMoveResponse]:
        """Many best-move requests in one round trip; ``items`` are bodies as :func:`best_move_body` makes."""
        response = await self._http.post("/v1/best-move/batch", json={"items": list(items)})
        return _parse(response, BatchResponse).results

    async def health(self) -> HealthResponse:
        """The service's health (``GET /health``)."""
        return _parse(await self._http.get("/health"), HealthResponse)

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        await self.aclose()
