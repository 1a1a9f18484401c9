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
handed on in the request's state (:func:`hand_on`), its JSON or its fault, and not
parsed again. A large body (:data:`~.facts.COSTLY_BODY`) is parsed in a worker
thread, off the event loop, which goes on serving the other requests.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Coroutine
from typing import Any

from anyio import to_thread
from fastapi import Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute
from starlette.types import Scope

from ..game.words import Message, Said
from .facts import COSTLY_BODY, PARSED_BODY, body_facts
from .media import is_json, not_json
from .problems import MAX_LISTED_ERRORS, Fault, Refused, input_error, quoted

#: The position of an error that has none in particular.
UNKNOWN = -1


class _Rejected(Exception):
    """What strict JSON refuses that Python's decoder takes: it says what."""

    def __init__(self, said: Said) -> None:
        super().__init__(str(said))
        self.said = said


def _no_constants(name: str) -> object:
    raise _Rejected(Said.of(Message("error", "{name} is not a JSON value"), name=name))


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)  # in C; the keys are looked at one by one only when some repeat
    if len(result) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Rejected(
                    Said.of(Message("error", "duplicate key {key} in a JSON object"), key=quoted(key))
                )
            seen.add(key)
    return result


#: The decoder, made once (``json.loads`` with these hooks makes one on every call).
_STRICT = json.JSONDecoder(parse_constant=_no_constants, object_pairs_hook=_unique_keys)


def loads(body: bytes) -> object:
    """Parse a request body as strict JSON; raise :class:`json.JSONDecodeError` otherwise."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as error:
        raise Fault(
            Said.of(Message("error", "the body is not UTF-8 text (byte {byte})"), byte=error.start)
        ) from None
    try:
        return _STRICT.decode(text)
    except _Rejected as error:
        raise Fault(error.said, text, UNKNOWN) from None
    except RecursionError:
        raise Fault(Said.of(Message("error", "the JSON is nested too deeply")), text, UNKNOWN) from None
    except json.JSONDecodeError:
        raise
    except ValueError:  # an integer of more digits than Python converts (sys.get_int_max_str_digits)
        raise Fault(Said.of(Message("error", "a number has too many digits")), text, UNKNOWN) from None


async def parse(body: bytes) -> object:
    """:func:`loads`; a body over :data:`~.facts.COSTLY_BODY` bytes in a worker thread."""
    return await to_thread.run_sync(loads, body) if len(body) > COSTLY_BODY else loads(body)


def hand_on(scope: Scope, parsed: object) -> None:
    """Keep a body's JSON, or the :class:`json.JSONDecodeError` it raised, for the routes to read."""
    scope.setdefault("state", {})[PARSED_BODY] = parsed


class StrictRequest(Request):
    """A request whose :meth:`json` is strict JSON, parsed at most once, a large body off the loop."""

    async def json(self) -> Any:  # noqa: ANN401 - Starlette's signature
        state = self.scope.setdefault("state", {})
        if PARSED_BODY not in state:
            try:
                hand_on(self.scope, await parse(await self.body()))
            except json.JSONDecodeError as error:
                hand_on(self.scope, error)
        parsed = state[PARSED_BODY]
        if isinstance(parsed, json.JSONDecodeError):
            raise parsed
        return parsed


Handler = Callable[[Request], Coroutine[Any, Any, Response]]


class StrictRoute(APIRoute):
    """The API's route class: :class:`StrictRequest` bodies, ``415`` and repeated parameters refused."""

    def get_route_handler(self) -> Handler:
        handle = super().get_route_handler()

        async def strict(request: Request) -> Response:
            strict = StrictRequest(request.scope, request.receive)
            refuse_repeated_parameters(strict)
            if strict.method == "POST" and await strict.body():
                content_type = body_facts(strict.scope).content_type
                if not is_json(content_type):
                    raise Refused(415, not_json(content_type))
            return await handle(strict)

        return strict


_TWICE = Message("error", "{name} is given more than once")


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
            input_error("duplicate_parameter", ("query", name), Said.of(_TWICE, name=name))
            for name in list(repeated)[:MAX_LISTED_ERRORS]
        ]
    )
