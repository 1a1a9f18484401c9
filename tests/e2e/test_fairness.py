"""CPU fairness: clients that loop the costliest requests leave a cheap client's latency alone.

Four clients loop the costliest valid request (a batch of 1,000 items with boards in rows,
a level and a seed) and four the costliest invalid one (a batch of about 1 MB of unknown
fields); a fifth asks for ``/health`` and plain best moves, first alone, then among them. Its
p99 among them must stay within 10 times its p99 alone, measured in the same run, both against
the service directly (its admission control and sliced batches) and through the proxy.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator

import httpx
import pytest

from tests.support.proxy import proxied
from tests.support.server import running
from tests.support.stats import counts

SECONDS = 4
ROWS = [["X", "O", None], [None, "X", None], [None, None, "O"]]
COSTLY_VALID = json.dumps({"items": [{"board": ROWS, "level": "hard", "seed": n} for n in range(1000)]})
COSTLY_INVALID = json.dumps({"items": [{f"unknown_{k}": k for k in range(60)} for _ in range(900)]})


@pytest.fixture(scope="module")
def urls() -> Iterator[dict[str, str]]:
    env = {"TICTACTOE_LOG_LEVEL": "warning", "TICTACTOE_FORWARDED_ALLOW_IPS": "127.0.0.1"}
    # The proxy's per-client rates would stop these clients, which all share one address, first.
    rates = {"PROXY_RATE": "10000", "PROXY_BURST": "10000", "PROXY_EXPENSIVE_RATE": "10000"}
    with running(env=env) as service, proxied([f"127.0.0.1:{service.port}"], rates) as proxy:
        yield {"service": service.url, "proxy": proxy.url}


LOOP = """
import collections, json, sys, time, urllib.error, urllib.request
url, seconds, body = sys.argv[1], float(sys.argv[2]), sys.stdin.buffer.read()
statuses = collections.Counter()
deadline = time.monotonic() + seconds
while time.monotonic() < deadline:
    request = urllib.request.Request(url + "/v1/best-move/batch", body, {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            answer.read()
            statuses[answer.status] += 1
    except urllib.error.HTTPError as error:
        error.read()
        statuses[error.code] += 1
        if error.code == 503:
            time.sleep(0.05)
    except (ConnectionError, urllib.error.URLError):
        # a server may close a connection after refusing a body it did not read (an early 503)
        statuses[0] += 1
        time.sleep(0.05)
print(json.dumps(statuses))
"""


def loop_costly(url: str, body: str, seconds: float) -> subprocess.Popen[str]:
    """A client in a process of its own that sends ``body`` again and again for ``seconds``."""
    loop = subprocess.Popen(
        [sys.executable, "-c", LOOP, url, str(seconds)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert loop.stdin is not None
    loop.stdin.write(body)
    loop.stdin.close()
    return loop


def statuses_of(loops: list[subprocess.Popen[str]]) -> Counter[int]:
    total: Counter[int] = Counter()
    for loop in loops:
        assert loop.stdout is not None
        output = loop.stdout.read()
        loop.wait(timeout=60)
        total.update({int(code): count for code, count in json.loads(output).items()})
    return total


async def cheap_latencies(url: str, seconds: float) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {"/health": [], "/v1/best-move": []}
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            for path, params in (("/health", {}), ("/v1/best-move", {"board": "X........"})):
                started = time.perf_counter()
                answer = await client.get(path, params=params)
                assert answer.status_code == 200
                times[path].append(time.perf_counter() - started)
            await asyncio.sleep(0.005)
    return times


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


@pytest.mark.parametrize("through", ["service", "proxy"])
def test_costly_clients_leave_a_cheap_clients_latency_within_ten_times(
    urls: dict[str, str], through: str
) -> None:
    url = urls[through]

    idle = asyncio.run(cheap_latencies(url, SECONDS / 2))
    valid = [loop_costly(url, COSTLY_VALID, SECONDS + 1) for _ in range(4)]
    invalid = [loop_costly(url, COSTLY_INVALID, SECONDS + 1) for _ in range(4)]
    time.sleep(0.5)
    loaded = asyncio.run(cheap_latencies(url, SECONDS))
    answered, refused = statuses_of(valid), statuses_of(invalid)
    # 0 counts connections the service closed after a 503 before the whole body was sent
    assert answered[200] > 0 and set(answered) <= {200, 503, 0}, answered
    assert refused[422] > 0 and set(refused) <= {422, 503, 0}, refused
    assert answered[0] <= answered[503] and refused[0] <= refused[503] + refused[422], (answered, refused)
    for path in idle:
        ratio = p99(loaded[path]) / p99(idle[path])
        counts[f"fairness, {through}, {path}: p99 alone (µs)"] = round(p99(idle[path]) * 1e6)
        counts[f"fairness, {through}, {path}: p99 among costly clients (µs)"] = round(p99(loaded[path]) * 1e6)
        counts[f"fairness, {through}, {path}: p99 ratio (x100)"] = round(ratio * 100)
    counts[f"fairness, {through}: costly valid requests answered 200"] = answered[200]
    counts[f"fairness, {through}: costly valid requests refused 503"] = answered[503]
    for path in idle:
        assert p99(loaded[path]) <= 10 * p99(idle[path]), (path, p99(idle[path]), p99(loaded[path]))
