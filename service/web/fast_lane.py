"""The fast lane: plain best moves and positions answered from the solved table, before routing.

A *plain* request names a position by a board string and perhaps the player, and
nothing else. The fast lane answers exactly these:

========================================  ==============================================
``POST /v1/best-move``                    ``{"board": "X........"}``, perhaps ``"player"``
``GET /v1/best-move``                     ``?board=X........``, perhaps ``&player=O``
``POST /v1/best-move/batch``              ``{"items": [...]}``, every item plain
``GET /v1/positions/{board}``             perhaps ``?player=O``
``POST /v1/review``                       ``{"moves": [...]}``, perhaps a board string and ``"player"``
``GET /v1/puzzles``                       filters, ``limit`` and ``cursor`` in plain form
``GET /v1/puzzles/{puzzle_id}``           a puzzle's id, no query
========================================  ==============================================

when the board is legal, the player agrees with it, and, for a move, the game is
not over, and, for a review, its moves are 1 to 9 cells (JSON integers from 0 to 8),
each legal when it is played. The solved game holds every such position under exactly those keys
(:meth:`~service.game.SolvedGame.lookup`), so no validation is needed; a puzzle
query is plain when each value is written as the routes' models would write it (a
theme or an outcome by name, a number in digits without a leading zero, within its
bounds, a cursor the service gave) and a puzzle id is plain when it is a puzzle's.
The answer is made by the routes' own functions (:mod:`.caching`,
:class:`.answers.Answers`, :class:`.coach.Coach`), so it has the same bytes,
headers and entity tag. ``tests/api/test_fast_lane.py``
checks that it does, on every position, against the app without the fast lane.
A best-move body written as clients write plain ones (:data:`PLAIN_BEST_MOVE`: one or
two members, strings without escapes) is matched as it is, without being parsed.

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
import re
from typing import TypeGuard
from urllib.parse import parse_qsl

from fastapi.routing import APIRoute
from starlette.responses import Response
from starlette.routing import BaseRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..game import Board, Mark, Position, SolvedGame
from ..game.puzzles import THEMES, Theme
from ..game.review import IllegalMove
from ..schemas import MAX_BATCH_ITEMS, MAX_PUZZLE_PAGE, PUZZLE_PAGE
from . import strict
from .answers import Answers
from .caching import cacheable, json_response
from .coach import Coach, PuzzleFilter
from .headers import header
from .media import is_json

BEST_MOVE = "/v1/best-move"
BATCH = "/v1/best-move/batch"
POSITIONS = "/v1/positions/"
REVIEW = "/v1/review"
PUZZLES = "/v1/puzzles"
PUZZLE = PUZZLES + "/"
RANDOM_PUZZLE = PUZZLE + "random"
#: The path templates of the routes the fast lane answers for, by method.
ROUTES = {
    ("POST", BEST_MOVE),
    ("GET", BEST_MOVE),
    ("POST", BATCH),
    ("GET", POSITIONS + "{board}"),
    ("POST", REVIEW),
    ("GET", PUZZLES),
    ("GET", PUZZLE + "{puzzle_id}"),
}
#: The query parameters of ``GET /v1/puzzles``.
PUZZLE_QUERY = frozenset({"theme", "outcome", "min_rating", "max_rating", "limit", "cursor"})

PLAYERS: tuple[Mark | None, ...] = (None, "X", "O")
#: The members of a plain best-move request.
PLAIN_KEYS = frozenset({"board", "player"})
#: A review's starting board when its request gives none.
EMPTY_BOARD = Board.empty().cells
#: JSON's white space.
_SPACE = rb"[ \t\n\r]*"
#: A member of a best-move body: ``board`` or ``player``, then a string of printable ASCII without
#: quotes or escapes (so its own text, as written), or ``null``.
_MEMBER = rb'"(board|player)"' + _SPACE + b":" + _SPACE + rb'(?:"([ !#-\[\]-~]{0,32})"|null)'
#: How plain best-move bodies are written, compact or spaced: one or two such members. A body that
#: matches is answered without being parsed; any other is parsed (strict JSON) and answered alike.
PLAIN_BEST_MOVE = re.compile(  # { member } or { member , member }, white space anywhere between
    rb"%b\{%b%b(?:%b,%b%b)?%b\}%b" % (_SPACE, _SPACE, _MEMBER, _SPACE, _SPACE, _MEMBER, _SPACE, _SPACE)
)
#: The longest body read here: a plain batch of 1,000 items, with room for spaces.
MAX_PLAIN_BODY = 64 * 1024


class FastLane:
    """ASGI middleware answering plain requests from the solved table; see the module's docstring."""

    def __init__(self, app: ASGIApp, *, answers: Answers, coach: Coach, routes: list[BaseRoute]) -> None:
        self.app = app
        self.answers = answers
        self.coach = coach
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
            elif path == PUZZLES:
                answer = self.get_puzzles(scope)
            elif path.startswith(PUZZLE) and path != RANDOM_PUZZLE:
                answer = self.get_puzzle(scope, path.removeprefix(PUZZLE))
                path = PUZZLE + "{puzzle_id}"
        elif method == "POST" and path in (BEST_MOVE, BATCH, REVIEW) and not scope["query_string"]:
            scope["route"] = self.routes[method, path]  # a client that leaves mid-body is counted here
            read = await _json_body(scope, receive)
            if read is not None:
                messages, body = read
                if body is not None:
                    if path == BEST_MOVE:
                        answer = self.post_best_move_as_written(body)
                    if answer is None:
                        answer = await self.post_parsed(scope, path, body)
                if answer is None:
                    receive = _replay(messages, receive)
        if answer is None:
            await self.app(scope, receive, send)
            return
        scope["route"] = self.routes[method, path]  # what the routes' metrics and logs are labelled by
        await answer(scope, receive, send)

    def get_best_move(self, scope: Scope) -> Response | None:
        params = _query(scope)
        if params is None or not params.keys() <= PLAIN_KEYS:
            return None
        position = self._unfinished(params.get("board"), params.get("player"))
        if position is None:
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

    def get_puzzles(self, scope: Scope) -> Response | None:
        params = _query(scope)
        asked = None if params is None else self._puzzle_query(params)
        if asked is None:
            return None
        return cacheable(self.coach.page(*asked), header(scope["headers"], b"if-none-match"))

    def _puzzle_query(self, params: dict[str, str]) -> tuple[PuzzleFilter, int, str | None] | None:
        """The filters, ``limit`` and ``cursor`` of a plain puzzle query, else ``None``."""
        if not params.keys() <= PUZZLE_QUERY or params.get("outcome") not in (None, "win", "draw"):
            return None
        theme: Theme | None = None
        if "theme" in params:
            if not _is_theme(params["theme"]):
                return None
            theme = params["theme"]
        numbers = {
            name: _number(params[name]) for name in ("min_rating", "max_rating", "limit") if name in params
        }
        low, high, limit = (
            numbers.get("min_rating"),
            numbers.get("max_rating"),
            numbers.get("limit", PUZZLE_PAGE),
        )
        if None in numbers.values() or limit is None or not 1 <= limit <= MAX_PUZZLE_PAGE:
            return None
        if low is not None and high is not None and low > high:
            return None
        cursor = params.get("cursor")
        if self.coach.cursor_error(cursor) is not None:
            return None
        return PuzzleFilter(theme, params.get("outcome"), low, high), limit, cursor

    def get_puzzle(self, scope: Scope, puzzle_id: str) -> Response | None:
        found = self.coach.puzzle(puzzle_id)
        if found is None or scope["query_string"]:
            return None
        return cacheable(found, header(scope["headers"], b"if-none-match"))

    def post_best_move_as_written(self, body: bytes) -> Response | None:
        """A best-move body written as plain ones are (:data:`PLAIN_BEST_MOVE`), answered unparsed."""
        found = PLAIN_BEST_MOVE.fullmatch(body)
        if found is None:
            return None
        name, value, other_name, other_value = found.groups()
        if name == other_name:
            return None  # a member given twice: the routes say so
        board, player = (value, other_value) if name == b"board" else (other_value, value)
        if board is None:
            return None
        position = self._unfinished(board.decode("ascii"), None if player is None else player.decode("ascii"))
        if position is None:
            return None
        return json_response(self.answers.best_body(position))

    async def post_parsed(self, scope: Scope, path: str, body: bytes) -> Response | None:
        """The answer to a plain body, once parsed; the JSON of any other is kept for the routes."""
        data = await _json(body)
        if data is None:
            return None
        if path == BEST_MOVE:
            answer = self.post_best_move(data)
        else:
            answer = self.post_batch(data) if path == BATCH else self.post_review(data)
        if answer is None:
            scope.setdefault("state", {})[strict.PARSED_BODY] = data
        return answer

    def post_best_move(self, data: object) -> Response | None:
        position = self._plain(data)
        if position is None:
            return None
        return json_response(self.answers.best_body(position))

    def post_batch(self, data: object) -> Response | None:
        if type(data) is not dict or data.keys() != {"items"}:
            return None
        items = data["items"]
        if type(items) is not list or not 1 <= len(items) <= MAX_BATCH_ITEMS:
            return None
        positions: list[Position] = []
        for item in items:
            position = self._plain(item)
            if position is None:
                return None
            positions.append(position)
        return json_response(self.answers.best_moves(positions))

    def post_review(self, data: object) -> Response | None:
        if type(data) is not dict or "moves" not in data or not data.keys() <= {"moves", "board", "player"}:
            return None
        moves = data["moves"]
        if (
            type(moves) is not list
            or not 1 <= len(moves) <= 9
            or any(type(cell) is not int for cell in moves)
        ):
            return None
        start = self._unfinished(data.get("board", EMPTY_BOARD), data.get("player"))
        if start is None:
            return None
        try:
            return json_response(self.coach.review(start, moves))
        except IllegalMove:
            return None  # the routes say which move, and why

    def _plain(self, data: object) -> Position | None:
        """The unfinished position of a body that is a board string and perhaps a player, else ``None``."""
        if type(data) is not dict or not data.keys() <= PLAIN_KEYS:
            return None
        return self._unfinished(data.get("board"), data.get("player"))

    def _unfinished(self, board: object, player: object) -> Position | None:
        """The position of a board string and a player, when it is legal and the game goes on."""
        position = self._position(board, player)
        return None if position is None or position.to_move is None else position

    def _position(self, board: object, player: object) -> Position | None:
        if type(board) is not str or not _is_player(player):
            return None
        return self.game.lookup(board, player)


def _is_player(value: object) -> TypeGuard[Mark | None]:
    return value in PLAYERS


def _is_theme(value: str) -> TypeGuard[Theme]:
    return value in THEMES


def _number(value: str | None) -> int | None:
    """A whole number from 0 to 999,999 written plainly (digits, no leading zero), else ``None``."""
    if value is None or not value.isdigit() or not value.isascii() or len(value) > 6:
        return None
    if value[0] == "0" and value != "0":
        return None
    return int(value)


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


async def _json_body(scope: Scope, receive: Receive) -> tuple[list[Message], bytes | None] | None:
    """The messages of a JSON body that could be plain, and the body, which is ``None`` when the client
    left before sending it all or the body grew past :data:`MAX_PLAIN_BODY` bytes as it came.

    ``None`` instead, with nothing read, when the body is not worth reading here: not sent as JSON,
    or longer than :data:`MAX_PLAIN_BODY` as declared. A chunked body is read until it ends or grows
    past it.
    """
    content_type = length = None
    for name, value in scope["headers"]:  # both in one pass: every plain POST comes here
        if name == b"content-type":
            content_type = content_type or value
        elif name == b"content-length":
            length = length or value
    if content_type is None or not is_json(content_type.decode("latin-1")):
        return None
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
    parts = [message.get("body", b"") for message in messages]
    return messages, parts[0] if len(parts) == 1 else b"".join(parts)


async def _json(body: bytes) -> object | None:
    """The JSON of a body, or ``None`` when it is not strict JSON (the routes parse it again and say
    where it fails)."""
    try:
        return await strict.parse(body)
    except json.JSONDecodeError:
        return None


def _replay(messages: list[Message], receive: Receive) -> Receive:
    """``receive`` giving ``messages`` again first, then what the client sends next."""
    pending = list(messages)

    async def replay() -> Message:
        return pending.pop(0) if pending else await receive()

    return replay
