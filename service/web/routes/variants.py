"""``/v1/variants``: the rule variants the service solves."""

from __future__ import annotations

from fastapi import APIRouter, Response

from ...schemas import VariantList
from .. import examples
from ..caching import cacheable
from ..deps import NO_QUERY, AnswersDep, IfNoneMatch
from ..openapi import CACHEABLE, NOT_MODIFIED, ok, problem_responses
from ..strict import StrictRoute

router = APIRouter(prefix="/v1", tags=["variants"], route_class=StrictRoute)


@router.get(
    "/variants",
    operation_id="getVariants",
    summary="The rule variants (cacheable)",
    description="Every rule variant the service solves exactly, the standard game first: its rules, its "
    "board, what a move places, whether the side that makes a line loses, its value from the empty "
    "board, how many positions it has, its tactic tags, and whether `rating` applies. Name one with "
    "`variant` on any operation that takes a board. " + CACHEABLE,
    response_model=VariantList,
    responses=ok(examples.VARIANTS_RESPONSE) | NOT_MODIFIED | problem_responses(422),
    dependencies=[NO_QUERY],
)
async def get_variants(answers: AnswersDep, if_none_match: IfNoneMatch = None) -> Response:
    return cacheable(answers.catalogue, if_none_match)
