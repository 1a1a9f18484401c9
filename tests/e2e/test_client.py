"""The Python client against a real uvicorn server on 127.0.0.1."""

from __future__ import annotations

import socket
import time

import httpx
import pytest

from service.client import AsyncClient, Client, ServiceError, best_move_body
from service.game import Level
from service.schemas import AnalysisResponse, BestMoveResponse
from tests.support.server import Server, free_port


def test_three_lines(live_server: Server) -> None:
    with Client(live_server.url) as client:
        move = client.best_move("X........")
    assert isinstance(move, BestMoveResponse)
    assert (move.position, move.score, move.outcome, move.plies_to_end) == (4, 0, "draw", 8)


def test_sync_client(live_server: Server) -> None:
    with Client(live_server.url, timeout=2) as client:
        assert client.health().positions == 8533
        assert client.best_move([["X", "", "O"], ["", "", ""], ["X", "", ""]], "O").position == 3
        weak = client.best_move("XX.OO....", skill=0, seed=11)
        assert weak == client.best_move("XX.OO....", skill=0, seed=11)
        analysis = client.analyze("XX.OO....")
        assert isinstance(analysis, AnalysisResponse)
        assert analysis.best_moves == [2]
        results = client.batch(
            [best_move_body("X........"), best_move_body(".........", "O", random=True, seed=1)]
        )
        assert [r.board for r in results] == ["X........", "........."]
        assert results[1].player == "O"


def test_sync_client_errors_carry_the_problem(live_server: Server) -> None:
    with Client(live_server.url) as client, pytest.raises(ServiceError) as caught:
        client.best_move("XXXOO....")
    error = caught.value
    assert error.status == 422
    assert error.problem.type == "/problems/game-over"
    assert error.problem.game_status == "x_won"
    assert error.problem.errors is not None
    assert error.problem.errors[0].loc == ["body", "board"]
    assert "game is over" in str(error)


@pytest.mark.anyio
async def test_async_client(live_server: Server) -> None:
    async with AsyncClient(live_server.url) as client:
        assert (await client.health()).status == "ok"
        assert (await client.best_move(".........", "O")).board_after == "O........"
        assert (await client.analyze("XXXOO.O..")).winner == "X"
        assert len(await client.batch([best_move_body("X........")] * 3)) == 3
        with pytest.raises(ServiceError) as caught:
            await client.best_move("X.O", skill=0.5)
        assert caught.value.problem.errors is not None
        assert caught.value.problem.errors[0].type == "board_length"


@pytest.mark.anyio
async def test_levels_and_depth_through_both_clients(live_server: Server) -> None:
    with Client(live_server.url) as client:
        medium = client.best_move("XX..O....", level=Level.MEDIUM, seed=5)
        assert (medium.position, medium.tactics[0]) == (2, "block")
        assert medium.reason.startswith("Blocks X's top row")
        assert client.best_move("XX..O....", level="medium", seed=5) == medium
        with pytest.raises(ServiceError) as caught:
            client.best_move("XX..O....", level="hard", depth=3)
        assert caught.value.problem.errors is not None
        assert caught.value.problem.errors[0].loc == ["body", "depth"]
    async with AsyncClient(live_server.url) as client:
        shallow = await client.best_move("XX..O....", depth=1, seed=2)
        assert not shallow.optimal or shallow.position == 2  # one ply ahead, blocking is luck
        items = [best_move_body("XX.OO....", level="beginner", seed=seed) for seed in range(3)]
        assert len(await client.batch(items)) == 3


@pytest.mark.anyio
async def test_async_client_batch_error_index(live_server: Server) -> None:
    async with AsyncClient(live_server.url) as client:
        with pytest.raises(ServiceError) as caught:
            await client.batch([best_move_body("X........"), best_move_body("X........", skill=3)])
    assert caught.value.problem.errors is not None
    assert caught.value.problem.errors[0].loc == ["body", "items", 1, "skill"]


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
        started = time.monotonic()
        with Client(url, timeout=0.3) as client, pytest.raises(httpx.ReadTimeout):
            client.health()
        assert time.monotonic() - started < 5


def test_non_problem_error_bodies_still_raise_service_error() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(502, text="<html>bad gateway</html>")

    transport = httpx.MockTransport(handler)
    with Client("http://proxy.invalid", transport=transport) as client, pytest.raises(ServiceError) as caught:
        client.health()
    assert caught.value.status == 502
    assert caught.value.problem.title == "Bad Gateway"
