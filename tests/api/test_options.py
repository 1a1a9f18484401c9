"""Options of POST /v1/best-move (skill, random, seed, depth, level) and the batch endpoint."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

import httpx
import pytest

from service.game.levels import STANDARD_LADDER, Level
from tests.support import coach_oracle as co
from tests.support import oracle

pytestmark = pytest.mark.anyio

# Chi-square critical value for 8 degrees of freedom at p = 0.001.
CHI2_8_DF_P001 = 26.12


async def best(client: httpx.AsyncClient, **body: Any) -> dict[str, Any]:
    response = await client.post("/v1/best-move", json=body)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


async def test_same_seed_same_answer(client: httpx.AsyncClient) -> None:
    for seed in range(40):
        request = {"board": ".........", "skill": 0.5, "random": True, "seed": seed}
        first = await best(client, **request)
        second = await best(client, **request)
        assert first == second


async def test_seeds_vary_the_answer(client: httpx.AsyncClient) -> None:
    moves = {(await best(client, board=".........", skill=0, seed=seed))["position"] for seed in range(60)}
    assert len(moves) > 3


async def test_skill_zero_is_uniform_over_all_legal_moves(client: httpx.AsyncClient) -> None:
    draws = 1800
    counts: Counter[int] = Counter()
    for seed in range(draws):
        counts[(await best(client, board=".........", skill=0, seed=seed))["position"]] += 1
    assert set(counts) == set(range(9))
    expected = draws / 9
    chi2 = sum((counts[cell] - expected) ** 2 / expected for cell in range(9))
    assert chi2 < CHI2_8_DF_P001, counts


async def test_skill_zero_without_seed_still_plays_legal_moves(client: httpx.AsyncClient) -> None:
    seen = set()
    for _ in range(100):
        answer = await best(client, board="X.O...X..", player="O", skill=0)
        assert "X.O...X.."[answer["position"]] == "."
        seen.add(answer["position"])
    assert len(seen) > 1


async def test_weaker_move_reports_its_own_values(client: httpx.AsyncClient) -> None:
    cells = oracle.encode("XX.OO....")
    values = {cell: (score, plies) for cell, score, plies in oracle.move_values(cells, 1)}
    found_weak = False
    for seed in range(50):
        answer = await best(client, board="XX.OO....", skill=0, seed=seed)
        cell = answer["position"]
        assert (answer["score"], answer["plies_to_end"]) == values[cell]
        assert answer["outcome"] == {1: "win", 0: "draw", -1: "loss"}[answer["score"]]
        assert answer["optimal"] is (cell == 2)
        assert answer["board_after"][cell] == "X"
        found_weak = found_weak or not answer["optimal"]
    assert found_weak


async def test_skill_one_is_always_the_perfect_choice(client: httpx.AsyncClient) -> None:
    positions = sorted(
        (oracle.decode(cells), side) for cells, sides in oracle.reachable().items() for side in sides
    )
    for index, (cells, side) in enumerate(positions[::7]):
        answer = await best(client, board=cells, player="X" if side == 1 else "O", skill=1, seed=index)
        assert answer["optimal"] is True
        assert answer["position"] == oracle.choose(oracle.encode(cells), side)


async def test_random_only_returns_optimal_moves_and_reaches_each(client: httpx.AsyncClient) -> None:
    for cells, side in [(".........", 1), ("X........", -1), ("X...O....", 1), ("XO.......", 1)]:
        encoded = oracle.encode(cells)
        optimal = set(oracle.optimal_moves(encoded, side))
        seen: Counter[int] = Counter()
        for seed in range(300):
            answer = await best(client, board=cells, player="X" if side == 1 else "O", random=True, seed=seed)
            assert answer["position"] in optimal
            assert answer["optimal"] is True
            seen[answer["position"]] += 1
        assert set(seen) == optimal, (cells, seen)


async def test_randomness_is_never_cached(client: httpx.AsyncClient) -> None:
    plain = await client.post("/v1/best-move", json={"board": "........."})
    assert "no-store" not in plain.headers.get("cache-control", "")
    options: list[dict[str, object]] = [{"random": True}, {"skill": 0.5}, {"skill": 0, "seed": 3}]
    for body in options:
        response = await client.post("/v1/best-move", json={"board": ".........", **body})
        assert response.headers["cache-control"] == "no-store"


@pytest.mark.parametrize(
    ("raw", "loc", "kind"),
    [
        ('{"board": ".........", "skill": 1.5}', ["body", "skill"], "less_than_equal"),
        ('{"board": ".........", "skill": -0.1}', ["body", "skill"], "greater_than_equal"),
        ('{"board": ".........", "skill": "0.5"}', ["body", "skill"], "float_type"),
        ('{"board": ".........", "skill": 1e400}', ["body", "skill"], "finite_number"),
        ('{"board": ".........", "skill": true}', ["body", "skill"], "float_type"),
        ('{"board": ".........", "random": "yes"}', ["body", "random"], "bool_type"),
        ('{"board": ".........", "random": 1}', ["body", "random"], "bool_type"),
        ('{"board": ".........", "seed": 1.5}', ["body", "seed"], "int_type"),
        ('{"board": ".........", "seed": "7"}', ["body", "seed"], "int_type"),
        ('{"board": ".........", "seed": 18446744073709551616}', ["body", "seed"], "less_than"),
        ('{"board": ".........", "depth": 0}', ["body", "depth"], "greater_than_equal"),
        ('{"board": ".........", "depth": 10}', ["body", "depth"], "less_than_equal"),
        ('{"board": ".........", "depth": 2.5}', ["body", "depth"], "int_type"),
        ('{"board": ".........", "depth": "3"}', ["body", "depth"], "int_type"),
        ('{"board": ".........", "depth": true}', ["body", "depth"], "int_type"),
        ('{"board": ".........", "level": "expert"}', ["body", "level"], "enum"),
        ('{"board": ".........", "level": "Easy"}', ["body", "level"], "enum"),
        ('{"board": ".........", "level": 2}', ["body", "level"], "enum"),
        ('{"board": ".........", "level": "easy", "skill": 0.5}', ["body", "skill"], "level_conflict"),
        ('{"board": ".........", "level": "easy", "skill": 1}', ["body", "skill"], "level_conflict"),
        ('{"board": ".........", "level": "hard", "depth": 4}', ["body", "depth"], "level_conflict"),
    ],
)
async def test_invalid_options(client: httpx.AsyncClient, raw: str, loc: list[str], kind: str) -> None:
    response = await client.post("/v1/best-move", content=raw, headers={"content-type": "application/json"})
    assert response.status_code == 422, response.text
    errors = response.json()["errors"]
    assert [(e["loc"], e["type"]) for e in errors] == [(loc, kind)]


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
async def test_non_json_numbers_are_malformed(client: httpx.AsyncClient, constant: str) -> None:
    raw = '{"board": ".........", "skill": ' + constant + "}"
    response = await client.post("/v1/best-move", content=raw, headers={"content-type": "application/json"})
    assert response.status_code == 400
    assert f"{constant} is not a JSON value" in response.json()["detail"]


async def test_get_best_move_refuses_options(client: httpx.AsyncClient) -> None:
    response = await client.get("/v1/best-move", params={"board": ".........", "skill": "0"})
    assert response.status_code == 422
    assert response.json()["errors"][0]["loc"] == ["query", "skill"]


# --- batch -----------------------------------------------------------------------------------------


async def test_batch_answers_in_order(client: httpx.AsyncClient) -> None:
    boards = [oracle.decode(cells) for cells, sides in sorted(oracle.reachable().items()) if sides][:200]
    items = [
        {"board": board, "player": "X"} if board.count("X") == board.count("O") else {"board": board}
        for board in boards
    ]
    response = await client.post("/v1/best-move/batch", json={"items": items})
    assert response.status_code == 200
    results = response.json()["results"]
    assert [r["board"] for r in results] == boards
    for item, result in zip(items, results, strict=True):
        single = await client.post("/v1/best-move", json=item)
        assert single.json() == result


async def test_batch_items_keep_their_own_options(client: httpx.AsyncClient) -> None:
    items = [{"board": ".........", "skill": 0, "seed": seed} for seed in range(30)]
    first = (await client.post("/v1/best-move/batch", json={"items": items})).json()["results"]
    second = (await client.post("/v1/best-move/batch", json={"items": items})).json()["results"]
    assert first == second
    singles = [await best(client, **item) for item in items]
    assert first == singles
    assert len({r["position"] for r in first}) > 3


async def test_batch_error_names_the_item_index(client: httpx.AsyncClient) -> None:
    items = [
        {"board": "X........"},
        {"board": "X........"},
        {"board": "XX......."},
        {"board": "X", "skill": 2},
    ]
    response = await client.post("/v1/best-move/batch", json={"items": items})
    assert response.status_code == 422
    locs = [error["loc"] for error in response.json()["errors"]]
    assert locs == [
        ["body", "items", 2, "board"],
        ["body", "items", 3, "board"],
        ["body", "items", 3, "skill"],
    ]


@pytest.mark.parametrize(("count", "kind"), [(0, "too_short"), (1001, "too_long")])
async def test_batch_size_limits(client: httpx.AsyncClient, count: int, kind: str) -> None:
    response = await client.post("/v1/best-move/batch", json={"items": [{"board": "X........"}] * count})
    assert response.status_code == 422
    assert [(e["loc"], e["type"]) for e in response.json()["errors"]] == [(["body", "items"], kind)]


async def test_batch_of_one_thousand(client: httpx.AsyncClient) -> None:
    response = await client.post("/v1/best-move/batch", json={"items": [{"board": "X........"}] * 1000})
    assert response.status_code == 200
    assert len(response.json()["results"]) == 1000


async def test_batch_finished_board_is_game_over_at_its_index(client: httpx.AsyncClient) -> None:
    response = await client.post(
        "/v1/best-move/batch", json={"items": [{"board": "X........"}, {"board": "XXXOO...."}]}
    )
    body = response.json()
    assert body["type"] == "/problems/game-over"
    assert body["errors"][0]["loc"] == ["body", "items", 1, "board"]


MARK = {1: "X", -1: "O"}


@pytest.mark.parametrize("depth", [1, 2, 3, 4, 9])
async def test_depth_plays_a_move_best_within_the_horizon(client: httpx.AsyncClient, depth: int) -> None:
    """Through the API, on every unfinished position (every depth: tests/game/test_horizon.py)."""
    cases = sorted((cells, side) for cells, sides in oracle.reachable().items() for side in sides)
    for index, (cells, side) in enumerate(cases):
        board = oracle.decode(cells)
        answer = await best(client, board=board, player=MARK[side], depth=depth, seed=index)
        assert answer["position"] in oracle.horizon_best_moves(cells, side, depth), (board, depth, answer)
        assert answer["optimal"] == (answer["position"] in oracle.optimal_moves(cells, side))
        value = next((s, p) for i, s, p in oracle.move_values(cells, side) if i == answer["position"])
        assert (answer["score"], answer["plies_to_end"]) == value


async def test_depth_is_random_reproducibly_and_never_cached(client: httpx.AsyncClient) -> None:
    seen = set()
    for seed in range(60):
        first = await client.post("/v1/best-move", json={"board": ".........", "depth": 1, "seed": seed})
        again = await best(client, board=".........", depth=1, seed=seed)
        assert first.json() == again
        assert first.headers["cache-control"] == "no-store"
        seen.add(again["position"])
    assert seen == set(range(9))  # one ply ahead, every first move is as good as any other


async def test_depth_combines_with_skill_and_in_batches(client: httpx.AsyncClient) -> None:
    random_moves = {
        (await best(client, board="XX.OO....", depth=1, skill=0, seed=s))["position"] for s in range(60)
    }
    assert random_moves == {2, 5, 6, 7, 8}  # skill 0: any legal move
    items = [{"board": "XX.OO....", "depth": 1, "seed": 1}, {"board": "XX..O....", "depth": 2, "seed": 2}]
    response = await client.post("/v1/best-move/batch", json={"items": items})
    assert [move["position"] for move in response.json()["results"]] == [2, 2]


@pytest.mark.parametrize("level", [level.value for level in Level])
async def test_a_level_plays_as_its_preset(client: httpx.AsyncClient, level: str) -> None:
    """The same seed gives the same move as the level's depth and skill sent by hand."""
    preset = STANDARD_LADDER.presets[Level(level)]
    for seed in range(40):
        for board in (".........", "XX.OO....", "X...O...."):
            by_name = await best(client, board=board, level=level, seed=seed)
            by_hand = await best(client, board=board, depth=preset.depth, skill=preset.skill, seed=seed)
            assert by_name == by_hand


async def test_a_level_is_random_reproducibly_and_never_cached(client: httpx.AsyncClient) -> None:
    for level in Level:
        response = await client.post("/v1/best-move", json={"board": "XX.OO....", "level": level, "seed": 3})
        assert response.status_code == 200
        assert response.headers["cache-control"] == "no-store"
        assert response.json() == await best(client, board="XX.OO....", level=level, seed=3)


async def test_the_perfect_level_is_optimal_and_medium_blocks(client: httpx.AsyncClient) -> None:
    for seed in range(30):
        perfect = await best(client, board="X...O...X", level="perfect", seed=seed)
        assert perfect["optimal"]
        assert perfect["position"] in {1, 3, 5, 7}  # a corner would let X fork
        medium = await best(client, board="XX..O....", level="medium", seed=seed)
        assert medium["position"] == 2
        assert medium["tactics"][0] == "block"


async def test_both_conflicts_are_named_and_batch_items_carry_levels(client: httpx.AsyncClient) -> None:
    body = {"board": ".........", "level": "easy", "skill": 0.5, "depth": 2}
    response = await client.post("/v1/best-move", json=body)
    assert response.status_code == 422
    assert response.headers["content-type"] == "application/problem+json"
    errors = response.json()["errors"]
    assert [(error["loc"], error["type"]) for error in errors] == [
        (["body", "skill"], "level_conflict"),
        (["body", "depth"], "level_conflict"),
    ]
    assert "level" in errors[0]["msg"]
    items = [
        {"board": "XX.OO....", "level": "medium", "seed": 1},
        {"board": "XX.OO....", "level": "easy", "depth": 1},
    ]
    refused = await client.post("/v1/best-move/batch", json={"items": items})
    assert [error["loc"] for error in refused.json()["errors"]] == [["body", "items", 1, "depth"]]
    answered = await client.post("/v1/best-move/batch", json={"items": items[:1] * 3})
    assert answered.headers["cache-control"] == "no-store"
    assert [move["position"] for move in answered.json()["results"]] == [2, 2, 2]


# --- rating ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("board", "rating"), [("XX..O....", 250), ("X...O...X", 350), (".O..X....", 450)])
async def test_a_rating_plays_the_blend_of_its_two_players(
    client: httpx.AsyncClient, board: str, rating: int
) -> None:
    """Over many seeds, each move comes as often as the blend's exact probability says: the weight of
    the stronger player times its likelihood (coach oracle), plus the rest times the weaker's."""
    ratings = co.RATINGS
    names = list(co.NAMES)
    upper = next(name for name in names if ratings[name] > rating)
    lower = names[names.index(upper) - 1]
    weight = Fraction(rating - ratings[lower], ratings[upper] - ratings[lower])
    cells = oracle.encode(board)
    side = 1 if cells.count(1) == cells.count(-1) else -1
    strengths = {name: (depth, skill) for name, depth, skill in co.STRENGTHS}
    chance = {
        cell: (1 - weight) * co.likelihood(cells, side, cell, *strengths[lower])
        + weight * co.likelihood(cells, side, cell, *strengths[upper])
        for cell in co.legal(cells)
    }
    draws = 2000
    counts: Counter[int] = Counter()
    for seed in range(draws):
        answer = await best(client, board=board, rating=rating, seed=seed)
        assert answer == await best(client, board=board, rating=rating, seed=seed)
        counts[answer["position"]] += 1
    possible = [cell for cell, p in chance.items() if p > 0]
    assert set(counts) <= set(possible)
    chi2 = sum(
        (counts[cell] - draws * float(chance[cell])) ** 2 / (draws * float(chance[cell])) for cell in possible
    )
    df = len(possible) - 1
    critical = df * (1 - 2 / (9 * df) + 3.09 * (2 / (9 * df)) ** 0.5) ** 3  # p = 0.001, Wilson–Hilferty
    assert chi2 < critical, (counts, chance)


async def test_a_rating_answer_is_not_stored_and_says_whether_it_was_optimal(
    client: httpx.AsyncClient,
) -> None:
    response = await client.post("/v1/best-move", json={"board": "XX.OO....", "rating": 50, "seed": 3})
    assert response.status_code == 200
    assert response.headers["cache-control"] == "no-store"
    answer = response.json()
    assert answer["optimal"] == (answer["position"] == 2)


@pytest.mark.parametrize(
    ("body", "loc", "kind"),
    [
        ({"level": "easy", "rating": 100}, ["body", "rating"], "level_conflict"),
        ({"rating": 100, "skill": 0.5}, ["body", "skill"], "rating_conflict"),
        ({"rating": 100, "depth": 2}, ["body", "depth"], "rating_conflict"),
        ({"rating": -1}, ["body", "rating"], "greater_than_equal"),
        ({"rating": 494}, ["body", "rating"], "less_than_equal"),
        ({"rating": "100"}, ["body", "rating"], "float_type"),
        ({"rating": True}, ["body", "rating"], "float_type"),
        ({"rating": None, "depth": 2, "level": "easy"}, ["body", "depth"], "level_conflict"),
    ],
)
async def test_a_rating_with_another_strength_or_out_of_range_is_a_422(
    client: httpx.AsyncClient, body: dict[str, Any], loc: list[object], kind: str
) -> None:
    response = await client.post("/v1/best-move", json={"board": ".........", **body})
    assert response.status_code == 422
    assert {"loc": loc, "type": kind} in [
        {"loc": e["loc"], "type": e["type"]} for e in response.json()["errors"]
    ]


async def test_a_rating_in_batch_items(client: httpx.AsyncClient) -> None:
    items = [{"board": "XX.OO....", "rating": rating, "seed": 5} for rating in (0, 94.5, 250, 493)]
    response = await client.post("/v1/best-move/batch", json={"items": items})
    assert response.status_code == 200
    assert response.headers["cache-control"] == "no-store"
    singles = [await best(client, **item) for item in items]
    assert response.json()["results"] == singles
    assert singles[-1]["position"] == 2  # the top rating is perfect play
    wrong = await client.post("/v1/best-move/batch", json={"items": [{"board": "X........", "rating": 1000}]})
    assert wrong.status_code == 422
    assert wrong.json()["errors"][0]["loc"] == ["body", "items", 0, "rating"]
