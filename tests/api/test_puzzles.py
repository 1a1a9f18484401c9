"""``/v1/puzzles``: the standard game's whole set through the API against the independent coach oracle,
filters, cursors, single puzzles, random draws, caching, and bad queries; and every variant's book
through the API against its shipped file (which the game tests check against the book oracle):
pages, filters, puzzles by id, turned boards, random draws, and ``/v1/variants``."""

from __future__ import annotations

from collections import Counter
from itertools import permutations
from typing import Any

import httpx
import pytest

from tests.support import book_oracle as bo
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
        "variant": "standard",
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


# --- every variant's book ---------------------------------------------------------------------------

#: Every variant, as the contract lists them.
ALL = (*bo.COMPLETE, *bo.SELECTED)


def shipped(variant_id: str) -> list[dict[str, Any]]:
    """The puzzles of the variant's shipped book, in its order, as their JSON reads."""
    return [line.puzzle for line in bo.shipped(variant_id).lines]


def themes_of(info: dict[str, Any]) -> list[str]:
    """A variant's themes, from its entry in ``/v1/variants``: its tactics but those of where a move is."""
    return [tag for tag in info["tactics"] if tag not in bo.PLACES]


async def variant_infos(client: httpx.AsyncClient) -> dict[str, dict[str, Any]]:
    answer = await client.get("/v1/variants")
    assert answer.status_code == 200
    return {info["id"]: info for info in answer.json()["variants"]}


@pytest.mark.parametrize("variant_id", ALL)
async def test_every_book_page_by_page(client: httpx.AsyncClient, variant_id: str) -> None:
    found, pages = await every_page(client, variant=variant_id, limit=100)
    book = shipped(variant_id)
    assert pages == -(-len(book) // 100)
    assert [puzzle["id"] for puzzle in found] == [puzzle["id"] for puzzle in book]
    assert found == book


@pytest.mark.parametrize("variant_id", ALL)
async def test_every_books_filters(client: httpx.AsyncClient, variant_id: str) -> None:
    """Each theme of the variant, each outcome, and ratings from below and above, alone and together:
    what the pages give is the book filtered here."""
    book = shipped(variant_id)
    themes = themes_of((await variant_infos(client))[variant_id])
    ratings = sorted({puzzle["rating"] for puzzle in book})
    middle = ratings[len(ratings) // 2]
    queries: list[dict[str, Any]] = [
        *({"theme": theme} for theme in themes),
        {"outcome": "win"},
        {"outcome": "draw"},
        {"min_rating": middle},
        {"max_rating": middle},
        {"min_rating": ratings[1] if len(ratings) > 1 else 0, "max_rating": middle, "outcome": "win"},
        {"theme": themes[-1], "min_rating": middle},
    ]
    for query in queries:

        def matches(puzzle: dict[str, Any], query: dict[str, Any] = query) -> bool:
            return (
                ("theme" not in query or query["theme"] in puzzle["themes"])
                and ("outcome" not in query or puzzle["outcome"] == query["outcome"])
                and puzzle["rating"] >= query.get("min_rating", 0)
                and puzzle["rating"] <= query.get("max_rating", 10_000)
            )

        wanted = [puzzle["id"] for puzzle in book if matches(puzzle)]
        found, _ = await every_page(client, variant=variant_id, limit=100, **query)
        assert [puzzle["id"] for puzzle in found] == wanted, query
    assert any(puzzle["themes"] for puzzle in book)


@pytest.mark.parametrize("variant_id", ALL)
async def test_a_theme_of_another_variant_is_a_422_naming_the_variants_themes(
    client: httpx.AsyncClient, variant_id: str
) -> None:
    """A theme of the family that is not the variant's is refused, in both lists and draws: a 422 on
    ``theme`` that names the variant and its themes (its tactics but places, as /v1/variants lists them)."""
    infos = await variant_infos(client)
    mine = themes_of(infos[variant_id])
    others = sorted({theme for info in infos.values() for theme in themes_of(info)} - set(mine))
    assert others
    for theme in others:
        for path, extra in (("/v1/puzzles", {}), ("/v1/puzzles/random", {"seed": 1})):
            answer = await client.get(path, params={"variant": variant_id, "theme": theme, **extra})
            assert answer.status_code == 422, answer.text
            (error,) = answer.json()["errors"]
            assert (error["loc"], error["type"]) == (["query", "theme"], "theme_of_another_variant")
            assert (
                error["msg"] == f"{theme} is not a theme of {variant_id}, whose themes are {', '.join(mine)}"
            )


@pytest.mark.parametrize("variant_id", ALL)
async def test_puzzles_of_every_variant_by_their_ids(client: httpx.AsyncClient, variant_id: str) -> None:
    """A sample of each book (the first, the last, and about 60 between) by its id, without naming the
    variant; every other board alike to a puzzle's (turned, mirrored, and in Notakto its boards turned
    one by one and reordered) is a 404 that names the puzzle's id."""
    book = shipped(variant_id)
    rules = bo.rules_of(variant_id)
    sample = [*book[:: max(1, len(book) // 60)], book[-1]]
    turned_seen = 0
    for puzzle in sample:
        answer = await client.get(f"/v1/puzzles/{puzzle['id']}")
        assert answer.status_code == 200, answer.text
        assert answer.json() == puzzle
        board = puzzle["board"]
        parts = [rules.board(board, index) for index in range(rules.boards)]
        alike = {
            "".join(rules.images(part)[(turn + 3 * j) % 8] for j, part in enumerate(order))
            for order in permutations(parts)
            for turn in range(8)
        }
        for other in sorted(alike - {board})[:4]:
            turned_id = bo.puzzle_id(variant_id, rules, other, puzzle["player"])
            missing = await client.get(f"/v1/puzzles/{turned_id}")
            assert missing.status_code == 404, turned_id
            assert missing.headers["content-type"] == "application/problem+json"
            assert puzzle["id"] in missing.json()["detail"], missing.json()
            turned_seen += 1
    assert turned_seen >= len(sample)


@pytest.mark.parametrize(
    "puzzle_id", ["chess:.........X", "misère:.........X", ":.........X", "4x5:" + "." * 16]
)
async def test_an_id_of_an_unknown_variant_is_a_404(client: httpx.AsyncClient, puzzle_id: str) -> None:
    answer = await client.get(f"/v1/puzzles/{puzzle_id}")
    assert answer.status_code == 404
    assert answer.headers["content-type"] == "application/problem+json"
    assert "names no variant" in answer.json()["detail"]


@pytest.mark.parametrize("variant_id", ALL)
async def test_a_random_puzzle_of_every_variant(client: httpx.AsyncClient, variant_id: str) -> None:
    """Reproducible with a seed, a puzzle of the variant's book, as the book gives it."""
    by_id = {puzzle["id"]: puzzle for puzzle in shipped(variant_id)}
    drawn = set()
    for seed in range(30):
        params: dict[str, str | int] = {"variant": variant_id, "seed": seed}
        first, again = [await client.get("/v1/puzzles/random", params=params) for _ in range(2)]
        assert first.status_code == 200, first.text
        assert first.content == again.content
        puzzle = first.json()
        assert puzzle == by_id[puzzle["id"]]
        drawn.add(puzzle["id"])
    assert len(drawn) > min(10, len(by_id) // 2)


async def test_the_variants_list_gives_each_books_size(client: httpx.AsyncClient) -> None:
    infos = await variant_infos(client)
    assert list(infos) == list(ALL)
    for variant_id, info in infos.items():
        book = bo.shipped(variant_id)
        assert info["puzzles"] == len(book.lines), variant_id
        assert info["puzzles_complete"] is (book.found == len(book.lines)), variant_id
        assert info["puzzles_complete"] is (variant_id in bo.COMPLETE), variant_id
