"""The Python client (clients/python, ``tictactoe_client``) against a real uvicorn server on 127.0.0.1.

The sync and the async client are run through the same operations; the hand-written input types
are checked against the OpenAPI document, and the errors a program sees against real failures:
an error answer, a proxy's page, a port where nothing listens, a server that never answers. The
coach's operations (review, puzzles, rating) are checked against the service's other answers:
a review's judgements against the analysis of each position, a puzzle's solution against the
values of its moves, and every page of the puzzles against the total. A review is typed by its
variant: the two groups of variants are those ``GET /v1/variants`` lists by their sides, and
``mypy --strict`` passes programs of the standard game and of wild and Notakto written without
narrowing, and refuses the sides a variant has not. The sentences for people come in the language
of the client's ``lang`` or of a call's, sent as the API takes it (a query parameter, a body
member, the batch's and not its items'): each the service's own answer in that language, every
tag, id and number that of English.
"""

from __future__ import annotations

import asyncio
import json
import pydoc
import re
import socket
import sys
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, cast, get_args, get_type_hints

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
    LanguageInfo,
    LanguageList,
    Level,
    Mark,
    MarkedMove,
    MarkReview,
    MarkVariant,
    NotModified,
    Player,
    Puzzle,
    PuzzleOutcome,
    PuzzlePage,
    ReviewMove,
    ReviewResponse,
    ServiceError,
    Sides,
    Theme,
    Turn,
    TurnReview,
    TurnSides,
    TurnVariant,
    Variant,
    VariantInfo,
)

from tests.support import ROOT
from tests.support.commands import run
from tests.support.server import Server, free_port
from tests.support.tools import require_module

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
        methods = ("best_move", "get_best_move", "batch", "position", "analyze", "health", "review")
        for method in (*methods, "puzzles", "iter_puzzles", "puzzle", "random_puzzle", "languages"):
            assert f"{method}(" in text
        assert "lang" in text and "Accept-Language" in text


def test_the_input_types_are_the_documents() -> None:
    """The hand-written input types name the request schema's fields, optionality and enums: a batch
    item is the API's ``BestMoveItem``, the body of a best move but its ``lang`` (the batch's)."""
    request = SCHEMAS["BestMoveItem"]
    hints = get_type_hints(BestMoveItem)
    assert set(hints) == set(request["properties"])
    assert BestMoveItem.__required_keys__ == set(request["required"])
    assert set(SCHEMAS["BestMoveRequest"]["properties"]) == set(request["properties"]) | {"lang"}
    assert set(SCHEMAS["BatchRequest"]["properties"]) == {"items", "lang"}

    def enum(schema: dict[str, Any]) -> list[Any]:
        if "$ref" in schema:
            return enum(SCHEMAS[schema["$ref"].rsplit("/", 1)[1]])
        if schema.get("type") == "null":
            return [None]
        return schema["enum"] if "enum" in schema else [v for part in schema["anyOf"] for v in enum(part)]

    assert list(get_args(Player)) == [v for v in enum(request["properties"]["player"]) if v is not None]
    assert list(get_args(Variant)) == [v for v in enum(request["properties"]["variant"]) if v is not None]
    mark = SCHEMAS["BestMoveResponse"]["properties"]["mark"]
    assert list(get_args(Mark)) == [v for v in enum(mark) if v is not None]
    assert [*get_args(get_args(Level.__value__)[0])] == SCHEMAS["Level"]["enum"]
    for name, schema in request["properties"].items():
        nullable = any(part.get("type") == "null" for part in schema.get("anyOf", []))
        assert (type(None) in get_args(hints[name])) == nullable, name
    filters = {
        parameter["name"]: parameter["schema"]
        for parameter in DOCUMENT["paths"]["/v1/puzzles"]["get"]["parameters"]
    }
    assert list(get_args(Theme)) == [v for v in enum(filters["theme"]) if v is not None]
    assert list(get_args(PuzzleOutcome)) == [v for v in enum(filters["outcome"]) if v is not None]


def test_the_client_imports_nothing_of_the_service(tmp_path: Path) -> None:
    """A program's own ``service.py`` beside it does not disturb the client."""
    (tmp_path / "service.py").write_text("raise ImportError('the program\\'s own service module')\n")
    code = (
        "import sys, tictactoe_client\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in {'service', 'fastapi', 'starlette'}))\n"
    )
    result = run([sys.executable, "-c", code], cwd=tmp_path, timeout=60)
    assert result.stdout.strip() == "[]"


# --- the coach: review, puzzles, rating -----------------------------------------------------------

#: X takes a corner, O an edge (a blunder), X the center, O a corner (slower to lose), X wins.
GAME = [0, 1, 4, 2, 8]


def check_review(client: Client, review: ReviewResponse, moves: list[int]) -> None:
    """Each ply judged as the analysis of its position says, and each side summed up from its plies."""
    assert [ply.position for ply in review.plies] == moves
    assert [ply.ply for ply in review.plies] == list(range(1, len(moves) + 1))
    for ply in review.plies:
        analysis = client.analyze(ply.board_before)
        assert (ply.player, ply.best_moves, ply.score_before) == (
            analysis.player,
            analysis.best_moves,
            analysis.score,
        )
        (played,) = [move for move in analysis.moves if move.position == ply.position]
        assert (ply.score, ply.outcome, ply.plies_to_end) == (
            played.score,
            played.outcome,
            played.plies_to_end,
        )
        assert (ply.judgement == "best") == (ply.position in analysis.best_moves) == (ply.better is None)
        if ply.judgement == "blunder":
            assert ply.score == -1 < analysis.score  # type: ignore[operator]
        if ply.better is not None:
            assert ply.better.position == client.best_move(ply.board_before).position
            assert ply.better.position in analysis.best_moves
        keeping = [move for move in analysis.moves if move.score == analysis.score]
        assert ply.only_move == (len(analysis.moves) >= 2 and [m.position for m in keeping] == [ply.position])
    final = client.analyze(review.plies[-1].board_after)
    assert (review.status, review.winner) == (final.status, final.winner)
    assert isinstance(review.players, Sides)
    for mark, side in (("X", review.players.X), ("O", review.players.O)):
        mine = [ply for ply in review.plies if ply.player == mark]
        assert side.moves == len(mine)
        counts = side.judgements
        assert (counts.best, counts.inaccuracy, counts.mistake, counts.blunder) == tuple(
            sum(ply.judgement == name for ply in mine)
            for name in ("best", "inaccuracy", "mistake", "blunder")
        )
        assert side.only_moves == sum(ply.only_move for ply in mine)
        if mine:
            assert side.accuracy == round(100 * counts.best / len(mine), 1)
            assert side.level_likelihoods is not None and side.level in side.level_likelihoods
            assert side.level_likelihoods[side.level] == max(side.level_likelihoods.values())
        else:
            assert (side.accuracy, side.level, side.rating, side.level_likelihoods) == (
                None,
                None,
                None,
                None,
            )


def test_review_judges_every_move_as_the_analysis_does(live_server: Server) -> None:
    with Client(live_server.url) as client:
        review = client.review(GAME)
        assert isinstance(review, ReviewResponse)
        assert (review.board, review.player, review.status, review.winner) == (".........", "X", "x_won", "X")
        check_review(client, review, GAME)
        assert [ply.judgement for ply in review.plies].count("best") == 3  # X never errs
        # From a board of the user's, in rows, with O to move first: O's only move is the block.
        start = [["X", "X", ""], ["", "O", ""], ["", "", ""]]
        from_rows = client.review([2, 6, 3], start, "O")
        assert (from_rows.board, from_rows.player) == ("XX..O....", "O")
        check_review(client, from_rows, [2, 6, 3])
        assert from_rows.plies[0].only_move and from_rows.plies[0].judgement == "best"
        one = client.review((4,))
        check_review(client, one, [4])
        assert isinstance(one.players, Sides)
        assert one.status == "in_progress" and one.players.O.moves == 0


def test_an_illegal_move_of_a_review_is_located_at_its_index(live_server: Server) -> None:
    with Client(live_server.url) as client:
        assert refusal(lambda: client.review([0, 1, 4, 4])) == ["body", "moves", 3]
        assert refusal(lambda: client.review([0, 3, 1, 4, 2, 5])) == ["body", "moves", 5]  # after X won
        assert refusal(lambda: client.review([0], "XX.OO....", "O")) == ["body", "moves", 0]  # X's cell
        with pytest.raises(ServiceError) as caught:
            client.review([0, 1, 4, 4])
        assert caught.value.problem.errors is not None
        assert "taken" in caught.value.problem.errors[0].msg
        assert refusal(lambda: client.review([0], "XXXOO....")) == ["body", "board"]


def pages(client: Client, limit: int, **filters: Any) -> list[PuzzlePage]:
    """Every page of the puzzles that match ``filters``, following each page's cursor."""
    found: list[PuzzlePage] = []
    cursor: str | None = None
    while True:
        page = client.puzzles(limit=limit, cursor=cursor, **filters).value
        found.append(page)
        if page.next is None:
            return found
        cursor = page.next


def test_every_page_of_the_puzzles_once(live_server: Server) -> None:
    with Client(live_server.url) as client:
        every = pages(client, 100)
        total = every[0].total
        ids = [puzzle.id for page in every for puzzle in page.puzzles]
        assert len(set(ids)) == len(ids) == total > 0
        assert all(page.total == total for page in every)
        assert all(len(page.puzzles) == 100 for page in every[:-1]) and 1 <= len(every[-1].puzzles) <= 100
        assert len(every) == -(-total // 100)
        ordered = [puzzle for page in every for puzzle in page.puzzles]
        assert [(p.rating, p.id) for p in ordered] == sorted((p.rating, p.id) for p in ordered)
        assert list(client.iter_puzzles(limit=100)) == ordered
        assert [p.id for p in client.iter_puzzles(limit=37)] == ids  # other pages, the same puzzles
        # Filters: each page holds only matches, and the matches are every puzzle that fits.
        queries: list[dict[str, Any]] = [
            {"theme": "fork"},
            {"outcome": "win"},
            {"outcome": "draw", "min_rating": 100, "max_rating": 400},
        ]
        for filters in queries:
            matching = [p for page in pages(client, 50, **filters) for p in page.puzzles]
            fits = [
                p
                for p in ordered
                if ("theme" not in filters or filters["theme"] in p.themes)
                and ("outcome" not in filters or p.outcome == filters["outcome"])
                and filters.get("min_rating", 0) <= p.rating <= filters.get("max_rating", p.rating)
            ]
            assert matching == fits and fits, filters
            assert client.puzzles(limit=1, **filters).value.total == len(fits)


@pytest.mark.anyio
async def test_every_page_through_the_async_client(live_server: Server) -> None:
    with Client(live_server.url) as client:
        expected = list(client.iter_puzzles(theme="block", limit=100))
    async with AsyncClient(live_server.url) as client:
        assert [puzzle async for puzzle in client.iter_puzzles(theme="block", limit=7)] == expected
        first = await client.puzzles(theme="block", limit=7)
        assert isinstance(first, Fetched) and first.value.puzzles == expected[:7]
        assert isinstance(await client.puzzles(theme="block", limit=7, if_none_match=first.etag), NotModified)
        one = await client.puzzle(expected[0].id)
        assert one.value == expected[0]
        assert isinstance(await client.puzzle(expected[0].id, if_none_match=one.etag), NotModified)
        drawn = await client.random_puzzle(5, theme="block")
        assert "block" in drawn.value.themes and drawn.value in expected
        with pytest.raises(ServiceError) as caught:
            await client.puzzle("XXXXXXXXXO")
        assert caught.value.status == 404
        review = await client.review(GAME)
    with Client(live_server.url) as client:
        assert review == client.review(GAME)


def test_a_puzzle_has_exactly_one_move_that_keeps_its_outcome(live_server: Server) -> None:
    with Client(live_server.url) as client:
        first = client.puzzles(limit=20).value.puzzles
        for puzzle in first[::5] + [client.random_puzzle(seed).value for seed in range(5)]:
            analysis = client.analyze(puzzle.board, puzzle.player)
            keeping = [move.position for move in analysis.moves if move.outcome == puzzle.outcome]
            assert keeping == [puzzle.solution] and len(analysis.moves) >= 2, puzzle.id
            assert puzzle.id == puzzle.board + puzzle.player
            assert analysis.outcome == puzzle.outcome and analysis.plies_to_end == puzzle.plies_to_end


def test_one_puzzle_and_a_random_one_cacheable(live_server: Server) -> None:
    with Client(live_server.url) as client:
        listed = client.puzzles(limit=3)
        assert isinstance(listed, Fetched) and listed.etag
        assert isinstance(client.puzzles(limit=3, if_none_match=listed.etag), NotModified)
        assert isinstance(client.puzzles(limit=4, if_none_match=listed.etag), Fetched)
        wanted = listed.value.puzzles[1]
        one = client.puzzle(wanted.id)
        assert isinstance(one.value, Puzzle) and one.value == wanted and one.etag
        assert isinstance(client.puzzle(wanted.id, if_none_match=one.etag), NotModified)
        drawn = client.random_puzzle(42)
        assert drawn.etag and drawn == client.random_puzzle(seed=42)
        assert isinstance(client.random_puzzle(42, if_none_match=drawn.etag), NotModified)
        assert client.puzzle(drawn.value.id).value == drawn.value
        assert client.random_puzzle().etag is None  # drawn anew each time: nothing to cache
        hard = client.random_puzzle(7, theme="fork", min_rating=300)
        assert "fork" in hard.value.themes and hard.value.rating >= 300
        ratings = {client.random_puzzle(seed, max_rating=100).value.rating for seed in range(10)}
        assert max(ratings) <= 100


def test_the_puzzles_of_every_variant(live_server: Server) -> None:
    """``variant`` on ``puzzles``, ``iter_puzzles`` and ``random_puzzle``: each variant's book (as many
    as ``GET /v1/variants`` says), its ids, themes and scale; wild's solutions with their mark and
    Notakto's with their grid, each the only move that keeps the outcome; any puzzle found by its id
    alone; ``None`` the standard game's book."""
    with Client(live_server.url) as client:
        standard = client.puzzles(limit=5)
        assert standard == client.puzzles(variant=None, limit=5)
        assert standard.value == client.puzzles(variant="standard", limit=5).value
        for info in client.variants():
            page = client.puzzles(variant=info.id, limit=5).value
            assert page.total == info.puzzles, info.id
            themes = [tag for tag in info.tactics if tag in get_args(Theme)]
            for puzzle in page.puzzles:
                assert puzzle.variant == info.id
                assert info.id == "standard" or puzzle.id.startswith(f"{info.id}:")
                assert set(puzzle.themes) <= set(themes), puzzle.id
                assert info.rating_max is None or puzzle.rating <= info.rating_max
                assert client.puzzle(puzzle.id).value == puzzle
            if not page.puzzles:
                continue
            drawn = client.random_puzzle(6, variant=info.id).value
            assert drawn == client.random_puzzle(seed=6, variant=info.id).value and drawn.variant == info.id
            analysis = client.analyze(drawn.board, drawn.player, variant=info.id)
            keeping = [(move.position, move.mark) for move in analysis.moves if move.outcome == drawn.outcome]
            assert keeping == [(drawn.solution, drawn.mark)], drawn.id
            assert (drawn.mark is not None) == (info.marks == "either")
            assert drawn.grid == (drawn.solution // 9 if info.marks == "x_only" else None)
        # Filters within a variant: its own themes, its own scale.
        squeezes = list(client.iter_puzzles(variant="misere", theme="squeeze", outcome="win", limit=100))
        assert squeezes and all("squeeze" in p.themes and p.outcome == "win" for p in squeezes)
        assert len(squeezes) == client.puzzles(variant="misere", theme="squeeze", outcome="win").value.total
        top = client.random_puzzle(1, variant="4x4-3", min_rating=500).value
        assert top.rating >= 500 and top.variant == "4x4-3"  # above the standard game's whole scale
        with pytest.raises(ServiceError) as caught:
            client.random_puzzle(1, variant="misere", theme="fork")  # a theme of another variant
        assert caught.value.status == 422 and "squeeze" in str(caught.value.problem.errors)
        assert refusal(lambda: client.puzzles(variant=cast(Variant, "chess"))) == ["query", "variant"]


@pytest.mark.anyio
async def test_the_puzzles_of_a_variant_through_the_async_client(live_server: Server) -> None:
    with Client(live_server.url) as client:
        expected = list(client.iter_puzzles(variant="notakto-2", theme="hand_over", limit=100))
        drawn = client.random_puzzle(9, variant="wild", theme="squeeze")
    async with AsyncClient(live_server.url) as client:
        listed = [p async for p in client.iter_puzzles(variant="notakto-2", theme="hand_over", limit=7)]
        assert listed == expected and expected
        first = await client.puzzles(variant="notakto-2", theme="hand_over", limit=7)
        assert isinstance(first, Fetched) and first.value.puzzles == expected[:7]
        again = await client.puzzles(
            variant="notakto-2", theme="hand_over", limit=7, if_none_match=first.etag
        )
        assert isinstance(again, NotModified)
        assert await client.random_puzzle(9, variant="wild", theme="squeeze") == drawn
        assert isinstance(
            await client.random_puzzle(9, variant="wild", theme="squeeze", if_none_match=drawn.etag),
            NotModified,
        )


def test_puzzle_errors(live_server: Server) -> None:
    with Client(live_server.url) as client:
        for unknown in ("XXXXXXXXXO", "nothing", ".", ".."):  # not the list, nor the folder above
            with pytest.raises(ServiceError) as caught:
                client.puzzle(unknown)
            assert (caught.value.status, caught.value.problem.type) == (404, "/problems/not-found")
            detail = caught.value.problem.detail
            assert unknown in detail or "10 characters" in detail or "9 cells then the side to move" in detail
        with pytest.raises(ServiceError) as caught:
            client.random_puzzle(1, min_rating=10**6)
        assert caught.value.status == 404
        assert refusal(lambda: client.random_puzzle(min_rating=300, max_rating=100)) == [
            "query",
            "max_rating",
        ]
        assert refusal(lambda: client.puzzles(limit=0)) == ["query", "limit"]
        assert refusal(lambda: client.puzzles(cursor="XXXXXXXXXO")) == ["query", "cursor"]


@pytest.mark.anyio
async def test_a_rating_on_best_moves_and_batch_items(live_server: Server) -> None:
    board = "XX..O...."  # O must block: every other move loses
    with Client(live_server.url) as client:
        perfect = client.analyze(board).best_moves
        assert perfect == [2]
        strongest = [client.best_move(board, rating=493, seed=seed) for seed in range(8)]
        assert all(move.optimal and move.position in perfect for move in strongest)
        weakest = [client.best_move(board, rating=0, seed=seed) for seed in range(30)]
        assert not all(move.optimal for move in weakest)  # a random player, seeded
        middle = client.best_move(board, rating=250.5, seed=9)
        assert middle == client.best_move(board, rating=250.5, seed=9)  # reproducible
        items: list[BestMoveItem] = [{"board": board, "rating": 250.5, "seed": 9}, {"board": "........."}]
        assert client.batch(items)[0] == middle
        for conflict in ("level", "depth", "skill"):
            options: dict[str, Any] = {"level": "easy", "depth": 2, "skill": 0.5}
            with pytest.raises(ServiceError) as caught:
                client.best_move(board, rating=100, **{conflict: options[conflict]})
            assert caught.value.problem.errors is not None
            (fault,) = caught.value.problem.errors
            assert fault.loc in (["body", "rating"], ["body", conflict])
            assert "rating" in fault.msg and conflict in fault.msg
        assert refusal(lambda: client.best_move(board, rating=494)) == ["body", "rating"]
    async with AsyncClient(live_server.url) as client:
        assert await client.best_move(board, rating=250.5, seed=9) == middle
        with pytest.raises(ServiceError) as caught:
            await client.batch([{"board": board}, {"board": board, "rating": 100, "level": "hard"}])
        assert caught.value.problem.errors is not None
        assert caught.value.problem.errors[0].loc == ["body", "items", 1, "rating"]


# --- the variants ----------------------------------------------------------------------------------


def test_variants_on_every_method_that_takes_a_board(live_server: Server) -> None:
    """``variant`` reaches the service on every method that takes a board, sync and async, and
    ``variants()`` gives the typed list the service serves."""
    listed = httpx.get(f"{live_server.url}/v1/variants").json()["variants"]
    with Client(live_server.url) as client:
        variants = client.variants()
        assert all(isinstance(variant, VariantInfo) for variant in variants)
        assert [variant.model_dump(mode="json") for variant in variants] == listed
        assert [variant.id for variant in variants] == list(get_args(Variant))
        wild = client.best_move("X...O....", variant="wild")
        assert (wild.player, wild.mark) == ("first", "X")
        notakto = client.best_move("X...X........X....", "second", variant="notakto-2")
        assert (notakto.grid, notakto.position) == (0, 8)
        fetched = client.get_best_move("X....O..........", variant="4x4")
        assert fetched.value.board == "X....O.........." and fetched.value.grid is None
        assert isinstance(
            client.get_best_move("X....O..........", variant="4x4", if_none_match=fetched.etag), NotModified
        )
        position = client.position("XO.X.OX..", variant="wild")
        assert (position.value.status, position.value.winner) == ("first_won", "first")
        assert client.analyze("XX.OO...........", variant="4x4-3").best_moves == [2]
        misere = client.best_move("X...O....", variant="misere")
        standard = client.best_move("X...O....")
        items: list[BestMoveItem] = [{"board": "X...O....", "variant": "misere"}, {"board": "X...O...."}]
        assert [answer.position for answer in client.batch(items)] == [misere.position, standard.position]
        # A rating a variant cannot play: in one whose levels are not calibrated, or above its own
        # scale's top (rating_max) where they are: a 422 that names the field.
        four = next(info for info in client.variants() if info.id == "4x4")
        beyond = 200 if not four.rated or four.rating_max is None else four.rating_max + 1
        with pytest.raises(ServiceError) as refused:
            client.best_move("X...O...........", variant="4x4", rating=beyond)
        assert refused.value.status == 422
        assert refused.value.problem.errors and refused.value.problem.errors[0].loc[-1] == "rating"

    async def both() -> tuple[list[VariantInfo], BestMoveResponse, AnalysisResponse]:
        async with AsyncClient(live_server.url) as client:
            fetched = await client.position("X...O....", variant="misere")
            assert fetched.value.player == "X"
            move = await client.get_best_move("....X....", variant="notakto")
            assert move.value.player == "second"
            return (
                await client.variants(),
                await client.best_move("X...O....", variant="wild"),
                await client.analyze("X........", "second", variant="notakto"),
            )

    variants_async, wild_async, analysis = asyncio.run(both())
    assert variants_async == variants and wild_async == wild
    assert analysis.player == "second"


#: Games of the variants, as the client takes them and as the API's body has them: wild's moves with
#: their marks (a pair and a ``MarkedMove``), Notakto on two boards (X takes both centres, then a corner
#: of each board), and a 4×4 game X wins along the top row.
VARIANT_GAMES: list[tuple[Variant, list[ReviewMove], list[Any]]] = [
    (
        "wild",
        [(4, "X"), MarkedMove(position=0, mark="O"), (8, "X")],
        [{"position": 4, "mark": "X"}, {"position": 0, "mark": "O"}, {"position": 8, "mark": "X"}],
    ),
    ("notakto-2", [4, 13, 0, 9], [4, 13, 0, 9]),
    ("4x4", [0, 5, 1, 6, 2, 7, 3], [0, 5, 1, 6, 2, 7, 3]),
]


def test_reviews_in_the_variants_are_the_services(live_server: Server) -> None:
    """A review of each variant, with its moves in the client's forms, is the service's answer to the
    same game sent raw; wild's marks come back on each ply, Notakto's boards as ``grid``, and the
    sides are ``TurnSides`` in wild and Notakto, ``Sides`` elsewhere."""
    with Client(live_server.url) as client:
        reviews: dict[str, ReviewResponse] = {}
        for variant, moves, body in VARIANT_GAMES:
            review = client.review(moves, variant=variant)
            raw = httpx.post(f"{live_server.url}/v1/review", json={"variant": variant, "moves": body})
            assert raw.status_code == 200, raw.text
            assert review.model_dump(mode="json", exclude_unset=True) == raw.json(), variant
            assert len(review.plies) == len(moves)
            for ply in review.plies:
                assert ply.judgement in ("best", "inaccuracy", "mistake", "blunder")
                assert (ply.judgement == "best") == (ply.better is None)
                if ply.judgement == "best":  # in wild a best cell may take the other mark
                    assert ply.position in ply.best_moves
            reviews[variant] = review

        wild = reviews["wild"]
        assert (wild.board, wild.player) == (".........", "first")
        assert [(ply.player, ply.position, ply.mark) for ply in wild.plies] == [
            ("first", 4, "X"),
            ("second", 0, "O"),
            ("first", 8, "X"),
        ]
        assert wild.plies[-1].board_after == "O...X...X"
        assert all(ply.better.mark in ("X", "O") for ply in wild.plies if ply.better is not None)
        assert all(ply.grid is None for ply in wild.plies)
        assert isinstance(wild.players, TurnSides) and not isinstance(wild.players, Sides)
        assert (wild.players.first.moves, wild.players.second.moves) == (2, 1)
        # A side's rating is on wild's own scale where its levels are calibrated (rated), else None.
        wild_rated = next(info for info in client.variants() if info.id == "wild").rated
        assert (wild.players.first.rating is not None) == wild_rated and wild.players.first.level is not None

        notakto = reviews["notakto-2"]
        assert notakto.board == "." * 18
        assert [(ply.player, ply.grid, ply.mark) for ply in notakto.plies] == [
            ("first", 0, None),
            ("second", 1, None),
            ("first", 0, None),
            ("second", 1, None),
        ]
        assert notakto.plies[-1].board_after == "X...X....X...X...."
        assert isinstance(notakto.players, TurnSides)
        assert notakto.players.second.moves == 2

        four = reviews["4x4"]
        assert (four.board, four.player, four.status, four.winner) == ("." * 16, "X", "x_won", "X")
        assert isinstance(four.players, Sides)
        assert (four.players.X.moves, four.players.O.moves) == (4, 3)
        four_rated = next(info for info in client.variants() if info.id == "4x4").rated
        assert (four.players.X.rating is not None) == four_rated  # on 4x4's own scale where rated
        assert four.plies[-1].only_move and four.plies[-1].judgement == "best"

        # From a board and a side to move of wild's own; a pair and a MarkedMove are the same move.
        from_board = client.review([(8, "O")], "X...O....", "first", variant="wild")
        assert from_board == client.review([MarkedMove(position=8, mark="O")], "X...O....", variant="wild")
        (ply,) = from_board.plies
        assert (ply.mark, ply.judgement, ply.outcome) == ("O", "mistake", "draw")
        assert ply.better is not None and (ply.better.position, ply.better.mark) == (8, "X")

    async def sync_and_async() -> list[ReviewResponse]:
        async with AsyncClient(live_server.url) as client:
            return [await client.review(moves, variant=variant) for variant, moves, _ in VARIANT_GAMES]

    assert asyncio.run(sync_and_async()) == list(reviews.values())


def test_a_move_of_a_variant_review_that_cannot_be_played_is_located_at_its_index(
    live_server: Server,
) -> None:
    with Client(live_server.url) as client:
        assert refusal(lambda: client.review([(4, "X"), 0], variant="wild")) == ["body", "moves", 1]
        assert refusal(lambda: client.review([(4, "X"), (4, "O")], variant="wild")) == ["body", "moves", 1]
        assert refusal(lambda: client.review([4, (0, "O")])) == ["body", "moves", 1]  # marks are wild's
        assert refusal(lambda: client.review([0, 1, 2, 3], variant="notakto-2")) == ["body", "moves", 3]
        assert refusal(lambda: client.review([0, 16], variant="4x4")) == ["body", "moves", 1]
        assert refusal(lambda: client.review([9], variant="misere")) == ["body", "moves", 0]
        with pytest.raises(ServiceError) as caught:
            client.review([0, 1, 2, 3], variant="notakto-2")
        assert caught.value.problem.errors is not None
        assert "line" in caught.value.problem.errors[0].msg  # the board of cell 3 is dead
        # A pair that is not a cell and a mark is the caller's mistake, named by its index.
        with pytest.raises(TypeError, match=r"moves\[1\]"):
            client.review([(4, "X"), cast(Any, (0,))], variant="wild")


# --- reviews typed by their variant -----------------------------------------------------------------


def test_the_variant_groups_are_the_services(live_server: Server) -> None:
    """``MarkVariant`` is every variant whose ``marks`` is ``own`` in ``GET /v1/variants`` and
    ``TurnVariant`` every other one; a review in each is parsed as its group's model (sync and
    async), whose sides are those the service gives, and no review of a variant's game parses as
    the other group's."""
    listed = httpx.get(f"{live_server.url}/v1/variants").json()["variants"]
    own = [variant["id"] for variant in listed if variant["marks"] == "own"]
    others = [variant["id"] for variant in listed if variant["marks"] != "own"]
    assert own and others
    assert list(get_args(MarkVariant)) == own
    assert list(get_args(TurnVariant)) == others
    assert list(get_args(Variant)) == [variant["id"] for variant in listed]
    assert list(get_args(Turn)) == ["first", "second"]

    def moves(info: VariantInfo) -> list[ReviewMove]:
        return [(4, "X"), (0, "O")] if info.marks == "either" else [4, 0]

    with Client(live_server.url) as client:
        variants = client.variants()
        assert client.review([4, 0]) == client.review([4, 0], variant="standard")
        assert isinstance(client.review([4, 0]), MarkReview)
        for info in variants:
            review = client.review(moves(info), variant=info.id)
            raw = httpx.post(
                f"{live_server.url}/v1/review",
                json={"variant": info.id, "moves": [move_body(move) for move in moves(info)]},
            ).json()
            assert review.model_dump(mode="json", exclude_unset=True) == raw, info.id
            assert ReviewResponse.model_validate(raw).model_dump() == review.model_dump(), info.id
            if info.marks == "own":
                assert type(review) is MarkReview and isinstance(review.players, Sides), info.id
                assert {review.player, *(ply.player for ply in review.plies)} <= set(get_args(Mark))
                wrong: type[ReviewResponse] = TurnReview
            else:
                assert type(review) is TurnReview and isinstance(review.players, TurnSides), info.id
                assert [ply.player for ply in review.plies] == ["first", "second"]
                wrong = MarkReview
            with pytest.raises(pydantic.ValidationError):
                wrong.model_validate(raw)

    async def reviewed() -> list[type[ReviewResponse]]:
        async with AsyncClient(live_server.url) as client:
            return [type(await client.review(moves(info), variant=info.id)) for info in variants]

    assert asyncio.run(reviewed()) == [MarkReview if info.marks == "own" else TurnReview for info in variants]


def move_body(move: ReviewMove) -> int | dict[str, Any]:
    """A review's move as the API's body has it."""
    if isinstance(move, int):
        return move
    position, mark = (move.position, move.mark) if isinstance(move, MarkedMove) else move
    return {"position": position, "mark": mark}


#: A program of the standard game as it was written before the variants: it names no variant (or a
#: variant whose sides are marks too), and reads the review's sides and marks without narrowing.
STANDARD_PROGRAM = """\
from typing import Literal

from tictactoe_client import AsyncClient, Client, Mark, ReviewResponse, SideReview, Sides


def weakest(client: Client) -> str | None:
    review = client.review([0, 1, 4, 2, 8])
    return review.players.O.level


def first_mover(client: Client) -> Mark:
    return client.review([4, 0]).player


def movers(client: Client) -> list[Mark]:
    return [ply.player for ply in client.review([4, 0, 8], "X........", "X").plies]


def winner(client: Client) -> Mark | None:
    return client.review([0, 3, 1, 4, 2]).winner


def status(client: Client) -> Literal["in_progress", "x_won", "o_won", "draw"]:
    return client.review([4], variant=None).status


def other_games(client: Client) -> list[SideReview]:
    misere: Sides = client.review([4], variant="misere").players
    return [misere.X, client.review([0, 5], variant="4x4").players.O]


def annotated(client: Client) -> ReviewResponse:
    review: ReviewResponse = client.review([4])
    return review


async def accuracy(client: AsyncClient) -> tuple[float | None, Mark]:
    review = await client.review([0, 1, 4, 2, 8])
    return review.players.X.accuracy, review.plies[0].player
"""

#: A program of wild and Notakto: the sides by their turn, without narrowing; and one of a variant
#: known only at run time, which narrows.
TURN_PROGRAM = """\
from tictactoe_client import AsyncClient, Client, MarkedMove, SideReview, Sides, Turn, Variant


def wild(client: Client) -> tuple[SideReview, SideReview]:
    review = client.review([(4, "X"), MarkedMove(position=0, mark="O")], variant="wild")
    return review.players.first, review.players.second


def turns(client: Client) -> list[Turn]:
    review = client.review([4, 13], variant="notakto-2")
    return [review.player, *(ply.player for ply in review.plies)]


def winner(client: Client) -> Turn | None:
    return client.review([11], "XXX......XX.X.X...", variant="notakto-2").winner


async def level(client: AsyncClient) -> str | None:
    return (await client.review([(4, "X")], variant="wild")).players.second.level


def any_variant(client: Client, variant: Variant) -> SideReview:
    players = client.review([4], variant=variant).players
    return players.X if isinstance(players, Sides) else players.first
"""

#: Mistakes mypy --strict must find: each marked line, with the error code and what it says.
WRONG_PROGRAM = """\
from tictactoe_client import Client, Mark, Variant

client = Client()
wild = client.review([(4, "X")], variant="wild")
print(wild.players.O.level)  # [attr-defined] "TurnSides" has no attribute "O"
mark: Mark = wild.player  # [assignment] expression has type "Literal['first', 'second']"
print(client.review([4]).players.first)  # [attr-defined] "Sides" has no attribute "first"
print(client.review([4, 0], variant="notakto").players.X)  # [attr-defined] "TurnSides" has no attribute
marks: list[Mark] = [ply.player for ply in wild.plies]  # [misc] List comprehension has incompatible type


def unknown(variant: Variant) -> int:
    return client.review([4], variant=variant).players.O.moves  # [union-attr] Item "TurnSides" of
"""
MYPY_ERROR = re.compile(
    r"^(?P<file>[\w.]+):(?P<line>\d+): error: (?P<message>.*)  \[(?P<code>[\w-]+)\]$", re.M
)
MYPY_MARK = re.compile(r"  # \[(?P<code>[\w-]+)\] (?P<message>.+)$")


def test_mypy_strict_types_a_review_by_its_variant(tmp_path: Path) -> None:
    """Under ``mypy --strict`` (no plugin, no configuration of the project's): a program of the
    standard game reads ``review.players.O`` and the review's marks as it did before the variants,
    one of wild and Notakto reads ``players.first``, and a wild review's ``players.O`` (and the
    other mistakes marked in :data:`WRONG_PROGRAM`) are refused, exactly there."""
    require_module("mypy")
    programs = {"standard.py": STANDARD_PROGRAM, "turns.py": TURN_PROGRAM, "wrong.py": WRONG_PROGRAM}
    for name, text in programs.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "mypy.ini").write_text("[mypy]\n", encoding="utf-8")  # none of the project's
    command = [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "cache"), *programs]
    result = run(command, cwd=tmp_path, timeout=300, check=False)
    found = {
        (match["file"], int(match["line"]), match["code"]): match["message"]
        for match in MYPY_ERROR.finditer(result.stdout)
    }
    assert result.returncode == 1 and result.stdout.count(": error:") == len(found), result.output
    marked = {
        ("wrong.py", number, match["code"]): match["message"]
        for number, line in enumerate(WRONG_PROGRAM.splitlines(), 1)
        if (match := MYPY_MARK.search(line))
    }
    assert len(marked) >= 6
    assert set(found) == set(marked), result.stdout
    for where, message in marked.items():
        assert message in found[where], (where, found[where])


# --- languages ----------------------------------------------------------------------------------------


class Recording(httpx.HTTPTransport):
    """httpx's transport, keeping each request's path, query and JSON body."""

    def __init__(self) -> None:
        super().__init__()
        self.sent: list[tuple[str, dict[str, str], Any]] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content) if request.content else None
        self.sent.append((request.url.path, dict(request.url.params), body))
        return super().handle_request(request)


def said(url: str, method: str, path: str, lang: str, **fields: Any) -> Any:
    """The service's own answer in ``lang`` (its ``lang`` sent as a query parameter or a body
    member), checked to say so in ``Content-Language``."""
    if method == "GET":
        answer = httpx.get(f"{url}{path}", params={**fields, "lang": lang})
    else:
        answer = httpx.post(f"{url}{path}", json={**fields, "lang": lang})
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-language"] == lang
    return answer.json()


def test_a_reason_in_spanish_is_the_same_move(live_server: Server) -> None:
    """``lang="es"``: the reason in Spanish, the service's own; the move, its tactics and every other
    field those of English."""
    with Client(live_server.url) as client:
        english = client.best_move("XX..O....", level="medium", seed=5)
        spanish = client.best_move("XX..O....", level="medium", seed=5, lang="es")
    body = {"board": "XX..O....", "level": "medium", "seed": 5}
    assert spanish.reason == said(live_server.url, "POST", "/v1/best-move", "es", **body)["reason"]
    assert spanish.reason != english.reason and english.reason.startswith("Blocks X's top row")
    assert (spanish.position, spanish.tactics) == (english.position, english.tactics) == (2, english.tactics)
    assert spanish.model_dump(exclude={"reason"}) == english.model_dump(exclude={"reason"})


def test_the_clients_lang_goes_with_every_call_and_a_calls_lang_over_it(live_server: Server) -> None:
    """``Client(lang="es")``: every call that answers sentences sends ``lang=es`` (a ``GET``'s query, a
    ``POST``'s body, a batch's body beside its items), and answers in Spanish; a call's ``lang``
    replaces it for that call; ``languages`` and ``health`` send none."""
    url = live_server.url
    transport = Recording()
    with Client(url, lang="es", transport=transport) as client:
        assert client.lang == "es" and "lang='es'" in repr(client)
        move = client.best_move("X........")
        german = client.best_move("X........", lang="de")
        fetched = client.get_best_move("X.O...X..", "O")
        position = client.position("XX.OO....", variant="misere")
        analysis = client.analyze("XX.OO....", lang="fr")
        review = client.review([0, 4, 8, 2, 6, 3, 1])
        batch = client.batch([{"board": "XX..O....", "level": "medium", "seed": 5}, {"board": "X........"}])
        portuguese = client.batch([{"board": "X........"}], lang="pt")
        variants = client.variants()
        page = client.puzzles(theme="fork", limit=3)
        puzzle = client.puzzle(page.value.puzzles[0].id, lang="de")
        drawn = client.random_puzzle(5, theme="block")
        every = list(client.iter_puzzles(theme="fork", limit=100, lang="fr"))
        listed = client.languages()
        client.health()
    sent = transport.sent
    assert sent[0] == ("/v1/best-move", {}, {"board": "X........", "lang": "es"})
    assert sent[1] == ("/v1/best-move", {}, {"board": "X........", "lang": "de"})
    assert sent[2] == ("/v1/best-move", {"board": "X.O...X..", "player": "O", "lang": "es"}, None)
    assert sent[3] == ("/v1/positions/XX.OO....", {"variant": "misere", "lang": "es"}, None)
    assert sent[4] == ("/v1/analysis", {}, {"board": "XX.OO....", "lang": "fr"})
    assert sent[5] == ("/v1/review", {}, {"moves": [0, 4, 8, 2, 6, 3, 1], "lang": "es"})
    batch_body = {"items": [{"board": "XX..O....", "level": "medium", "seed": 5}, {"board": "X........"}]}
    assert sent[6] == ("/v1/best-move/batch", {}, {**batch_body, "lang": "es"})
    assert sent[7] == ("/v1/best-move/batch", {}, {"items": [{"board": "X........"}], "lang": "pt"})
    assert sent[8] == ("/v1/variants", {"lang": "es"}, None)
    assert sent[9] == ("/v1/puzzles", {"theme": "fork", "limit": "3", "lang": "es"}, None)
    assert sent[10] == (f"/v1/puzzles/{page.value.puzzles[0].id}", {"lang": "de"}, None)
    assert sent[11] == ("/v1/puzzles/random", {"seed": "5", "theme": "block", "lang": "es"}, None)
    assert all(query.get("lang") == "fr" for path, query, _ in sent[12:-2] if path == "/v1/puzzles")
    assert sent[-2:] == [("/v1/languages", {}, None), ("/health", {}, None)]

    # Each answer is the service's own in its language.
    assert move.reason == said(url, "POST", "/v1/best-move", "es", board="X........")["reason"]
    assert german.reason == said(url, "POST", "/v1/best-move", "de", board="X........")["reason"]
    assert german.reason != move.reason and german.position == move.position
    assert fetched.language == "es"
    assert (
        fetched.value.reason
        == said(url, "GET", "/v1/best-move", "es", board="X.O...X..", player="O")["reason"]
    )
    assert position.language == "es"
    assert position.value == AnalysisResponse.model_validate(
        said(url, "GET", "/v1/positions/XX.OO....", "es", variant="misere")
    )
    assert analysis == AnalysisResponse.model_validate(
        said(url, "POST", "/v1/analysis", "fr", board="XX.OO....")
    )
    raw_review = said(url, "POST", "/v1/review", "es", moves=[0, 4, 8, 2, 6, 3, 1])
    assert review.model_dump(mode="json", exclude_unset=True) == raw_review
    assert any(ply.better is not None for ply in review.plies)
    raw_batch = said(url, "POST", "/v1/best-move/batch", "es", **batch_body)["results"]
    assert [answer.reason for answer in batch] == [answer["reason"] for answer in raw_batch]
    assert batch[1].reason == move.reason
    assert portuguese[0].reason == said(url, "POST", "/v1/best-move", "pt", board="X........")["reason"]
    raw_variants = said(url, "GET", "/v1/variants", "es")["variants"]
    assert [(info.id, info.name, info.rules) for info in variants] == [
        (info["id"], info["name"], info["rules"]) for info in raw_variants
    ]
    assert page.language == "es" and page.value == PuzzlePage.model_validate(
        said(url, "GET", "/v1/puzzles", "es", theme="fork", limit=3)
    )
    assert puzzle.language == "de"
    assert puzzle.value.reason == said(url, "GET", f"/v1/puzzles/{puzzle.value.id}", "de")["reason"]
    assert drawn.language == "es"
    assert drawn.value.reason == said(url, "GET", "/v1/puzzles/random", "es", seed=5, theme="block")["reason"]
    assert every[0].reason == said(url, "GET", f"/v1/puzzles/{every[0].id}", "fr")["reason"]
    assert isinstance(listed, LanguageList)

    # Tags, ids and numbers are those of English; only the sentences differ.
    with Client(url) as english:
        in_english = english.review([0, 4, 8, 2, 6, 3, 1])
        assert [ply.reason for ply in review.plies] != [ply.reason for ply in in_english.plies]
        assert review.model_dump(exclude={"plies"}) == in_english.model_dump(exclude={"plies"})
        assert [(ply.tactics, ply.judgement, ply.position) for ply in review.plies] == [
            (ply.tactics, ply.judgement, ply.position) for ply in in_english.plies
        ]
        english_variants = english.variants()
        assert [info.id for info in variants] == [info.id for info in english_variants]
        assert all(
            mine.rules != theirs.rules for mine, theirs in zip(variants, english_variants, strict=True)
        )
        assert english.get_best_move("X.O...X..", "O").language == "en"


def test_the_languages_and_the_language_an_answer_is_in(live_server: Server) -> None:
    """``languages()``: the five tags, English first and the default, each named in itself; an
    offered language with a region gets that language, one not offered English."""
    with Client(live_server.url) as client:
        listed = client.languages()
        assert isinstance(listed, LanguageList) and all(
            isinstance(one, LanguageInfo) for one in listed.languages
        )
        assert [one.tag for one in listed.languages] == ["en", "es", "fr", "de", "pt"]
        assert listed.default == "en" and listed.languages[1].name == "Español"
        assert listed == LanguageList.model_validate(httpx.get(f"{live_server.url}/v1/languages").json())
        assert client.position("X........", lang="pt-BR").language == "pt"
        assert client.position("X........", lang="ja").language == "en"
        assert client.position("X........", lang="ja").value == client.position("X........").value
    # A problem's title in the language asked for; its type, status and location those of English.
    with Client(live_server.url, lang="es") as spanish, Client(live_server.url) as english:
        problems = []
        for client in (spanish, english):
            with pytest.raises(ServiceError) as caught:
                client.best_move("XXXOO....")
            problems.append(caught.value)
    raw = httpx.post(f"{live_server.url}/v1/best-move", json={"board": "XXXOO....", "lang": "es"})
    assert problems[0].response.headers["content-language"] == "es"
    assert problems[0].problem.title == raw.json()["title"] != problems[1].problem.title
    assert problems[0].problem.model_dump(exclude={"title", "detail", "errors"}) == problems[
        1
    ].problem.model_dump(exclude={"title", "detail", "errors"})
    # Without lang, Accept-Language chooses: a header of the client's.
    with Client(live_server.url, headers={"Accept-Language": "fr-CA, de;q=0.5"}) as client:
        assert client.position("X........").language == "fr"
        assert client.position("X........", lang="de").language == "de"  # lang wins


def test_a_malformed_lang_is_a_service_error_at_lang(live_server: Server) -> None:
    with Client(live_server.url) as client:
        assert refusal(lambda: client.best_move("X........", lang="not a tag!")) == ["body", "lang"]
        assert refusal(lambda: client.position("X........", lang="not a tag!")) == ["query", "lang"]
        assert refusal(lambda: client.batch([{"board": "X........"}], lang="not a tag!")) == ["body", "lang"]
    with Client(live_server.url, lang="not a tag!") as client:
        assert refusal(lambda: client.review([4])) == ["body", "lang"]
        assert refusal(client.variants) == ["query", "lang"]
        assert client.best_move("X........", lang="en").position == 4  # a call's own lang replaces it
        assert client.languages().languages[0].tag == "en"  # sends no lang


@pytest.mark.anyio
async def test_the_async_client_in_a_language(live_server: Server) -> None:
    """``AsyncClient`` as ``Client``: its ``lang`` with every call, a call's over it, the batch's, the
    languages, and a malformed tag refused."""
    url = live_server.url
    async with AsyncClient(url, lang="es") as client:
        move = await client.best_move("X........")
        french = await client.best_move("X........", lang="fr")
        fetched = await client.get_best_move("X........")
        batch = await client.batch([{"board": "X........"}], lang="de")
        variants = await client.variants()
        puzzles = [puzzle async for puzzle in client.iter_puzzles(theme="fork", limit=50)]
        review = await client.review([0, 1])
        listed = await client.languages()
        with pytest.raises(ServiceError) as caught:
            await client.analyze("X........", lang="not a tag!")
    with Client(url, lang="es") as sync:
        assert move == sync.best_move("X........")
        assert french == sync.best_move("X........", lang="fr") != move
        assert fetched == sync.get_best_move("X........") and fetched.language == "es"
        assert batch == sync.batch([{"board": "X........"}], lang="de")
        assert batch[0].reason == said(url, "POST", "/v1/best-move", "de", board="X........")["reason"]
        assert variants == sync.variants()
        assert puzzles == list(sync.iter_puzzles(theme="fork", limit=50))
        assert review == sync.review([0, 1])
        assert listed == sync.languages()
    assert [one.tag for one in listed.languages] == ["en", "es", "fr", "de", "pt"]
    assert caught.value.status == 422
    assert caught.value.problem.errors is not None and caught.value.problem.errors[0].loc == ["body", "lang"]
