"""The fast lane: the API's table lookups answered before routing, the one room for speed.

Three operations are lookups in the kept answers, and the busiest: ``POST /v1/best-move`` and
``GET /v1/best-move`` with a board string and perhaps a player and a variant, and ``GET
/v1/positions/{board}`` perhaps with a player and a variant. When such a request is *plain* (a board
string of the variant's length in its symbols, in any spelling, and a player, that its rules hold
legal, :meth:`~service.answers.Answers.lookup`, the same in every variant; an unfinished board where a
move is asked; no other member or parameter; a body sent as JSON in strict JSON) this middleware
answers it
with the routes' own answers (:class:`~service.answers.Answers`, :func:`.caching.cacheable`,
:func:`.caching.json_response`): the same bytes, headers and entity tag. Anything else goes on,
untouched, to the routes (:mod:`.routes.moves`, :mod:`.routes.analysis`), which validate it and
name what is wrong; a body read here is handed on as it came, and its JSON, or its fault, in the
request's state, so that nothing is read or parsed twice. The rules it pins are those of
``BestMoveRequest``, ``BestMoveQuery`` and ``PositionQuery`` for plain requests:
``tests/api/test_fast_lane.py`` compares its answer with the app's without it, on every position
and on requests that are not plain, and fails when the routes and the lane part.

It saves routing, dependency solving and model validation: about two thirds of a plain request's
time in the app (``make bench``, bench/README.md, "The speed rules").
"""

from __future__ import annotations

import json
from urllib.parse import parse_qsl

from fastapi.routing import APIRoute
from starlette.datastructures import Headers
from starlette.responses import Response
from starlette.routing import BaseRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..answers import Answers
from ..game.variants import STANDARD, VARIANTS, VariantPosition
from ..language import well_formed
from . import strict, work
from .caching import cacheable, json_response
from .facts import body_facts
from .language import Spoken, spoken
from .media import is_json

BEST_MOVE = "/v1/best-move"
POSITIONS = "/v1/positions/"
#: The routes the lane answers for, by method and path template.
SHADOWED = {("POST", BEST_MOVE), ("GET", BEST_MOVE), ("GET", POSITIONS + "{board}")}
#: The members or parameters of a plain request.
PLAIN = frozenset({"variant", "board", "player", "lang"})
#: The variant of a request that names none: the standard game, entry zero of the registry.
DEFAULT_VARIANT = STANDARD.id
#: The longest body read here: a plain best-move body is some 40 bytes.
MAX_PLAIN_BODY = 1024


class FastLane:
    """ASGI middleware answering plain table lookups; see the module's docstring."""

    def __init__(self, app: ASGIApp, *, answers: Answers, routes: list[BaseRoute]) -> None:
        self.app = app
        self.answers = answers
        self.routes = {
            (method, route.path): route
            for route in routes
            if isinstance(route, APIRoute)
            for method in route.methods or ()
            if (method, route.path) in SHADOWED
        }
        if self.routes.keys() != SHADOWED:
            raise LookupError(f"the fast lane shadows routes the app lacks: {SHADOWED - self.routes.keys()}")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        answer = route = None
        if scope["type"] == "http" and scope["method"] == "GET":
            answer, route = await self._get(scope)
        elif scope["type"] == "http" and scope["method"] == "POST" and scope["path"] == BEST_MOVE:
            route = ("POST", BEST_MOVE)
            scope["route"] = self.routes[route]  # a client that leaves mid-body is counted here
            answer, receive = await self._post(scope, receive)
        if answer is None or route is None:
            await self.app(scope, receive, send)
            return
        scope["route"] = self.routes[route]  # what the metrics and the access log are labelled by
        await answer(scope, receive, send)

    async def _get(self, scope: Scope) -> tuple[Response | None, tuple[str, str] | None]:
        path: str = scope["path"]
        query = _query(scope)
        headers = Headers(scope=scope)
        language = None if query is None else _language(query.get("lang"), headers)
        if language is None or query is None:
            return None, None
        if path == BEST_MOVE and query.keys() <= PLAIN:
            variant = query.get("variant", DEFAULT_VARIANT)
            position = self._unfinished(query.get("board"), query.get("player"), variant)
            entity = None if position is None else self.answers.best_move(position, language.tag)
            route = ("GET", BEST_MOVE)
        elif path.startswith(POSITIONS) and query.keys() <= {"player", "variant", "lang"}:
            position = self._position(
                path.removeprefix(POSITIONS), query.get("player"), query.get("variant", DEFAULT_VARIANT)
            )
            entity = None if position is None else await work.analysis(self.answers, position, language.tag)
            route = ("GET", POSITIONS + "{board}")
        else:
            return None, None
        if entity is None:
            return None, None
        return cacheable(entity, headers.get("if-none-match"), language), route

    async def _post(self, scope: Scope, receive: Receive) -> tuple[Response | None, Receive]:
        """The answer to a plain best-move body, and what the routes receive when it is not plain."""
        facts = body_facts(scope)
        if scope["query_string"] or not is_json(facts.content_type):
            return None, receive
        if facts.sized and (facts.length is None or facts.length > MAX_PLAIN_BODY):
            return None, receive  # a large body is no plain one
        messages, body = await _small_body(receive)
        replay = _replay(messages, receive)
        if body is None:
            return None, replay  # chunked and large, or the client left: the routes' layers say so
        try:
            data = strict.loads(body)
        except json.JSONDecodeError as error:
            strict.hand_on(scope, error)
            return None, replay
        position = self._plain(data)
        lang = data.get("lang") if type(data) is dict else None
        language = _language(lang, Headers(scope=scope))
        if position is None or language is None:
            strict.hand_on(scope, data)
            return None, replay
        return json_response(self.answers.best_body(position, language.tag), language), receive

    def _plain(self, data: object) -> VariantPosition | None:
        """The unfinished position of a body that is a board string, perhaps a player, a variant and a
        language."""
        if type(data) is not dict or not data.keys() <= PLAIN:
            return None
        # An absent variant is the standard game; a null one is no variant, which the routes refuse.
        return self._unfinished(data.get("board"), data.get("player"), data.get("variant", DEFAULT_VARIANT))

    def _unfinished(self, board: object, player: object, variant: object) -> VariantPosition | None:
        """The position of a board string, a player and a variant, when it is legal and the game goes on."""
        position = self._position(board, player, variant)
        return None if position is None or position.player is None else position

    def _position(self, board: object, player: object, variant: object) -> VariantPosition | None:
        if type(board) is not str or not (player is None or type(player) is str):
            return None
        if type(variant) is not str or variant not in VARIANTS:
            return None
        return self.answers.lookup(variant, board, player)


def _language(lang: object, headers: Headers) -> Spoken | None:
    """The language of a plain request's answer: its ``lang`` when it is a well-formed tag, else its
    ``Accept-Language``; ``None`` when ``lang`` is not a well-formed tag (the routes say why)."""
    if lang is not None and (type(lang) is not str or not well_formed(lang)):
        return None
    return spoken(lang, headers.get("accept-language"))


def _query(scope: Scope) -> dict[str, str] | None:
    """The query parameters, or ``None`` when one is given more than once (the routes refuse it)."""
    pairs = parse_qsl(scope["query_string"].decode("latin-1"), keep_blank_values=True)
    params = dict(pairs)
    return params if len(params) == len(pairs) else None


async def _small_body(receive: Receive) -> tuple[list[Message], bytes | None]:
    """The messages of a request body, and the body: ``None`` when it grew past
    :data:`MAX_PLAIN_BODY` bytes (the rest is not read) or the client left before it ended."""
    messages = [await receive()]
    size = len(messages[0].get("body", b""))
    while messages[-1].get("more_body", False) and size <= MAX_PLAIN_BODY:
        messages.append(await receive())
        size += len(messages[-1].get("body", b""))
    if messages[-1].get("more_body", False) or messages[-1]["type"] != "http.request":
        return messages, None
    return messages, b"".join(message.get("body", b"") for message in messages)


def _replay(messages: list[Message], receive: Receive) -> Receive:
    """``receive`` giving ``messages`` again first, then what the client sends next."""
    pending = list(messages)

    async def replay() -> Message:
        return pending.pop(0) if pending else await receive()

    return replay
