"""The MCP tools of a real service, with the SDK's own clients: over HTTP, through the proxy, over stdio.

Every answer is checked against the REST answer of the same server for the same board, game or
puzzle query, and
docs/mcp.md against what the tests use: its configuration example names the endpoint and the
command, and its Python example runs against the live server and prints what it says.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import Any

import anyio
import httpx
import httpx2
import pytest
from anyio.streams.buffered import BufferedByteReceiveStream
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from mcp.types import CallToolResult, TextContent

from service.web.mcp import PATH
from service.web.mcp.tools import EXPLAINED
from tests.support import ROOT
from tests.support.commands import run
from tests.support.proxy import proxied
from tests.support.server import Server, running

pytestmark = pytest.mark.anyio

#: The tools about one position, each with a required board.
PLAY_TOOLS = {"best_move", "explain_move", "analyze_position"}
TOOLS = PLAY_TOOLS | {"review_game", "random_puzzle", "get_puzzle", "list_puzzles"}
#: How an assistant starts the stdio tools: ``tictactoe-service mcp``, as docs/mcp.md configures it.
STDIO = [str(Path(sys.executable).parent / "tictactoe-service"), "mcp"]
#: Positions asked of every transport: both starts, every board form, a win, a block, a fork.
BOARDS: list[dict[str, Any]] = [
    {"board": "........."},
    {"board": ".........", "player": "O"},
    {"board": "XX.OO...."},
    {"board": "X...O...X"},
    {"board": ["X", None, None, None, "O", None, None, None, None]},
    {"board": [["O", "", ""], ["", "X", ""], ["", "", "X"]]},
]
INVALID = {"board": "X.O......X"}
#: Games reviewed on every transport: a blunder and a win, a draw, and one from a board with O to move.
GAMES: list[dict[str, Any]] = [
    {"moves": [4, 1, 0, 8, 6, 2, 3]},
    {"moves": [0, 4, 8, 1, 7, 6, 2, 5, 3]},
    {"moves": [2, 5, 6], "board": "X...O...X"},
]
#: A game whose fourth move (index 3) is on a taken cell.
ILLEGAL_GAME = {"moves": [4, 0, 8, 8, 2]}
TOO_LONG = "board: a board string has exactly 9 characters, one per cell; got 10"
DOCS = ROOT / "docs" / "mcp.md"
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-11-25"}


def text_of(result: CallToolResult) -> str:
    block = result.content[0]
    assert isinstance(block, TextContent)
    return block.text


async def check_against_rest(client: Client, rest: httpx.AsyncClient) -> None:
    """The tools list, each tool's answers, and an invalid board, against the REST API of ``rest``."""
    listed = {tool.name: tool for tool in (await client.list_tools()).tools}
    assert set(listed) == TOOLS
    for listing in listed.values():
        assert listing.output_schema is not None and listing.output_schema["properties"]
    for name in PLAY_TOOLS:
        assert listed[name].input_schema["properties"]["board"]["oneOf"]
    # A review starts from its variant's empty board when the board is absent or null.
    start = listed["review_game"].input_schema["properties"]["board"]
    assert start["anyOf"][0]["oneOf"] and start["anyOf"][1] == {"type": "null"}
    for arguments in BOARDS:
        best = await rest.post("/v1/best-move", json=arguments)
        analysis = await rest.post("/v1/analysis", json=arguments)
        assert best.status_code == analysis.status_code == 200
        result = await client.call_tool("best_move", arguments)
        assert not result.is_error and result.structured_content == best.json()
        assert json.loads(text_of(result)) == best.json()
        explained = await client.call_tool("explain_move", arguments)
        assert not explained.is_error
        told = {name: value for name, value in best.json().items() if name in EXPLAINED}
        assert explained.structured_content == told
        analysed = await client.call_tool("analyze_position", arguments)
        assert not analysed.is_error and analysed.structured_content == analysis.json()
    seeded = {"board": "X........", "level": "easy", "seed": 42}
    result = await client.call_tool("best_move", seeded)
    assert result.structured_content == (await rest.post("/v1/best-move", json=seeded)).json()
    rated = {"board": "X........", "rating": 250, "seed": 9}
    result = await client.call_tool("best_move", rated)
    assert result.structured_content == (await rest.post("/v1/best-move", json=rated)).json()
    refused = await rest.post("/v1/best-move", json=INVALID)
    assert refused.status_code == 422 and refused.json()["errors"][0]["msg"] in TOO_LONG
    for name in PLAY_TOOLS:
        result = await client.call_tool(name, INVALID)
        assert result.is_error and TOO_LONG in text_of(result)
    await check_the_coach_against_rest(client, rest)


async def check_the_coach_against_rest(client: Client, rest: httpx.AsyncClient) -> None:
    """Reviews, an illegal move, and the puzzles drawn, by id and listed, against the REST API of ``rest``."""
    for game in GAMES:
        reviewed = await rest.post("/v1/review", json=game)
        assert reviewed.status_code == 200
        result = await client.call_tool("review_game", game)
        assert not result.is_error and result.structured_content == reviewed.json()
        assert json.loads(text_of(result)) == reviewed.json()
    refused = await rest.post("/v1/review", json=ILLEGAL_GAME)
    assert refused.status_code == 422
    [error] = refused.json()["errors"]
    assert error["loc"] == ["body", "moves", 3]
    result = await client.call_tool("review_game", ILLEGAL_GAME)
    assert result.is_error and f"moves.3: {error['msg']}" in text_of(result)
    draw: dict[str, str | int] = {"theme": "fork", "seed": 7}
    drawn = await rest.get("/v1/puzzles/random", params=draw)
    assert drawn.status_code == 200
    result = await client.call_tool("random_puzzle", draw)
    assert not result.is_error and result.structured_content == drawn.json()
    result = await client.call_tool("get_puzzle", {"id": drawn.json()["id"]})
    assert not result.is_error and result.structured_content == drawn.json()
    query: dict[str, str | int] = {"theme": "block", "limit": 4}
    page = (await rest.get("/v1/puzzles", params=query)).json()
    result = await client.call_tool("list_puzzles", query)
    assert not result.is_error and result.structured_content == page
    following: dict[str, str | int] = {**query, "cursor": page["next"]}
    result = await client.call_tool("list_puzzles", following)
    assert result.structured_content == (await rest.get("/v1/puzzles", params=following)).json()
    missing = await rest.get("/v1/puzzles/X........X")
    assert missing.status_code == 404
    result = await client.call_tool("get_puzzle", {"id": "X........X"})
    assert result.is_error and missing.json()["detail"] in text_of(result)


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_the_tools_over_http_are_the_rest_answers(live_server: Server, mode: str) -> None:
    """``legacy``: the initialize handshake, as assistants connect today; ``auto``: 2026-07-28."""
    with anyio.fail_after(60):
        async with (
            Client(f"{live_server.url}{PATH}", mode=mode) as client,
            httpx.AsyncClient(base_url=live_server.url, timeout=10) as rest,
        ):
            assert client.server_info is not None and client.server_info.name == "tictactoe"
            await check_against_rest(client, rest)


async def test_the_tools_over_stdio_are_the_rest_answers(live_server: Server) -> None:
    command = StdioServerParameters(command=STDIO[0], args=STDIO[1:], env=dict(os.environ))
    with anyio.fail_after(60):
        async with (
            Client(command, mode="legacy") as client,
            httpx.AsyncClient(base_url=live_server.url, timeout=10) as rest,
        ):
            assert client.server_info is not None and client.server_info.name == "tictactoe"
            await check_against_rest(client, rest)


#: Bodies the endpoint refuses before the SDK reads them, each with the JSON-RPC error code it gets.
REFUSED_BODIES: list[tuple[bytes, int]] = [
    *(
        (b'{"jsonrpc": "2.0", "id": %s, "method": "tools/list"}' % ident, -32600)
        for ident in (b'{"a": 1}', b"[1]", b"null", b"true", b"1.5", b"1e999")
    ),
    (b'{"jsonrpc": "2.0", "id": NaN, "method": "tools/list"}', -32700),
    (b'{"jsonrpc": "2.0", "id": 1, "id": 2, "method": "tools/list"}', -32700),
    (b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "x", "name": "y"}}', -32700),
]


async def test_the_endpoint_over_http_refuses_what_json_rpc_and_mcp_do(live_server: Server) -> None:
    """Raw HTTP to a real server: wrong ids and duplicate keys refused, unknown names -32602, in the
    service's words (never the validation library's), and whatever is echoed of a name cut."""
    headers = {**MCP_HEADERS, "Content-Type": "application/json"}
    huge = "n" * 15_000  # as long as fits the endpoint's body limit
    with anyio.fail_after(60):
        async with httpx.AsyncClient(base_url=live_server.url, timeout=10) as http:
            for body, code in REFUSED_BODIES:
                response = await http.post(PATH, content=body, headers=headers)
                assert response.status_code == 400, (body, response.text)
                assert response.json()["id"] is None and response.json()["error"]["code"] == code
                assert "pydantic" not in response.text.lower()
            for method, what in (("tools/call", "tool"), ("prompts/get", "prompt")):
                for name in ("0123456789", huge):
                    call = {"jsonrpc": "2.0", "id": 3, "method": method, "params": {"name": name}}
                    response = await http.post(PATH, json=call, headers=MCP_HEADERS)
                    assert response.status_code == 200
                    error = response.json()["error"]
                    assert (response.json()["id"], error["code"]) == (3, -32602)
                    assert error["message"].startswith(f"Unknown {what}: '{name[:200]}'")
                    assert len(response.content) < 1024
                    if name == huge:
                        assert f"… ({len(huge)} characters)" in error["message"]
                    assert "pydantic" not in response.text.lower()
            whole = {"jsonrpc": "2.0", "id": 4, "method": "prompts/get", "params": {"name": "n" * 900_000}}
            too_large = await http.post(PATH, json=whole, headers=MCP_HEADERS)
            assert too_large.status_code == 413 and "limit of 16384 bytes" in too_large.json()["detail"]
            listing = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
            encoded = await http.post(PATH, json=listing, headers={**MCP_HEADERS, "Content-Encoding": "gzip"})
            assert encoded.status_code == 415
            assert encoded.headers["accept-encoding"] == "identity"


#: Lines that are no message of MCP over stdio too: those bodies, params null, not JSON, not UTF-8.
REFUSED_LINES: list[tuple[bytes, int]] = [
    *REFUSED_BODIES,
    (b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": null}', -32600),
    (b"tools/list", -32700),
    (b'{"jsonrpc": "2.0", "id": "\xff", "method": "ping"}', -32700),
]


def ping(ident: int) -> bytes:
    return b'{"jsonrpc": "2.0", "id": %d, "method": "ping"}' % ident


async def test_stdio_refuses_each_line_as_the_endpoint_refuses_the_body(live_server: Server) -> None:
    """Raw lines to ``tictactoe-service mcp``: each line that is no message gets, on a line of its own,
    the very error ``/mcp`` answers to it as a body (id null), and the session goes on."""
    headers = {**MCP_HEADERS, "Content-Type": "application/json"}
    with anyio.fail_after(60):
        async with httpx.AsyncClient(base_url=live_server.url, timeout=10) as http:
            over_http = []
            for body, code in REFUSED_LINES:
                response = await http.post(PATH, content=body, headers=headers)
                assert response.status_code == 400 and response.json()["error"]["code"] == code, body
                over_http.append(response.json())
        async with await anyio.open_process(STDIO, stderr=None) as process:
            assert process.stdin is not None and process.stdout is not None
            lines = [body for body, _ in REFUSED_LINES]
            sent = [ping(7), *lines[:4], b"", *lines[4:], ping(8)]  # a blank line is passed over
            await process.stdin.send(b"".join(line + b"\n" for line in sent))
            answers = BufferedByteReceiveStream(process.stdout)
            got = [json.loads(await answers.receive_until(b"\n", 1 << 20)) for _ in range(len(lines) + 2)]
            await process.stdin.aclose()
            assert await process.wait() == 0
    refusals = [answer for answer in got if answer["id"] is None]
    assert refusals == over_http  # in the order sent, each in the endpoint's words
    assert sorted(answer["id"] for answer in got if answer["id"] is not None) == [7, 8]
    assert all(answer.get("result") == {} for answer in got if answer["id"] is not None)


@pytest.mark.parametrize("transport", ["http", "stdio"])
async def test_the_sdk_client_gets_invalid_params_for_an_unknown_tool(
    live_server: Server, transport: str
) -> None:
    command = StdioServerParameters(command=STDIO[0], args=STDIO[1:], env=dict(os.environ))
    server = f"{live_server.url}{PATH}" if transport == "http" else command
    with anyio.fail_after(60):
        async with Client(server, mode="legacy") as client:
            with pytest.raises(MCPError) as raised:
                await client.call_tool("nope", {})
            assert raised.value.code == -32602
            assert raised.value.message.startswith("Unknown tool: 'nope'; the tools are ")
            with pytest.raises(MCPError) as raised:
                await client.get_prompt("nope")
            assert raised.value.code == -32602


def log_lines(text: str) -> list[dict[str, Any]]:
    """Every line of a log of JSON lines, parsed: a line that is not JSON fails the test."""
    return [json.loads(line) for line in text.splitlines() if line.strip()]


async def test_the_tools_through_the_proxy_leave_one_request_id_in_both_access_logs() -> None:
    service = {"TICTACTOE_LOG_LEVEL": "info", "TICTACTOE_FORWARDED_ALLOW_IPS": "127.0.0.1"}
    rates = {
        "PROXY_RATE": "1000",
        "PROXY_BURST": "1000",
        "PROXY_EXPENSIVE_RATE": "100",
        "PROXY_EXPENSIVE_BURST": "100",
    }
    with running(env=service) as server, proxied([server.url.removeprefix("http://")], rates) as proxy:
        with anyio.fail_after(60):
            headers = {"X-Request-ID": "mcp-through-the-proxy"}
            async with (
                httpx2.AsyncClient(headers=headers, timeout=10) as http,
                Client(
                    streamable_http_client(f"{proxy.url}{PATH}", http_client=http), mode="legacy"
                ) as client,
                httpx.AsyncClient(base_url=proxy.url, timeout=10) as rest,
            ):
                await check_against_rest(client, rest)
                # A notification the SDK drops with a warning: logged as a JSON line like the service's
                malformed = {
                    "jsonrpc": "2.0",
                    "method": "notifications/cancelled",
                    "params": {"requestId": [1]},
                }
                dropped = await rest.post(PATH, json=malformed, headers={**MCP_HEADERS, **headers})
                assert dropped.status_code == 202
        assert server.stop() == 0
        proxy_log = log_lines(proxy.access_log.read_text())
    mcp_by_proxy = [line for line in proxy_log if line["path"] == PATH]
    # 200: the answer to a request; 202: a notification (notifications/initialized) taken
    assert {line["status"] for line in mcp_by_proxy} == {200, 202}
    assert {line["request_id"] for line in mcp_by_proxy} == {"mcp-through-the-proxy"}
    service_log = log_lines("".join(server.output))  # every line JSON: the SDK's too
    mcp_by_service = [line for line in service_log if line.get("path") == PATH]
    assert len(mcp_by_service) == len(mcp_by_proxy)
    assert {(line["route"], line["status"]) for line in mcp_by_service} == {(PATH, 200), (PATH, 202)}
    assert {line["request_id"] for line in mcp_by_service} == {"mcp-through-the-proxy"}
    sdk = [(line["logger"], line["level"]) for line in service_log if line["logger"].startswith("mcp")]
    assert sdk == [("mcp.server.runner", "warning")]  # and nothing at info, refused tool calls included


def test_the_configuration_example_names_the_endpoint_and_the_command() -> None:
    blocks = re.findall(r"^```json\n(.*?)^```", DOCS.read_text(), re.S | re.M)
    assert blocks, "docs/mcp.md has no JSON configuration example"
    servers = [server for block in blocks for server in json.loads(block)["mcpServers"].values()]
    urls = [server["url"] for server in servers if "url" in server]
    assert urls == [f"http://localhost:8000{PATH}"]
    commands = [[server["command"], *server["args"]] for server in servers if "command" in server]
    assert commands == [["tictactoe-service", "mcp"]]


def test_the_python_example_prints_what_it_says(live_server: Server, tmp_path: Path) -> None:
    blocks = re.findall(r"^```python\n(.*?)^```", DOCS.read_text(), re.S | re.M)
    assert len(blocks) == 1
    program = blocks[0]
    said = re.findall(r"^\s*print\(.*\)\s+# (.+)$", program, re.M)
    assert len(said) == 6
    assert f"http://127.0.0.1:8000{PATH}" in program
    script = tmp_path / "example.py"
    script.write_text(program.replace("http://127.0.0.1:8000", live_server.url))
    ran = run([sys.executable, script], timeout=60)
    assert ran.stdout.splitlines() == said
