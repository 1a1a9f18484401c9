"""The pages for people: the browser game at ``/play`` and its static assets."""

from __future__ import annotations

import hashlib
import re
from functools import cache
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

from ..assets import Assets
from ..security import page

STATIC = Path(__file__).resolve().parent.parent / "static"

router = APIRouter(include_in_schema=False)


#: A reference from a page to one of its assets, such as ``"/static/play.js"``.
_ASSET = re.compile(r'"/static/([\w.-]+)"')


def _versioned(match: re.Match[str]) -> str:
    digest = hashlib.sha256((STATIC / match[1]).read_bytes()).hexdigest()[:12]
    return f'"/static/{match[1]}?v={digest}"'


@cache
def _page(name: str) -> str:
    """The page ``name``, each asset it refers to named with its content's digest.

    The page is revalidated on every use but its assets are kept an hour, so a new release's page
    would otherwise run with the last release's script until then.
    """
    return _ASSET.sub(_versioned, (STATIC / name).read_text(encoding="utf-8"))


@router.get("/play", response_class=HTMLResponse)
async def play() -> HTMLResponse:
    """The browser game: a person against the engine."""
    return page(_page("play.html"))


def static_files() -> Assets:
    """The page assets (``/static``): they may change with a release, so kept an hour."""
    return Assets(STATIC, max_age=3600)
