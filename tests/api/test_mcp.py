"""The MCP endpoint in-process: the SDK's client through the app's whole stack, against the REST API.

One app, its lifespan running (the SDK's session manager with it), is called two ways over the
same ASGI stack: by the MCP SDK's own client (Streamable HTTP, on the SDK's HTTP client), and by
plain HTTP for the REST answers to compare with and for what the middleware does to ``/mcp``.
"""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import AsyncIterator
from typing import Any

import httpx
import httpx2
import jsonschema_rs
import pytest
from fastapi import FastAPI
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from mcp.types import CallToolResult, TextContent
from pydantic import BaseModel

from service.game import Level
from service.game.levels import HIGHEST_RATING, STANDARD_LADDER
from service.game.puzzles import THEMES
from service.game.variants import VARIANTS
from service.schemas import (
    BOARD_SCHEMA,
    PUZZLE_ID,
    AnalysisResponse,
    BestMoveResponse,
    Puzzle,
    PuzzlePage,
    ReviewResponse,
)
from service.settings import Settings
from service.web.app import create_app
from service.web.mcp import MAX_BODY_BYTES, PATH
from service.web.mcp.tools import EXPLAINED, build_server
from tests.support.commands import run

MAX_RATING = STANDARD_LADDER.rating_max or 0

pytestmark = pytest.mark.anyio

BASE = "http://testserver"
#: The tools about one position, each with a required board.
PLAY_TOOLS = {"best_move", "explain_move", "analyze_position"}
COACH_TOOLS = {"review_game", "random_puzzle", "get_puzzle", "list_puzzles"}
TOOLS = PLAY_TOOLS | COACH_TOOLS
#: Tool arguments, each also a valid body of POST /v1/best-move: every board form, both starts.
MOVES: list[dict[str, Any]] = [
    {"board": "........."},
    {"board": ".........", "player": "O"},
    {"board": "x.o...x.."},
    {"board": ["X", None, "O", "", " ", ".", "-", "_", "o"]},
    {"board": [["X", "X", ""], ["O", "O", ""], ["", "", ""]]},
    {"board": "XX.OO....", "player": "X"},
    {"board": "X...O...X"},
    {"board": "X........", "level": "beginner", "seed": 7},
    {"board": "X........", "level": "hard", "seed": -3},
    {"board": "XO.......", "level": "perfect", "seed": 2**63},
    {"board": "X........", "rating": 200, "seed": 5},
    {"board": ".........", "rating": 0, "seed": 1},
    {"board": "XO..X....", "rating": 350.5, "seed": 11},
    {"board": "XO.......", "rating": MAX_RATING, "seed": 4},
]
#: Boards whose game is over: analysed, but no move to make.
FINISHED: list[dict[str, Any]] = [{"board": "XXXOO...."}, {"board": "XOXXOOOXX"}, {"board": "OOOXX.X.."}]
#: Invalid arguments of best_move, each also a body that POST /v1/best-move refuses with 422.
INVALID: list[dict[str, Any]] = [
    {"board": "X........."},
    {"board": "X..?....."},
    {"board": "XX......."},
    {"board": "X........", "player": "X"},
    {"board": "XXX.OO..O"},
    {"board": "XXXOO...."},
    {"board": [["X", "", ""], ["", ""]]},
    {"board": 12},
    {"board": "X........", "player": "x"},
    {"board": "X........", "level": "grandmaster"},
    {"board": "X........", "seed": 1.5},
    {"board": "X........", "level": "easy", "seed": 2**64},
    {"board": "X........", "level": "easy", "rating": 200},
    {"board": "X........", "rating": -1},
    {"board": "X........", "rating": MAX_RATING + 1},
    {"board": "X........", "rating": "200"},
    {"board": "X........", "rating": True},
]


@pytest.fixture(scope="module")
async def served() -> AsyncIterator[FastAPI]:
    """An app of its own, its lifespan running (and with it a session manager of the SDK)."""
    app = create_app(Settings(log_level="warning"))
    async with app.router.lifespan_context(app):
        yield app


@pytest.fixture
async def rest(served: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=served), base_url=BASE) as client:
        yield client


@pytest.fixture(params=["legacy", "auto"])
async def tools(served: FastAPI, request: pytest.FixtureRequest) -> AsyncIterator[Client]:
    """The SDK's client on the app: the initialize handshake (legacy) or server/discover (auto)."""
    transport = httpx2.ASGITransport(app=served)
    async with (
        httpx2.AsyncClient(transport=transport, base_url=BASE, timeout=10) as http,
        Client(
            streamable_http_client(f"{BASE}{PATH}", http_client=http),
            mode=request.param,
            read_timeout_seconds=10,
        ) as client,
    ):
        yield client


def text_of(result: CallToolResult) -> str:
    assert len(result.content) == 1
    block = result.content[0]
    assert isinstance(block, TextContent)
    return block.text


async def test_the_tools_are_listed_with_typed_input_and_output_schemas(tools: Client) -> None:
    assert tools.server_info is not None and tools.server_info.name == "tictactoe"
    listed = {tool.name: tool for tool in (await tools.list_tools()).tools}
    assert set(listed) == TOOLS
    for tool in listed.values():
        assert tool.description and tool.title
        assert tool.annotations is not None and tool.annotations.read_only_hint is True
        assert tool.output_schema is not None and tool.output_schema["type"] == "object"
    for name in PLAY_TOOLS:
        tool = listed[name]
        schema = tool.input_schema
        assert schema["type"] == "object" and schema["required"] == ["board"]
        assert {
            key: value for key, value in schema["properties"]["board"].items() if key != "title"
        } == BOARD_SCHEMA
        player = schema["properties"]["player"]
        assert {"enum": ["X", "O", "first", "second"], "type": "string"} in player["anyOf"]
        assert schema["properties"]["variant"]["enum"] == list(VARIANTS)
        assert player["default"] is None
        assert tool.output_schema is not None and tool.output_schema["type"] == "object"
    level = listed["best_move"].input_schema["properties"]["level"]["anyOf"][0]
    assert level["enum"] == [level.value for level in Level]
    seed = listed["best_move"].input_schema["properties"]["seed"]["anyOf"][0]
    assert seed["type"] == "integer"
    rating = listed["best_move"].input_schema["properties"]["rating"]
    assert rating["default"] is None
    assert {key: rating["anyOf"][0][key] for key in ("type", "minimum", "maximum")} == {
        "type": "number",
        "minimum": 0,
        "maximum": HIGHEST_RATING,
    }
    assert set(listed["explain_move"].input_schema["properties"]) == {
        "board",
        "variant",
        "player",
        "language",
    }
    outputs = {name: tool.output_schema for name, tool in listed.items()}
    assert outputs["best_move"] is not None and outputs["analyze_position"] is not None
    assert set(outputs["best_move"]["properties"]) == set(BestMoveResponse.model_fields)
    assert set(outputs["best_move"]["required"]) == set(BestMoveResponse.model_fields) - {"mark", "grid"}
    assert set(outputs["analyze_position"]["properties"]) == set(AnalysisResponse.model_fields)
    assert outputs["explain_move"] is not None and tuple(outputs["explain_move"]["properties"]) == EXPLAINED
    for name in EXPLAINED:  # the same fields as the best-move answer, described alike
        assert outputs["explain_move"]["properties"][name] == outputs["best_move"]["properties"][name]


@pytest.mark.parametrize("arguments", MOVES, ids=json.dumps)
async def test_best_move_and_explain_move_are_the_rest_answer(
    tools: Client, rest: httpx.AsyncClient, arguments: dict[str, Any]
) -> None:
    expected = await rest.post("/v1/best-move", json=arguments)
    assert expected.status_code == 200
    result = await tools.call_tool("best_move", arguments)
    assert not result.is_error
    assert result.structured_content == expected.json()
    assert text_of(result) == expected.text  # the API's bytes, as it sends them
    if "level" in arguments or "rating" in arguments:
        return
    explained = await tools.call_tool("explain_move", arguments)
    assert not explained.is_error
    assert explained.structured_content == {
        name: value for name, value in expected.json().items() if name in EXPLAINED
    }
    assert json.loads(text_of(explained)) == explained.structured_content
    assert explained.structured_content["reason"]


#: Each tool in a language, with its arguments, and the REST request that answers the same.
IN_A_LANGUAGE: list[tuple[str, dict[str, Any], tuple[str, str, dict[str, Any]]]] = [
    ("best_move", {"board": "X...O...."}, ("POST", "/v1/best-move", {"board": "X...O...."})),
    ("analyze_position", {"board": "XX.OO...."}, ("POST", "/v1/analysis", {"board": "XX.OO...."})),
    ("review_game", {"moves": [4, 1, 0]}, ("POST", "/v1/review", {"moves": [4, 1, 0]})),
    (
        "random_puzzle",
        {"seed": 7, "variant": "wild"},
        ("GET", "/v1/puzzles/random", {"seed": 7, "variant": "wild"}),
    ),
    ("get_puzzle", {"id": ".....OOXXX"}, ("GET", "/v1/puzzles/.....OOXXX", {})),
    (
        "list_puzzles",
        {"variant": "notakto-2", "limit": 2},
        ("GET", "/v1/puzzles", {"variant": "notakto-2", "limit": 2}),
    ),
]


@pytest.mark.parametrize(("tool", "arguments", "request_"), IN_A_LANGUAGE, ids=lambda x: str(x)[:20])
@pytest.mark.parametrize("language", ["es", "pt-BR", "de"])
async def test_every_tool_answers_in_the_language_it_is_given(
    tools: Client,
    rest: httpx.AsyncClient,
    tool: str,
    arguments: dict[str, Any],
    request_: tuple[str, str, dict[str, Any]],
    language: str,
) -> None:
    method, path, given = request_
    if method == "GET":
        expected = await rest.get(path, params=given | {"lang": language})
    else:
        expected = await rest.post(path, json=given | {"lang": language})
    english = await tools.call_tool(tool, arguments)
    result = await tools.call_tool(tool, arguments | {"language": language})
    assert not result.is_error, text_of(result)
    assert expected.headers["content-language"] == language[:2]
    assert text_of(result) == expected.text
    assert text_of(result) != text_of(english)


async def test_a_malformed_language_is_refused_by_name(tools: Client) -> None:
    result = await tools.call_tool("best_move", {"board": "X...O....", "language": "en_US"})
    assert result.is_error
    assert "lang" in text_of(result) and "BCP 47" in text_of(result)


@pytest.mark.parametrize("arguments", MOVES[:7] + FINISHED, ids=json.dumps)
async def test_analyze_position_is_the_rest_answer(
    tools: Client, rest: httpx.AsyncClient, arguments: dict[str, Any]
) -> None:
    arguments = {name: value for name, value in arguments.items() if name in ("board", "player")}
    expected = await rest.post("/v1/analysis", json=arguments)
    assert expected.status_code == 200
    result = await tools.call_tool("analyze_position", arguments)
    assert not result.is_error
    assert result.structured_content == expected.json()
    assert text_of(result) == expected.text


def variant_boards() -> list[dict[str, Any]]:
    """An unfinished board of every variant in every form it takes: a string, and on one board its
    cells and its rows."""
    found: list[dict[str, Any]] = []
    for variant in VARIANTS.values():
        cells = ["X"] + [None] * (variant.cells - 1)
        found.append({"variant": variant.id, "board": "".join(cell or "." for cell in cells)})
        if variant.boards == 1:
            size = variant.size
            found.append({"variant": variant.id, "board": cells})
            found.append(
                {
                    "variant": variant.id,
                    "board": [cells[row * size : row * size + size] for row in range(size)],
                }
            )
    return found


@pytest.mark.parametrize("arguments", variant_boards(), ids=json.dumps)
async def test_every_variants_boards_fit_the_published_schemas_and_are_answered(
    tools: Client, rest: httpx.AsyncClient, arguments: dict[str, Any]
) -> None:
    """A host that validates arguments against a tool's published input schema lets every variant's
    boards through, and the tool answers them as the API does."""
    listed = {tool.name: tool.input_schema for tool in (await tools.list_tools()).tools}
    for name, path in (("best_move", "/v1/best-move"), ("analyze_position", "/v1/analysis")):
        jsonschema_rs.Draft202012Validator(listed[name]).validate(arguments)
        expected = await rest.post(path, json=arguments)
        assert expected.status_code == 200, expected.text
        result = await tools.call_tool(name, arguments)
        assert not result.is_error, text_of(result)
        assert result.structured_content == expected.json()
    game = {"variant": arguments["variant"], "board": arguments["board"], "moves": [1]}
    if VARIANTS[arguments["variant"]].marks == "either":
        game["moves"] = [{"position": 1, "mark": "o"}]
    jsonschema_rs.Draft202012Validator(listed["review_game"]).validate(game)
    reviewed = await tools.call_tool("review_game", game)
    assert not reviewed.is_error, text_of(reviewed)
    assert reviewed.structured_content == (await rest.post("/v1/review", json=game)).json()


def test_a_board_of_no_variant_is_refused_by_the_published_schema() -> None:
    """The schema is not merely open: lengths no variant has, and symbols no board takes, fail it."""
    schema = {"type": "object", "properties": {"board": BOARD_SCHEMA}}
    validator = jsonschema_rs.Draft202012Validator(schema)
    for board in ("X" * 10, "." * 15, "." * 17, "." * 28, "........Z", [None] * 10, [[None] * 3] * 4):
        assert not validator.is_valid({"board": board}), board


@pytest.mark.parametrize("arguments", INVALID, ids=json.dumps)
async def test_invalid_arguments_are_a_tool_error_naming_each_problem_as_the_api_does(
    tools: Client, rest: httpx.AsyncClient, arguments: dict[str, Any]
) -> None:
    refused = await rest.post("/v1/best-move", json=arguments)
    assert refused.status_code == 422
    result = await tools.call_tool("best_move", arguments)
    assert result.is_error
    assert result.structured_content is None
    text = text_of(result)
    assert text.startswith("Error executing tool best_move: ")
    for error in refused.json()["errors"]:  # body.board -> board: the same place, the same words
        assert f"{'.'.join(str(part) for part in error['loc'][1:])}: {error['msg']}" in text


async def test_a_too_long_board_is_named_with_its_length(tools: Client) -> None:
    for tool in PLAY_TOOLS:
        result = await tools.call_tool(tool, {"board": "X.O......X"})
        assert result.is_error
        assert "board: a board string has exactly 9 characters, one per cell; got 10" in text_of(result)


async def test_a_finished_board_has_no_move_but_an_analysis(tools: Client) -> None:
    for tool in ("best_move", "explain_move"):
        result = await tools.call_tool(tool, {"board": "XXXOO...."})
        assert result.is_error
        assert "board: the game is over (x_won): there is no move to make" in text_of(result)
    analysis = await tools.call_tool("analyze_position", {"board": "XXXOO...."})
    assert not analysis.is_error and analysis.structured_content["winner"] == "X"


async def test_a_missing_or_unknown_argument_is_a_tool_error_as_the_api_says(
    tools: Client, rest: httpx.AsyncClient
) -> None:
    """The SDK would drop a misspelt option and play on without it; the API and the tools refuse it."""
    for arguments in ({"player": "X"}, {"board": "X........", "levle": "beginner"}, {"colour": "X"}):
        refused = await rest.post("/v1/best-move", json=arguments)
        for tool in PLAY_TOOLS:
            result = await tools.call_tool(tool, arguments)
            assert result.is_error, (tool, arguments)
            assert text_of(result).startswith(f"Error executing tool {tool}: ")
            said_as_the_api_does(text_of(result), refused)
    for tool in COACH_TOOLS:
        result = await tools.call_tool(tool, {"moves": [4], "id": ".....OOXXX", "colour": "blue"})
        assert result.is_error, tool
        assert "colour: Extra inputs are not permitted" in text_of(result)
    for listed in (await tools.list_tools()).tools:
        assert listed.input_schema["additionalProperties"] is False, listed.name


# --- the coach: reviews and puzzles -----------------------------------------------------------------

#: Games to review, each also a valid body of POST /v1/review: from the empty board and others, every
#: board form, O to move first, a blunder, a mistake, a win, a draw, a single move.
GAMES: list[dict[str, Any]] = [
    {"moves": [4, 1, 0, 8, 6, 2, 3]},
    {"moves": [0, 1, 4, 8, 2, 6, 3]},
    {"moves": [0, 4, 8, 1, 7, 6, 2, 5, 3]},
    {"moves": [4]},
    {"moves": [8, 2], "board": "X...O....", "player": None},
    {"moves": [4, 0, 8], "board": ".........", "player": "O"},
    {"moves": [2, 5, 6], "board": ["X", None, "", "", "o", "", "", "", "x"]},
    {"moves": [2], "board": [["X", "X", ""], ["O", "O", ""], ["", "", ""]]},
    {"variant": "wild", "moves": [{"position": 4, "mark": "X"}, {"position": 0, "mark": "O"}]},
    {"variant": "notakto-2", "moves": [4, 13, 0]},
    {"variant": "4x4", "moves": [5, 6, 9], "board": "................", "player": "O"},
    {"variant": "misere", "moves": [4, 0, 8, 2]},
]
#: Games with a move that cannot be played, and the index of that move in ``moves``.
ILLEGAL: list[tuple[dict[str, Any], int]] = [
    ({"moves": [4, 4]}, 1),
    ({"moves": [0, 3, 1, 4, 2, 5]}, 5),
    ({"moves": [4, 0, 8, 8, 2]}, 3),
    ({"moves": [0], "board": "X...O...."}, 0),
    ({"variant": "wild", "moves": [4]}, 0),
    ({"variant": "notakto-2", "board": "XXX...............", "moves": [9, 1]}, 1),
    ({"variant": "misere", "moves": [{"position": 4, "mark": "X"}]}, 0),
]
#: Invalid arguments of review_game, each also a body that POST /v1/review refuses with 422.
INVALID_GAMES: list[dict[str, Any]] = [
    {"moves": []},
    {"moves": [9]},
    {"moves": [-1, 4]},
    {"moves": ["4"]},
    {"moves": [True]},
    {"moves": 4},
    {"moves": list(range(9)) + [0]},
    {"variant": "4x4", "moves": list(range(17))},
    {"variant": "wild", "moves": [{"position": 4}]},
    {"variant": "chess", "moves": [4]},
    {"moves": [4], "board": "X.O......X"},
    {"moves": [4], "board": "XXXOO...."},
    {"moves": [4], "board": "X........", "player": "X"},
    {"moves": [4], "player": "x"},
]
#: Draws of random_puzzle, each also a query of GET /v1/puzzles/random that is answered.
DRAWS: list[dict[str, Any]] = [
    {"seed": 1},
    {"seed": 1, "theme": "fork"},
    {"seed": -5, "max_rating": 94},
    {"seed": 2**64 - 1, "theme": "block", "min_rating": 100, "max_rating": 400},
    {"seed": 0, "min_rating": 493},
    {"seed": 3, "variant": "misere"},
    {"seed": 4, "variant": "wild", "theme": "squeeze"},
    {"seed": 5, "variant": "notakto-3", "theme": "hand_over"},
    {"seed": 6, "variant": "4x4", "min_rating": 100},
]
#: Queries of list_puzzles, each also a query of GET /v1/puzzles that is answered.
PAGES: list[dict[str, Any]] = [
    {},
    {"limit": 1},
    {"theme": "fork", "limit": 5},
    {"outcome": "draw", "min_rating": 100, "max_rating": 400, "limit": 100},
    {"theme": "threat", "outcome": "win", "limit": 3},
    {"variant": "notakto-2", "limit": 4},
    {"variant": "4x4-3", "theme": "fork", "outcome": "win", "limit": 2},
]
#: Invalid arguments of the puzzle tools, each also a query that GET /v1/puzzles refuses with 422.
INVALID_QUERIES: list[dict[str, Any]] = [
    {"min_rating": 300, "max_rating": 100},
    {"theme": "nope"},
    {"min_rating": -1},
    {"max_rating": "high"},
    {"outcome": "loss"},
    {"variant": "chess"},
    {"limit": 0},
    {"limit": 101},
    {"cursor": "abc"},
    {"cursor": "X...O...XO"},  # the pattern of an id, but no page ends there
]


def said_as_the_api_does(text: str, refused: httpx.Response) -> None:
    """``text`` names every error of the API's 422 ``refused`` at the same place, in the same words."""
    assert refused.status_code == 422, refused.text
    for error in refused.json()["errors"]:  # body.moves.1 -> moves.1, query.limit -> limit
        assert f"{'.'.join(str(part) for part in error['loc'][1:])}: {error['msg']}" in text


async def test_the_coach_tools_are_listed_with_the_api_schemas(tools: Client) -> None:
    listed = {tool.name: tool for tool in (await tools.list_tools()).tools}
    review = listed["review_game"].input_schema
    assert review["required"] == ["moves"]
    assert set(review["properties"]) == {"moves", "board", "player", "variant", "language"}
    moves = review["properties"]["moves"]
    assert (moves["type"], moves["minItems"], moves["maxItems"]) == ("array", 1, 27)
    cell, marked = moves["items"]["anyOf"]
    assert cell == {"type": "integer", "minimum": 0, "maximum": 26}
    assert (
        marked["required"] == ["position", "mark"] and marked["properties"]["mark"]["pattern"] == "^[XxOo]$"
    )
    board = review["properties"]["board"]
    # The variant's empty board when absent or null.
    assert board["anyOf"] == [BOARD_SCHEMA, {"type": "null"}] and board["default"] is None
    assert review["properties"]["variant"]["default"] == "standard"
    sides = {"enum": ["X", "O", "first", "second"], "type": "string"}
    assert sides in review["properties"]["player"]["anyOf"]
    draw = listed["random_puzzle"].input_schema
    assert "required" not in draw
    assert set(draw["properties"]) == {"variant", "theme", "min_rating", "max_rating", "seed", "language"}
    assert draw["properties"]["variant"]["default"] == "standard"
    assert draw["properties"]["theme"]["anyOf"][0]["enum"] == list(THEMES)
    assert draw["properties"]["min_rating"]["anyOf"][0] == {
        "type": "integer",
        "minimum": 0,
        "description": "Only puzzles rated at least this.",
    }
    assert draw["properties"]["seed"]["anyOf"][0]["type"] == "integer"
    page = listed["list_puzzles"].input_schema
    assert "required" not in page
    assert set(page["properties"]) == {
        "variant",
        "theme",
        "outcome",
        "min_rating",
        "max_rating",
        "limit",
        "cursor",
        "language",
    }
    limit = page["properties"]["limit"]
    assert (limit["type"], limit["minimum"], limit["maximum"], limit["default"]) == ("integer", 1, 100, 20)
    assert page["properties"]["outcome"]["anyOf"][0]["enum"] == ["win", "draw"]
    assert page["properties"]["cursor"]["anyOf"][0]["pattern"] == PUZZLE_ID
    by_id = listed["get_puzzle"].input_schema
    assert by_id["required"] == ["id"] and by_id["properties"]["id"]["type"] == "string"
    answers: dict[str, type[BaseModel]] = {
        "review_game": ReviewResponse,
        "random_puzzle": Puzzle,
        "get_puzzle": Puzzle,
        "list_puzzles": PuzzlePage,
    }
    assert set(answers) == COACH_TOOLS
    for name, model in answers.items():
        output = listed[name].output_schema
        assert output is not None
        # A puzzle's ``mark`` (wild) and ``grid`` (Notakto) are given only in their variants.
        optional = {"mark", "grid"} if model is Puzzle else set()
        assert set(output["properties"]) == set(model.model_fields)
        assert set(output["required"]) == set(model.model_fields) - optional


@pytest.mark.parametrize("arguments", GAMES, ids=json.dumps)
async def test_review_game_is_the_rest_answer(
    tools: Client, rest: httpx.AsyncClient, arguments: dict[str, Any]
) -> None:
    expected = await rest.post("/v1/review", json=arguments)
    assert expected.status_code == 200, expected.text
    result = await tools.call_tool("review_game", arguments)
    assert not result.is_error, text_of(result)
    assert result.structured_content == expected.json()
    assert text_of(result) == expected.text  # the API's bytes, as it sends them
    assert len(result.structured_content["plies"]) == len(arguments["moves"])


async def test_a_review_judges_the_blunder_and_names_the_better_move(tools: Client) -> None:
    result = await tools.call_tool("review_game", {"moves": [4, 1, 0, 8, 6, 2, 3]})
    review = result.structured_content
    assert review is not None
    assert [ply["judgement"] for ply in review["plies"]] == ["best", "blunder"] + ["best"] * 5
    assert review["plies"][1]["better"]["position"] == 0  # O's edge loses; a corner draws
    assert (review["status"], review["winner"]) == ("x_won", "X")
    assert review["players"]["O"]["judgements"]["blunder"] == 1


@pytest.mark.parametrize(("arguments", "index"), ILLEGAL, ids=json.dumps)
async def test_an_illegal_move_is_a_tool_error_naming_its_index(
    tools: Client, rest: httpx.AsyncClient, arguments: dict[str, Any], index: int
) -> None:
    refused = await rest.post("/v1/review", json=arguments)
    assert refused.status_code == 422
    [error] = refused.json()["errors"]
    assert error["loc"] == ["body", "moves", index]
    result = await tools.call_tool("review_game", arguments)
    assert result.is_error
    assert result.structured_content is None
    assert text_of(result) == f"Error executing tool review_game: moves.{index}: {error['msg']}"


@pytest.mark.parametrize("arguments", INVALID_GAMES, ids=json.dumps)
async def test_invalid_games_are_a_tool_error_as_the_api_says(
    tools: Client, rest: httpx.AsyncClient, arguments: dict[str, Any]
) -> None:
    result = await tools.call_tool("review_game", arguments)
    assert result.is_error
    assert text_of(result).startswith("Error executing tool review_game: ")
    said_as_the_api_does(text_of(result), await rest.post("/v1/review", json=arguments))


async def test_a_null_board_is_the_published_default_the_variants_empty_board(
    tools: Client, rest: httpx.AsyncClient
) -> None:
    """The tool's ``board`` defaults to null, which stands for the variant's empty board (the API's
    body leaves the field out for that)."""
    for variant, cells in (("standard", 9), ("notakto-3", 27)):
        result = await tools.call_tool("review_game", {"variant": variant, "moves": [4], "board": None})
        expected = await rest.post("/v1/review", json={"variant": variant, "moves": [4]})
        assert result.structured_content == expected.json()
        assert expected.json()["board"] == "." * cells


async def test_a_review_needs_its_moves(tools: Client) -> None:
    result = await tools.call_tool("review_game", {"board": "X........"})
    assert result.is_error
    assert "moves" in text_of(result) and "required" in text_of(result).lower()


@pytest.mark.parametrize("arguments", DRAWS, ids=json.dumps)
async def test_random_puzzle_with_a_seed_is_the_rest_answer(
    tools: Client, rest: httpx.AsyncClient, arguments: dict[str, Any]
) -> None:
    expected = await rest.get("/v1/puzzles/random", params=arguments)
    assert expected.status_code == 200, expected.text
    result = await tools.call_tool("random_puzzle", arguments)
    assert not result.is_error, text_of(result)
    assert result.structured_content == expected.json()
    assert text_of(result) == expected.text


async def test_random_puzzle_without_a_seed_is_a_matching_puzzle(
    tools: Client, rest: httpx.AsyncClient
) -> None:
    filters = {"theme": "block", "min_rating": 100, "max_rating": 350}
    for _ in range(5):
        result = await tools.call_tool("random_puzzle", filters)
        assert not result.is_error, text_of(result)
        drawn = Puzzle.model_validate(result.structured_content)
        assert "block" in drawn.themes and 100 <= drawn.rating <= 350
        assert result.structured_content == (await rest.get(f"/v1/puzzles/{drawn.id}")).json()


async def test_no_matching_puzzle_is_a_tool_error_naming_the_filters(
    tools: Client, rest: httpx.AsyncClient
) -> None:
    filters: dict[str, str | int] = {"theme": "fork", "max_rating": 50, "seed": 3}
    missing = await rest.get("/v1/puzzles/random", params=filters)
    assert missing.status_code == 404
    result = await tools.call_tool("random_puzzle", filters)
    assert result.is_error
    assert text_of(result) == (
        f"Error executing tool random_puzzle: {missing.json()['detail']} (theme fork, max_rating 50)"
    )


async def test_get_puzzle_is_the_rest_answer(tools: Client, rest: httpx.AsyncClient) -> None:
    page = (await rest.get("/v1/puzzles", params={"limit": 100, "outcome": "draw"})).json()
    assert len(page["puzzles"]) == 100
    for puzzle in page["puzzles"][::7]:
        expected = await rest.get(f"/v1/puzzles/{puzzle['id']}")
        result = await tools.call_tool("get_puzzle", {"id": puzzle["id"]})
        assert not result.is_error, text_of(result)
        assert result.structured_content == expected.json() == puzzle
        assert text_of(result) == expected.text


MIRROR = (2, 1, 0, 5, 4, 3, 8, 7, 6)


async def test_an_unknown_puzzle_is_a_tool_error_as_the_api_says(
    tools: Client, rest: httpx.AsyncClient
) -> None:
    puzzles = (await rest.get("/v1/puzzles", params={"limit": 100})).json()["puzzles"]
    mirrored = [
        "".join(puzzle["board"][cell] for cell in MIRROR) + puzzle["player"]
        for puzzle in puzzles
        if "".join(puzzle["board"][cell] for cell in MIRROR) != puzzle["board"]
    ]
    for unknown in ["nope", "X........X", "", mirrored[0], "x...o...xo"]:
        missing = await rest.get(f"/v1/puzzles/{unknown}") if unknown else None
        result = await tools.call_tool("get_puzzle", {"id": unknown})
        assert result.is_error
        assert result.structured_content is None
        if missing is not None:
            assert missing.status_code == 404
            assert text_of(result) == f"Error executing tool get_puzzle: id: {missing.json()['detail']}"
    turned = await tools.call_tool("get_puzzle", {"id": mirrored[0]})
    assert "turned or mirrored" in text_of(turned)
    for wrong in [{}, {"id": 12}]:
        result = await tools.call_tool("get_puzzle", wrong)
        assert result.is_error and "id" in text_of(result)


@pytest.mark.parametrize("arguments", PAGES, ids=json.dumps)
async def test_list_puzzles_is_the_rest_answer_page_after_page(
    tools: Client, rest: httpx.AsyncClient, arguments: dict[str, Any]
) -> None:
    seen: list[str] = []
    for _ in range(3):  # the first pages, each from the `next` of the one before
        expected = await rest.get("/v1/puzzles", params=arguments)
        assert expected.status_code == 200, expected.text
        result = await tools.call_tool("list_puzzles", arguments)
        assert not result.is_error, text_of(result)
        assert result.structured_content == expected.json()
        assert text_of(result) == expected.text
        page = result.structured_content
        seen += [puzzle["id"] for puzzle in page["puzzles"]]
        if page["next"] is None:
            assert len(seen) == page["total"]
            break
        arguments = {**arguments, "cursor": page["next"]}
    assert len(seen) == len(set(seen))


@pytest.mark.parametrize("arguments", INVALID_QUERIES, ids=json.dumps)
async def test_invalid_puzzle_queries_are_a_tool_error_as_the_api_says(
    tools: Client, rest: httpx.AsyncClient, arguments: dict[str, Any]
) -> None:
    refused = await rest.get("/v1/puzzles", params=arguments)
    result = await tools.call_tool("list_puzzles", arguments)
    assert result.is_error
    said_as_the_api_does(text_of(result), refused)
    if "limit" in arguments or "outcome" in arguments or "cursor" in arguments:
        return
    drawn = await tools.call_tool("random_puzzle", arguments)
    assert drawn.is_error
    said_as_the_api_does(text_of(drawn), await rest.get("/v1/puzzles/random", params=arguments))


def rpc(method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": 1, "method": method, "params": params or {}}


MCP_HEADERS = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-11-25"}


def counted(app: FastAPI, method: str, status: str) -> float:
    """The requests counted so far."""
    value = app.state.metrics.registry.get_sample_value(
        "tictactoe_http_requests_total", {"route": PATH, "method": method, "status": status}
    )
    return value or 0.0


async def test_a_call_needs_no_session_and_is_answered_in_json(rest: httpx.AsyncClient) -> None:
    """Stateless: a tools/call with no initialize before it is answered, so any replica answers it."""
    call = rpc("tools/call", {"name": "best_move", "arguments": {"board": "XX.OO...."}})
    response = await rest.post(PATH, json=call, headers=MCP_HEADERS)
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    assert "mcp-session-id" not in response.headers
    assert response.json()["result"]["structuredContent"]["position"] == 2
    initialize = rpc(
        "initialize",
        {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "test", "version": "0"}},
    )
    response = await rest.post(PATH, json=initialize, headers=MCP_HEADERS)
    assert response.status_code == 200
    assert "mcp-session-id" not in response.headers
    assert response.json()["result"]["serverInfo"]["name"] == "tictactoe"


async def test_a_body_not_sent_as_json_is_a_415_problem(rest: httpx.AsyncClient) -> None:
    body = json.dumps(rpc("tools/list")).encode()
    for content_type in ("text/plain", "application/x-www-form-urlencoded", "application/vnd.api+json", None):
        headers = {**MCP_HEADERS, **({"Content-Type": content_type} if content_type else {})}
        refused = await rest.post(PATH, content=body, headers=headers)
        assert refused.status_code == 415, content_type
        assert refused.headers["content-type"] == "application/problem+json"
        assert refused.json()["type"] == "/problems/unsupported-media-type"
        assert refused.json()["detail"].endswith(f"got {content_type or 'none'}")
    sent = await rest.post(
        PATH, content=body, headers={**MCP_HEADERS, "Content-Type": "application/json; charset=utf-8"}
    )
    assert sent.status_code == 200


async def test_any_host_and_origin_are_answered(rest: httpx.AsyncClient) -> None:
    """No DNS rebinding check: the tools are public like the API, under the proxy's host names."""
    headers = {**MCP_HEADERS, "Host": "tictactoe.example", "Origin": "https://assistant.example"}
    response = await rest.post(PATH, json=rpc("tools/list"), headers=headers)
    assert response.status_code == 200
    assert {tool["name"] for tool in response.json()["result"]["tools"]} == TOOLS


async def test_mcp_goes_through_the_service_middleware(served: FastAPI, rest: httpx.AsyncClient) -> None:
    before = counted(served, "POST", "200")
    response = await rest.post(PATH, json=rpc("tools/list"), headers={**MCP_HEADERS, "X-Request-ID": "mcp-1"})
    assert response.status_code == 200
    assert response.headers["x-request-id"] == "mcp-1"
    assert response.headers["x-content-type-options"] == "nosniff"
    assert counted(served, "POST", "200") == before + 1  # counted under its route, not as unmatched
    too_large = await rest.post(
        PATH,
        content=b" " * (Settings().max_body_bytes + 1),
        headers={**MCP_HEADERS, "Content-Type": "application/json"},
    )
    assert too_large.status_code == 413
    assert too_large.headers["content-type"] == "application/problem+json"
    for method in ("GET", "DELETE", "PUT"):
        refused = await rest.request(method, PATH, headers=MCP_HEADERS)
        assert refused.status_code == 405
        assert refused.headers["allow"] == "POST"
        assert refused.json()["type"] == "/problems/method-not-allowed"
    assert counted(served, "GET", "405") >= 1


#: The JSON-RPC 2.0 error codes the endpoint answers with.
PARSE_ERROR, INVALID_REQUEST, INVALID_PARAMS = -32700, -32600, -32602
#: Both ways a client calls: after the initialize handshake, and directly (2026-07-28).
VERSIONS = ["2025-11-25", "2026-07-28"]
#: ``id`` values that are neither a string nor an integer, as JSON: MCP allows no other.
WRONG_IDS = ['{"a": 1}', "[1]", "[]", "{}", "null", "true", "false", "1.5", "1.0", "1e999", "-1e999", "2e3"]
#: A long name, which no answer may echo whole: twice in one message, it still fits the body limit
#: of ``/mcp`` (a 0.9 MB name is refused whole, ``413``, before it is read).
HUGE_NAME = "n" * 7_000


def refused(response: httpx.Response, code: int, status: int = 400) -> str:
    """The message of the JSON-RPC error that ``response`` is, checked: its code, and ``id: null``."""
    assert response.status_code == status, response.text[:300]
    assert response.headers["content-type"] == "application/json"
    answer = response.json()
    assert answer["jsonrpc"] == "2.0"
    assert answer["error"]["code"] == code, answer
    if status == 400:
        assert answer["id"] is None
    assert "pydantic" not in response.text.lower()
    message: str = answer["error"]["message"]
    return message


def envelope(**members: str) -> bytes:
    """A request to list the tools, with ``members`` (JSON text each) written in over its own."""
    written = {"jsonrpc": '"2.0"', "id": "1", "method": '"tools/list"', **members}
    return ("{" + ", ".join(f'"{name}": {value}' for name, value in written.items()) + "}").encode()


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("ident", WRONG_IDS)
async def test_an_id_neither_string_nor_integer_is_an_invalid_request(
    rest: httpx.AsyncClient, ident: str, version: str
) -> None:
    """Not taken for a notification (202, no answer), as the SDK takes it."""
    headers = {**MCP_HEADERS, "MCP-Protocol-Version": version, "Content-Type": "application/json"}
    response = await rest.post(PATH, content=envelope(id=ident), headers=headers)
    message = refused(response, INVALID_REQUEST)
    assert message.startswith("Invalid Request: id must be a string or an integer, not ")


@pytest.mark.parametrize("ident", ['"7"', '""', "0", "-3", str(10**30)])
async def test_an_id_that_is_a_string_or_an_integer_is_answered_with_it(
    rest: httpx.AsyncClient, ident: str
) -> None:
    response = await rest.post(
        PATH, content=envelope(id=ident), headers={**MCP_HEADERS, "Content-Type": "application/json"}
    )
    assert response.status_code == 200, response.text[:300]
    assert response.json()["id"] == json.loads(ident)
    assert {tool["name"] for tool in response.json()["result"]["tools"]} == TOOLS


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
async def test_an_id_that_is_no_json_value_is_a_parse_error(rest: httpx.AsyncClient, constant: str) -> None:
    """NaN and Infinity are not JSON (RFC 8259): the body is malformed, as it is for the API."""
    response = await rest.post(
        PATH, content=envelope(id=constant), headers={**MCP_HEADERS, "Content-Type": "application/json"}
    )
    message = refused(response, PARSE_ERROR)
    assert message == f"Parse error: the body is not valid JSON: {constant} is not a JSON value"


@pytest.mark.parametrize(
    ("body", "key"),
    [
        (b'{"jsonrpc": "2.0", "id": 1, "id": 2, "method": "tools/list"}', "id"),
        (b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "method": "tools/list"}', "method"),
        (b'{"jsonrpc": "2.0", "jsonrpc": "2.0", "method": "notifications/initialized"}', "jsonrpc"),
        (
            b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", '
            b'"params": {"name": "best_move", "name": "analyze_position", '
            b'"arguments": {"board": "........."}}}',
            "name",
        ),
        (
            b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", '
            b'"params": {"name": "best_move", "arguments": {"board": "X........", "board": "........."}}}',
            "board",
        ),
        (
            b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list", '
            b'"params": {"_meta": {"a": [{"b": 1, "b": 2}]}}}',
            "b",
        ),
    ],
)
async def test_a_duplicate_key_anywhere_is_a_parse_error(
    rest: httpx.AsyncClient, body: bytes, key: str
) -> None:
    """The API's rule (malformed JSON), whichever key, however deep: the SDK would keep the last."""
    response = await rest.post(
        PATH, content=body, headers={**MCP_HEADERS, "Content-Type": "application/json"}
    )
    message = refused(response, PARSE_ERROR)
    assert message == f"Parse error: the body is not valid JSON: duplicate key {key!r} in a JSON object"


async def test_a_long_duplicate_key_is_quoted_cut_with_its_length(rest: httpx.AsyncClient) -> None:
    key = HUGE_NAME  # twice, within the body limit
    body = envelope(params=f'{{"{key}": 1, "{key}": 2}}')
    response = await rest.post(
        PATH, content=body, headers={**MCP_HEADERS, "Content-Type": "application/json"}
    )
    message = refused(response, PARSE_ERROR)
    assert f"duplicate key '{'n' * 200}'… ({len(key)} characters)" in message
    assert len(response.content) < 1024


@pytest.mark.parametrize(
    ("body", "said"),
    [
        (b"[]", "not an array (MCP has no batches)"),
        (b'[{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}]', "not an array (MCP has no batches)"),
        (b'"tools/list"', "not a string"),
        (envelope(jsonrpc='"1.0"'), 'jsonrpc must be "2.0"'),
        (b'{"id": 1, "method": "tools/list"}', 'jsonrpc must be "2.0"'),
        (b'{"jsonrpc": "2.0"}', "a message needs a method"),
        (b'{"jsonrpc": "2.0", "id": 1}', "a message needs a method"),
        (envelope(method="3"), "method must be a string, not an integer"),
        (envelope(params="3"), "params must be an object when given, not an integer"),
        (envelope(params="null"), "params must be an object when given, not null"),
        (envelope(params="[1]"), "params must be an object when given, not an array"),
        (b'{"jsonrpc": "2.0", "result": {}}', "a response needs the id of the request it answers"),
        (
            b'{"jsonrpc": "2.0", "id": null, "result": {}}',
            "the id of a response must be a string or an integer",
        ),
        (b'{"jsonrpc": "2.0", "id": 1, "result": 3}', "result must be an object, not an integer"),
        (b'{"jsonrpc": "2.0", "id": 1, "result": {}, "error": {}}', "a result or an error, not both"),
        (b'{"jsonrpc": "2.0", "id": [], "error": {"code": 1, "message": "x"}}', "not an array"),
        (b'{"jsonrpc": "2.0", "id": 1, "error": {"code": "1", "message": "x"}}', "an integer code"),
    ],
)
async def test_json_that_is_not_one_message_is_an_invalid_request(
    rest: httpx.AsyncClient, body: bytes, said: str
) -> None:
    response = await rest.post(
        PATH, content=body, headers={**MCP_HEADERS, "Content-Type": "application/json"}
    )
    assert said in refused(response, INVALID_REQUEST)


@pytest.mark.parametrize("body", [b"{", b"", b"\xff", b'{"jsonrpc": "2.0",}', b'{"a": 1} {"b": 2}'])
async def test_a_body_that_is_not_json_is_a_parse_error(rest: httpx.AsyncClient, body: bytes) -> None:
    response = await rest.post(
        PATH, content=body, headers={**MCP_HEADERS, "Content-Type": "application/json"}
    )
    assert refused(response, PARSE_ERROR).startswith("Parse error: the body is not valid JSON: ")


async def test_responses_and_notifications_are_taken(rest: httpx.AsyncClient) -> None:
    """What the envelope lets through, the SDK takes (202): nothing goes on that it would refuse."""
    for body in [
        b'{"jsonrpc": "2.0", "method": "notifications/initialized"}',
        b'{"jsonrpc": "2.0", "method": "notifications/initialized", "params": {}}',
        b'{"jsonrpc": "2.0", "id": 1, "result": {}}',
        b'{"jsonrpc": "2.0", "id": "a", "error": {"code": -1, "message": "no"}}',
        b'{"jsonrpc": "2.0", "id": null, "error": {"code": -1, "message": "no", "data": [1]}}',
    ]:
        response = await rest.post(
            PATH, content=body, headers={**MCP_HEADERS, "Content-Type": "application/json"}
        )
        assert response.status_code == 202, (body, response.text)


@pytest.mark.parametrize(
    ("method", "what", "member"),
    [
        ("tools/call", "tool", "name"),
        ("prompts/get", "prompt", "name"),
        ("resources/read", "resource", "uri"),
    ],
)
async def test_an_unknown_name_is_invalid_params_quoted_cut_with_its_length(
    rest: httpx.AsyncClient, method: str, what: str, member: str
) -> None:
    """MCP says -32602 for an unknown tool or prompt; the SDK says a tool error, and 0. (The SDK's
    client, below, asks in both protocol versions.)"""
    for name in ["nope-nope!", HUGE_NAME]:
        call = {"jsonrpc": "2.0", "id": 5, "method": method, "params": {member: name}}
        response = await rest.post(PATH, json=call, headers=MCP_HEADERS)
        message = refused(response, INVALID_PARAMS, 200)
        assert response.json()["id"] == 5
        assert len(response.content) < 1024
        if name == HUGE_NAME:
            assert f"Unknown {what}: '{'n' * 200}'… ({len(name)} characters)" in message, message
        else:
            assert message.startswith(f"Unknown {what}: 'nope-nope!'; ")


async def test_no_answer_quotes_the_validation_library(rest: httpx.AsyncClient) -> None:
    """Messages are in the service's words: no library's name, web address or version."""
    headers = {**MCP_HEADERS, "Content-Type": "application/json"}
    bodies = [
        b"[]",
        b'{"jsonrpc": "2.0"}',
        envelope(params="3"),
        envelope(id="{}"),
        envelope(method="[]"),
        b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": 3}}',
        b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", '
        b'"params": {"name": "best_move", "arguments": 3}}',
        b'{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": []}}',
        b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", '
        b'"params": {"name": "best_move", "arguments": {}}}',
        b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "nope"}}',
        b'{"jsonrpc": "2.0", "id": 1, "method": "prompts/get", "params": {"name": "nope"}}',
        b'{"jsonrpc": "2.0", "id": 1, "method": "nope/nope"}',
    ]
    for body in bodies:
        response = await rest.post(PATH, content=body, headers=headers)
        assert response.status_code < 500, response.text[:300]
        assert "pydantic" not in response.text.lower(), response.text[:300]
        assert "errors.pydantic.dev" not in response.text
        assert "validation error" not in response.text.lower(), response.text[:300]


async def test_a_long_unknown_argument_is_named_cut(tools: Client) -> None:
    result = await tools.call_tool("best_move", {"board": "X........", HUGE_NAME: 1})
    assert result.is_error
    assert len(text_of(result)) < 300
    assert "Extra inputs are not permitted" in text_of(result)


async def test_the_sdk_client_gets_invalid_params_for_an_unknown_tool_or_prompt(tools: Client) -> None:
    with pytest.raises(MCPError) as raised:
        await tools.call_tool("nope", {})
    assert raised.value.code == INVALID_PARAMS
    assert raised.value.message.startswith(
        "Unknown tool: 'nope'; the tools are analyze_position, best_move, "
    )
    with pytest.raises(MCPError) as raised:
        await tools.get_prompt("nope")
    assert raised.value.code == INVALID_PARAMS
    assert raised.value.message == "Unknown prompt: 'nope'; this server has no prompts"


async def test_the_openapi_document_does_not_list_mcp(rest: httpx.AsyncClient) -> None:
    document = (await rest.get("/openapi.json")).json()
    assert document["paths"]
    assert not [path for path in document["paths"] if path.startswith(PATH)]


async def test_building_the_tools_leaves_the_root_logger_alone(
    served: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The SDK's server calls logging.basicConfig; the service's logs stay JSON lines of its own."""
    root = logging.getLogger()
    monkeypatch.setattr(root, "handlers", [])  # as in a worker: uvicorn's configuration leaves it bare
    monkeypatch.setattr(root, "level", logging.WARNING)
    build_server(served.state.answers, served.state.coach)
    assert root.handlers == []
    assert root.level == logging.WARNING


async def test_each_run_of_the_lifespan_serves_the_tools_and_none_is_a_503() -> None:
    """A test client may run one app's lifespan several times: each run has a session manager of its own."""
    app = create_app(Settings(log_level="warning"))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=BASE) as client:
        before = await client.post(PATH, json=rpc("tools/list"), headers=MCP_HEADERS)
        assert before.status_code == 503
        assert before.headers["content-type"] == "application/problem+json"
        assert "not running" in before.json()["detail"]
        for _ in range(2):
            async with app.router.lifespan_context(app):
                during = await client.post(PATH, json=rpc("tools/list"), headers=MCP_HEADERS)
                assert during.status_code == 200
                assert {tool["name"] for tool in during.json()["result"]["tools"]} == TOOLS
            after = await client.post(PATH, json=rpc("tools/list"), headers=MCP_HEADERS)
            assert after.status_code == 503


def test_the_sdk_is_loaded_off_the_start_up_path() -> None:
    """Importing the SDK takes about a second: building the app must not (the lifespan loads it)."""
    code = (
        "import sys\n"
        "from service.settings import Settings\n"
        "from service.web.app import create_app\n"
        "create_app(Settings(log_level='warning'))\n"
        "print(sorted(name for name in sys.modules if name == 'mcp' or name.startswith('mcp.')))\n"
    )
    result = run([sys.executable, "-c", code])
    assert result.stdout.strip() == "[]"


async def test_a_browser_may_call_the_tools_from_any_origin(client: httpx.AsyncClient) -> None:
    """An MCP client in a page sends ``Mcp-Protocol-Version``: the preflight allows it."""
    preflight = await client.options(
        PATH,
        headers={
            "origin": "https://assistant.example",
            "access-control-request-method": "POST",
            "access-control-request-headers": "content-type, mcp-protocol-version",
        },
    )
    assert preflight.status_code == 200, preflight.text
    assert preflight.headers["access-control-allow-origin"] == "*"
    assert "mcp-protocol-version" in preflight.headers["access-control-allow-headers"].lower()


#: A drawn game of 9 moves.
DRAWN = [4, 0, 2, 6, 3, 5, 7, 1, 8]


async def test_the_largest_valid_call_is_answered_and_a_body_past_the_tools_limit_is_413(
    rest: httpx.AsyncClient,
) -> None:
    """``/mcp`` has a body limit of its own, far below the API's: a few times its largest valid call."""
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    rows = [[None, None, None]] * 3
    largest = {
        "jsonrpc": "2.0",
        "id": 2**31 - 1,
        "method": "tools/call",
        "params": {
            "name": "review_game",
            "arguments": {"moves": DRAWN, "board": rows, "player": "X"},
        },
    }
    pretty = json.dumps(largest, indent=8).encode()
    assert 4 * len(pretty) < MAX_BODY_BYTES < 64 * 1024
    answer = await rest.post(PATH, content=pretty, headers=headers)
    assert answer.status_code == 200, answer.text
    assert answer.json()["result"]["isError"] is False, answer.json()["result"]["content"]
    padded = pretty[:-1] + b" " * (MAX_BODY_BYTES - len(pretty)) + b"}"
    assert (await rest.post(PATH, content=padded, headers=headers)).status_code == 200
    refused = await rest.post(PATH, content=padded + b" ", headers=headers)
    assert refused.status_code == 413
    assert refused.headers["content-type"] == "application/problem+json"
    assert f"limit of {MAX_BODY_BYTES} bytes" in refused.json()["detail"]
    api = await rest.post(
        "/v1/analysis", content=b'{"board": "X........"}' + b" " * MAX_BODY_BYTES, headers=headers
    )
    assert api.status_code == 200  # the API's own limit stays 1 MiB
