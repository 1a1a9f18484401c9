"""The OpenAPI document: committed copy, completeness, and examples that are real answers."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from tictactoe_client._cli import DEPTH_HELP

from service.game.choice import DEPTH_IN_WORDS
from service.web import examples
from service.web.openapi import render
from tests.support import ROOT
from tests.support.commands import run
from tests.support.tools import require_tool, under_ci

pytestmark = pytest.mark.anyio

COMMITTED = ROOT / "openapi" / "openapi.json"


async def served(client: httpx.AsyncClient) -> dict[str, Any]:
    response = await client.get("/openapi.json")
    assert response.status_code == 200
    document: dict[str, Any] = response.json()
    return document


async def test_committed_document_matches_the_app(client: httpx.AsyncClient, app: FastAPI) -> None:
    document = await served(client)
    committed = json.loads(COMMITTED.read_text(encoding="utf-8"))
    assert committed == document, "openapi/openapi.json is stale: run `make openapi`"
    assert COMMITTED.read_text(encoding="utf-8") == render(app)


def operations(document: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method.upper(), path, operation)
        for path, item in document["paths"].items()
        for method, operation in item.items()
    ]


async def test_every_operation_is_documented(client: httpx.AsyncClient) -> None:
    document = await served(client)
    ops = operations(document)
    assert {(m, p) for m, p, _ in ops} == {
        ("POST", "/v1/best-move"),
        ("POST", "/v1/best-move/batch"),
        ("GET", "/v1/best-move"),
        ("GET", "/v1/positions/{board}"),
        ("POST", "/v1/analysis"),
        ("POST", "/v1/review"),
        ("GET", "/v1/puzzles"),
        ("GET", "/v1/puzzles/random"),
        ("GET", "/v1/puzzles/{puzzle_id}"),
        ("GET", "/v1/variants"),
        ("GET", "/v1/languages"),
        ("GET", "/health"),
        ("GET", "/metrics"),
    }
    schemas = document["components"]["schemas"]
    for method, path, operation in ops:
        where = f"{method} {path}"
        assert operation.get("summary"), where
        assert len(operation.get("description", "")) > 40, where
        if path == "/metrics":
            text = operation["responses"]["200"]["content"]["text/plain; version=0.0.4; charset=utf-8"]
            assert 'tictactoe_solved_positions{variant="standard"} 9040.0' in text["example"]
            continue
        ok = operation["responses"]["200"]["content"]["application/json"]
        ref = ok["schema"]["$ref"].rsplit("/", 1)[-1]
        assert "example" in ok or schemas[ref].get("examples"), where
        if "requestBody" in operation:
            body = operation["requestBody"]["content"]["application/json"]
            assert body.get("examples"), where
        for parameter in operation.get("parameters", []):
            if parameter["required"]:
                schema = parameter["schema"]
                if "$ref" in schema:  # a named schema, with its examples
                    schema = schemas[schema["$ref"].rsplit("/", 1)[-1]]
                assert schema.get("examples") or parameter.get("examples"), where
        errors = {code: r for code, r in operation["responses"].items() if code[0] in "45"}
        if path != "/health":
            assert "422" in errors, where
        if method == "POST":
            assert {"400", "413", "415", "422"} <= set(errors), where
        for code, response in errors.items():
            content = response["content"]
            assert list(content) == ["application/problem+json"], (where, code)
            assert content["application/problem+json"]["schema"]["$ref"].endswith("/Problem"), (where, code)
            assert content["application/problem+json"]["example"]["status"] == int(code), (where, code)


async def test_response_examples_are_real_answers(client: httpx.AsyncClient) -> None:
    post = await client.post("/v1/best-move", json=examples.BEST_MOVE_REQUESTS["string"]["value"])
    assert post.json() == examples.BEST_MOVE_RESPONSE
    get = await client.get("/v1/best-move", params=examples.BEST_MOVE_QUERY)
    assert get.json() == examples.BEST_MOVE_QUERY_RESPONSE
    analysis = await client.post("/v1/analysis", json=examples.ANALYSIS_REQUESTS["unfinished"]["value"])
    assert analysis.json() == examples.ANALYSIS_RESPONSE
    position = await client.get(f"/v1/positions/{examples.ANALYSIS_BOARD}")
    assert position.json() == examples.ANALYSIS_RESPONSE
    finished = await client.post("/v1/analysis", json=examples.ANALYSIS_REQUESTS["finished"]["value"])
    assert finished.json() == examples.FINISHED_ANALYSIS_RESPONSE
    batch = await client.post("/v1/best-move/batch", json=examples.BATCH_REQUESTS["two"]["value"])
    assert batch.json() == examples.BATCH_RESPONSE
    for example in examples.BEST_MOVE_REQUESTS.values():
        assert (await client.post("/v1/best-move", json=example["value"])).status_code == 200
    for example in examples.ANALYSIS_REQUESTS.values():
        assert (await client.post("/v1/analysis", json=example["value"])).status_code == 200
    variants = {
        example["value"].get("variant", "standard") for example in examples.BEST_MOVE_REQUESTS.values()
    }
    assert {"4x4", "4x4-3", "wild", "notakto-2"} <= variants  # the forms of the variants' boards
    review = await client.post("/v1/review", json=examples.REVIEW_REQUESTS["game"]["value"])
    assert review.json() == examples.REVIEW_RESPONSE
    for example in examples.REVIEW_REQUESTS.values():
        assert (await client.post("/v1/review", json=example["value"])).status_code == 200
    page = await client.get("/v1/puzzles", params=examples.PUZZLE_QUERY)
    assert page.json() == examples.PUZZLE_PAGE
    puzzle = await client.get(f"/v1/puzzles/{examples.PUZZLE['id']}")
    assert puzzle.json() == examples.PUZZLE == examples.PUZZLE_PAGE["puzzles"][0]


async def test_problem_examples_are_real_answers(client: httpx.AsyncClient) -> None:
    cases = {
        400: client.post(
            "/v1/best-move", content=b'{"board": }', headers={"content-type": "application/json"}
        ),
        404: client.get("/v1/positions/X..../...."),
        415: client.post("/v1/best-move", content=b"{}", headers={"content-type": "text/plain"}),
        422: client.post("/v1/best-move", json={"board": "X...Z...."}),
    }
    for code, request in cases.items():
        response = await request
        assert response.json() == examples.PROBLEMS[code][1], code


async def test_each_operations_invalid_input_example_is_its_own_real_answer(
    client: httpx.AsyncClient,
) -> None:
    """The ``422`` example of every operation that has one is the answer that operation gives to a
    request of its own: the locations (``query.board`` on a ``GET``) and the messages as sent."""
    document = await served(client)
    checked: list[str] = []
    for method, path, operation in operations(document):
        documented = operation["responses"].get("422")
        if documented is None:
            continue
        request, example = examples.INVALID_INPUT[operation["operationId"]]
        assert request["method"] == method
        pattern = re.escape(path).replace(r"\{board\}", "[^/]+").replace(r"\{puzzle_id\}", "[^/]+")
        assert re.fullmatch(pattern, request["url"]), (request["url"], path)
        sent = {key: value for key, value in request.items() if key in ("json", "params")}
        answer = await client.request(request["method"], request["url"], **sent)
        assert answer.status_code == 422
        assert answer.headers["content-type"] == "application/problem+json"
        assert answer.json() == example == documented["content"]["application/problem+json"]["example"]
        assert example["errors"][0]["loc"][0] == ("body" if "json" in request else "query")
        checked.append(operation["operationId"])
    assert sorted(checked) == sorted(examples.INVALID_INPUT), "every example belongs to an operation"
    assert len(checked) >= 10


LINTERS = ROOT / "openapi" / "node_modules" / ".bin"


@pytest.mark.parametrize(
    "command",
    [
        ["spectral", "lint", "--fail-severity", "warn", "openapi.json"],
        ["redocly", "lint", "--format", "stylish", "openapi.json"],
    ],
    ids=["spectral", "redocly"],
)
def test_the_linters_accept_the_committed_document(command: list[str]) -> None:
    """Spectral with every warning an error; Redocly's recommended rules (redocly.yaml says why a
    warning is kept)."""
    require_tool("node")
    tool = LINTERS / command[0]
    if not tool.exists():
        if under_ci():
            pytest.fail(f"{tool} is missing: make installs it with npm ci --prefix openapi")
        pytest.skip("the linters are not installed: npm ci --prefix openapi (make test does it)")
    output = run([tool, *command[1:]], cwd=ROOT / "openapi", timeout=300).output
    assert " error " not in output, output


def integer_bounds(value: Any, where: str = "") -> list[tuple[str, object]]:
    """Every bound of every integer schema in ``value``, with where it is."""
    found: list[tuple[str, object]] = []
    if isinstance(value, dict):
        if value.get("type") == "integer":
            bounds = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")
            found += [(f"{where}/{key}", value[key]) for key in bounds if key in value]
        for key, item in value.items():
            found += integer_bounds(item, f"{where}/{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += integer_bounds(item, f"{where}/{index}")
    return found


async def test_integer_bounds_are_integers(client: httpx.AsyncClient) -> None:
    """A bound written as a float (``-9.223372036854776e+18``) lets generated models accept what the
    service refuses; every integer bound is an exact integer, in the served and committed documents."""
    for document in (await served(client), json.loads(COMMITTED.read_text(encoding="utf-8"))):
        bounds = integer_bounds(document)
        assert len(bounds) > 20
        floats = [(where, bound) for where, bound in bounds if not isinstance(bound, int)]
        assert floats == []
        seed = document["components"]["schemas"]["BestMoveRequest"]["properties"]["seed"]["anyOf"][0]
        assert (seed["minimum"], seed["exclusiveMaximum"]) == (-(2**63), 2**64)


def test_the_depths_are_put_in_the_same_words_everywhere() -> None:
    """The schema and the CLI's help derive them from one constant; the docs say them the same."""
    words = " ".join(DEPTH_IN_WORDS.split())
    documents = {
        "docs/api.md": " ".join((ROOT / "docs" / "api.md").read_text().split()),
        "openapi/openapi.json": (ROOT / "openapi" / "openapi.json").read_text(),
    }
    assert DEPTH_IN_WORDS in DEPTH_HELP
    assert words[2:] in documents["docs/api.md"]
    assert words[2:] in documents["openapi/openapi.json"]
