"""Load and soak: high concurrency on 127.0.0.1, every answer checked, memory flat over 100,000 requests."""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections import Counter

from tests.support import oracle
from tests.support.loadgen import Answer, Request, load, rss_kib
from tests.support.server import Server
from tests.support.stats import counts

SOAK_REQUESTS = int(os.environ.get("SOAK_REQUESTS", "100000"))
CONNECTIONS = 64
MARK = {1: "X", -1: "O"}


def positions() -> list[tuple[str, int]]:
    return sorted((oracle.decode(c), side) for c, sides in oracle.reachable().items() for side in sides)


def requests_for(cases: list[tuple[str, int]]) -> list[Request]:
    """A mix of every endpoint over every unfinished position."""
    mix: list[Request] = []
    for index, (cells, side) in enumerate(cases):
        player = MARK[side]
        kind = index % 4
        if kind == 0:
            mix.append(Request.post("/v1/best-move", {"board": cells, "player": player}))
        elif kind == 1:
            mix.append(Request("GET", f"/v1/best-move?board={cells}&player={player}"))
        elif kind == 2:
            mix.append(Request("GET", f"/v1/positions/{cells}?player={player}"))
        else:
            mix.append(Request.post("/v1/analysis", {"board": cells, "player": player}))
    return mix


def check(request: Request, answer: Answer) -> None:
    """The answer is a 200 and exactly right, by the oracle."""
    assert answer.status == 200, (request, answer.status, answer.body[:200])
    data = json.loads(answer.body)
    cells = data["board"]
    side = 1 if data["player"] == "X" else -1
    expected = oracle.choose(oracle.encode(cells), side)
    chosen = data["position"] if "position" in data else data["moves"][0]["position"]
    assert chosen == expected, (request, data)
    score = data["score"]
    assert (score, data["plies_to_end"]) == oracle.value(oracle.encode(cells), side)


def test_high_concurrency_every_answer_right_and_memory_flat(live_server: Server) -> None:
    cases = positions()
    mix = requests_for(cases)
    # Warm up: every answer rendered once, so that what follows measures steady state.
    asyncio.run(load(live_server.port, mix * 2, CONNECTIONS, timeout=120))
    before = rss_kib(live_server.process.pid)

    rounds = max(1, -(-SOAK_REQUESTS // len(mix)))
    statuses: Counter[int] = Counter()
    started = time.monotonic()
    for _ in range(rounds):
        for request, answer in asyncio.run(load(live_server.port, mix, CONNECTIONS, timeout=120)):
            statuses[answer.status] += 1
            check(request, answer)
    elapsed = time.monotonic() - started
    after = rss_kib(live_server.process.pid)

    sent = sum(statuses.values())
    counts["load requests sent"] += sent
    counts["load requests per second"] = round(sent / elapsed)
    counts["soak RSS before (KiB)"] = before
    counts["soak RSS after (KiB)"] = after
    assert sent >= SOAK_REQUESTS
    assert statuses == Counter({200: sent})
    assert after <= before * 1.05, f"resident memory grew from {before} KiB to {after} KiB"
    assert live_server.process.poll() is None
