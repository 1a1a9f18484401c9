"""``POST /v1/review`` through the API, every field against the independent coach oracle.

Complete games of every pairing of the random player and the five levels, played here by the
oracle's own players (the likelihood formula sampled move by move), reviewed by the service;
the board forms, the default start, illegal moves located at their index, and bad input.
"""

from __future__ import annotations

import random
from fractions import Fraction
from functools import cache
from itertools import product
from typing import Any

import httpx
import pytest

from service.schemas import ReviewResponse
from tests.support import coach_oracle as co
from tests.support import oracle

pytestmark = pytest.mark.anyio

OUTCOME = {1: "win", 0: "draw", -1: "loss"}
GAMES_PER_PAIRING = 12
PAIRINGS = list(product(co.NAMES, co.NAMES))


def oracle_move(cells: co.Cells, side: int, name: str, rng: random.Random) -> int:
    """A move of the player ``name`` drawn by the oracle's likelihoods (input generation only)."""
    _, depth, skill = next(strength for strength in co.STRENGTHS if strength[0] == name)
    moves = co.legal(cells)
    weights = [co.likelihood(cells, side, cell, depth, skill) for cell in moves]
    return rng.choices(moves, weights=[float(weight) for weight in weights])[0]


@cache
def games(x: str, o: str) -> tuple[tuple[str, int, tuple[int, ...]], ...]:
    """``(board, side, moves)`` of complete games of ``x`` (as X) against ``o``, from the empty board or
    a few moves in, each side starting in turn."""
    rng = random.Random(f"api-review-{x}-{o}")
    made = []
    for index in range(GAMES_PER_PAIRING):
        cells: co.Cells = (0,) * 9
        side = 1 if index % 2 == 0 else -1
        start = (oracle.decode(cells), side)
        moves: list[int] = []
        while not oracle.finished(cells):
            cell = oracle_move(cells, side, x if side == 1 else o, rng)
            moves.append(cell)
            cells = co.play(cells, side, cell)
            side = -side
        made.append((start[0], start[1], tuple(moves)))
    return tuple(made)


def expected_review(board: str, side: int, moves: tuple[int, ...]) -> dict[str, Any]:
    """The whole answer, as the contract describes it, from the oracle."""
    cells = oracle.encode(board)
    plies: list[dict[str, Any]] = []
    steps: dict[int, list[tuple[co.Cells, int, int]]] = {1: [], -1: []}
    for number, cell in enumerate(moves, start=1):
        score_before, plies_before = oracle.value(cells, side)
        score, plies_after = co.move_value(cells, side, cell)
        judgement = co.judgement(cells, side, cell)
        after = co.play(cells, side, cell)
        better = None
        if judgement != "best":
            engine = oracle.choose(cells, side)
            engine_score, engine_plies = co.move_value(cells, side, engine)
            better = {
                "position": engine,
                "row": engine // 3,
                "column": engine % 3,
                "score": engine_score,
                "outcome": OUTCOME[engine_score],
                "plies_to_end": engine_plies,
                "tactics": list(co.tactics(cells, side, engine)),
            }
        plies.append(
            {
                "ply": number,
                "player": co.MARK[side],
                "position": cell,
                "row": cell // 3,
                "column": cell % 3,
                "board_before": oracle.decode(cells),
                "board_after": oracle.decode(after),
                "score_before": score_before,
                "outcome_before": OUTCOME[score_before],
                "plies_to_end_before": plies_before,
                "score": score,
                "outcome": OUTCOME[score],
                "plies_to_end": plies_after,
                "best_moves": list(co.optimal(cells, side)),
                "judgement": judgement,
                "only_move": co.only_move(cells, side, cell),
                "tactics": list(co.tactics(cells, side, cell)),
                "better": better,
            }
        )
        steps[side].append((cells, side, cell))
        cells, side = after, -side
    status = co.status(cells)
    return {
        "board": board,
        "status": status,
        "winner": {"x_won": "X", "o_won": "O"}.get(status),
        "plies": plies,
        "players": {co.MARK[s]: expected_side(steps[s]) for s in (1, -1)},
    }


def expected_side(steps: list[tuple[co.Cells, int, int]]) -> dict[str, Any]:
    judged = [co.judgement(*step) for step in steps]
    if not steps:
        return {
            "moves": 0,
            "judgements": dict.fromkeys(co.JUDGEMENTS, 0),
            "accuracy": None,
            "only_moves": 0,
            "level_likelihoods": None,
            "level": None,
            "rating": None,
        }
    chances = co.posterior(tuple(steps))
    level = co.most_likely(chances)
    return {
        "moves": len(steps),
        "judgements": {name: judged.count(name) for name in co.JUDGEMENTS},
        "accuracy": co.accuracy(judged.count("best"), len(steps)),
        "only_moves": sum(co.only_move(*step) for step in steps),
        "level_likelihoods": {name: float(round(chance, 4)) for name, chance in chances.items()},
        "level": level,
        "rating": co.RATINGS[level],
    }


def compare(got: dict[str, Any], wanted: dict[str, Any], where: object) -> None:
    """Every field of the answer; each ``reason`` is a non-empty sentence (its words are the tactics
    tests' business), and ``better`` has one too."""
    assert got["player"] in ("X", "O")
    for ply in got["plies"]:
        assert ply.pop("reason").endswith("."), where
        if ply["better"] is not None:
            assert ply["better"].pop("reason").endswith("."), where
    got = {key: value for key, value in got.items() if key != "player"}
    assert got == wanted, where


@pytest.mark.parametrize(("x", "o"), PAIRINGS, ids=[f"{x}-{o}" for x, o in PAIRINGS])
async def test_reviews_of_complete_games_of_every_pairing(client: httpx.AsyncClient, x: str, o: str) -> None:
    for board, side, moves in games(x, o):
        body: dict[str, Any] = {"moves": list(moves)}
        if side == -1:
            body["player"] = "O"
        answer = await client.post("/v1/review", json=body)
        assert answer.status_code == 200, answer.text
        # The bytes are the response model's own: its fields, in its order, its numbers and text.
        assert (
            answer.content
            == ReviewResponse.model_validate_json(answer.content).model_dump_json(exclude_unset=True).encode()
        )
        got = answer.json()
        assert got["player"] == co.MARK[side]
        compare(got, expected_review(board, side, moves), (x, o, side, moves))


async def test_the_sample_covers_every_judgement_and_strength() -> None:
    judgements: set[str] = set()
    levels: set[str] = set()
    for x, o in PAIRINGS:
        for board, side, moves in games(x, o):
            wanted = expected_review(board, side, moves)
            judgements |= {ply["judgement"] for ply in wanted["plies"]}
            levels |= {player["level"] for player in wanted["players"].values()}
    assert judgements == set(co.JUDGEMENTS)
    assert levels == set(co.NAMES)


async def test_a_review_from_a_board_in_every_form(client: httpx.AsyncClient) -> None:
    board = "X...O...X"
    wanted = expected_review(board, -1, (1, 7, 3))
    rows = [["X", None, ""], [" ", "o", "."], ["-", "_", "x"]]
    for form in (board, list(board), rows, board.lower()):
        answer = await client.post("/v1/review", json={"board": form, "moves": [1, 7, 3]})
        assert answer.status_code == 200, answer.text
        got = answer.json()
        assert got["board"] == board and got["player"] == "O"
        compare(got, wanted, form)


async def test_the_empty_board_and_x_are_the_default_start(client: httpx.AsyncClient) -> None:
    plain = (await client.post("/v1/review", json={"moves": [4]})).json()
    explicit = (
        await client.post("/v1/review", json={"board": ".........", "player": "X", "moves": [4]})
    ).json()
    assert plain == explicit
    assert plain["board"] == "........." and plain["player"] == "X" and plain["status"] == "in_progress"
    assert plain["players"]["O"]["level"] is None
    assert plain["players"]["X"]["level_likelihoods"] == dict.fromkeys(
        co.NAMES, float(round(Fraction(1, 6), 4))
    )


async def test_reviews_are_deterministic(client: httpx.AsyncClient) -> None:
    first = await client.post("/v1/review", json={"moves": [0, 4, 8, 2, 6]})
    second = await client.post("/v1/review", json={"moves": [0, 4, 8, 2, 6]})
    assert first.content == second.content
    assert "no-store" not in first.headers.get("cache-control", "")


@pytest.mark.parametrize(
    ("body", "index", "words"),
    [
        ({"moves": [4, 4]}, 1, ["cell 4", "taken"]),
        ({"moves": [0, 3, 1, 4, 2, 5]}, 5, ["over", "x_won"]),
        ({"board": "XX.OO....", "moves": [2, 5]}, 1, ["over", "x_won"]),
        ({"board": "X........", "moves": [4, 0]}, 1, ["cell 0", "taken"]),
    ],
)
async def test_an_illegal_move_is_a_422_at_its_index(
    client: httpx.AsyncClient, body: dict[str, Any], index: int, words: list[str]
) -> None:
    answer = await client.post("/v1/review", json=body)
    assert answer.status_code == 422
    assert answer.headers["content-type"] == "application/problem+json"
    problem = answer.json()
    assert problem["errors"] == [
        {"loc": ["body", "moves", index], "msg": problem["errors"][0]["msg"], "type": "illegal_move"}
    ]
    assert all(word in problem["errors"][0]["msg"] for word in words), problem
    assert f"moves.{index}" in problem["detail"]


@pytest.mark.parametrize(
    ("body", "loc"),
    [
        ({"moves": []}, ["body", "moves"]),
        ({"moves": [0, 1, 2, 3, 4, 5, 6, 7, 8, 0]}, ["body", "moves"]),
        ({"moves": [9]}, ["body", "moves", 0]),
        ({"moves": [4, -1]}, ["body", "moves", 1, "cell"]),
        ({"moves": ["4"]}, ["body", "moves", 0, "cell"]),
        ({"moves": [4.0]}, ["body", "moves", 0, "cell"]),
        ({"moves": [True]}, ["body", "moves", 0, "cell"]),
        ({"moves": [{"position": 4, "mark": "X"}]}, ["body", "moves", 0]),
        ({"moves": 4}, ["body", "moves"]),
        ({}, ["body", "moves"]),
        ({"moves": [4], "board": "XXXOO...."}, ["body", "board"]),
        ({"moves": [4], "board": "X........", "player": "X"}, ["body", "player"]),
        ({"moves": [4], "level": "easy"}, ["body", "level"]),
    ],
)
async def test_bad_input_is_a_422_naming_the_field(
    client: httpx.AsyncClient, body: dict[str, Any], loc: list[object]
) -> None:
    answer = await client.post("/v1/review", json=body)
    assert answer.status_code == 422, answer.text
    assert answer.headers["content-type"] == "application/problem+json"
    assert loc in [error["loc"] for error in answer.json()["errors"]]


async def test_a_finished_starting_board_is_the_game_over_problem(client: httpx.AsyncClient) -> None:
    answer = await client.post("/v1/review", json={"board": "XXXOO....", "moves": [5]})
    assert answer.status_code == 422
    problem = answer.json()
    assert problem["type"].endswith("/game-over")
    assert problem["game_status"] == "x_won"
