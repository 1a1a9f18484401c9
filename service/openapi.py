"""The OpenAPI document: its texts, error media types, and the committed copy.

``python -m service.openapi [FILE]`` writes the document the app serves
(to ``openapi/openapi.json`` by default).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from .problems import PROBLEM_MEDIA_TYPE

DESCRIPTION = """\
Perfect play for tic-tac-toe, as a stateless REST/JSON service for game front ends.

POST a board and get back the best move, its value and the reasons: every one of the
8,533 legal boards is solved when the service starts, so an answer is a table lookup.

* **Boards** come as a 9-character string (`"X.O...X.."`), an array of 9 cells, or
  3 rows of 3 cells. Answers always use the canonical string of `X`, `O` and `.`.
* **Values** are from the side to move: `score` 1 win, 0 draw, -1 loss;
  `plies_to_end` is how many moves the game still lasts under perfect play.
* **Errors** are `application/problem+json` (RFC 9457) with the location of each problem.
"""

TAGS: list[dict[str, Any]] = [
    {"name": "moves", "description": "The move to play."},
    {"name": "analysis", "description": "Everything about a position."},
    {"name": "service", "description": "Operations."},
]

DEFAULT_PATH = Path("openapi") / "openapi.json"


def _problem_media_types(document: dict[str, Any]) -> None:
    """Error responses are documented as ``application/problem+json``, not ``application/json``."""
    for operations in document.get("paths", {}).values():
        for operation in operations.values():
            for code, response in operation.get("responses", {}).items():
                content = response.get("content")
                if not code.startswith(("4", "5")) or not content:
                    continue
                plain = content.pop("application/json", {})
                problem = content.setdefault(PROBLEM_MEDIA_TYPE, {})
                problem.setdefault("schema", plain.get("schema"))


def _add_schemas(document: dict[str, Any], models: Sequence[type[BaseModel]]) -> None:
    """Put the schemas of ``models`` (read by the handlers themselves) among the components."""
    _, definitions = models_json_schema(
        [(model, "validation") for model in models], ref_template="#/components/schemas/{model}"
    )
    document.setdefault("components", {}).setdefault("schemas", {}).update(definitions.get("$defs", {}))


def install_openapi(app: FastAPI, request_models: Sequence[type[BaseModel]] = ()) -> None:
    """Make ``app`` serve its OpenAPI document with ``request_models`` and problem media types."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            document = get_openapi(
                title=app.title,
                version=app.version,
                description=app.description,
                routes=app.routes,
                tags=app.openapi_tags,
            )
            _add_schemas(document, request_models)
            _problem_media_types(document)
            app.openapi_schema = document
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def render(app: FastAPI) -> str:
    """The document as committed: sorted keys, two-space indent, final newline."""
    return json.dumps(app.openapi(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> None:
    from .app import create_app  # noqa: PLC0415 - the app imports this module

    args = sys.argv[1:] if argv is None else argv
    target = Path(args[0]) if args else DEFAULT_PATH
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(render(create_app()), encoding="utf-8")
    print(f"wrote {target}")


if __name__ == "__main__":
    main()
