"""The Python client as its users get it: ``tictactoe-client``, built by PyPA's build, installed.

The sdist and the wheel of ``clients/python`` hold the client and nothing else, with the metadata
a package index shows. The wheel is installed in a fresh virtual environment in a temporary
directory outside the repository (versions from constraints.txt); it must bring httpx, pydantic
and what they need, and nothing else. A user's project there has a module of its own named
``service`` (``service.py``), the name the client's package used to have: the client examples of
docs/api.md run in that project against a live server and print what the document says, and a
program of the user's that imports both its ``service`` and the client runs, and so does one that
uses the coach (a review, reviews in wild, Notakto on two boards and 4×4, every page of the
puzzles, one puzzle, a random one, puzzles of the variants by ``variant``, a rating), whose answers
must be those of the repository's client; and one that asks for the sentences in a language (the
client's ``lang``, a call's, a batch's) gets the service's own, as the ``tictactoe`` command does
in the language of the locale. mypy --strict, with the environment's packages, passes a correct
program and refuses a wrong one (a level that does not exist, a misspelt option, a mark that is not
X or O, a theme that does not exist, a review's side that its variant has not, a variant of puzzles
that does not exist, a ``lang`` where the API takes none).
"""

from __future__ import annotations

import os
import sys
import tarfile
import zipfile
from dataclasses import dataclass
from email.parser import HeaderParser
from pathlib import Path

import pytest
from tictactoe_client import Client, NotModified, ServiceError, Sides, TurnSides
from tictactoe_client._words import LANGUAGES, _, speaking

from tests.e2e.test_readme import URL, Example, assert_same_answer, examples
from tests.support import ROOT
from tests.support.commands import build, run
from tests.support.server import Server
from tests.support.tools import require_module

CLIENT = ROOT / "clients" / "python"
MODULES = {
    "__init__.py",
    "__main__.py",
    "_base.py",
    "_cli.py",
    "_client.py",
    "_errors.py",
    "_models.py",
    "_reviews.py",
    "_types.py",
    "_version.py",
    "_words.py",
}
#: The terminal game's catalogue: its template, and each language's, as written and compiled.
CATALOGUE = {"tictactoe.pot"} | {
    f"locales/{tag}/LC_MESSAGES/tictactoe.{kind}" for tag in LANGUAGES for kind in ("po", "mo")
}
#: The service's own packages: none may come with the client.
SERVER_PACKAGES = {
    "fastapi",
    "starlette",
    "uvicorn",
    "prometheus-client",
    "pydantic-settings",
    "tictactoe-service",
}

#: A module of the user's own, named as the client's package once was.
USER_SERVICE = '''"""The user's own service module, beside their program."""

NAME = "the user's own service"
'''
USER_PROGRAM = """import os
import sys

import service
import tictactoe_client
from tictactoe_client import Client

with Client("http://127.0.0.1:8000") as client:
    print(service.NAME, client.best_move("X........").position)
inside = sorted(name for name in sys.modules if name.startswith("service."))
print(inside, os.path.samefile(service.__file__, "service.py"))
"""

#: The coach's operations, sync and async, as a user's program calls them.
COACH_PROGRAM = """import asyncio

from tictactoe_client import AsyncClient, Client, MarkedMove, NotModified, ServiceError, Sides, TurnSides

with Client("http://127.0.0.1:8000") as client:
    review = client.review([0, 1, 4, 2, 8])
    print(review.winner, [ply.judgement for ply in review.plies])
    assert isinstance(review.players, Sides)
    print(review.players.X.level, review.players.X.rating, review.players.O.accuracy)
    wild = client.review([(4, "X"), MarkedMove(position=0, mark="O"), (8, "X")], variant="wild")
    assert isinstance(wild.players, TurnSides)
    print([(ply.player, ply.mark, ply.judgement) for ply in wild.plies], wild.players.first.rating)
    notakto = client.review([4, 13, 0, 9], variant="notakto-2")
    assert isinstance(notakto.players, TurnSides)
    print([ply.grid for ply in notakto.plies], notakto.plies[-1].board_after, notakto.players.second.level)
    four = client.review([0, 5, 1, 6, 2, 7, 3], variant="4x4")
    assert isinstance(four.players, Sides)
    print(four.status, four.players.X.moves, four.players.X.rating)
    try:
        client.review([(4, "X"), 0], variant="wild")
    except ServiceError as error:
        print(error.status, error.problem.errors and error.problem.errors[0].loc)
    ids = [puzzle.id for puzzle in client.iter_puzzles(limit=100)]
    print(len(ids), len(set(ids)), client.puzzles(limit=1).value.total)
    drawn = client.random_puzzle(3, theme="block")
    print(drawn.value.id, isinstance(client.puzzle(drawn.value.id, if_none_match=drawn.etag), NotModified))
    try:
        client.puzzle("XXXXXXXXXO")
    except ServiceError as error:
        print(error.status, error.problem.type)
    print(client.best_move("XX..O....", rating=250.5, seed=9).position)
    misere = [puzzle.id for puzzle in client.iter_puzzles(variant="misere", theme="avoid", limit=100)]
    print(len(misere), client.puzzles(variant="misere", theme="avoid", limit=1).value.total, misere[0])
    wild = client.random_puzzle(4, variant="wild").value
    print(wild.id, wild.variant, wild.player, wild.solution, wild.mark, client.puzzle(wild.id).value == wild)
    notakto = client.random_puzzle(4, variant="notakto-3", min_rating=100, max_rating=400).value
    print(notakto.id, notakto.grid, notakto.rating)


async def forks() -> list[str]:
    async with AsyncClient("http://127.0.0.1:8000") as client:
        return [puzzle.id async for puzzle in client.iter_puzzles(theme="fork", limit=50)]


async def wild_squeezes() -> list[str]:
    async with AsyncClient("http://127.0.0.1:8000") as client:
        drawn = await client.random_puzzle(2, variant="wild", theme="squeeze")
        listed = [puzzle.id async for puzzle in client.iter_puzzles(variant="wild", theme="squeeze", limit=3)]
        return [drawn.value.id, *listed]


print(len(asyncio.run(forks())))
print(asyncio.run(wild_squeezes()))
"""

#: Uses every part of the client's typed surface as the documentation shows it.
CORRECT = """from collections.abc import Iterator

from tictactoe_client import (
    AnalysisResponse, AsyncClient, BestMoveItem, BestMoveResponse, Client, Fetched, Judgement,
    LanguageInfo, LanguageList, Level, Mark, MarkedMove, NotModified, Player, Puzzle, PuzzlePage,
    ReviewMove, ServiceError, SideReview, Sides, Theme, Turn, TurnSides, Variant, VariantInfo,
)


def strongest(client: Client, board: str, side: Mark) -> int:
    level: Level = "perfect"
    return client.best_move(board, side, level=level, seed=1).position


def refresh(client: Client, board: str, tag: str | None) -> AnalysisResponse | None:
    answer = client.position(board, if_none_match=tag)
    if isinstance(answer, NotModified):
        return None
    fetched: Fetched[AnalysisResponse] = answer
    return fetched.value


def moves(client: Client) -> list[int]:
    items: list[BestMoveItem] = [
        {"board": "X........", "level": "easy", "seed": 3},
        {"board": [["X", None, "O"], ["", "", ""], ["X", "", ""]], "player": "O", "skill": 0.5},
    ]
    return [answer.position for answer in client.batch(items)]


async def first(client: AsyncClient) -> BestMoveResponse | str:
    try:
        return (await client.get_best_move("X........")).value
    except ServiceError as error:
        return error.problem.detail


def judged(client: Client) -> list[Judgement]:
    return [ply.judgement for ply in client.review([0, 1, 4], "X........", "X").plies]


def reviewed(client: Client, variant: Variant) -> list[SideReview]:
    moves: list[ReviewMove] = [(4, "X"), MarkedMove(position=0, mark="O")] if variant == "wild" else [4]
    review = client.review(moves, None, "first" if variant == "wild" else None, variant=variant)
    marks = [ply.mark for ply in review.plies] + [ply.better.mark for ply in review.plies if ply.better]
    players = review.players
    if isinstance(players, TurnSides):
        return [players.first, players.second] if None not in marks else []
    sides: Sides = players
    return [sides.X, sides.O]


def sides_of_their_variant(client: Client) -> tuple[str | None, Mark, Turn, int]:
    standard = client.review([0, 1, 4, 2, 8])
    wild = client.review([(4, "X"), (0, "O")], variant="wild")
    return standard.players.O.level, standard.plies[0].player, wild.player, wild.players.first.moves


def themed(client: Client, theme: Theme) -> Iterator[Puzzle]:
    page: PuzzlePage = client.puzzles(theme=theme, outcome="win", min_rating=100, limit=5).value
    yield from page.puzzles
    yield from client.iter_puzzles(theme=theme)
    yield client.random_puzzle(1, max_rating=400).value
    yield client.puzzle(page.puzzles[0].id).value


def variant_puzzles(client: Client, variant: Variant) -> list[tuple[Variant, int, Mark | None, int | None]]:
    page = client.puzzles(variant=variant, theme="squeeze", min_rating=0, limit=5).value
    drawn = client.random_puzzle(1, variant="wild", theme="squeeze", max_rating=600).value
    found = [*page.puzzles, drawn, *client.iter_puzzles(variant="notakto-2", theme="hand_over")]
    return [(puzzle.variant, puzzle.solution, puzzle.mark, puzzle.grid) for puzzle in found]


def variants(client: Client) -> list[str]:
    listed: list[VariantInfo] = client.variants()
    chosen: Variant = "notakto-2"
    side: Player = "second"
    items: list[BestMoveItem] = [{"board": "X...O....", "variant": "wild", "player": "first"}]
    move = client.best_move("X...X........X....", side, variant=chosen, skill=0.5)
    wild = client.batch(items)[0].mark
    analysis = client.analyze("X....O..........", variant="4x4")
    again = client.position("X....O..........", variant="4x4-3").value
    default = client.get_best_move("X........", variant="misere").value
    return [v.id for v in listed] + [str(move.grid), str(wild), analysis.status, again.status, default.board]


def rated(client: Client) -> int:
    items: list[BestMoveItem] = [{"board": "X........", "rating": 181.5}]
    return client.batch(items)[0].score + client.best_move("X........", rating=300).score


def spoken(client: Client) -> list[str | None]:
    spanish = Client(lang="es")
    listed: LanguageList = client.languages()
    first: LanguageInfo = listed.languages[0]
    fetched: Fetched[BestMoveResponse] = spanish.get_best_move("X........", lang="fr")
    items: list[BestMoveItem] = [{"board": "X........"}]
    reasons = [answer.reason for answer in client.batch(items, lang="de")]
    reasons.append(spanish.review([4], lang="pt").plies[0].reason)
    return [first.tag, listed.default, fetched.language, spanish.lang, *reasons]


async def spoken_async(client: AsyncClient) -> str:
    puzzle = await client.random_puzzle(1, lang="es")
    return puzzle.value.reason + str(puzzle.language) + (await client.variants(lang="fr"))[0].name
"""
#: Each line is a mistake mypy --strict must find; what it says about it.
WRONG = {
    'Client().best_move("X........", level="impossible")': "incompatible type \"Literal['impossible']\"",
    'Client().best_move("X........", "Z")': "incompatible type \"Literal['Z']\"",
    'Client().batch([{"board": "X........", "skil": 0.5}])': '"skil"',
    'Client().position("X........").value.best_move': 'has no attribute "best_move"',
    'Client().iter_puzzles(theme="forks")': "incompatible type \"Literal['forks']\"",
    'Client().puzzles(outcome="loss")': 'No overload variant of "puzzles"',
    'Client().random_puzzle(1, variant="chess")': 'No overload variant of "random_puzzle"',
    'Client().iter_puzzles(variant="wild", theme="center")': "incompatible type \"Literal['center']\"",
    "Client().review([4]).players.X.elo": 'has no attribute "elo"',
    'Client().best_move("X........", variant="5x5")': "incompatible type \"Literal['5x5']\"",
    'Client().analyze("X........", "third", variant="wild")': "incompatible type \"Literal['third']\"",
    "Client().variants()[0].board": 'has no attribute "board"',
    'Client().review([(4, "Z")], variant="wild")': 'matches argument types "list[tuple[int, str]]"',
    'Client().review([4], variant="wild").players.X': '"TurnSides" has no attribute "X"',
    "Client().review([4]).players.first": '"Sides" has no attribute "first"',
    'Client().languages(lang="es")': 'Unexpected keyword argument "lang"',
    'Client().batch([{"board": "X........", "lang": "es"}])': '"lang"',
    "Client(lang=5)": 'incompatible type "int"',
}


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The client's sdist and wheel, built by ``python -m build`` (the wheel from the sdist)."""
    return build(CLIENT, tmp_path_factory.mktemp("client-dist"))


def test_the_wheel_holds_the_client_alone(dist: dict[str, Path]) -> None:
    assert dist["wheel"].name == "tictactoe_client-1.0.0-py3-none-any.whl"
    with zipfile.ZipFile(dist["wheel"]) as archive:
        names = set(archive.namelist())
        (info,) = {name.split("/")[0] for name in names if ".dist-info/" in name}
        metadata = HeaderParser().parsestr(archive.read(f"{info}/METADATA").decode())
        license_text = archive.read(f"{info}/licenses/LICENSE").decode()
    package = {
        name.removeprefix("tictactoe_client/") for name in names if name.startswith("tictactoe_client/")
    }
    assert package == MODULES | {"py.typed"} | CATALOGUE
    assert {name.split("/")[0] for name in names} == {"tictactoe_client", info}
    assert (metadata["Name"], metadata["Version"]) == ("tictactoe-client", "1.0.0")
    assert sorted(metadata.get_all("Requires-Dist") or []) == ["httpx>=0.28.1", "pydantic>=2.14"]
    assert metadata["License-Expression"] == "MIT"
    assert metadata["Requires-Python"] == ">=3.11"
    assert "Typing :: Typed" in (metadata.get_all("Classifier") or [])
    assert license_text == (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert metadata.get_all("Project-URL") is None, "the project publishes no URL"
    with zipfile.ZipFile(dist["wheel"]) as archive:
        scripts = archive.read(f"{info}/entry_points.txt").decode()
    assert "[console_scripts]\ntictactoe = tictactoe_client._cli:main" in scripts


def test_the_sdist_holds_the_sources_to_build_it(dist: dict[str, Path], tmp_path: Path) -> None:
    with tarfile.open(dist["sdist"]) as archive:
        prefix = archive.getnames()[0].split("/")[0] + "/"
        names = {name.removeprefix(prefix) for name in archive.getnames() if name != prefix.rstrip("/")}
        archive.extractall(tmp_path, filter="data")
    sources = {
        name.removeprefix("src/tictactoe_client/")
        for name in names
        if name.startswith("src/tictactoe_client/")
    }
    assert MODULES | {"py.typed"} | CATALOGUE <= sources
    assert {"pyproject.toml", "README.md", "LICENSE", "PKG-INFO"} <= names
    assert not any(name.startswith(("service", "tests", "src/service")) for name in names), sorted(names)
    assert not any("__pycache__" in name or name.endswith(".pyc") for name in names)
    # The models in the sdist are the committed ones: it builds without the OpenAPI document.
    unpacked = tmp_path / prefix / "src" / "tictactoe_client" / "_models.py"
    assert unpacked.read_bytes() == (CLIENT / "src" / "tictactoe_client" / "_models.py").read_bytes()


def test_twine_accepts_both_files(dist: dict[str, Path]) -> None:
    require_module("twine")
    output = run([sys.executable, "-m", "twine", "check", "--strict", dist["sdist"], dist["wheel"]]).stdout
    assert output.count("PASSED") == 2, output


@dataclass(frozen=True)
class User:
    """A user's machine: a virtual environment with the wheel installed, and a project of theirs."""

    python: Path
    project: Path


@pytest.fixture(scope="module")
def user(tmp_path_factory: pytest.TempPathFactory, dist: dict[str, Path]) -> User:
    home = tmp_path_factory.mktemp("user")
    assert not home.resolve().is_relative_to(ROOT.resolve()), (
        "the user's directory must be outside the repository"
    )
    venv = home / "venv"
    run([sys.executable, "-m", "venv", str(venv)])
    python = venv / "bin" / "python"
    run([python, "-m", "pip", "install", "--quiet", "-c", ROOT / "constraints.txt", dist["wheel"]], cwd=home)
    project = home / "project"
    project.mkdir()
    (project / "service.py").write_text(USER_SERVICE, encoding="utf-8")
    return User(python, project)


#: Run in the user's environment: each installed distribution, then those that
#: tictactoe-client needs, its requirements' requirements and so on (extras left out).
CLOSURE = """
import re
from importlib.metadata import distribution, distributions

def key(name):
    return re.sub(r"[-_.]+", "-", name).lower()

installed = {key(d.metadata["Name"]) for d in distributions()}
needed, todo = set(), ["tictactoe-client"]
while todo:
    name = key(todo.pop())
    if name in needed or name not in installed:
        continue
    needed.add(name)
    for requirement in distribution(name).requires or []:
        if "extra ==" not in requirement:
            todo.append(re.match(r"[A-Za-z0-9._-]+", requirement).group())
print(" ".join(sorted(installed)))
print(" ".join(sorted(needed)))
"""


def test_the_install_holds_the_client_httpx_pydantic_and_theirs(user: User) -> None:
    lines = run([user.python, "-c", CLOSURE], cwd=user.project).stdout.splitlines()
    installed, needed = (set(line.split()) for line in lines)
    assert {"tictactoe-client", "httpx", "pydantic"} <= needed
    assert installed - {"pip", "setuptools"} == needed, "installed, but not needed by the client"
    assert not installed & SERVER_PACKAGES


@pytest.mark.parametrize(
    "example",
    [example for example in examples("docs/api.md") if example.kind == "python"],
    ids=lambda example: example.id,
)
def test_the_client_examples_run_there(user: User, live_server: Server, example: Example) -> None:
    assert "tictactoe_client" in example.source
    output = run(
        [user.python, "-c", example.source.replace(URL, live_server.url)], cwd=user.project, timeout=60
    ).stdout
    assert_same_answer(output.strip(), example.expected)


def test_a_users_own_service_module_is_not_in_the_way(user: User, live_server: Server) -> None:
    output = run(
        [user.python, "-c", USER_PROGRAM.replace(URL, live_server.url)], cwd=user.project, timeout=60
    ).stdout
    assert output.splitlines() == ["the user's own service 4", "[] True"]


def test_the_coach_runs_there(user: User, live_server: Server) -> None:
    """Review, puzzles and rating from the installed wheel: the answers of the repository's client."""
    output = run(
        [user.python, "-c", COACH_PROGRAM.replace(URL, live_server.url)], cwd=user.project, timeout=120
    ).stdout
    with Client(live_server.url) as client:
        review = client.review([0, 1, 4, 2, 8])
        assert isinstance(review.players, Sides)
        wild = client.review([(4, "X"), (0, "O"), (8, "X")], variant="wild")
        assert isinstance(wild.players, TurnSides)
        notakto = client.review([4, 13, 0, 9], variant="notakto-2")
        assert isinstance(notakto.players, TurnSides)
        four = client.review([0, 5, 1, 6, 2, 7, 3], variant="4x4")
        assert isinstance(four.players, Sides)
        total = client.puzzles(limit=1).value.total
        drawn = client.random_puzzle(3, theme="block").value
        with pytest.raises(ServiceError) as caught:
            client.puzzle("XXXXXXXXXO")
        move = client.best_move("XX..O....", rating=250.5, seed=9)
        forks = client.puzzles(theme="fork", limit=1).value.total
        assert isinstance(client.puzzle(drawn.id, if_none_match=client.puzzle(drawn.id).etag), NotModified)
        misere = list(client.iter_puzzles(variant="misere", theme="avoid", limit=100))
        drawn_wild = client.random_puzzle(4, variant="wild").value
        drawn_notakto = client.random_puzzle(4, variant="notakto-3", min_rating=100, max_rating=400).value
        squeezes = [client.random_puzzle(2, variant="wild", theme="squeeze").value.id]
        squeezes += [puzzle.id for puzzle in client.iter_puzzles(variant="wild", theme="squeeze")]
    assert all(puzzle.variant == "misere" and "avoid" in puzzle.themes for puzzle in misere) and misere
    assert drawn_wild.mark in ("X", "O") and drawn_wild.player in ("first", "second")
    assert drawn_notakto.grid == drawn_notakto.solution // 9 and 100 <= drawn_notakto.rating <= 400
    assert output.splitlines() == [
        f"{review.winner} {[ply.judgement for ply in review.plies]}",
        f"{review.players.X.level} {review.players.X.rating} {review.players.O.accuracy}",
        f"{[(ply.player, ply.mark, ply.judgement) for ply in wild.plies]} {wild.players.first.rating}",
        f"{[ply.grid for ply in notakto.plies]} {notakto.plies[-1].board_after} "
        f"{notakto.players.second.level}",
        f"{four.status} {four.players.X.moves} {four.players.X.rating}",
        "422 ['body', 'moves', 1]",
        f"{total} {total} {total}",
        f"{drawn.id} True",
        f"{caught.value.status} {caught.value.problem.type}",
        str(move.position),
        f"{len(misere)} {len(misere)} {misere[0].id}",
        f"{drawn_wild.id} wild {drawn_wild.player} {drawn_wild.solution} {drawn_wild.mark} True",
        f"{drawn_notakto.id} {drawn_notakto.grid} {drawn_notakto.rating}",
        str(forks),
        str(squeezes),
    ]


def test_mypy_strict_checks_a_users_program(user: User, tmp_path: Path) -> None:
    """The installed client's types (py.typed), as mypy sees them from the user's environment."""
    require_module("mypy")
    mypy = [sys.executable, "-m", "mypy", "--strict", "--python-executable", str(user.python)]
    mypy += ["--cache-dir", str(tmp_path / "mypy-cache")]
    (user.project / "correct.py").write_text(CORRECT, encoding="utf-8")
    run([*mypy, "correct.py"], cwd=user.project)
    wrong = "from tictactoe_client import Client\n\n" + "\n".join(WRONG) + "\n"
    (user.project / "wrong.py").write_text(wrong, encoding="utf-8")
    result = run([*mypy, "wrong.py"], cwd=user.project, check=False)
    assert result.returncode == 1, result.stdout + result.stderr
    for number, (line, message) in enumerate(WRONG.items(), start=3):
        found = [error for error in result.stdout.splitlines() if error.startswith(f"wrong.py:{number}:")]
        assert any(message in error for error in found), f"mypy says nothing of {line!r}: {result.stdout}"


def test_the_tictactoe_command_plays_against_a_server_and_names_what_is_missing(
    user: User, live_server: Server
) -> None:
    """The command from the wheel: against the service at --url; without one, and with no service
    installed to run in its own process, one line that says what to give or install."""
    command = user.python.parent / "tictactoe"
    english = {**without_url(), "LC_ALL": "C.UTF-8"}  # whatever the locale of whoever runs the tests
    played = run(
        [command, "--url", live_server.url, "best-move", "X........"], cwd=user.project, env=english
    ).stdout
    assert "O plays cell 5 (row 2, column 2)" in played, played
    alone = run([command, "best-move", "X........"], cwd=user.project, fails=True, env=english)
    assert alone.returncode == 1
    assert alone.output.strip().splitlines() == [
        "error: no service to talk to: give --url (or TICTACTOE_URL) of a running service, "
        "or install it to run here: pip install 'tictactoe-service[server]'"
    ]


#: A user's program that asks for the sentences in a language: the client's, a call's, a batch's.
LANGUAGE_PROGRAM = """from tictactoe_client import Client

with Client("http://127.0.0.1:8000", lang="es") as client:
    print(client.best_move("XX..O....", level="medium", seed=5).reason)
    print(client.best_move("XX..O....", level="medium", seed=5, lang="fr").reason)
    fetched = client.position("X........")
    print(fetched.language, [move.reason for move in fetched.value.moves][:2])
    print([answer.reason for answer in client.batch([{"board": "X........"}], lang="de")])
    print([language.tag for language in client.languages().languages])
"""


def test_the_languages_there(user: User, live_server: Server) -> None:
    """From the installed wheel, the answers of the repository's client in the same languages; and
    the command in the language of the locale (es_ES.UTF-8), or of --lang over it."""
    output = run(
        [user.python, "-c", LANGUAGE_PROGRAM.replace(URL, live_server.url)], cwd=user.project, timeout=60
    ).stdout
    with Client(live_server.url, lang="es") as client:
        spanish = client.best_move("XX..O....", level="medium", seed=5)
        french = client.best_move("XX..O....", level="medium", seed=5, lang="fr")
        position = client.position("X........")
        german = client.batch([{"board": "X........"}], lang="de")
        tags = [language.tag for language in client.languages().languages]
    with Client(live_server.url) as client:
        english = client.best_move("XX..O....", level="medium", seed=5)
    assert len({spanish.reason, french.reason, english.reason}) == 3
    assert (spanish.position, spanish.tactics) == (english.position, english.tactics)
    assert output.splitlines() == [
        spanish.reason,
        french.reason,
        f"{position.language} {[move.reason for move in position.value.moves][:2]}",
        str([answer.reason for answer in german]),
        str(tags),
    ]
    assert position.language == "es" and tags == ["en", "es", "fr", "de", "pt"]
    command: list[str | os.PathLike[str]] = [user.python.parent / "tictactoe", "--url", live_server.url]
    command += ["best-move", "XX..O...."]
    locale = {**without_url(), "LC_ALL": "", "LC_MESSAGES": "", "LANG": "es_ES.UTF-8"}
    with Client(live_server.url, lang="es") as client:
        best = client.best_move("XX..O....")
    with speaking("es"):
        why = _("Why: {reason}").format(reason=best.reason)
    assert why != f"Why: {best.reason}"  # the terminal's own words, in Spanish too
    assert f"{why}\n" in run(command, cwd=user.project, env=locale).stdout
    with Client(live_server.url) as client:
        in_english = client.best_move("XX..O....")
    chosen = run([*command, "--lang", "en"], cwd=user.project, env=locale).stdout
    assert f"Why: {in_english.reason}\n" in chosen


def without_url() -> dict[str, str]:
    return {name: value for name, value in os.environ.items() if name != "TICTACTOE_URL"}
