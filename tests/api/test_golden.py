"""The service's answers are the golden ones: byte for byte, in every variant and every kind.

Before the standard game and the variants are merged into one engine, what the service answers is
frozen in ``tests/golden/answers.json``: for each ``(variant, kind)`` (best moves by ``POST`` and
``GET``, analyses by ``POST`` and ``GET``, seeded best moves with each option, batches, reviews of
seeded random games, refusals, the MCP tools' texts; the puzzle book and ``304`` answers in the
standard game; the variants list, the OpenAPI document and the MCP lists once) a SHA-256 over the
status, the headers a client reads and the body of each answer, in a fixed order, with the count
of answers and a digest per chunk of 100 answers. :mod:`tests.support.golden` says what is asked
and how much of each variant. Each test here asks one ``(variant, kind)`` again, through the app
in-process, and compares; on a mismatch it names the kind, the first chunk of answers that differs
and that chunk's first request.

This test never writes the file. When answers change on purpose, regenerate it, and commit it with
the change that explains it::

    .venv/bin/python -m tests.support.golden --write                  # every kind
    .venv/bin/python -m tests.support.golden --write standard/review  # some kinds only

and to look into a mismatch (run ``--show`` here and in the last commit whose answers matched, and
compare)::

    .venv/bin/python -m tests.support.golden --check [KEY ...]
    .venv/bin/python -m tests.support.golden --show KEY --start N --count 100
"""

from __future__ import annotations

import json
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.support import golden

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
def stored() -> dict[str, golden.Digest]:
    return golden.load()


@pytest.fixture(scope="module")
async def asked() -> AsyncIterator[golden.Session]:
    """The app in-process, its lifespan running, shared by the module's tests."""
    async with golden.session() as session:
        yield session


def test_every_kind_has_a_golden_digest_and_every_digest_a_kind(stored: dict[str, golden.Digest]) -> None:
    assert list(stored) == list(golden.kinds()), (
        "regenerate: .venv/bin/python -m tests.support.golden --write"
    )


def test_the_standard_game_is_asked_whole(stored: dict[str, golden.Digest]) -> None:
    """Every unfinished (board, side to move) the rules allow for a best move; every one, finished or
    not, for an analysis: 9,040 and 10,956 (6,617 and 8,533 boards)."""
    assert stored["standard/best-move-post"].count == stored["standard/best-move-get"].count == 9040
    assert stored["standard/analysis-post"].count == stored["standard/analysis-get"].count == 10956
    assert len({board for board, _ in golden.unfinished("standard")}) == 6617
    assert len({board for board, _ in golden.analysed("standard")}) == 8533


@pytest.mark.parametrize("key", list(golden.kinds()))
async def test_the_answers_are_the_golden_ones(
    asked: golden.Session, stored: dict[str, golden.Digest], key: str
) -> None:
    answers = await golden.answers_of(asked, key)
    problem = golden.compare(key, stored.get(key), answers)
    assert problem is None, problem


# --- the comparison can fail --------------------------------------------------------------------------


def made_up(count: int) -> list[golden.Answer]:
    return [(f"GET /made-up/{i}", f'200\n\n{{"i": {i}}}'.encode()) for i in range(count)]


def test_one_changed_byte_is_found_and_located() -> None:
    answers = made_up(250)
    stored = golden.digest(answers)
    assert golden.compare("made/up", stored, answers) is None
    changed = list(answers)
    said, body = changed[137]
    changed[137] = (said, body[:-2] + b"8}")
    problem = golden.compare("made/up", stored, changed)
    assert problem is not None
    assert problem.startswith("made/up: 250 answers")
    assert "answers 100 to 199, from request #100: GET /made-up/100" in problem
    assert "--show made/up --start 100" in problem
    assert "The requests themselves differ" not in problem


def test_a_missing_answer_and_a_changed_request_are_found() -> None:
    answers = made_up(250)
    stored = golden.digest(answers)
    problem = golden.compare("made/up", stored, answers[:-1])
    assert problem is not None and "answers 200 to 248, from request #200" in problem
    problem = golden.compare("made/up", stored, answers[:200])
    assert problem is not None and "Every chunk of the 200 answers matches: 50 are missing" in problem
    renamed = [("GET /elsewhere", answers[0][1]), *answers[1:]]
    problem = golden.compare("made/up", stored, renamed)
    assert problem is not None and "The requests themselves differ" in problem
    assert golden.compare("made/up", None, answers) is not None


async def test_a_golden_file_with_one_digest_changed_fails(tmp_path: Path, asked: golden.Session) -> None:
    """The real answers against a copy of the real file with one character of one digest changed:
    the copy is refused, with the kind and the chunk named; the original is accepted."""
    key = "standard/puzzle-draws"
    copy = tmp_path / "answers.json"
    shutil.copy(golden.GOLDEN, copy)
    document = json.loads(copy.read_text())
    kind = document["kinds"][key]
    first = kind["chunks"][0]
    kind["chunks"][0] = ("0" if first[0] != "0" else "1") + first[1:]
    kind["answers"] = ("0" if kind["answers"][0] != "0" else "1") + kind["answers"][1:]
    copy.write_text(json.dumps(document))
    answers = await golden.answers_of(asked, key)
    assert golden.compare(key, golden.load()[key], answers) is None
    problem = golden.compare(key, golden.load(copy)[key], answers)
    assert problem is not None
    assert problem.startswith(f"{key}: 48 answers")
    assert "from request #0: GET /v1/puzzles/random?seed=0" in problem
