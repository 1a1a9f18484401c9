"""Routes of API v1 and the health check: HTTP in, domain lookups, JSON out.

The handlers read their input themselves: a request that simply names a legal
position (a board string and perhaps a player) is answered by table lookups
alone; anything else goes through the Pydantic models of :mod:`service.models`,
which name every problem. The OpenAPI document describes the same models.
"""

from __future__ import annotations

import json
from typing import Any, TypeVar
from urllib.parse import parse_qsl

from fastapi import APIRouter, HTTPException, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.models import Example
from fastapi.responses import PlainTextResponse
from prometheus_client import generate_latest
from pydantic import BaseModel, ValidationError

from . import examples, strict_json
from .board import Board, BoardError, Mark, Position
from .models import (
    BOARD_STRING_SCHEMA,
    MAX_BATCH_ITEMS,
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
from .problems import is_json
from .views import Documents

JSON = "application/json"
CACHE_CONTROL = "public, max-age=86400"
NO_STORE = {"Cache-Control": "no-store"}
PLAIN_KEYS = frozenset({"board", "player"})
PLAYERS = (None, "X", "O")

#: Models whose schemas the OpenAPI document lists for the request bodies and parameters below.
REQUEST_MODELS: tuple[type[BaseModel], ...] = (BestMoveRequest, BatchRequest, AnalysisRequest)

ModelT = TypeVar("ModelT", bound=BaseModel)

router = APIRouter()


def documents(request: Request) -> Documents:
    """The app's rendered answers."""
    docs: Documents = request.app.state.documents
    return docs


# --- reading input --------------------------------------------------------------------------------


async def json_body(request: Request) -> object:
    """The body as strict JSON: ``415`` unless sent as JSON, ``400`` when malformed, ``422`` when empty."""
    body = await request.body()
    if not body:
        raise RequestValidationError(
            [{"type": "missing", "loc": ("body",), "msg": "a JSON object is required as the request body"}]
        )
    content_type = request.headers.get("content-type")
    if not is_json(content_type):
        raise HTTPException(
            415,
            "the request body must be JSON sent with Content-Type: application/json; "
            f"got {content_type or 'none'}",
        )
    try:
        return strict_json.loads(body)
    except json.JSONDecodeError as error:
        raise RequestValidationError(
            [
                {
                    "type": "json_invalid",
                    "loc": ("body", error.pos),
                    "msg": error.msg,
                    "ctx": {"error": error.msg},
                }
            ]
        ) from None


def validate(model: type[ModelT], data: object, where: str) -> ModelT:
    """``data`` validated by ``model``, or ``422`` with every problem located under ``where``."""
    try:
        return model.model_validate(data)
    except ValidationError as error:
        raise RequestValidationError(
            [{**problem, "loc": (where, *problem["loc"])} for problem in error.errors(include_url=False)]
        ) from None


def query(request: Request) -> dict[str, str]:
    """The query parameters, each at most once, or ``422`` naming a repeated one."""
    raw: bytes = request.scope["query_string"]
    if not raw:
        return {}
    items = parse_qsl(raw.decode("latin-1"), keep_blank_values=True)
    params = dict(items)
    if len(params) != len(items):
        names = [name for name, _ in items]
        raise RequestValidationError(
            [
                {
                    "type": "duplicate_parameter",
                    "loc": ("query", name),
                    "msg": f"{name} is given more than once",
                }
                for name in sorted({name for name in names if names.count(name) > 1})
            ]
        )
    return params


def plain(data: object) -> tuple[str, Mark | None] | None:
    """``(board, player)`` of input that is only a board string and perhaps a player, else ``None``."""
    if type(data) is dict and data.keys() <= PLAIN_KEYS:
        board, player = data.get("board"), data.get("player")
        if type(board) is str and player in PLAYERS:
            return board, player
    return None


def playable(docs: Documents, data: object) -> Position | None:
    """The unfinished legal position that plain input names, if it names one."""
    simple = plain(data)
    if simple is None:
        return None
    position = docs.game.resolve(*simple)
    return position if position is not None and position.to_move is not None else None


def resolve(text: str, player: Mark | None, board_loc: tuple[str, ...], unfinished: bool) -> Position:
    """The position a path or query names, or ``422`` naming what is wrong."""
    try:
        position = Position.resolve(Board.parse(text), player)
    except BoardError as error:
        loc = ("query", "player") if error.field == "player" else board_loc
        raise RequestValidationError([{"type": error.code, "loc": loc, "msg": error.message}]) from None
    if unfinished and position.to_move is None:
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


# --- writing answers ------------------------------------------------------------------------------


def cached(request: Request, body: bytes) -> Response:
    """A cacheable answer: ``304`` when the client already holds this entity."""
    tag = documents(request).etag(body)
    headers = {"ETag": tag, "Cache-Control": CACHE_CONTROL}
    if _matches(_header(request, b"if-none-match"), tag):
        return Response(status_code=304, headers=headers)
    return Response(body, media_type=JSON, headers=headers)


def _header(request: Request, name: bytes) -> str | None:
    """One request header, read straight from the ASGI scope."""
    for key, value in request.scope["headers"]:
        if key == name:
            return bytes(value).decode("latin-1")
    return None


def _matches(if_none_match: str | None, etag: str) -> bool:
    """RFC 9110 weak comparison of ``If-None-Match`` against ``etag``."""
    if not if_none_match:
        return False
    for candidate in if_none_match.split(","):
        tag = candidate.strip()
        if tag == "*" or tag.removeprefix("W/") == etag:
            return True
    return False


# --- OpenAPI --------------------------------------------------------------------------------------


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


def ok(example: dict[str, Any]) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI entry of a ``200`` answer with its example."""
    return {200: {"content": {JSON: {"example": example}}}}


def body_doc(model: type[BaseModel], body_examples: dict[str, Example]) -> dict[str, Any]:
    """The OpenAPI request body of an operation that reads ``model`` as JSON."""
    schema = {"$ref": f"#/components/schemas/{model.__name__}"}
    return {
        "requestBody": {"required": True, "content": {JSON: {"schema": schema, "examples": body_examples}}}
    }


def query_doc(model: type[BaseModel], **values: str) -> list[dict[str, Any]]:
    """OpenAPI query parameters from the fields of ``model``, with example ``values``."""
    schema = model.model_json_schema()
    required = set(schema.get("required", ()))
    parameters = []
    for name, field in schema["properties"].items():
        parameter: dict[str, Any] = {
            "name": name,
            "in": "query",
            "required": name in required,
            "schema": field,
        }
        if "description" in field:
            parameter["description"] = field["description"]
        if name in values:
            parameter["example"] = values[name]
        parameters.append(parameter)
    return parameters


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


@router.post(
    "/v1/best-move",
    tags=["moves"],
    summary="Best move for a board",
    description=BEST_MOVE_DESCRIPTION + OPTIONS_DESCRIPTION,
    response_model=BestMoveResponse,
    responses=ok(examples.BEST_MOVE_RESPONSE) | problem_responses(400, 413, 415, 422),
    openapi_extra=body_doc(BestMoveRequest, examples.BEST_MOVE_REQUESTS),
)
async def post_best_move(request: Request) -> Response:
    docs = documents(request)
    data = await json_body(request)
    position = playable(docs, data)
    if position is not None:
        return Response(docs.best_move(position), media_type=JSON)
    body = validate(BestMoveRequest, data, "body")
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
    openapi_extra=body_doc(BatchRequest, examples.BATCH_REQUESTS),
)
async def post_best_move_batch(request: Request) -> Response:
    docs = documents(request)
    data = await json_body(request)
    items = data.get("items") if type(data) is dict and data.keys() == {"items"} else None
    if type(items) is list and 1 <= len(items) <= MAX_BATCH_ITEMS:
        positions = [position for item in items if (position := playable(docs, item)) is not None]
        if len(positions) == len(items):
            return Response(docs.batch_of(positions), media_type=JSON)
    body = validate(BatchRequest, data, "body")
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
    openapi_extra={"parameters": query_doc(BestMoveQuery, **examples.BEST_MOVE_QUERY)},
)
async def get_best_move(request: Request) -> Response:
    docs = documents(request)
    params = query(request)
    position = playable(docs, params)
    if position is None:
        given = validate(BestMoveQuery, params, "query")
        position = resolve(given.board, given.player, ("query", "board"), unfinished=True)
    return cached(request, docs.best_move(position))


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
    openapi_extra={
        "parameters": [
            {
                "name": "board",
                "in": "path",
                "required": True,
                "description": "The board: 9 characters, X or O for a mark and '.', '-', '_' or a space "
                "for an empty cell.",
                "schema": BOARD_STRING_SCHEMA,
                "example": examples.ANALYSIS_BOARD,
            },
            *query_doc(PlayerQuery),
        ]
    },
)
async def get_position(request: Request) -> Response:
    docs = documents(request)
    board: str = request.path_params["board"]
    params = query(request)
    simple = plain({**params, "board": board}) if "board" not in params else None
    position = docs.game.resolve(*simple) if simple is not None else None
    if position is None:
        given = validate(PlayerQuery, params, "query")
        position = resolve(board, given.player, ("path", "board"), unfinished=False)
    return cached(request, docs.analysis(position))


@router.post(
    "/v1/analysis",
    tags=["analysis"],
    summary="Analysis of a board",
    description=ANALYSIS_DESCRIPTION + "\nThe board may be in any of the three forms.",
    response_model=AnalysisResponse,
    responses=ok(examples.ANALYSIS_RESPONSE) | problem_responses(400, 413, 415, 422),
    openapi_extra=body_doc(AnalysisRequest, examples.ANALYSIS_REQUESTS),
)
async def post_analysis(request: Request) -> Response:
    docs = documents(request)
    data = await json_body(request)
    simple = plain(data)
    position = docs.game.resolve(*simple) if simple is not None else None
    if position is None:
        position = validate(AnalysisRequest, data, "body").position
    return Response(docs.analysis(position), media_type=JSON)


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
async def health(request: Request) -> Response:
    docs = documents(request)
    body = HealthResponse(status="ok", version=request.app.version, positions=docs.game.boards)
    return Response(body.model_dump_json(), media_type=JSON, headers=NO_STORE)
