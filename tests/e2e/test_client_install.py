"""The Python client as a client-only user installs it: ``pip install tictactoe-service``.

A fresh virtual environment gets the project without extras (versions from constraints.txt);
it must hold httpx, pydantic and what they need, and nothing of the server; then the client
examples of docs/api.md run in it against a live server and print what the document says.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.test_readme import URL, Example, assert_same_answer, examples
from tests.support import ROOT
from tests.support.server import Server

#: What httpx and pydantic bring with them; anything else in the environment is a mistake.
CLIENT_PACKAGES = {
    "annotated-types",
    "anyio",
    "certifi",
    "h11",
    "httpcore",
    "httpx",
    "idna",
    "pydantic",
    "pydantic-core",
    "sniffio",
    "tictactoe-service",
    "typing-extensions",
    "typing-inspection",
}
SERVER_PACKAGES = {"fastapi", "starlette", "uvicorn", "prometheus-client", "pydantic-settings"}


def run(command: list[str]) -> str:
    result = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


@pytest.fixture(scope="module")
def client_only(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A virtual environment where ``pip install tictactoe-service`` is all that was done."""
    venv = tmp_path_factory.mktemp("client-only") / "venv"
    run([sys.executable, "-m", "venv", str(venv)])
    python = venv / "bin" / "python"
    run([str(python), "-m", "pip", "install", "--quiet", "-c", "constraints.txt", str(ROOT)])
    return python


def test_the_install_holds_the_client_and_nothing_of_the_server(client_only: Path) -> None:
    frozen = run([str(client_only), "-m", "pip", "list", "--format=freeze", "--exclude", "pip"])
    installed = {line.split("==")[0].lower().replace("_", "-") for line in frozen.split()}
    installed -= {"setuptools", "wheel"}  # the venv's own
    assert installed <= CLIENT_PACKAGES, installed - CLIENT_PACKAGES
    assert not installed & SERVER_PACKAGES


@pytest.mark.parametrize(
    "example",
    [example for example in examples("docs/api.md") if example.kind == "python"],
    ids=lambda example: example.id,
)
def test_the_client_examples_run_there(client_only: Path, live_server: Server, example: Example) -> None:
    result = subprocess.run(
        [str(client_only), "-c", example.source.replace(URL, live_server.url)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd="/",  # not the source tree: the installed package only
    )
    assert result.returncode == 0, result.stderr
    assert_same_answer(result.stdout.strip(), example.expected)
