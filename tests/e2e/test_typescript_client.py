"""The TypeScript client (clients/typescript): built, type-checked, and run by Node against a live server."""

from __future__ import annotations

import os
import subprocess

import pytest

from tests.support import ROOT
from tests.support.server import Server
from tests.support.tools import require_tool, under_ci

CLIENT = ROOT / "clients" / "typescript"


def npm(*args: str, env: dict[str, str] | None = None) -> str:
    result = subprocess.run(
        [require_tool("npm"), *args],
        cwd=CLIENT,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    return output


@pytest.fixture(scope="module")
def built() -> None:
    require_tool("node")
    if not (CLIENT / "node_modules" / ".bin" / "tsc").exists():
        if under_ci():
            pytest.fail("clients/typescript/node_modules is missing: make test installs it (npm ci)")
        pytest.skip("the TypeScript tools are not installed: npm ci --prefix clients/typescript")
    npm("run", "build")


def test_the_client_and_a_front_end_type_check_strictly(built: None) -> None:
    npm("run", "typecheck")


def test_the_client_against_a_live_server(built: None, live_server: Server) -> None:
    output = npm("test", env={"TICTACTOE_URL": live_server.url})
    tests = (CLIENT / "test" / "client.test.mjs").read_text(encoding="utf-8").count("\ntest(")
    assert tests >= 8
    assert "# fail 0" in output and f"# pass {tests}" in output, output
