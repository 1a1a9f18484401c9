"""``/v1/puzzles``: the whole set through the API against the independent coach oracle, filters,
cursors, single puzzles, random draws, caching, and bad queries."""

from __future__ import annotations

from collections import Counter
from typing import Any

import httpx
import pytest

from tests.support import coach_oracle as co

pytestmark = pytest.mark.anyio


def chi2_critical(df: int, z: float = 3.09) -> float:
    """The chi-square value a uniform draw exceeds with probability 0.001 (``z`` the normal quantile),
    by the Wilson–Hilferty approximation (within 1 % from 5 degrees of freedom)."""
    return float(df * (1 - 2 / (9 * df) + z * (2 / (9 * df)) ** 0.5) ** 3)


def expected(puzzle: co.Puzzle) -> dict[str, Any]:
    """A puzzle as the contract writes it (its reason is the tactics tests' business)."""
    return {
        "id": puzzle.id,
        "board": puzzle.board,
        "player": puzzle.player,
        "solution": puzzle.solution,
        "outcome": puzzle.outcome,
        "plies_to_end": puzzle.plies,
        "themes": list(puzzle.themes),
        "solve_rates": {name: float(round(rate, 4)) for name, rate in puzzle.solve_rates.items()},
        "rating": puzzle.rating,
    }


def without_reason(puzzle: dict[str, Any]) -> dict[str, Any]:
    assert puzzle["reason"].endswith("."), puzzle
    return {key: value for key, value in puzzle.items() if key != "reason"}


async def every_page(client: httpx.AsyncClient, **query: Any) -> tuple[list[dict[str, Any]], int]:
    """Every puzzle matching ``query``, page by page, and how many pages it took."""
    found: list[dict[str, Any]] = []
    cursor = None
    pages = 0
    while True:
        params = {**query, **({"cursor": cursor} if cursor else {})}
        answer = await client.get("/v1/puzzles", params=params)
        assert answer.status_code == 200, answer.text
        page = answer.json()
        pages += 1
        found += page["puzzles"]
        assert page["total"] >= len(found)
        cursor = page["next"]
        if cursor is None:
            assert page["total"] == len(found)
            return found, pages
        assert cursor == page["puzzles"][-1]["id"]


async def test_the_whole_set_through_the_api(client: httpx.AsyncClient) -> None:
    found, pages = await every_page(client, limit=100)
    assert pages == 6
    assert [without_reason(puzzle) for puzzle in found] == [expected(puzzle) for puzzle in co.puzzles()]
    default, pages = await every_page(client)
    assert pages == 30  # 20 a page by default
    assert default == found


@pytest.mark.parametrize(
    "query",
    [
        {"theme": "fork"},
        {"theme": "block_fork", "outcome": "draw"},
        {"outcome": "win", "min_rating": 100},
        {"min_rating": 181, "max_rating": 382},
        {"max_rating": 0},
        {"theme": "win", "limit": 7},
        {"theme": "threat", "min_rating": 300, "max_rating": 400, "limit": 3},
        {"min_rating": 494},
        {"min_rating": 316, "max_rating": 316},
    ],
)
async def test_filters_and_cursors(client: httpx.AsyncClient, query: dict[str, Any]) -> None:
    def matches(puzzle: co.Puzzle) -> bool:
        return (
            ("theme" not in query or query["theme"] in puzzle.themes)
            and ("outcome" not in query or puzzle.outcome == query["outcome"])
            and puzzle.rating >= query.get("min_rating", 0)
            and puzzle.rating <= query.get("max_rating", 10_000)
        )

    wanted = [expected(puzzle) for puzzle in co.puzzles() if matches(puzzle)]
    found, pages = await every_page(client, **query)
    assert [without_reason(puzzle) for puzzle in found] == wanted
    assert pages == max(1, -(-len(wanted) // query.get("limit", 20)))


async def test_every_puzzle_by_its_id_and_its_turned_boards(client: httpx.AsyncClient) -> None:
    listed, _ = await every_page(client, limit=100)
    for puzzle in listed:
        answer = await client.get(f"/v1/puzzles/{puzzle['id']}")
        assert answer.status_code == 200
        assert answer.json() == puzzle
        assert answer.headers["cache-control"] == "public, max-age=86400"
        assert answer.headers["etag"].startswith('"')
    # every other orientation of a puzzle's board is a 404 that names the puzzle
    seen = 0
    for puzzle in listed[::25]:
        for symmetry in co.SYMMETRIES:
            board = co.transform(puzzle["board"], symmetry)
            if board == puzzle["board"]:
                continue
            answer = await client.get(f"/v1/puzzles/{board}{puzzle['player']}")
            assert answer.status_code == 404
            assert answer.headers["content-type"] == "application/problem+json"
            assert puzzle["id"] in answer.json()["detail"]
            seen += 1
    assert seen > 50


@pytest.mark.parametrize(
    "puzzle_id", ["X...O...XO", ".........X", "XXXXXXXXXX", "abc", "." * 300, "XO.XO.XO.Z", "%20" * 10]
)
async def test_what_is_not_a_puzzle_is_a_404(client: httpx.AsyncClient, puzzle_id: str) -> None:
    answer = await client.get(f"/v1/puzzles/{puzzle_id}")
    assert answer.status_code == 404
    problem = answer.json()
    assert problem["status"] == 404 and problem["type"].endswith("/not-found")
    assert len(problem["detail"]) < 120


async def test_lists_and_puzzles_are_cacheable(client: httpx.AsyncClient) -> None:
    for path in ("/v1/puzzles?theme=fork&limit=5", "/v1/puzzles/.....OOXXX", "/v1/puzzles/random?seed=3"):
        first = await client.get(path)
        assert first.status_code == 200
        tag = first.headers["etag"]
        assert first.headers["cache-control"] == "public, max-age=86400"
        again = await client.get(path, headers={"If-None-Match": tag})
        assert again.status_code == 304 and again.content == b""
        other = await client.get(path, headers={"If-None-Match": '"something-else"'})
        assert other.status_code == 200 and other.content == first.content
    pages = [await client.get("/v1/puzzles", params={"limit": limit}) for limit in (5, 6)]
    assert pages[0].headers["etag"] != pages[1].headers["etag"]


async def test_a_random_puzzle(client: httpx.AsyncClient) -> None:
    by_id = {puzzle.id: puzzle for puzzle in co.puzzles()}
    # reproducible with a seed; matching the filters; uniform over the matching ones
    query: dict[str, Any] = {"theme": "fork", "min_rating": 382}
    matching = [p.id for p in co.puzzles() if "fork" in p.themes and p.rating >= 382]
    assert 5 <= len(matching) <= 40
    counts: Counter[str] = Counter()
    draws = 60 * len(matching)
    for seed in range(draws):
        answer = await client.get("/v1/puzzles/random", params={**query, "seed": seed})
        assert answer.status_code == 200
        puzzle = answer.json()
        assert without_reason(puzzle) == expected(by_id[puzzle["id"]])
        counts[puzzle["id"]] += 1
    assert set(counts) == set(matching)
    mean = draws / len(matching)
    chi2 = sum((count - mean) ** 2 / mean for count in counts.values())
    assert chi2 < chi2_critical(len(matching) - 1), counts
    same = [await client.get("/v1/puzzles/random", params={**query, "seed": 11}) for _ in range(3)]
    assert len({answer.content for answer in same}) == 1
    # without a seed: not stored, and varied
    unseeded = [await client.get("/v1/puzzles/random") for _ in range(20)]
    assert all(answer.headers["cache-control"] == "no-store" for answer in unseeded)
    assert "etag" not in unseeded[0].headers
    assert len({answer.json()["id"] for answer in unseeded}) > 5


async def test_no_matching_puzzle_is_a_404(client: httpx.AsyncClient) -> None:
    answer = await client.get("/v1/puzzles/random", params={"min_rating": 494})
    assert answer.status_code == 404
    assert answer.json()["detail"] == "no puzzle matches these filters"
    empty = (await client.get("/v1/puzzles", params={"min_rating": 494})).json()
    assert empty == {"puzzles": [], "total": 0, "next": None}


@pytest.mark.parametrize(
    ("path", "loc"),
    [
        ("/v1/puzzles?limit=0", ["query", "limit"]),
        ("/v1/puzzles?limit=101", ["query", "limit"]),
        ("/v1/puzzles?limit=ten", ["query", "limit"]),
        ("/v1/puzzles?theme=center", ["query", "theme"]),
        ("/v1/puzzles?outcome=loss", ["query", "outcome"]),
        ("/v1/puzzles?min_rating=-1", ["query", "min_rating"]),
        ("/v1/puzzles?min_rating=300&max_rating=200", ["query", "max_rating"]),
        ("/v1/puzzles?cursor=X...O...XO", ["query", "cursor"]),
        ("/v1/puzzles?cursor=nonsense", ["query", "cursor"]),
        ("/v1/puzzles?colour=blue", ["query", "colour"]),
        ("/v1/puzzles/random?outcome=win", ["query", "outcome"]),
        ("/v1/puzzles/random?seed=x", ["query", "seed"]),
        ("/v1/puzzles/random?seed=18446744073709551616", ["query", "seed"]),
        ("/v1/puzzles/random?theme=fork&theme=win", ["query", "theme"]),
        ("/v1/puzzles/random?max_rating=10&min_rating=20", ["query", "max_rating"]),
    ],
)
async def test_bad_queries_are_a_422_naming_the_parameter(
    client: httpx.AsyncClient, path: str, loc: list[object]
) -> None:
    answer = await client.get(path)
    assert answer.status_code == 422, answer.text
    assert answer.headers["content-type"] == "application/problem+json"
    assert loc in [error["loc"] for error in answer.json()["errors"]], answer.json()


async def test_puzzles_answer_head_and_refuse_other_methods(client: httpx.AsyncClient) -> None:
    for path in ("/v1/puzzles", "/v1/puzzles/.....OOXXX", "/v1/puzzles/random?seed=1"):
        get, head = await client.get(path), await client.head(path)
        assert head.status_code == 200 and head.content == b""
        assert head.headers["content-length"] == get.headers["content-length"]
        post = await client.post(path, json={})
        assert post.status_code == 405
        assert "GET" in post.headers["allow"]
