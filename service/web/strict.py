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
A large body is parsed in pieces, between which other requests are served
(:func:`loads_in_turns`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from fastapi import HTTPException, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute

from .admission import COSTLY_BODY, Turns, turns
from .media import is_json, not_json
from .problems import MAX_LISTED_ERRORS

#: The key of ``scope["state"]`` under which a body parsed before routing is handed on.
PARSED_BODY = "parsed_body"

#: The position of an error that has none in particular.
UNKNOWN = -1


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


#: The decoder, made once (``json.loads`` with these hooks makes one on every call).
_STRICT = json.JSONDecoder(parse_constant=_no_constants, object_pairs_hook=_unique_keys)


def loads(body: bytes) -> object:
    """Parse a request body as strict JSON; raise :class:`json.JSONDecodeError` otherwise."""
    return _decode(_text(body))


def _text(body: bytes) -> str:
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError as error:
        raise json.JSONDecodeError(f"the body is not UTF-8 text (byte {error.start})", "", UNKNOWN) from None


def _decode(text: str) -> object:
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


async def parse(body: bytes) -> object:
    """:func:`loads`; a body over :data:`~.admission.COSTLY_BODY` bytes in turns (:func:`loads_in_turns`)."""
    return await loads_in_turns(body) if len(body) > COSTLY_BODY else loads(body)


async def loads_in_turns(body: bytes) -> object:
    """:func:`loads`, done in pieces between which the event loop serves other requests.

    The C decoder takes some 10 ms to parse a megabyte, without a pause. Here the value is
    taken apart down to :data:`SPLIT_DEPTH` levels: the members or items of the body, and
    theirs (so a batch's items), each part below that parsed whole by the same decoder, and
    :class:`~.admission.Turns` lets others run between two parts. The value is the one
    :func:`loads` gives, and so is an error: when anything is amiss, :func:`loads` parses the
    body with what was already read of each open object or array put in one short member or
    item (an empty string), so it fails at the same place with the same message, at once, and
    the position it gives is moved back by what was taken out.
    """
    text = _text(body)
    reader = _Pieces(text, turns())
    start = _skip(text, 0)
    try:
        value, end = await reader.value(start, 0)
    except _Rejected as error:  # a repeated key or a constant, refused where the decoder refuses it
        raise json.JSONDecodeError(error.message, text, UNKNOWN) from None
    except (_Amiss, ValueError, RecursionError):
        return reader.again()
    if _skip(text, end) == len(text):
        return value
    reader.open.append(_Open('""', start, end))  # a whole value, and something after it
    return reader.again()


#: How many levels of a large body :func:`loads_in_turns` takes apart.
SPLIT_DEPTH = 2
#: The most text parsed in one piece for a run of small items (plain values, or objects and arrays
#: of a few plain values, as a batch's items are) or of members with plain values: one by one, the
#: decoder would be called for each, which costs several times what it takes to parse them.
RUN_CHARS = 16 * 1024
#: The most members or items of an object or array that is a small item.
SMALL = 9

_WS = r"[ \t\n\r]*+"
_WHITESPACE = re.compile(_WS)
_STRING = r'"[^"\\]*+(?:\\.[^"\\]*+)*+"'
#: A string, or what could be a number or a constant (the decoder judges whether it is one).
_PLAIN = rf'(?:{_STRING}|[^ \t\n\r"\[\]{{}},:]++)'
_MEMBER = rf"{_STRING}{_WS}:{_WS}{_PLAIN}"
_SMALL_OBJECT = rf"\{{{_WS}(?:{_MEMBER}{_WS}(?:,{_WS}{_MEMBER}{_WS}){{0,{SMALL - 1}}}+)?\}}"
_SMALL_ARRAY = rf"\[{_WS}(?:{_PLAIN}{_WS}(?:,{_WS}{_PLAIN}{_WS}){{0,{SMALL - 1}}}+)?\]"
_SMALL_ITEMS = re.compile(rf"(?:(?:{_PLAIN}|{_SMALL_OBJECT}|{_SMALL_ARRAY}){_WS},{_WS})++")
_PLAIN_MEMBERS = re.compile(rf"(?:{_MEMBER}{_WS},{_WS})++")
#: Members read as pairs, for :func:`_unique_keys` to judge once the whole object is read.
_PAIRS = json.JSONDecoder(parse_constant=_no_constants, object_pairs_hook=list)


def _skip(text: str, at: int) -> int:
    return _WHITESPACE.match(text, at).end()  # type: ignore[union-attr]  # it matches the empty string


class _Amiss(Exception):
    """What :class:`_Pieces` read is not strict JSON: :meth:`_Pieces.again` says how."""


@dataclass
class _Open:
    """An object or array being read in pieces: where its members or items began, where the last ended.

    ``short`` is what stands for them in the text :meth:`_Pieces.again` gives :func:`loads`: a string,
    which ends where it ends whatever follows (``0`` followed by ``.5`` would be another number).
    """

    short: str
    first: int = -1
    last: int = -1


class _Pieces:
    """A JSON text read by :func:`loads_in_turns`."""

    def __init__(self, text: str, own: Turns) -> None:
        self.text = text
        self.turns = own
        self.open: list[_Open] = []

    async def value(self, at: int, depth: int) -> tuple[object, int]:
        """The value at ``at``, ``depth`` levels down: taken apart if less than :data:`SPLIT_DEPTH`."""
        kind = self.text[at : at + 1]
        if depth >= SPLIT_DEPTH or kind not in ("[", "{"):
            if self.turns.due():
                await self.turns.take()
            return _STRICT.raw_decode(self.text, at)
        self.open.append(_Open('""' if kind == "[" else '"":""'))
        found = await (self.items(at, depth + 1) if kind == "[" else self.members(at, depth + 1))
        self.open.pop()
        return found

    async def whole(self, decoder: json.JSONDecoder, text: str) -> Any:  # noqa: ANN401 - the decoder's
        """``text`` parsed in one piece, once others have had their turn."""
        if self.turns.due():
            await self.turns.take()
        return decoder.raw_decode(text)[0]

    async def items(self, at: int, depth: int) -> tuple[list[object], int]:
        text, here = self.text, self.open[-1]
        items: list[object] = []
        at = _skip(text, at + 1)
        if text[at : at + 1] == "]":
            return items, at + 1
        here.first = at
        while True:
            run = _SMALL_ITEMS.match(text, at, at + RUN_CHARS)
            if run is None:
                item, at = await self.value(at, depth)
                items.append(item)
            else:  # small items, up to the last comma of the run
                start, at = at, text.rindex(",", at, run.end())
                items += await self.whole(_STRICT, f"[{text[start:at]}]")
            here.last = at
            at = _skip(text, at)
            if text[at : at + 1] == "]":
                return items, at + 1
            if text[at : at + 1] != ",":
                raise _Amiss
            at = _skip(text, at + 1)

    async def members(self, at: int, depth: int) -> tuple[dict[str, object], int]:
        text, here = self.text, self.open[-1]
        pairs: list[tuple[str, object]] = []
        at = _skip(text, at + 1)
        if text[at : at + 1] == "}":
            return _unique_keys([]), at + 1
        here.first = at
        while True:
            run = _PLAIN_MEMBERS.match(text, at, at + RUN_CHARS)
            if run is not None:  # members with plain values, up to the last comma of the run
                start, at = at, text.rindex(",", at, run.end())
                pairs += await self.whole(_PAIRS, f"{{{text[start:at]}}}")
            elif text[at : at + 1] != '"':
                raise _Amiss
            else:
                key, at = _STRICT.raw_decode(text, at)  # a string
                at = _skip(text, at)
                if text[at : at + 1] != ":":
                    raise _Amiss
                value, at = await self.value(_skip(text, at + 1), depth)
                pairs.append((key, value))
            here.last = at
            at = _skip(text, at)
            if text[at : at + 1] == "}":
                return _unique_keys(pairs), at + 1
            if text[at : at + 1] != ",":
                raise _Amiss
            at = _skip(text, at + 1)

    def again(self) -> object:
        """What :func:`loads` gives for the text, which is not what was read; see :func:`loads_in_turns`."""
        parts: list[str] = []
        taken_out = after = 0
        for found in self.open:
            if found.last < 0:
                continue
            parts += (self.text[after : found.first], found.short)
            taken_out += found.last - found.first - len(found.short)
            after = found.last
        if not parts:
            return _decode(self.text)
        try:
            _decode("".join([*parts, self.text[after:]]))
        except json.JSONDecodeError as error:
            place = error.pos if error.pos == UNKNOWN else error.pos + taken_out
            raise json.JSONDecodeError(error.msg, self.text, place) from None
        return _decode(self.text)  # not expected: the shortened text has the fault of the whole


class StrictRequest(Request):
    """A request whose :meth:`json` is strict JSON, parsed at most once, a large body in turns."""

    async def json(self) -> Any:  # noqa: ANN401 - Starlette's signature
        state = self.scope.get("state")
        if state is None or PARSED_BODY not in state:
            self.scope.setdefault("state", {})[PARSED_BODY] = await parse(await self.body())
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
                    raise HTTPException(415, not_json(content_type))
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
