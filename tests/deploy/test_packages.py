"""The project's Python distributions as the package index gets them, built by PyPA's ``build``.

The sdist holds the license, the documentation and the tests (with what they import), the tests
collect from the unpacked sdist alone, both files pass ``twine check --strict``, the metadata has
the license and the project's URLs, and every link of the README, which is the description on
the package index, is absolute and points at a file of this repository.
"""

from __future__ import annotations

import re
import sys
import tarfile
import tomllib
import zipfile
from email.message import Message
from email.parser import HeaderParser
from pathlib import Path

import pytest

from tests.support import ROOT
from tests.support.commands import build, run
from tests.support.tools import require_module

PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
HOME = PROJECT["urls"]["Homepage"]
#: A link of the README: ``[text](target)``, not an image.
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The sdist and the wheel of the project, built from this tree."""
    return build(ROOT, tmp_path_factory.mktemp("dist"))


def tracked(*folders: str) -> set[str]:
    """The files git tracks under ``folders``."""
    listed = run(["git", "ls-files", "--", *folders]).output
    return {name for name in listed.splitlines() if "/node_modules/" not in name}


def test_the_sdist_holds_the_license_docs_and_tests(dist: dict[str, Path]) -> None:
    with tarfile.open(dist["sdist"]) as archive:
        prefix = archive.getnames()[0].split("/")[0] + "/"
        names = {name.removeprefix(prefix) for name in archive.getnames()}
    assert {"LICENSE", "README.md", "pyproject.toml", "openapi/openapi.json"} <= names
    missing = tracked("tests", "docs", "bench", "scripts", "deploy") - names
    assert missing == set(), f"tracked files missing from the sdist: {sorted(missing)}"
    assert not any("node_modules" in name or "__pycache__" in name for name in names)


def test_the_tests_collect_from_the_unpacked_sdist(dist: dict[str, Path], tmp_path: Path) -> None:
    with tarfile.open(dist["sdist"]) as archive:
        archive.extractall(tmp_path, filter="data")
    (tree,) = tmp_path.iterdir()
    where = run([sys.executable, "-c", "import service; print(service.__file__)"], cwd=tree).output
    assert Path(where.strip()).is_relative_to(tree), "the sdist's tests must import the sdist's package"
    collected = run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"], cwd=tree
    ).output
    counts = re.search(r"(\d+) tests? collected", collected)
    assert counts is not None, collected[-2000:]
    assert int(counts.group(1)) > 400


def metadata(wheel: Path) -> tuple[Message, set[str]]:
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        (info,) = (name for name in names if name.endswith(".dist-info/METADATA"))
        return HeaderParser().parsestr(archive.read(info).decode("utf-8")), names


def test_the_metadata_has_the_license_and_the_urls(dist: dict[str, Path]) -> None:
    message, names = metadata(dist["wheel"])
    assert message["License-Expression"] == "MIT"
    assert message["License-File"] == "LICENSE"
    assert any(name.endswith(".dist-info/licenses/LICENSE") for name in names)
    urls = dict(entry.split(", ", 1) for entry in message.get_all("Project-URL") or [])
    assert {"Homepage", "Documentation", "Source", "Issues"} <= set(urls)
    assert all(url.startswith(HOME) for url in urls.values())
    assert message["Description-Content-Type"] == "text/markdown"


def test_twine_accepts_both_files(dist: dict[str, Path]) -> None:
    require_module("twine")
    output = run([sys.executable, "-m", "twine", "check", "--strict", dist["sdist"], dist["wheel"]]).output
    assert output.count("PASSED") == 2, output


def anchors(markdown: str) -> set[str]:
    """The anchors of a Markdown file's headings, as the repository host makes them."""
    slugs = set()
    for heading in re.findall(r"^#+\s+(.+?)\s*$", markdown, flags=re.MULTILINE):
        text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", r"\1", heading).lower()
        slugs.add(re.sub(r"[^\w\- ]", "", text).replace(" ", "-"))
    return slugs


def test_every_readme_link_works_on_the_package_index() -> None:
    """Relative links are dead on the package index: each is absolute, and those into this
    repository name a file or folder that exists, and a heading that exists."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = LINK.findall(readme)
    assert len(targets) > 10
    inside = 0
    for target in targets:
        if target.startswith("#"):
            assert target[1:] in anchors(readme), target
            continue
        assert target.startswith("https://"), f"relative link {target!r}: dead on the package index"
        match = re.fullmatch(rf"{re.escape(HOME)}/(?:blob|tree)/main/([^#]+)(?:#(.+))?", target)
        if match is None:
            continue
        inside += 1
        path, anchor = ROOT / match.group(1), match.group(2)
        assert path.exists(), f"{target}: no {match.group(1)} in the repository"
        if anchor is not None:
            assert anchor in anchors(path.read_text(encoding="utf-8")), target
    assert inside > 10
