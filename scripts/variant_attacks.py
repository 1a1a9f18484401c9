"""The attacks found on the variants, at full size, with their figures: for an operator or a reviewer.

    .venv/bin/python -m scripts.variant_attacks [--quick]

Starts three replicas of ``python -m service`` on 127.0.0.1 behind the shipped proxy (deploy/proxy,
its default limits and its edge cache), and one more replica on its own, then runs each attack and
prints what it did. Every client sends from an address of its own in 127.0.0.0/8 (all of it
loopback), as clients at other addresses reach the proxy. Nothing is asserted: the suite's
``tests/e2e/test_variant_attacks.py`` runs the same attacks, smaller, and asserts what must hold.

1. crafted GETs at 30 a second from one address (a cache key of 3.3 to 3.5 KB, by empty query pairs
   or a long ``Origin``), while a victim at another address asks for best moves: how many of the
   victim's requests fail, and whether nginx put a replica aside;
2. requests with invalid boards and players of 30 to 60 KB, directly (25,000) and through the proxy
   (10,000 of 4 to 8 KB, the longest it passes on): how much the replicas' memory grows;
3. a flood of spellings of one answer (20,000 GETs, 90 from each of 223 addresses): what the
   cache holds after, and whether an answer cached before is still a hit;
4. reviews of Notakto-3 looped by one address for 8 s through the proxy: the p99 of another
   client's best moves, beside the same with nothing else running.
"""

from __future__ import annotations

import argparse
import statistics
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager

import httpx

from tests.support.loadgen import rss_kib
from tests.support.proxy import Proxy, proxied
from tests.support.server import Server, running
from tests.support.variant_games import review_of_longest_game

SERVICE = {"TICTACTOE_LOG_LEVEL": "warning", "TICTACTOE_FORWARDED_ALLOW_IPS": "127.0.0.1"}
MARKED_DOWN = ("temporarily disabled", "no live upstreams", "too big header")


def client(url: str, source: str) -> httpx.Client:
    return httpx.Client(base_url=url, transport=httpx.HTTPTransport(local_address=source), timeout=30)


@contextmanager
def victim(url: str, source: str = "127.0.0.2", rate: float = 40) -> Iterator[list[tuple[int, float]]]:
    """A client asking for a best move ``rate`` times a second (POST: never cached) while the block
    runs: the status and duration of each request."""
    seen: list[tuple[int, float]] = []
    done = threading.Event()

    def run() -> None:
        with client(url, source) as http:
            while not done.is_set():
                started = time.monotonic()
                try:
                    status = http.post(
                        "/v1/best-move", json={"variant": "4x4", "board": "X" + "." * 15}
                    ).status_code
                except httpx.HTTPError:
                    status = 0
                seen.append((status, time.monotonic() - started))
                done.wait(max(0.0, 1 / rate - (time.monotonic() - started)))

    thread = threading.Thread(target=run)
    thread.start()
    try:
        yield seen
    finally:
        done.set()
        thread.join()


def paced(seconds: float, rate: float, send: Callable[[int], None]) -> int:
    """``send(n)`` ``rate`` times a second for ``seconds``; how many were sent."""
    started, n = time.monotonic(), 0
    while time.monotonic() - started < seconds:
        send(n)
        n += 1
        time.sleep(max(0.0, started + n / rate - time.monotonic()))
    return n


def p99(durations: list[float]) -> float:
    return statistics.quantiles(durations, n=100)[98] * 1000 if len(durations) > 1 else float("nan")


def crafted_gets(proxy: Proxy, seconds: float) -> None:
    statuses: Counter[int] = Counter()
    padding = "/v1/best-move?variant=4x4&board=X...............&"
    with client(proxy.url, "127.0.3.1") as bad, victim(proxy.url) as seen:

        def send(n: int) -> None:
            size = 3300 + (n * 7) % 200
            if n % 2:
                answer = bad.get(padding + "&" * (size - len(padding)))
            else:
                origin = "https://" + "o" * (size - 12) + ".org"
                answer = bad.get("/v1/variants", headers={"Origin": origin, "Cookie": "a=b"})
            statuses[answer.status_code] += 1

        sent = paced(seconds, 30, send)
    failed = sum(1 for status, _ in seen if status != 200)
    log = proxy.error_log()
    down = sum(1 for line in log.splitlines() if any(sign in line for sign in MARKED_DOWN))
    print(f"1. {sent} crafted GETs in {seconds:.0f} s: {dict(statuses)}")
    print(f"   victim: {failed} of {len(seen)} failed ({100 * failed / max(1, len(seen)):.1f} %)")
    print(f"   proxy error log: {down} lines of a replica put aside, {log.count('[error]')} [error] lines")


def invalid_path(n: int, size: int) -> str:
    variant = ["4x4", "notakto-3", "wild", "misere"][n % 4]
    text = "X" * size if n % 3 else "." * (size // 2) + "Q"
    if n % 3 == 0:
        return f"/v1/best-move?variant={variant}&board={text}"
    if n % 3 == 1:
        return f"/v1/positions/{'X' * 16}?variant={variant}&player={text}"
    return f"/v1/positions/{text}?variant={variant}"


def invalid_boards(alone: Server, proxy: Proxy, replicas: list[Server], count: int) -> None:
    with httpx.Client(base_url=alone.url, timeout=30) as http:
        for n in range(300):  # the allocator's arenas and the interpreter's caches settle first
            http.get(invalid_path(n, 30_000 + (n * 977) % 30_000))
    before = rss_kib(alone.process.pid)
    started = time.monotonic()
    statuses: Counter[int] = Counter()
    with httpx.Client(base_url=alone.url, timeout=30) as http:
        for n in range(count):
            statuses[http.get(invalid_path(n, 30_000 + (n * 977) % 30_000)).status_code] += 1
    took = time.monotonic() - started
    after = rss_kib(alone.process.pid)
    print(f"2. {count} invalid 30-60 KB boards and players, directly, in {took:.0f} s: {dict(statuses)}")
    print(f"   RSS {before / 1024:.0f} MB -> {after / 1024:.0f} MB ({(after - before) / 1024:+.1f} MB)")
    before_all = [rss_kib(replica.process.pid) for replica in replicas]
    statuses.clear()
    through = count * 2 // 5
    for start in range(0, through, 90):  # each address within its burst
        with client(proxy.url, f"127.0.4.{1 + start // 90 % 250}") as http:
            for n in range(start, min(start + 90, through)):
                path = invalid_path(3 * n, 4000 + (n * 977) % 4000)  # a best move: the general rate
                statuses[http.get(path).status_code] += 1
    after_all = [rss_kib(replica.process.pid) for replica in replicas]
    grown = ", ".join(f"{(b - a) / 1024:+.1f}" for a, b in zip(before_all, after_all, strict=True))
    print(f"   {through} of 4-8 KB through the proxy: {dict(statuses)}; the replicas' RSS {grown} MB")


def cached_files(proxy: Proxy) -> list[int]:
    """The sizes of the answers the edge cache holds on disk."""
    return [path.stat().st_size for path in (proxy.run / "cache").rglob("*") if path.is_file()]


def cache_flood(proxy: Proxy, count: int) -> None:
    kept = "/v1/best-move?variant=notakto-2&board=X.................&player=second"
    with client(proxy.url, "127.0.0.2") as good:
        good.get(kept)
        hit_before = good.get(kept).headers.get("x-cache-status")
    cached = len(cached_files(proxy))
    spelled: list[Callable[[int], str]] = [
        lambda n: f"{kept}{'&' * (1 + n % 500)}",
        lambda n: kept.replace("?", "?" + "&" * (1 + n % 500)),
        lambda n: kept.replace(".", "%2E", 1 + n % 17) + "&" * (n // 17 % 50),
        lambda n: kept.replace(".", "-", 1 + n % 17) + "&" * (n // 17 % 50),
    ]
    statuses: Counter[str] = Counter()
    started = time.monotonic()
    for start in range(0, count, 90):  # each address within its burst
        with client(proxy.url, f"127.0.{5 + start // 90 // 250}.{1 + start // 90 % 250}") as http:
            for n in range(start, min(start + 90, count)):
                answer = http.get(spelled[n % len(spelled)](n))
                statuses[f"{answer.status_code} {answer.headers.get('x-cache-status')}"] += 1
    took = time.monotonic() - started
    with client(proxy.url, "127.0.0.2") as good:
        hit_after = good.get(kept).headers.get("x-cache-status")
    after = cached_files(proxy)
    print(f"3. {count} spellings of one answer in {took:.0f} s: {dict(statuses)}")
    print(f"   cache: {cached} answers before, {len(after)} after ({sum(after) / 1024:.0f} KiB on disk)")
    print(f"   the answer cached before: {hit_before} before, {hit_after} after")
    print(f"   proxy error log: {len(proxy.error_log())} bytes")


def reviews(proxy: Proxy, seconds: float) -> None:
    body = review_of_longest_game("notakto-3")
    with victim(proxy.url, "127.0.0.3") as idle:
        time.sleep(seconds)
    statuses: Counter[int] = Counter()
    done = threading.Event()

    def loop() -> None:
        with client(proxy.url, "127.0.6.1") as bad:
            while not done.is_set():
                statuses[bad.post("/v1/review", json=body).status_code] += 1

    with victim(proxy.url, "127.0.0.3") as busy:
        thread = threading.Thread(target=loop)
        thread.start()
        time.sleep(seconds)
        done.set()
        thread.join()
    print(f"4. Notakto-3 reviews looped for {seconds:.0f} s by one address: {dict(statuses)}")
    print(
        f"   another client's best moves: p99 {p99([d for _, d in idle]):.1f} ms alone, "
        f"{p99([d for _, d in busy]):.1f} ms meanwhile"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of the requests, shorter loops")
    quick = parser.parse_args().quick
    with ExitStack() as stack:
        replicas = [stack.enter_context(running(env=SERVICE)) for _ in range(3)]
        alone = stack.enter_context(running(env=SERVICE))
        proxy = stack.enter_context(proxied([f"127.0.0.1:{replica.port}" for replica in replicas]))
        crafted_gets(proxy, 5 if quick else 20)
        invalid_boards(alone, proxy, replicas, 2_500 if quick else 25_000)
        cache_flood(proxy, 2_000 if quick else 20_000)
        reviews(proxy, 3 if quick else 8)


if __name__ == "__main__":
    main()
