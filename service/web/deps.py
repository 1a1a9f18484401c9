"""What routes declare besides their input models, as ``Annotated`` aliases."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, Query, Request

from ..answers import Answers, Coach
from ..schemas import NoQuery


async def get_answers(request: Request) -> Answers:
    """The app's answers, made when the app was built (async: no threadpool hop)."""
    answers: Answers = request.app.state.answers
    return answers


AnswersDep = Annotated[Answers, Depends(get_answers)]
IfNoneMatch = Annotated[
    str | None,
    Header(description="Entity tags the client holds; a match gets `304 Not Modified`."),
]


async def get_coach(request: Request) -> Coach:
    """The app's coach: reviews and puzzles (async: no threadpool hop)."""
    coach: Coach = request.app.state.coach
    return coach


CoachDep = Annotated[Coach, Depends(get_coach)]


async def no_query(query: Annotated[NoQuery, Query()]) -> None:
    """Refuses every query parameter (``422``), for a route that takes none."""


#: The dependency of a route that takes no query parameters.
NO_QUERY = Depends(no_query)
