"""The route class of API v1: plain requests answered from the solved table, in one place.

A *plain* request names a position with a board string and, perhaps, the
player: ``{"board": "X........"}``, ``?board=X.O......&player=O``,
``/v1/positions/XX.OO....``, or a batch of plain items. The solved game holds
every legal position under exactly those keys, so for a plain request
:class:`TableRoute` needs no Pydantic validation: it builds the endpoint's
declared inputs from the table (with ``model_construct``, since they are
known to be valid) and calls the endpoint itself. Everything else goes to
FastAPI's own handler, which validates the same declared models and names
what is wrong. Both paths call the same endpoint, so they answer alike; the
tests check it on every position.

The route class also reads every request the same way on both paths:

* a body must be sent as JSON (``415`` otherwise) and is parsed as strict JSON
  (:mod:`.strict_json`: duplicate keys, ``NaN`` or non-UTF-8 are ``400``);
* a query parameter given twice is a ``422`` (FastAPI would keep the last).

It refuses, when the route is built, an endpoint it could not call with the
same inputs as FastAPI: a dependency that needs more than the request (the
fast path would skip it), a cookie, a body or query model without a plain form.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeGuard, TypeVar, cast
from urllib.parse import parse_qsl

from fastapi import HTTPException, Request, Response
from fastapi import routing as fastapi_routing
from fastapi.dependencies.models import Dependant
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute
from pydantic import BaseModel, ValidationError
from starlette.requests import ClientDisconnect

from ..game import Board, Mark, SolvedGame
from ..schemas import (
    MAX_BATCH_ITEMS,
    BatchRequest,
    BestMoveRequest,
    PositionRequest,
    first_structural_error,
)
from . import strict_json
from .admission import COSTLY_BODY, Turns

Handler = Callable[[Request], Coroutine[Any, Any, Response]]
RequestT = TypeVar("RequestT", bound=PositionRequest)

PLAYERS: tuple[Mark | None, ...] = (None, "X", "O")
PLAIN_KEYS = frozenset({"board", "player"})
#: At most this many problems are listed in one ``422``.
MAX_LISTED_ERRORS = 10


class StrictJSONRequest(Request):
    """A request whose :meth:`json` is strict JSON; FastAPI's handler reads bodies through it.

    :meth:`body` reads the ASGI messages itself: the same bytes as Starlette's, without its
    stream generator, which costs more than the rest of a plain request.
    """

    async def body(self) -> bytes:
        if not hasattr(self, "_body"):
            chunks: list[bytes] = []
            more = True
            while more:
                message = await self._receive()
                if message["type"] == "http.disconnect":
                    raise ClientDisconnect
                chunks.append(message.get("body", b""))
                more = message.get("more_body", False)
            self._body = chunks[0] if len(chunks) == 1 else b"".join(chunks)
        return self._body

    async def json(self) -> Any:  # noqa: ANN401 - Starlette's signature
        if not hasattr(self, "_json"):
            self._json = strict_json.loads(await self.body())
        return self._json


def header(request: Request, name: bytes) -> str | None:
    """The first header ``name`` (lower case), read straight from the scope."""
    for key, value in request.scope["headers"]:
        if key == name:
            return bytes(value).decode("latin-1")
    return None


def content_type(request: Request) -> str | None:
    """The ``Content-Type`` header."""
    return header(request, b"content-type")


def is_json(content_type: str | None) -> bool:
    """Whether a ``Content-Type`` names JSON: ``application/json`` or ``application/*+json``."""
    media = (content_type or "").split(";", 1)[0].strip().lower()
    return media == "application/json" or (media.startswith("application/") and media.endswith("+json"))


def query_params(request: Request) -> dict[str, str]:
    """The query parameters, each at most once, or ``422`` naming those given more than once."""
    raw: bytes = request.scope["query_string"]
    if not raw:
        return {}
    params: dict[str, str] = {}
    repeated: dict[str, None] = {}
    for name, value in _pairs(raw.decode("latin-1")):
        if name in params:
            repeated[name] = None
        params[name] = value
    if repeated:
        raise RequestValidationError(
            [
                {
                    "type": "duplicate_parameter",
                    "loc": ("query", name),
                    "msg": f"{name} is given more than once",
                }
                for name in list(repeated)[:MAX_LISTED_ERRORS]
            ]
        )
    return params


def _pairs(query: str) -> list[tuple[str, str]]:
    """``parse_qsl(query, keep_blank_values=True)``, split by hand when nothing is escaped."""
    if "%" in query or "+" in query:
        return parse_qsl(query, keep_blank_values=True)
    return [(name, value) for name, _, value in (part.partition("=") for part in query.split("&") if part)]


def plain(data: object) -> tuple[str, Mark | None] | None:
    """``(board, player)`` of input that is only a board string and perhaps a player, else ``None``."""
    if type(data) is dict and data.keys() <= PLAIN_KEYS:
        board, player = data.get("board"), data.get("player")
        if type(board) is str and player in PLAYERS:
            return board, player
    return None


def trusted(model: type[RequestT], data: object, game: SolvedGame) -> RequestT | None:
    """``model`` built from plain input that the table knows to be valid, without validation."""
    given = plain(data)
    if given is None:
        return None
    position = game.lookup(*given)
    if position is None or (position.to_move is None and not model.finished_allowed):
        return None
    trusted: RequestT = _template(model).__copy__()
    fields = trusted.__dict__  # the copy's own: filling it in leaves the template as it was
    fields["board"], fields["player"] = position.board, position.to_move
    return trusted


@cache
def _template(model: type[RequestT]) -> RequestT:
    """An instance of ``model`` with its defaults, to copy: cheaper than ``model_construct``.

    Its fields set are ``board`` and ``player``, as in a request that gives both.
    """
    # The pydantic plugin types model_construct as returning the class it is written on.
    return cast(RequestT, model.model_construct(board=Board.empty(), player=None))


def trusted_batch(model: type[BatchRequest], data: object, game: SolvedGame) -> BatchRequest | None:
    """A batch of plain items, built without validation when the table knows every one."""
    if type(data) is not dict or data.keys() != {"items"}:
        return None
    items = data["items"]
    if type(items) is not list or not 1 <= len(items) <= MAX_BATCH_ITEMS:
        return None
    built = [trusted(BestMoveRequest, item, game) for item in items]
    if not _all_built(built):
        return None
    return model.model_construct(items=built)


#: Batch items validated between two looks at the clock (see :class:`.admission.Turns`).
VALIDATION_SLICE = 50


async def _validated_in_slices(model: type[BaseModel], data: object) -> BatchRequest | None:
    """A large batch validated item by item, letting the event loop serve others between slices.

    The same models validate the same input as FastAPI's handler would, in one pass over the
    items instead of one call for all of them; errors carry the locations FastAPI gives them.
    ``None`` when the body is not a batch of objects (FastAPI's handler then names what is wrong).
    """
    if model is not BatchRequest or type(data) is not dict or data.keys() != {"items"}:
        return None
    items = data["items"]
    if type(items) is not list or not 1 <= len(items) <= MAX_BATCH_ITEMS:
        return None
    built: list[BestMoveRequest] = []
    errors: list[dict[str, Any]] = []
    turns = Turns()
    for start in range(0, len(items), VALIDATION_SLICE):
        await turns.take()
        for index in range(start, min(start + VALIDATION_SLICE, len(items))):
            try:
                built.append(BestMoveRequest.model_validate(items[index]))
            except ValidationError as error:
                errors += [
                    {**found, "loc": ("body", "items", index, *found["loc"])}
                    for found in error.errors(include_url=False)
                ]
    if errors:
        raise RequestValidationError(errors)
    return BatchRequest.model_construct(items=built)


def _all_built(items: list[BestMoveRequest | None]) -> TypeGuard[list[BestMoveRequest]]:
    return None not in items


@dataclass(frozen=True)
class _Inputs:
    """What an endpoint declares, as the fast path fills it in."""

    request_dependencies: tuple[tuple[str, Callable[[Request], Coroutine[Any, Any, Any]]], ...]
    headers: tuple[tuple[str, bytes], ...]
    body: tuple[str, type[BaseModel]] | None
    query: tuple[str, type[BaseModel]] | None
    path_board: str | None


class TableRoute(APIRoute):
    """An API route that answers plain requests from the solved table; see the module's docstring.

    The solved game is read from ``request.app.state.answers.game``.
    """

    def get_route_handler(self) -> Handler:
        validated = super().get_route_handler()
        inputs = _inputs(_effective_dependant(self), self.path)
        endpoint = self.dependant.call
        assert endpoint is not None

        async def handle(request: Request) -> Response:
            request = StrictJSONRequest(request.scope, request.receive)
            arguments = await _plain_arguments(request, inputs)
            if arguments is None:
                return await validated(request)
            response: Response = await endpoint(**arguments)
            return response

        return handle


def _effective_dependant(route: APIRoute) -> Dependant:
    """The dependant FastAPI's handler is being built for.

    FastAPI builds a route's handler once more for each router inclusion, with
    the dependencies of the inclusion added (``include_router(...,
    dependencies=...)``); it says which inclusion through a context variable.
    Reading it here means a dependency added at inclusion is checked too.
    """
    context_var = getattr(fastapi_routing, "_effective_route_context_var", None)
    context = context_var.get() if context_var is not None else None
    if context is not None and getattr(context, "original_route", None) is route and context.dependant:
        dependant: Dependant = context.dependant
        return dependant
    return route.dependant


async def _plain_arguments(request: Request, inputs: _Inputs) -> dict[str, Any] | None:
    """The endpoint's arguments for a plain request, or ``None`` for FastAPI's handler to validate."""
    arguments: dict[str, Any] = {}
    for name, dependency in inputs.request_dependencies:
        arguments[name] = await dependency(request)
    game: SolvedGame = request.app.state.answers.game
    if inputs.body is not None:
        body = await request.body()
        if not body:
            return None
        media_type = content_type(request)
        if not is_json(media_type):
            raise HTTPException(
                415,
                "the request body must be JSON sent with Content-Type: application/json; "
                f"got {media_type or 'none'}",
            )
        data: Any = strict_json.loads_flat(body)
        if data is None:
            try:
                data = await request.json()
            except json.JSONDecodeError:
                return None  # FastAPI's handler parses it again and reports where it fails
        name, model = inputs.body
        value = _trusted_input(model, data, game)
        if value is None:
            # A large body is refused at its first structural fault, before validation, which
            # would pay for one error each; a small one is validated whole, every error listed.
            if len(body) <= COSTLY_BODY:
                return None
            early = first_structural_error(model, data)
            if early is not None:
                raise RequestValidationError([{**early, "loc": ("body", *early["loc"])}])
            value = await _validated_in_slices(model, data)
            if value is None:
                return None
        arguments[name] = value
    if inputs.query is not None:
        params = query_params(request)
        name, model = inputs.query
        if inputs.path_board is not None:
            if not params.keys() <= {"player"} or params.get("player") not in PLAYERS:
                return None
            arguments[inputs.path_board] = request.path_params[inputs.path_board]
            arguments[name] = model.model_construct(None, **dict[str, Any](params))
        else:
            value = _trusted_input(model, params, game)
            if value is None:
                return None
            arguments[name] = value
    for name, field in inputs.headers:
        arguments[name] = header(request, field)
    return arguments


def _trusted_input(model: type[BaseModel], data: object, game: SolvedGame) -> BaseModel | None:
    if issubclass(model, PositionRequest):
        return trusted(model, data, game)
    assert issubclass(model, BatchRequest)
    return trusted_batch(model, data, game)


def _inputs(dependant: Dependant, path: str) -> _Inputs:
    """The endpoint's inputs, or :class:`TypeError` when the fast path could not fill them in."""
    where = f"TableRoute {path}"
    if not inspect.iscoroutinefunction(dependant.call):
        raise TypeError(f"{where}: the endpoint must be an async function")
    requests = []
    for dependency in dependant.dependencies:
        if not _needs_only_the_request(dependency):
            raise TypeError(
                f"{where}: dependency {dependency.name or dependency.call!r} is not an async function of "
                "the request alone, so answering from the table would skip it; use APIRoute instead"
            )
        assert dependency.name is not None and dependency.call is not None
        requests.append((dependency.name, dependency.call))
    if dependant.cookie_params:
        raise TypeError(f"{where}: cookies are not read by the fast path")
    headers = tuple(
        (param.name, param.alias.replace("_", "-").lower().encode("latin-1"))
        for param in dependant.header_params
    )
    body = _model_param(dependant.body_params, where)
    query = _model_param(dependant.query_params, where)
    path_board = None
    if dependant.path_params:
        names = [param.name for param in dependant.path_params]
        if names != ["board"] or query is None or issubclass(query[1], PositionRequest):
            raise TypeError(
                f"{where}: the only path parameter can be a board, with a query model of a player"
            )
        path_board = "board"
    for found in (body, None if path_board else query):
        if found is not None and not issubclass(found[1], (PositionRequest, BatchRequest)):
            raise TypeError(f"{where}: {found[1].__name__} has no plain form")
    if body is None and query is None:
        raise TypeError(f"{where}: the endpoint reads no position")
    return _Inputs(tuple(requests), headers, body, query, path_board)


def _model_param(params: list[Any], where: str) -> tuple[str, type[BaseModel]] | None:
    if not params:
        return None
    model = params[0].field_info.annotation
    if len(params) > 1 or not (isinstance(model, type) and issubclass(model, BaseModel)):
        raise TypeError(f"{where}: declare the body and the query as one model each")
    return params[0].name, model


def _needs_only_the_request(dependency: Dependant) -> bool:
    return (
        dependency.request_param_name is not None
        and not dependency.dependencies
        and not dependency.path_params
        and not dependency.query_params
        and not dependency.header_params
        and not dependency.cookie_params
        and not dependency.body_params
        and inspect.iscoroutinefunction(dependency.call)
    )
