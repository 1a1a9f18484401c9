"""``/v1/positions/{board}`` and ``/v1/analysis``: everything about a position."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Depends, Path, Query, Response
from fastapi.exceptions import RequestValidationError

from ...answers import Answers
from ...game import BoardError
from ...game.variants import VARIANTS, VariantPosition
from ...schemas import BOARD_STRING_SCHEMA, AnalysisRequest, AnalysisResponse, PositionQuery, resolve_board
from .. import examples, work
from ..bodies import well_formed
from ..caching import cacheable, json_response
from ..deps import NO_QUERY, AnswersDep, IfNoneMatch
from ..language import AcceptLanguage, spoken
from ..openapi import ANALYSIS, CACHEABLE, NOT_MODIFIED, ok, problem_responses
from ..problems import input_error
from ..strict import StrictRoute

router = APIRouter(prefix="/v1", tags=["analysis"], route_class=StrictRoute)

BoardInPath = Annotated[
    str,
    Path(
        description="The board as a string of the variant's cells (9, 16 on a 4×4 board, 18 or 27 "
        "in Notakto on 2 or 3 boards), X or O for a mark and '.', '-', '_' or a space for an empty "
        "cell (URL-encode a space as `%20`).",
        json_schema_extra=BOARD_STRING_SCHEMA,
        openapi_examples={"X to move and win": {"value": examples.ANALYSIS_BOARD}},
    ),
]


def path_position(answers: Answers, board: str, query: PositionQuery) -> VariantPosition:
    """The position a board string in the path and the variant and player in the query name, or
    ``422`` saying why."""
    position = answers.lookup(query.variant, board, query.player)
    if position is not None:
        return position
    try:
        return resolve_board(VARIANTS[query.variant].board(board), query.player)
    except BoardError as error:
        loc = ("query", "player") if error.field == "player" else ("path", "board")
        raise RequestValidationError([input_error(error.code, loc, error.said)]) from None


@router.get(
    "/positions/{board}",
    operation_id="getPosition",
    summary="Analysis of a board (cacheable)",
    description=ANALYSIS + "\nThe board is a string of the variant's cells in the path. " + CACHEABLE,
    response_model=AnalysisResponse,
    responses=ok(examples.ANALYSIS_RESPONSE) | NOT_MODIFIED | problem_responses(404, 422),
)
async def get_position(
    board: BoardInPath,
    query: Annotated[PositionQuery, Query()],
    answers: AnswersDep,
    if_none_match: IfNoneMatch = None,
    accept_language: AcceptLanguage = None,
) -> Response:
    position, language = path_position(answers, board, query), spoken(query.lang, accept_language)
    return cacheable(await work.analysis(answers, position, language.tag), if_none_match, language)


@router.post(
    "/analysis",
    operation_id="postAnalysis",
    summary="Analysis of a board",
    description=ANALYSIS + "\nThe board may be in any of the three forms.",
    response_model=AnalysisResponse,
    responses=ok(examples.ANALYSIS_RESPONSE) | problem_responses(400, 413, 415, 422, 503),
    dependencies=[NO_QUERY, Depends(well_formed(AnalysisRequest))],
)
async def post_analysis(
    request: Annotated[AnalysisRequest, Body(openapi_examples=examples.ANALYSIS_REQUESTS)],
    answers: AnswersDep,
    accept_language: AcceptLanguage = None,
) -> Response:
    language = spoken(request.lang, accept_language)
    return json_response((await work.analysis(answers, request.position, language.tag)).body, language)
