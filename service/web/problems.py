"""Errors as ``application/problem+json`` (RFC 9457), for every status the service sends.

Every problem has ``type``, ``title``, ``status``, ``detail`` and
``instance``; input errors add ``errors``, each with ``loc``, ``msg`` and
``type``. No problem ever carries a stack trace. Exception handlers answer
validation and HTTP errors here; a bug is answered (``500``) by the
middleware of :mod:`.middleware`, in one place.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import BaseRoute, Mount, Route

from ..game.words import Message, say
from ..language import words
from .facts import parsed_body
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


class ProblemResponse(JSONResponse):
    """A JSON response with the problem media type."""

    media_type = PROBLEM_JSON


def problem(
    kind: ProblemType,
    detail: str,
    instance: str | None = None,
    language: Spoken = ENGLISH,
    headers: Mapping[str, str] | None = None,
    **extra: object,
) -> ProblemResponse:
    """The response for one problem, its title in ``language``."""
    body: dict[str, Any] = {
        "type": kind.uri,
        "title": say(words(language.tag), kind.title),
        "status": kind.status,
        "detail": detail,
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


def quoted(text: str) -> str:
    """``text`` quoted as an error names it, as Python writes a string (``'gzip'``, escapes and all).

    Text longer than :data:`MAX_QUOTED` characters is cut to its first :data:`MAX_QUOTED`, quoted,
    then followed by ``…`` and its full length, e.g. ``'xxx…xxx'… (943718 characters)``: a client
    may send anything, and no answer echoes more than that.
    """
    if len(text) <= MAX_QUOTED:
        return repr(text)
    return f"{text[:MAX_QUOTED]!r}… ({len(text)} characters)"


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def error_item(error: Mapping[str, Any]) -> dict[str, Any]:
    """One problem as an error lists it: ``loc``, ``msg`` and ``type``, names and message clipped."""
    loc = [part if isinstance(part, int) else _clip(str(part), MAX_NAME) for part in error.get("loc", ())]
    kind = str(error.get("type", "value_error"))
    msg = _clip(str(error.get("msg", "invalid value")), MAX_MESSAGE)
    if kind == "missing" and loc == ["body"]:
        msg = "a JSON object is required as the request body"
    elif kind in {"model_attributes_type", "dict_type", "model_type"} and loc == ["body"]:
        msg = "the request body must be a JSON object"
    return {"loc": loc, "msg": msg, "type": kind}


def summary(errors: Sequence[Mapping[str, Any]], total: int, shown: int = 3) -> str:
    """The first ``shown`` errors as ``field: what is wrong``, joined by ``; ``; then how many more."""
    listed = "; ".join(
        f"{'.'.join(str(part) for part in error['loc'])}: {error['msg']}" for error in errors[:shown]
    )
    return f"{listed} (and {total - shown} more)" if total > shown else listed


async def validation_problem(request: Request, exc: Exception) -> ProblemResponse:
    """Invalid input: ``400`` malformed JSON, ``422`` otherwise."""
    assert isinstance(exc, RequestValidationError)
    raw = list(exc.errors())
    path = request.url.path
    language = of_request(request, parsed_body(request.scope))
    malformed = [error for error in raw if error.get("type") == "json_invalid"]
    if malformed:
        reason = _json_fault(malformed[0])
        return problem(
            MALFORMED_JSON,
            f"the request body is not valid JSON: {reason}",
            path,
            language,
            errors=[{"loc": ["body"], "msg": reason, "type": "json_invalid"}],
        )
    errors = [error_item(error) for error in raw[:MAX_LISTED_ERRORS]]
    extra: dict[str, Any] = {"errors": errors}
    if len(raw) > len(errors):
        extra["errors_omitted"] = len(raw) - len(errors)
    over = [error for error in raw if error.get("type") == "game_over"]
    if over and len(over) == len(raw):
        status = (over[0].get("ctx") or {}).get("status")
        return problem(GAME_OVER, summary(errors, len(raw)), path, language, game_status=status, **extra)
    return problem(INVALID_INPUT, summary(errors, len(raw)), path, language, **extra)


def _json_fault(error: Mapping[str, Any]) -> str:
    """What is wrong with a body that is not JSON, and where, from FastAPI's ``json_invalid`` error."""
    position = error["loc"][-1] if error.get("loc") else -1
    reason = str((error.get("ctx") or {}).get("error", "invalid JSON"))
    return json_fault(reason, position if isinstance(position, int) else -1)


def json_fault(reason: str, position: int) -> str:
    """What is wrong with a body that is not JSON (``reason``), and where: ``at character`` the
    0-based ``position``, when it is known (not negative)."""
    return f"{reason} at character {position}" if position >= 0 else reason


async def http_problem(request: Request, exc: Exception) -> ProblemResponse:
    """Routing and protocol errors raised as HTTP exceptions (404, 405, ...)."""
    assert isinstance(exc, StarletteHTTPException)
    path = request.url.path
    headers = dict(exc.headers or {})
    kind = _BY_STATUS.get(exc.status_code)
    if exc.status_code == 404:
        detail = f"no resource at {path}"
    elif exc.status_code == 405:
        allowed = _allowed_methods(request)
        headers = {name: value for name, value in headers.items() if name.lower() != "allow"}
        headers["Allow"] = allowed
        detail = f"{request.method} is not allowed on {path}; allowed: {allowed}"
    else:
        detail = exc.detail if isinstance(exc.detail, str) else HTTPStatus(exc.status_code).phrase
    if kind is None:
        phrase = HTTPStatus(exc.status_code).phrase
        kind = ProblemType(phrase.lower().replace(" ", "-"), Message("problem", phrase), exc.status_code)
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
