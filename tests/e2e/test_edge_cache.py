"""The edge cache: the shipped proxy (deploy/proxy) keeps what the service marks cacheable.

The proxy is the system's nginx running the repository's configuration, rendered by the image's
own entrypoint, on 127.0.0.1 in front of one service. Whether an answer came from the cache is
read from what the proxy says (``X-Cache-Status`` and the ``cache`` field of its access log) and
from what the service saw (its access log, one line per request it answered).
"""

from __future__ import annotations

import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from service import __version__
from tests.support.proxy import Proxy, proxied, proxy_access_log, service_access_log
from tests.support.server import Server, running

SERVICE = {"TICTACTOE_LOG_LEVEL": "info", "TICTACTOE_FORWARDED_ALLOW_IPS": "127.0.0.1"}
#: Every request comes from 127.0.0.1: the proxy's per-client rates must allow the lot.
RATES = {"PROXY_RATE": "1000", "PROXY_BURST": "1000", "PROXY_EXPENSIVE_RATE": "1000"}


@dataclass
class Edge:
    service: Server
    proxy: Proxy

    def get(self, path: str, **headers: str) -> httpx.Response:
        """``path`` through the proxy, with a request id of its own and ``headers`` (``_`` for ``-``)."""
        sent = {name.replace("_", "-"): value for name, value in headers.items()}
        sent.setdefault("X-Request-ID", f"edge-{uuid.uuid4().hex}")
        return httpx.get(f"{self.proxy.url}{path}", headers=sent, timeout=10)

    def served(self, answer: httpx.Response) -> bool:
        """Whether the service answered the request of ``answer`` (its access log has its id)."""
        request_id = answer.request.headers["X-Request-ID"]
        return any(line["request_id"] == request_id for line in service_access_log(self.service))

    def logged(self, answer: httpx.Response) -> dict[str, Any]:
        """The proxy's access-log line of the request of ``answer``."""
        request_id = answer.request.headers["X-Request-ID"]
        (line,) = [
            line for line in proxy_access_log(self.proxy, request_id) if line["request_id"] == request_id
        ]
        return line


@pytest.fixture(scope="module")
def edge() -> Iterator[Edge]:
    with running(env=SERVICE) as service, proxied([f"127.0.0.1:{service.port}"], RATES) as proxy:
        yield Edge(service, proxy)


@pytest.mark.parametrize(
    "path",
    [
        "/v1/best-move?board=X...O....",
        "/v1/positions/X...O...X",
        "/v1/puzzles?limit=3",
        "/v1/puzzles/random?seed=7",
        "/v1/puzzles?variant=notakto-3&theme=hand_over&limit=2",
        "/v1/puzzles/misere:..OXX.OXOO",
        "/v1/puzzles?variant=wild&limit=1&cursor=wild:.OOOOXXXO",
    ],
)
def test_a_second_get_is_a_hit_that_never_reaches_the_service(edge: Edge, path: str) -> None:
    first, second = edge.get(path), edge.get(path)
    assert first.status_code == second.status_code == 200
    assert first.headers["Cache-Control"] == "public, max-age=86400"
    assert (first.headers["X-Cache-Status"], second.headers["X-Cache-Status"]) == ("MISS", "HIT")
    assert (edge.logged(first)["cache"], edge.logged(second)["cache"]) == ("MISS", "HIT")
    assert edge.served(first) and not edge.served(second)
    assert second.content == first.content and second.headers["ETag"] == first.headers["ETag"]
    # The answer from the cache carries its own request's id, not the one that filled the cache.
    assert second.headers["X-Request-ID"] == second.request.headers["X-Request-ID"]


def test_a_matching_if_none_match_gets_304_from_the_cache(edge: Edge) -> None:
    path = "/v1/positions/XO.......?player=X"
    first = edge.get(path)
    tag = first.headers["ETag"]
    again = edge.get(path, If_None_Match=tag)
    assert again.status_code == 304 and again.headers["X-Cache-Status"] == "HIT" and not again.content
    assert again.headers["ETag"] == tag
    assert not edge.served(again)
    other = edge.get(path, If_None_Match='"not-this-one"')
    assert other.status_code == 200 and other.headers["X-Cache-Status"] == "HIT"


def test_a_client_that_sends_if_none_match_first_gets_its_304_and_fills_the_cache(edge: Edge) -> None:
    """The service is asked for the whole answer (nginx leaves the condition out), which is kept."""
    path = "/v1/best-move?board=O.X.X....&player=O"
    tag = httpx.get(f"{edge.service.url}{path}", headers={"Accept-Encoding": "identity"}).headers["ETag"]
    first = edge.get(path, If_None_Match=tag, Accept_Encoding="identity")
    assert first.status_code == 304 and first.headers["X-Cache-Status"] == "MISS"
    second = edge.get(path, Accept_Encoding="identity")
    assert second.status_code == 200 and second.headers["X-Cache-Status"] == "HIT"
    assert second.headers["ETag"] == tag


def test_the_content_coding_asked_for_keys_the_cache(edge: Edge) -> None:
    """gzip or identity, however the client spells it: a client never gets a coding it refused."""
    path = "/v1/positions/X...O.X.O"
    gzipped = edge.get(path, Accept_Encoding="gzip")
    same = edge.get(path, Accept_Encoding="br, gzip;q=0.8, deflate")
    plain = edge.get(path, Accept_Encoding="identity")
    refused = edge.get(path, Accept_Encoding="gzip;q=0")
    nothing = edge.get(path, Accept_Encoding="")
    statuses = [a.headers["X-Cache-Status"] for a in (gzipped, same, plain, refused, nothing)]
    assert statuses == ["MISS", "HIT", "MISS", "HIT", "HIT"]
    assert gzipped.headers["Content-Encoding"] == same.headers["Content-Encoding"] == "gzip"
    for answer in (plain, refused, nothing):
        assert "Content-Encoding" not in answer.headers
        assert answer.content == gzipped.content  # httpx decoded the gzip one


def test_cross_origin_answers_are_kept_apart(edge: Edge) -> None:
    """The service answers CORS headers only to a request with an Origin: it is in the key."""
    path = "/v1/best-move?board=.X.O.....&player=X"
    alone = edge.get(path)
    crossed = edge.get(path, Origin="https://game.example")
    again = edge.get(path, Origin="https://game.example")
    assert "Access-Control-Allow-Origin" not in alone.headers
    assert crossed.headers["X-Cache-Status"] == "MISS" and again.headers["X-Cache-Status"] == "HIT"
    assert again.headers["Access-Control-Allow-Origin"] == "*"


def test_posts_no_store_answers_and_errors_are_never_cached(edge: Edge) -> None:
    def twice(send: Any) -> list[httpx.Response]:
        return [send(f"never-{uuid.uuid4().hex}") for _ in range(2)]

    post = twice(
        lambda rid: httpx.post(
            f"{edge.proxy.url}/v1/best-move", json={"board": "X...O...."}, headers={"X-Request-ID": rid}
        )
    )
    no_store = twice(lambda rid: edge.get("/v1/puzzles/random", X_Request_ID=rid))
    invalid = twice(lambda rid: edge.get("/v1/best-move?board=XXX", X_Request_ID=rid))
    missing = twice(lambda rid: edge.get("/v1/puzzles/X........X", X_Request_ID=rid))
    assert [a.status_code for a in post + no_store + invalid + missing] == [200] * 4 + [422] * 2 + [404] * 2
    assert no_store[0].headers["Cache-Control"] == "no-store"
    for answer in post + no_store + invalid + missing:
        assert edge.served(answer), answer.request.url
        assert answer.headers.get("X-Cache-Status") != "HIT"
    assert "X-Cache-Status" not in post[1].headers  # a POST is not even looked up
    assert {edge.logged(a)["cache"] for a in no_store + missing} == {"MISS"}
    # A board no variant has is no canonical request: it is not even looked up.
    assert {edge.logged(a)["cache"] for a in invalid} == {"BYPASS"}


def test_health_is_never_cached(edge: Edge) -> None:
    """An answer without Cache-Control is not kept: nginx gives none a lifetime of its own."""
    answers = [edge.get("/health") for _ in range(2)]
    assert all(edge.served(answer) for answer in answers)


def test_a_new_version_does_not_serve_the_old_answers() -> None:
    """A proxy started for another version of the service, in the same directory, starts empty.

    (The directory is one nginx's workers can reach when the tests run as root, as ``proxied``'s own.)
    """
    path = "/v1/best-move?board=X........"
    with running(env=SERVICE) as service, tempfile.TemporaryDirectory(prefix="tictactoe-proxy-") as run:
        tmp_path = Path(run)
        upstream = [f"127.0.0.1:{service.port}"]
        with proxied(upstream, RATES, run=tmp_path) as proxy:
            edge = Edge(service, proxy)
            assert [edge.get(path).headers["X-Cache-Status"] for _ in range(2)] == ["MISS", "HIT"]
        assert [kept.name for kept in (tmp_path / "cache").iterdir()] == [__version__]
        with proxied(upstream, RATES, run=tmp_path) as proxy:  # the same version keeps its answers
            assert Edge(service, proxy).get(path).headers["X-Cache-Status"] == "HIT"
        with proxied(upstream, {**RATES, "PROXY_SERVICE_VERSION": "99.0.0"}, run=tmp_path) as proxy:
            edge = Edge(service, proxy)
            assert [kept.name for kept in (tmp_path / "cache").iterdir()] == ["99.0.0"]
            first = edge.get(path)
            assert first.headers["X-Cache-Status"] == "MISS" and edge.served(first)
            assert edge.get(path).headers["X-Cache-Status"] == "HIT"


def test_the_cache_can_be_turned_off(edge: Edge) -> None:
    with proxied([f"127.0.0.1:{edge.service.port}"], {**RATES, "PROXY_CACHE": "off"}) as proxy:
        uncached = Edge(edge.service, proxy)
        answers = [uncached.get("/v1/best-move?board=.........") for _ in range(2)]
        assert all(uncached.served(answer) for answer in answers)
        assert all("X-Cache-Status" not in answer.headers for answer in answers)
