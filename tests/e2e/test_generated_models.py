"""Models generated from the committed OpenAPI document hold the service's real answers.

Two generations by datamodel-code-generator:

* the Python client's own (``clients/python/src/tictactoe_client/_models.py``, committed): with
  the options of ``[tool.datamodel-codegen]`` in ``clients/python/pyproject.toml``, run where
  ``make client-models`` runs it, it must give the committed file byte for byte;
* one with the generator's default settings, as a user of the document would make, into a
  temporary directory: its models must validate the real answers of every operation of a live
  server (best move by POST and GET, batch, positions, analysis, review, puzzles, health,
  problems) in the variants too (4x4 boards in the three forms, Notakto's boards of 18 cells, wild's
  marked moves), and refuse what the service refuses (a seed of 2**64, which needs integer bounds in
  the document); the variants are named by the document's ``x-enum-varnames``
  (``Variant.FOUR_BY_FOUR``), and requests built with those names get the real answers.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest
from pydantic import BaseModel, ValidationError

from tests.support import ROOT
from tests.support.commands import run
from tests.support.server import Server
from tests.support.tools import require_tool

DOCUMENT = ROOT / "openapi" / "openapi.json"
CLIENT = ROOT / "clients" / "python"
COMMITTED = CLIENT / "src" / "tictactoe_client" / "_models.py"


def generator() -> str:
    """The datamodel-codegen of this environment (beside the interpreter), or one on PATH."""
    return shutil.which("datamodel-codegen", path=str(Path(sys.executable).parent)) or require_tool(
        "datamodel-codegen"
    )


def test_the_clients_models_are_a_fresh_generation() -> None:
    """The committed models are what ``make client-models`` writes from the committed document."""
    result = run([generator()], cwd=CLIENT, timeout=300)
    assert result.stdout == COMMITTED.read_text(encoding="utf-8"), (
        "clients/python/src/tictactoe_client/_models.py is not what the OpenAPI document generates: "
        "run make client-models"
    )


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    """Models generated with datamodel-codegen's default settings, imported from a temporary directory."""
    where = tmp_path_factory.mktemp("generated-models")
    output = where / "models.py"
    run(
        [generator(), "--input", str(DOCUMENT), "--input-file-type", "openapi", "--output", str(output)],
        cwd=where,  # outside the repository: no [tool.datamodel-codegen] applies
        timeout=300,
    )
    name = "generated_models_with_default_settings"
    spec = importlib.util.spec_from_file_location(name, output)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # pydantic resolves the models' annotations through it
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        del sys.modules[name]


def model(models: ModuleType, name: str) -> type[BaseModel]:
    found = getattr(models, name)
    assert isinstance(found, type) and issubclass(found, BaseModel), name
    return found


#: One request of each operation, and the schema its answer is (by its status); boards of every
#: kind: unfinished with either side to move, won, drawn, and in each of the three forms.
REQUESTS: list[tuple[str, str, dict[str, Any], str]] = [
    ("POST", "/v1/best-move", {"json": {"board": "X........"}}, "BestMoveResponse"),
    (
        "POST",
        "/v1/best-move",
        {"json": {"board": [["X", "", "O"], ["", "", ""], ["X", "", ""]], "player": "O"}},
        "BestMoveResponse",
    ),
    (
        "POST",
        "/v1/best-move",
        {
            "json": {
                "board": ["X", None, "O", None, None, None, "X", None, None],
                "level": "easy",
                "seed": 2**64 - 1,
            }
        },
        "BestMoveResponse",
    ),
    ("POST", "/v1/best-move", {"json": {"board": "XX.OO....", "skill": 0.25, "seed": 7}}, "BestMoveResponse"),
    ("GET", "/v1/best-move", {"params": {"board": "XO.......", "player": "X"}}, "BestMoveResponse"),
    (
        "POST",
        "/v1/best-move/batch",
        {"json": {"items": [{"board": "........."}, {"board": "X...O....", "depth": 2, "seed": -(2**63)}]}},
        "BatchResponse",
    ),
    ("GET", "/v1/positions/X.O...X..", {"params": {"player": "O"}}, "AnalysisResponse"),
    ("GET", "/v1/positions/XXXOO.O..", {}, "AnalysisResponse"),
    ("GET", "/v1/positions/XOXXOOOXX", {}, "AnalysisResponse"),
    ("POST", "/v1/analysis", {"json": {"board": "........."}}, "AnalysisResponse"),
    ("POST", "/v1/analysis", {"json": {"board": "OOOXX.X.."}}, "AnalysisResponse"),
    (
        "POST",
        "/v1/best-move",
        {"json": {"board": "XX..O....", "rating": 250.5, "seed": 9}},
        "BestMoveResponse",
    ),
    ("POST", "/v1/review", {"json": {"moves": [0, 1, 4, 2, 8]}}, "ReviewResponse"),
    (
        "POST",
        "/v1/review",
        {"json": {"moves": [2], "board": [["X", "X", ""], ["", "O", ""], ["", "", ""]], "player": "O"}},
        "ReviewResponse",
    ),
    ("GET", "/v1/puzzles", {"params": {"theme": "fork", "limit": 3}}, "PuzzlePage"),
    ("GET", "/v1/puzzles/random", {"params": {"seed": 3, "max_rating": 200}}, "Puzzle"),
    ("GET", "/v1/puzzles/..OOOXXOXX", {}, "Puzzle"),
    ("GET", "/health", {}, "HealthResponse"),
    # The variants: a 4x4 board in the three forms, Notakto on two boards, wild's marked moves.
    ("POST", "/v1/best-move", {"json": {"variant": "4x4", "board": "X..............."}}, "BestMoveResponse"),
    (
        "POST",
        "/v1/best-move",
        {"json": {"variant": "4x4", "board": ["X", *[None] * 15], "level": "hard", "seed": 4}},
        "BestMoveResponse",
    ),
    (
        "POST",
        "/v1/best-move",
        {
            "json": {
                "variant": "4x4",
                "board": [["X", "", "", ""], ["", "O", "", ""], ["", "", "", ""], ["", "", "", ""]],
            }
        },
        "BestMoveResponse",
    ),
    (
        "GET",
        "/v1/best-move",
        {"params": {"variant": "4x4-3", "board": "X..............."}},
        "BestMoveResponse",
    ),
    (
        "POST",
        "/v1/best-move",
        {"json": {"variant": "notakto-2", "board": "X........X........"}},
        "BestMoveResponse",
    ),
    (
        "POST",
        "/v1/analysis",
        {"json": {"variant": "notakto-2", "board": "XXX......XXX......"}},
        "AnalysisResponse",
    ),
    ("GET", "/v1/positions/X........X........", {"params": {"variant": "notakto-2"}}, "AnalysisResponse"),
    ("GET", "/v1/positions/XXXO.....", {"params": {"variant": "wild"}}, "AnalysisResponse"),
    ("POST", "/v1/best-move", {"json": {"variant": "wild", "board": "....X...."}}, "BestMoveResponse"),
    (
        "POST",
        "/v1/review",
        {
            "json": {
                "variant": "wild",
                "moves": [
                    {"position": 4, "mark": "X"},
                    {"position": 0, "mark": "O"},
                    {"position": 8, "mark": "O"},
                ],
            }
        },
        "ReviewResponse",
    ),
    ("POST", "/v1/review", {"json": {"variant": "notakto", "moves": [4, 0, 8]}}, "ReviewResponse"),
    ("POST", "/v1/best-move", {"json": {"variant": "4x4", "board": "X........"}}, "Problem"),
    ("POST", "/v1/review", {"json": {"variant": "wild", "moves": [4]}}, "Problem"),
    ("POST", "/v1/best-move", {"json": {"board": "XXXOO...."}}, "Problem"),
    ("POST", "/v1/best-move/batch", {"json": {"items": [{"board": "X........", "skill": 3}]}}, "Problem"),
    ("GET", "/v1/positions/XX", {}, "Problem"),
    ("POST", "/v1/review", {"json": {"moves": [0, 0]}}, "Problem"),
    ("GET", "/v1/puzzles/XXXXXXXXXO", {}, "Problem"),
    ("GET", "/v1/nowhere", {}, "Problem"),
]


BODIES = {
    "/v1/best-move": "BestMoveRequest",
    "/v1/best-move/batch": "BatchRequest",
    "/v1/analysis": "AnalysisRequest",
    "/v1/review": "ReviewRequest",
}


@pytest.mark.parametrize(
    ("method", "path", "request_", "schema"),
    REQUESTS,
    ids=[f"{method} {path} {schema}" for method, path, _, schema in REQUESTS],
)
def test_default_generated_models_hold_real_answers(
    models: ModuleType, live_server: Server, method: str, path: str, request_: dict[str, Any], schema: str
) -> None:
    response = httpx.request(method, live_server.url + path, timeout=10, **request_)
    assert response.is_success == (schema != "Problem"), response.text
    answer = model(models, schema).model_validate_json(response.content)
    # Every field of the answer is in the model (nothing dropped as unknown), with its JSON value.
    assert json.loads(answer.model_dump_json(by_alias=True, exclude_unset=True)) == response.json()
    if "json" in request_ and schema != "Problem":
        # What the service took, the request's model takes.
        body = model(models, BODIES[path])
        assert (
            body.model_validate(request_["json"]).model_dump(mode="json", exclude_unset=True)
            == request_["json"]
        )


def test_default_generated_models_refuse_what_the_service_refuses(models: ModuleType) -> None:
    """A seed must be below 2**64 and at least -2**63: integer bounds, kept exact by the document."""
    request = model(models, "BestMoveRequest")
    assert request.model_validate({"board": "X........", "seed": 2**64 - 1}) is not None
    for seed in (2**64, -(2**63) - 1):
        with pytest.raises(ValidationError):
            request.model_validate({"board": "X........", "seed": seed})
    with pytest.raises(ValidationError):
        request.model_validate({"board": "X........", "level": "impossible"})
    with pytest.raises(ValidationError):
        request.model_validate({"board": "X........", "skil": 0.5})


def test_default_generated_models_name_the_variants(models: ModuleType, live_server: Server) -> None:
    """The variants by the document's ``x-enum-varnames``; requests built with them get real answers."""
    variant: Any = models.Variant
    assert {member.name: member.value for member in variant} == {
        "STANDARD": "standard",
        "MISERE": "misere",
        "WILD": "wild",
        "NOTAKTO": "notakto",
        "NOTAKTO_2": "notakto-2",
        "NOTAKTO_3": "notakto-3",
        "FOUR_BY_FOUR": "4x4",
        "FOUR_BY_FOUR_THREE_IN_A_ROW": "4x4-3",
    }
    status: Any = models.Status
    player: Any = models.Player
    statuses = {"in_progress", "x_won", "o_won", "draw", "first_won", "second_won"}
    assert {member.value for member in status} == statuses

    def answer(path: str, request: BaseModel, schema: str) -> Any:
        body = request.model_dump_json(exclude_unset=True)
        response = httpx.post(
            live_server.url + path, content=body, headers={"Content-Type": "application/json"}, timeout=10
        )
        assert response.is_success, response.text
        return model(models, schema).model_validate_json(response.content)

    best_move = model(models, "BestMoveRequest")
    move = answer(
        "/v1/best-move", best_move(variant=variant.FOUR_BY_FOUR, board="X..............."), "BestMoveResponse"
    )
    assert (move.position, move.row, move.column, move.player) == (1, 0, 1, player.O), move
    assert move.status_after is status.in_progress and move.board_after == "XO..............", move

    move = answer(
        "/v1/best-move", best_move(variant=variant.NOTAKTO_2, board="X........X........"), "BestMoveResponse"
    )
    assert (move.position, move.grid, move.player) == (8, 0, player.first), move
    analysis = model(models, "AnalysisRequest")
    position = answer(
        "/v1/analysis", analysis(variant=variant.NOTAKTO_2, board="XXX......XXX......"), "AnalysisResponse"
    )
    assert position.status is status.first_won and position.winner is player.first, position

    marked = model(models, "MarkedMove")
    moves = [marked(position=4, mark="X"), marked(position=0, mark="O"), marked(position=8, mark="O")]
    review_request = model(models, "ReviewRequest")
    review = answer("/v1/review", review_request(variant=variant.WILD, moves=moves), "ReviewResponse")
    assert (review.status, review.winner, review.player) == (status.in_progress, None, player.first), review
    # Wild's sides, named by their turn.
    assert (review.players.first.moves, review.players.second.moves) == (2, 1), review.players
    assert isinstance(review.players, model(models, "TurnSides")), review.players
    assert [ply.judgement.value for ply in review.plies] == ["best", "inaccuracy", "best"], review.plies
    moves += [marked(position=1, mark="X"), marked(position=7, mark="X")]
    won = answer("/v1/review", review_request(variant=variant.WILD, moves=moves), "ReviewResponse")
    assert won.status is status.first_won and won.winner is player.first, won
