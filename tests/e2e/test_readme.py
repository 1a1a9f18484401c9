"""Every example of the README and of docs/api.md, run against a real server and checked against its answer.

Two kinds of example are found in each document:

* a ``console`` block holds commands, each on a line starting with ``$ ``, each followed by the
  lines of its output. Every command must call the service at ``localhost:8000``; the test runs
  it with bash against the live server, and its output must be the printed answer (as JSON when
  the answer is JSON: same values and types, in any key order; as text otherwise);
* a ``python`` block is a program that uses the service at ``http://127.0.0.1:8000``: the test
  runs it against the live server, and what it prints must be, line by line, the comments of its
  ``print(...)  # answer`` lines. Together the Python examples of docs/api.md call every method
  of the Python client, ``tictactoe_client`` (never the service's own package).

A document without examples, a console block with output before its first command, and a Python
block that prints no answer to compare all fail: the check cannot pass vacuously.

Every ``python`` block of those documents and of the Python client's README must also pass
``mypy --strict`` as it is written, as a user's program would be checked: a program of the
standard game that the documents show must type-check unchanged.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support import ROOT
from tests.support.commands import run
from tests.support.server import Server
from tests.support.tools import require_module, require_tool

#: The documents whose examples are checked, relative to the project root.
DOCUMENTS = ("README.md", "docs/api.md")
#: Where the examples say the service is: curl commands, and Python programs.
ADDRESS = "localhost:8000"
URL = "http://127.0.0.1:8000"
#: What the examples of each document must call, at least (fragments of the commands).
COVERAGE = {
    "README.md": ["POST localhost:8000/v1/best-move ", "/v1/positions/", "/health"],
    "docs/api.md": [
        "POST localhost:8000/v1/best-move ",
        "POST localhost:8000/v1/best-move/batch ",
        "localhost:8000/v1/best-move?",
        "localhost:8000/v1/positions/",
        "POST localhost:8000/v1/analysis ",
        "POST localhost:8000/v1/review ",
        "localhost:8000/v1/puzzles?",
        "localhost:8000/v1/puzzles/random?",
        "localhost:8000/v1/puzzles/",
        '"rating": ',
        "localhost:8000/health",
        "localhost:8000/v1/variants",
        "variant=notakto",
        '"variant": "',
        "lang=",
        "localhost:8000/v1/languages",
    ],
}

#: What the Python examples of each document must call, at least: every method of the client.
PYTHON_COVERAGE = {
    "README.md": [],
    "docs/api.md": [
        "from tictactoe_client import",
        ".best_move(",
        ".get_best_move(",
        ".batch(",
        ".position(",
        ".analyze(",
        ".review(",
        ".puzzles(",
        ".iter_puzzles(",
        ".puzzle(",
        ".random_puzzle(",
        "rating=",
        ".health(",
        ".variants(",
        "variant=",
        "if_none_match=",
        "AsyncClient(",
        ".languages(",
        "lang=",
    ],
}

#: The documents whose Python examples must pass ``mypy --strict`` as written.
TYPED_DOCUMENTS = (*DOCUMENTS, "clients/python/README.md")
MYPY_ERROR = re.compile(r"^(?P<file>example_\d+)\.py:(?P<line>\d+): (?P<rest>error: .*)$", re.M)

BLOCK = re.compile(r"^```(console|python)\n(.*?)^```", re.S | re.M)
ANSWER_COMMENT = re.compile(r"^\s*print\(.*\)\s+# (.+)$")


@dataclass(frozen=True)
class Example:
    """One example of a document: a shell command or a Python program, and what it prints."""

    document: str
    line: int  # where the command or the program starts in the document
    kind: str  # "console" or "python"
    source: str
    expected: str

    @property
    def id(self) -> str:
        first = self.source.strip().splitlines()[0] if self.source.strip() else ""
        return f"{self.document}:{self.line}:{first[:50]}"


def blocks(document: str) -> list[tuple[int, str, str]]:
    """``(first line, kind, text)`` of each console and python block of ``document`` (none if missing)."""
    path = ROOT / document
    if not path.is_file():
        return []
    content = path.read_text(encoding="utf-8")
    return [
        (content.count("\n", 0, match.start(2)) + 1, match.group(1), match.group(2))
        for match in BLOCK.finditer(content)
    ]


def console_examples(document: str, start: int, text: str) -> list[Example]:
    """Each ``$ `` command of a console block with the lines after it, up to the next command."""
    found: list[Example] = []
    command: tuple[int, str] | None = None
    output: list[str] = []
    for number, line in enumerate(text.splitlines(), start):
        if line.startswith("$ "):
            if command is not None:
                found.append(Example(document, command[0], "console", command[1], "\n".join(output)))
            command, output = (number, line[2:]), []
        else:
            output.append(line)
    if command is not None:
        found.append(Example(document, command[0], "console", command[1], "\n".join(output)))
    return found


def python_example(document: str, start: int, text: str) -> Example:
    """A Python program and the answers its ``print`` lines are commented with."""
    answers = [match.group(1) for line in text.splitlines() if (match := ANSWER_COMMENT.match(line))]
    return Example(document, start, "python", text, "\n".join(answers))


def examples(document: str) -> list[Example]:
    found: list[Example] = []
    for start, kind, text in blocks(document):
        if kind == "console":
            found.extend(console_examples(document, start, text))
        else:
            found.append(python_example(document, start, text))
    return found


EXAMPLES = [example for document in DOCUMENTS for example in examples(document)]


@pytest.mark.parametrize("document", DOCUMENTS)
def test_document_has_tested_examples(document: str) -> None:
    assert (ROOT / document).is_file(), f"{document} is missing"
    found = examples(document)
    assert found, f"no examples found in {document}"
    commands = " ".join(example.source for example in found if example.kind == "console")
    for fragment in COVERAGE[document]:
        assert fragment in commands, f"{document} has no example of {fragment.strip()}"
    programs = " ".join(example.source for example in found if example.kind == "python")
    for fragment in PYTHON_COVERAGE[document]:
        assert fragment in programs, f"{document} has no Python example of {fragment}"
    # The client's import name is its own: no example reaches into the service's package.
    assert not re.search(r"^\s*(from|import) service\b", programs, re.M), f"{document} imports service"
    for start, kind, text in blocks(document):
        if kind == "console":
            first = next((line for line in text.splitlines() if line.strip()), "")
            assert first.startswith("$ "), f"{document}:{start}: a console block starts with output"
        else:
            assert python_example(document, start, text).expected, (
                f"{document}:{start}: a Python example prints no answer to compare"
            )


def canonical(text: str) -> str:
    """JSON text with its values, types (``true`` is not ``1``) and key order kept, its spacing made one.

    The order of keys is kept: an example shows an answer as the service writes it."""
    return json.dumps(json.loads(text))


def assert_same_answer(actual: str, expected: str) -> None:
    try:
        wanted = canonical(expected)
    except json.JSONDecodeError:
        assert actual == expected.strip()
        return
    try:
        got = canonical(actual)
    except json.JSONDecodeError:
        pytest.fail(f"expected JSON, got {actual!r}")
    assert got == wanted


@pytest.mark.parametrize("example", EXAMPLES, ids=[example.id for example in EXAMPLES])
def test_example_answers_as_printed(live_server: Server, example: Example) -> None:
    if example.kind == "console":
        require_tool("curl")
        assert "curl " in example.source and ADDRESS in example.source, (
            f"a console example must call the service at {ADDRESS}: {example.source}"
        )
        command = ["bash", "-c", example.source.replace(ADDRESS, live_server.url.removeprefix("http://"))]
    else:
        assert URL in example.source, f"a Python example must use the service at {URL}"
        command = [sys.executable, "-c", example.source.replace(URL, live_server.url)]
    result = run(command, cwd=ROOT, timeout=60, check=False)
    if example.kind == "python":
        assert result.returncode == 0, result.stderr
    assert_same_answer(result.stdout.strip(), example.expected)


def test_the_python_examples_pass_mypy_strict(tmp_path: Path) -> None:
    """Each Python block, in a file of its own outside the repository, through ``mypy --strict``
    with the client installed and no configuration of the project's (no plugin): as a user's
    program. An error is reported at its line of the document."""
    require_module("mypy")
    where: dict[str, tuple[str, int]] = {}
    for document in TYPED_DOCUMENTS:
        assert (ROOT / document).is_file(), f"{document} is missing"
        for start, kind, text in blocks(document):
            if kind == "python":
                name = f"example_{len(where) + 1}"
                where[name] = (document, start)
                (tmp_path / f"{name}.py").write_text(text, encoding="utf-8")
    checked = {document for document, _ in where.values()}
    assert {"docs/api.md", "clients/python/README.md"} <= checked, "no Python example to check"
    assert any("review(" in (tmp_path / f"{name}.py").read_text(encoding="utf-8") for name in where)
    (tmp_path / "mypy.ini").write_text("[mypy]\n", encoding="utf-8")
    command = [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "cache")]
    result = run([*command, *(f"{name}.py" for name in where)], cwd=tmp_path, timeout=300, check=False)
    errors = [
        f"{where[match['file']][0]}:{where[match['file']][1] + int(match['line']) - 1}: {match['rest']}"
        for match in MYPY_ERROR.finditer(result.stdout)
    ]
    assert result.returncode == 0 and not errors, "\n".join(errors) or result.output
    assert f"no issues found in {len(where)} source files" in result.stdout
