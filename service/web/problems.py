"""Errors as ``application/problem+json`` (RFC 9457), for every status the service sends.

Every problem has ``type``, ``title``, ``status``, ``detail`` and
``instance``; input errors add ``errors``, each with ``loc``, ``msg`` and
``type``. No problem ever carries a stack trace. Exception handlers answer
validation and HTTP errors here; a bug is answered (``500``) by the
middleware of :mod:`.middleware`, in one place.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any, NamedTuple

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import BaseRoute, Mount, Route

from ..game.words import Listed, Message, Plural, Said, Words, render, say
from ..language import words
from ..language.validation import said
from .facts import body_fault, parsed_body
from .language import ENGLISH, Spoken, of_request
from .media import PROBLEM_JSON


@dataclass(frozen=True)
class ProblemType:
    """A kind of problem: its URI reference, title (a message, said in the answer's language; the
    ``type`` stays the same in every language) and status."""

    slug: str
    title: Message
    status: int

    @property
    def uri(self) -> str:
        return f"/problems/{self.slug}"


# TRANSLATORS: The title of a problem (an error answer of the API), as RFC 9457 has it: a short
# summary of the kind of problem, the same for every occurrence of it.
INVALID_INPUT = ProblemType("invalid-input", Message("problem", "Invalid input"), 422)
GAME_OVER = ProblemType("game-over", Message("problem", "The game is over"), 422)
MALFORMED_JSON = ProblemType("malformed-json", Message("problem", "Malformed JSON"), 400)
BAD_REQUEST = ProblemType("bad-request", Message("problem", "Bad Request"), 400)
NOT_FOUND = ProblemType("not-found", Message("problem", "Not Found"), 404)
METHOD_NOT_ALLOWED = ProblemType("method-not-allowed", Message("problem", "Method Not Allowed"), 405)
BODY_TOO_LARGE = ProblemType("body-too-large", Message("problem", "Content Too Large"), 413)
UNSUPPORTED_MEDIA_TYPE = ProblemType(
    "unsupported-media-type", Message("problem", "Unsupported Media Type"), 415
)
INTERNAL_ERROR = ProblemType("internal-error", Message("problem", "Internal Server Error"), 500)
UNAVAILABLE = ProblemType("unavailable", Message("problem", "Service Unavailable"), 503)

PROBLEM_TYPES: tuple[ProblemType, ...] = (
    INVALID_INPUT,
    GAME_OVER,
    MALFORMED_JSON,
    BAD_REQUEST,
    NOT_FOUND,
    METHOD_NOT_ALLOWED,
    BODY_TOO_LARGE,
    UNSUPPORTED_MEDIA_TYPE,
    INTERNAL_ERROR,
    UNAVAILABLE,
)
_BY_STATUS = {kind.status: kind for kind in PROBLEM_TYPES if kind not in (GAME_OVER, MALFORMED_JSON)}


def input_error(kind: str, loc: tuple[str | int, ...], said: Said) -> dict[str, Any]:
    """An error of a request's input as a route raises it (in a ``RequestValidationError``), in
    Pydantic's form: its words in English (``msg``), and in any language (its context)."""
    return {"type": kind, "loc": loc, "msg": str(said), "ctx": {"said": said}}


class Fault(json.JSONDecodeError):
    """A body that is not strict JSON, for a reason of the service's own (:mod:`.strict`): said in any
    language."""

    def __init__(self, said: Said, doc: str = "", pos: int = -1) -> None:
        super().__init__(str(said), doc, pos)
        self.said = said


class Refused(StarletteHTTPException):
    """An HTTP error (``415``, ``413``...) whose detail is said in the language of the answer."""

    def __init__(self, status_code: int, said: Said, headers: Mapping[str, str] | None = None) -> None:
        super().__init__(status_code, str(said), dict(headers or {}))
        self.said = said


class ProblemResponse(JSONResponse):
    """A JSON response with the problem media type."""

    media_type = PROBLEM_JSON


def problem(
    kind: ProblemType,
    detail: Said | Listed,
    instance: str | None = None,
    language: Spoken = ENGLISH,
    headers: Mapping[str, str] | None = None,
    **extra: object,
) -> ProblemResponse:
    """The response for one problem, its title and detail in ``language``."""
    spoken = words(language.tag)
    body: dict[str, Any] = {
        "type": kind.uri,
        "title": say(spoken, kind.title),
        "status": kind.status,
        "detail": render(detail, spoken),
    }
    if instance is not None:
        body["instance"] = instance
    body.update(extra)
    response = ProblemResponse(body, status_code=kind.status, headers=dict(headers or {}))
    language.say(response.headers)
    return response


#: At most this many problems are listed in a ``422``; ``errors_omitted`` counts the rest.
MAX_LISTED_ERRORS = 10
#: Longest message, and longest field name in a location, echoed back (a client may send anything).
MAX_MESSAGE = 300
MAX_NAME = 64
#: The most characters of a client's text (a header, a key, a name) that an error quotes.
MAX_QUOTED = 200


def quoted(text: str) -> str | Said:
    """``text`` quoted as an error names it, as Python writes a string (``'gzip'``, escapes and all).

    Text longer than :data:`MAX_QUOTED` characters is cut to its first :data:`MAX_QUOTED`, quoted,
    then followed by ``…`` and its full length, e.g. ``'xxx…xxx'… (943718 characters)``: a client
    may send anything, and no answer echoes more than that.
    """
    if len(text) <= MAX_QUOTED:
        return repr(text)
    return Said.of(LONG_TEXT, start=repr(text[:MAX_QUOTED]), length=len(text))


# TRANSLATORS: A long text a client sent, cut to its start ("{start}", quoted), and its length.
LONG_TEXT = Message("error", "{start}… ({length} characters)")


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


#: What an error says of a body that is missing, or that is not a JSON object.
_NO_BODY = Message("error", "a JSON object is required as the request body")
_NOT_AN_OBJECT = Message("error", "the request body must be a JSON object")
# TRANSLATORS: One error of a request, in a problem's detail: where ({field}, e.g. body.board) and
# what is wrong.
_AT_FIELD = Message("error", "{field}: {msg}")
# TRANSLATORS: A problem's detail: the first errors of a request, then how many more it has.
_AND_MORE = Plural("error", "{errors} (and {count} more)", "{errors} (and {count} more)")


class Item(NamedTuple):
    """One error of a request as a problem lists it: where, what it says, and its type."""

    loc: list[str | int]
    said: Said | str
    type: str

    @classmethod
    def of(cls, error: Mapping[str, Any]) -> Item:
        """An error as Pydantic or a route gives it, its location's names clipped."""
        loc = [part if isinstance(part, int) else _clip(str(part), MAX_NAME) for part in error.get("loc", ())]
        kind = str(error.get("type", "value_error"))
        told: Said | str | None = said(error)
        if kind == "missing" and loc == ["body"]:
            told = Said.of(_NO_BODY)
        elif kind in {"model_attributes_type", "dict_type", "model_type"} and loc == ["body"]:
            told = Said.of(_NOT_AN_OBJECT)
        return cls(
            loc,
            told if told is not None else _clip(str(error.get("msg", "invalid value")), MAX_MESSAGE),
            kind,
        )

    def msg(self, spoken: Words) -> str:
        """What the error says in the language of ``spoken``, clipped."""
        return _clip(str(render(self.said, spoken)), MAX_MESSAGE)

    def listed(self, spoken: Words) -> dict[str, Any]:
        """The error as a problem's ``errors`` list it: ``loc``, ``msg`` and ``type``."""
        return {"loc": self.loc, "msg": self.msg(spoken), "type": self.type}


def summary(items: Sequence[Item], total: int, shown: int = 3) -> Said | Listed:
    """The first ``shown`` errors as ``field: what is wrong``, joined by ``; ``; then how many more."""
    listed = Listed(
        tuple(
            Said.of(_AT_FIELD, field=".".join(str(part) for part in item.loc), msg=item.said)
            for item in items[:shown]
        ),
        clauses=True,
    )
    if total > shown:
        return Said.of(_AND_MORE, total - shown, errors=listed)
    return listed


async def validation_problem(request: Request, exc: Exception) -> ProblemResponse:
    """Invalid input: ``400`` malformed JSON, ``422`` otherwise."""
    assert isinstance(exc, RequestValidationError)
    raw = list(exc.errors())
    path = request.url.path
    language = of_request(request, parsed_body(request.scope))
    spoken = words(language.tag)
    malformed = [error for error in raw if error.get("type") == "json_invalid"]
    if malformed:
        return _malformed(request, malformed[0], language)
    items = [Item.of(error) for error in raw[:MAX_LISTED_ERRORS]]
    extra: dict[str, Any] = {"errors": [item.listed(spoken) for item in items]}
    if len(raw) > len(items):
        extra["errors_omitted"] = len(raw) - len(items)
    status = _game_over(raw)
    if status is not None:
        return problem(GAME_OVER, summary(items, len(raw)), path, language, game_status=status, **extra)
    return problem(INVALID_INPUT, summary(items, len(raw)), path, language, **extra)


def _game_over(errors: Sequence[Mapping[str, Any]]) -> object:
    """The status of the finished board, when that is every error of a request; ``None`` otherwise."""
    over = [error for error in errors if error.get("type") == "game_over"]
    if not over or len(over) != len(errors):
        return None
    return (over[0].get("ctx") or {}).get("status")


def _malformed(request: Request, error: Mapping[str, Any], language: Spoken) -> ProblemResponse:
    """The ``400`` of a body that is not JSON, from its ``json_invalid`` error."""
    reason = _json_fault(error, body_fault(request.scope))
    said = render(reason, words(language.tag))
    errors = [{"loc": ["body"], "msg": said, "type": "json_invalid"}]
    detail = Said.of(_NOT_JSON, reason=reason)
    return problem(MALFORMED_JSON, detail, request.url.path, language, errors=errors)


# TRANSLATORS: The detail of a 400 problem: {reason} says what is wrong with the JSON, and where.
_NOT_JSON = Message("error", "the request body is not valid JSON: {reason}")
# TRANSLATORS: What is wrong with a request body that is not JSON ({reason}), and where: {position}
# counts characters from 0.
_AT_CHARACTER = Message("error", "{reason} at character {position}")
#: What Python's JSON decoder says of JSON that is not, by its words.
JSON_FAULTS = {
    # TRANSLATORS: What is wrong with a request body that is not JSON, as Python's decoder says it.
    "Expecting value": Message("error", "Expecting value"),
    "Expecting property name enclosed in double quotes": Message(
        "error", "Expecting property name enclosed in double quotes"
    ),
    "Expecting ':' delimiter": Message("error", "Expecting ':' delimiter"),
    "Expecting ',' delimiter": Message("error", "Expecting ',' delimiter"),
    "Unterminated string starting at": Message("error", "Unterminated string starting at"),
    "Invalid control character at": Message("error", "Invalid control character at"),
    "Invalid \\escape": Message("error", "Invalid \\escape"),
    "Invalid \\uXXXX escape": Message("error", "Invalid \\uXXXX escape"),
    "Extra data": Message("error", "Extra data"),
    "Illegal trailing comma before end of object": Message(
        "error", "Illegal trailing comma before end of object"
    ),
    "Illegal trailing comma before end of array": Message(
        "error", "Illegal trailing comma before end of array"
    ),
}


def _json_fault(error: Mapping[str, Any], fault: Exception | None) -> Said | str:
    """What is wrong with a body that is not JSON, and where, from FastAPI's ``json_invalid`` error;
    in any language where the service's strict reading (``fault``, as the request kept it) or the
    error's context says it."""
    position = error["loc"][-1] if error.get("loc") else -1
    context = error.get("ctx") or {}
    if isinstance(context.get("said"), Said):
        reason: Said | str = context["said"]
    elif isinstance(fault, Fault):
        reason = fault.said
    else:
        reason = str(context.get("error", "invalid JSON"))
    return json_fault(reason, position if isinstance(position, int) else -1)


def json_fault(reason: Said | str, position: int) -> Said | str:
    """What is wrong with a body that is not JSON (``reason``, said in any language when Python's
    decoder or the service's strict reading said it), and where: ``at character`` the 0-based
    ``position``, when it is known (not negative)."""
    if isinstance(reason, str) and reason in JSON_FAULTS:
        reason = Said.of(JSON_FAULTS[reason])
    return Said.of(_AT_CHARACTER, reason=reason, position=position) if position >= 0 else reason


async def http_problem(request: Request, exc: Exception) -> ProblemResponse:
    """Routing and protocol errors raised as HTTP exceptions (404, 405, ...)."""
    assert isinstance(exc, StarletteHTTPException)
    path = request.url.path
    headers = dict(exc.headers or {})
    kind = _BY_STATUS.get(exc.status_code)
    detail: Said
    if exc.status_code == 404:
        detail = Said.of(Message("error", "no resource at {path}"), path=path)
    elif exc.status_code == 405:
        allowed = _allowed_methods(request)
        headers = {name: value for name, value in headers.items() if name.lower() != "allow"}
        headers["Allow"] = allowed
        message = Message("error", "{method} is not allowed on {path}; allowed: {allowed}")
        detail = Said.of(message, method=request.method, path=path, allowed=allowed)
    if kind is None:
        phrase = HTTPStatus(exc.status_code).phrase
        kind = ProblemType(phrase.lower().replace(" ", "-"), Message("problem", phrase), exc.status_code)
    if exc.status_code not in (404, 405):
        detail = exc.said if isinstance(exc, Refused) else Said.of(kind.title)
    return problem(kind, detail, path, of_request(request), headers)


def _allowed_methods(request: Request) -> str:
    """Every method some route accepts on the request's path (routes may share a path)."""
    path = request.url.path
    methods: set[str] = set()
    for pattern, accepted in request.app.state.route_methods:
        if pattern.match(path):
            methods.update(accepted)
    return ", ".join(sorted(methods))


def route_methods(routes: Iterable[BaseRoute]) -> list[tuple[re.Pattern[str], frozenset[str]]]:
    """The path pattern and methods of each route, for the ``Allow`` header of a ``405``.

    A resource that answers GET answers HEAD too (see the middleware); a mount serves files,
    which are read with GET and HEAD.
    """
    table = []
    for route in routes:
        if isinstance(route, Route):
            methods = set(route.methods or ())
        elif isinstance(route, Mount):
            methods = {"GET"}
        else:
            continue
        if "GET" in methods:
            methods.add("HEAD")
        table.append((route.path_regex, frozenset(methods)))
    return table


def install(app: FastAPI) -> None:
    """Route every error of ``app`` through the problem handlers."""
    app.add_exception_handler(RequestValidationError, validation_problem)
    app.add_exception_handler(StarletteHTTPException, http_problem)
