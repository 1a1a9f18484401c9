"""Every console example in the README, run against a real server and compared with its printed answer."""

from __future__ import annotations

import json
import re
import subprocess

import pytest

from tests.support import ROOT
from tests.support.server import Server
from tests.support.tools import require_tool

README = ROOT / "README.md"


def examples() -> list[tuple[str, str]]:
    """``(command, expected output)`` of each ``$ curl`` line in the README's console blocks."""
    found: list[tuple[str, str]] = []
    for block in re.findall(r"```console\n(.*?)```", README.read_text(encoding="utf-8"), re.S):
        command: str | None = None
        output: list[str] = []
        for line in block.splitlines():
            if line.startswith("$ "):
                if command is not None:
                    found.append((command, "\n".join(output)))
                command, output = line[2:], []
            else:
                output.append(line)
        if command is not None:
            found.append((command, "\n".join(output)))
    return found


EXAMPLES = examples()


def test_readme_has_an_example_for_every_endpoint() -> None:
    commands = " ".join(command for command, _ in EXAMPLES)
    for fragment in [
        "POST localhost:8000/v1/best-move",
        "/v1/best-move?",
        "/v1/positions/",
        "/v1/analysis",
        "/health",
    ]:
        assert fragment in commands


@pytest.mark.parametrize(("command", "expected"), EXAMPLES, ids=[c[:60] for c, _ in EXAMPLES])
def test_readme_example_answers_as_printed(live_server: Server, command: str, expected: str) -> None:
    require_tool("curl")
    assert command.startswith("curl ")
    address = live_server.url.removeprefix("http://")
    result = subprocess.run(
        ["bash", "-c", command.replace("localhost:8000", address)],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    actual = result.stdout.strip()
    try:
        assert json.loads(actual) == json.loads(expected)
    except json.JSONDecodeError:
        assert actual == expected.strip()
