"""Limits that hold behind any proxy: costly requests admitted a few at a time, large faulty
bodies refused at their first fault, and the HTTP details of content coding and caching."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
from fastapi import FastAPI
from starlette.types import Message

from service.schemas import MAX_BATCH_ITEMS, MAX_BODY_BYTES
from service.settings import Settings
from service.web.app import create_app
from service.web.facts import COSTLY_BODY
from tests.support.bodies import longest_batch, post_scope

pytestmark = pytest.mark.anyio
JSON = {"content-type": "application/json"}


async def test_costly_requests_beyond_the_limit_get_503_at_once_and_cheap_ones_pass() -> None:
    app = create_app(Settings(log_level="warning", max_costly_requests=2))
    stalled = asyncio.Event()  # never set: the bodies of the first two never arrive
    reading = asyncio.Semaphore(0)  # released by each of them as it waits for its body, once admitted

    async def stalled_body() -> Message:
        reading.release()
        await stalled.wait()
        return {"type": "http.disconnect"}

    async def ignore(message: Message) -> None:
        pass

    holding = [
        asyncio.create_task(app(post_scope(COSTLY_BODY + 1, "/v1/best-move/batch"), stalled_body, ignore))
        for _ in range(2)
    ]
    for _ in holding:
        await asyncio.wait_for(reading.acquire(), timeout=60)
    sent: list[Message] = []

    async def keep(message: Message) -> None:
        sent.append(message)

    async def no_body() -> Message:
        raise AssertionError("the body of a refused request is not read")

    # Answered at once: the two admitted requests never end, so a third that waited for them would
    # never be answered.
    await asyncio.wait_for(app(post_scope(COSTLY_BODY + 1, "/v1/best-move/batch"), no_body, keep), timeout=60)
    start = sent[0]
    headers = dict(start["headers"])
    assert start["status"] == 503
    assert headers[b"retry-after"] == b"1"
    assert headers[b"content-type"] == b"application/problem+json"
    assert json.loads(sent[1]["body"])["type"] == "/problems/unavailable"
    # A cheap request (a small body) is not counted, and is answered meanwhile.
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        answer = await client.post("/v1/best-move", json={"board": "X........"})
        assert answer.status_code == 200
    for task in holding:
        task.cancel()
    await asyncio.gather(*holding, return_exceptions=True)


async def test_costly_requests_at_once_are_admitted_up_to_the_limit_then_again(
    client: httpx.AsyncClient,
) -> None:
    items = [{"board": [["X", None, None], [None, None, None], [None, None, None]]}] * 300
    body = json.dumps({"items": items}).encode()
    assert len(body) > COSTLY_BODY

    async def send() -> int:
        return (await client.post("/v1/best-move/batch", content=body, headers=JSON)).status_code

    statuses = await asyncio.gather(*(send() for _ in range(6)))
    assert statuses.count(200) >= 1 and set(statuses) <= {200, 503}, statuses
    assert [await send() for _ in range(3)] == [200] * 3  # one at a time: each admitted


@pytest.mark.parametrize("indent", [4, 8])
async def test_the_longest_valid_request_fits_the_body_limit(client: httpx.AsyncClient, indent: int) -> None:
    body = longest_batch(indent)
    assert len(body) <= MAX_BODY_BYTES == Settings().max_body_bytes
    answer = await client.post("/v1/best-move/batch", content=body, headers=JSON)
    assert answer.status_code == 200, answer.text[:300]
    assert len(answer.json()["results"]) == MAX_BATCH_ITEMS


async def test_a_large_batch_is_refused_at_its_first_unknown_field(client: httpx.AsyncClient) -> None:
    plain: list[dict[str, object]] = [{"board": "X........"}] * 500
    items = plain + [{"board": "X........", f"k{n}": n} for n in range(500)]
    answer = await client.post("/v1/best-move/batch", json={"items": items})
    assert answer.status_code == 422
    assert answer.json()["errors"] == [
        {
            "loc": ["body", "items", 500, "k0"],
            "msg": "Extra inputs are not permitted",
            "type": "extra_forbidden",
        }
    ]
    too_many = {"items": [{"board": "X........"}] * (MAX_BATCH_ITEMS + 1)}
    answer = await client.post("/v1/best-move/batch", json=too_many)
    assert answer.status_code == 422
    assert [error["type"] for error in answer.json()["errors"]] == ["too_long"]
    not_objects = {"items": [{"board": "X........"}] * 400 + [7] * 600}
    answer = await client.post("/v1/best-move/batch", json=not_objects)
    assert answer.json()["errors"][0]["loc"] == ["body", "items", 400]
    assert len(answer.json()["errors"]) == 1


async def test_a_small_faulty_body_lists_every_fault(client: httpx.AsyncClient) -> None:
    answer = await client.post("/v1/best-move", json={"Board": "X........", "extra": 1})
    locations = [error["loc"] for error in answer.json()["errors"]]
    assert (
        ["body", "board"] in locations and ["body", "Board"] in locations and ["body", "extra"] in locations
    )


@pytest.mark.parametrize(
    ("accept", "compressed"),
    [
        ("*;q=0, gzip", True),
        ("gzip;q=0, *", False),
        ("gzip", True),
        ("*", True),
        ("identity", False),
        ("gzip;q=0", False),
        ("deflate, gzip;q=0.5", True),
        ("x-gzip", True),
    ],
)
async def test_content_coding_follows_rfc_9110(
    client: httpx.AsyncClient, accept: str, compressed: bool
) -> None:
    answer = await client.get("/v1/positions/X........", headers={"accept-encoding": accept})
    assert (answer.headers.get("content-encoding") == "gzip") is compressed
    assert answer.headers.get_list("vary") == ["Origin, Accept-Encoding"]
    assert answer.json()["board"] == "X........"  # decompressed by httpx when it was compressed


async def test_one_vary_header_for_cross_origin_answers_too(client: httpx.AsyncClient) -> None:
    answer = await client.get(
        "/v1/positions/X........", headers={"origin": "https://example.org", "accept-encoding": "gzip"}
    )
    (vary,) = answer.headers.get_list("vary")
    assert {token.strip() for token in vary.split(",")} == {"Origin", "Accept-Encoding"}


async def test_the_openapi_document_has_an_entity_tag(client: httpx.AsyncClient, app: FastAPI) -> None:
    first = await client.get("/openapi.json")
    assert first.status_code == 200
    assert first.json() == app.openapi()
    tag = first.headers["etag"]
    assert first.headers["cache-control"] == "no-cache"
    again = await client.get("/openapi.json", headers={"if-none-match": tag})
    assert again.status_code == 304 and again.content == b""
    # The 200 was compressed, so its tag is weak (W/); the 304 names the same entity.
    assert again.headers["etag"].removeprefix("W/") == tag.removeprefix("W/")
