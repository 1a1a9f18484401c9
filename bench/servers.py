"""The benchmark's servers, each a uvicorn worker on a free 127.0.0.1 port; checkouts of old commits.

Every server is started through ``bench/serve.py`` (see there): a baseline on stock
uvicorn, as a user runs an app, or the product as ``python -m service`` of its tree
runs it. A server's standard output and error go to a pipe, as under a container
runtime or a supervisor, drained by ``tail``, which keeps the last lines for error
messages. Its environment is the caller's without any ``TICTACTOE_*`` variable, so
the product runs with its default settings (access log, metrics, request ids and
CORS on), plus ``PYTHONPATH`` set to its tree and, for the product, host, port and
one worker; a :class:`Spec` may name other settings (the product at log level
``warning``, whose access log is off, for the access log's pairs).
"""

from __future__ import annotations

import compileall
import contextlib
import http.client
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.support import ROOT
from tests.support.loadgen import resident_kib, rss_kib
from tests.support.server import free_port

SERVE = Path(__file__).resolve().parent / "serve.py"
KEEP = 16 * 1024
"""Bytes kept from the end of a server's output, for error messages."""


def environment(
    port: int, tree: Path, product: bool = True, settings: Mapping[str, str] | None = None
) -> dict[str, str]:
    """A server's environment: the caller's without ``TICTACTOE_*``, with ``tree`` on ``PYTHONPATH``;
    for the product, its settings for 127.0.0.1:``port`` and one worker, and ``settings`` (more
    ``TICTACTOE_*`` variables)."""
    kept = {name: value for name, value in os.environ.items() if not name.startswith("TICTACTOE_")}
    if not product:
        return {**kept, "PYTHONPATH": str(tree)}
    return {
        **kept,
        **(settings or {}),
        "TICTACTOE_HOST": "127.0.0.1",
        "TICTACTOE_PORT": str(port),
        "TICTACTOE_WORKERS": "1",
        "PYTHONPATH": str(tree),
    }


class Output:
    """A server's standard output and error: a pipe, drained by ``tail`` into a file that keeps the end.

    ``tail`` is a process of its own, so that reading a chatty server's output takes
    nothing from this one, whose open-loop generator is sensitive to timing.
    """

    def __init__(self) -> None:
        self.file = tempfile.TemporaryFile()  # noqa: SIM115 - closed by close()
        read, self.pipe = os.pipe()
        self.reader = subprocess.Popen(["tail", "-c", str(KEEP)], stdin=read, stdout=self.file)
        os.close(read)

    def spawned(self) -> None:
        """The server has the pipe's writing end: close this process's copy."""
        os.close(self.pipe)

    def text(self) -> str:
        """The end of what the server wrote, once it has exited."""
        try:
            self.reader.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.reader.kill()
            self.reader.wait()
        self.file.seek(0)
        return self.file.read().decode(errors="replace")

    def close(self) -> None:
        if self.reader.poll() is None:
            self.reader.kill()
            self.reader.wait()
        self.file.close()


def wait_ready(port: int, path: str, process: subprocess.Popen[bytes], timeout: float = 60) -> float:
    """Poll ``GET path`` every 5 ms until it answers ``200``; the seconds it took."""
    started = time.perf_counter()
    while time.perf_counter() - started < timeout:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with status {process.returncode}")
        with contextlib.suppress(OSError, http.client.HTTPException):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            try:
                connection.request("GET", path)
                if connection.getresponse().status == 200:
                    return time.perf_counter() - started
            finally:
                connection.close()
        time.sleep(0.005)
    raise RuntimeError(f"the server did not answer GET {path} with 200 within {timeout:g} s")


def stop(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM (a graceful shutdown), then SIGKILL after 15 s."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@dataclass(frozen=True)
class Spec:
    """A server to run from ``tree``: a baseline on stock uvicorn, or ``python -m service``."""

    name: str
    tree: Path
    ready: str
    """A path that answers ``200`` once the server is up."""
    stock: str | None = None
    """A baseline's application factory, served on stock uvicorn."""
    app: str | None = None
    """An application factory served with the product's uvicorn settings instead of the product."""
    settings: tuple[tuple[str, str], ...] = ()
    """The product's settings other than the defaults, as ``TICTACTOE_*`` variables and their values."""

    def command(self, port: int, described: Path) -> list[str]:
        """How ``serve.py`` runs it, on ``port``, writing what it serves to ``described``."""
        if self.stock is not None:
            command = [sys.executable, str(SERVE), "--stock", self.stock, "--port", str(port)]
        else:
            command = [sys.executable, str(SERVE), "--tree", str(self.tree)]
            command += [] if self.app is None else ["--app", self.app]
        return [*command, "--describe", str(described)]


@dataclass
class Server:
    name: str
    port: int
    process: subprocess.Popen[bytes]
    output: Output
    described: Path | None = None
    """Where ``serve.py`` writes what the server runs."""

    def rss_mib(self) -> float:
        return rss_kib(self.process.pid) / 1024

    def private_mib(self) -> float:
        """The worker's own resident memory (anonymous pages), without the files it maps."""
        return resident_kib(self.process.pid).get("RssAnon", 0) / 1024

    def mapped_mib(self) -> float:
        """The resident pages of files the worker maps (its code, and the variants' tables), which
        workers share."""
        return resident_kib(self.process.pid).get("RssFile", 0) / 1024

    def settings(self) -> dict[str, Any]:
        """The app and uvicorn settings it runs with, as ``serve.py`` described them."""
        if self.described is None or not self.described.is_file():
            return {}
        settings: dict[str, Any] = json.loads(self.described.read_text())
        return settings

    def wait_ready(self, path: str) -> float:
        """:func:`wait_ready`, with the end of the server's output in the error if it fails."""
        try:
            return wait_ready(self.port, path, self.process)
        except RuntimeError as error:
            stop(self.process)
            raise RuntimeError(f"{self.name}: {error}\n{self.output.text()}") from None

    def stop(self) -> None:
        stop(self.process)
        self.output.close()


def spawn(
    name: str,
    command: Sequence[str],
    tree: Path,
    described: Path | None = None,
    *,
    port: int | None = None,
    product: bool = True,
    settings: Mapping[str, str] | None = None,
) -> Server:
    """``command`` in ``tree`` with the environment of a server on ``port`` (a free one by default)."""
    port, output = free_port() if port is None else port, Output()
    process = subprocess.Popen(
        command,
        cwd=tree,
        env=environment(port, tree, product, settings),
        stdin=subprocess.DEVNULL,
        stdout=output.pipe,
        stderr=subprocess.STDOUT,
    )
    output.spawned()
    return Server(name, port, process, output, described)


def compiled(tree: Path) -> None:
    """Write the bytecode of ``tree``'s ``service`` package, as pip does for a package it installs.

    A tree's ``python -m service`` runs from its source. Where Python writes no bytecode of its own
    (``PYTHONDONTWRITEBYTECODE``, as in the image) every start would compile that source first,
    which the service as it ships (the image's installed wheel, compiled by pip) never does. Only
    files without bytecode, or changed since it was written, are compiled.
    """
    compileall.compile_dir(tree / "service", quiet=1)


@contextlib.contextmanager
def serving(specs: list[Spec]) -> Iterator[dict[str, Server]]:
    """The servers of ``specs``, started together, each ready before the block runs; stopped after it."""
    running: dict[str, Server] = {}
    with tempfile.TemporaryDirectory(prefix="bench-servers-") as folder:
        try:
            for tree in {spec.tree for spec in specs if spec.stock is None}:
                compiled(tree)
            for spec in specs:
                described, port = Path(folder) / f"{spec.name}.json", free_port()
                command = spec.command(port, described)
                product = spec.stock is None
                running[spec.name] = spawn(
                    spec.name,
                    command,
                    spec.tree,
                    described,
                    port=port,
                    product=product,
                    settings=dict(spec.settings),
                )
            for spec in specs:
                running[spec.name].wait_ready(spec.ready)
            yield running
        finally:
            for server in running.values():
                server.stop()


@contextlib.contextmanager
def service(tree: Path = ROOT) -> Iterator[tuple[Server, float]]:
    """``python -m service`` of ``tree`` on a free port, and its start-up in seconds.

    The start-up runs from the spawn to the first ``200`` from ``/health``, with the tree's
    bytecode written first (:func:`compiled`), as the service ships.
    """
    compiled(tree)
    started = time.perf_counter()
    server = spawn("python -m service", [sys.executable, "-m", "service"], tree)
    try:
        server.wait_ready("/health")
        yield server, time.perf_counter() - started
    finally:
        server.stop()


# --- an earlier commit, checked out beside this one --------------------------------------------------


@dataclass(frozen=True)
class Checkout:
    ref: str
    commit: str
    tree: Path


def git(*args: str) -> str:
    result = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)}: {result.stderr.strip()}")
    return result.stdout.rstrip()


@contextlib.contextmanager
def worktree(ref: str) -> Iterator[Checkout]:
    """``ref`` checked out in a temporary ``git worktree`` (detached), removed afterwards."""
    try:
        commit = git("rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
    except RuntimeError:
        raise RuntimeError(f"--against {ref}: not a commit of this repository") from None
    with tempfile.TemporaryDirectory(prefix="bench-against-") as folder:
        tree = Path(folder) / "tree"
        git("worktree", "add", "--detach", "--quiet", str(tree), commit)
        try:
            yield Checkout(ref, commit, tree)
        finally:
            with contextlib.suppress(RuntimeError):
                git("worktree", "remove", "--force", str(tree))
            git("worktree", "prune")
