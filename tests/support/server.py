"""Run the real service in a subprocess on a free 127.0.0.1 port, for tests."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import IO

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
    log: IO[str]
    output: list[str] = field(default_factory=list)

    @property
    def port(self) -> int:
        return int(self.url.rsplit(":", 1)[1])

    def stop(self, timeout: float = 10) -> int:
        """SIGTERM, then wait; returns the exit code. The server's output is then in ``output``."""
        if self.output:
            return self.process.wait()
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.seek(0)
        self.output.append(self.log.read())
        return self.process.returncode


@contextmanager
def running(
    args: list[str] | None = None,
    env: Mapping[str, str] | None = None,
    timeout: float = 60,
    python: str | os.PathLike[str] = sys.executable,
    cwd: str | os.PathLike[str] | None = None,
) -> Iterator[Server]:
    """``python -m service`` on 127.0.0.1 and a free port, healthy before the block runs.

    ``python`` is the interpreter (this one, or that of another environment), run in ``cwd``.
    """
    port = free_port()
    environment = {**os.environ, "TICTACTOE_PORT": str(port), "TICTACTOE_HOST": "127.0.0.1"}
    environment.update(env or {})
    if args and "--port" in args:
        port = int(args[args.index("--port") + 1])
    else:
        port = int(environment["TICTACTOE_PORT"])
    # The output goes to a file, not a pipe: a full pipe would block the server.
    with tempfile.TemporaryFile("w+", encoding="utf-8") as log:
        process = subprocess.Popen(
            [python, "-m", "service", *(args or [])],
            cwd=cwd,
            env=environment,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            text=True,
        )
        server = Server(process, f"http://127.0.0.1:{port}", log)
        try:
            wait_healthy(server, timeout)
            yield server
        finally:
            server.stop()


def wait_healthy(server: Server, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while True:
        if server.process.poll() is not None:
            server.log.seek(0)
            raise RuntimeError(f"the service exited with {server.process.returncode}:\n{server.log.read()}")
        try:
            if httpx.get(f"{server.url}/health", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError("the service did not become healthy in time")
        time.sleep(0.05)
