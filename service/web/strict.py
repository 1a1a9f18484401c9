"""How the API reads a request, strictly: bodies as strict JSON, sent as JSON, parameters once each.

Python's ``json`` module is lenient where the JSON standard (RFC 8259) is not:
it accepts ``NaN`` and ``Infinity``, guesses UTF-16 and UTF-32, keeps the
last of duplicate keys, and raises a plain ``ValueError`` for an integer of
more than 4,300 digits. Request bodies here must be UTF-8 JSON with no such
constants and no duplicate keys; anything else is malformed (``400``).

:class:`StrictRoute` is the route class of the API (FastAPI's documented place for
a custom request class). Its routes read bodies through :class:`StrictRequest`, so
strictly, and refuse

* a body sent as anything but JSON: ``415``;
* a query parameter given more than once: ``422`` (FastAPI would keep the last).

A body already parsed before routing (by the fast lane, :mod:`.fast_lane`) is
handed on under :data:`PARSED_BODY` in the request's state, and not parsed again.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import HTTPException, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute

from .media import is_json
from .problems import MAX_LISTED_ERRORS

#: The key of ``scope["state"]`` under which a body parsed before routing is handed on.
PARSED_BODY = "parsed_body"

#: The position of an error that has none in particular.
UNKNOWN = -1
#: The longest body :func:`loads_flat` parses.
FLAT_LIMIT = 1024


class _Rejected(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _no_constants(name: str) -> object:
    raise _Rejected(f"{name} is not a JSON value")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)  # in C; the keys are looked at one by one only when some repeat
    if len(result) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Rejected(f"duplicate key {key!r} in a JSON object")
            seen.add(key)
    return result


#: The decoders, made once (``json.loads`` with these hooks makes one on every call).
_STRICT = json.JSONDecoder(parse_constant=_no_constants, object_pairs_hook=_unique_keys)
_FLAT = json.JSONDecoder(parse_constant=_no_constants)


def loads(body: bytes) -> object:
    """Parse a request body as strict JSON; raise :class:`json.JSONDecodeError` otherwise."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as error:
        raise json.JSONDecodeError(f"the body is not UTF-8 text (byte {error.start})", "", UNKNOWN) from None
    try:
        return _STRICT.decode(text)
    except _Rejected as error:
        raise json.JSONDecodeError(error.message, text, UNKNOWN) from None
    except RecursionError:
        raise json.JSONDecodeError("the JSON is nested too deeply", text, UNKNOWN) from None
    except json.JSONDecodeError:
        raise
    except ValueError:  # an integer of more digits than Python converts (sys.get_int_max_str_digits)
        raise json.JSONDecodeError("a number has too many digits", text, UNKNOWN) from None


def loads_flat(body: bytes) -> dict[str, str | None] | None:
    """A body that is one flat object of strings and nulls, parsed quickly; ``None`` when unsure.

    The C decoder alone parses it, without the hooks :func:`loads` needs: with no backslash in
    the text every key is written as itself, so no key repeats when each one appears once in
    the text. Anything else, including anything that is not strict JSON, gives ``None``, and
    :func:`loads` must judge it, as it must a body over :data:`FLAT_LIMIT` bytes (no plain
    request needs as many), which is not parsed here at all.
    """
    if len(body) > FLAT_LIMIT:
        return None
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if "\\" in text:
        return None
    try:
        value = _FLAT.decode(text)
    except (_Rejected, ValueError, RecursionError):
        return None
    if type(value) is not dict:
        return None
    for key, item in value.items():
        if not (item is None or type(item) is str) or text.count(f'"{key}"') != 1:
            return None
    return value


class StrictRequest(Request):
    """A request whose :meth:`json` is strict JSON, parsed at most once."""

    async def json(self) -> Any:  # noqa: ANN401 - Starlette's signature
        state = self.scope.get("state")
        if state is None or PARSED_BODY not in state:
            self.scope.setdefault("state", {})[PARSED_BODY] = loads(await self.body())
        return self.scope["state"][PARSED_BODY]


Handler = Callable[[Request], Coroutine[Any, Any, Response]]


class StrictRoute(APIRoute):
    """The API's route class: :class:`StrictRequest` bodies, ``415`` and repeated parameters refused."""

    def get_route_handler(self) -> Handler:
        handle = super().get_route_handler()

        async def strict(request: Request) -> Response:
            strict = StrictRequest(request.scope, request.receive)
            refuse_repeated_parameters(strict)
            if strict.method == "POST" and await strict.body():
                content_type = strict.headers.get("content-type")
                if not is_json(content_type):
                    raise HTTPException(
                        415,
                        "the request body must be JSON sent with Content-Type: application/json; "
                        f"got {content_type or 'none'}",
                    )
            return await handle(strict)

        return strict


def refuse_repeated_parameters(request: Request) -> None:
    """``422`` naming the query parameters given more than once, if any."""
    pairs = request.query_params.multi_items()
    if len(pairs) == len(request.query_params):
        return
    seen: set[str] = set()
    repeated: dict[str, None] = {}
    for name, _ in pairs:
        if name in seen:
            repeated[name] = None
        seen.add(name)
    raise RequestValidationError(
        [
            {"type": "duplicate_parameter", "loc": ("query", name), "msg": f"{name} is given more than once"}
            for name in list(repeated)[:MAX_LISTED_ERRORS]
        ]
    )
