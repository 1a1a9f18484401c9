"""The edge cache, measured through the shipped proxy: what answering at the edge is worth.

Three nginx servers on 127.0.0.1, each run as the system's nginx runs them: the shipped proxy
(``deploy/proxy``, rendered by its own entrypoint) with its edge cache, filled first with every
request of the mix; the same proxy with ``PROXY_CACHE=off``, which sends every request to the
product; and a plain nginx serving one static file as large as the median answer of the mix, with
an access log as the proxy has. Both proxies are in front of the product's worker of the rounds,
with per-client limits out of the way (wrk sends from one address). wrk loops the same
``GET /v1/positions/{board}`` mix through both proxies, and the static file; every target runs in
every round, in turn (the order reversed every other round), and the figures are medians.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

from tests.support.proxy import proxied
from tests.support.server import free_port

from . import mixes, wrk

#: The proxy's per-client limits, set out of reach: every request of wrk comes from 127.0.0.1.
OPEN = {
    "PROXY_RATE": "1000000",
    "PROXY_BURST": "1000000",
    "PROXY_EXPENSIVE_RATE": "1000000",
    "PROXY_EXPENSIVE_BURST": "1000000",
    "PROXY_CONNECTIONS": "60000",
}
STATIC_PATH = "/static.json"
STATIC_CONF = """worker_processes auto;
pid {run}/nginx.pid;
error_log stderr warn;
events {{ worker_connections 16384; }}
http {{
    access_log {run}/access.log;
    client_body_temp_path {run}/body;
    proxy_temp_path {run}/proxy;
    fastcgi_temp_path {run}/fastcgi;
    uwsgi_temp_path {run}/uwsgi;
    scgi_temp_path {run}/scgi;
    keepalive_requests 1000;
    server {{
        listen 127.0.0.1:{port} reuseport;
        location = {path} {{
            alias {run}/static.json;
            default_type application/json;
        }}
    }}
}}
"""
#: What is measured, in the order of a round.
TARGETS = {
    "cached": "`GET /v1/positions/{board}` through the proxy, from its cache",
    "uncached": "the same through the proxy with its cache off",
    "static": "nginx serving a static file of the same size",
}


@contextlib.contextmanager
def static_nginx(nginx: str, body: bytes) -> Iterator[int]:
    """A plain nginx on a free 127.0.0.1 port serving ``body`` at :data:`STATIC_PATH`: its port."""
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="bench-static-") as folder:
        run = Path(folder)
        run.chmod(0o755)  # nginx's workers may run as another user
        (run / "static.json").write_bytes(body)
        (run / "static.json").chmod(0o644)
        (run / "nginx.conf").write_text(STATIC_CONF.format(run=run, port=port, path=STATIC_PATH))
        process = subprocess.Popen(
            [nginx, "-e", "stderr", "-c", str(run / "nginx.conf"), "-g", "daemon off;"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        try:
            deadline = time.monotonic() + 10
            while True:
                with contextlib.suppress(httpx.TransportError):
                    if httpx.get(f"http://127.0.0.1:{port}{STATIC_PATH}", timeout=1).content == body:
                        break
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the static nginx did not start: {process.stderr}")
                time.sleep(0.05)
            yield port
        finally:
            process.send_signal(signal.SIGQUIT)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def median_answer(port: int, lines: list[str]) -> bytes:
    """The answer of median size among the mix's first 200 requests (as wrk asks: no coding)."""
    answers = []
    for line in lines[:200]:
        method, target, payload = line.split("\t", 2)
        status, body = mixes.fetch(port, method, target, payload)
        if status != 200:
            raise RuntimeError(f"{method} {target} answered {status}: {body[:500]!r}")
        answers.append(body)
    return sorted(answers, key=len)[len(answers) // 2]


def measure(
    product: int, lines: list[str], mix: Path, *, rounds: int, seconds: int, connections: int
) -> dict[str, Any] | None:
    """The three targets in interleaved rounds, and the ratios of their medians; ``None`` without nginx."""
    nginx = shutil.which("nginx")
    if nginx is None:
        print("  the edge cache: not measured, nginx is not installed", flush=True)
        return None
    upstream = [f"127.0.0.1:{product}"]
    body = median_answer(product, lines)
    with (
        proxied(upstream, OPEN) as cached,
        proxied(upstream, {**OPEN, "PROXY_CACHE": "off"}) as uncached,
        static_nginx(nginx, body) as static,
        tempfile.TemporaryDirectory(prefix="bench-edge-") as folder,
    ):
        static_mix = Path(folder) / "static.tsv"
        static_mix.write_text(f"GET\t{STATIC_PATH}\t\n")
        mixes.every_request(cached.port, lines)  # every answer of the mix in the cache
        plan = {
            "cached": (cached.port, mix),
            "uncached": (uncached.port, mix),
            "static": (static, static_mix),
        }
        runs: dict[str, list[wrk.Run]] = {name: [] for name in plan}
        for number in range(rounds):
            for name in plan if number % 2 == 0 else reversed(plan):
                port, requests = plan[name]
                runs[name].append(wrk.run(port, requests, seconds, connections))
            print(
                f"  edge round {number + 1}/{rounds}: "
                + ", ".join(f"{name} {runs[name][-1].rps:,.0f}/s" for name in plan),
                flush=True,
            )
        hits = sum('"cache":"HIT"' in line for line in cached.access_log.read_text().splitlines())
    found: dict[str, Any] = {
        name: {"label": TARGETS[name], **wrk.summary(found)} for name, found in runs.items()
    }
    for baseline in ("uncached", "static"):
        ratios = [a.rps / b.rps for a, b in zip(runs["cached"], runs[baseline], strict=True)]
        found[f"cached/{baseline}"] = {
            "ratio": found["cached"]["rps"] / found[baseline]["rps"],
            "spread": f"{min(ratios):.2f}–{max(ratios):.2f}",
        }
    found["body_bytes"] = len(body)
    found["positions"] = len(lines)
    found["cache_hits"] = hits
    found["nginx_workers"] = os.cpu_count()
    return found
