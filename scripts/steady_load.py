"""A steady load on the service, counting every request that fails (standard library only).

    python3 scripts/steady_load.py http://127.0.0.1:8080 --rate 200 --seconds 30 --output load.json

Clients on keep-alive connections send, between them, ``--rate`` requests a second for
``--seconds``: plain ``GET`` and ``POST`` best moves, analyses and small batches, each checked
for its answer. A request fails when it gets no answer, a broken one, or a status other than
``200``. The summary (printed, and written as JSON to ``--output``) gives the requests sent, the
failures with their times and reasons, the slowest answer, and the longest time without a
successful answer: what a client saw of a replica lost or restarted while the load ran. The
container test runs it through the proxy while it kills and restarts replicas.
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import json
import sys
import threading
import time
from dataclasses import dataclass, field
from urllib.parse import urlsplit

REQUESTS = [
    ("GET", "/v1/best-move?board=X........", None, "position"),
    ("POST", "/v1/best-move", {"board": "XO.......", "player": "X"}, "position"),
    ("GET", "/v1/positions/XO..X....", None, "moves"),
    ("POST", "/v1/best-move/batch", {"items": [{"board": "X........"}, {"board": "XO......."}]}, "results"),
    ("POST", "/v1/analysis", {"board": "XOX......"}, "moves"),
]


@dataclass
class Tally:
    sent: int = 0
    failures: list[tuple[float, str]] = field(default_factory=list)
    successes: list[float] = field(default_factory=list)  # the moments answers arrived
    slowest: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock)


@dataclass(frozen=True)
class Schedule:
    """Where and when one client sends: every ``interval`` seconds from ``start`` to ``stop``."""

    host: str
    port: int
    interval: float
    start: float
    stop: float


def client(schedule: Schedule, offset: int, tally: Tally) -> None:
    """Send a request every ``interval`` seconds on one keep-alive connection, opened again as needed."""
    host, port, interval, start = schedule.host, schedule.port, schedule.interval, schedule.start
    connection: http.client.HTTPConnection | None = None
    turn = offset
    due = start + (offset % 10) * interval / 10
    while due < schedule.stop:
        time.sleep(max(0.0, due - time.monotonic()))
        method, path, payload, key = REQUESTS[turn % len(REQUESTS)]
        turn += 1
        began = time.monotonic()
        reason = None
        try:
            if connection is None:
                connection = http.client.HTTPConnection(host, port, timeout=15)
            body = None if payload is None else json.dumps(payload).encode()
            headers = {"Content-Type": "application/json"} if body else {}
            connection.request(method, path, body=body, headers=headers)
            answer = connection.getresponse()
            data = answer.read()
            if answer.status != 200:
                reason = f"{method} {path}: {answer.status} {data[:120]!r}"
            elif key not in json.loads(data):
                reason = f"{method} {path}: no {key} in the answer"
            if answer.will_close:
                connection.close()
                connection = None
        except (OSError, http.client.HTTPException, ValueError) as error:
            reason = f"{method} {path}: {type(error).__name__}: {error}"
            if connection is not None:
                connection.close()
            connection = None
        ended = time.monotonic()
        with tally.lock:
            tally.sent += 1
            tally.slowest = max(tally.slowest, ended - began)
            if reason is None:
                tally.successes.append(ended - start)
            else:
                tally.failures.append((round(ended - start, 3), reason))
        due += interval
    if connection is not None:
        connection.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("url", help="where to send the load, such as http://127.0.0.1:8080")
    parser.add_argument("--rate", type=float, default=200, help="requests a second, in all (200)")
    parser.add_argument("--seconds", type=float, default=30, help="how long (30)")
    parser.add_argument("--clients", type=int, default=20, help="connections at once (20)")
    parser.add_argument("--output", help="write the summary here, as JSON")
    args = parser.parse_args(argv)
    parts = urlsplit(args.url)
    tally = Tally()
    start = time.monotonic()
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    schedule = Schedule(host, port, args.clients / args.rate, start, start + args.seconds)
    threads = [threading.Thread(target=client, args=(schedule, n, tally)) for n in range(args.clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    moments = sorted([0.0, *tally.successes, args.seconds])
    summary = {
        "requests": tally.sent,
        "rate": round(tally.sent / args.seconds, 1),
        "failed": len(tally.failures),
        "failures": tally.failures[:20],
        "slowest_ms": round(tally.slowest * 1000, 1),
        "longest_gap_ms": round(max(b - a for a, b in itertools.pairwise(moments)) * 1000, 1),
    }
    text = json.dumps(summary, indent=2)
    print(text)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as file:
            file.write(text + "\n")
    return 1 if tally.failures else 0


if __name__ == "__main__":
    sys.exit(main())
