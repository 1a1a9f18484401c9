"""Every link of the project leads somewhere, wherever the project is read.

Links between the project's own files are relative (they work in a checkout, in an unpacked
archive and on a code host alike) and name a file that exists, and a heading that exists. The
project publishes no repository address: a link to a code host names one of the other projects
the documents cite, never one of this project's, which does not exist.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support import ROOT
from tests.support.commands import run

#: A Markdown link, ``[text](target)``, images included.
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
#: An address on a code host, and the repository it names.
CODE_HOST = re.compile(r"https?://(?:www\.)?(?:github\.com|gitlab\.com|bitbucket\.org)/([\w.-]+/[\w.-]+)")
#: The other projects' repositories that the documents cite.
CITED = {"wg/wrk"}


def tracked(*patterns: str) -> list[Path]:
    """The files git tracks that match ``patterns``, outside installed packages and lock files."""
    names = run(["git", "ls-files", "--", *patterns]).output.split()
    kept = [name for name in names if "node_modules/" not in name and not name.endswith("package-lock.json")]
    return [ROOT / name for name in kept]


MARKDOWN = tracked("*.md")


def anchors(markdown: str) -> set[str]:
    """The anchors of a Markdown file's headings, as code hosts make them."""
    slugs = set()
    for heading in re.findall(r"^#+\s+(.+?)\s*$", markdown, flags=re.MULTILINE):
        text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", r"\1", heading).lower()
        slugs.add(re.sub(r"[^\w\- ]", "", text).replace(" ", "-"))
    return slugs


def test_the_readme_is_short_with_the_details_in_docs() -> None:
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 250


def test_there_are_documents_to_check() -> None:
    names = {path.relative_to(ROOT).as_posix() for path in MARKDOWN}
    assert {"README.md", "docs/api.md", "deploy/README.md", "clients/python/README.md"} <= names


@pytest.mark.parametrize("document", MARKDOWN, ids=lambda path: path.relative_to(ROOT).as_posix())
def test_every_link_of_a_document_leads_somewhere(document: Path) -> None:
    text = document.read_text(encoding="utf-8")
    for target in LINK.findall(text):
        if target.startswith(("http://", "https://", "mailto:")):
            continue  # addresses elsewhere: code hosts are checked below
        path, _, anchor = target.partition("#")
        where = (document.parent / path).resolve() if path else document
        assert where.is_relative_to(ROOT.resolve()), f"{target}: outside the project"
        assert where.exists(), f"{target}: no such file or folder"
        if anchor and where.suffix == ".md":
            assert anchor in anchors(where.read_text(encoding="utf-8")), f"{target}: no such heading"


def test_no_file_links_to_a_repository_the_project_does_not_have() -> None:
    """Documents, metadata, code and comments alike: a repository address is one the documents cite."""
    found = []
    texts = ("*.md", "*.toml", "*.py", "*.ts", "*.mjs", "*.js", "*.json", "*.yaml", "*.sh", "*.html", "*.in")
    for path in tracked(*texts):
        text = path.read_text(encoding="utf-8", errors="replace")
        found += [
            f"{path.relative_to(ROOT)}: {name}" for name in CODE_HOST.findall(text) if name not in CITED
        ]
    assert found == []
