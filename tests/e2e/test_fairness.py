"""CPU fairness: a cheap request is answered while a costly one is in progress.

Four clients loop the costliest valid request (a batch of 1,000 items with boards in rows, a
level and a seed) and four the costliest invalid one (a batch of about 1 MB of unknown fields),
each in a process of its own (:mod:`tests.support.fairness`), until each has had
:data:`ADMITTED` of them taken in; the service refuses the others at once with ``503``. Right
behind the last byte of each costly request, a client asks for ``/health`` or a plain best move
on a connection of its own, and goes on with one cheap request after another until the costly
one is answered. Both directly against the service (its admission control, and the long work of
a large request done in a worker thread) and through the proxy.

What is checked is an order of events, not a duration: for each valid batch taken in, the cheap
request sent right behind its last byte is answered before the batch's answer begins. That
cheap request reaches the service with the batch's last byte: a service that queued cheap
requests behind costly ones, or held its event loop from a batch's last byte to its answer,
would answer the batch first, however fast or slow the machine. The invalid batches are load:
all the requests among them are answered as they should be, but the order behind them is not
checked, as their work (parsing and checking some 1 MB, about 10 ms) is too short beside the
turns the event loop gets from a worker thread, which holds the interpreter lock for
milliseconds at a time. How long cheap requests take among costly ones is for the benchmark to
measure.

The costly requests of the variants are checked the same way, one client each: a batch of 1,000
distinct Notakto-3 boards without options, and reviews of the longest 4x4 and Notakto-3 games.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support.fairness import Costly
from tests.support.proxy import proxied
from tests.support.server import running
from tests.support.stats import counts
from tests.support.variant_games import batch_items, review_of_longest_game

#: Costly requests each client has taken in (answered other than ``503``) before it stops.
ADMITTED = 4
#: A bound for waits that a normal run never reaches: each client's whole run.
TIMEOUT = 60
ROOT = Path(__file__).resolve().parents[2]
ROWS = [["X", "O", None], [None, "X", None], [None, None, "O"]]
COSTLY_VALID = json.dumps({"items": [{"board": ROWS, "level": "hard", "seed": n} for n in range(1000)]})
COSTLY_INVALID = json.dumps({"items": [{f"unknown_{k}": k for k in range(60)} for _ in range(900)]})


@pytest.fixture(scope="module")
def urls() -> Iterator[dict[str, str]]:
    env = {"TICTACTOE_LOG_LEVEL": "warning", "TICTACTOE_FORWARDED_ALLOW_IPS": "127.0.0.1"}
    # The proxy's per-client rates would stop these clients, which all share one address, first;
    # its edge cache would answer their cheap best moves without the service, whose order is tested.
    rates = {"PROXY_RATE": "10000", "PROXY_BURST": "10000", "PROXY_EXPENSIVE_RATE": "10000"}
    rates["PROXY_CACHE"] = "off"
    with running(env=env) as service, proxied([f"127.0.0.1:{service.port}"], rates) as proxy:
        yield {"service": service.url, "proxy": proxy.url}


@dataclass
class Seen:
    """What the clients of one kind saw, put together."""

    statuses: Counter[int]
    admitted: list[Costly]
    cheap_statuses: Counter[int]


async def client(url: str, body: str, path: str = "/v1/best-move/batch") -> Seen:
    """One client of :mod:`tests.support.fairness` sending ``body`` to ``path``, run to its end."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.support.fairness",
        url,
        str(ADMITTED),
        str(TIMEOUT),
        path,
        cwd=ROOT,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    try:
        output, _ = await asyncio.wait_for(process.communicate(body.encode()), timeout=2 * TIMEOUT)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert process.returncode == 0, output
    found = json.loads(output)
    return Seen(
        Counter({int(status): count for status, count in found["statuses"].items()}),
        [Costly(**costly) for costly in found["admitted"]],
        Counter({int(status): count for status, count in found["cheap_statuses"].items()}),
    )


def merged(seen: list[Seen]) -> Seen:
    """What several clients saw, as one."""
    return Seen(
        sum((one.statuses for one in seen), Counter()),
        [costly for one in seen for costly in one.admitted],
        sum((one.cheap_statuses for one in seen), Counter()),
    )


async def clients(url: str) -> tuple[Seen, Seen]:
    """Four clients of each kind at once: what those of the valid, then the invalid, request saw."""
    seen = await asyncio.gather(*(client(url, body) for body in [COSTLY_VALID] * 4 + [COSTLY_INVALID] * 4))
    return merged(seen[:4]), merged(seen[4:])


def answered_first(costly: Costly) -> int:
    """How many of the cheap requests sent behind ``costly`` were answered before it."""
    return sum(when < costly.answered for when in costly.cheap_answered)


@pytest.mark.parametrize("through", ["service", "proxy"])
def test_cheap_requests_sent_behind_a_valid_batch_are_answered_first(
    urls: dict[str, str], through: str
) -> None:
    """Every costly request is answered 200 or 422, or refused 503, and every cheap one 200; the
    cheap request sent right behind each valid batch taken in is answered before it."""
    valid, invalid = asyncio.run(clients(urls[through]))
    answered, refused = valid.statuses, invalid.statuses
    # 0 counts connections the service closed after a 503 before the whole body was sent
    assert answered[200] == 4 * ADMITTED and set(answered) <= {200, 503, 0}, answered
    assert refused[422] == 4 * ADMITTED and set(refused) <= {422, 503, 0}, refused
    assert answered[0] <= answered[503] and refused[0] <= refused[503] + refused[422], (answered, refused)
    cheap = valid.cheap_statuses + invalid.cheap_statuses
    assert set(cheap) == {200}, cheap

    first = [answered_first(batch) for batch in valid.admitted]
    counts[f"fairness, {through}: costly requests taken in (200 or 422)"] = len(
        valid.admitted + invalid.admitted
    )
    counts[f"fairness, {through}: costly requests refused 503"] = answered[503] + refused[503]
    counts[f"fairness, {through}: cheap requests answered while a valid batch was in progress"] = sum(first)
    late = [batch for batch, count in zip(valid.admitted, first, strict=True) if count == 0]
    assert not late, f"valid batches answered before the cheap request sent behind them: {late}"


#: The costly requests of the variants, each valid, and answered in a worker thread: batches of 1,000
#: distinct Notakto-3 and 4x4 boards without options, and a review of the longest game of Notakto-3.
#: (A review of 4x4's longest game takes some 3 ms: too short for the cheap request sent behind it to
#: be sure to arrive, through the proxy, while it is in progress.)
VARIANT_COSTLY = {
    "notakto-3 batch": (
        "/v1/best-move/batch",
        {"items": batch_items("notakto-3", 1000)},
    ),
    "4x4 batch": ("/v1/best-move/batch", {"items": batch_items("4x4", 1000)}),
    "notakto-3 review": (
        "/v1/review",
        review_of_longest_game("notakto-3"),
    ),
}


@pytest.mark.parametrize("costly", list(VARIANT_COSTLY))
@pytest.mark.parametrize("through", ["service", "proxy"])
def test_cheap_requests_sent_behind_a_costly_variant_request_are_answered_first(
    urls: dict[str, str], through: str, costly: str
) -> None:
    """One client loops a costly request of the variants: each is answered 200, and the cheap request
    sent right behind each is answered before it (its work is done off the event loop)."""
    path, body = VARIANT_COSTLY[costly]
    seen = asyncio.run(client(urls[through], json.dumps(body), path))
    assert seen.statuses == Counter({200: ADMITTED}), seen.statuses
    assert set(seen.cheap_statuses) == {200}, seen.cheap_statuses
    first = [answered_first(request) for request in seen.admitted]
    counts[f"fairness, {through}, {costly}: cheap requests answered while it was in progress"] = sum(first)
    late = [request for request, count in zip(seen.admitted, first, strict=True) if count == 0]
    assert not late, f"{costly} answered before the cheap request sent behind it: {late}"
