"""The TypeScript client (clients/typescript) as its users get it: packed, installed, compiled and run.

* ``src/api.ts``, the types the package is built from, is what openapi-typescript writes from
  openapi/openapi.json today;
* the package builds from its own folder alone (a copy outside the repository), and ``npm pack``
  gives a tarball of the built package and nothing else, with no runtime dependencies;
* in a fresh project outside the repository that installed the tarball, ``tsc --strict`` with
  ``skipLibCheck: false`` compiles a program using every operation, as an ES module and as
  CommonJS (each resolving the package's types of its condition), and refuses a wrong program with
  exactly the errors marked in it (a review's sides that its variant has not among them); the
  package's two groups of variants, which type a review, are those ``GET /v1/variants`` lists by
  their sides;
* both compiled programs, run by Node against a live server, get its real answers (a game's
  review, reviews in wild, Notakto on two boards and 4×4, every puzzle by paging with the cursor,
  one puzzle, a random one, puzzles of the variants by ``variant`` with wild's mark and Notakto's
  grid, a move at a rating), 304s, problems (an illegal move at its index, in
  the standard game and in the variants, an unknown puzzle), a timeout from a socket that never
  answers, the caller's abort and a refused connection; and the languages: the sentences of every
  operation in the client's ``lang``, a call's ``lang`` over it, a batch's, each the service's own
  answer in that language (the same moves, tactics and ids as in English), the five languages of
  ``languages()`` English first, and a malformed ``lang`` a 422 ``ProblemError``;
* in Node, a base URL that cannot work there (none, a relative one, one that is not a URL or not
  http(s)) is a ``TypeError`` of ``createClient``, with a message that says why, from both builds;
* the package's own checks pass: ``npm run typecheck`` and ``npm test`` against a live server.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support import ROOT
from tests.support.commands import run
from tests.support.server import Server, free_port
from tests.support.stats import counts
from tests.support.tools import require_tool, under_ci

CLIENT = ROOT / "clients" / "typescript"
CONSUMER = CLIENT / "test" / "consumer"
#: What the tarball holds: the manifest, the README and licence, and each module built twice.
MODULES = ("api", "client", "errors", "index", "types")
SHIPPED = {
    "package.json",
    "README.md",
    "LICENSE",
    "dist/cjs/package.json",
    *(
        f"dist/{kind}/{module}.{ext}"
        for kind in ("esm", "cjs")
        for module in MODULES
        for ext in ("js", "d.ts")
    ),
}
TSC_ERROR = re.compile(r"^(?P<file>[^\s(]+)\((?P<line>\d+),\d+\): error (?P<code>TS\d+):", re.M)
MARKED_ERROR = re.compile(r"// error (TS\d+)$")
#: Where the README's examples say the service is, and the comment that says what a line prints.
README_URL = "http://127.0.0.1:8000"
PRINTS = re.compile(r"console\.log\(.*\); // (.+)$")


@pytest.fixture(scope="module")
def tools() -> None:
    """Node, npm, and the package's development tools (installed by make test, with npm ci)."""
    require_tool("node")
    require_tool("npm")
    if not (CLIENT / "node_modules" / ".bin" / "tsc").exists():
        if under_ci():
            pytest.fail("clients/typescript/node_modules is missing: make test installs it (npm ci)")
        pytest.skip("the TypeScript tools are not installed: npm ci --prefix clients/typescript")


def tsc(*args: str, cwd: Path, fails: bool = False) -> str:
    """The package's TypeScript compiler (5.9.3, from its lock file), wherever it runs."""
    compiler = CLIENT / "node_modules" / "typescript" / "bin" / "tsc"
    return run([require_tool("node"), str(compiler), *args], cwd=cwd, timeout=300, fails=fails).stdout


def outside_the_repository(path: Path) -> Path:
    assert not path.resolve().is_relative_to(ROOT.resolve()), f"{path} is inside the repository"
    return path


@dataclass(frozen=True)
class Packed:
    tarball: Path
    #: What ``npm pack --json`` says of it: filename, size, unpackedSize, files, ...
    report: dict[str, Any]


@pytest.fixture(scope="module")
def source(tools: None, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The package folder copied outside the repository, without what it builds; its tools linked."""
    copy = outside_the_repository(tmp_path_factory.mktemp("tictactoe-client"))
    shutil.copytree(
        CLIENT, copy, dirs_exist_ok=True, ignore=shutil.ignore_patterns("node_modules", "dist", "*.tgz")
    )
    (copy / "node_modules").symlink_to(CLIENT / "node_modules", target_is_directory=True)
    return copy


@pytest.fixture(scope="module")
def packed(source: Path, tmp_path_factory: pytest.TempPathFactory) -> Packed:
    """``npm run build``, then ``npm pack``, in the package folder's copy."""
    out = tmp_path_factory.mktemp("pack")
    run([require_tool("npm"), "run", "build"], cwd=source, timeout=300)
    pack = [require_tool("npm"), "pack", "--json", "--ignore-scripts", "--pack-destination", str(out)]
    # Scripts ignored: the build (its prepack script) is just done.
    output = run(pack, cwd=source, timeout=300).stdout
    [report] = json.loads(output)
    counts["typescript client: tarball bytes"] = report["size"]
    counts["typescript client: unpacked bytes"] = report["unpackedSize"]
    counts["typescript client: files in the tarball"] = report["entryCount"]
    return Packed(out / report["filename"], report)


@pytest.fixture(scope="module")
def consumer(packed: Packed, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh project outside the repository that installed the tarball (offline: it depends on nothing)."""
    project = outside_the_repository(tmp_path_factory.mktemp("consumer"))
    manifest = {"name": "consumer", "version": "0.0.0", "private": True, "type": "module"}
    (project / "package.json").write_text(json.dumps(manifest), encoding="utf-8")
    npm_install = [require_tool("npm"), "install", "--offline", "--no-audit", "--no-fund", "--ignore-scripts"]
    run([*npm_install, str(packed.tarball)], cwd=project, timeout=300)
    options = {
        "target": "ES2022",
        "module": "NodeNext",
        "moduleResolution": "NodeNext",
        "lib": ["ES2022", "DOM"],
        "strict": True,
        "skipLibCheck": False,
    }
    for name in ("program", "wrong"):  # each as an ES module (.mts) and as CommonJS (.cts)
        text = (CONSUMER / f"{name}.ts").read_text(encoding="utf-8")
        for extension in ("mts", "cts"):
            (project / f"{name}.{extension}").write_text(text, encoding="utf-8")
    (project / "tsconfig.json").write_text(
        json.dumps({"compilerOptions": options, "files": ["program.mts", "program.cts"]}), encoding="utf-8"
    )
    (project / "tsconfig.wrong.json").write_text(
        json.dumps({"compilerOptions": {**options, "noEmit": True}, "files": ["wrong.mts", "wrong.cts"]}),
        encoding="utf-8",
    )
    return project


@pytest.fixture(scope="module")
def compiled(consumer: Path) -> str:
    """The correct program compiled in the fresh project; the files tsc read."""
    return tsc("--project", "tsconfig.json", "--listFiles", cwd=consumer)


def test_the_generated_types_are_those_of_the_openapi_document(tools: None, tmp_path: Path) -> None:
    generator = CLIENT / "node_modules" / "openapi-typescript" / "bin" / "cli.js"
    document, fresh = ROOT / "openapi" / "openapi.json", tmp_path / "api.ts"
    run([require_tool("node"), generator, document, "--output", fresh], cwd=CLIENT, timeout=300)
    committed = (CLIENT / "src" / "api.ts").read_text(encoding="utf-8")
    assert "export interface paths" in committed
    assert fresh.read_text(encoding="utf-8") == committed, (
        "src/api.ts is stale: npm run generate in clients/typescript"
    )


def test_the_tarball_holds_the_built_package_and_nothing_else(packed: Packed) -> None:
    assert {entry["path"] for entry in packed.report["files"]} == SHIPPED
    manifest = json.loads((CLIENT / "package.json").read_text(encoding="utf-8"))
    assert packed.report["name"] == manifest["name"] and packed.report["version"] == manifest["version"]
    assert "dependencies" not in manifest and "peerDependencies" not in manifest
    conditions = manifest["exports"]["."]
    for condition, kind in (("import", "esm"), ("require", "cjs")):
        assert conditions[condition] == {
            "types": f"./dist/{kind}/index.d.ts",
            "default": f"./dist/{kind}/index.js",
        }
    assert (manifest["main"], manifest["types"]) == ("./dist/cjs/index.js", "./dist/cjs/index.d.ts")
    if (ROOT / "LICENSE").exists():
        assert (CLIENT / "LICENSE").read_bytes() == (ROOT / "LICENSE").read_bytes()


def test_a_program_using_every_operation_compiles_strictly_as_esm_and_as_commonjs(
    consumer: Path, compiled: str
) -> None:
    # Each module format read the declarations of its own condition, from the installed tarball,
    # and nothing outside the project but the compiler's own library files.
    library = (CLIENT / "node_modules" / "typescript" / "lib").resolve()
    read = {Path(line).resolve() for line in compiled.split()}
    project = {
        path.relative_to(consumer.resolve()).as_posix() for path in read if not path.is_relative_to(library)
    }
    package = "node_modules/tictactoe-client/dist"
    assert {f"{package}/esm/index.d.ts", f"{package}/cjs/index.d.ts", "program.mts", "program.cts"} <= project
    assert 'from "tictactoe-client"' in (consumer / "program.mjs").read_text(encoding="utf-8")
    assert 'require("tictactoe-client")' in (consumer / "program.cjs").read_text(encoding="utf-8")


def test_a_wrong_program_fails_with_exactly_the_errors_marked_in_it(consumer: Path) -> None:
    output = tsc("--project", "tsconfig.wrong.json", cwd=consumer, fails=True)
    found = {(match["file"], int(match["line"]), match["code"]) for match in TSC_ERROR.finditer(output)}
    lines = (CONSUMER / "wrong.ts").read_text(encoding="utf-8").splitlines()
    marked = {
        (number, marker[1]) for number, line in enumerate(lines, 1) if (marker := MARKED_ERROR.search(line))
    }
    assert len(marked) >= 10
    assert found == {
        (f"wrong.{extension}", line, code) for extension in ("mts", "cts") for line, code in marked
    }, output


#: Compiles only while the package's variant groups are the variants that GET /v1/variants lists
#: with each kind of sides (MARKS, TURNS: unions of string literals), and a review in each is typed
#: with them. ``Same`` is exact equality of two types, not assignability.
GROUPS = """\
import type { MarkReview, MarkVariant, Review, TurnReview, TurnVariant, Variant } from "tictactoe-client";

type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
export const marks: Same<MarkVariant, MARKS> = true;
export const turns: Same<TurnVariant, TURNS> = true;
export const every: Same<Variant, MARKS | TURNS> = true;
export const markReview: Same<Review<MARKS>, MarkReview> = true;
export const turnReview: Same<Review<TURNS>, TurnReview> = true;
"""


def test_the_variant_groups_are_the_services(consumer: Path, live_server: Server) -> None:
    """``MarkVariant`` is every variant whose ``marks`` is ``own`` in ``GET /v1/variants`` and
    ``TurnVariant`` every other one, exactly: the check compiles, and fails when one is left out."""
    listed = httpx.get(f"{live_server.url}/v1/variants").json()["variants"]
    own = [variant["id"] for variant in listed if variant["marks"] == "own"]
    others = [variant["id"] for variant in listed if variant["marks"] != "own"]
    assert own and others

    def checked(name: str, marks: list[str], turns: list[str]) -> str:
        text = GROUPS.replace("MARKS", " | ".join(map(json.dumps, marks)))
        text = text.replace("TURNS", " | ".join(map(json.dumps, turns)))
        (consumer / f"{name}.mts").write_text(text, encoding="utf-8")
        return name

    right, short = checked("groups", own, others), checked("groups-short", own[:-1], others)
    for name, fails in ((right, False), (short, True)):
        settings = json.loads((consumer / "tsconfig.wrong.json").read_text(encoding="utf-8"))
        settings["files"] = [f"{name}.mts"]
        (consumer / f"tsconfig.{name}.json").write_text(json.dumps(settings), encoding="utf-8")
        output = tsc("--project", f"tsconfig.{name}.json", cwd=consumer, fails=fails)
        if fails:  # neither MarkVariant nor Variant is the list without its last variant
            lines = {int(match["line"]) for match in TSC_ERROR.finditer(output)}
            assert lines == {4, 6}, output


@pytest.fixture
def silent() -> Iterator[socket.socket]:
    """A socket on 127.0.0.1 that listens and never accepts nor answers: a request to it hangs."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(64)
        yield listener


def connections_waiting(listener: socket.socket) -> int:
    """How many connections the listener holds unaccepted (accepting and closing them now)."""
    listener.setblocking(False)
    waiting = 0
    while True:
        try:
            connection, _ = listener.accept()
        except BlockingIOError:
            return waiting
        connection.close()
        waiting += 1


@pytest.mark.parametrize("program", ["program.mjs", "program.cjs"])
def test_the_compiled_programs_against_a_live_server(
    consumer: Path, compiled: str, live_server: Server, silent: socket.socket, program: str
) -> None:
    silent_url = f"http://127.0.0.1:{silent.getsockname()[1]}"
    refused_url = f"http://127.0.0.1:{free_port()}"
    command = [require_tool("node"), program, live_server.url, silent_url, refused_url]
    output = run(command, cwd=consumer, timeout=300).stdout
    report = json.loads(output)
    # The timeouts and the abort were those of requests the silent socket had taken in, unanswered.
    assert connections_waiting(silent) >= 3
    url = live_server.url
    best_etag = httpx.get(f"{url}/v1/best-move", params={"board": "X.O...X..", "player": "O"}).headers["etag"]
    position_etag = httpx.get(f"{url}/v1/positions/XX.OO....").headers["etag"]

    assert report["bestMove"]["positions"] == [4, 4, 4]
    medium = report["bestMove"]["medium"]
    assert medium["position"] == 2 and medium["tactics"][0] == "block" and "Blocks" in medium["reason"]
    assert report["batch"] == [4, 2]
    assert report["getBestMove"] == {
        "position": 3,
        "board": "X.O...X..",
        "etag": best_etag,
        "again": {"notModified": True, "etag": best_etag},
    }
    assert report["getPosition"] == {
        "best_moves": [2],
        "player": "X",
        "etag": position_etag,
        "again": {"notModified": True},
        "otherEtag": {"notModified": False, "etag": position_etag},
    }
    assert report["analyze"] == {
        "status": "x_won",
        "winner": "X",
        "winning_lines": [[0, 1, 2]],
        "wonByTurn": "first_won",  # a value of the exported Status
    }
    assert report["health"] == {"status": "ok", "positions": 8533}
    assert report["variants"] == {
        "ids": ["standard", "misere", "wild", "notakto", "notakto-2", "notakto-3", "4x4", "4x4-3"],
        "wild": {"player": "first", "mark": "X"},
        "notakto": {"player": "first", "moves": 7, "grid": 0},
        "fourByFour": {"player": "X", "moves": 14},
        "hard": {"board": "." * 18, "player": "first"},
    }
    assert report["metrics"] is True
    check_coach(report, url)
    check_languages(report["languages"], url)

    errors = report["errors"]
    common = {"base": True, "instance": True}
    assert errors["problem"] == {
        **common,
        "kind": "problem",
        "name": "ProblemError",
        "url": f"{url}/v1/best-move",
        "status": 422,
        "type": "/problems/game-over",
        "game_status": "x_won",
        "loc": ["body", "board"],
    }
    problem = {**common, "kind": "problem", "name": "ProblemError", "game_status": None}
    not_found = {**problem, "status": 404, "type": "/problems/not-found", "loc": None}
    invalid = {**problem, "status": 422, "type": "/problems/invalid-input"}
    assert errors["notFound"] == {**not_found, "url": f"{url}/v1/positions/X....%2F...."}
    assert errors["illegalMove"] == {**invalid, "url": f"{url}/v1/review", "loc": ["body", "moves", 2]}
    assert errors["wildCellAlone"] == {**invalid, "url": f"{url}/v1/review", "loc": ["body", "moves", 1]}
    assert errors["deadBoard"] == {**invalid, "url": f"{url}/v1/review", "loc": ["body", "moves", 3]}
    assert errors["offTheBoard"] == {**invalid, "url": f"{url}/v1/review", "loc": ["body", "moves", 1]}
    assert errors["ratingWithLevel"] == {**invalid, "url": f"{url}/v1/best-move", "loc": ["body", "rating"]}
    assert errors["unknownPuzzle"] == {**not_found, "url": f"{url}/v1/puzzles/XXXXXXXXXX"}
    assert errors["noRandomPuzzle"] == {**not_found, "url": f"{url}/v1/puzzles/random?min_rating=494"}
    assert errors["noVariantPuzzle"] == {
        **invalid,
        "url": f"{url}/v1/puzzles/random?variant=misere&theme=fork",
        "loc": ["query", "theme"],
    }
    timeout = {**common, "kind": "timeout", "name": "TimeoutError"}
    assert errors["timeout"] == {**timeout, "url": f"{silent_url}/health", "timeoutMs": 300}
    assert errors["clientTimeout"] == {**timeout, "url": f"{silent_url}/v1/best-move", "timeoutMs": 200}
    aborted = {**common, "kind": "aborted", "name": "AbortError"}
    assert errors["aborted"] == {
        **aborted,
        "url": f"{silent_url}/v1/best-move?board=X........",
        "reason": "the player left",
    }
    assert errors["abortedBefore"] == {**aborted, "url": f"{url}/health", "reason": "never sent"}
    assert errors["network"] == {
        **common,
        "kind": "network",
        "name": "NetworkError",
        "url": f"{refused_url}/health",
        "cause": True,
    }
    assert report["misplacedSignal"].startswith('"signal" is an option of the call')


#: A program of the fresh project, in Node: each way of making a client with a base URL that cannot
#: work there (a relative one has no page to be resolved against), and what it threw; then a client
#: of the live server given as its argument, and its answer. ``IMPORT`` is the ES module's import
#: or CommonJS's require().
MISCONFIGURED = """\
IMPORT

const attempts = {
  none: () => createClient(),
  noBaseUrl: () => createClient({ timeoutMs: 1000 }),
  constructed: () => new TicTacToeClient({ baseUrl: "" }),
  relative: () => createClient({ baseUrl: "/api" }),
  noScheme: () => createClient({ baseUrl: "127.0.0.1:8000" }),
  notHttp: () => createClient({ baseUrl: "localhost:8000" }),
  notAUrl: () => createClient({ baseUrl: "http://[::1" }),
};
const report = {};
for (const [name, attempt] of Object.entries(attempts)) {
  try {
    attempt();
    report[name] = "created";
  } catch (error) {
    report[name] = {
      name: error.name,
      typeError: error instanceof TypeError,
      clientError: isClientError(error),
      message: error.message,
    };
  }
}
createClient({ baseUrl: `${process.argv[2]}/` })
  .health()
  .then((health) => console.log(JSON.stringify({ ...report, health: health.status })));
"""
#: The message of each attempt of :data:`MISCONFIGURED`.
NO_PAGE = "there is no page to resolve it against (as in Node): give the service's whole address"
MISCONFIGURED_MESSAGES = {
    "none": "createClient: no baseUrl, and no page whose origin to use instead (as in Node): give the"
    ' service\'s whole address, such as { baseUrl: "http://127.0.0.1:8000" }',
    "relative": f'createClient: baseUrl "/api" is relative, and {NO_PAGE}, such as "http://127.0.0.1:8000"',
    "noScheme": f'createClient: baseUrl "127.0.0.1:8000" is relative, and {NO_PAGE}, such as "http://127.0.0.1:8000"',
    "notHttp": 'createClient: baseUrl "localhost:8000" is not an http: or https: address (its scheme is'
    ' "localhost:"): give the service\'s whole address, such as "http://127.0.0.1:8000"',
    "notAUrl": 'createClient: baseUrl "http://[::1" is not a URL: give the service\'s address, such as'
    ' "http://127.0.0.1:8000"',
}


@pytest.mark.parametrize(
    ("program", "imports"),
    [
        (
            "misconfigured.mjs",
            'import { createClient, isClientError, TicTacToeClient } from "tictactoe-client";',
        ),
        (
            "misconfigured.cjs",
            'const { createClient, isClientError, TicTacToeClient } = require("tictactoe-client");',
        ),
    ],
)
def test_a_base_url_that_cannot_work_in_node_is_a_type_error_of_create_client(
    consumer: Path, live_server: Server, program: str, imports: str
) -> None:
    """Without a page, a missing or relative base URL cannot be resolved, so ``createClient`` says
    so at once, as a ``TypeError`` (a mistake of the caller), not as a ``NetworkError`` of the
    first call; and so for one that is no URL at all, or not http(s)."""
    (consumer / program).write_text(MISCONFIGURED.replace("IMPORT", imports), encoding="utf-8")
    output = run([require_tool("node"), program, live_server.url], cwd=consumer, timeout=300).stdout
    report = json.loads(output)
    messages = {
        **MISCONFIGURED_MESSAGES,
        "noBaseUrl": MISCONFIGURED_MESSAGES["none"],
        "constructed": MISCONFIGURED_MESSAGES["none"],
    }
    assert report == {
        **{
            name: {"name": "TypeError", "typeError": True, "clientError": False, "message": message}
            for name, message in messages.items()
        },
        "health": "ok",
    }


def bare(tag: str) -> str:
    """An entity tag without its weak prefix: a gzip-encoded answer (a page of puzzles) has a weak one."""
    return tag.removeprefix("W/")


def check_coach(report: dict[str, Any], url: str) -> None:
    """The review, puzzle and rating parts of a program's report, against the service's own answers."""
    rating = report["rating"]
    perfect = httpx.post(f"{url}/v1/best-move", json={"board": "XX..O....", "rating": 493, "seed": 1}).json()
    rated = httpx.post(f"{url}/v1/best-move", json={"board": "X...O....", "rating": 200, "seed": 11}).json()
    assert rating == {
        "position": perfect["position"],
        "optimal": True,
        "batch": [perfect["position"], rated["position"]],
        "sameForTheSeed": True,
    }
    assert perfect["position"] == 2  # the win

    game = httpx.post(f"{url}/v1/review", json={"moves": [0, 4, 8, 2, 6, 3, 1]}).json()
    review = report["review"]
    assert review["judgements"] == [ply["judgement"] for ply in game["plies"]]
    assert review["judgements"][3] == review["judgements"][6] == "blunder"
    assert review["better"] == [ply["better"] and ply["better"]["position"] for ply in game["plies"]]
    for mark in ("X", "O"):
        side = game["players"][mark]
        assert review[mark] == {name: side[name] for name in review[mark]}
        assert review[mark]["moves"] == len([ply for ply in game["plies"] if ply["player"] == mark])
    assert review["fromRows"] == {
        "board": "XX.OO....",
        "status": "x_won",
        "winner": "X",
        "O": {
            "moves": 0,
            "judgements": {"best": 0, "inaccuracy": 0, "mistake": 0, "blunder": 0},
            "accuracy": None,
            "only_moves": 0,
            "level": None,
            "rating": None,
        },
        "movers": ["X", "X"],  # read as marks: the start's side and each ply's
    }

    check_variant_reviews(report["variantReviews"], url)

    forks = httpx.get(f"{url}/v1/puzzles", params={"theme": "fork", "limit": 5})
    puzzles = report["puzzles"]
    assert puzzles["ids"] == [puzzle["id"] for puzzle in forks.json()["puzzles"]]
    assert (puzzles["total"], puzzles["next"]) == (forks.json()["total"], forks.json()["next"])
    assert bare(puzzles["etag"]) == bare(forks.headers["etag"])
    assert puzzles["again"] == {"notModified": True}

    # Every puzzle, once, by the cursor: the union of the ids is the total, and the iterator agrees.
    paging = report["paging"]
    everything = httpx.get(f"{url}/v1/puzzles", params={"limit": 1}).json()["total"]
    assert paging["total"] == everything > 100
    assert len(paging["byCursor"]) == len(set(paging["byCursor"])) == everything
    *full, last = [len(page) for page in paging["byPages"]]
    assert full == [100] * len(full) and 0 < last <= 100
    assert [puzzle_id for page in paging["byPages"] for puzzle_id in page] == paging["byCursor"]

    one = report["puzzle"]
    answer = httpx.get(f"{url}/v1/puzzles/{puzzles['ids'][0]}")
    assert one["value"] == answer.json() and one["value"]["id"] == puzzles["ids"][0]
    assert "fork" in one["value"]["themes"]
    assert one["etag"] == answer.headers["etag"]
    assert one["again"] == {"notModified": True, "etag": answer.headers["etag"]}

    random = report["randomPuzzle"]
    drawn = httpx.get(f"{url}/v1/puzzles/random", params={"seed": 5, "theme": "block", "min_rating": 181})
    assert random["value"] == drawn.json()
    assert "block" in random["value"]["themes"] and random["value"]["rating"] >= 181
    assert random["etag"] == drawn.headers["etag"]
    assert random["again"] == {"notModified": True}
    assert random["unseeded"]["etag"] is None and "fork" in random["unseeded"]["themes"]

    check_variant_puzzles(report["variantPuzzles"], url)


def check_languages(found: dict[str, Any], url: str) -> None:
    """The sentences a program got in the languages it asked for (``lang`` of the client, of a call,
    of a batch): the service's own answers in those languages, the moves, tactics and ids those of
    English, and a malformed ``lang`` a 422 located at ``lang``."""
    listed = httpx.get(f"{url}/v1/languages").json()
    assert found["tags"] == [language["tag"] for language in listed["languages"]]
    assert found["tags"] == ["en", "es", "fr", "de", "pt"] and found["first"] == "en"
    assert found["names"][:2] == ["English", "Español"] and found["default"] == "en"
    assert found["clientLang"] == [None, "es"]

    def said(method: str, path: str, lang: str, **body: Any) -> Any:
        if method == "GET":
            answer = httpx.get(f"{url}{path}", params={**body, "lang": lang})
        else:
            answer = httpx.post(f"{url}{path}", json={**body, "lang": lang})
        assert answer.status_code == 200, answer.text
        assert answer.headers["content-language"] == lang
        return answer.json()

    medium = {"board": "XX..O....", "level": "medium", "seed": 3}
    english, spanish, french = found["moves"]
    assert spanish["reason"] == said("POST", "/v1/best-move", "es", **medium)["reason"]
    assert french["reason"] == said("POST", "/v1/best-move", "fr", **medium)["reason"]
    assert len({english["reason"], spanish["reason"], french["reason"]}) == 3
    assert english["position"] == spanish["position"] == french["position"]
    assert english["tactics"] == spanish["tactics"] == french["tactics"]
    get = said("GET", "/v1/best-move", "es", board="X.O...X..", player="O")
    assert found["get"]["reason"] == get["reason"] and found["get"]["language"] == "es"
    assert found["getEnglish"] == {
        "reason": said("GET", "/v1/best-move", "en", board="X.O...X..", player="O")["reason"],
        "language": "en",
    }
    assert found["getEnglish"]["reason"] != found["get"]["reason"]
    position = said("GET", "/v1/positions/XX.OO....", "es")
    assert found["position"] == {"reasons": [move["reason"] for move in position["moves"]], "language": "es"}
    analysis = said("POST", "/v1/analysis", "es", board="XX.OO....")
    assert found["analysis"] == [move["reason"] for move in analysis["moves"]] == found["position"]["reasons"]
    review = said("POST", "/v1/review", "es", moves=[0, 4, 8, 2, 6, 3, 1])
    assert found["review"] == [
        [ply["reason"], ply["better"] and ply["better"]["reason"]] for ply in review["plies"]
    ]
    variants = said("GET", "/v1/variants", "es")["variants"]
    assert found["variants"] == [[variant["id"], variant["name"], variant["rules"]] for variant in variants]
    english_variants = httpx.get(f"{url}/v1/variants").json()["variants"]
    assert [variant["id"] for variant in english_variants] == [variant[0] for variant in found["variants"]]
    assert all(
        spanish_one[2] != english_one["rules"]
        for spanish_one, english_one in zip(found["variants"], english_variants, strict=True)
    )
    puzzle = said("GET", "/v1/puzzles/random", "es", seed=5, theme="block", min_rating=181)
    assert found["puzzle"] == {"id": puzzle["id"], "reason": puzzle["reason"], "language": "es"}
    german = said("GET", f"/v1/puzzles/{puzzle['id']}", "de")
    assert found["puzzleGerman"] == {"reason": german["reason"], "language": "de"}
    page = said("GET", "/v1/puzzles", "es", theme="fork", limit=5)
    assert found["page"] == [each["reason"] for each in page["puzzles"]]
    items = [{**medium}, {"board": "XX.OO....", "player": "X"}]
    assert found["batchGerman"] == [
        move["reason"] for move in said("POST", "/v1/best-move/batch", "de", items=items)["results"]
    ]
    assert found["batchSpanish"] == [
        move["reason"] for move in said("POST", "/v1/best-move/batch", "es", items=items)["results"]
    ]
    assert found["batchSpanish"][0] == spanish["reason"]
    problem = {"base": True, "instance": True, "kind": "problem", "name": "ProblemError", "game_status": None}
    invalid = {**problem, "status": 422, "type": "/problems/invalid-input"}
    assert found["malformed"] == {**invalid, "url": f"{url}/v1/best-move", "loc": ["body", "lang"]}
    assert found["malformedGet"] == {
        **invalid,
        "url": f"{url}/v1/positions/X........?lang=not+a+tag%21",
        "loc": ["query", "lang"],
    }
    assert found["malformedBatch"] == {**invalid, "url": f"{url}/v1/best-move/batch", "loc": ["body", "lang"]}
    assert found["malformedClient"] == {
        **invalid,
        "url": f"{url}/v1/variants?lang=not+a+tag%21",
        "loc": ["query", "lang"],
    }
    assert found["misplaced"].startswith('"lang" is an option of the call')


def check_variant_puzzles(found: dict[str, Any], url: str) -> None:
    """The puzzles of the variants a program got by ``variant``: the service's answers to the same
    queries, each puzzle naming its variant, wild's with its mark, Notakto's with its grid, every
    puzzle of Notakto's book by paging, and a puzzle of any variant found by its id alone."""
    misere = httpx.get(
        f"{url}/v1/puzzles", params={"variant": "misere", "theme": "squeeze", "limit": 3}
    ).json()
    assert found["misere"]["ids"] == [puzzle["id"] for puzzle in misere["puzzles"]]
    assert all(puzzle_id.startswith("misere:") for puzzle_id in found["misere"]["ids"])
    assert found["misere"]["variants"] == ["misere"] * len(misere["puzzles"]) and misere["puzzles"]
    assert found["misere"]["total"] == misere["total"]
    assert found["misere"]["again"] == {"notModified": True}
    book = {variant["id"]: variant for variant in httpx.get(f"{url}/v1/variants").json()["variants"]}
    assert len(found["notaktoIds"]) == len(set(found["notaktoIds"])) == book["notakto"]["puzzles"] > 0
    assert all(puzzle_id.startswith("notakto:") for puzzle_id in found["notaktoIds"])
    wild = found["wild"]
    drawn = httpx.get(f"{url}/v1/puzzles/random", params={"variant": "wild", "seed": 3, "theme": "squeeze"})
    assert wild["value"] == drawn.json() and wild["value"]["variant"] == "wild"
    assert wild["mark"] == drawn.json()["mark"] and wild["mark"] in ("X", "O")
    assert "squeeze" in wild["value"]["themes"] and wild["value"]["player"] in ("first", "second")
    assert wild["again"] == {"notModified": True}
    notakto = found["notakto2"]
    drawn = httpx.get(f"{url}/v1/puzzles/random", params={"variant": "notakto-2", "seed": 8})
    assert notakto["value"] == drawn.json() == notakto["byId"]
    assert notakto["variant"] == "notakto-2" and notakto["value"]["id"].startswith("notakto-2:")
    assert notakto["grid"] == notakto["value"]["solution"] // 9 and len(notakto["value"]["board"]) == 18


def check_variant_reviews(reviews: dict[str, Any], url: str) -> None:
    """The reviews of games of wild, Notakto on two boards and 4×4 that a program got: the service's
    answers to the same games, with wild's marks, Notakto's boards, and the sides each variant has."""
    marked = [{"position": 4, "mark": "X"}, {"position": 0, "mark": "O"}, {"position": 8, "mark": "X"}]
    bodies = {
        "wild": {"variant": "wild", "moves": marked},
        "wildFromBoard": {
            "variant": "wild",
            "board": "X...O....",
            "player": "first",
            "moves": [{"position": 8, "mark": "O"}],
        },
        "notakto": {"variant": "notakto-2", "moves": [4, 13, 0, 9]},
        "fourByFour": {"variant": "4x4", "moves": [0, 5, 1, 6, 2, 7, 3]},
    }
    for name, body in bodies.items():
        answer = httpx.post(f"{url}/v1/review", json=body)
        assert answer.status_code == 200, answer.text
        assert reviews[name] == answer.json(), name
    wild, notakto, four = reviews["wild"], reviews["notakto"], reviews["fourByFour"]
    assert reviews["marks"] == ["X", "O", "X"] == [ply["mark"] for ply in wild["plies"]]
    assert reviews["betterMarks"] == [ply["better"] and ply["better"]["mark"] for ply in wild["plies"]]
    assert any(mark is not None for mark in reviews["betterMarks"])
    assert [ply["player"] for ply in wild["plies"]] == ["first", "second", "first"]
    # Each variant's sides, read without narrowing: wild's and Notakto's by turn, 4×4's by mark; and
    # by `in` for a variant known only at run time (4×4, as listed by GET /v1/variants).
    first, second = reviews["turns"]
    assert reviews["turnsPlayed"] == ["first", "second", "first"]
    assert reviews["listed"] == {"variant": "4x4", "X": 1}
    assert (first["moves"], second["moves"]) == (2, 1)
    # A side's rating is on wild's own scale where its levels are calibrated (rated), else null.
    wild_rated = next(v for v in httpx.get(f"{url}/v1/variants").json()["variants"] if v["id"] == "wild")[
        "rated"
    ]
    assert (first["rating"] is not None) == wild_rated and first["level"] is not None
    assert reviews["grids"] == [0, 1, 0, 1] == [ply["grid"] for ply in notakto["plies"]]
    assert reviews["notaktoTurns"] == 2
    assert reviews["fourSides"] == [4, 3]
    assert (four["status"], four["winner"]) == ("x_won", "X")
    (ply,) = reviews["wildFromBoard"]["plies"]
    assert (ply["mark"], ply["judgement"], ply["better"]["mark"]) == ("O", "mistake", "X")


def test_the_readme_examples_compile_and_print_what_they_say(consumer: Path, live_server: Server) -> None:
    """Each ``ts`` block of the README, in the fresh project, against a live server: every
    ``console.log(...)`` line ends with a comment, which is what it prints."""
    readme = (CLIENT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```ts\n(.*?)^```", readme, re.S | re.M)
    assert len(blocks) >= 3
    names = [f"readme-{number}" for number in range(1, len(blocks) + 1)]
    for name, block in zip(names, blocks, strict=True):
        (consumer / f"{name}.mts").write_text(block.replace(README_URL, live_server.url), encoding="utf-8")
    settings = json.loads((consumer / "tsconfig.json").read_text(encoding="utf-8"))
    settings["files"] = [f"{name}.mts" for name in names]
    (consumer / "tsconfig.readme.json").write_text(json.dumps(settings), encoding="utf-8")
    tsc("--project", "tsconfig.readme.json", cwd=consumer)
    for name, block in zip(names, blocks, strict=True):
        logged = [line for line in block.splitlines() if "console.log(" in line]
        assert all(PRINTS.search(line) for line in logged), f"a console.log line without its output:\n{block}"
        expected = [match[1] for line in logged if (match := PRINTS.search(line))]
        printed = run([require_tool("node"), f"{name}.mjs"], cwd=consumer, timeout=300).stdout.splitlines()
        assert printed == expected, block


def test_the_packages_own_checks(source: Path, packed: Packed, live_server: Server) -> None:
    # In the package folder (the copy, built): what `npm run typecheck` checks after its build (the
    # consumer program against the built declarations), and `npm test` against a live server.
    tsc("--project", "test/tsconfig.json", cwd=source)
    environment = {**os.environ, "TICTACTOE_URL": live_server.url}
    output = run([require_tool("npm"), "test"], cwd=source, env=environment, timeout=300).stdout
    tests = sum(
        (CLIENT / "test" / name).read_text(encoding="utf-8").count("\ntest(")
        for name in ("client.test.mjs", "client.test.cjs")
    )
    assert tests >= 16
    assert "# fail 0" in output and f"# pass {tests}" in output, output
