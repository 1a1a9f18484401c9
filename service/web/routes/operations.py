"""``/health`` and ``/metrics``: what operators and orchestrators ask."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from fastapi.responses import PlainTextResponse
from prometheus_client import generate_latest

from ...game.variants import VARIANTS
from ...schemas import HealthResponse
from ..caching import NO_STORE
from ..deps import AnswersDep
from ..media import JSON
from ..openapi import ok

router = APIRouter(tags=["service"])
#: ``/metrics`` on the public port; left out when TICTACTOE_METRICS_PORT gives it a port of its own.
metrics_router = APIRouter(tags=["service"])

PROMETHEUS = "text/plain; version=0.0.4; charset=utf-8"


@router.get(
    "/health",
    operation_id="getHealth",
    summary="Health check",
    description="`200` once every variant's table is ready, with the service version, the number of "
    "legal boards of the standard game, and the variants ready. "
    "Never cached.",
    response_model=HealthResponse,
    responses=ok({"status": "ok", "version": "1.0.0", "positions": 8533, "variants": list(VARIANTS)}),
)
async def health(request: Request, answers: AnswersDep) -> Response:
    body = HealthResponse(
        status="ok",
        version=request.app.version,
        positions=answers.boards,
        variants=list(answers.variants.values),
    )
    return Response(body.model_dump_json(), media_type=JSON, headers=NO_STORE)


@metrics_router.get(
    "/metrics",
    operation_id="getMetrics",
    summary="Prometheus metrics",
    description="Metrics in the Prometheus text format: requests by route, method and status "
    "(`tictactoe_http_requests_total`), a latency histogram "
    "(`tictactoe_http_request_duration_seconds`), the size of each variant's table "
    "(`tictactoe_solved_positions`, by variant), the time the engine took to be ready, and build information "
    "(`tictactoe_build_info`), and the worker processes serving (`tictactoe_workers`). Counts are "
    "the totals of every worker process.",
    response_class=PlainTextResponse,
    responses={
        200: {
            "content": {
                PROMETHEUS: {
                    "schema": {"type": "string"},
                    "example": "# HELP tictactoe_solved_positions Unfinished positions of each variant "
                    "that its shipped table of exact values stands for.\n"
                    "# TYPE tictactoe_solved_positions gauge\n"
                    'tictactoe_solved_positions{variant="standard"} 9040.0\n',
                }
            }
        }
    },
)
async def metrics(request: Request) -> Response:
    registry = request.app.state.metrics.registry
    return Response(generate_latest(registry), media_type=PROMETHEUS, headers=NO_STORE)
