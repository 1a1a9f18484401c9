"""``/v1/puzzles``: positions where exactly one move keeps the outcome, to find it."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query, Request, Response
from fastapi.exceptions import RequestValidationError

from ...answers import PuzzleFilter
from ...game.words import Message, Said
from ...schemas import LanguageQuery, Puzzle, PuzzlePage, PuzzleQuery, RandomPuzzleQuery
from .. import examples
from ..caching import cacheable, json_response
from ..deps import CoachDep, IfNoneMatch
from ..language import AcceptLanguage, spoken
from ..openapi import CACHEABLE, NOT_MODIFIED, PUZZLES, ok, problem_responses
from ..problems import NOT_FOUND, input_error, problem
from ..strict import StrictRoute

router = APIRouter(prefix="/v1/puzzles", tags=["coach"], route_class=StrictRoute)

PuzzleIdInPath = Annotated[
    str,
    Path(
        description="The puzzle's id: in the standard game its canonical board followed by the side to "
        "move; elsewhere the variant, a colon, the canonical board, and the side to move where the "
        "sides are X and O. It names its variant: no `variant` parameter is needed.",
        openapi_examples={"a puzzle": {"value": examples.PUZZLE["id"]}},
    ),
]


@router.get(
    "",
    operation_id="listPuzzles",
    summary="Puzzles, filtered, a page at a time (cacheable)",
    description=PUZZLES + "\nPages are in order of `rating`, then `id`; `next` is the `cursor` of the "
    "following page. " + CACHEABLE,
    response_model=PuzzlePage,
    responses=ok(examples.PUZZLE_PAGE) | NOT_MODIFIED | problem_responses(422),
)
async def list_puzzles(
    query: Annotated[PuzzleQuery, Query()],
    coach: CoachDep,
    if_none_match: IfNoneMatch = None,
    accept_language: AcceptLanguage = None,
) -> Response:
    wrong = coach.cursor_error(query.variant, query.cursor)
    if wrong is not None:
        raise RequestValidationError([input_error("unknown_cursor", ("query", "cursor"), wrong)])
    wanted = PuzzleFilter(query.theme, query.outcome, query.min_rating, query.max_rating)
    language = spoken(query.lang, accept_language)
    page = coach.page(query.variant, wanted, query.limit, query.cursor, language.tag)
    return cacheable(page, if_none_match, language)


@router.get(
    "/random",
    operation_id="getRandomPuzzle",
    summary="A puzzle drawn at random",
    description=PUZZLES + "\nOne puzzle drawn uniformly from those that match the filters: "
    "reproducible, and cacheable, with `seed`; `Cache-Control: no-store` without one. "
    "`404` when none matches.",
    response_model=Puzzle,
    responses=ok(examples.PUZZLE) | NOT_MODIFIED | problem_responses(404, 422),
)
async def random_puzzle(
    request: Request,
    query: Annotated[RandomPuzzleQuery, Query()],
    coach: CoachDep,
    if_none_match: IfNoneMatch = None,
    accept_language: AcceptLanguage = None,
) -> Response:
    wanted = PuzzleFilter(query.theme, None, query.min_rating, query.max_rating)
    language = spoken(query.lang, accept_language)
    drawn = coach.random(query.variant, wanted, query.seed, language.tag)
    if drawn is None:
        nothing = Said.of(Message("error", "no puzzle matches these filters"))
        return problem(NOT_FOUND, nothing, request.url.path, language)
    if query.seed is None:
        return json_response(drawn.body, language, deterministic=False)
    return cacheable(drawn, if_none_match, language)


@router.get(
    "/{puzzle_id}",
    operation_id="getPuzzle",
    summary="One puzzle (cacheable)",
    description=PUZZLES + "\n" + CACHEABLE + " An id that is not a puzzle's gets `404`; so does "
    "a board that is one only turned or mirrored, and its detail names the puzzle's id.",
    response_model=Puzzle,
    responses=ok(examples.PUZZLE) | NOT_MODIFIED | problem_responses(404, 422),
)
async def get_puzzle(
    *,
    request: Request,
    puzzle_id: PuzzleIdInPath,
    query: Annotated[LanguageQuery, Query()],
    coach: CoachDep,
    if_none_match: IfNoneMatch = None,
    accept_language: AcceptLanguage = None,
) -> Response:
    language = spoken(query.lang, accept_language)
    found = coach.puzzle(puzzle_id, language.tag)
    if found is not None:
        return cacheable(found, if_none_match, language)
    return problem(NOT_FOUND, coach.missing(puzzle_id), request.url.path, language)
