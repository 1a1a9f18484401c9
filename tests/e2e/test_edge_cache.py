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
from service.language import LANGUAGES, chosen
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


def test_the_language_accept_language_chooses_keys_the_cache(edge: Edge) -> None:
    """A browser's header and a bare ``es`` choose Spanish alike: one key, the Spanish answer."""
    path = "/v1/best-move?board=O...X...."
    english = edge.get(path)
    browser = edge.get(path, Accept_Language="es-ES,es;q=0.9,en;q=0.8")
    spanish = edge.get(path, Accept_Language="es")
    expected = httpx.get(f"{edge.service.url}{path}", headers={"Accept-Language": "es"})
    assert [a.headers["X-Cache-Status"] for a in (english, browser, spanish)] == ["MISS", "MISS", "HIT"]
    assert edge.served(browser) and not edge.served(spanish)
    assert english.headers["Content-Language"] == "en"
    assert "accept-language" not in english.headers.get("Vary", "").lower()
    for answer in (browser, spanish):
        assert answer.headers["Content-Language"] == "es"
        assert "accept-language" in answer.headers["Vary"].lower()
        assert answer.json()["reason"] == expected.json()["reason"] != english.json()["reason"]
        assert answer.headers["ETag"] == expected.headers["ETag"] != english.headers["ETag"]


def accept_language_headers(count: int) -> list[str]:
    """``count`` distinct Accept-Language headers, deterministic: most have an offered language as their
    first member with q=1 (which the proxy keys), every fifth not (which it passes on uncached)."""
    headers = []
    for i in range(count):
        lang, other = LANGUAGES[i // 10 % 5], LANGUAGES[(i // 10 + 1) % 5]
        headers.append(
            [
                f"{lang}-X{i:03d},en;q=0.5",
                f"{lang.upper()}-{i:03d}",
                f"{lang}-Latn-X{i:03d};q=1, de;q=0.9",
                f"{lang}-x-p{i:03d} ; q=1.000 ,fr",
                f"{lang}-X{i:03d};Q=1.0,*;q=0.1",
                f"{lang}-CH-{1000 + i}",
                f"{lang}-X{i:03d}\t;\tq=1.00,ja;q=0.5",
                f"{lang}-X{i:03d},{other};q=0.9,en;q=0.8",
                f"ja-X{i:03d},{lang};q=0.9",  # the first member is not offered: a later one chooses
                f"{lang}-X{i:03d};q=0.9,{other}" if i % 20 < 10 else f"*,{other}-X{i:03d};q=0.5",
            ][i % 10]
        )
    return headers


def test_a_thousand_accept_languages_keep_one_answer_in_at_most_five_keys(edge: Edge) -> None:
    """Each answer is the one the service gives for its header (its language by RFC 4647 lookup), and
    is kept under one of five keys however the header is spelled; what the proxy cannot key exactly
    it passes on uncached."""
    path = "/v1/best-move?board=..X.O...."
    headers = accept_language_headers(1000)
    assert len(set(headers)) == 1000
    expected = {
        lang: httpx.get(f"{edge.service.url}{path}", headers={"Accept-Language": lang}) for lang in LANGUAGES
    }
    answers = []
    with httpx.Client(timeout=10) as client:
        for number, header in enumerate(headers):
            rid = f"edge-languages-{number}-{uuid.uuid4().hex}"
            answers.append(
                client.get(
                    f"{edge.proxy.url}{path}", headers={"Accept-Language": header, "X-Request-ID": rid}
                )
            )
    served = {line["request_id"] for line in service_access_log(edge.service)}
    statuses: dict[str, list[httpx.Response]] = {}
    for header, answer in zip(headers, answers, strict=True):
        assert answer.status_code == 200, header
        lang = chosen(None, header)[0]
        assert answer.headers["Content-Language"] == lang, header
        assert (
            answer.content == expected[lang].content
            and answer.headers["ETag"] == expected[lang].headers["ETag"]
        )
        assert "accept-language" in answer.headers["Vary"].lower(), header
        status = answer.headers["X-Cache-Status"]
        statuses.setdefault(status, []).append(answer)
        assert (answer.request.headers["X-Request-ID"] in served) == (status != "HIT"), (header, status)
    assert set(statuses) == {"MISS", "HIT", "BYPASS"}
    # Each MISS put one key in the cache: one per language, whichever header asked first.
    assert sorted(a.headers["Content-Language"] for a in statuses["MISS"]) == sorted(LANGUAGES)
    assert len(statuses["MISS"]) + len(statuses["HIT"]) == 800 and len(statuses["BYPASS"]) == 200
    # Those the proxy did not key were the ones whose first member it could not vouch for.
    assert {a.request.headers["Accept-Language"] for a in statuses["BYPASS"]} == {
        header for number, header in enumerate(headers) if number % 10 >= 8
    }


def test_lang_in_the_query_keys_apart_from_the_header(edge: Edge) -> None:
    """``lang=pt`` is in the canonical request, whatever the header says; ``Accept-Language: pt`` is
    the header's key; ``lang=pt-BR`` is not canonical: a replica looks it up, uncached."""
    path = "/v1/best-move?board=.O..X...."
    by_query = edge.get(f"{path}&lang=pt")
    by_header = edge.get(path, Accept_Language="pt")
    query_again = edge.get(f"{path}&lang=pt", Accept_Language="fr")
    header_again = edge.get(path, Accept_Language="pt-PT, en;q=0.1")
    statuses = [a.headers["X-Cache-Status"] for a in (by_query, by_header, query_again, header_again)]
    assert statuses == ["MISS", "MISS", "HIT", "HIT"]
    for answer in (by_query, query_again):
        assert answer.headers["Content-Language"] == "pt"
        assert "accept-language" not in answer.headers.get("Vary", "").lower()
    for answer in (by_header, header_again):
        assert answer.headers["Content-Language"] == "pt"
        assert "accept-language" in answer.headers["Vary"].lower()
    assert by_query.json()["reason"] == by_header.json()["reason"] != edge.get(path).json()["reason"]
    regional = [edge.get(f"{path}&lang=pt-BR") for _ in range(2)]
    for answer in regional:
        assert answer.status_code == 200 and answer.headers["Content-Language"] == "pt"
        assert answer.headers["X-Cache-Status"] == "BYPASS" and edge.logged(answer)["cache"] == "BYPASS"
        assert edge.served(answer)
        assert answer.json()["reason"] == by_query.json()["reason"]


def test_a_language_chosen_past_the_first_member_is_never_cached(edge: Edge) -> None:
    """``ja, fr;q=0.8``: lookup finds French past a first member not offered; only the service does."""
    path = "/v1/best-move?board=X.......O"
    english = edge.get(path)
    answers = [edge.get(path, Accept_Language="ja, fr;q=0.8") for _ in range(2)]
    assert chosen(None, "ja, fr;q=0.8") == ("fr", True)
    for answer in answers:
        assert answer.status_code == 200 and answer.headers["Content-Language"] == "fr"
        assert "accept-language" in answer.headers["Vary"].lower()
        assert answer.json()["reason"] != english.json()["reason"]
        assert answer.headers["X-Cache-Status"] == "BYPASS" and edge.logged(answer)["cache"] == "BYPASS"
        assert edge.served(answer)
