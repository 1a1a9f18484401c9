"""The rule variants through the API, against the oracle written apart from the engine.

Every unfinished position of ``misere``, ``wild`` and ``notakto`` is asked for on both paths, ``POST
/v1/analysis`` and ``GET /v1/positions/{board}``, and its answer compared with the textbook negamax of
:mod:`tests.support.variant_oracle` (values, every move's value and traps, the contract's order); a
sample of ``notakto-2``'s 154,100 too. The larger variants (``notakto-3``, ``4x4``, ``4x4-3``) are
checked against the oracle at the game level (``tests/game``); here, random positions of theirs are
asked for and their answers checked for the contract's shape and order, and against the shipped
tables. Bad input gets a ``422`` naming what is wrong, per variant.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator
from typing import Any, get_args

import httpx
import pytest

from service.answers.variants import VariantAnswers
from service.game.choice import choose
from service.game.exact import Values
from service.game.levels import LADDERS, Ladder
from service.game.tables import table
from service.game.tactics import TACTICS
from service.game.variants import VARIANTS, Variant
from service.schemas import AnyTactic, VariantName
from service.web import examples
from tests.support.variant_oracle import VARIANTS as ORACLES

pytestmark = pytest.mark.anyio

OUTCOME = {1: "win", 0: "draw", -1: "loss"}
#: The contract's facts: the empty board's value for the first side, by variant.
STARTS = {
    "standard": ("draw", 9),
    "misere": ("draw", 9),
    "wild": ("win", 7),
    "notakto": ("win", 6),
    "notakto-2": ("loss", 11),
    "notakto-3": ("win", 14),
    "4x4": ("draw", 16),
    "4x4-3": ("win", 5),
}


def firsts(variant: Variant) -> list[str]:
    return ["X", "O"] if variant.marks == "own" else ["first"]


def positions(variant_id: str) -> list[tuple[str, str]]:
    """Every unfinished position a game of the variant reaches, either side starting where that applies."""
    variant, oracle = VARIANTS[variant_id], ORACLES[variant_id]
    return sorted(position for first in firsts(variant) for position in oracle.reachable(first))


def where(variant: Variant, cell: int) -> dict[str, int]:
    """The contract's ``row`` and ``column`` of a cell, and ``grid`` in Notakto."""
    on_board = cell % variant.board_cells
    found = {"row": on_board // variant.size, "column": on_board % variant.size}
    return found | ({"grid": cell // variant.board_cells} if variant.marks == "x_only" else {})


def move_of(move: dict[str, Any]) -> tuple[int, str]:
    return move["position"], move.get("mark", "X" if "grid" in move else "")


def check_analysis(variant: Variant, cells: str, mover: str, answer: dict[str, Any]) -> None:
    """An analysis of an unfinished position, field by field, against the oracle."""
    oracle = ORACLES[variant.id]
    score, plies = oracle.value(cells, mover)
    assert (answer["board"], answer["status"], answer["player"]) == (cells, "in_progress", mover)
    assert (answer["score"], answer["outcome"], answer["plies_to_end"]) == (score, OUTCOME[score], plies)
    lines = [
        [board * oracle.width + cell for cell in line]
        for board in range(oracle.boards)
        for line in oracle.lines
        if len({cells[board * oracle.width + cell] for cell in line}) == 1
        and cells[board * oracle.width + line[0]] != "."
    ]
    assert answer["winner"] is None and sorted(answer["winning_lines"]) == sorted(lines)
    moves = answer["moves"]
    expected_moves = sorted(oracle.moves(cells, mover))
    if variant.marks == "own":
        assert sorted(m["position"] for m in moves) == [cell for cell, _ in expected_moves]
    else:
        marks = [(m["position"], m.get("mark", "X")) for m in moves]
        assert sorted(marks) == expected_moves
    for move in moves:
        cell = move["position"]
        mark = move.get("mark", mover if variant.marks == "own" else "X")
        assert "mark" in move if variant.marks == "either" else "mark" not in move
        assert {key: move[key] for key in ("row", "column", "grid") if key in move} == where(variant, cell)
        played, ended = oracle.after(cells, (cell, mark))
        if ended is not None:
            expected = (ended, 1, 0)
        else:
            after_score, after_plies = oracle.value(played, oracle.other(mover))
            expected = (-after_score, after_plies + 1, oracle.traps(played, oracle.other(mover)))
        assert (move["score"], move["plies_to_end"], move["traps"]) == expected, (cells, move)
        assert move["outcome"] == OUTCOME[move["score"]]
        assert isinstance(move["reason"], str) and move["reason"]
    order = [
        (-m["score"], m["plies_to_end"] * m["score"], -m["traps"], m["position"])
        + (m.get("mark", "X") == "O",)
        for m in moves
    ]
    assert order == sorted(order), cells
    best = [m["position"] for m in moves if (m["score"], m["plies_to_end"]) == (score, plies)]
    assert answer["best_moves"] == sorted(set(best))


@pytest.mark.parametrize("variant_id", ["misere", "wild", "notakto"])
async def test_every_position_of_the_small_variants_is_analysed_as_the_oracle_says(
    client: httpx.AsyncClient, variant_id: str
) -> None:
    variant = VARIANTS[variant_id]
    checked = 0
    for index, (cells, mover) in enumerate(positions(variant_id)):
        needed = variant.marks == "own" and cells.count("X") == cells.count("O")
        player = {"player": mover} if needed or index % 2 else {}
        posted = await client.post("/v1/analysis", json={"variant": variant_id, "board": cells, **player})
        got = await client.get(f"/v1/positions/{cells}", params={"variant": variant_id, **player})
        assert posted.status_code == got.status_code == 200, (cells, posted.text, got.text)
        assert posted.content == got.content
        check_analysis(variant, cells, mover, posted.json())
        checked += 1
    assert checked == {"misere": 9040, "wild": 11093, "notakto": 230}[variant_id]


async def test_a_sample_of_notakto_on_two_boards_is_analysed_as_the_oracle_says(
    client: httpx.AsyncClient,
) -> None:
    variant = VARIANTS["notakto-2"]
    every = positions("notakto-2")
    assert len(every) == 154100
    for cells, mover in random.Random(2).sample(every, 1500):
        response = await client.get(f"/v1/positions/{cells}", params={"variant": "notakto-2"})
        assert response.status_code == 200, response.text
        check_analysis(variant, cells, mover, response.json())


def random_positions(variant: Variant, count: int, seed: int) -> Iterator[tuple[str, str]]:
    """Unfinished positions of random games (either side starting where that applies)."""
    oracle, rng = ORACLES[variant.id], random.Random(seed)
    found = 0
    while found < count:
        mover = rng.choice(firsts(variant))
        cells = oracle.start()
        for _ in range(rng.randrange(variant.cells)):
            played, ended = oracle.after(cells, rng.choice(list(oracle.moves(cells, mover))))
            if ended is not None:
                break
            cells, mover = played, oracle.other(mover)
        yield cells, mover
        found += 1


@pytest.mark.parametrize("variant_id", ["notakto-3", "4x4", "4x4-3"])
async def test_the_large_variants_answer_from_their_tables(
    client: httpx.AsyncClient, variant_id: str
) -> None:
    variant = VARIANTS[variant_id]
    values = Values(variant, table(variant_id))
    for cells, mover in random_positions(variant, 150, seed=len(variant_id)):
        player = {"player": mover} if variant.marks == "own" else {}
        analysis = await client.post("/v1/analysis", json={"variant": variant_id, "board": cells, **player})
        best = await client.get("/v1/best-move", params={"variant": variant_id, "board": cells, **player})
        assert analysis.status_code == best.status_code == 200, (cells, analysis.text, best.text)
        found, chosen = analysis.json(), best.json()
        state = variant.resolve(cells, mover).state
        ranked = values.ranked(state)
        assert [(m["position"], m["score"], m["plies_to_end"], m["traps"]) for m in found["moves"]] == [
            (m.cell, m.score, m.plies, m.traps) for m in ranked
        ]
        assert (found["score"], found["plies_to_end"]) == values.value(state)
        first = found["moves"][0]
        assert chosen["position"] == first["position"] and chosen["optimal"] is True
        assert (
            chosen["board_after"]
            == cells[: first["position"]]
            + (mover if variant.marks == "own" else "X")
            + cells[first["position"] + 1 :]
        )


async def test_the_variants_are_listed_with_the_contracts_facts(client: httpx.AsyncClient) -> None:
    response = await client.get("/v1/variants")
    assert response.status_code == 200
    assert "max-age" in response.headers["cache-control"] and response.headers["etag"]
    listed = response.json()["variants"]
    assert [v["id"] for v in listed] == list(VARIANTS) == list(STARTS)
    for found in listed:
        variant = VARIANTS[found["id"]]
        assert (found["rows"], found["columns"], found["boards"], found["line"]) == (
            variant.size,
            variant.size,
            variant.boards,
            variant.line,
        )
        assert (found["marks"], found["misere"]) == (ORACLES[variant.id].marks, ORACLES[variant.id].misere)
        assert (found["start"]["outcome"], found["start"]["plies_to_end"]) == STARTS[variant.id]
        ladder = LADDERS[variant.id]
        assert found["rated"] is (ladder.ratings is not None)
        assert found["rating_max"] == ladder.rating_max
        assert list(found["levels"]) == ["beginner", "easy", "medium", "hard", "perfect"]
        for level, preset in ladder.presets.items():
            rating = None if ladder.ratings is None else ladder.ratings[level.value]
            assert found["levels"][level.value] == {
                "depth": preset.depth,
                "skill": preset.skill,
                "rating": rating,
            }
        assert found["tactics"] == list(TACTICS[variant.id]) and found["rules"] and found["name"]
    counts = {v["id"]: v["positions"] for v in listed}
    assert counts["standard"] == counts["misere"] == 9040
    assert (counts["wild"], counts["notakto"], counts["notakto-2"]) == (11093, 230, 154100)
    assert (counts["4x4"], counts["4x4-3"]) == (2 * 9_062_619, 2 * 3_463_541)
    assert response.json() == examples.VARIANTS_RESPONSE  # the OpenAPI document's example is the answer
    again = await client.get("/v1/variants", headers={"If-None-Match": response.headers["etag"]})
    assert again.status_code == 304


def test_the_schemas_name_every_variant_and_every_tag() -> None:
    assert get_args(VariantName) == tuple(VARIANTS)
    tags = [tag for tags in TACTICS.values() for tag in tags]
    assert get_args(AnyTactic) == tuple(dict.fromkeys(tags))


async def test_health_names_every_variant_ready(client: httpx.AsyncClient) -> None:
    response = await client.get("/health")
    assert response.status_code == 200 and response.json()["variants"] == list(VARIANTS)


#: Bad input per variant: the body sent, the field at fault, the error's type (``None``: any) and words
#: the message must hold.
BAD: list[tuple[dict[str, Any], str, str | None, str]] = [
    ({"variant": "chess", "board": "."}, "variant", "literal_error", "'4x4-3'"),
    ({"variant": "4x4", "board": "." * 9}, "board", "board_length", "16 characters"),
    ({"variant": "notakto-2", "board": "." * 9}, "board", "board_length", "18 characters"),
    ({"variant": "notakto", "board": "XO......."}, "board", "board_symbol", "only X"),
    ({"variant": "wild", "board": "X........", "player": "O"}, "player", "player_unknown", "first"),
    ({"variant": "misere", "board": "X........", "player": "first"}, "player", "player_unknown", "X"),
    ({"board": "X........", "player": "second"}, "player", "player_unknown", "X"),
    ({"variant": "wild", "board": "X........", "player": "first"}, "player", "player_contradicts_counts", ""),
    ({"variant": "4x4", "board": "XXXX.....OOO.O.."}, "board", "game_over", "x_won"),
    ({"variant": "4x4-3", "board": "XXX.OO..OXXX...."}, "board", None, ""),
    ({"variant": "misere", "board": "XXX.OO..O"}, "board", "game_over", "o_won"),
    ({"variant": "notakto", "board": "XXX.X.X.."}, "board", "game_over", "second_won"),
    ({"variant": "notakto-2", "board": "XXX...XXX" + "." * 9}, "board", "board_lines_apart", ""),
    ({"variant": "notakto-2", "board": "XXX......XXX......"}, "board", "game_over", "first_won"),
    ({"variant": "notakto-2", "board": "XXX......" + "XXXX.XXXX"}, "board", None, ""),
    ({"variant": "wild", "board": "XXX.O.OOO"}, "board", None, ""),
    ({"variant": "4x4", "board": "." * 16, "depth": 17}, "depth", "less_than_equal", "16"),
    ({"variant": "notakto-2", "board": "." * 18, "depth": 19}, "depth", "less_than_equal", "18"),
    ({"board": "." * 9, "depth": 10}, "depth", "less_than_equal", "9"),
    ({"variant": "4x4", "board": "." * 16, "rating": 300}, "rating", "less_than_equal", "258"),
]


@pytest.mark.parametrize(("body", "field", "kind", "words"), BAD)
async def test_bad_input_in_a_variant_is_a_422_naming_it(
    client: httpx.AsyncClient, body: dict[str, Any], field: str, kind: str | None, words: str
) -> None:
    response = await client.post("/v1/best-move", json=body)
    assert response.status_code == 422, response.text
    assert response.headers["content-type"] == "application/problem+json"
    error = response.json()["errors"][0]
    assert error["loc"] == ["body", field]
    if kind is not None:
        assert error["type"] == kind, error
    assert words in error["msg"]


async def test_a_batch_mixes_variants_in_order(client: httpx.AsyncClient) -> None:
    items = [
        {"board": "X........"},
        {"variant": "wild", "board": "X........"},
        {"variant": "notakto-3", "board": "." * 27},
        {"variant": "4x4", "board": "." * 16, "skill": 0, "seed": 3},
    ]
    response = await client.post("/v1/best-move/batch", json={"items": items})
    assert response.status_code == 200, response.text
    results = response.json()["results"]
    assert [r["board"] for r in results] == ["X........", "X........", "." * 27, "." * 16]
    assert [r["player"] for r in results] == ["O", "second", "first", "X"]
    assert results[1]["mark"] in ("X", "O") and "grid" in results[2] and "mark" not in results[3]
    same = await client.post("/v1/best-move/batch", json={"items": items})
    assert same.content == response.content  # the seed makes the weaker move reproducible


@pytest.mark.parametrize("variant_id", ["misere", "wild", "notakto-2", "4x4", "4x4-3"])
async def test_depth_and_levels_play_in_every_variant(client: httpx.AsyncClient, variant_id: str) -> None:
    """A move asked for with a depth is one the horizon finds best; ``perfect`` plays an optimal move;
    the same seed gives the same move."""
    variant = VARIANTS[variant_id]
    values = Values(variant, table(variant_id))
    for index, (cells, mover) in enumerate(random_positions(variant, 40, seed=7)):
        state = variant.resolve(cells, mover).state
        depth = 1 + index % 4
        body = {"variant": variant_id, "board": cells, "player": mover, "depth": depth, "seed": index}
        answer = await client.post("/v1/best-move", json=body)
        assert answer.status_code == 200, answer.text
        move = answer.json()
        mark = {"X": 0, "O": 1}[move.get("mark", "X")] if variant.marks == "either" else state.mover
        placed = (move["position"], mark if variant.marks != "x_only" else 0)
        assert placed in {(m.cell, m.mark) for m in values.within(state, depth)}, (cells, depth, move)
        again = await client.post("/v1/best-move", json=body)
        assert again.content == answer.content
        perfect = await client.post("/v1/best-move", json=body | {"depth": None, "level": "perfect"})
        assert perfect.status_code == 200 and perfect.json()["optimal"] is True, perfect.text


# --- rating in a variant ---------------------------------------------------------------------------

#: Misère's ratings as its round robin measures them (``docs/levels.md``): the scale the tests of a
#: calibrated variant give it when no variant but the standard game is calibrated.
MISERE_SCALE = {"random": 0, "beginner": 40, "easy": 80, "medium": 136, "hard": 244, "perfect": 404}


@pytest.fixture
def rated_variant(monkeypatch: pytest.MonkeyPatch) -> str:
    """A calibrated variant: the first of ``levels.CALIBRATED`` after the standard game, or misère
    given its measured scale for the test."""
    calibrated = [variant for variant, ladder in LADDERS.items() if variant != "standard" and ladder.ratings]
    if calibrated:
        return calibrated[0]
    monkeypatch.setitem(LADDERS, "misere", Ladder(LADDERS["misere"].presets, MISERE_SCALE))
    return "misere"


async def test_a_rating_plays_in_a_calibrated_variant_on_its_own_scale(
    client: httpx.AsyncClient, rated_variant: str
) -> None:
    """Each answer is a legal move, the one the rating's blend on the variant's scale chooses (its
    levels' depths read in the variant), the same again with the same seed; at the top of the scale,
    perfect play."""
    variant = VARIANTS[rated_variant]
    values, ladder = Values(variant, table(rated_variant)), LADDERS[rated_variant]
    top = ladder.rating_max or 0
    for index, (cells, mover) in enumerate(random_positions(variant, 30, seed=5)):
        state = variant.resolve(cells, mover).state
        rating = top * (index % 5) / 4
        body = {"variant": rated_variant, "board": cells, "player": mover, "rating": rating, "seed": index}
        response = await client.post("/v1/best-move", json=body)
        assert response.status_code == 200, response.text
        assert response.headers["cache-control"] == "no-store"
        move = response.json()
        how = ladder.rated(rating, index)
        expected = choose(values.ranked(state), how, functools.partial(values.within, state))
        assert move["position"] == expected.cell
        assert move.get("mark", "XO"[expected.mark]) == "XO"[expected.mark]
        again = await client.post("/v1/best-move", json=body)
        assert again.content == response.content
        if rating == top:
            assert move["optimal"] is True


async def test_a_rating_above_a_variants_perfect_play_is_a_422_naming_the_bound(
    client: httpx.AsyncClient, rated_variant: str
) -> None:
    variant = VARIANTS[rated_variant]
    top = LADDERS[rated_variant].rating_max or 0
    body = {"variant": rated_variant, "board": "." * variant.cells, "rating": top + 0.5}
    response = await client.post("/v1/best-move", json=body)
    assert response.status_code == 422, response.text
    error = response.json()["errors"][0]
    assert (error["loc"], error["type"]) == (["body", "rating"], "less_than_equal")
    assert str(top) in error["msg"] and rated_variant in error["msg"]
    batch = await client.post("/v1/best-move/batch", json={"items": [body]})
    assert batch.status_code == 422
    assert batch.json()["errors"][0]["loc"] == ["body", "items", 0, "rating"]


async def test_a_rating_in_a_variant_that_is_not_calibrated_is_a_422(
    client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every variant is calibrated today; one whose ladder had no ratings (a calibration that no longer
    passes) would refuse a rating, naming the calibrated ones and what to use instead."""
    variant_id = "notakto-2"
    monkeypatch.setitem(LADDERS, variant_id, Ladder(LADDERS[variant_id].presets))
    body = {"variant": variant_id, "board": "." * VARIANTS[variant_id].cells, "rating": 100, "seed": 1}
    response = await client.post("/v1/best-move", json=body)
    assert response.status_code == 422, response.text
    error = response.json()["errors"][0]
    assert (error["loc"], error["type"]) == (["body", "rating"], "variant_unrated")
    assert variant_id in error["msg"]


def test_a_lookup_keeps_positions_by_their_canonical_cells_only() -> None:
    """Any spelling of a board finds its position, and what is kept is keyed by the canonical cells:
    a client's spellings, illegal boards and other text add nothing."""
    answers = VariantAnswers()
    for text in ("x-o------", "X_O______", "x o      ", "X.O......"):
        found = answers.lookup("standard", text, None)
        assert found is not None and (found.cells, found.player) == ("X.O......", "X"), text
    for variant, text in (("standard", "XXX......"), ("standard", "X" * 100_000), ("notakto", "o........")):
        assert answers.lookup(variant, text, None) is None
    assert list(answers._known) == [("standard", "X.O......", None)]
    assert answers._lookup.cache_info().currsize == 2  # X.O...... once, and the illegal XXX......
