"""Every unfinished legal position, through the API, against the independent oracle.

Each test runs twice: with the app as it is, where plain requests are answered from the
table by the fast lane (:mod:`service.web.fast_lane`), and with the fast lane taken out,
every request validated by its route, so both paths are checked on every position.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from service.game import Mark
from service.game.tactics import explain_move
from service.game.variants import VARIANTS, Move
from tests.support import oracle

pytestmark = pytest.mark.anyio


@pytest.fixture(params=["fast lane", "routes only"])
async def client(
    request: pytest.FixtureRequest, app: FastAPI, routes_only_app: FastAPI
) -> AsyncIterator[httpx.AsyncClient]:
    served = app if request.param == "fast lane" else routes_only_app
    transport = httpx.ASGITransport(app=served)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        yield client


MARK: dict[int, Mark] = {1: "X", -1: "O"}
STANDARD = VARIANTS["standard"]


def positions() -> list[tuple[str, int]]:
    """Each unfinished legal board with each side the rules allow to move."""
    return sorted(
        (oracle.decode(cells), side) for cells, sides in oracle.reachable().items() for side in sides
    )


def form(cells: str, index: int) -> Any:
    """The board in one of the three request forms, in turn."""
    if index % 3 == 0:
        return cells
    items = [None if ch == "." else ch for ch in cells]
    return items if index % 3 == 1 else [items[0:3], items[3:6], items[6:9]]


async def test_best_move_is_optimal_everywhere(client: httpx.AsyncClient) -> None:
    cases = positions()
    assert len({cells for cells, _ in cases}) == 6617
    for index, (cells, side) in enumerate(cases):
        encoded = oracle.encode(cells)
        request: dict[str, Any] = {"board": form(cells, index)}
        if encoded.count(1) == encoded.count(-1) or index % 2:
            request["player"] = MARK[side]
        response = await client.post("/v1/best-move", json=request)
        assert response.status_code == 200, (cells, side, response.text)
        answer = response.json()
        cell = answer["position"]
        assert encoded[cell] == 0, (cells, side, answer)
        assert cell in oracle.optimal_moves(encoded, side), (cells, side, answer)
        assert cell == oracle.choose(encoded, side), (cells, side, answer)
        score, plies = oracle.value(encoded, side)
        after = encoded[:cell] + (side,) + encoded[cell + 1 :]
        assert isinstance(answer.pop("reason"), str)
        assert answer.pop("tactics") == oracle.tactics(encoded, side, cell), (cells, side, cell)
        assert answer == {
            "board": cells,
            "player": MARK[side],
            "position": cell,
            "row": cell // 3,
            "column": cell % 3,
            "score": score,
            "outcome": {1: "win", 0: "draw", -1: "loss"}[score],
            "plies_to_end": plies,
            "optimal": True,
            "board_after": oracle.decode(after),
            "status_after": "x_won"
            if oracle.has_line(after, 1)
            else "o_won"
            if oracle.has_line(after, -1)
            else "draw"
            if 0 not in after
            else "in_progress",
        }


async def test_analysis_matches_the_oracle_everywhere(client: httpx.AsyncClient) -> None:
    for cells, side in positions():
        encoded = oracle.encode(cells)
        state = STANDARD.resolve(cells, MARK[side]).state
        response = await client.get(f"/v1/positions/{cells}", params={"player": MARK[side]})
        assert response.status_code == 200, response.text
        answer = response.json()
        assert (answer["score"], answer["plies_to_end"]) == oracle.value(encoded, side)
        for move in answer["moves"]:
            assert move["tactics"] == oracle.tactics(encoded, side, move["position"]), (cells, move)
            # The sentence itself is checked against the oracle in tests/game/test_tactics.py.
            played = Move(move["position"], state.mover)
            said = explain_move(STANDARD, state, played, move["score"], move["plies_to_end"])[1]
            assert move["reason"] == said, (cells, move)
        assert {m["position"]: (m["score"], m["plies_to_end"]) for m in answer["moves"]} == {
            cell: (score, plies) for cell, score, plies in oracle.move_values(encoded, side)
        }
        assert answer["best_moves"] == oracle.optimal_moves(encoded, side)
        assert answer["principal_variation"] == oracle.principal_variation(encoded, side)
        assert answer["moves"][0]["position"] == oracle.choose(encoded, side)


async def play(client: httpx.AsyncClient, cells: str, side: str) -> dict[str, Any]:
    response = await client.get("/v1/best-move", params={"board": cells, "player": side})
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


@pytest.mark.parametrize("starter", ["X", "O"])
async def test_perfect_play_against_itself_draws(client: httpx.AsyncClient, starter: str) -> None:
    cells, side, status = "." * 9, starter, "in_progress"
    moves = 0
    while status == "in_progress":
        answer = await play(client, cells, side)
        cells, status = answer["board_after"], answer["status_after"]
        side = "O" if side == "X" else "X"
        moves += 1
    assert (status, moves) == ("draw", 9)


@pytest.mark.parametrize("engine", ["X", "O"])
@pytest.mark.parametrize("starter", ["X", "O"])
async def test_engine_never_loses_against_any_opponent_line(
    client: httpx.AsyncClient, engine: str, starter: str
) -> None:
    results = {"engine": 0, "draw": 0, "opponent": 0}

    async def explore(cells: str, side: str) -> None:
        encoded = oracle.encode(cells)
        if oracle.finished(encoded):
            if oracle.has_line(encoded, 1 if engine == "X" else -1):
                results["engine"] += 1
            elif oracle.has_line(encoded, -1 if engine == "X" else 1):
                results["opponent"] += 1
            else:
                results["draw"] += 1
            return
        other = "O" if side == "X" else "X"
        if side == engine:
            answer = await play(client, cells, side)
            await explore(answer["board_after"], other)
        else:
            for cell in range(9):
                if cells[cell] == ".":
                    await explore(cells[:cell] + side + cells[cell + 1 :], other)

    await explore("." * 9, starter)
    assert results["opponent"] == 0
    assert results["engine"] > 0 and results["draw"] > 0
