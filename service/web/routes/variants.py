"""``/v1/variants``: the rule variants the service solves."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Response

from ...schemas import LanguageQuery, VariantList
from .. import examples
from ..caching import cacheable
from ..deps import AnswersDep, IfNoneMatch
from ..language import AcceptLanguage, spoken
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
)
async def get_variants(
    query: Annotated[LanguageQuery, Query()],
    answers: AnswersDep,
    if_none_match: IfNoneMatch = None,
    accept_language: AcceptLanguage = None,
) -> Response:
    language = spoken(query.lang, accept_language)
    return cacheable(answers.catalogues[language.tag], if_none_match, language)
