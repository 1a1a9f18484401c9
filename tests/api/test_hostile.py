"""A catalogue of hostile input: each gets its documented 4xx as problem+json, never a 5xx."""

from __future__ import annotations

import asyncio
import gzip
import json
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from service.web import facts, strict
from tests.support.server import Server
from tests.support.stats import counts

pytestmark = pytest.mark.anyio

JSON = {"content-type": "application/json"}
VALID = b'{"board": "X........", "player": "O"}'


def documented(app_openapi: dict[str, Any], method: str, path: str) -> set[int]:
    item = app_openapi["paths"].get(path, {})
    return {int(code) for code in item.get(method.lower(), {}).get("responses", {})}


async def expect(
    client: httpx.AsyncClient, method: str, url: str, status: int, kind: str | None = None, **kwargs: Any
) -> dict[str, Any]:
    return expect_response(await client.request(method, url, **kwargs), status, kind)


def expect_response(response: httpx.Response, status: int, kind: str | None = None) -> dict[str, Any]:
    """The problem of ``response``, checked: its status, type, members, and no stack trace."""
    counts["hostile inputs tried"] += 1
    assert response.status_code == status, (str(response.url), response.status_code, response.text[:300])
    assert response.headers["content-type"] == "application/problem+json"
    body: dict[str, Any] = response.json()
    assert body["status"] == status and body["title"] and body["detail"]
    if kind:
        assert body["type"] == f"/problems/{kind}", body
    assert "Traceback" not in response.text and 'File "' not in response.text
    return body


def truncations() -> Iterator[bytes]:
    body = b'{"items": [{"board": "X........", "player": "O", "skill": 0.5, "seed": 1}]}'
    for end in range(1, len(body)):
        yield body[:end]


MALFORMED = [
    b"{",
    b'{"board": ',
    b'{board: "X........"}',
    b"{'board': 'X........'}",
    b'{"board": "X........"} trailing',
    b'{"board": "X........",}',
    b"[1, 2,]",
    b"nul",
    b'{"board": "X........"}{"board": "X........"}',
    b'{"board": "X\\u00"}',
    b"\x00\x00\x00{",
    b"[" * 100_000,
    b'{"a":' * 50_000,
    b'{"board": "X........", "board": "O........"}',
    b'{"items": [{"board": "X........", "skill": 1, "skill": 0}]}',
    b'{"board": ".........", "skill": NaN}',
    b'{"board": ".........", "skill": Infinity}',
    b'{"board": ".........", "skill": -Infinity}',
    b"\xff\xfe{\x00}\x00",
    '{"board": "X........"}'.encode("utf-16"),
    b'{"board": "X\xe9......."}',
    b'\xef\xbb\xbf{"board": "X........"}',
    b'{"board": "X........", "b\\u006fard": "O........"}',
    b'{"player": "O", "board": "X........", "player": "X"}',
    b'{"board": "X........", "player": NaN}',
]


@pytest.mark.parametrize("body", MALFORMED, ids=[repr(b[:24]) for b in MALFORMED])
async def test_malformed_json_is_400(client: httpx.AsyncClient, body: bytes) -> None:
    for path in ["/v1/best-move", "/v1/analysis", "/v1/best-move/batch"]:
        await expect(client, "POST", path, 400, "malformed-json", content=body, headers=JSON)


async def test_every_truncation_is_400(client: httpx.AsyncClient) -> None:
    for body in truncations():
        await expect(client, "POST", "/v1/best-move/batch", 400, "malformed-json", content=body, headers=JSON)


async def test_deeply_nested_valid_json_is_422(client: httpx.AsyncClient) -> None:
    nested: Any = "X"
    for _ in range(200):
        nested = [nested]
    body = await expect(client, "POST", "/v1/best-move", 422, "invalid-input", json={"board": nested})
    assert body["errors"][0]["loc"] == ["body", "board"]


async def test_ten_megabytes_is_413(client: httpx.AsyncClient) -> None:
    huge = b'{"board": "' + b"X" * (10 * 1024 * 1024) + b'"}'
    await expect(client, "POST", "/v1/best-move", 413, "body-too-large", content=huge, headers=JSON)


#: Every operation of the API, a path parameter filled in, and ``/mcp``: each refuses an encoded body.
EVERY_OPERATION = [
    ("GET", "/health"),
    ("GET", "/metrics"),
    ("POST", "/v1/analysis"),
    ("GET", "/v1/best-move?board=X........"),
    ("POST", "/v1/best-move"),
    ("POST", "/v1/best-move/batch"),
    ("GET", "/v1/positions/X........"),
    ("GET", "/v1/puzzles"),
    ("GET", "/v1/puzzles/random"),
    ("GET", "/v1/puzzles/.....OOXXXX"),
    ("POST", "/v1/review"),
    ("GET", "/v1/variants"),
    ("GET", "/v1/languages"),
    ("POST", "/mcp"),
]
#: Content codings, known or not, in any case, alone or in a list.
CODINGS = ["gzip", "br", "x-bogus", "deflate", "zstd", "GZip", "identity, gzip", "gzip, identity", " br "]


def test_every_operation_is_tried_with_an_encoded_body(app: FastAPI) -> None:
    documented_operations = {
        (method.upper(), path) for path, item in app.openapi()["paths"].items() for method in item
    }
    tried = {(method, path.split("?")[0]) for method, path in EVERY_OPERATION if path != "/mcp"}
    tried_templates = {
        (method, path.replace("X........", "{board}").replace(".....OOXXXX", "{puzzle_id}"))
        for method, path in tried
    }
    assert tried_templates == documented_operations


@pytest.mark.parametrize("coding", CODINGS)
@pytest.mark.parametrize(("method", "path"), EVERY_OPERATION)
async def test_a_body_with_a_content_coding_is_415_on_every_operation(
    client: httpx.AsyncClient, method: str, path: str, coding: str
) -> None:
    """RFC 9110 §15.5.16: a coding the server does not take is 415, with the codings it takes."""
    headers = {**JSON, "content-encoding": coding}
    response = await client.request(method, path, content=VALID, headers=headers)
    problem = expect_response(response, 415, "unsupported-media-type")
    assert response.headers["accept-encoding"] == "identity"
    assert f"Content-Encoding {coding!r}" in problem["detail"]
    assert problem["instance"] == path.split("?")[0]


async def test_a_gzip_body_is_415_not_decoded(client: httpx.AsyncClient) -> None:
    """A real gzip body is refused as encoded, not read as text that is not UTF-8."""
    headers = {**JSON, "content-encoding": "gzip"}
    response = await client.post("/v1/best-move", content=gzip.compress(VALID), headers=headers)
    problem = expect_response(response, 415, "unsupported-media-type")
    assert "UTF-8" not in problem["detail"]


async def test_the_fast_lane_does_not_answer_an_encoded_body(client: httpx.AsyncClient) -> None:
    """The lane's requests, each one it answers 200 when plain, are 415 with a coding."""
    for method, path, body in [
        ("POST", "/v1/best-move", VALID),
        ("GET", "/v1/best-move?board=X........", b"{}"),
        ("GET", "/v1/positions/X........", b"{}"),
    ]:
        plain = await client.request(method, path, content=body, headers=JSON)
        assert plain.status_code == 200, (path, plain.text)
        encoded = await client.request(method, path, content=body, headers={**JSON, "content-encoding": "br"})
        expect_response(encoded, 415, "unsupported-media-type")


async def test_identity_or_no_coding_is_read_as_it_is(client: httpx.AsyncClient) -> None:
    for coding in (None, "identity", "IDENTITY", "", "identity, identity"):
        headers = {**JSON, **({"content-encoding": coding} if coding is not None else {})}
        response = await client.post("/v1/analysis", content=VALID, headers=headers)
        assert response.status_code == 200, (coding, response.text)


async def test_a_coding_in_a_second_header_is_415(client: httpx.AsyncClient) -> None:
    headers = [
        ("content-type", "application/json"),
        ("content-encoding", "identity"),
        ("content-encoding", "gzip"),
    ]
    response = await client.post("/v1/best-move", content=VALID, headers=headers)
    problem = expect_response(response, 415, "unsupported-media-type")
    assert "'identity, gzip'" in problem["detail"]


async def test_a_long_coding_is_quoted_cut_with_its_length(client: httpx.AsyncClient) -> None:
    coding = "x" * 6000
    response = await client.post("/v1/best-move", content=VALID, headers={**JSON, "content-encoding": coding})
    problem = expect_response(response, 415, "unsupported-media-type")
    assert f"'{'x' * 200}'… (6000 characters)" in problem["detail"]
    assert len(response.content) < 1024


async def test_a_coding_without_a_body_is_not_refused(client: httpx.AsyncClient) -> None:
    """No body, nothing encoded: a GET with the header alone is answered."""
    response = await client.get("/v1/best-move?board=X........", headers={"content-encoding": "gzip"})
    assert response.status_code == 200


@pytest.mark.parametrize(
    "content_type",
    [
        None,
        "text/plain",
        "text/json",
        "application/xml",
        "multipart/form-data; boundary=x",
        "application/jsonx",
        "json",
    ],
)
async def test_wrong_or_missing_content_type_is_415(
    client: httpx.AsyncClient, content_type: str | None
) -> None:
    headers = {"content-type": content_type} if content_type else {}
    await expect(
        client, "POST", "/v1/best-move", 415, "unsupported-media-type", content=VALID, headers=headers
    )


@pytest.mark.parametrize(
    ("body", "loc"),
    [
        ({"board": "X........", "skill": "0.5"}, ["body", "skill"]),
        ({"board": "X........", "seed": "12"}, ["body", "seed"]),
        ({"board": "X........", "random": "true"}, ["body", "random"]),
        ({"board": 123456789}, ["body", "board"]),
        ({"board": ["X", 0, 0, 0, 0, 0, 0, 0, 0]}, ["body", "board"]),
        ({"board": "X........", "player": 1}, ["body", "player"]),
        ({"board": "X........", "player": "x"}, ["body", "player"]),
        ({"board": "X........", "seed": 2**70}, ["body", "seed"]),
        ({"board": "X........", "extra": 1}, ["body", "extra"]),
        ({"board": "X........", "__proto__": {}}, ["body", "__proto__"]),
        ({"Board": "X........"}, ["body", "board"]),
    ],
)
async def test_wrong_types_and_extra_fields_are_422(
    client: httpx.AsyncClient, body: Any, loc: list[Any]
) -> None:
    problem = await expect(
        client, "POST", "/v1/best-move", 422, "invalid-input", content=json.dumps(body), headers=JSON
    )
    assert loc in [error["loc"] for error in problem["errors"]]


@pytest.mark.parametrize(
    ("board", "kind"),
    [
        ("\u0425........", "board_symbol"),  # Cyrillic capital Kha, looks like X
        ("X\u041e.......", "board_symbol"),  # Cyrillic capital O
        ("\u03a7........", "board_symbol"),  # Greek capital Chi
        ("\uff38........", "board_symbol"),  # fullwidth X
        ("X0.......", "board_symbol"),  # digit zero for O
        ("X\u200b.......", "board_symbol"),  # zero-width space in place of a cell
        ("X\u200b........", "board_length"),  # zero-width space added
        ("\ufeffX........", "board_length"),  # byte order mark inside the string
        ("X\u0301.......", "board_symbol"),  # combining accent
        ("X\u00a0.......", "board_symbol"),  # no-break space
        ("X\t.......", "board_symbol"),
        ("X\x00.......", "board_symbol"),
        ("X" * 10_000, "board_length"),
    ],
)
async def test_look_alike_and_invisible_characters_are_named(
    client: httpx.AsyncClient, board: str, kind: str
) -> None:
    problem = await expect(client, "POST", "/v1/best-move", 422, "invalid-input", json={"board": board})
    assert problem["errors"][0]["type"] == kind
    if kind == "board_symbol":
        assert "U+" in problem["errors"][0]["msg"]


async def test_numbers_too_large_for_a_float_are_422(client: httpx.AsyncClient) -> None:
    raw = b'{"board": "X........", "skill": 1e400}'
    problem = await expect(client, "POST", "/v1/best-move", 422, "invalid-input", content=raw, headers=JSON)
    assert problem["errors"][0]["type"] == "finite_number"


async def test_batch_of_1001_items_is_422(client: httpx.AsyncClient) -> None:
    body = {"items": [{"board": "X........"}] * 1001}
    problem = await expect(client, "POST", "/v1/best-move/batch", 422, "invalid-input", json=body)
    assert problem["errors"][0]["type"] == "too_long"


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("/v1/positions/..%2F..%2Fetc%2Fpasswd", 404),
        ("/v1/positions/%2e%2e%2f%2e%2e%2f%2e%2e", 404),
        ("/v1/positions/X........%00", 422),
        ("/v1/positions/X.......%0A", 422),
        ("/v1/positions/X........;drop", 422),
        ("/v1/positions/%58........", 200),  # %58 is X
        ("/v1/positions/X%2E%2E%2E%2E%2E%2E%2E%2E", 200),
        ("/v1/positions/X........?player=O&player=X", 422),
        ("/v1/positions/" + "X" * 5000, 422),
        ("/v1/positions/%E2%80%8BX........", 422),
        ("/v1/positions/%FF%FE", 422),
        ("/v1/positions/", 404),
        ("/v1/positions//", 404),
        ("/v1/positions/X......../", 404),
    ],
)
async def test_path_tricks(client: httpx.AsyncClient, path: str, status: int) -> None:
    response = await client.get(path)
    counts["hostile inputs tried"] += 1
    assert response.status_code == status, (path, response.text[:300])
    if status != 200:
        assert response.headers["content-type"] == "application/problem+json"


async def test_long_query_strings_are_422(client: httpx.AsyncClient) -> None:
    await expect(client, "GET", "/v1/best-move?board=" + "X" * 20_000, 422, "invalid-input")
    many = "&".join(f"p{i}=1" for i in range(2000))
    problem = await expect(client, "GET", f"/v1/best-move?board=X........&{many}", 422, "invalid-input")
    assert len(problem["errors"]) == 10  # the first ten, and a count of the others
    assert problem["errors_omitted"] == 1990
    assert len(problem["detail"]) < 500  # the summary stays short


async def test_methods_and_paths_nobody_serves(client: httpx.AsyncClient) -> None:
    for method in ["PUT", "PATCH", "DELETE", "TRACE"]:
        await expect(client, method, "/v1/best-move", 405, "method-not-allowed")
    for path in [
        "/v2/best-move",
        "/v1/best-move/",
        "/V1/BEST-MOVE",
        "/%00",
        "/v1/best-move/batch/1",
        "/" + "a" * 10_000,
    ]:
        await expect(client, "GET", path, 404, "not-found")


def test_over_the_wire(live_server: Server) -> None:
    """The same defences through uvicorn's own HTTP parsing."""
    with httpx.Client(base_url=live_server.url, timeout=10) as client:
        cases: list[tuple[str, str, dict[str, Any], int]] = [
            ("POST", "/v1/best-move", {"content": b"{", "headers": JSON}, 400),
            ("POST", "/v1/best-move", {"content": b"x" * (10 * 1024 * 1024), "headers": JSON}, 413),
            ("POST", "/v1/best-move", {"content": VALID, "headers": {"content-type": "text/plain"}}, 415),
            # uvicorn has no cap on the request line (the proxy has: 414); the board is wrong.
            ("GET", "/v1/best-move?board=" + "X" * 60_000, {}, 422),
            ("GET", "/v1/positions/..%2F..%2F..%2Fetc%2Fpasswd", {}, 404),
        ]
        for method, url, kwargs, status in cases:
            response = client.request(method, url, **kwargs)
            counts["hostile inputs tried"] += 1
            assert response.status_code == status, (url[:60], response.status_code, response.text[:200])
            assert response.headers["content-type"] == "application/problem+json"
        assert client.get("/health").status_code == 200


async def test_an_integer_of_more_digits_than_python_converts_is_malformed(client: httpx.AsyncClient) -> None:
    for body in [b'{"board": "X........", "seed": ' + b"7" * 4301 + b"}", b"[" + b"1" * 5000 + b"]"]:
        problem = await expect(
            client, "POST", "/v1/best-move", 400, "malformed-json", content=body, headers=JSON
        )
        assert "digits" in problem["detail"]


async def test_error_answers_stay_small_whatever_the_input(client: httpx.AsyncClient) -> None:
    """Problems are listed up to 10, and what is echoed of the input is clipped."""
    many_keys = "{" + ",".join(f'"k{i}":0' for i in range(90_000)) + ',"board":"X........"}'
    long_cells = json.dumps({"board": ["Z" * 50_000] * 9})
    long_key = json.dumps({"board": "X........", "k" * 500_000: 1})
    for body in [many_keys, long_cells, long_key]:
        assert len(body) < 1024 * 1024
        response = await client.post("/v1/best-move", content=body, headers=JSON)
        assert response.status_code == 422, response.text[:300]
        counts["largest error answer to a < 1 MiB body (bytes)"] = max(
            counts["largest error answer to a < 1 MiB body (bytes)"], len(response.content)
        )
        assert len(response.content) <= 8 * 1024, len(response.content)
        problem = response.json()
        assert len(problem["errors"]) <= 10
    assert problem["errors"][0]["loc"][1].endswith("…")
    # A large body is refused at its first unknown field, without validating the rest.
    response = await client.post("/v1/best-move", content=many_keys, headers=JSON)
    assert response.json()["errors"] == [
        {"loc": ["body", "k0"], "msg": "Extra inputs are not permitted", "type": "extra_forbidden"}
    ]
    assert "errors_omitted" not in response.json()


def outcome(parse: Callable[[], object]) -> tuple[object, ...]:
    try:
        return ("value", parse())
    except json.JSONDecodeError as error:
        return ("error", error.msg, error.pos)


@pytest.mark.parametrize("fault", ["", "}", ',"items":1', "NaN", '"\\x"'])
def test_a_large_body_is_parsed_off_the_event_loop_as_a_small_one_is(fault: str) -> None:
    """The value, or the error at its place, that :func:`strict.loads` gives; and the event loop
    goes on running other tasks meanwhile."""
    items = [{f"unknown_{k}": k for k in range(60)} for _ in range(100)]
    body = (json.dumps({"items": items})[:-1] + fault + "}").encode()
    assert len(body) > facts.COSTLY_BODY
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0)

    async def parsed() -> object:
        ticker = asyncio.create_task(tick())
        await asyncio.sleep(0)  # the ticker is running
        before = ticks
        try:
            return await strict.parse(body)
        finally:
            ticker.cancel()
            assert ticks > before, "the loop ran nothing while the body was parsed"

    assert outcome(lambda: asyncio.run(parsed())) == outcome(lambda: strict.loads(body))
