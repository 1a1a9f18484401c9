"""Run the real service in a subprocess on a free 127.0.0.1 port, for tests."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field

import httpx


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class Server:
    process: subprocess.Popen[str]
    url: str
    output: list[str] = field(default_factory=list)

    def stop(self, timeout: float = 10) -> int:
        """SIGTERM, then wait; returns the exit code."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            out, _ = self.process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            out, _ = self.process.communicate()
        self.output.append(out or "")
        return self.process.returncode


@contextmanager
def running(
    args: list[str] | None = None, env: Mapping[str, str] | None = None, timeout: float = 30
) -> Iterator[Server]:
    """``python -m service`` on 127.0.0.1 and a free port, healthy before the block runs."""
    port = free_port()
    environment = {**os.environ, "TICTACTOE_PORT": str(port), "TICTACTOE_HOST": "127.0.0.1"}
    environment.update(env or {})
    process = subprocess.Popen(
        [sys.executable, "-m", "service", *(args or [])],
        env=environment,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    port = int(environment["TICTACTOE_PORT"])
    if args and "--port" in args:
        port = int(args[args.index("--port") + 1])
    server = Server(process, f"http://127.0.0.1:{port}")
    try:
        deadline = time.monotonic() + timeout
        while True:
            if process.poll() is not None:
                out, _ = process.communicate()
                raise RuntimeError(f"the service exited with {process.returncode}:\n{out}")
            try:
                if httpx.get(f"{server.url}/health", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("the service did not become healthy in time")
            time.sleep(0.05)
        yield server
    finally:
        server.stop()
