"""Replicas behind the shipped proxy fail over with no failed request.

Three services on 127.0.0.1, each a replica with a port of its own, behind the proxy; a steady
load (scripts/steady_load.py) runs through the proxy while one replica is killed outright and
started again, and then all three are restarted one after another with SIGTERM. The container
test does the same with the images; this test runs in seconds, from the repository.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from contextlib import ExitStack
from pathlib import Path

import httpx

from tests.support import ROOT
from tests.support.proxy import proxied
from tests.support.server import Server, free_port, running, wait_healthy
from tests.support.stats import counts

SERVICE = {"TICTACTOE_LOG_LEVEL": "warning", "TICTACTOE_FORWARDED_ALLOW_IPS": "127.0.0.1"}
#: Every request of the load comes from 127.0.0.1: the proxy's per-client rate must allow it. The
#: edge cache is off, so that the load's GETs reach the replicas as its POSTs do.
RATES = {"PROXY_RATE": "2000", "PROXY_BURST": "2000", "PROXY_EXPENSIVE_RATE": "2000", "PROXY_CACHE": "off"}


def test_a_replica_killed_and_a_rolling_restart_fail_no_request(tmp_path: Path) -> None:
    ports = [free_port() for _ in range(3)]
    with ExitStack() as stack:
        replicas: list[Server] = [
            stack.enter_context(running(env={**SERVICE, "TICTACTOE_PORT": str(port)})) for port in ports
        ]
        proxy = stack.enter_context(proxied([f"127.0.0.1:{port}" for port in ports], RATES))
        summary = tmp_path / "load.json"
        load = subprocess.Popen(
            [sys.executable, str(ROOT / "scripts" / "steady_load.py"), proxy.url]
            + ["--rate", "200", "--seconds", "16", "--output", str(summary)],
            stdout=subprocess.DEVNULL,
        )
        time.sleep(2)
        os.kill(replicas[0].process.pid, signal.SIGKILL)
        replicas[0].process.wait()
        time.sleep(2)
        replicas[0] = stack.enter_context(running(env={**SERVICE, "TICTACTOE_PORT": str(ports[0])}))
        for index, port in enumerate(ports):  # a rolling restart: SIGTERM, start, wait healthy, next
            assert replicas[index].stop() == 0
            replicas[index] = stack.enter_context(running(env={**SERVICE, "TICTACTOE_PORT": str(port)}))
            wait_healthy(replicas[index], 30)
            time.sleep(1)
        load.wait(timeout=60)
        result = json.loads(summary.read_text())
        assert httpx.get(f"{proxy.url}/health").status_code == 200
    counts["failover, 3 replicas: requests sent at ~200/s"] = result["requests"]
    counts["failover, 3 replicas: failed requests"] = result["failed"]
    counts["failover, 3 replicas: slowest answer (ms)"] = round(result["slowest_ms"])
    counts["failover, 3 replicas: longest time without an answer (ms)"] = round(result["longest_gap_ms"])
    assert result["requests"] >= 16 * 200 * 0.9
    assert result["failed"] == 0, result["failures"]
