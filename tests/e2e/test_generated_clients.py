"""Clients generated from the committed OpenAPI document, each with its tool's default configuration.

openapi-python-client writes a Python package, openapi-typescript the types openapi-fetch uses,
@hey-api/openapi-ts an SDK with its own fetch client, and orval a client with its fetch client and
one with its default, axios; a short program with each (tests/e2e/generated/) is type-checked
strictly (mypy, tsc) and then run against a live server: every operation (orval: the best move,
the analysis and the review), the three board forms, a 422 problem, a 304, and in every program
the variants: a 4x4 best move, a Notakto-2 board of 18 cells, a review of wild with marked moves.
Where the generator makes constants for the variants, the programs name them by those constants
(``Variant.FOUR_BY_FOUR``), so unreadable names (``VALUE_6``) fail the type check.
Nothing generated is kept: it goes to a temporary folder, or to ignored folders for TypeScript.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from tests.support import ROOT
from tests.support.commands import run
from tests.support.server import Server
from tests.support.tools import require_tool, under_ci

DOCUMENT = ROOT / "openapi" / "openapi.json"
PROGRAMS = ROOT / "tests" / "e2e" / "generated"
BIN = Path(sys.executable).parent


def environment(**more: str) -> dict[str, str]:
    """The commands' environment: this one, with this environment's tools first on ``PATH``, and ``more``."""
    return {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}", **more}


def test_openapi_python_client(live_server: Server, tmp_path: Path) -> None:
    generator = shutil.which("openapi-python-client", path=str(BIN)) or require_tool("openapi-python-client")
    generate = [generator, "generate", "--path", str(DOCUMENT), "--output-path", str(tmp_path / "client")]
    run(generate, env=environment(), timeout=300)
    path = environment(PYTHONPATH=str(tmp_path / "client"), MYPYPATH=str(tmp_path / "client"))
    program = str(PROGRAMS / "python_program.py")
    run([str(BIN / "mypy"), "--strict", "--no-incremental", program], env=path, timeout=300)
    assert run([sys.executable, program, live_server.url], env=path, timeout=300).output.strip() == "ok"


def test_openapi_typescript_and_openapi_fetch(live_server: Server) -> None:
    require_tool("node")
    where = PROGRAMS / "typescript"
    if not (where / "node_modules" / ".bin" / "tsc").exists():
        if under_ci():
            pytest.fail(f"{where}/node_modules is missing: make test installs it (npm ci)")
        pytest.skip("the TypeScript tools are not installed: npm ci --prefix tests/e2e/generated/typescript")
    # Generates the types, then tsc --strict.
    run([require_tool("npm"), "run", "build"], cwd=where, env=environment(), timeout=300)
    program = [require_tool("node"), "build/program.js", live_server.url]
    assert run(program, cwd=where, env=environment(), timeout=300).output.strip() == "ok"


def test_hey_api_openapi_ts(live_server: Server) -> None:
    require_tool("node")
    where = PROGRAMS / "heyapi"
    if not (where / "node_modules" / ".bin" / "openapi-ts").exists():
        if under_ci():
            pytest.fail(f"{where}/node_modules is missing: make test installs it (npm ci)")
        pytest.skip("the TypeScript tools are not installed: npm ci --prefix tests/e2e/generated/heyapi")
    for output in ("generated", "build"):  # what an earlier run wrote cannot stand in for this one's
        shutil.rmtree(where / output, ignore_errors=True)
    # Generates the SDK, then tsc --strict.
    run([require_tool("npm"), "run", "build"], cwd=where, env=environment(), timeout=300)
    assert (where / "generated" / "sdk.gen.ts").is_file()
    program = [require_tool("node"), "build/program.js", live_server.url]
    assert run(program, cwd=where, env=environment(), timeout=300).output.strip() == "ok"


@pytest.fixture(scope="module")
def orval() -> Path:
    """tests/e2e/generated/orval with both of its clients generated afresh and both programs compiled."""
    require_tool("node")
    where = PROGRAMS / "orval"
    if not (where / "node_modules" / ".bin" / "orval").exists():
        if under_ci():
            pytest.fail(f"{where}/node_modules is missing: make test installs it (npm ci)")
        pytest.skip("the TypeScript tools are not installed: npm ci --prefix tests/e2e/generated/orval")
    for output in ("generated", "build"):  # what an earlier run wrote cannot stand in for this one's
        shutil.rmtree(where / output, ignore_errors=True)
    # Generates both clients (orval.config.ts), then tsc --strict on both programs.
    run([require_tool("npm"), "run", "build"], cwd=where, env=environment(), timeout=300)
    return where


@pytest.mark.parametrize("client", ["fetch", "axios"])
def test_orval(orval: Path, live_server: Server, client: str) -> None:
    assert (orval / "generated" / client / "api.ts").is_file()
    program = [require_tool("node"), f"build/{client}.js", live_server.url]
    assert run(program, cwd=orval, env=environment(), timeout=300).output.strip() == "ok"
