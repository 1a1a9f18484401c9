"""TableRoute: plain requests from the table, the rest through FastAPI, and what it refuses to wrap."""

from __future__ import annotations

from typing import Annotated
from urllib.parse import parse_qsl

import httpx
import pytest
from fastapi import APIRouter, Body, Depends, FastAPI, Request, Response
from hypothesis import given
from hypothesis import strategies as st

from bench.asgi import CONSTANT
from service.schemas import BestMoveRequest
from service.settings import Settings
from service.web import routing
from service.web.app import create_app
from service.web.deps import AnswersDep
from service.web.routes import moves
from service.web.routing import TableRoute

pytestmark = pytest.mark.anyio


async def token(request: Request, authorization: str | None = None) -> str | None:
    """A dependency that reads more than the request: the fast path would skip it."""
    return authorization


def test_a_dependency_the_fast_path_would_skip_is_refused_when_the_route_is_built() -> None:
    router = APIRouter(route_class=TableRoute)
    with pytest.raises(TypeError, match="would skip it"):

        @router.post("/guarded")
        async def guarded(
            move: Annotated[BestMoveRequest, Body()],
            answers: AnswersDep,
            user: Annotated[str | None, Depends(token)],
        ) -> Response:
            return Response()


def test_a_dependency_added_by_include_router_is_refused_when_the_app_is_built() -> None:
    app = FastAPI()
    app.include_router(moves.router, dependencies=[Depends(token)])
    with pytest.raises(TypeError, match="would skip it"):
        app.openapi()  # what create_app does to build every route before serving


def test_an_input_without_a_plain_form_is_refused() -> None:
    router = APIRouter(route_class=TableRoute)
    with pytest.raises(TypeError, match=r"no position|plain form|one model"):

        @router.post("/other")
        async def other(count: Annotated[int, Body()]) -> Response:
            return Response()


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Which path each request took: ``table`` or ``validated``."""
    taken: list[str] = []
    original = routing._plain_arguments

    async def spy(request: Request, inputs: object) -> object:
        arguments = await original(request, inputs)  # type: ignore[arg-type]
        taken.append("validated" if arguments is None else "table")
        return arguments

    monkeypatch.setattr(routing, "_plain_arguments", spy)
    return taken


@pytest.mark.parametrize(
    ("method", "url", "body", "path"),
    [
        ("POST", "/v1/best-move", {"board": "X........"}, "table"),
        ("POST", "/v1/best-move", {"board": "x-o------", "player": "X"}, "table"),
        (
            "POST",
            "/v1/best-move",
            {"board": ["X", None, None, None, None, None, None, None, None]},
            "validated",
        ),
        ("POST", "/v1/best-move", {"board": "X........", "skill": 0.5, "seed": 1}, "validated"),
        ("POST", "/v1/best-move", {"board": "XXXOO...."}, "validated"),
        ("POST", "/v1/best-move/batch", {"items": [{"board": "X........"}, {"board": "........."}]}, "table"),
        (
            "POST",
            "/v1/best-move/batch",
            {"items": [{"board": "X........"}, {"board": "Z........"}]},
            "validated",
        ),
        ("GET", "/v1/best-move?board=X.O......&player=X", None, "table"),
        ("GET", "/v1/best-move?board=X.O......&skill=1", None, "validated"),
        ("GET", "/v1/positions/XXXOO.O..", None, "table"),
        ("GET", "/v1/positions/XX.OO....?player=Z", None, "validated"),
        ("POST", "/v1/analysis", {"board": "XXXOO.O.."}, "table"),
    ],
)
async def test_plain_requests_take_the_table_and_the_rest_fastapi(
    client: httpx.AsyncClient, calls: list[str], method: str, url: str, body: object, path: str
) -> None:
    await client.request(method, url, json=body)
    assert calls == [path]


async def test_both_paths_give_the_same_answers_and_problems(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same requests, once as they come and once all through FastAPI's validation."""
    requests = [
        ("POST", "/v1/best-move", {"board": "X........"}),
        ("POST", "/v1/best-move", {"board": "XXXOO...."}),
        ("POST", "/v1/best-move", {"board": "X........", "player": "X"}),
        ("POST", "/v1/best-move/batch", {"items": [{"board": "X........"}, {"board": "OO.XX...."}]}),
        ("GET", "/v1/best-move?board=X.O......&player=O", None),
        ("GET", "/v1/best-move?board=XXXOO.O..", None),
        ("GET", "/v1/positions/XX.O.....?player=X", None),
        ("GET", "/v1/positions/XXXOO.O..", None),
        ("POST", "/v1/analysis", {"board": ".........", "player": "O"}),
    ]
    app = create_app(Settings(log_level="warning"))

    async def answers() -> list[tuple[int, str, bytes]]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            results = []
            for method, url, body in requests:
                response = await client.request(method, url, json=body)
                results.append((response.status_code, response.headers["content-type"], response.content))
            return results

    fast = await answers()

    async def never_plain(request: Request, inputs: object) -> None:
        return None

    monkeypatch.setattr(routing, "_plain_arguments", never_plain)
    validated = await answers()
    assert [status for status, _, _ in fast] == [200, 422, 422, 200, 200, 422, 422, 200, 200]
    for (method, url, _), one, other in zip(requests, fast, validated, strict=True):
        assert one == other, (method, url)


@given(st.text(alphabet="ab=&%+;X.O 2-_", max_size=40))
def test_query_strings_split_by_hand_as_parse_qsl_splits_them(query: str) -> None:
    assert routing._pairs(query) == parse_qsl(query, keep_blank_values=True)


async def test_the_benchmarks_constant_is_a_real_answer(client: httpx.AsyncClient) -> None:
    """The baselines answer as many bytes as the product does (bench/asgi.py)."""
    response = await client.get("/v1/best-move", params={"board": "X...O...."})
    assert response.content == CONSTANT
