"""The service's distribution as users get it, and installed as they install it.

PyPA's ``build`` makes the sdist and the wheel (the wheel from the sdist). The sdist ships what the
package needs to build and install, and nothing that needs the rest of the repository (its tests,
Makefile and Dockerfile need the clients, which are distributions of their own). Both files pass
``twine check --strict``; the metadata names the license and no URL (the project publishes none).

Each way of getting the project is installed with pip alone, in a fresh virtual environment outside
the repository, and followed by the commands a user runs next:

- the wheel, the sdist and the checkout, plain: the game engine works on its shipped table, and
  every server command (``tictactoe-service serve``, ``mcp``, ``openapi``, ``python -m service``)
  says in one line which extra to install, with exit status 1 and no traceback;
- the checkout with ``[server]``: the service starts and answers, ``tictactoe-service openapi``
  writes the committed document, and the client installed beside it (``pip install
  ./clients/python``) plays through the service in its own process.
"""

from __future__ import annotations

import os
import re
import sys
import tarfile
import tomllib
import zipfile
from email.message import Message
from email.parser import HeaderParser
from pathlib import Path

import httpx
import pytest

from tests.support import ROOT
from tests.support.commands import build, checkout_copy, run
from tests.support.server import running
from tests.support.tools import require_module

PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
CLIENT_PROJECT = ROOT / "clients" / "python" / "pyproject.toml"
CLIENT = tomllib.loads(CLIENT_PROJECT.read_text(encoding="utf-8"))["project"]
#: What a plain install's server commands say: the extra that brings the service's packages.
EXTRA = "pip install 'tictactoe-service[server]'"
#: The server commands, as a user types them (the scripts of the environment's bin directory).
SERVER_COMMANDS = [
    ["tictactoe-service", "serve"],
    ["tictactoe-service", "mcp"],
    ["tictactoe-service", "openapi"],
    ["python", "-m", "service"],
]
#: The game engine from a plain install, on the standard game's shipped table (so the table is in the
#: package): the table's size and the positions it stands for, the start's value and its drawing moves,
#: the first move and the reply to it, and no position solved outside the table.
ENGINE = (
    "from service.game import OUTCOMES, STANDARD, Values\n"
    "from service.game.tables import table\n"
    "shipped = table('standard')\n"
    "values = Values(STANDARD, shipped)\n"
    "start = STANDARD.start()\n"
    "ranked = values.ranked(start)\n"
    "reply = values.ranked(STANDARD.resolve(STANDARD.parse('X........')).state)[0]\n"
    "print(len(shipped), shipped.positions, OUTCOMES[values.value(start)[0]],\n"
    "      sorted(m.cell for m in ranked if m.score == 0), ranked[0].cell, reply.cell, len(values.memo))\n"
)
#: What :data:`ENGINE` prints: 627 classes of the 9,040 unfinished positions, a draw where every move
#: draws, the corner first, the center in reply, nothing solved.
ENGINE_PRINTS = "627 9040 draw [0, 1, 2, 3, 4, 5, 6, 7, 8] 0 4 0"


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The sdist and the wheel of the project, built from this tree."""
    return build(ROOT, tmp_path_factory.mktemp("dist"))


def names_in(sdist: Path) -> set[str]:
    with tarfile.open(sdist) as archive:
        prefix = archive.getnames()[0].split("/")[0] + "/"
        return {name.removeprefix(prefix) for name in archive.getnames()}


def test_the_service_depends_on_no_distribution_of_this_repository() -> None:
    """So that pip installs a checkout alone: nothing it needs is left to find on an index."""
    extras = PROJECT["optional-dependencies"].values()
    declared = [*PROJECT["dependencies"], *(requirement for group in extras for requirement in group)]
    named = {re.split(r"[\[<>=!~ ;]", requirement, maxsplit=1)[0].lower() for requirement in declared}
    assert CLIENT["name"] not in named


def test_the_sdist_ships_the_package_and_nothing_that_needs_the_repository(dist: dict[str, Path]) -> None:
    names = names_in(dist["sdist"])
    assert {"LICENSE", "README.md", "pyproject.toml", "PKG-INFO", "service/__init__.py"} <= names
    assert "service/web/static/play.html" in names
    tracked = set(run(["git", "ls-files", "--", "service"]).output.split())
    assert tracked <= names, f"package files missing from the sdist: {sorted(tracked - names)}"
    tooling = ("tests/", "bench/", "scripts/", "deploy/", "clients/", "Makefile", "Dockerfile")
    assert not [name for name in names if name.startswith(tooling)]
    assert not any("__pycache__" in name or name.endswith(".pyc") for name in names)


def metadata(wheel: Path) -> tuple[Message, set[str]]:
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        (info,) = (name for name in names if name.endswith(".dist-info/METADATA"))
        return HeaderParser().parsestr(archive.read(info).decode("utf-8")), names


def test_the_metadata_has_the_license_and_no_url(dist: dict[str, Path]) -> None:
    message, names = metadata(dist["wheel"])
    assert message["License-Expression"] == "MIT"
    assert message["License-File"] == "LICENSE"
    assert any(name.endswith(".dist-info/licenses/LICENSE") for name in names)
    assert message.get_all("Project-URL") is None and message["Home-page"] is None
    assert message["Description-Content-Type"] == "text/markdown"
    assert message.get_all("Requires-Dist") and all(
        "extra ==" in requirement for requirement in message.get_all("Requires-Dist") or []
    ), "a plain install needs no package"


def test_twine_accepts_both_files(dist: dict[str, Path]) -> None:
    require_module("twine")
    output = run([sys.executable, "-m", "twine", "check", "--strict", dist["sdist"], dist["wheel"]]).output
    assert output.count("PASSED") == 2, output


def fresh_environment(home: Path) -> Path:
    """A new virtual environment in ``home``, outside the repository: its bin directory."""
    assert not home.resolve().is_relative_to(ROOT.resolve()), "the user's directory must be outside"
    run([sys.executable, "-m", "venv", home / "venv"])
    return home / "venv" / "bin"


def pip_install(bin_dir: Path, *what: str | Path) -> None:
    """``pip install`` as a user runs it, with the versions the project is tested with."""
    run(
        [bin_dir / "python", "-m", "pip", "install", "--quiet", "-c", ROOT / "constraints.txt", *what],
        cwd=bin_dir.parent.parent,
        timeout=900,
    )


def checks_a_plain_install(bin_dir: Path) -> None:
    """The engine works; each server command says in one line which extra to install."""
    home = bin_dir.parent.parent
    engine = run([bin_dir / "python", "-c", ENGINE], cwd=home).stdout
    assert engine.strip() == ENGINE_PRINTS, engine
    for command in SERVER_COMMANDS:
        result = run([bin_dir / command[0], *command[1:]], cwd=home, fails=True, timeout=60)
        assert result.returncode == 1, result.output
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: ") and lines[0].endswith(EXTRA), result.output
        assert "Traceback" not in result.output


@pytest.mark.parametrize("artefact", ["wheel", "sdist"])
def test_a_plain_install_of_the_artefact(dist: dict[str, Path], tmp_path: Path, artefact: str) -> None:
    bin_dir = fresh_environment(tmp_path)
    pip_install(bin_dir, dist[artefact])
    checks_a_plain_install(bin_dir)


def test_a_plain_install_of_the_checkout(tmp_path: Path) -> None:
    bin_dir = fresh_environment(tmp_path)
    pip_install(bin_dir, checkout_copy(tmp_path / "checkout"))
    checks_a_plain_install(bin_dir)


def test_the_checkout_with_the_server_extra_serves_and_plays(tmp_path: Path) -> None:
    bin_dir = fresh_environment(tmp_path)
    checkout = checkout_copy(tmp_path / "checkout")
    pip_install(bin_dir, f"{checkout}[server]")
    written = tmp_path / "openapi.json"
    run([bin_dir / "tictactoe-service", "openapi", written], cwd=tmp_path, timeout=120)
    assert written.read_bytes() == (ROOT / "openapi" / "openapi.json").read_bytes()
    with running(python=bin_dir / "python", cwd=tmp_path, env={"TICTACTOE_LOG_LEVEL": "warning"}) as server:
        answer = httpx.post(f"{server.url}/v1/best-move", json={"board": "X........"}, timeout=10)
        assert answer.status_code == 200 and answer.json()["position"] == 4
    # The terminal game, once the client is installed beside the service: in this process.
    no_client = run([bin_dir / "python", "-c", "import tictactoe_client"], cwd=tmp_path, check=False)
    assert no_client.returncode == 1, "the service must not bring the client"
    pip_install(bin_dir, checkout / "clients" / "python")
    english = {**os.environ, "LC_ALL": "C.UTF-8"}  # whatever the locale of whoever runs the tests
    played = run(
        [bin_dir / "tictactoe", "best-move", "X........"], cwd=tmp_path, env=english, timeout=120
    ).stdout
    assert "O plays cell 5 (row 2, column 2)" in played, played
