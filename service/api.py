"""Routes of API v1 and the health check: HTTP in, domain lookups, JSON out."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Path, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import PlainTextResponse
from prometheus_client import generate_latest

from . import examples
from .board import Board, BoardError, Mark, Position
from .models import (
    AnalysisRequest,
    AnalysisResponse,
    BatchRequest,
    BatchResponse,
    BestMoveQuery,
    BestMoveRequest,
    BestMoveResponse,
    HealthResponse,
    PlayerQuery,
    Problem,
)
from .strict_json import StrictJSONRoute
from .views import Document, Documents

JSON = "application/json"
CACHE_CONTROL = "public, max-age=86400"
NO_STORE = {"Cache-Control": "no-store"}

router = APIRouter(route_class=StrictJSONRoute)


async def documents(request: Request) -> Documents:
    """The app's rendered answers."""
    docs: Documents = request.app.state.documents
    return docs


DocumentsDep = Annotated[Documents, Depends(documents)]


def problem_responses(*codes: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI entries for the error responses of an operation."""
    return {
        code: {
            "model": Problem,
            "description": examples.PROBLEMS[code][0],
            "content": {"application/problem+json": {"example": examples.PROBLEMS[code][1]}},
        }
        for code in codes
    }


NOT_MODIFIED: dict[int | str, dict[str, Any]] = {
    304: {"description": "Not modified: the `ETag` in `If-None-Match` is current."}
}


def _cached(request: Request, document: Document) -> Response:
    """A cacheable answer: ``304`` when the client already holds this entity."""
    headers = {"ETag": document.etag, "Cache-Control": CACHE_CONTROL}
    if _matches(request.headers.get("if-none-match"), document.etag):
        return Response(status_code=304, headers=headers)
    return Response(document.body, media_type=JSON, headers=headers)


def _matches(if_none_match: str | None, etag: str) -> bool:
    """RFC 9110 weak comparison of ``If-None-Match`` against ``etag``."""
    if not if_none_match:
        return False
    for candidate in if_none_match.split(","):
        tag = candidate.strip()
        if tag == "*" or tag.removeprefix("W/") == etag:
            return True
    return False


def _resolve(text: str, player: Mark | None, board_loc: tuple[str, ...], playable: bool) -> Position:
    """The position a path or query names, or ``422`` naming what is wrong."""
    try:
        position = Position.resolve(Board.parse(text), player)
    except BoardError as error:
        loc = ("query", "player") if error.field == "player" else board_loc
        raise RequestValidationError([{"type": error.code, "loc": loc, "msg": error.message}]) from None
    if playable and position.to_move is None:
        status = position.status.value
        raise RequestValidationError(
            [
                {
                    "type": "game_over",
                    "loc": board_loc,
                    "msg": f"the game is over ({status}): there is no move to make",
                    "ctx": {"status": status},
                }
            ]
        )
    return position


BEST_MOVE_DESCRIPTION = """\
Returns the move to play on `board` for the side to move, with its value.

With default options the move is always optimal, chosen in this order: the
best `score`; a win in the fewest plies or a loss in the most; the move that
leaves the opponent the most mistakes; the lowest cell index. Values are from
the side to move: `score` 1 win, 0 draw, -1 loss; `plies_to_end` counts the
moves left under perfect play, this one included.

The board may be a 9-character string, an array of 9 cells or 3 rows of 3.
`player` is needed only when both sides have as many marks (X moves first by
default). A finished board gets `422` with type `/problems/game-over`.
"""

OPTIONS_DESCRIPTION = """
Options for front ends: `random: true` breaks the ties between optimal moves
at random; `skill` (0 to 1) plays a uniformly random legal move with
probability `1 - skill`, a difficulty slider; `seed` makes the random choices
reproducible. `optimal` is `false` when the returned move is not one of the
optimal moves, and `score`, `outcome` and `plies_to_end` always describe the
returned move. Answers that involve randomness carry `Cache-Control: no-store`.
"""


def ok(example: dict[str, Any]) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI entry of a ``200`` answer with its example."""
    return {200: {"content": {JSON: {"example": example}}}}


@router.post(
    "/v1/best-move",
    tags=["moves"],
    summary="Best move for a board",
    description=BEST_MOVE_DESCRIPTION + OPTIONS_DESCRIPTION,
    response_model=BestMoveResponse,
    responses=ok(examples.BEST_MOVE_RESPONSE) | problem_responses(400, 413, 415, 422),
)
async def post_best_move(
    body: Annotated[BestMoveRequest, Body(openapi_examples=examples.BEST_MOVE_REQUESTS)],
    docs: DocumentsDep,
) -> Response:
    options = body.options
    headers = None if options.deterministic else NO_STORE
    return Response(docs.best_move_with(body.position, options), media_type=JSON, headers=headers)


@router.post(
    "/v1/best-move/batch",
    tags=["moves"],
    summary="Best moves for many boards",
    description="Answers 1 to 1,000 best-move requests, each with its own board and options, "
    "in one round trip. `results` are in the order of `items`. One invalid item fails the whole "
    "request with `422`, and the location of each error starts with `body`, `items` and the "
    "index of the item.",
    response_model=BatchResponse,
    responses=ok(examples.BATCH_RESPONSE) | problem_responses(400, 413, 415, 422),
)
async def post_best_move_batch(
    body: Annotated[BatchRequest, Body(openapi_examples=examples.BATCH_REQUESTS)],
    docs: DocumentsDep,
) -> Response:
    requests = [(item.position, item.options) for item in body.items]
    deterministic = all(options.deterministic for _, options in requests)
    return Response(docs.batch(requests), media_type=JSON, headers=None if deterministic else NO_STORE)


@router.get(
    "/v1/best-move",
    tags=["moves"],
    summary="Best move for a board (cacheable)",
    description=BEST_MOVE_DESCRIPTION
    + "\nThe same answer as `POST /v1/best-move` with default options (no randomness), for a board in "
    "string form. Cacheable: `Cache-Control: public, max-age=86400` and a strong `ETag`; "
    "a matching `If-None-Match` gets `304`.",
    response_model=BestMoveResponse,
    responses=ok(examples.BEST_MOVE_QUERY_RESPONSE) | NOT_MODIFIED | problem_responses(422),
)
async def get_best_move(
    request: Request, query: Annotated[BestMoveQuery, Query()], docs: DocumentsDep
) -> Response:
    position = _resolve(query.board, query.player, ("query", "board"), playable=True)
    return _cached(request, docs.best_move(position))


ANALYSIS_DESCRIPTION = """\
Returns everything about a position: its `status`, `winner` and
`winning_lines`; for an unfinished board the side to move (`player`), the
value of the position (`score`, `outcome`, `plies_to_end`), every legal move
with its value, best first, the optimal cells (`best_moves`), and the
`principal_variation`: the rest of the game under perfect play.

A finished board is valid here: it gets its status, winner and lines, and no
moves.
"""


@router.get(
    "/v1/positions/{board}",
    tags=["analysis"],
    summary="Analysis of a board (cacheable)",
    description=ANALYSIS_DESCRIPTION
    + "\nThe board is a 9-character string in the path (URL-encode a space as `%20`). "
    "Cacheable: `Cache-Control: public, max-age=86400` and a strong `ETag`; a matching "
    "`If-None-Match` gets `304`.",
    response_model=AnalysisResponse,
    responses=ok(examples.ANALYSIS_RESPONSE) | NOT_MODIFIED | problem_responses(404, 422),
)
async def get_position(
    request: Request,
    board: Annotated[
        str,
        Path(
            description="The board: 9 characters, X or O for a mark and '.', '-', '_' or a space "
            "for an empty cell.",
            examples=[examples.ANALYSIS_BOARD],
        ),
    ],
    query: Annotated[PlayerQuery, Query()],
    docs: DocumentsDep,
) -> Response:
    position = _resolve(board, query.player, ("path", "board"), playable=False)
    return _cached(request, docs.analysis(position))


@router.post(
    "/v1/analysis",
    tags=["analysis"],
    summary="Analysis of a board",
    description=ANALYSIS_DESCRIPTION + "\nThe board may be in any of the three forms.",
    response_model=AnalysisResponse,
    responses=ok(examples.ANALYSIS_RESPONSE) | problem_responses(400, 413, 415, 422),
)
async def post_analysis(
    body: Annotated[
        AnalysisRequest,
        Body(openapi_examples=examples.ANALYSIS_REQUESTS),
    ],
    docs: DocumentsDep,
) -> Response:
    return Response(docs.analysis(body.position).body, media_type=JSON)


PROMETHEUS = "text/plain; version=0.0.4; charset=utf-8"


@router.get(
    "/metrics",
    tags=["service"],
    summary="Prometheus metrics",
    description="Metrics in the Prometheus text format: requests by route, method and status "
    "(`tictactoe_http_requests_total`), a latency histogram "
    "(`tictactoe_http_request_duration_seconds`), the size of the solved table "
    "(`tictactoe_solved_positions`), the solve time, and build information "
    "(`tictactoe_build_info`). Each worker process counts its own requests.",
    response_class=PlainTextResponse,
    responses={
        200: {
            "content": {
                PROMETHEUS: {
                    "schema": {"type": "string"},
                    "example": "# HELP tictactoe_solved_positions Legal boards in the solved table.\n"
                    "# TYPE tictactoe_solved_positions gauge\ntictactoe_solved_positions 8533.0\n",
                }
            }
        }
    },
)
async def metrics(request: Request) -> Response:
    registry = request.app.state.metrics.registry
    return Response(generate_latest(registry), media_type=PROMETHEUS, headers=NO_STORE)


@router.get(
    "/health",
    tags=["service"],
    summary="Health check",
    description="`200` once the solved table is ready, with the service version and the "
    "number of legal boards in the table. Never cached.",
    response_model=HealthResponse,
)
async def health(request: Request, docs: DocumentsDep) -> Response:
    body = HealthResponse(status="ok", version=request.app.version, positions=docs.game.boards)
    return Response(body.model_dump_json(), media_type=JSON, headers=NO_STORE)
