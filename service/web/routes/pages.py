"""The pages for people: the browser game at ``/play`` and its static assets.

``/play`` speaks the languages the service speaks: ``/play?lang=<tag>`` names one (a malformed tag is
ignored, never an error: a page does not answer 422), or else the browser's ``Accept-Language``
chooses by the lookup of RFC 4647, or else it is English. The page is rendered on the server in that
language (:mod:`..page_words`), once per language, and says which in ``Content-Language`` and its
``<html lang>``, with ``Vary: Accept-Language`` when the header chose.
"""

from __future__ import annotations

import hashlib
import re
from functools import cache
from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import HTMLResponse

from ...language import well_formed
from ..assets import Assets
from ..language import AcceptLanguage, spoken
from ..page_words import rendered
from ..security import page

STATIC = Path(__file__).resolve().parent.parent / "static"

router = APIRouter(include_in_schema=False)


#: A reference from a page to one of its assets, such as ``"/static/play.js"``.
_ASSET = re.compile(r'"/static/([\w.-]+)"')


def _versioned(match: re.Match[str]) -> str:
    digest = hashlib.sha256((STATIC / match[1]).read_bytes()).hexdigest()[:12]
    return f'"/static/{match[1]}?v={digest}"'


@cache
def _page(name: str, tag: str) -> str:
    """The page ``name`` in the language ``tag``, each asset it refers to named with its content's
    digest.

    The page is revalidated on every use but its assets are kept an hour, so a new release's page
    would otherwise run with the last release's script until then.
    """
    return rendered(_ASSET.sub(_versioned, (STATIC / name).read_text(encoding="utf-8")), tag)


@router.get("/play", response_class=HTMLResponse)
async def play(
    lang: Annotated[str | None, Query(description="The page's language, a BCP 47 tag.")] = None,
    accept_language: AcceptLanguage = None,
) -> HTMLResponse:
    """The browser game: a person against the engine, in the language asked for."""
    language = spoken(lang if lang is not None and well_formed(lang) else None, accept_language)
    response = page(_page("play.html", language.tag))
    language.say(response.headers)
    return response


def static_files() -> Assets:
    """The page assets (``/static``): they may change with a release, so kept an hour."""
    return Assets(STATIC, max_age=3600)
