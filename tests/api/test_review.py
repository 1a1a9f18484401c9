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

from service.game.exact import Values
from service.game.tables import table
from service.game.variants import VARIANTS, Move
from service.schemas import ReviewResponse
from tests.support import coach_oracle as co
from tests.support import oracle
from tests.support.variant_oracle import VARIANTS as ORACLES
from tests.support.variant_review_oracle import Played, likelihood, oracle_ply, posterior

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
        ({"moves": [4, -1]}, ["body", "moves", 1]),
        ({"moves": ["4"]}, ["body", "moves", 0]),
        ({"moves": [4.0]}, ["body", "moves", 0]),
        ({"moves": [True]}, ["body", "moves", 0]),
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


# --- in the variants ------------------------------------------------------------------------------


def variant_game(variant_id: str, rng: random.Random) -> tuple[str, str, list[Played]]:
    """A random complete game of a variant, by the oracle's moves, from the empty board or a few moves in."""
    oracle = ORACLES[variant_id]
    first = rng.choice(["X", "O"]) if oracle.marks == "own" else "first"
    cells, mover, moves = oracle.start(), first, []
    while True:
        move = rng.choice(list(oracle.moves(cells, mover)))
        moves.append(move)
        cells, ended = oracle.after(cells, move)
        mover = oracle.other(mover)
        if ended is not None:
            break
    skip = rng.choice([0, 0, rng.randrange(len(moves))])
    cells, mover = oracle.start(), first
    for move in moves[:skip]:
        cells, _ = oracle.after(cells, move)
        mover = oracle.other(mover)
    return cells, mover, moves[skip:]


def sent(variant_id: str, moves: list[Played]) -> list[object]:
    """The moves as a request gives them: cells, or in ``wild`` objects with the mark."""
    if variant_id == "wild":
        return [{"position": cell, "mark": mark} for cell, mark in moves]
    return [cell for cell, _ in moves]


@pytest.mark.parametrize(
    ("variant_id", "count"), [("misere", 40), ("wild", 40), ("notakto", 30), ("notakto-2", 15)]
)
async def test_games_of_the_small_variants_are_reviewed_as_the_oracle_reviews_them(
    client: httpx.AsyncClient, variant_id: str, count: int
) -> None:
    oracle, variant = ORACLES[variant_id], VARIANTS[variant_id]
    strengths, ratings = co.documented_ladder(variant_id)
    rng = random.Random(f"API review {variant_id}")
    for _ in range(count):
        cells, mover, moves = variant_game(variant_id, rng)
        body = {"variant": variant_id, "board": cells, "player": mover, "moves": sent(variant_id, moves)}
        answer = await client.post("/v1/review", json=body)
        assert answer.status_code == 200, answer.text
        review = answer.json()
        ReviewResponse.model_validate(review)
        assert (review["board"], review["player"]) == (cells, mover)
        chances: dict[str, list[dict[str, Fraction]]] = {}
        for number, (ply, move) in enumerate(zip(review["plies"], moves, strict=True), start=1):
            expected = oracle_ply(oracle, cells, mover, move)
            after, _ = oracle.after(cells, move)
            cell, mark = move
            on_board = cell % variant.board_cells
            assert ply == ply | {
                "ply": number,
                "player": mover,
                "position": cell,
                "row": on_board // variant.size,
                "column": on_board % variant.size,
                "board_before": cells,
                "board_after": after,
                "score_before": expected.score_before,
                "outcome_before": OUTCOME[expected.score_before],
                "plies_to_end_before": expected.plies_before,
                "score": expected.score,
                "outcome": OUTCOME[expected.score],
                "plies_to_end": expected.plies,
                "best_moves": expected.best_moves,
                "judgement": expected.judgement,
                "only_move": expected.only_move,
            }
            assert ("mark" in ply) == (variant_id == "wild") and ply.get("mark", mark) == mark
            assert ("grid" in ply) == (variant.marks == "x_only")
            assert ply.get("grid", cell // variant.board_cells) == cell // variant.board_cells
            assert (ply["better"] is None) == (expected.judgement == "best")
            chances.setdefault(mover, []).append(
                {
                    name: likelihood(oracle, cells, mover, move, depth, skill)
                    for name, depth, skill in strengths
                }
            )
            cells, mover = after, oracle.other(mover)
        assert list(review["players"]) == list(variant.sides)
        for side, part in review["players"].items():
            if side not in chances:
                assert part["level_likelihoods"] is None and part["level"] is None
                continue
            exact = posterior(chances[side])
            assert part["level_likelihoods"] == {
                name: float(round(chance, 4)) for name, chance in exact.items()
            }
            most = max(exact.values())
            assert part["level"] == next(name for name in co.NAMES if exact[name] == most)
            assert part["rating"] == (None if ratings is None else ratings[part["level"]])


@pytest.mark.parametrize("variant_id", ["notakto-3", "4x4", "4x4-3"])
async def test_games_of_the_large_variants_are_reviewed_from_their_tables(
    client: httpx.AsyncClient, variant_id: str
) -> None:
    """Random games, each move's values against the shipped table (which the oracle checks at the
    game level) and its judgement by the contract's rule."""
    variant = VARIANTS[variant_id]
    values = Values(variant, table(variant_id))
    rng = random.Random(f"API review {variant_id}")
    for _ in range(4):
        state, moves, cells = (
            variant.start(rng.choice([0, 1]) if variant.marks == "own" else 0),
            [],
            "." * variant.cells,
        )
        start, first = cells, variant.sides[state.mover]
        expected = []
        while True:
            ranked = values.ranked(state)
            played = rng.choice(ranked)
            top = ranked[0]
            expected.append((top.score, top.plies, played.score, played.plies))
            moves.append(played.cell)
            state, ended = variant.play(state, Move(played.cell, played.mark))
            if ended is not None:
                break
        answer = await client.post(
            "/v1/review", json={"variant": variant_id, "board": start, "player": first, "moves": moves}
        )
        assert answer.status_code == 200, answer.text
        review = answer.json()
        assert [ply["position"] for ply in review["plies"]] == moves
        for ply, (score_before, plies_before, score, plies) in zip(review["plies"], expected, strict=True):
            assert (ply["score_before"], ply["plies_to_end_before"], ply["score"], ply["plies_to_end"]) == (
                score_before,
                plies_before,
                score,
                plies,
            )
            best = score == score_before and (score == 0 or plies == plies_before)
            kept = "inaccuracy" if score == score_before else "mistake" if score == 0 else "blunder"
            assert ply["judgement"] == ("best" if best else kept)
        assert review["status"] != "in_progress"


@pytest.mark.parametrize(
    ("body", "loc", "words"),
    [
        ({"variant": "wild", "moves": [4]}, ["body", "moves", 0], "a move of wild is an object"),
        (
            {"variant": "misere", "moves": [{"position": 4, "mark": "X"}]},
            ["body", "moves", 0],
            "a move of misere is a cell: an integer from 0 to 8",
        ),
        ({"variant": "4x4", "moves": [0, 16]}, ["body", "moves", 1], "cells are 0 to 15"),
        (
            {"variant": "notakto-2", "board": "XXX...............", "moves": [3]},
            ["body", "moves", 0],
            "board 0, which has a line",
        ),
        ({"variant": "notakto", "moves": [0, 1, 2, 3]}, ["body", "moves", 3], "the game is over"),
        ({"variant": "misere", "moves": list(range(10))}, ["body", "moves"], "at most 9 moves"),
        ({"variant": "notakto", "board": "XXX......", "moves": [4]}, ["body", "board"], "over"),
        (
            {"variant": "wild", "moves": [{"position": 4, "mark": "Z"}]},
            ["body", "moves", 0],
            "a move of wild is an object with the cell (position, 0 to 8) and the mark placed (X or O)",
        ),
        (
            {"variant": "wild", "moves": [{"position": 4}]},
            ["body", "moves", 0],
            "here mark is missing",
        ),
        ({"variant": "wild", "moves": [[4, "X"]]}, ["body", "moves", 0], '{"position": 4, "mark": "X"}'),
        (
            {"variant": "wild", "moves": [{"position": 9, "mark": "X"}]},
            ["body", "moves", 0],
            "cells are 0 to 8",
        ),
        ({"moves": [27]}, ["body", "moves", 0], "cell 27 is not on the board: cells are 0 to 8"),
        ({"variant": "notakto-3", "moves": [27]}, ["body", "moves", 0], "cells are 0 to 26"),
        ({"variant": "4x4", "moves": [-1]}, ["body", "moves", 0], "cells are 0 to 15"),
        (
            {"variant": "4x4", "moves": ["4"]},
            ["body", "moves", 0],
            "a move of 4x4 is a cell: an integer from 0 to 15",
        ),
        ({"variant": "notakto-2", "moves": [True]}, ["body", "moves", 0], "an integer from 0 to 17"),
        (
            {"variant": "wild", "player": "X", "moves": [{"position": 4, "mark": "X"}]},
            ["body", "player"],
            "first",
        ),
    ],
)
async def test_bad_moves_in_a_variant_are_a_422_naming_them(
    client: httpx.AsyncClient, body: dict[str, Any], loc: list[object], words: str
) -> None:
    answer = await client.post("/v1/review", json=body)
    assert answer.status_code == 422, answer.text
    assert answer.headers["content-type"] == "application/problem+json"
    errors = answer.json()["errors"]
    assert loc in [error["loc"] for error in errors], errors
    assert any(words in error["msg"] for error in errors), errors


async def test_an_unknown_variant_is_the_one_problem_of_a_review(client: httpx.AsyncClient) -> None:
    """The start board is the variant's empty board, so an unknown variant leaves nothing else to say
    about it: the one error names the variant and lists the known ones."""
    answer = await client.post("/v1/review", json={"variant": "chess", "moves": [4]})
    assert answer.status_code == 422
    assert [error["loc"] for error in answer.json()["errors"]] == [["body", "variant"]]
    assert "'4x4-3'" in answer.json()["errors"][0]["msg"]


async def test_a_null_board_starts_the_game_from_the_variants_empty_board(client: httpx.AsyncClient) -> None:
    for variant, cells in (("standard", 9), ("4x4", 16), ("notakto-3", 27)):
        body = {"variant": variant, "moves": [4]}
        answers = [await client.post("/v1/review", json=body | given) for given in ({}, {"board": None})]
        assert [answer.status_code for answer in answers] == [200, 200]
        assert answers[0].json() == answers[1].json()
        assert answers[1].json()["board"] == "." * cells


async def test_a_wild_move_takes_its_mark_in_either_case_as_boards_do(client: httpx.AsyncClient) -> None:
    upper = [{"position": 4, "mark": "X"}, {"position": 0, "mark": "O"}, {"position": 8, "mark": "O"}]
    lower = [{"position": move["position"], "mark": str(move["mark"]).lower()} for move in upper]
    answers = [
        await client.post("/v1/review", json={"variant": "wild", "moves": moves}) for moves in (upper, lower)
    ]
    assert [answer.status_code for answer in answers] == [200, 200], answers[1].text
    assert answers[0].json() == answers[1].json()
    assert [ply["mark"] for ply in answers[1].json()["plies"]] == ["X", "O", "O"]


async def test_a_review_starts_from_the_variants_empty_board_by_default(client: httpx.AsyncClient) -> None:
    answer = await client.post("/v1/review", json={"variant": "notakto-3", "moves": [13]})
    assert answer.status_code == 200, answer.text
    review = answer.json()
    assert (review["board"], review["player"]) == ("." * 27, "first")
    assert review["plies"][0]["grid"] == 1
    assert set(review["players"]) == {"first", "second"}
