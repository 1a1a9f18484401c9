"""``/v1/review``: a game graded move by move, as a coach would."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Depends, Response
from fastapi.exceptions import RequestValidationError

from ...game.review import IllegalMove
from ...schemas import ReviewRequest, ReviewResponse
from .. import examples, work
from ..bodies import well_formed
from ..caching import json_response
from ..deps import NO_QUERY, CoachDep
from ..language import AcceptLanguage, spoken
from ..openapi import REVIEW, ok, problem_responses
from ..problems import input_error
from ..strict import StrictRoute

router = APIRouter(prefix="/v1", tags=["coach"], route_class=StrictRoute)


@router.post(
    "/review",
    operation_id="postReview",
    summary="Review of a game",
    description=REVIEW,
    response_model=ReviewResponse,
    responses=ok(examples.REVIEW_RESPONSE) | problem_responses(400, 413, 415, 422, 503),
    dependencies=[NO_QUERY, Depends(well_formed(ReviewRequest))],
)
async def post_review(
    game: Annotated[ReviewRequest, Body(openapi_examples=examples.REVIEW_REQUESTS)],
    coach: CoachDep,
    accept_language: AcceptLanguage = None,
) -> Response:
    language = spoken(game.lang, accept_language)
    try:
        return json_response(
            await work.off_loop(coach.review, game.start, game.moves, language.tag), language
        )
    except IllegalMove as error:
        loc = ("body", "moves", error.index)
        raise RequestValidationError([input_error("illegal_move", loc, error.said)]) from None
