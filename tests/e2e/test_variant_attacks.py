"""The attacks found on the variants, run again: each asserts what the service and the edge do.

Through the proxy, the shipped configuration (deploy/proxy) in front of three replicas, as the
failover test runs it, with its default per-client limits and its edge cache; each attacker sends
from an address of its own in 127.0.0.0/8 (all of it loopback), and a victim at another address
checks that the service still answers. Directly, one service. Every attack is bounded in count and
time, and asserts properties (statuses, what the proxy logged, what the cache holds, memory), never
a duration.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from tests.support.loadgen import rss_kib
from tests.support.proxy import Proxy, proxied, proxy_access_log
from tests.support.server import Server, running
from tests.support.stats import counts
from tests.support.variant_games import batch_items

SERVICE = {"TICTACTOE_LOG_LEVEL": "warning", "TICTACTOE_FORWARDED_ALLOW_IPS": "127.0.0.1"}
VICTIM = "127.0.0.2"
JSON = {"Content-Type": "application/json"}
#: What nginx writes when it puts a replica aside (``max_fails``), or cannot read an answer's headers.
MARKED_DOWN = ("temporarily disabled", "no live upstreams", "too big header")


@dataclass
class Edge:
    replicas: list[Server]
    proxy: Proxy

    def client(self, source: str) -> httpx.Client:
        """A client of the proxy sending from ``source``, an address of 127.0.0.0/8."""
        transport = httpx.HTTPTransport(local_address=source)
        return httpx.Client(base_url=self.proxy.url, transport=transport, timeout=30)

    def cached(self) -> list[Path]:
        """The answers the edge cache holds on disk."""
        return [path for path in (self.proxy.run / "cache").rglob("*") if path.is_file()]


@pytest.fixture(scope="module")
def edge() -> Iterator[Edge]:
    """Three replicas behind the shipped proxy, its limits and its cache as they ship."""
    with ExitStack() as stack:
        replicas = [stack.enter_context(running(env=SERVICE)) for _ in range(3)]
        proxy = stack.enter_context(proxied([f"127.0.0.1:{replica.port}" for replica in replicas]))
        yield Edge(replicas, proxy)


def attacker(number: int) -> str:
    return f"127.0.2.{number}"


def padded(size: int) -> str:
    """A cacheable GET whose URI is about ``size`` bytes: empty query pairs, which the service ignores."""
    path = "/v1/best-move?variant=4x4&board=X...............&"
    return path + "&" * (size - len(path))


def test_crafted_gets_never_put_a_replica_aside(edge: Edge) -> None:
    """GETs padded up to the edge's bounds (a URI of 3 to 8 KB of empty pairs; an Origin of 3 to 8 KB
    that the service echoes, with a cookie) at 30 a second, well within the default rate: each is
    answered by a replica or refused by the edge (414, 431) as problem+json, none is a 502 or 503,
    nginx never puts a replica aside, and the victim's requests all succeed, on every replica."""
    statuses: dict[int, int] = {}
    victim: dict[int, int] = {}
    marker = f"victim-{time.monotonic_ns()}"
    with edge.client(attacker(1)) as bad, edge.client(VICTIM) as good:
        for second in range(4):
            started = time.monotonic()
            for n in range(30):
                size = 3000 + (second * 30 + n) * 45  # 3,000 to 8,400 bytes
                if n % 2:
                    answer = bad.get(padded(size))
                else:
                    origin = "https://" + "o" * (size - 12) + ".org"
                    answer = bad.get("/v1/variants", headers={"Origin": origin, "Cookie": "a=b"})
                statuses[answer.status_code] = statuses.get(answer.status_code, 0) + 1
                if answer.status_code >= 400:
                    assert answer.headers["content-type"] == "application/problem+json", answer.text
                    assert answer.json()["status"] == answer.status_code
                for _ in range(2):
                    mine = good.post(
                        "/v1/best-move",
                        json={"variant": "4x4", "board": "X..............."},
                        headers={"X-Request-ID": marker},
                    )
                    victim[mine.status_code] = victim.get(mine.status_code, 0) + 1
            time.sleep(max(0.0, 1 - (time.monotonic() - started)))
    counts["crafted GETs at the edge, 3 replicas: answered by a replica"] = statuses.get(200, 0)
    refused = statuses.get(414, 0) + statuses.get(431, 0)
    counts["crafted GETs at the edge, 3 replicas: refused 414 or 431"] = refused
    counts["crafted GETs at the edge, 3 replicas: victim's requests answered 200"] = victim.get(200, 0)
    assert set(statuses) <= {200, 414, 431}, statuses
    assert statuses.get(200, 0) >= 60, statuses  # those within the bounds reach a replica
    assert victim == {200: 240}, victim
    lines = [line for line in proxy_access_log(edge.proxy, marker) if line["request_id"] == marker]
    assert len({line["upstream"] for line in lines}) == 3  # every replica answered the victim
    log = edge.proxy.error_log()
    assert not [line for line in log.splitlines() if any(sign in line for sign in MARKED_DOWN)], log[-2000:]
    assert "[error]" not in log, log[-2000:]


def test_a_burst_of_costly_batches_puts_no_replica_aside(edge: Edge) -> None:
    """Ten batches of 1,000 Notakto-3 boards at once from one address (within the stricter rate's
    burst): each replica takes one and refuses the others with 503, which the edge tries on another
    replica; no replica is put aside, and another client's batches, sent right after, are answered."""
    body = json.dumps({"items": batch_items("notakto-3", 1000)})

    def costly(_: int) -> int:
        with edge.client(attacker(30)) as bad:
            return bad.post("/v1/best-move/batch", content=body, headers=JSON).status_code

    with ThreadPoolExecutor(10) as pool:
        statuses = Counter(pool.map(costly, range(10)))
    with edge.client(VICTIM) as good:
        mine = [
            good.post("/v1/best-move/batch", json={"items": [{"board": "X........"}] * 300}) for _ in range(5)
        ]
    counts["a burst of 10 costly batches, 3 replicas: answered 200, the others 503"] = statuses[200]
    assert statuses[200] >= 1 and set(statuses) <= {200, 503}, statuses
    assert [answer.status_code for answer in mine] == [200] * 5
    log = edge.proxy.error_log()
    assert not [line for line in log.splitlines() if any(sign in line for sign in MARKED_DOWN)], log[-2000:]


def test_a_flood_of_spellings_of_one_answer_keeps_the_cache(edge: Edge) -> None:
    """Many spellings of one answer (padding, percent-encoding, lower case, other empty symbols,
    repeated parameters), within the per-client rate: each is answered, none is kept, and the
    answers the cache held before are still hits."""
    kept = "/v1/best-move?variant=notakto-2&board=X.................&player=second"
    other = "/v1/positions/X...O....?variant=misere"
    with edge.client(VICTIM) as good:
        for path in (kept, other):
            good.get(path)
            assert good.get(path).headers["x-cache-status"] == "HIT"
        # The same two answers with their parameters in another order: the same key.
        reordered = good.get("/v1/best-move?player=second&board=X.................&variant=notakto-2")
        assert reordered.headers["x-cache-status"] == "HIT"
    before = len(edge.cached())
    spellings = [
        *(f"{kept}{'&' * n}" for n in range(1, 201)),
        *(kept.replace(".", "%2E", n) for n in range(1, 18)),
        *(kept.replace("X", "x").replace(".", symbol, n) for symbol in "-_" for n in range(1, 18)),
        *(f"{kept}&variant=notakto-2{'&' * n}" for n in range(40)),
        *(kept.replace("?", "?" + "&" * n) for n in range(1, 100)),
    ]
    statuses: dict[int, int] = {}
    for start in range(0, len(spellings), 90):  # each address within its burst of 100
        with edge.client(attacker(10 + start // 90)) as bad:
            for path in spellings[start : start + 90]:
                answer = bad.get(path)
                statuses[answer.status_code] = statuses.get(answer.status_code, 0) + 1
                assert answer.headers.get("x-cache-status") in ("BYPASS", None), path
    counts["cache flood: spellings of one answer sent"] = len(spellings)
    assert set(statuses) <= {200, 422}, statuses
    assert statuses.get(422, 0) == 40  # the repeated parameter, which the service refuses
    assert len(edge.cached()) == before
    with edge.client(VICTIM) as good:
        for path in (kept, other):
            assert good.get(path).headers["x-cache-status"] == "HIT", path


def test_refusals_at_the_edge_write_no_error_line(edge: Edge) -> None:
    """A URI over 8 KiB gets 414, a header line over 8 KiB 431, a burst past the rate 429, as
    problem+json; the proxy's error log gets no line for them (nginx notes them at info level,
    below the level it logs): the access log has each one."""
    with edge.client(attacker(40)) as bad:
        for n in range(30):
            assert bad.get(padded(8300 + 100 * n)).status_code == 414
            answer = bad.get("/v1/variants", headers={"Origin": "https://" + "o" * (8200 + 100 * n)})
            assert answer.status_code == 431 and answer.json()["status"] == 431
    with edge.client(attacker(41)) as bad:
        refused = [bad.get(padded(4000)).status_code for _ in range(150)].count(429)
    assert refused > 0
    assert "[error]" not in edge.proxy.error_log()


#: Invalid requests of 30 to 60 KB: boards and players no variant has, in every form a lookup takes.
def invalid(n: int) -> tuple[str, str, bytes | None]:
    size = 30_000 + (n * 977) % 30_000
    variant = ["4x4", "notakto-3", "wild", "misere"][n % 4]
    text = "X" * size if n % 3 else "." * (size // 2) + "Q"
    kind = n % 3
    if kind == 0:
        return "GET", f"/v1/best-move?variant={variant}&board={text}", None
    if kind == 1:
        return "GET", f"/v1/positions/{'X' * 16}?variant={variant}&player={text}", None
    return "GET", f"/v1/positions/{text}?variant={variant}", None


def test_invalid_boards_and_players_are_not_kept() -> None:
    """3,000 requests with invalid boards or players of 30 to 60 KB, each a 422, directly: the
    worker's resident memory grows by less than 10 MB (before the lookup checked a string first, the
    same requests kept some 100 MB)."""
    with running(env=SERVICE) as service, httpx.Client(base_url=service.url, timeout=30) as client:
        for n in range(300):  # the allocator's arenas and the interpreter's caches settle first
            method, url, content = invalid(n)
            assert client.request(method, url, content=content).status_code == 422
        before = rss_kib(service.process.pid)
        for n in range(300, 3300):
            method, url, content = invalid(n)
            assert client.request(method, url, content=content).status_code == 422, url[:80]
        grown = rss_kib(service.process.pid) - before
    counts["3,000 invalid 30-60 KB boards and players: RSS growth (KiB)"] = grown
    assert grown < 10 * 1024
