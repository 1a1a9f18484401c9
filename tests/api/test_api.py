"""The HTTP API as a client sees it: every endpoint, status code, error type and header."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from service.settings import Settings
from service.web import media
from service.web.app import create_app

pytestmark = pytest.mark.anyio

PROBLEM = "application/problem+json"


def assert_problem(response: httpx.Response, status: int, kind: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == PROBLEM
    body: dict[str, Any] = response.json()
    assert body["type"] == f"/problems/{kind}"
    assert body["status"] == status
    assert body["title"] and body["detail"]
    assert "Traceback" not in response.text
    return body


def only_error(body: dict[str, Any]) -> dict[str, Any]:
    assert len(body["errors"]) == 1, body
    error: dict[str, Any] = body["errors"][0]
    return error


# --- POST /v1/best-move ---------------------------------------------------------------------------


async def test_post_best_move_answers_the_contract_example(client: httpx.AsyncClient) -> None:
    response = await client.post("/v1/best-move", json={"board": "X........"})
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    assert response.json() == {
        "board": "X........",
        "player": "O",
        "position": 4,
        "row": 1,
        "column": 1,
        "score": 0,
        "outcome": "draw",
        "plies_to_end": 8,
        "tactics": ["center"],
        "reason": "Takes the center; the game is a draw with best play.",
        "optimal": True,
        "board_after": "X...O....",
        "status_after": "in_progress",
    }
    assert "etag" not in response.headers


@pytest.mark.parametrize(
    "board",
    [
        "x-o___x  ",
        ["X", None, "O", "", " ", ".", "x", "-", "_"],
        [["X", None, "o"], ["", " ", "."], ["X", "-", "_"]],
    ],
)
async def test_every_board_form_gives_the_canonical_board(client: httpx.AsyncClient, board: Any) -> None:
    response = await client.post("/v1/best-move", json={"board": board, "player": "O"})
    assert response.status_code == 200
    assert response.json()["board"] == "X.O...X.."
    assert response.json()["position"] == 3


async def test_player_chooses_the_side_only_when_counts_are_equal(client: httpx.AsyncClient) -> None:
    first = await client.post("/v1/best-move", json={"board": "........."})
    assert first.json()["player"] == "X"
    second = await client.post("/v1/best-move", json={"board": ".........", "player": "O"})
    assert second.json()["player"] == "O"
    assert second.json()["board_after"] == "O........"


async def test_winning_move_reports_status_after(client: httpx.AsyncClient) -> None:
    response = await client.post("/v1/best-move", json={"board": "XX.OO...."})
    assert response.json()["position"] == 2
    assert response.json()["status_after"] == "x_won"
    assert response.json()["plies_to_end"] == 1


@pytest.mark.parametrize(
    ("body", "loc", "kind", "fragment"),
    [
        ({"board": "X.O"}, ["body", "board"], "board_length", "got 3"),
        ({"board": "X.O.Z...."}, ["body", "board"], "board_symbol", "cell 4 (row 1, column 1) has 'Z'"),
        ({"board": ["X"] * 8}, ["body", "board"], "board_length", "got 8 items"),
        ({"board": 7}, ["body", "board"], "board_type", "a board is a string"),
        ({"board": "XX......."}, ["body", "board"], "board_counts", "2 X and 0 O"),
        ({"board": "XXXOOOX.."}, ["body", "board"], "board_two_winners", "both X and O"),
        ({"board": "OOOXX.XX."}, ["body", "board"], "board_winner_not_last", "X moved after"),
        (
            {"board": "X........", "player": "X"},
            ["body", "player"],
            "player_contradicts_counts",
            "O is to move",
        ),
        ({"board": ".........", "player": "Z"}, ["body", "player"], "literal_error", "'X', 'O', 'first'"),
        ({"board": ".........", "colour": "X"}, ["body", "colour"], "extra_forbidden", "not permitted"),
        ({"player": "X"}, ["body", "board"], "missing", "required"),
    ],
)
async def test_invalid_input_names_what_is_wrong(
    client: httpx.AsyncClient, body: dict[str, Any], loc: list[Any], kind: str, fragment: str
) -> None:
    problem = assert_problem(await client.post("/v1/best-move", json=body), 422, "invalid-input")
    error = only_error(problem)
    assert error["loc"] == loc
    assert error["type"] == kind
    assert fragment in error["msg"]
    assert fragment in problem["detail"]
    assert problem["instance"] == "/v1/best-move"


@pytest.mark.parametrize(
    ("board", "status"),
    [("XXXOO....", "x_won"), ("XX.OOO.X.", "o_won"), ("XOXXOOOXX", "draw")],
)
async def test_finished_board_is_game_over(client: httpx.AsyncClient, board: str, status: str) -> None:
    problem = assert_problem(await client.post("/v1/best-move", json={"board": board}), 422, "game-over")
    assert problem["game_status"] == status
    assert only_error(problem)["type"] == "game_over"
    assert status in problem["detail"]


async def test_malformed_json_is_400(client: httpx.AsyncClient) -> None:
    response = await client.post(
        "/v1/best-move", content=b'{"board": "X........"', headers={"content-type": "application/json"}
    )
    problem = assert_problem(response, 400, "malformed-json")
    assert "not valid JSON" in problem["detail"]


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", None])
async def test_body_that_is_not_json_is_415(client: httpx.AsyncClient, content_type: str | None) -> None:
    headers = {"content-type": content_type} if content_type else {}
    response = await client.post("/v1/best-move", content=b'{"board": "X........"}', headers=headers)
    problem = assert_problem(response, 415, "unsupported-media-type")
    assert "application/json" in problem["detail"]


async def test_json_with_charset_and_problem_suffix_is_accepted(client: httpx.AsyncClient) -> None:
    for content_type in ["application/json; charset=utf-8", "application/merge-patch+json"]:
        response = await client.post(
            "/v1/best-move", content=b'{"board": "X........"}', headers={"content-type": content_type}
        )
        assert response.status_code == 200


async def test_empty_body_is_422(client: httpx.AsyncClient) -> None:
    response = await client.post("/v1/best-move", headers={"content-type": "application/json"})
    problem = assert_problem(response, 422, "invalid-input")
    assert "JSON object is required" in only_error(problem)["msg"]


async def test_body_must_be_an_object(client: httpx.AsyncClient) -> None:
    problem = assert_problem(await client.post("/v1/best-move", json=["X........"]), 422, "invalid-input")
    assert only_error(problem)["loc"] == ["body"]


# --- limits, routing ------------------------------------------------------------------------------


@pytest.fixture
async def small_client() -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(Settings(max_body_bytes=64))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as client:
        yield client


async def streamed_spaces() -> AsyncIterator[bytes]:
    """100 bytes of white space, sent in 10 chunks of undeclared length."""
    for _ in range(10):
        yield b"          "


async def test_body_over_the_limit_is_413(small_client: httpx.AsyncClient) -> None:
    ok = await small_client.post("/v1/best-move", json={"board": "X........"})
    assert ok.status_code == 200
    big = {"board": "X........", "pad": "x" * 100}
    problem = assert_problem(await small_client.post("/v1/best-move", json=big), 413, "body-too-large")
    assert "64 bytes" in problem["detail"]


async def test_streamed_body_over_the_limit_is_413(small_client: httpx.AsyncClient) -> None:
    response = await small_client.post(
        "/v1/best-move", content=streamed_spaces(), headers={"content-type": "application/json"}
    )
    assert_problem(response, 413, "body-too-large")


async def test_a_body_over_the_limit_from_another_origin_is_readable_there(
    small_client: httpx.AsyncClient,
) -> None:
    """The 413 carries the CORS headers, declared length or streamed: a browser can read it."""
    origin = {"origin": "https://game.example", "content-type": "application/json"}
    declared = await small_client.post("/v1/best-move", content=b" " * 100, headers=origin)
    streamed = await small_client.post("/v1/best-move", content=streamed_spaces(), headers=origin)
    for response in (declared, streamed):
        assert_problem(response, 413, "body-too-large")
        assert response.headers["access-control-allow-origin"] == "*"
        assert response.headers["access-control-expose-headers"] == "ETag, X-Request-ID, Retry-After"


async def test_default_limit_is_one_mebibyte(client: httpx.AsyncClient) -> None:
    padding = " " * (1024 * 1024)
    response = await client.post(
        "/v1/best-move",
        content=b'{"board": "X........"}' + padding.encode(),
        headers={"content-type": "application/json"},
    )
    assert_problem(response, 413, "body-too-large")
    response = await client.post(
        "/v1/best-move",
        content=b'{"board": "X........"}' + b" " * 1000,
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 200


async def test_unknown_path_is_404(client: httpx.AsyncClient) -> None:
    problem = assert_problem(await client.get("/v1/best-moves"), 404, "not-found")
    assert problem["instance"] == "/v1/best-moves"


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        ("DELETE", "/v1/best-move", "GET, HEAD, POST"),
        ("PATCH", "/v1/best-move", "GET, HEAD, POST"),
        ("PUT", "/v1/analysis", "POST"),
        ("HEAD", "/v1/analysis", "POST"),
        ("POST", "/health", "GET, HEAD"),
        ("PUT", "/health", "GET, HEAD"),
        ("POST", "/v1/positions/X........", "GET, HEAD"),
        ("DELETE", "/play", "GET, HEAD"),
        ("POST", "/static/play.js", "GET, HEAD"),
    ],
)
async def test_a_wrong_method_is_405_listing_what_is_allowed(
    client: httpx.AsyncClient, method: str, path: str, allowed: str
) -> None:
    response = await client.request(method, path)
    if method == "HEAD":  # no body, so no problem document: the status and the header
        assert response.status_code == 405
    else:
        assert_problem(response, 405, "method-not-allowed")
    assert response.headers["allow"] == allowed


# --- GET /v1/best-move ----------------------------------------------------------------------------


async def test_get_best_move_equals_post(client: httpx.AsyncClient) -> None:
    got = await client.get("/v1/best-move", params={"board": "X.O...X..", "player": "O"})
    posted = await client.post("/v1/best-move", json={"board": "X.O...X..", "player": "O"})
    assert got.status_code == 200
    assert got.json() == posted.json()


async def test_get_best_move_is_cacheable(client: httpx.AsyncClient) -> None:
    response = await client.get("/v1/best-move", params={"board": "X........"})
    assert response.headers["cache-control"] == "public, max-age=86400"
    etag = response.headers["etag"]
    assert etag.startswith('"') and etag.endswith('"') and not etag.startswith("W/")
    again = await client.get("/v1/best-move", params={"board": "x--------"})
    assert again.headers["etag"] == etag
    other = await client.get("/v1/best-move", params={"board": "O........"})
    assert other.headers["etag"] != etag


@pytest.mark.parametrize("header", ["{etag}", "W/{etag}", '"nope", {etag}', '"nope",{etag} , "other"', "*"])
async def test_if_none_match_gets_304(client: httpx.AsyncClient, header: str) -> None:
    first = await client.get("/v1/best-move", params={"board": "X........"})
    etag = first.headers["etag"]
    value = header.replace("{etag}", etag)
    response = await client.get(
        "/v1/best-move", params={"board": "X........"}, headers={"if-none-match": value}
    )
    assert response.status_code == 304
    assert response.content == b""
    assert response.headers["etag"] == etag
    assert response.headers["cache-control"] == "public, max-age=86400"


@pytest.mark.parametrize("header", ['"stale"', "{bare}", 'W/"{bare}x"'])
async def test_stale_or_malformed_etag_gets_200(client: httpx.AsyncClient, header: str) -> None:
    """An entity tag that is not current, or not quoted (so not an entity tag at all), matches nothing."""
    first = await client.get("/v1/best-move", params={"board": "X........"})
    bare = first.headers["etag"].strip('"')
    response = await client.get(
        "/v1/best-move",
        params={"board": "X........"},
        headers={"if-none-match": header.replace("{bare}", bare)},
    )
    assert response.status_code == 200
    assert response.json()["position"] == 4


@pytest.mark.parametrize(
    ("params", "loc", "kind"),
    [
        ({"board": "X.O"}, ["query", "board"], "board_length"),
        ({"board": "XX......."}, ["query", "board"], "board_counts"),
        ({"board": "X........", "player": "X"}, ["query", "player"], "player_contradicts_counts"),
        ({"board": "X........", "player": "x"}, ["query", "player"], "literal_error"),
        ({}, ["query", "board"], "missing"),
        ({"board": "X........", "skil": "1"}, ["query", "skil"], "extra_forbidden"),
    ],
)
async def test_get_best_move_errors(
    client: httpx.AsyncClient, params: dict[str, str], loc: list[str], kind: str
) -> None:
    problem = assert_problem(await client.get("/v1/best-move", params=params), 422, "invalid-input")
    assert only_error(problem)["loc"] == loc
    assert only_error(problem)["type"] == kind


#: A valid request of every operation of API v1: method, path, query and body.
VALID_REQUESTS: list[tuple[str, str, dict[str, str], Any]] = [
    ("GET", "/v1/best-move", {"board": "X........"}, None),
    ("POST", "/v1/best-move", {}, {"board": "X........"}),
    ("POST", "/v1/best-move/batch", {}, {"items": [{"board": "X........"}]}),
    ("GET", "/v1/positions/{board}", {}, None),
    ("POST", "/v1/analysis", {}, {"board": "X........"}),
    ("POST", "/v1/review", {}, {"moves": [4, 1]}),
    ("GET", "/v1/puzzles", {"limit": "2"}, None),
    ("GET", "/v1/puzzles/random", {"seed": "7"}, None),
    ("GET", "/v1/puzzles/{puzzle_id}", {}, None),
    ("GET", "/v1/variants", {}, None),
    ("GET", "/v1/languages", {}, None),
]
PATH_VALUES = {"{board}": "XX.OO....", "{puzzle_id}": ".....OOXXX"}


def test_every_operation_of_the_api_has_a_valid_request_here(app: FastAPI) -> None:
    paths = app.openapi()["paths"]
    listed = {(method.upper(), path) for path in paths if path.startswith("/v1/") for method in paths[path]}
    assert {(method, path) for method, path, _, _ in VALID_REQUESTS} == listed


@pytest.mark.parametrize(("method", "path", "params", "body"), VALID_REQUESTS)
async def test_an_unknown_query_parameter_is_refused_on_every_operation(
    client: httpx.AsyncClient, method: str, path: str, params: dict[str, str], body: Any
) -> None:
    for template, value in PATH_VALUES.items():
        path = path.replace(template, value)
    assert (await client.request(method, path, params=params, json=body)).status_code == 200
    wrong = await client.request(method, path, params={**params, "colour": "X"}, json=body)
    problem = assert_problem(wrong, 422, "invalid-input")
    assert only_error(problem)["loc"] == ["query", "colour"]
    assert only_error(problem)["type"] == "extra_forbidden"


async def test_get_best_move_on_finished_board(client: httpx.AsyncClient) -> None:
    problem = assert_problem(
        await client.get("/v1/best-move", params={"board": "XXXOO...."}), 422, "game-over"
    )
    assert problem["game_status"] == "x_won"
    assert only_error(problem)["loc"] == ["query", "board"]


# --- analysis --------------------------------------------------------------------------------------


async def test_position_analysis(client: httpx.AsyncClient) -> None:
    response = await client.get("/v1/positions/XX.OO....")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "in_progress"
    assert body["player"] == "X"
    assert (body["score"], body["outcome"], body["plies_to_end"]) == (1, "win", 1)
    assert body["best_moves"] == [2]
    assert body["principal_variation"] == [2]
    assert [m["position"] for m in body["moves"]] == [2, 5, 6, 7, 8]
    assert body["moves"][0] == {
        "position": 2,
        "row": 0,
        "column": 2,
        "score": 1,
        "outcome": "win",
        "plies_to_end": 1,
        "tactics": ["win", "block_fork", "corner"],
        "reason": "Completes X's top row: X wins.",
        "traps": 0,
    }
    assert body["winner"] is None and body["winning_lines"] == []


async def test_finished_position_analysis(client: httpx.AsyncClient) -> None:
    response = await client.get("/v1/positions/XXXXOOXOO")
    body = response.json()
    assert response.status_code == 200
    assert body == {
        "board": "XXXXOOXOO",
        "status": "x_won",
        "winner": "X",
        "winning_lines": [[0, 1, 2], [0, 3, 6]],
        "player": None,
        "score": None,
        "outcome": None,
        "plies_to_end": None,
        "best_moves": [],
        "moves": [],
        "principal_variation": [],
    }


async def test_position_path_accepts_encoded_spaces_and_symbols(client: httpx.AsyncClient) -> None:
    response = await client.get("/v1/positions/x-o%20%20%20x__", params={"player": "O"})
    assert response.status_code == 200
    assert response.json()["board"] == "X.O...X.."


async def test_position_is_cacheable(client: httpx.AsyncClient) -> None:
    first = await client.get("/v1/positions/X........")
    assert first.headers["cache-control"] == "public, max-age=86400"
    second = await client.get("/v1/positions/X........", headers={"if-none-match": first.headers["etag"]})
    assert second.status_code == 304


@pytest.mark.parametrize(
    ("path", "status", "loc"),
    [
        ("/v1/positions/X.O", 422, ["path", "board"]),
        ("/v1/positions/XX.......", 422, ["path", "board"]),
        ("/v1/positions/X........?player=X", 422, ["query", "player"]),
        ("/v1/positions/X..../....", 404, None),
        ("/v1/positions/..%2F..%2F..", 404, None),
        ("/v1/positions/XXXOO.O..?player=X", 422, ["query", "player"]),
    ],
)
async def test_position_errors(
    client: httpx.AsyncClient, path: str, status: int, loc: list[str] | None
) -> None:
    response = await client.get(path)
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == PROBLEM
    if loc is not None:
        assert only_error(response.json())["loc"] == loc


async def test_post_analysis_equals_get(client: httpx.AsyncClient) -> None:
    posted = await client.post("/v1/analysis", json={"board": [["X", "", "O"], ["", "", ""], ["X", "", ""]]})
    got = await client.get("/v1/positions/X.O...X..")
    assert posted.status_code == 200
    assert posted.json() == got.json()
    assert "etag" not in posted.headers


async def test_post_analysis_accepts_finished_and_rejects_illegal(client: httpx.AsyncClient) -> None:
    finished = await client.post("/v1/analysis", json={"board": "XOXXOOOXX"})
    assert finished.json()["status"] == "draw"
    problem = assert_problem(
        await client.post("/v1/analysis", json={"board": "OOO......"}), 422, "invalid-input"
    )
    assert only_error(problem)["type"] == "board_counts"


# --- health, docs, CORS ----------------------------------------------------------------------------


async def test_health(client: httpx.AsyncClient) -> None:
    response = await client.get("/health")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["positions"] == 8533
    assert body["version"]
    assert response.headers["cache-control"] == "no-store"


@pytest.mark.parametrize("path", ["/docs", "/redoc"])
async def test_documentation_pages(client: httpx.AsyncClient, path: str) -> None:
    response = await client.get(path)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")


async def test_cors_allows_every_origin_without_credentials(client: httpx.AsyncClient) -> None:
    response = await client.post(
        "/v1/best-move", json={"board": "X........"}, headers={"origin": "https://game.example"}
    )
    assert response.headers["access-control-allow-origin"] == "*"
    assert "access-control-allow-credentials" not in response.headers
    # A HEAD that asks whether a kept answer is still current sends If-None-Match: preflighted too.
    for path, method, header in [
        ("/v1/best-move", "POST", "content-type"),
        ("/v1/positions/XX.OO....", "HEAD", "if-none-match"),
    ]:
        preflight = await client.options(
            path,
            headers={
                "origin": "https://game.example",
                "access-control-request-method": method,
                "access-control-request-headers": header,
            },
        )
        assert preflight.status_code == 200, method
        assert method in preflight.headers["access-control-allow-methods"]


async def test_cors_origins_narrow_the_list() -> None:
    app = create_app(Settings(cors_origins=["https://game.example"]))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as client:
        allowed = await client.get("/health", headers={"origin": "https://game.example"})
        assert allowed.headers["access-control-allow-origin"] == "https://game.example"
        other = await client.get("/health", headers={"origin": "https://evil.example"})
        assert "access-control-allow-origin" not in other.headers
        exposed = await client.get(
            "/v1/best-move", params={"board": "X........"}, headers={"origin": "https://game.example"}
        )
        assert "etag" in exposed.headers["access-control-expose-headers"].lower()


@pytest.mark.parametrize(
    ("headers", "refused"),
    [
        (
            {"access-control-request-method": "POST", "access-control-request-headers": "authorization"},
            "headers",
        ),
        ({"access-control-request-method": "DELETE"}, "method"),
    ],
)
async def test_a_refused_preflight_is_a_problem(
    client: httpx.AsyncClient, headers: dict[str, str], refused: str
) -> None:
    response = await client.options("/v1/best-move", headers={"origin": "https://game.example", **headers})
    assert response.status_code == 400
    assert response.headers["content-type"] == "application/problem+json"
    problem = response.json()
    assert problem["type"] == "/problems/bad-request" and refused in problem["detail"]
    assert response.headers["access-control-allow-origin"] == "*"
    assert response.headers["x-request-id"]


async def test_errors_carry_cors_headers(client: httpx.AsyncClient) -> None:
    response = await client.post(
        "/v1/best-move", json={"board": "bad"}, headers={"origin": "https://game.example"}
    )
    assert response.status_code == 422
    assert response.headers["access-control-allow-origin"] == "*"


async def test_no_server_banner(client: httpx.AsyncClient) -> None:
    response = await client.get("/health")
    assert "server" not in response.headers


# --- pages ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/play", "/docs", "/redoc"])
async def test_pages_carry_security_headers_and_load_nothing_from_elsewhere(
    client: httpx.AsyncClient, path: str
) -> None:
    response = await client.get(path)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    policy = response.headers["content-security-policy"]
    assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert "'unsafe-inline'" not in policy.split("script-src", 1)[1].split(";", 1)[0]
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "no-referrer"
    assert not re.search(r"(src|href)=[\"']?(https?:)?//", response.text), "a page refers to another host"


@pytest.mark.parametrize(
    "asset",
    [
        "/static/play.js",
        "/static/play.css",
        "/static/docs/swagger-ui-bundle.js",
        "/static/docs/swagger-ui.css",
    ],
)
async def test_page_assets_are_served_by_the_service(client: httpx.AsyncClient, asset: str) -> None:
    response = await client.get(asset)
    assert response.status_code == 200
    assert len(response.content) > 1000


async def test_redoc_bundle_refers_to_no_other_host(client: httpx.AsyncClient) -> None:
    response = await client.get("/static/docs/redoc.standalone.js")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/javascript")
    assert b"cdn.redoc.ly" not in response.content
    assert len(response.content) > 500_000


async def test_unknown_static_file_is_a_problem_404(client: httpx.AsyncClient) -> None:
    response = await client.get("/static/nothing.js")
    assert_problem(response, 404, "not-found")


@pytest.mark.parametrize(
    "path",
    [
        "/health",
        "/v1/best-move?board=X........",
        "/v1/positions/X........",
        "/docs",
        "/metrics",
        "/play",
        "/static/play.js",
        "/openapi.json",
    ],
)
async def test_every_get_resource_answers_head(client: httpx.AsyncClient, path: str) -> None:
    get = await client.get(path)
    head = await client.head(path)
    assert (head.status_code, get.status_code) == (200, 200)
    assert head.content == b""
    assert head.headers["content-type"] == get.headers["content-type"]
    if "content-length" in get.headers and path != "/metrics":  # metrics change between the two
        assert head.headers["content-length"] == get.headers["content-length"]


async def test_large_answers_are_gzipped_for_clients_that_accept_it(client: httpx.AsyncClient) -> None:
    batch = {"items": [{"board": "X........"}] * 200}
    plain = await client.post("/v1/best-move/batch", json=batch, headers={"accept-encoding": "identity"})
    assert "content-encoding" not in plain.headers
    assert plain.headers["vary"].lower().count("accept-encoding") == 1
    packed = await client.post("/v1/best-move/batch", json=batch, headers={"accept-encoding": "gzip"})
    assert packed.headers["content-encoding"] == "gzip"
    assert int(packed.headers["content-length"]) < len(plain.content) / 10
    assert packed.json() == plain.json()  # httpx decodes it
    refused = await client.post("/v1/best-move/batch", json=batch, headers={"accept-encoding": "gzip;q=0"})
    assert "content-encoding" not in refused.headers


async def test_small_answers_are_left_alone(client: httpx.AsyncClient) -> None:
    gzip_ok = {"accept-encoding": "gzip"}
    response = await client.post("/v1/best-move", json={"board": "X........"}, headers=gzip_ok)
    assert "content-encoding" not in response.headers
    assert "accept-encoding" not in response.headers.get("vary", "").lower()


async def test_a_gzipped_cacheable_answer_keeps_its_entity_tag_weakly(
    client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(media, "MIN_COMPRESSED", 500)  # analyses stay just under 1 KiB
    path = "/v1/positions/........."
    plain = await client.get(path, headers={"accept-encoding": "identity"})
    packed = await client.get(path, headers={"accept-encoding": "gzip"})
    assert packed.headers["content-encoding"] == "gzip"
    assert packed.headers["etag"] == "W/" + plain.headers["etag"]
    cached = {"accept-encoding": "gzip", "if-none-match": packed.headers["etag"]}
    not_modified = await client.get(path, headers=cached)
    assert not_modified.status_code == 304
    # RFC 9110 §15.4.5: a 304 sends the ETag and Vary the 200 would have sent
    assert not_modified.headers["etag"] == packed.headers["etag"]
    assert "accept-encoding" in not_modified.headers["vary"].lower()
    identity = {"accept-encoding": "identity", "if-none-match": plain.headers["etag"]}
    plainly = await client.get(path, headers=identity)
    assert plainly.status_code == 304
    assert plainly.headers["etag"] == plain.headers["etag"]
    assert "accept-encoding" in plainly.headers["vary"].lower()


async def test_a_304_of_an_answer_never_compressed_does_not_vary_on_accept_encoding(
    client: httpx.AsyncClient,
) -> None:
    path = "/v1/best-move?board=X........"
    first = await client.get(path, headers={"accept-encoding": "gzip"})
    again = await client.get(
        path, headers={"accept-encoding": "gzip", "if-none-match": first.headers["etag"]}
    )
    assert again.status_code == 304
    assert again.headers["etag"] == first.headers["etag"] and not first.headers["etag"].startswith("W/")
    assert "accept-encoding" not in again.headers.get("vary", "").lower()


async def test_a_304_of_a_puzzle_page_and_of_a_static_file_says_what_the_200_would(
    client: httpx.AsyncClient,
) -> None:
    for path in ("/v1/puzzles?limit=20", "/static/play.js"):
        packed = await client.get(path, headers={"accept-encoding": "gzip"})
        assert packed.headers["content-encoding"] == "gzip"
        again = await client.get(
            path, headers={"accept-encoding": "gzip", "if-none-match": packed.headers["etag"]}
        )
        assert again.status_code == 304, path
        assert again.headers["etag"] == packed.headers["etag"], path
        assert "accept-encoding" in again.headers["vary"].lower(), path


@pytest.mark.parametrize(
    "asset", ["/static/docs/swagger-ui-bundle.js", "/static/play.js", "/static/docs/redoc.standalone.js"]
)
async def test_static_assets_are_cached_and_precompressed(client: httpx.AsyncClient, asset: str) -> None:
    first = await client.get(asset, headers={"accept-encoding": "gzip"})
    assert first.status_code == 200
    assert first.headers["cache-control"].startswith("public, max-age=")
    assert first.headers["etag"]
    assert first.headers["content-encoding"] == "gzip"
    assert "accept-encoding" in first.headers["vary"].lower()
    cached = {"accept-encoding": "gzip", "if-none-match": first.headers["etag"]}
    assert (await client.get(asset, headers=cached)).status_code == 304
    identity = await client.get(asset, headers={"accept-encoding": "identity"})
    assert "content-encoding" not in identity.headers
    assert identity.content == first.content  # httpx decoded the gzip copy


async def test_answers_vary_on_origin_for_caches(client: httpx.AsyncClient) -> None:
    """An answer to a request without Origin must not be served to a browser's cross-origin one."""
    plain = await client.get("/v1/best-move", params={"board": "X........"})
    assert "origin" in plain.headers["vary"].lower()
    browser = await client.get(
        "/v1/best-move", params={"board": "X........"}, headers={"origin": "https://a.example"}
    )
    assert browser.headers["access-control-allow-origin"] == "*"
