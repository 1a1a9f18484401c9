"""``/v1/best-move``: the move to play, one board at a time or in batches."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Depends, Query, Response

from ...answers import Answers
from ...schemas import BatchRequest, BatchResponse, BestMoveQuery, BestMoveRequest, BestMoveResponse
from .. import examples, work
from ..bodies import BatchBody, well_formed
from ..caching import cacheable, json_response
from ..deps import NO_QUERY, AnswersDep, IfNoneMatch
from ..language import AcceptLanguage, spoken
from ..openapi import CACHEABLE, MOVE_CHOICE, MOVE_OPTIONS, NOT_MODIFIED, json_body, ok, problem_responses
from ..strict import StrictRoute

router = APIRouter(prefix="/v1/best-move", tags=["moves"], route_class=StrictRoute)


@router.post(
    "",
    operation_id="postBestMove",
    summary="Best move for a board",
    description=MOVE_CHOICE + MOVE_OPTIONS,
    response_model=BestMoveResponse,
    responses=ok(examples.BEST_MOVE_RESPONSE) | problem_responses(400, 413, 415, 422, 503),
    dependencies=[NO_QUERY, Depends(well_formed(BestMoveRequest))],
)
async def post_best_move(
    move: Annotated[BestMoveRequest, Body(openapi_examples=examples.BEST_MOVE_REQUESTS)],
    answers: AnswersDep,
    accept_language: AcceptLanguage = None,
) -> Response:
    options, language = move.options, spoken(move.lang, accept_language)
    body = await work.best_move(answers, move.position, options, language.tag)
    return json_response(body, language, deterministic=options.deterministic)


@router.post(
    "/batch",
    operation_id="postBestMoveBatch",
    summary="Best moves for many boards",
    description="Answers 1 to 1,000 best-move requests, each with its own board and options, "
    "in one round trip. `results` are in the order of `items`. One invalid item fails the whole "
    "request with `422`, and the location of each error starts with `body`, `items` and the "
    "index of the item.",
    response_model=BatchResponse,
    responses=ok(examples.BATCH_RESPONSE) | problem_responses(400, 413, 415, 422, 503),
    openapi_extra=json_body(BatchRequest, examples.BATCH_REQUESTS),
    dependencies=[NO_QUERY],
)
async def post_best_move_batch(
    batch: BatchBody, answers: AnswersDep, accept_language: AcceptLanguage = None
) -> Response:
    language = spoken(batch.lang, accept_language)
    body, deterministic = await work.off_loop(answered, answers, batch, language.tag)
    return json_response(body, language, deterministic=deterministic)


def answered(answers: Answers, batch: BatchRequest, language: str) -> tuple[bytes, bool]:
    """The answers to a batch in ``language``, and whether every move was chosen without randomness: up
    to 1,000 positions resolved, options made and moves chosen, each up to a few tenths of a
    millisecond in a variant, so the route calls it off the event loop."""
    requests = [(item.position, item.options) for item in batch.items]
    return answers.batch(requests, language), all(options.deterministic for _, options in requests)


@router.get(
    "",
    operation_id="getBestMove",
    summary="Best move for a board (cacheable)",
    description=MOVE_CHOICE
    + "\nThe same answer as `POST /v1/best-move` with default options (no randomness), for a board "
    "in string form. " + CACHEABLE,
    response_model=BestMoveResponse,
    responses=ok(examples.BEST_MOVE_QUERY_RESPONSE) | NOT_MODIFIED | problem_responses(422),
)
async def get_best_move(
    query: Annotated[BestMoveQuery, Query()],
    answers: AnswersDep,
    if_none_match: IfNoneMatch = None,
    accept_language: AcceptLanguage = None,
) -> Response:
    language = spoken(query.lang, accept_language)
    return cacheable(answers.best_move(query.position, language.tag), if_none_match, language)
