"""Run the shipped proxy (deploy/proxy) on 127.0.0.1 in front of services, for tests.

nginx from the system runs the repository's ``nginx.conf``, rendered by the image's own
``entrypoint.sh``: the same configuration and the same rendering as the image, with the paths
of the repository instead of the image's.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from service import __version__
from tests.support.server import Server, free_port
from tests.support.tools import require_tool

PROXY = Path(__file__).resolve().parents[2] / "deploy" / "proxy"
ACCESS = '"logger":"service.access"'
#: How long to wait for a log line of a request already answered.
WAIT = 30


@dataclass
class Proxy:
    process: subprocess.Popen[bytes]
    url: str
    run: Path

    @property
    def port(self) -> int:
        return int(self.url.rsplit(":", 1)[1])

    @property
    def access_log(self) -> Path:
        return self.run / "access.log"

    def error_log(self) -> str:
        return (self.run / "error.log").read_text(errors="replace")

    def workers(self) -> list[int]:
        command = ["pgrep", "-P", str(self.process.pid)]
        found = subprocess.run(command, capture_output=True, text=True, check=False)
        return [int(pid) for pid in found.stdout.split()]


@contextmanager
def proxied(
    upstreams: Sequence[str], env: Mapping[str, str] | None = None, run: Path | None = None
) -> Iterator[Proxy]:
    """nginx with the shipped configuration on a free 127.0.0.1 port, in front of ``upstreams``.

    ``upstreams`` are ``host:port`` of services already running; ``env`` sets more of the
    proxy's settings (``PROXY_RATE``...; ``PROXY_SERVICE_VERSION`` is this service's version
    unless set). ``run`` is the proxy's directory (its cache included), to share with a proxy
    started before or after it; a new temporary one by default. The proxy is ready when the block runs.
    """
    nginx = require_tool("nginx")
    port = free_port()
    with contextlib.ExitStack() as stack:
        if run is None:
            run = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="tictactoe-proxy-")))
        # When the tests run as root, nginx's workers run as another user: they read the problem
        # pages from a copy in this directory, which they can reach wherever the checkout is.
        os.chmod(run, 0o755)
        problems = shutil.copytree(PROXY / "problems", run / "problems", dirs_exist_ok=True)
        for page in problems.iterdir():
            page.chmod(0o644)
        problems.chmod(0o755)
        environment = {
            **os.environ,
            "PATH": f"{Path(nginx).parent}:{os.environ.get('PATH', '')}",
            "PROXY_UPSTREAM": ",".join(upstreams),
            "PROXY_ADDRESS": "127.0.0.1",
            "PROXY_PORT": str(port),
            "PROXY_TEMPLATE": str(PROXY / "nginx.conf"),
            "PROXY_PROBLEMS": str(problems),
            "PROXY_RUN": str(run),
            "PROXY_ACCESS_LOG": f"{run}/access.log",
            "PROXY_SERVICE_VERSION": __version__,
            **(env or {}),
        }
        with open(f"{run}/error.log", "wb") as errors:
            process = subprocess.Popen(
                ["sh", str(PROXY / "entrypoint.sh")],
                env=environment,
                stdin=subprocess.DEVNULL,
                stdout=errors,
                stderr=subprocess.STDOUT,
            )
            proxy = Proxy(process, f"http://127.0.0.1:{port}", run)
            try:
                wait_listening(proxy)
                yield proxy
            finally:
                if process.poll() is None:
                    process.send_signal(signal.SIGQUIT)  # nginx's graceful stop
                    try:
                        process.wait(timeout=10)
                    except subprocess.TimeoutExpired:
                        process.kill()
                        process.wait()


def wait_listening(proxy: Proxy, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while True:
        if proxy.process.poll() is not None:
            raise RuntimeError(f"nginx exited with {proxy.process.returncode}:\n{proxy.error_log()}")
        try:
            httpx.get(f"{proxy.url}/health", timeout=1)
            return
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"nginx did not listen in time:\n{proxy.error_log()}")
        time.sleep(0.05)


def service_access_log(service: Server) -> list[dict[str, Any]]:
    """The service's access log, with a line for every request it answered before this call.

    The service writes a request's line as the request ends, which may be after its answer has
    reached the client: a request sent to it now, with a request id of its own, ends after all
    of them, and once its line is written (read through a file description of its own), so are
    theirs.
    """
    mark = f"mark-{uuid.uuid4().hex}"
    assert httpx.get(f"{service.url}/health", headers={"X-Request-ID": mark}, timeout=WAIT).status_code == 200
    log = Path(f"/proc/{os.getpid()}/fd/{service.log.fileno()}")
    deadline = time.monotonic() + WAIT
    while True:
        lines = [json.loads(line) for line in log.read_text(errors="replace").splitlines() if ACCESS in line]
        if any(line["request_id"] == mark for line in lines):
            return lines
        assert time.monotonic() < deadline, f"the service did not log the request {mark}"
        time.sleep(0.05)


def proxy_access_log(proxy: Proxy, request_id: str) -> list[dict[str, Any]]:
    """The proxy's access log once it has the line of the request ``request_id``, which has been answered.

    nginx writes a request's line as it ends, after its answer has gone out.
    """
    deadline = time.monotonic() + WAIT
    while True:
        lines = [json.loads(line) for line in proxy.access_log.read_text().splitlines()]
        if any(line["request_id"] == request_id for line in lines):
            return lines
        assert time.monotonic() < deadline, f"the proxy did not log the request {request_id}"
        time.sleep(0.05)
