"""``/v1/languages``: the languages the service speaks."""

from __future__ import annotations

from fastapi import APIRouter, Response

from ...answers import Entity
from ...language import DEFAULT, LANGUAGES, NAMES
from ...schemas import LanguageInfo, LanguageList
from ..caching import cacheable
from ..deps import NO_QUERY, IfNoneMatch
from ..language import Spoken
from ..openapi import CACHEABLE, NOT_MODIFIED, ok, problem_responses
from ..strict import StrictRoute

router = APIRouter(prefix="/v1", tags=["variants"], route_class=StrictRoute)

#: The list, rendered once. Each language is named in itself: the answer is for readers of every one.
LISTED = Entity.of(
    LanguageList(languages=[LanguageInfo(tag=tag, name=NAMES[tag]) for tag in LANGUAGES], default=DEFAULT)
    .model_dump_json()
    .encode()
)
#: Its audience: readers of every language it names (RFC 9110 §8.5 allows a list).
EVERY_LANGUAGE = Spoken(", ".join(LANGUAGES))


@router.get(
    "/languages",
    operation_id="getLanguages",
    summary="The languages offered (cacheable)",
    description="The languages in which the sentences for people come (a move's `reason`, a variant's "
    "`name` and `rules`, a problem's `title`, `detail` and each error's `msg`), by their BCP 47 tags, "
    "English first, with each one's name in itself. Ask for one with `lang` (a query parameter of a "
    "`GET`, a member of a `POST` body) or with `Accept-Language`; an answer says which it is in "
    "with `Content-Language`. Tags, ids, enum values, numbers, field names and problem types are "
    "the same in every language. " + CACHEABLE,
    response_model=LanguageList,
    responses=ok({"languages": [{"tag": tag, "name": NAMES[tag]} for tag in LANGUAGES], "default": DEFAULT})
    | NOT_MODIFIED
    | problem_responses(422),
    dependencies=[NO_QUERY],
)
async def get_languages(if_none_match: IfNoneMatch = None) -> Response:
    return cacheable(LISTED, if_none_match, EVERY_LANGUAGE)
