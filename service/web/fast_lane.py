"""The fast lane: plain best moves and positions answered from the solved table, before routing.

A *plain* request names a position by a board string and perhaps the player, and
nothing else. The fast lane answers exactly these:

========================================  ==============================================
``POST /v1/best-move``                    ``{"board": "X........"}``, perhaps ``"player"``
``GET /v1/best-move``                     ``?board=X........``, perhaps ``&player=O``
``POST /v1/best-move/batch``              ``{"items": [...]}``, every item plain
``GET /v1/positions/{board}``             perhaps ``?player=O``
========================================  ==============================================

when the board is legal, the player agrees with it, and, for a move, the game is
not over. The solved game holds every such position under exactly those keys
(:meth:`~service.game.SolvedGame.lookup`), so no validation is needed: the answer
is made by the routes' own functions (:mod:`.caching`, :class:`.answers.Answers`),
so it has the same bytes, headers and entity tag. ``tests/api/test_fast_lane.py``
checks that it does, on every position, against the app without the fast lane.

Anything else goes on, untouched, to the routes, which read it strictly
(:mod:`.strict`), validate it and name what is wrong: options, another board form,
an illegal or finished board where a move is asked, a body not sent as JSON or not
strict JSON, a parameter given twice, any other path or method. A body read here
is handed on to them as it came (and its JSON, once parsed, in the request's
state), so no request is read or parsed twice.

It is the innermost of the app's middleware, so every request it answers has
had what every request gets (request id, limits, metrics, access log, CORS).
"""

from __future__ import annotations

import json
from typing import TypeGuard
from urllib.parse import parse_qsl

from fastapi.routing import APIRoute
from starlette.responses import Response
from starlette.routing import BaseRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..game import Mark, Options, Position, SolvedGame
from ..game.choice import DEFAULT as DEFAULT_OPTIONS
from ..schemas import MAX_BATCH_ITEMS
from . import strict
from .answers import Answers
from .caching import cacheable, json_response
from .headers import header
from .media import is_json

BEST_MOVE = "/v1/best-move"
BATCH = "/v1/best-move/batch"
POSITIONS = "/v1/positions/"
#: The path templates of the routes the fast lane answers for, by method.
ROUTES = {("POST", BEST_MOVE), ("GET", BEST_MOVE), ("POST", BATCH), ("GET", POSITIONS + "{board}")}

PLAYERS: tuple[Mark | None, ...] = (None, "X", "O")
#: The longest body read here: a plain batch of 1,000 items, with room for spaces.
MAX_PLAIN_BODY = 64 * 1024


class FastLane:
    """ASGI middleware answering plain requests from the solved table; see the module's docstring."""

    def __init__(self, app: ASGIApp, *, answers: Answers, routes: list[BaseRoute]) -> None:
        self.app = app
        self.answers = answers
        self.game: SolvedGame = answers.game
        self.routes = _routes_answered(routes)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        method, path = scope["method"], scope["path"]
        answer: Response | None = None
        if method == "GET":
            if path == BEST_MOVE:
                answer = self.get_best_move(scope)
            elif path.startswith(POSITIONS):
                answer = self.get_position(scope, path.removeprefix(POSITIONS))
                path = POSITIONS + "{board}"
        elif method == "POST" and path in (BEST_MOVE, BATCH):
            scope["route"] = self.routes[method, path]  # a client that leaves mid-body is counted here
            body = await _plain_body(scope, receive)
            if body is not None:
                messages, data = body
                receive = _replay(messages, receive)
                if data is not None:
                    answer = self.post_best_move(data) if path == BEST_MOVE else await self.post_batch(data)
                    if answer is None:
                        scope.setdefault("state", {})[strict.PARSED_BODY] = data
        if answer is None:
            await self.app(scope, receive, send)
            return
        scope["route"] = self.routes[method, path]  # what the routes' metrics and logs are labelled by
        await answer(scope, receive, send)

    def get_best_move(self, scope: Scope) -> Response | None:
        params = _query(scope)
        if params is None or not params.keys() <= {"board", "player"}:
            return None
        position = self._position(params.get("board"), params.get("player"))
        if position is None or position.to_move is None:
            return None
        return cacheable(self.answers.best_move(position), header(scope["headers"], b"if-none-match"))

    def get_position(self, scope: Scope, board: str) -> Response | None:
        params = _query(scope)
        if params is None or not params.keys() <= {"player"}:
            return None
        position = self._position(board, params.get("player"))
        if position is None:
            return None
        return cacheable(self.answers.analysis(position), header(scope["headers"], b"if-none-match"))

    def post_best_move(self, data: object) -> Response | None:
        position = self._plain(data)
        if position is None:
            return None
        return json_response(self.answers.best_move(position).body)

    async def post_batch(self, data: object) -> Response | None:
        if type(data) is not dict or data.keys() != {"items"}:
            return None
        items = data["items"]
        if type(items) is not list or not 1 <= len(items) <= MAX_BATCH_ITEMS:
            return None
        requests: list[tuple[Position, Options]] = []
        for item in items:
            position = self._plain(item)
            if position is None:
                return None
            requests.append((position, DEFAULT_OPTIONS))
        return json_response(await self.answers.batch(requests))

    def _plain(self, data: object) -> Position | None:
        """The unfinished position of a body that is a board string and perhaps a player, else ``None``."""
        if type(data) is not dict or not data.keys() <= {"board", "player"}:
            return None
        position = self._position(data.get("board"), data.get("player"))
        return None if position is None or position.to_move is None else position

    def _position(self, board: object, player: object) -> Position | None:
        if type(board) is not str or not _is_player(player):
            return None
        return self.game.lookup(board, player)


def _is_player(value: object) -> TypeGuard[Mark | None]:
    return value in PLAYERS


def _routes_answered(routes: list[BaseRoute]) -> dict[tuple[str, str], APIRoute]:
    """The routes the fast lane answers for, by method and path template; all must be there."""
    found = {
        (method, route.path): route
        for route in routes
        if isinstance(route, APIRoute)
        for method in route.methods or ()
        if (method, route.path) in ROUTES
    }
    missing = ROUTES - found.keys()
    if missing:
        raise LookupError(f"the fast lane answers for routes the app does not have: {sorted(missing)}")
    return found


def _query(scope: Scope) -> dict[str, str] | None:
    """The query parameters, or ``None`` when one is given more than once (the routes refuse it)."""
    raw: bytes = scope["query_string"]
    if not raw:
        return {}
    query = raw.decode("latin-1")
    if "%" in query or "+" in query:
        pairs = parse_qsl(query, keep_blank_values=True)
    else:  # what parse_qsl gives, split by hand: nothing to unescape
        pairs = [
            (name, value) for name, _, value in (part.partition("=") for part in query.split("&") if part)
        ]
    params = dict(pairs)
    return params if len(params) == len(pairs) else None


async def _plain_body(scope: Scope, receive: Receive) -> tuple[list[Message], object | None] | None:
    """The messages of a JSON body that could be plain, and its JSON (``None`` if it is not strict JSON).

    ``None`` when the body is not worth reading here: not sent as JSON, or longer than
    :data:`MAX_PLAIN_BODY` as declared. A chunked body is read until it ends or grows past it.
    """
    if not is_json(header(scope["headers"], b"content-type")):
        return None
    length = header(scope["headers"], b"content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_PLAIN_BODY):
        return None
    messages: list[Message] = []
    size = 0
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            return messages, None
        size += len(message.get("body", b""))
        if size > MAX_PLAIN_BODY:
            return messages, None
        if not message.get("more_body", False):
            break
    body = b"".join(message.get("body", b"") for message in messages)
    data: object = strict.loads_flat(body)
    if data is None:
        try:
            data = await strict.parse(body)
        except json.JSONDecodeError:
            return messages, None  # the routes parse it again and say where it fails
    return messages, data


def _replay(messages: list[Message], receive: Receive) -> Receive:
    """``receive`` giving ``messages`` again first, then what the client sends next."""
    pending = list(messages)

    async def replay() -> Message:
        return pending.pop(0) if pending else await receive()

    return replay
