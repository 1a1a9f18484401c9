"""The pages for people: the browser game at ``/play`` and its static assets."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

from ..assets import Assets
from ..security import page

STATIC = Path(__file__).resolve().parent.parent / "static"

router = APIRouter(include_in_schema=False)


@cache
def _page(name: str) -> str:
    return (STATIC / name).read_text(encoding="utf-8")


@router.get("/play", response_class=HTMLResponse)
async def play() -> HTMLResponse:
    """The browser game: a person against the engine."""
    return page(_page("play.html"))


def static_files() -> Assets:
    """The page assets (``/static``): they may change with a release, so kept an hour."""
    return Assets(STATIC, max_age=3600)
