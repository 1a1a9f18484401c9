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
import pytest
from fastapi import FastAPI
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.types import CallToolResult, TextContent

from service.game import Level
from service.schemas import BOARD_SCHEMA, AnalysisResponse, BestMoveResponse
from service.settings import Settings
from service.web.app import create_app
from service.web.mcp import PATH
from service.web.mcp.tools import EXPLAINED, build_server
from tests.support.commands import run

pytestmark = pytest.mark.anyio

BASE = "http://testserver"
TOOLS = {"best_move", "explain_move", "analyze_position"}
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
        schema = tool.input_schema
        assert schema["type"] == "object" and schema["required"] == ["board"]
        assert {
            key: value for key, value in schema["properties"]["board"].items() if key != "title"
        } == BOARD_SCHEMA
        player = schema["properties"]["player"]
        assert {"enum": ["X", "O"], "type": "string"} in player["anyOf"]
        assert player["default"] is None
        assert tool.output_schema is not None and tool.output_schema["type"] == "object"
    level = listed["best_move"].input_schema["properties"]["level"]["anyOf"][0]
    assert level["enum"] == [level.value for level in Level]
    seed = listed["best_move"].input_schema["properties"]["seed"]["anyOf"][0]
    assert seed["type"] == "integer"
    assert set(listed["explain_move"].input_schema["properties"]) == {"board", "player"}
    outputs = {name: tool.output_schema for name, tool in listed.items()}
    assert outputs["best_move"] is not None and outputs["analyze_position"] is not None
    assert set(outputs["best_move"]["properties"]) == set(BestMoveResponse.model_fields)
    assert set(outputs["best_move"]["required"]) == set(BestMoveResponse.model_fields)
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
    if "level" in arguments:
        return
    explained = await tools.call_tool("explain_move", arguments)
    assert not explained.is_error
    assert explained.structured_content == {name: expected.json()[name] for name in EXPLAINED}
    assert json.loads(text_of(explained)) == explained.structured_content
    assert explained.structured_content["reason"]


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
    for tool in TOOLS:
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


async def test_a_missing_board_is_a_tool_error(tools: Client) -> None:
    for tool in TOOLS:
        result = await tools.call_tool(tool, {"player": "X"})
        assert result.is_error
        assert "board" in text_of(result) and "required" in text_of(result).lower()


def rpc(method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": 1, "method": method, "params": params or {}}


MCP_HEADERS = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-11-25"}


def counted(app: FastAPI, method: str, status: str) -> float:
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


@pytest.mark.parametrize(
    ("body", "content_type", "status"),
    [
        (b"{", "application/json", 400),
        (b"[]", "application/json", 400),
        (b'{"jsonrpc": "2.0"}', "application/json", 400),
        (b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": 3}', "application/json", 400),
        (
            b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "nope"}}',
            "application/json",
            200,
        ),
        (b"board=X........", "application/x-www-form-urlencoded", 400),
    ],
)
async def test_hostile_messages_are_refused_without_a_server_error(
    rest: httpx.AsyncClient, body: bytes, content_type: str, status: int
) -> None:
    """The SDK's own JSON-RPC refusals (the protocol's errors, not problem+json), never a 5xx."""
    response = await rest.post(PATH, content=body, headers={**MCP_HEADERS, "Content-Type": content_type})
    assert response.status_code == status, response.text
    if status == 200:
        assert response.json()["result"]["isError"] is True


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
    build_server(served.state.answers)
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
