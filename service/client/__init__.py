"""A typed Python client of the best-move service, sync and async.

It needs only ``httpx`` and ``pydantic``: ``pip install tictactoe-service`` installs
just those, and ``pip install 'tictactoe-service[server]'`` adds the service.
"""

from ..schemas import AnalysisResponse, BestMoveResponse, HealthResponse, Problem
from ._client import AsyncClient, BoardInput, Client, ServiceError, best_move_body

__all__ = [
    "AnalysisResponse",
    "AsyncClient",
    "BestMoveResponse",
    "BoardInput",
    "Client",
    "HealthResponse",
    "Problem",
    "ServiceError",
    "best_move_body",
]
