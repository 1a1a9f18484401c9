"""The language of an answer: chosen from the request, and said in the answer's headers.

A request names its language with ``lang`` (a query parameter of a ``GET``, a member of a ``POST``
body, validated by the request's model as a well-formed BCP 47 tag), or else its ``Accept-Language``
header chooses, by the lookup of RFC 4647 (:func:`service.language.chosen`); English otherwise. The
answer says which in ``Content-Language``, and ``Vary: Accept-Language`` when the header chose, so
that a cache keeps one answer per language and never serves one language for another.
"""

from __future__ import annotations

from typing import Annotated, NamedTuple
from urllib.parse import parse_qsl

from fastapi import Header, Request
from starlette.datastructures import Headers, MutableHeaders
from starlette.types import Scope

from ..language import DEFAULT, chosen, well_formed


class Spoken(NamedTuple):
    """The language of an answer (an offered tag), and whether ``Accept-Language`` chose it."""

    tag: str
    by_header: bool = False

    def say(self, headers: MutableHeaders) -> None:
        """Name the language in an answer's headers: ``Content-Language``, and ``Vary`` when the
        request's header chose it."""
        headers["Content-Language"] = self.tag
        if self.by_header:  # the answer is new: its Vary cannot name the header yet
            headers.add_vary_header("Accept-Language")


#: The language of an answer to a request that says nothing of one.
ENGLISH = Spoken(DEFAULT)

AcceptLanguage = Annotated[
    str | None,
    Header(
        description="The languages the client prefers, with quality values (RFC 9110): the answer's "
        "sentences are in the first offered one by the lookup of RFC 4647, English when none is. "
        "`lang` overrides it.",
    ),
]


def spoken(lang: str | None, accept_language: str | None) -> Spoken:
    """The language of an answer from a request's validated ``lang`` and its ``Accept-Language``."""
    return Spoken(*chosen(lang, accept_language))


def of_request(request: Request, body: object = None) -> Spoken:
    """The language of an answer whose request was not validated (a problem): a well-formed ``lang``
    of its query, or of its JSON ``body`` when it is an object, else its ``Accept-Language``."""
    return of_scope(request.scope, body)


def of_scope(scope: Scope, body: object = None) -> Spoken:
    """:func:`of_request` for a request as ASGI gives it (a middleware's problem)."""
    pairs = parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
    given = [value for name, value in pairs if name == "lang"]
    if not given and isinstance(body, dict):
        given = [body["lang"]] if isinstance(body.get("lang"), str) else []
    lang = given[0] if len(given) == 1 and well_formed(given[0]) else None
    return spoken(lang, Headers(scope=scope).get("accept-language"))
