"""The OpenAPI document: its texts, the parts routes share, and error media types.

Routes declare their models, so FastAPI writes the schemas, parameters and
request bodies; this module adds what a model cannot say: descriptions,
response examples, and ``application/problem+json`` for every error.
``tictactoe-service openapi`` writes the committed copy (``openapi/openapi.json``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from fastapi.routing import APIRoute
from pydantic import BaseModel
from starlette.routing import BaseRoute

from ..schemas import BOARD_SCHEMAS, ENUM_SCHEMAS, BatchRequest, Problem, inline_schema
from . import examples
from .caching import CACHE_CONTROL
from .media import JSON, PROBLEM_JSON

#: Where the document keeps its named schemas.
COMPONENTS = "#/components/schemas/"
#: The models of bodies that a dependency reads rather than FastAPI (see :mod:`.bodies`).
DEPENDENCY_BODIES: tuple[type[BaseModel], ...] = (BatchRequest,)

DESCRIPTION = """\
Perfect play for tic-tac-toe, as a stateless REST/JSON service for game front ends.

POST a board and get back the best move, its value and the reasons. Eight games of the
family are solved exactly (`GET /v1/variants`): the standard game, misère, wild, Notakto on
1 to 3 boards, and 4×4 with four or three in a row; name one with `variant`.

* **Boards** come as a string (`"X.O...X.."`), an array of cells, or an array of rows, of the
  variant's size: 9 cells on a 3×3 board, 16 on a 4×4 board, Notakto's 2 or 3 boards as a
  string of 18 or 27. Answers always use the canonical string of `X`, `O` and `.`.
* **Values** are from the side to move: `score` 1 win, 0 draw, -1 loss;
  `plies_to_end` is how many moves the game still lasts under perfect play.
* **Errors** are `application/problem+json` (RFC 9457) with the location of each problem.
"""

#: The service answers at the address the document was fetched from.
SERVERS: list[dict[str, Any]] = [{"url": "/", "description": "The service that serves this document"}]
CONTACT: dict[str, Any] = {"name": "Tic-tac-toe service maintainers"}
LICENSE: dict[str, Any] = {"name": "MIT", "identifier": "MIT"}

TAGS: list[dict[str, Any]] = [
    {"name": "moves", "description": "The move to play."},
    {"name": "analysis", "description": "Everything about a position."},
    {"name": "coach", "description": "For players who want to learn: reviews of games, and puzzles."},
    {"name": "variants", "description": "The rule variants: misère, wild, Notakto and 4×4."},
    {"name": "service", "description": "Operations."},
]

MOVE_CHOICE = """\
Returns the move to play on `board` for the side to move, with its value.

With default options the move is always optimal, chosen in this order: the
best `score`; a win in the fewest plies or a loss in the most; the move that
leaves the opponent the most mistakes; the lowest cell index. Values are from
the side to move: `score` 1 win, 0 draw, -1 loss; `plies_to_end` counts the
moves left under perfect play, this one included.

The board may be a string, an array of cells or an array of rows, of the
variant's size (`variant`, `standard` by default). `player` is needed only when
both sides have as many marks (X moves first by default; in `wild` and Notakto
the number of marks decides). A finished board gets `422` with type
`/problems/game-over`.
"""

MOVE_OPTIONS = """
Options for front ends: `random: true` breaks the ties between optimal moves
at random; `skill` (0 to 1) plays a uniformly random legal move with
probability `1 - skill`, a difficulty slider; `depth` (1 to the variant's
number of cells, 9 in the standard game) looks only that
many plies ahead and plays one of the moves best within that horizon; `level`
(`beginner`, `easy`, `medium`, `hard` or `perfect`) names a calibrated
combination of `depth` and `skill`, and is not sent with either; `seed`
makes the random choices reproducible. `optimal` is `false` when the returned move is not one of the
optimal moves, and `score`, `outcome` and `plies_to_end` always describe the
returned move. Answers that involve randomness carry `Cache-Control: no-store`.
"""

ANALYSIS = """\
Returns everything about a position: its `status`, `winner` and
`winning_lines`; for an unfinished board the side to move (`player`), the
value of the position (`score`, `outcome`, `plies_to_end`), every legal move
with its value, best first, the optimal cells (`best_moves`), and the
`principal_variation`: the rest of the game under perfect play.

A finished board is valid here: it gets its status, winner and lines, and no
moves.
"""

REVIEW = """\
Grades a game move by move from the solved values, as a coach would, in every
variant. `moves` are the cells played from `board` (the variant's empty board by
default), the side to move first; in `wild` each move is an object with its cell
(`position`) and the `mark` placed. Every move gets the position's value before it and its own value after,
a `judgement` (`best`: optimal; `inaccuracy`: the outcome kept, but a slower win
or a quicker loss; `mistake`: a win thrown to a draw; `blunder`: a win or a
draw thrown to a loss), `only_move`, its `tactics` and `reason`, and, when it
was not `best`, the `better` move the engine plays there.

Each side gets its counts, its `accuracy`, and the strength it played at: the
probability of each calibrated player (a uniformly random one and the five
levels) having played its moves, from a uniform prior, the most probable
`level`, and that level's calibrated `rating` (null in a variant whose levels
are not calibrated). In `wild` and Notakto the sides are `first` and `second`,
and moves add `mark` or `grid` as best moves do. A move that cannot be played
(off the board, on a taken cell or a dead Notakto board, in another variant's
form, or after the game is over) is a `422` located at its index in `moves`.
"""

PUZZLES = """\
A puzzle is a position where exactly one of two or more legal moves keeps a win
or a draw: that move is the `solution`. Boards that are the same turned or
mirrored are one puzzle, posed on its canonical board (the smallest of the 8 as
text), and its `id` is that board followed by the side to move. Each puzzle has
the solution's `themes` and `reason`, the probability that each calibrated
player plays the solution (`solve_rates`), and a `rating`: that of the weakest
player who plays it at least half of the time.
"""

CACHEABLE = (
    f"Cacheable: `Cache-Control: {CACHE_CONTROL}` and a strong `ETag`; a matching `If-None-Match` gets `304`."
)

NOT_MODIFIED: dict[int | str, dict[str, Any]] = {
    304: {"description": "Not modified: the `ETag` in `If-None-Match` is current."}
}


def ok(example: dict[str, Any]) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI entry of a ``200`` answer with its example."""
    return {200: {"content": {JSON: {"example": example}}}}


def problem_responses(*codes: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI entries for the error responses of an operation."""
    entries: dict[int | str, dict[str, Any]] = {}
    for code in codes:
        entries[code] = {
            "model": Problem,
            "description": examples.PROBLEMS[code][0],
            "content": {PROBLEM_JSON: {"example": examples.PROBLEMS[code][1]}},
        }
        if code == 415:
            entries[code]["headers"] = {
                "Accept-Encoding": {
                    "description": "`identity`, when the body was refused for its content coding: "
                    "the service reads bodies unencoded only (RFC 9110 §15.5.16).",
                    "schema": {"type": "string", "enum": ["identity"]},
                }
            }
        if code == 503:
            entries[code]["headers"] = {
                "Retry-After": {
                    "description": "Seconds to wait before sending the request again.",
                    "schema": {"type": "integer", "minimum": 0},
                }
            }
    return entries


def json_body(model: type[BaseModel], examples: dict[str, Any]) -> dict[str, Any]:
    """``openapi_extra`` documenting the JSON body ``model``, which a dependency reads and validates."""
    assert model in DEPENDENCY_BODIES, f"list {model.__name__} in DEPENDENCY_BODIES"
    schema = {"$ref": COMPONENTS + model.__name__}
    return {"requestBody": {"required": True, "content": {JSON: {"schema": schema, "examples": examples}}}}


def _dependency_bodies(document: dict[str, Any]) -> None:
    """The schemas of :data:`DEPENDENCY_BODIES`, as FastAPI writes those of declared bodies."""
    schemas: dict[str, Any] = document["components"]["schemas"]
    for model in DEPENDENCY_BODIES:
        schema = model.model_json_schema(ref_template=COMPONENTS + "{model}", mode="validation")
        for name, inner in schema.pop("$defs", {}).items():
            schemas.setdefault(name, inner)
        schemas[model.__name__] = schema


def _examples_as_declared(document: dict[str, Any], routes: Sequence[BaseRoute]) -> None:
    """Response examples exactly as the routes declare them.

    FastAPI drops ``null`` members from the document, examples included, so an example of a
    field that is required but null (``"winner": null``) would break its own schema.
    """
    for route in routes:
        if not isinstance(route, APIRoute) or not route.include_in_schema:
            continue
        for method in route.methods or ():
            operation = document["paths"][route.path_format].get(method.lower(), {})
            for code, declared in route.responses.items():
                for media, content in declared.get("content", {}).items():
                    if "example" in content:
                        answer = operation["responses"][str(code)]["content"]
                        answer.get(media, answer.get(PROBLEM_JSON, {}))["example"] = content["example"]


#: What a copy of a named enumeration says that its component says for it.
ENUM_KEYS = ("type", "enum", "title")


def _invalid_input_examples(document: dict[str, Any]) -> None:
    """Each operation's ``422`` example is a real answer of that operation (its locations are its
    own: ``query.board`` on a ``GET``), from :data:`.examples.INVALID_INPUT`."""
    for operations in document["paths"].values():
        for operation in operations.values():
            invalid = operation.get("responses", {}).get("422")
            if invalid is not None:
                invalid["content"][PROBLEM_JSON]["example"] = examples.INVALID_INPUT[
                    operation["operationId"]
                ][1]


def _named_schemas(document: dict[str, Any]) -> None:
    """The board forms, the cell and the enumerations as named components, referred to wherever
    they are used.

    The models write them out (Pydantic knows nothing of components); here every copy becomes
    a ``$ref``, so that generated clients get one named type for each. A copy of an enumeration
    keeps what its field says beside the reference (its description, its default).
    """
    document["components"]["schemas"].update(BOARD_SCHEMAS | ENUM_SCHEMAS)
    inline = {name: _comparable(inline_schema(name)) for name in BOARD_SCHEMAS}
    enums = {name: schema["enum"] for name, schema in ENUM_SCHEMAS.items()}

    def replace(value: Any, inside: str | None) -> Any:  # noqa: ANN401 - any JSON value
        if isinstance(value, dict):
            for name, schema in inline.items():
                if name != inside and _comparable(value) == schema:
                    beside = {key: item for key, item in value.items() if key == "description"}
                    if beside.get("description") == BOARD_SCHEMAS[name].get("description"):
                        beside = {}
                    return {"$ref": COMPONENTS + name, **beside}
            for name, values in enums.items():
                if name != inside and value.get("type") == "string" and value.get("enum") == values:
                    beside = {key: item for key, item in value.items() if key not in ENUM_KEYS}
                    return {"$ref": COMPONENTS + name, **beside}
            return {key: replace(item, inside) for key, item in value.items()}
        if isinstance(value, list):
            return [replace(item, inside) for item in value]
        return value

    document["paths"] = replace(document["paths"], None)
    schemas = document["components"]["schemas"]
    for name in list(schemas):
        schemas[name] = {key: replace(item, name) for key, item in schemas[name].items()}


def _comparable(schema: dict[str, Any]) -> dict[str, Any]:
    """A schema without the keys FastAPI and Pydantic add of their own (``title``), nor what a field
    says of its own use of it (``description``)."""
    return {key: value for key, value in schema.items() if key not in ("title", "description")}


def _used_components(document: dict[str, Any]) -> None:
    """Only the schemas the document refers to (FastAPI also lists types no operation uses)."""
    schemas: dict[str, Any] = document["components"]["schemas"]
    text = json.dumps(document["paths"])
    used: set[str] = set()
    pending = {name for name in schemas if f'"#/components/schemas/{name}"' in text}
    while pending:
        name = pending.pop()
        used.add(name)
        inner = json.dumps(schemas[name])
        pending |= {
            other for other in schemas if other not in used and f'"#/components/schemas/{other}"' in inner
        }
    for name in set(schemas) - used:
        del schemas[name]


def _problem_media_types(document: dict[str, Any]) -> None:
    """Error responses are documented as ``application/problem+json``, not ``application/json``."""
    for operations in document.get("paths", {}).values():
        for operation in operations.values():
            for code, response in operation.get("responses", {}).items():
                content = response.get("content")
                if not code.startswith(("4", "5")) or not content:
                    continue
                plain = content.pop(JSON, {})
                problem = content.setdefault(PROBLEM_JSON, {})
                problem.setdefault("schema", plain.get("schema"))


BOUNDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")


def _integer_bounds(value: Any) -> None:  # noqa: ANN401 - any JSON value
    """Bounds of integer schemas written as integers, as the models declare them.

    FastAPI's document model types every bound as a float, so ``ge=-(2**63)`` would be written
    ``-9.223372036854776e+18``, and a client generated from that would accept ``2**64``. Every
    bound of this API is an integer that a float holds exactly, so the integer is restored.
    """
    if isinstance(value, dict):
        if value.get("type") == "integer":
            for key in BOUNDS:
                bound = value.get(key)
                if isinstance(bound, float) and bound.is_integer():
                    value[key] = int(bound)
        for item in value.values():
            _integer_bounds(item)
    elif isinstance(value, list):
        for item in value:
            _integer_bounds(item)


def install_openapi(app: FastAPI, routes: Sequence[BaseRoute]) -> None:
    """Make ``app`` serve its OpenAPI document: ``routes`` are its API routes, as declared."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            document = get_openapi(
                title=app.title,
                version=app.version,
                description=app.description,
                routes=app.routes,
                tags=app.openapi_tags,
                servers=SERVERS,
                contact=CONTACT,
                license_info=LICENSE,
            )
            _dependency_bodies(document)
            _named_schemas(document)
            document["security"] = []  # every operation is public: no credentials of any kind
            _examples_as_declared(document, routes)
            _problem_media_types(document)
            _invalid_input_examples(document)
            _used_components(document)
            _integer_bounds(document)
            app.openapi_schema = document
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def render(app: FastAPI) -> str:
    """The document as committed: sorted keys, two-space indent, final newline."""
    return json.dumps(app.openapi(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"
