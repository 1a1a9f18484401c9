"""The Python client (clients/python, ``tictactoe_client``) against a real uvicorn server on 127.0.0.1.

The sync and the async client are run through the same operations; the hand-written input types
are checked against the OpenAPI document, and the errors a program sees against real failures:
an error answer, a proxy's page, a port where nothing listens, a server that never answers.
"""

from __future__ import annotations

import json
import pydoc
import re
import socket
import sys
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, get_args, get_type_hints

import httpx
import pydantic
import pytest
from tictactoe_client import (
    AnalysisResponse,
    AsyncClient,
    BestMoveItem,
    BestMoveResponse,
    Client,
    Fetched,
    Level,
    Mark,
    NotModified,
    ServiceError,
)

from tests.support import ROOT
from tests.support.commands import run
from tests.support.server import Server, free_port

DOCUMENT = json.loads((ROOT / "openapi" / "openapi.json").read_text(encoding="utf-8"))
SCHEMAS = DOCUMENT["components"]["schemas"]
ROWS = [["X", "", "O"], ["", "", ""], ["X", "", ""]]


def test_three_lines(live_server: Server) -> None:
    with Client(live_server.url) as client:
        move = client.best_move("X........")
    assert isinstance(move, BestMoveResponse)
    assert (move.position, move.score, move.outcome, move.plies_to_end) == (4, 0, "draw", 8)


def test_sync_client_every_operation(live_server: Server) -> None:
    with Client(live_server.url, timeout=2) as client:
        health = client.health()
        assert (health.status, health.positions) == ("ok", 8533)
        assert client.best_move(ROWS, "O").position == 3
        assert client.best_move(tuple(cell or None for row in ROWS for cell in row), "O").position == 3
        weak = client.best_move("XX.OO....", skill=0, seed=11)
        assert weak == client.best_move("XX.OO....", skill=0, seed=11)
        assert client.best_move(".........", random=True, seed=3).position == 8
        analysis = client.analyze("XX.OO....")
        assert isinstance(analysis, AnalysisResponse)
        assert (analysis.best_moves, analysis.status, analysis.player) == ([2], "in_progress", "X")
        finished = client.analyze("XXXOO.O..")
        assert (finished.winner, finished.player, finished.moves, finished.score) == ("X", None, [], None)
        items: list[BestMoveItem] = [
            {"board": "X........"},
            {"board": ".........", "player": "O", "random": True, "seed": 1},
            {"board": ROWS, "player": "O", "level": "hard"},
        ]
        results = client.batch(items)
        assert [r.board for r in results] == ["X........", ".........", "X.O...X.."]
        assert (results[1].player, results[2].position) == ("O", 3)


def test_cacheable_answers_and_their_tags(live_server: Server) -> None:
    """``GET`` answers carry their entity tag; sent back, it gets ``NotModified`` (a 304)."""
    with Client(live_server.url) as client:
        first = client.position("X.O...X..", "O")
        assert isinstance(first, Fetched) and first.etag
        assert first.value == client.analyze("X.O...X..", "O")
        again = client.position("X.O...X..", "O", if_none_match=first.etag)
        assert isinstance(again, NotModified)
        other = client.position("X.O...X..", "O", if_none_match='"another"')
        assert isinstance(other, Fetched) and other.value == first.value
        assert client.position("X O   X  ", "O").value == first.value  # spaces: URL-encoded
        move = client.get_best_move("X........")
        assert move.value == client.best_move("X........") and move.etag
        assert isinstance(client.get_best_move("X........", if_none_match=move.etag), NotModified)
        assert client.get_best_move("XX.OO....", "X").value.position == 2
        assert isinstance(client.get_best_move("XX.OO....", "X", if_none_match=None), Fetched)


def test_sync_client_errors_carry_the_problem(live_server: Server) -> None:
    with Client(live_server.url) as client, pytest.raises(ServiceError) as caught:
        client.best_move("XXXOO....")
    error = caught.value
    assert error.status == 422 == error.response.status_code
    assert error.problem.type == "/problems/game-over"
    assert error.problem.game_status == "x_won"
    assert error.problem.errors is not None
    assert error.problem.errors[0].loc == ["body", "board"]
    assert "game is over" in str(error)
    assert error.response.headers["x-request-id"]
    with Client(live_server.url) as client:
        assert refusal(lambda: client.position("XXXOO.O..", "X")) == ["query", "player"]
        assert refusal(lambda: client.position("X.Z......")) == ["path", "board"]
        assert refusal(lambda: client.get_best_move("XXXOO....")) == ["query", "board"]


def refusal(call: Callable[[], object]) -> list[str | int]:
    """Where the 422 that ``call`` raises puts the fault."""
    with pytest.raises(ServiceError) as caught:
        call()
    assert caught.value.status == 422
    assert caught.value.problem.errors is not None
    return caught.value.problem.errors[0].loc


@pytest.mark.anyio
async def test_async_client_every_operation(live_server: Server) -> None:
    async with AsyncClient(live_server.url) as client:
        assert (await client.health()).status == "ok"
        assert (await client.best_move(".........", "O")).board_after == "O........"
        assert (await client.analyze("XXXOO.O..")).winner == "X"
        assert len(await client.batch([{"board": "X........"}] * 3)) == 3
        position = await client.position("X.O...X..", "O")
        assert isinstance(position, Fetched) and position.value.best_moves == [3]
        assert isinstance(await client.position("X.O...X..", "O", if_none_match=position.etag), NotModified)
        move = await client.get_best_move("X........")
        assert move.value.position == 4
        assert isinstance(await client.get_best_move("X........", if_none_match=move.etag), NotModified)
        with pytest.raises(ServiceError) as caught:
            await client.best_move("X.O", skill=0.5)
        assert caught.value.problem.errors is not None
        assert caught.value.problem.errors[0].type == "board_length"


@pytest.mark.anyio
async def test_levels_and_depth_through_both_clients(live_server: Server) -> None:
    with Client(live_server.url) as client:
        medium = client.best_move("XX..O....", level="medium", seed=5)
        assert (medium.position, medium.tactics[0]) == (2, "block")
        assert medium.reason.startswith("Blocks X's top row")
        with pytest.raises(ServiceError) as caught:
            client.best_move("XX..O....", level="hard", depth=3)
        assert caught.value.problem.errors is not None
        assert caught.value.problem.errors[0].loc == ["body", "depth"]
    async with AsyncClient(live_server.url) as client:
        assert await client.best_move("XX..O....", level="medium", seed=5) == medium
        shallow = await client.best_move("XX..O....", depth=2, seed=2)
        assert shallow.position == 2  # two plies ahead, the engine blocks
        items: list[BestMoveItem] = [
            {"board": "XX.OO....", "level": "beginner", "seed": seed} for seed in range(3)
        ]
        assert len(await client.batch(items)) == 3


@pytest.mark.anyio
async def test_async_client_batch_error_index(live_server: Server) -> None:
    async with AsyncClient(live_server.url) as client:
        with pytest.raises(ServiceError) as caught:
            await client.batch([{"board": "X........"}, {"board": "X........", "skill": 3}])
    assert caught.value.problem.errors is not None
    assert caught.value.problem.errors[0].loc == ["body", "items", 1, "skill"]


def test_the_url_comes_from_the_environment(live_server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TICTACTOE_URL", raising=False)
    assert Client().base_url == "http://127.0.0.1:8000"
    monkeypatch.setenv("TICTACTOE_URL", live_server.url)
    with Client() as client:
        assert client.base_url == live_server.url
        assert client.health().positions == 8533
    nowhere = f"http://127.0.0.1:{free_port()}"
    with Client(nowhere) as client:  # the argument wins
        assert client.base_url == nowhere
        with pytest.raises(httpx.ConnectError):
            client.health()
    assert AsyncClient().base_url == live_server.url


def test_connection_errors_are_retried_then_raised() -> None:
    port = free_port()  # nothing listens here
    attempts = 0

    class Counting(httpx.HTTPTransport):
        def handle_request(self, request: httpx.Request) -> httpx.Response:
            nonlocal attempts
            attempts += 1
            return super().handle_request(request)

    with (
        Client(f"http://127.0.0.1:{port}", timeout=1, retries=3) as client,
        pytest.raises(httpx.ConnectError),
    ):
        client.health()
    with (
        Client(f"http://127.0.0.1:{port}", transport=Counting(retries=0)) as client,
        pytest.raises(httpx.ConnectError),
    ):
        client.health()
    assert attempts == 1


def test_timeout_is_configurable() -> None:
    with socket.socket() as silent:  # accepts connections (backlog) but never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen(1)
        url = f"http://127.0.0.1:{silent.getsockname()[1]}"
        with Client(url, timeout=0.3) as client, pytest.raises(httpx.ReadTimeout):
            client.health()


class Proxy(BaseHTTPRequestHandler):
    """Something else on the service's address: a gateway's error page, or a page that says 200."""

    def do_GET(self) -> None:
        status, body = (
            (502, b"<html>bad gateway</html>") if self.path == "/health" else (200, b"<html>hi</html>")
        )
        self.send_response(status)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def proxy() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Proxy)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def test_answers_that_are_not_the_apis(proxy: str) -> None:
    with Client(proxy) as client:
        with pytest.raises(ServiceError) as caught:
            client.health()
        assert caught.value.status == 502
        assert caught.value.problem.title == "Bad Gateway"
        assert caught.value.problem.type == "about:blank"
        assert "bad gateway" in caught.value.problem.detail
        with pytest.raises(pydantic.ValidationError):
            client.position("X........")


def test_help_names_the_errors() -> None:
    for client in (Client, AsyncClient):
        text = re.sub(".\b", "", pydoc.render_doc(client))  # without the bold of a terminal
        for name in (
            "ServiceError",
            "problem",
            "httpx.TimeoutException",
            "httpx.ConnectError",
            "TICTACTOE_URL",
        ):
            assert name in text, f"help({client.__name__}) does not mention {name}"
        for method in ("best_move", "get_best_move", "batch", "position", "analyze", "health"):
            assert f"{method}(" in text


def test_the_input_types_are_the_documents() -> None:
    """The hand-written input types name the request schema's fields, optionality and enums."""
    request = SCHEMAS["BestMoveRequest"]
    hints = get_type_hints(BestMoveItem)
    assert set(hints) == set(request["properties"])
    assert BestMoveItem.__required_keys__ == set(request["required"])

    def enum(schema: dict[str, Any]) -> list[Any]:
        if "$ref" in schema:
            return enum(SCHEMAS[schema["$ref"].rsplit("/", 1)[1]])
        if schema.get("type") == "null":
            return [None]
        return schema["enum"] if "enum" in schema else [v for part in schema["anyOf"] for v in enum(part)]

    assert list(get_args(Mark)) == [v for v in enum(request["properties"]["player"]) if v is not None]
    assert [*get_args(get_args(Level.__value__)[0])] == SCHEMAS["Level"]["enum"]
    for name, schema in request["properties"].items():
        nullable = any(part.get("type") == "null" for part in schema.get("anyOf", []))
        assert (type(None) in get_args(hints[name])) == nullable, name


def test_the_client_imports_nothing_of_the_service(tmp_path: Path) -> None:
    """A program's own ``service.py`` beside it does not disturb the client."""
    (tmp_path / "service.py").write_text("raise ImportError('the program\\'s own service module')\n")
    code = (
        "import sys, tictactoe_client\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in {'service', 'fastapi', 'starlette'}))\n"
    )
    result = run([sys.executable, "-c", code], cwd=tmp_path, timeout=60)
    assert result.stdout.strip() == "[]"
