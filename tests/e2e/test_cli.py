"""The terminal game: play through standard input, selfplay through its output; the coach's review and
puzzles against a real server, checked against the answers of the API through the client. The
engine's sentences come in the language of ``--lang``, else of the locale (``LC_ALL``, then
``LC_MESSAGES``, then ``LANG``), each the service's own in that language."""

from __future__ import annotations

import io
import os
import re
import selectors
import shlex
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from tictactoe_client import (
    Client,
    Mark,
    Puzzle,
    ReviewMove,
    ReviewResponse,
    ServiceError,
    Sides,
    TurnSides,
    Variant,
    VariantInfo,
)
from tictactoe_client._cli import (
    LEVELS,
    MAX_RATING,
    THEMES,
    locale_language,
    locale_tag,
    main,
    parser,
    render_board,
)
from tictactoe_client._words import LOCALES as TERMINAL_LOCALES
from tictactoe_client._words import gettext, pgettext, speaking

from service import cli as service_cli
from service.game import Level
from service.game.levels import HIGHEST_RATING as SERVICE_MAX_RATING
from service.game.puzzles import THEMES as PUZZLE_THEMES
from service.game.variants import VARIANTS
from tests.support.commands import run
from tests.support.server import Server, free_port

#: The variables of the locale the command reads its language from, strongest first.
LOCALE = ("LC_ALL", "LC_MESSAGES", "LANG")
#: Each variant's name in English, as the terminal titles a game of it.
NAMES = {variant: rules.name.text for variant, rules in VARIANTS.items()}


@pytest.fixture(autouse=True)
def no_url_in_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """The commands run in-process unless a test gives a URL (TICTACTOE_URL is the default of --url),
    and in English unless a test gives a language: the locale of whoever runs the tests is not theirs."""
    monkeypatch.delenv("TICTACTOE_URL", raising=False)
    for variable in LOCALE:
        monkeypatch.delenv(variable, raising=False)


def run_cli(
    args: list[str], stdin: str = "", monkeypatch: pytest.MonkeyPatch | None = None
) -> tuple[int, str]:
    """The CLI in a subprocess, as a person runs it; returns exit code and output."""
    result = run([sys.executable, "-m", "tictactoe_client", *args], input=stdin, timeout=120, check=False)
    return result.returncode, result.output


def every_cell(times: int = 3) -> str:
    """Answers 1 to 9 over and over: taken cells are refused and asked again."""
    return "".join(f"{cell}\n" for _ in range(times) for cell in range(1, 10))


def test_play_a_whole_game_through_stdin() -> None:
    code, out = run_cli(["play"], stdin="X\nX\nperfect\n" + every_cell())
    assert code == 0, out
    assert "You are X, the engine is O (level perfect); X starts." in out
    assert "is taken; choose an empty cell" in out
    assert re.search(r"(\nDraw\.\n|O wins\. The engine wins\.)", out), out
    assert "Draw. Draw." not in out
    assert "You win" not in out
    assert "Traceback" not in out


def test_play_as_o_with_o_starting() -> None:
    code, out = run_cli(["play", "--side", "O", "--first", "O", "--skill", "1"], stdin=every_cell())
    assert code == 0, out
    assert "You are O, the engine is X (skill 1); O starts." in out
    assert re.search(r"(\nDraw\.\n|X wins\. The engine wins\.)", out), out


def test_bad_input_is_asked_again_never_a_crash() -> None:
    stdin = "maybe\nX\n\nexpert\n3\nMedium\n0\n10\nx\n" + every_cell()
    code, out = run_cli(["play"], stdin=stdin)
    assert code == 0, out
    assert "Please answer one of X, O." in out
    assert out.count("Please answer one of beginner, easy, medium, hard, perfect.") == 2
    assert out.count("Please type a number from 1 to 9") >= 3
    assert "You are X, the engine is O (level medium); X starts." in out
    assert "Traceback" not in out


def test_levels_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["best-move", "XX..O....", "--level", "medium", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "O plays cell 3 (row 1, column 3)" in out  # medium always blocks
    assert "Why: Blocks X's top row" in out
    arguments = ["selfplay", "--games", "40", "--x-level", "beginner", "--o-level", "perfect", "--seed", "2"]
    assert main(arguments) == 0
    tally = capsys.readouterr().out
    assert tally.startswith("40 games, X level beginner, O level perfect: X won 0, ")
    assert main(arguments) == 0
    assert capsys.readouterr().out == tally  # seeded: the same games again
    assert main(["selfplay", "--games", "4", "--x-skill", "0.5", "--x-depth", "2"]) == 0
    assert "X skill 0.5, depth 2, O skill 1" in capsys.readouterr().out
    code, out = run_cli(["play", "--side", "X", "--first", "O", "--level", "hard"], stdin=every_cell())
    assert code == 0, out
    assert "You are X, the engine is O (level hard); O starts." in out
    assert re.search(r"The engine plays [1-9]: (Takes|Blocks|Completes|Forks|Threatens)[^\n]*\.\n", out), out


@pytest.mark.parametrize(
    ("arguments", "option"),
    [
        (["best-move", "X........", "--level", "easy", "--skill", "0.5"], "--level"),
        (["play", "--level", "hard", "--depth", "2"], "--level"),
        (["selfplay", "--o-level", "easy", "--o-skill", "1"], "--o-level"),
        (["best-move", "X........", "--level", "expert"], "--level"),
        (["best-move", "X........", "--rating", "100", "--level", "easy"], "--rating"),
        (["play", "--rating", "100", "--depth", "2"], "--rating"),
        (["play", "--skill", "0.5", "--rating", "300"], "--rating"),
        (["selfplay", "--x-rating", "100", "--x-skill", "0.5"], "--x-rating"),
    ],
)
def test_a_level_stands_alone(capsys: pytest.CaptureFixture[str], arguments: list[str], option: str) -> None:
    with pytest.raises(SystemExit) as exited:
        main(arguments)
    assert exited.value.code == 2
    assert option in capsys.readouterr().err


def test_end_of_input_and_quit_end_quietly() -> None:
    code, out = run_cli(["play", "--side", "X", "--first", "X", "--skill", "1"], stdin="5\n")
    assert (code, out.rstrip().endswith("Bye.")) == (0, True), out
    code, out = run_cli(["play"], stdin="q\n")
    assert (code, out.rstrip().endswith("Bye.")) == (0, True), out


def test_a_weak_engine_can_be_beaten(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    wins = 0
    for _ in range(10):
        monkeypatch.setattr(sys, "stdin", io.StringIO(every_cell()))
        assert main(["play", "--side", "X", "--first", "X", "--skill", "0"]) == 0
        wins += "You win!" in capsys.readouterr().out
    assert wins > 0


def test_selfplay_perfect_always_draws(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--games", "20"]) == 0
    assert "20 games, X skill 1, O skill 1: X won 0, O won 0, drawn 20" in capsys.readouterr().out


def test_selfplay_at_two_skills(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--games", "60", "--x-skill", "0", "--o-skill", "1", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    match = re.search(r"X won (\d+), O won (\d+), drawn (\d+)", out)
    assert match, out
    x_won, o_won, drawn = map(int, match.groups())
    assert x_won == 0 and o_won > drawn and x_won + o_won + drawn == 60
    assert main(["selfplay", "--games", "60", "--x-skill", "0", "--o-skill", "1", "--seed", "5"]) == 0
    assert capsys.readouterr().out == out


def test_best_move_and_analyze(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["best-move", "X........"]) == 0
    out = capsys.readouterr().out
    assert (
        "O plays cell 5 (row 2, column 2).\nThe game is a draw with perfect play, in 8 more moves.\n" in out
    )
    assert "Why: Takes the center; the game is a draw with best play." in out
    assert main(["analyze", "X.O...X..", "--player", "O"]) == 0
    out = capsys.readouterr().out
    assert "O is to move. O loses with perfect play, in 4 more moves. Best play from here: 4 9 5 8." in out
    assert re.search(r"^\s+4\s+2\s+1\s+loss\s+-1\s+4\s+4\s+\*\s+Blocks X's left column;", out, re.M), out
    assert len([line for line in out.splitlines() if re.match(r"^\s+\d\s+\d\s+\d\s", line)]) == 6
    assert main(["analyze", "XXXOO.O.."]) == 0
    assert "Game over: X wins, winning line 1-2-3." in capsys.readouterr().out


def test_errors_are_reported_not_raised(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["best-move", "XXXOO...."]) == 1
    assert "error: BOARD: the game is over (x_won)" in capsys.readouterr().err
    assert main(["best-move", "X........", "--player", "X"]) == 1
    assert "error: --player: the board has 1 X and 0 O, so O is to move" in capsys.readouterr().err
    assert main(["--url", "http://127.0.0.1:9", "--timeout", "1", "analyze", "X........"]) == 1
    assert "cannot reach the service" in capsys.readouterr().err


def test_commands_talk_to_a_server_given_by_url(live_server: Server) -> None:
    code, out = run_cli(["--url", live_server.url, "best-move", "XX.OO...."])
    assert code == 0, out
    assert "X plays cell 3" in out
    code, out = run_cli(["--url", live_server.url, "selfplay", "--games", "4"])
    assert "drawn 4" in out
    code, out = run_cli(
        ["--url", live_server.url, "play", "--side", "O", "--first", "X", "--skill", "1"], every_cell()
    )
    assert code == 0 and "The engine plays" in out


@pytest.mark.parametrize(
    ("args", "forwarded"),
    [
        (["serve"], []),
        (["serve", "--port", "0"], ["--port", "0"]),
        (["serve", "--host", "127.0.0.1", "--port", "9000"], ["--host", "127.0.0.1", "--port", "9000"]),
    ],
)
def test_serve_forwards_host_and_port_even_zero(
    monkeypatch: pytest.MonkeyPatch, args: list[str], forwarded: list[str]
) -> None:
    seen: list[tuple[list[str], str]] = []
    monkeypatch.setattr("service.__main__.main", lambda argv, prog: seen.append((list(argv), prog)))
    assert service_cli.main(args) == 0
    assert seen == [(forwarded, "tictactoe-service serve")]


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["selfplay", "--games", "-5"], "--games"),
        (["selfplay", "--games", "many"], "--games"),
        (["play", "--skill", "3"], "--skill"),
        (["selfplay", "--x-skill", "-0.5"], "--x-skill"),
        (["best-move", "X........", "--skill", "nan"], "--skill"),
        # Above every variant's scale: refused by argparse (a variant's own bound is checked later).
        (["best-move", "X........", "--rating", f"{MAX_RATING + 1:g}"], "--rating"),
        (["play", "--rating", "strong"], "--rating"),
        (["selfplay", "--o-rating", "-1"], "--o-rating"),
        (["review", "0"], "CELL"),
        (["review", "e4"], "CELL"),
        (["review", "28"], "CELL"),
        (["puzzle", "--min-rating", "-1"], "--min-rating"),
        (["puzzle", "--theme", "pin"], "--theme"),
    ],
)
def test_bad_options_are_refused_naming_the_option(
    capsys: pytest.CaptureFixture[str], args: list[str], option: str
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(args)
    assert exit_.value.code == 2
    assert f"argument {option}" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["review", "5", "10"], "10 is not a cell from 1 to 9 in standard"),
        (["review", "5X"], "5X: in standard a move is a cell alone, without a mark"),
        (
            ["review", "--variant", "wild", "5X", "1"],
            "in wild each move names the mark placed after its cell",
        ),
        (["review", "--variant", "4x4", "17"], "17 is not a cell from 1 to 16 in 4x4"),
        (["review", "--variant", "notakto-2", "19"], "19 is not a cell from 1 to 18 in notakto-2"),
        (["review", "--variant", "notakto", "5X"], "5X: in notakto a move is a cell alone, without a mark"),
    ],
)
def test_moves_off_the_variants_board_or_with_a_wrong_mark_are_refused_before_the_review(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    """The moves of ``review`` are checked against the variant's board and marks as ``GET /v1/variants``
    gives them (its cells, and whether a move places either mark), before the review is asked for."""
    assert main(args) == 1
    captured = capsys.readouterr()
    assert captured.err.startswith(f"error: {message}"), captured.err
    assert captured.out == ""


def test_help_is_plain_text_and_every_option_says_what_it_does() -> None:
    main_parser = parser()
    text = main_parser.format_help()
    assert "``" not in text and ":func:" not in text
    assert "1 | 2 | 3" in text
    subparsers = next(a for a in main_parser._actions if a.dest == "command")
    for name, sub in subparsers.choices.items():  # type: ignore[union-attr]
        for action in sub._actions:
            if action.dest != "help":
                assert action.help, f"{name} {action.option_strings or action.dest} has no help"


def test_depth_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["best-move", "XX..O....", "--depth", "2", "--seed", "1"]) == 0
    assert "O plays cell 3 (row 1, column 3)" in capsys.readouterr().out  # depth 2 blocks
    with pytest.raises(SystemExit):
        main(["best-move", "X........", "--depth", "0"])
    assert "argument --depth" in capsys.readouterr().err
    stdin = "".join(f"{cell}\n" for cell in range(1, 10)) * 3
    code, out = run_cli(["play", "--side", "X", "--first", "X", "--skill", "1", "--depth", "1"], stdin=stdin)
    assert code == 0 and "The engine plays" in out, out


def test_a_reader_that_goes_away_ends_the_command_quietly() -> None:
    """``tictactoe play ... | head``: the closed pipe ends the command, with no traceback."""
    command = (
        f"{shlex.quote(sys.executable)} -m tictactoe_client play --level easy --side X --first O | head -c 20"
    )
    result = run(["bash", "-c", command], input="5\n" * 40, timeout=120, check=False)
    assert len(result.stdout) == 20
    assert "Traceback" not in result.stderr and "BrokenPipe" not in result.stderr, result.stderr


# --- options anywhere, Ctrl-C, the end of a game ------------------------------------------------------


def test_the_levels_are_the_services() -> None:
    assert list(LEVELS) == [level.value for level in Level]
    assert MAX_RATING == SERVICE_MAX_RATING  # from the client's models, generated from the API's document


@pytest.mark.parametrize(
    ("argv", "url", "timeout"),
    [
        (["best-move", "X........"], None, 5.0),
        (
            ["--url", "http://127.0.0.1:1", "--timeout", "2", "best-move", "X........"],
            "http://127.0.0.1:1",
            2.0,
        ),
        (
            ["best-move", "X........", "--url", "http://127.0.0.1:1", "--timeout", "2"],
            "http://127.0.0.1:1",
            2.0,
        ),
        (
            ["--timeout", "2", "analyze", "X........", "--url", "http://127.0.0.1:1"],
            "http://127.0.0.1:1",
            2.0,
        ),
        (["--url", "http://127.0.0.1:1", "play", "--timeout", "0.5"], "http://127.0.0.1:1", 0.5),
        (
            ["--url", "http://127.0.0.1:1", "selfplay", "--url", "http://127.0.0.1:2"],
            "http://127.0.0.1:2",
            5.0,
        ),
    ],
)
def test_shared_options_anywhere_and_never_reset_by_the_command(
    argv: list[str], url: str | None, timeout: float
) -> None:
    """Before the command or after it, and an option given before is kept by the command."""
    args = parser().parse_args(argv)
    assert (args.url, args.timeout) == (url, timeout)


@pytest.mark.parametrize(
    ("option", "value", "said"),
    [
        ("--url", "http://[::1", "is not a URL"),
        ("--url", "http://127.0.0.1:99999", "has port 99999"),
        ("--url", "http://a\tb", "is not a URL"),
        ("--url", "localhost:8000", "is not an http:// or https:// URL with a host"),
        ("--timeout", "nan", "is not a number of seconds above 0"),
        ("--timeout", "0", "is not a number of seconds above 0"),
        ("--timeout", "inf", "is not a number of seconds above 0"),
        ("--timeout", "soon", "is not a number of seconds"),
    ],
)
def test_a_wrong_url_or_timeout_is_named_before_anything_runs(option: str, value: str, said: str) -> None:
    code, out = run_cli([option, value, "best-move", "X........"])
    assert code == 2, out
    assert f"argument {option}: {value!r} {said}" in out, out
    assert "Traceback" not in out


@contextmanager
def silent_server(answer: bytes | None) -> Iterator[str]:
    """A loopback server that sends ``answer`` to every request, or never answers (``None``)."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        held: list[socket.socket] = []

        def serve() -> None:
            while True:
                try:
                    connection, _ = listener.accept()
                except OSError:
                    return
                held.append(connection)
                if answer is not None:
                    connection.recv(65536)
                    connection.sendall(answer)

        threading.Thread(target=serve, daemon=True).start()
        try:
            yield f"http://127.0.0.1:{listener.getsockname()[1]}"
        finally:
            for connection in held:
                connection.close()


PAGE = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 13\r\n\r\n<html></html>"


@pytest.mark.parametrize(
    ("answer", "said"),
    [(None, "did not answer within 1 s"), (PAGE, "is not the service's")],
)
def test_a_server_that_is_not_the_service_is_named_in_words(answer: bytes | None, said: str) -> None:
    with silent_server(answer) as url:
        code, out = run_cli(["--url", url, "--timeout", "1", "best-move", "X........"])
    assert code == 1, out
    assert f"error: the {'service at ' if answer is None else 'answer from '}{url}" in out, out
    assert said in out and "Traceback" not in out, out


def test_an_openapi_document_that_cannot_be_written_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert service_cli.main(["openapi", str(tmp_path)]) == 1  # a folder
    err = capsys.readouterr().err
    assert f"error: cannot write {tmp_path}" in err and "Traceback" not in err, err


def test_url_after_the_command_is_used(live_server: Server, capsys: pytest.CaptureFixture[str]) -> None:
    nowhere = f"http://127.0.0.1:{free_port()}"
    assert main(["best-move", "X........", "--url", nowhere, "--timeout", "1"]) == 1
    assert f"cannot reach the service at {nowhere}" in capsys.readouterr().err
    code, out = run_cli(["best-move", "XX.OO....", "--url", live_server.url])
    assert code == 0, out
    assert "X plays cell 3" in out


def test_url_from_the_environment(
    live_server: Server, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    nowhere = f"http://127.0.0.1:{free_port()}"
    monkeypatch.setenv("TICTACTOE_URL", nowhere)
    assert main(["analyze", "X........", "--timeout", "1"]) == 1
    assert f"cannot reach the service at {nowhere}" in capsys.readouterr().err
    assert main(["--url", live_server.url, "analyze", "X........"]) == 0  # --url wins
    monkeypatch.setenv("TICTACTOE_URL", live_server.url)
    code, out = run_cli(["best-move", "X........"])
    assert code == 0 and "O plays cell 5" in out, out


def read_until(process: subprocess.Popen[bytes], text: bytes, times: int = 1, timeout: float = 60) -> bytes:
    """What ``process`` writes to its output, up to and including the ``times``-th ``text``."""
    assert process.stdout is not None
    seen = b""
    deadline = time.monotonic() + timeout
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ)
        while seen.count(text) < times:
            left = deadline - time.monotonic()
            assert left > 0, f"no {text!r} in the output: {seen!r}"
            if selector.select(left):
                chunk = os.read(process.stdout.fileno(), 4096)
                assert chunk, f"the output ended before {text!r}: {seen!r}"
                seen += chunk
    return seen


@pytest.mark.parametrize("where", ["at the first prompt, in-process", "during a game, with --url"])
def test_ctrl_c_ends_play_at_once(live_server: Server, where: str) -> None:
    """The first SIGINT ends ``play`` while it waits for the person: exit status 130, no traceback."""
    if where.startswith("during"):
        args = ["--url", live_server.url, "--side", "X", "--first", "X", "--skill", "1"]
        answers, prompt = b"1\n", b"Your move"
    else:
        args, answers, prompt = [], b"", b"Play as"
    # With an answer given, the prompt comes again after the engine's move.
    interrupt_at(["play", *args], answers, prompt, times=2 if answers else 1)


def test_ctrl_c_ends_a_puzzle_at_once(live_server: Server) -> None:
    """As in ``play``: the first SIGINT at the second puzzle's prompt ends ``puzzle``, status 130."""
    interrupt_at(["puzzle", "--url", live_server.url], b"5\ny\n", b"Your move", times=2)


def as_at_a_terminal() -> None:
    """Ctrl-C as a terminal delivers it: a shell that runs a script in the background has the
    script's children ignore SIGINT, and the CLI rightly leaves an ignored SIGINT ignored."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def interrupt_at(command: list[str], answers: bytes, prompt: bytes, times: int) -> None:
    """Run ``command`` with ``answers`` on its open input; at the ``times``-th ``prompt``, SIGINT."""
    process = subprocess.Popen(
        [sys.executable, "-m", "tictactoe_client", *command],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=as_at_a_terminal,  # noqa: PLW1509 - one system call in the child, no lock taken
    )
    assert process.stdin is not None and process.stderr is not None
    try:
        process.stdin.write(answers)
        process.stdin.flush()  # and the input stays open: the game waits for the next answer
        shown = read_until(process, prompt, times=times)
        process.send_signal(signal.SIGINT)
        try:
            code = process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            pytest.fail(f"{command[0]} went on after Ctrl-C: {shown!r}")
        errors = process.stderr.read().decode()
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()
        process.stdin.close()
    assert code == 130, errors
    assert "Traceback" not in errors and "KeyboardInterrupt" not in errors, errors


def final_boards(out: str) -> list[str]:
    """The board printed last in each game: the 5 lines before each verdict."""
    lines = out.splitlines()
    verdicts = [
        n
        for n, line in enumerate(lines)
        if line in {"Draw."} or line.endswith(" wins!") or line.endswith("The engine wins.")
    ]
    return ["\n".join(lines[n - 5 : n]) for n in verdicts]


def test_the_final_board_keeps_its_numbers_and_another_game_is_offered() -> None:
    # X takes cells 1 and 2, and 4 (3 being O's by then): the engine, O, wins on its diagonal.
    game = "1\n2\n4\n"
    code, out = run_cli(
        ["play", "--side", "X", "--first", "X", "--skill", "1"], stdin=game + "\n" + game + "n\n"
    )
    assert code == 0, out
    assert out.count("You are X, the engine is O (skill 1); X starts.") == 2, out
    assert out.count("Play again [y/n, Enter for y]: ") == 2, out
    assert "Games: you won 0, the engine won 1, drawn 0.\n" in out
    assert "Games: you won 0, the engine won 2, drawn 0.\n" in out
    assert out.rstrip().endswith("Bye.")
    finals = final_boards(out)
    assert finals == [" X | X | O\n---+---+---\n X | O | 6\n---+---+---\n O | 8 | 9"] * 2, out
    assert "Traceback" not in out


# --- the coach: review, puzzles, rating -----------------------------------------------------------

PLY = re.compile(
    r"^ ?(\d)\. ([XO]) plays ([1-9]): (best|inaccuracy|mistake|blunder)(, the only move)?\. (.+)$"
)
BETTER = re.compile(r"^    Better: ([1-9])\. (.+)$")
SIDE = re.compile(
    r"^([XO]): (\d) moves?: (\d) best, (\d) inaccurac(?:y|ies), (\d) mistakes?, (\d) blunders?\.\n"
    r"   Accuracy (\d+\.\d)%, (\d) only moves? found, played like: (\w+) \(≈ (\d+)\)\.$",
    re.M,
)


def numbered(board: str) -> str:
    """A board as the terminal shows it, empty cells numbered 1 to 9."""
    shown = [mark if mark != "." else str(index + 1) for index, mark in enumerate(board)]
    return "\n---+---+---\n".join(" " + " | ".join(shown[row * 3 : row * 3 + 3]) for row in range(3))


def check_review_output(
    out: str, client: Client, moves: list[int], board: str | None, player: Mark | None
) -> None:
    """Every line of ``tictactoe review`` says what the API's review of the same game says."""
    review = client.review(moves, board, player)
    lines = out.splitlines()
    plies = [(n, PLY.match(line)) for n, line in enumerate(lines) if PLY.match(line)]
    assert len(plies) == len(review.plies), out
    for (n, match), ply in zip(plies, review.plies, strict=True):
        assert match is not None
        expected = (str(ply.ply), ply.player, str(ply.position + 1), ply.judgement, ply.only_move, ply.reason)
        assert (*match.group(1, 2, 3, 4), match.group(5) is not None, match.group(6)) == expected
        better = BETTER.match(lines[n + 1])
        if ply.better is None:
            assert better is None, lines[n + 1]
        else:
            assert better is not None and better.groups() == (str(ply.better.position + 1), ply.better.reason)
    assert numbered(review.plies[-1].board_after) in out
    sides = {match.group(1): match.groups()[1:] for match in SIDE.finditer(out)}
    assert isinstance(review.players, Sides)
    for mark, side in (("X", review.players.X), ("O", review.players.O)):
        if side.moves == 0:
            assert f"\n{mark}: no moves.\n" in out and mark not in sides
            continue
        counts = side.judgements
        assert sides[mark] == tuple(
            str(value)
            for value in (
                side.moves,
                counts.best,
                counts.inaccuracy,
                counts.mistake,
                counts.blunder,
                side.accuracy,
                side.only_moves,
                side.level,
                side.rating,
            )
        ), out


def test_review_prints_each_move_judged_and_each_side(live_server: Server) -> None:
    # X takes corner 1, O the edge 2 (a blunder), X the center, O corner 3 (a slower loss), X wins on 9.
    code, out = run_cli(["review", "1", "2", "5", "3", "9", "--url", live_server.url])
    assert code == 0, out
    with Client(live_server.url) as client:
        check_review_output(out, client, [0, 1, 4, 2, 8], None, None)
        review = client.review([0, 1, 4, 2, 8])
    assert {ply.judgement for ply in review.plies} == {"best", "blunder", "inaccuracy"}  # a varied game
    assert out.startswith("The game from the empty board, X first:\n")
    assert "\nX wins.\n" in out
    assert "played like: " in out and "Traceback" not in out


def test_review_from_a_board_with_the_player_to_move(
    live_server: Server, capsys: pytest.CaptureFixture[str]
) -> None:
    # O to move must block at 3; then X plays 7 and O takes 4.
    assert (
        main(["review", "3", "7", "4", "--board", "XX..O....", "--player", "O", "--url", live_server.url])
        == 0
    )
    out = capsys.readouterr().out
    assert out.startswith("The game from this board, O first:\n\n" + numbered("XX..O....") + "\n")
    with Client(live_server.url) as client:
        check_review_output(out, client, [2, 6, 3], "XX..O....", "O")
    assert main(["review", "5", "--url", live_server.url]) == 0  # one move: O has none
    out = capsys.readouterr().out
    with Client(live_server.url) as client:
        check_review_output(out, client, [4], None, None)
    assert "The game goes on: O to move." in out


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["1", "2", "5", "5"], "move 4 in the list, 5, cannot be played: cell 5 is taken (by X)"),
        (
            ["1", "4", "2", "5", "3", "6"],
            "move 6 in the list, 6, cannot be played: the game is over after move 5. X wins.",
        ),
        (
            ["1", "--board", "XX.OO....", "--player", "O"],
            "move 1 in the list, 1, cannot be played: cell 1 is taken (by X)",
        ),
        (
            ["4", "5", "--board", "XX..O....", "--player", "O"],
            "move 2 in the list, 5, cannot be played: cell 5 is taken (by O)",
        ),
        (["5", "--board", "XXXOO...."], "--board: the game is over (x_won)"),
        (["5", "--board", "XX.OO..."], "--board: a board string has exactly 9 characters"),
        (["1", "2", "3", "4", "5", "6", "7", "8", "9", "1"], "CELL: "),
    ],
)
def test_an_illegal_review_names_the_move(
    live_server: Server, capsys: pytest.CaptureFixture[str], arguments: list[str], message: str
) -> None:
    """A move that cannot be played is named by its place in the list and its cell, 1 to 9."""
    assert main(["review", *arguments, "--url", live_server.url]) == 1
    captured = capsys.readouterr()
    assert captured.err.startswith(f"error: {message}"), captured.err
    assert captured.out == ""


#: Each side as the terminal names it at the start of a sentence.
SPOKEN = {"X": "X", "O": "O", "first": "The first player", "second": "The second player"}
#: A ply of a review in any variant: its number, side, mark in wild, cell, judgement and reason.
VARIANT_PLY = re.compile(
    r"^ ?(\d+)\. (X|O|The first player|The second player) plays (?:([XO]) in )?(\d+): "
    r"(best|inaccuracy|mistake|blunder)(, the only move)?\. (.+)$"
)
VARIANT_BETTER = re.compile(r"^    Better: (?:([XO]) in )?(\d+)\. (.+)$")
#: A side's summary in any variant: a level, and its rating where the variant is rated.
VARIANT_SIDE = re.compile(
    r"^(X|O|The first player|The second player): (\d+) moves?: (\d+) best, .*\n"
    r"   Accuracy (\d+\.\d)%, (\d+) only moves? found, played like: (\w+)(?: \(≈ (\d+)\))?\.$",
    re.M,
)


def check_variant_review_output(out: str, review: ReviewResponse) -> None:
    """``tictactoe review --variant`` says what the API's review says: every ply with its cell (1 up),
    its mark in wild, its judgement and reason, the better move, the final board as ``play`` draws
    it, and each side's level, with its rating on the variant's scale where the variant is rated and
    none where it is not (the review's ``rating`` is null there)."""
    lines = out.splitlines()
    plies = [(n, found) for n, line in enumerate(lines) if (found := VARIANT_PLY.match(line))]
    assert len(plies) == len(review.plies), out
    for (n, found), ply in zip(plies, review.plies, strict=True):
        expected = (
            str(ply.ply),
            SPOKEN[ply.player],
            ply.mark,
            str(ply.position + 1),
            ply.judgement,
            ply.only_move,
            ply.reason,
        )
        assert (*found.group(1, 2, 3, 4, 5), found.group(6) is not None, found.group(7)) == expected
        better = VARIANT_BETTER.match(lines[n + 1])
        if ply.better is None:
            assert better is None, lines[n + 1]
        else:
            assert better is not None
            assert better.groups() == (ply.better.mark, str(ply.better.position + 1), ply.better.reason)
    assert render_board(review.plies[-1].board_after, numbered=True) in out
    sides = {found.group(1): found.groups()[1:] for found in VARIANT_SIDE.finditer(out)}
    players = review.players
    named = (
        [("first", players.first), ("second", players.second)]
        if isinstance(players, TurnSides)
        else [("X", players.X), ("O", players.O)]
    )
    for name, side in named:
        if side.moves == 0:
            assert f"\n{SPOKEN[name]}: no moves.\n" in out
            continue
        assert sides[SPOKEN[name]] == (
            str(side.moves),
            str(side.judgements.best),
            f"{side.accuracy:.1f}",
            str(side.only_moves),
            side.level,
            None if side.rating is None else str(side.rating),
        ), out
    if all(side.rating is None for _, side in named):
        assert "≈" not in out


@pytest.mark.parametrize(
    ("variant", "arguments", "moves", "first_line", "result"),
    [
        (
            "wild",
            ["5X", "1o", "9X"],
            [(4, "X"), (0, "O"), (8, "X")],
            "The game of Wild tic-tac-toe from the empty board, the first player to move:",
            "The game goes on: the second player to move.",
        ),
        (
            "notakto-2",
            ["5", "14", "1", "10"],
            [4, 13, 0, 9],
            "The game of Notakto on 2 boards from the empty board, the first player to move:",
            "The game goes on: the first player to move.",
        ),
        (
            "4x4",
            ["1", "6", "2", "7", "3", "8", "4"],
            [0, 5, 1, 6, 2, 7, 3],
            "The game of Tic-tac-toe on 4 × 4 from the empty board, X first:",
            "X wins.",
        ),
    ],
)
def test_review_in_a_variant(
    live_server: Server,
    capsys: pytest.CaptureFixture[str],
    variant: Variant,
    arguments: list[str],
    moves: list[ReviewMove],
    first_line: str,
    result: str,
) -> None:
    """``review --variant``: cells numbered as ``play --variant`` numbers them (1 to 16 on 4 × 4, on
    Notakto's boards side by side 1 to 18, board 2 from 10), wild's moves written with their mark."""
    assert main(["review", "--variant", variant, *arguments, "--url", live_server.url]) == 0
    out = capsys.readouterr().out
    with Client(live_server.url) as client:
        review = client.review(moves, variant=variant)
    assert out.startswith(first_line + "\n\n"), out
    assert f"\n{result}\n" in out
    check_variant_review_output(out, review)
    if variant == "notakto-2":
        assert " X  | 2  | 3       X  | 11 | 12" in out  # the two boards side by side
    if variant == "4x4":
        assert " 9  | 10 | 11 | 12\n----+----+----+----\n 13 | 14 | 15 | 16" in out


def test_review_in_wild_from_a_board_with_the_side_to_move(
    live_server: Server, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["review", "--variant", "wild", "9O", "--board", "X...O....", "--player", "first"]
    assert main([*args, "--url", live_server.url]) == 0
    out = capsys.readouterr().out
    assert out.startswith(
        "The game of Wild tic-tac-toe from this board, the first player to move:\n\n"
        + render_board("X...O....", numbered=True)
        + "\n"
    )
    assert " 1. The first player plays O in 9: mistake. " in out and "\n    Better: X in 9. " in out
    with Client(live_server.url) as client:
        check_variant_review_output(out, client.review([(8, "O")], "X...O....", "first", variant="wild"))


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (
            ["--variant", "wild", "5X", "5o"],
            "move 2 in the list, 5O, cannot be played: cell 5 is taken (by X)",
        ),
        (
            ["--variant", "notakto-2", "1", "2", "3", "4"],
            "move 4 in the list, 4, cannot be played: cell 4 is on board 1, which has a line",
        ),
        (
            ["--variant", "notakto", "1", "2", "3", "4"],
            "move 4 in the list, 4, cannot be played: the game is over after move 3. The second player wins.",
        ),
        (
            ["--variant", "4x4", "1", "5", "2", "6", "3", "7", "4", "8"],
            "move 8 in the list, 8, cannot be played: the game is over after move 7. X wins.",
        ),
        (
            ["--variant", "notakto-2", "5", "--board", "XXX......X........"],
            "move 1 in the list, 5, cannot be played: cell 5 is on board 1, which has a line",
        ),
        (
            ["--variant", "4x4", "5", "--board", "X........"],
            "--board: a board string has exactly 16 characters",
        ),
    ],
)
def test_an_illegal_review_in_a_variant_names_the_move(
    live_server: Server, capsys: pytest.CaptureFixture[str], arguments: list[str], message: str
) -> None:
    assert main(["review", *arguments, "--url", live_server.url]) == 1
    captured = capsys.readouterr()
    assert captured.err.startswith(f"error: {message}"), captured.err
    assert captured.out == ""


def puzzle_session(
    live_server: Server,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    answers: str,
    *options: str,
) -> tuple[str, list[Puzzle]]:
    """``tictactoe puzzle`` with ``answers`` on its input: its output, and the puzzles it posed."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(answers))
    assert main(["puzzle", *options, "--url", live_server.url]) == 0
    out = capsys.readouterr().out
    assert out.rstrip().endswith("Bye."), out
    posed = re.findall(
        r"^Puzzle (\S+), rated (\d+): ([XO]) to move; only one move keeps the (win|draw)\.$", out, re.M
    )
    with Client(live_server.url) as client:
        puzzles = [client.puzzle(found[0]).value for found in posed]
    for puzzle, found in zip(puzzles, posed, strict=True):
        assert found == (puzzle.id, str(puzzle.rating), puzzle.player, puzzle.outcome)
        assert numbered(puzzle.board) in out
    return out, puzzles


def test_a_puzzle_answered_right_then_wrong(
    live_server: Server, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    seed = ["--seed", "11"]
    out, (puzzle,) = puzzle_session(live_server, monkeypatch, capsys, "q\n", *seed)
    # The same seed, the same puzzle: now solved, and then a second one is offered (Enter: yes).
    right = f"{puzzle.solution + 1}\n\nq\n"
    out, posed = puzzle_session(live_server, monkeypatch, capsys, right, *seed)
    assert len(posed) == 2 and posed[0] == puzzle
    assert f"Right: {puzzle.solution + 1}. {puzzle.reason}\nPuzzles: 1 right, 0 wrong.\n" in out
    assert "Next puzzle [y/n, Enter for y]: " in out
    # A taken cell is asked again; a wrong move is judged as the review judges it; no next puzzle.
    taken = next(index for index, mark in enumerate(puzzle.board) if mark != ".")
    wrong = next(index for index, mark in enumerate(puzzle.board) if mark == "." and index != puzzle.solution)
    out, posed = puzzle_session(live_server, monkeypatch, capsys, f"{taken + 1}\n{wrong + 1}\nn\n", *seed)
    assert posed == [puzzle]
    with Client(live_server.url) as client:
        (judged,) = client.review([wrong], puzzle.board, puzzle.player).plies
    assert judged.judgement in {"mistake", "blunder"}  # the only move that keeps the outcome was missed
    assert (
        f"Not this one: {wrong + 1} is a {judged.judgement}. {judged.reason}\n"
        f"The answer is {puzzle.solution + 1}. {puzzle.reason}\nPuzzles: 0 right, 1 wrong.\n"
    ) in out
    assert f"Cell {taken + 1} is taken; choose an empty cell." in out


def test_puzzles_with_filters_and_their_errors(
    live_server: Server, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    answers = "\n".join(["5", "y"] * 3) + "\n"  # a move (or a refusal of it) and another puzzle, thrice
    out, posed = puzzle_session(
        live_server,
        monkeypatch,
        capsys,
        answers,
        "--theme",
        "fork",
        "--min-rating",
        "300",
        "--max-rating",
        "400",
    )
    assert len(posed) >= 1
    assert all("fork" in puzzle.themes and 300 <= puzzle.rating <= 400 for puzzle in posed), posed
    out, posed = puzzle_session(live_server, monkeypatch, capsys, "")  # the input ends: Bye
    assert len(posed) == 1 and "Your move (1-9, q to quit): \nBye." in out
    assert main(["puzzle", "--min-rating", "100000", "--url", live_server.url]) == 1
    said = "error: --min-rating: puzzles of standard are rated on its scale, from 0 to 493\n"
    assert capsys.readouterr().err == said  # above the variant's scale: refused before asking
    filters = ["--theme", "win", "--min-rating", "400", "--max-rating", "450"]
    assert main(["puzzle", *filters, "--url", live_server.url]) == 1
    assert "error: no puzzle matches these filters" in capsys.readouterr().err
    assert main(["puzzle", "--min-rating", "300", "--max-rating", "100", "--url", live_server.url]) == 1
    assert "error: --max-rating: max_rating (100) is below min_rating (300)" in capsys.readouterr().err


def test_the_themes_are_the_services() -> None:
    assert THEMES == PUZZLE_THEMES


def test_a_rating_on_the_command_line(live_server: Server, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["best-move", "XX..O....", "--rating", "250.5", "--seed", "9", "--url", live_server.url]) == 0
    out = capsys.readouterr().out
    with Client(live_server.url) as client:
        move = client.best_move("XX..O....", rating=250.5, seed=9)
    assert f"O plays cell {move.position + 1} (row {move.row + 1}, column {move.column + 1})" in out
    assert f"Why: {move.reason}" in out
    # The calibrated ratings of perfect play: every game drawn.
    assert main(["selfplay", "--games", "6", "--x-rating", "493", "--o-rating", "493", "--seed", "3"]) == 0
    assert "6 games, X rating 493, O rating 493: X won 0, O won 0, drawn 6" in capsys.readouterr().out
    code, out = run_cli(
        ["play", "--side", "X", "--first", "O", "--rating", "200", "--url", live_server.url], every_cell()
    )
    assert code == 0, out
    assert "You are X, the engine is O (rating 200); O starts." in out and "The engine plays" in out


# --- the variants ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "cells", "options"),
    [
        ("misere", 9, ["--side", "X", "--first", "X"]),
        ("wild", 9, ["--order", "first"]),
        ("notakto", 9, ["--order", "second"]),
        ("notakto-3", 27, ["--order", "first"]),
        ("4x4", 16, ["--side", "O", "--first", "X"]),
        ("4x4-3", 16, ["--side", "X", "--first", "X"]),
    ],
)
def test_play_any_variant(variant: str, cells: int, options: list[str]) -> None:
    """A whole game of each variant, the cells answered 1, 2, ... (taken ones and dead boards are
    asked again); wild asks for each move's mark. Its boards, its cells numbered from 1, its end.
    The engine's level is asked first, as in the standard game (Enter: perfect)."""
    mark = "X\n" if variant == "wild" else ""
    answers = "\n" + "".join(f"{cell}\n{mark}" for _ in range(2) for cell in range(1, cells + 1)) + "n\n"
    code, output = run_cli(["play", "--variant", variant, *options], stdin=answers)
    assert code == 0, output
    assert output.startswith(f"{NAMES[variant]} against the engine.")
    assert "(level perfect)" in output, output
    assert f"Your move (1-{cells}, q to quit): " in output
    assert re.search(r"^(Draw\.|.* wins\. (You win!|The engine wins\.))$", output, re.M), output
    assert "Games: you won " in output and output.endswith("Bye.\n")
    if variant == "wild":
        assert "Which mark [X/O, Enter for X]: " in output
    if variant == "notakto-3":
        # The three boards side by side, numbered 1 to 27, and never a draw.
        assert re.search(r"^ 1  \| 2  \| 3       10 \| 11 \| 12      19 \| 20 \| 21$", output, re.M), output
        assert "Draw." not in output
        assert "is on a dead board, one with a line; choose a live board." in output
    if variant.startswith("4x4"):
        assert re.search(r"^ 13 \| 14 \| 15 \| 16$", output, re.M), output


def test_best_move_and_analyze_in_a_variant(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["best-move", "X...X........X....", "--variant", "notakto-2"]) == 0
    said = capsys.readouterr().out
    assert said.startswith(
        "The second player plays cell 9 (board 1, row 3, column 3).\n"
        "The second player wins with perfect play, in 6 more moves.\n"
    )
    assert main(["best-move", "X...O....", "--variant", "wild", "--player", "first"]) == 0
    assert capsys.readouterr().out.startswith(
        "The first player plays X in cell 9 (row 3, column 3).\nThe first player wins with perfect play, in 3"
    )
    assert main(["analyze", "XX.OO...........", "--variant", "4x4-3"]) == 0
    assert "X is to move. X wins with perfect play" in capsys.readouterr().out


def test_a_rating_in_a_rated_variant(live_server: Server, capsys: pytest.CaptureFixture[str]) -> None:
    """``--rating`` with ``--variant`` in a rated variant: on that variant's own scale (here half of
    misère's ``rating_max``), reproducible with ``--seed`` as the API's ``rating`` is, and ``play``
    plays a whole game against it."""
    url = live_server.url
    with Client(url) as client:
        misere = next(info for info in client.variants() if info.id == "misere")
        assert misere.rated and misere.rating_max is not None, misere
        rating = misere.rating_max // 2
        move = client.best_move("X...O....", variant="misere", rating=rating, seed=4)
    args = ["best-move", "X...O....", "--variant", "misere", "--rating", str(rating), "--seed", "4"]
    assert main([*args, "--url", url]) == 0
    said = capsys.readouterr().out
    assert said.startswith(
        f"X plays cell {move.position + 1} (row {move.row + 1}, column {move.column + 1})"
    ), said
    # play: the engine at that rating, a whole game answered cell by cell, then no more.
    code, output = run_cli(
        ["play", "--variant", "misere", "--side", "X", "--first", "O", "--rating", str(rating), "--url", url],
        every_cell() + "n\n",
    )
    assert code == 0, output
    assert output.startswith("Misère tic-tac-toe against the engine."), output
    assert f"You are X, the engine is O (rating {rating}); O starts." in output, output
    assert "The engine plays" in output and "error" not in output, output
    assert re.search(r"^(Draw\.|.* wins\. (You win!|The engine wins\.))$", output, re.M), output
    assert "Games: you won " in output and output.endswith("Bye.\n"), output


@pytest.mark.parametrize(
    ("variant", "cells", "options", "intro"),
    [
        ("4x4", 16, ["--side", "O", "--first", "X"], "You are O, the engine is X (level {level}); X starts."),
        ("notakto-2", 18, ["--order", "second"], "You move second, the engine first (level {level})."),
        (
            "misere",
            9,
            ["--side", "X", "--first", "O"],
            "You are X, the engine is O (level {level}); O starts.",
        ),
    ],
)
def test_play_in_a_variant_asks_the_level_as_the_standard_game_does(
    variant: str, cells: int, options: list[str], intro: str
) -> None:
    """The level prompt of the standard game (test_bad_input_is_asked_again_never_a_crash) in every
    variant, a wrong answer asked again, and the level chosen is the engine's, shown as in the
    standard game: never "skill 1"."""
    answers = "expert\nbeginner\n" + "".join(f"{cell}\n" for _ in range(2) for cell in range(1, cells + 1))
    code, output = run_cli(["play", "--variant", variant, *options], stdin=answers + "n\n")
    assert code == 0, output
    prompt = "Engine level [beginner/easy/medium/hard/perfect, Enter for perfect]: "
    assert output.count(prompt) == 2, output
    assert output.count("Please answer one of beginner, easy, medium, hard, perfect.") == 1, output
    assert intro.format(level="beginner") in output, output
    assert "skill 1" not in output
    assert "Games: you won " in output and output.endswith("Bye.\n"), output


def refusal(board: str, variant: Variant | None, depth: int, url: str) -> str:
    """The API's own message for ``depth`` in ``variant`` (a 422 at ``depth``)."""
    with Client(url) as client, pytest.raises(ServiceError) as refused:
        client.best_move(board, variant=variant, depth=depth)
    (error,) = refused.value.problem.errors or []
    assert error.loc[-1] == "depth", error
    return error.msg


@pytest.mark.parametrize(("variant", "cells"), [("4x4", 16), ("notakto-2", 18), ("standard", 9)])
def test_depth_up_to_the_variants_cells_and_no_further(
    live_server: Server, capsys: pytest.CaptureFixture[str], variant: Variant, cells: int
) -> None:
    """``--depth`` runs to the variant's number of cells, as the API's ``depth`` does; one more is
    refused before anything is played, in the API's words, by best-move and play alike."""
    url = live_server.url
    board = "." * cells
    assert (
        main(["best-move", board, "--variant", variant, "--depth", str(cells), "--seed", "5", "--url", url])
        == 0
    )
    with Client(url) as client:
        move = client.best_move(board, variant=variant, depth=cells, seed=5)
    said = capsys.readouterr().out
    assert f"plays cell {move.position + 1} (" in said, said
    api = refusal(board, variant, cells + 1, url)
    assert api == f"Input should be less than or equal to {cells}"
    assert main(["best-move", board, "--variant", variant, "--depth", str(cells + 1), "--url", url]) == 1
    assert capsys.readouterr().err == f"error: --depth: {api}\n"
    # Beyond every variant's cells the API names its schema's bound; the terminal the variant's.
    assert main(["best-move", board, "--variant", variant, "--depth", "40", "--url", url]) == 1
    assert capsys.readouterr().err == f"error: --depth: {api}\n"
    # play: refused before the first prompt; accepted and shown up to the cells.
    code, output = run_cli(["play", "--variant", variant, "--depth", str(cells + 1), "--url", url], stdin="")
    assert code == 1, output
    assert output == f"error: --depth: {api}\n"
    # The engine moves first, then q ends the game.
    options = ["--order", "second"] if variant.startswith("notakto") else ["--side", "O", "--first", "X"]
    code, output = run_cli(
        ["play", "--variant", variant, *options, "--depth", str(cells), "--url", url], "q\n"
    )
    assert code == 0, output
    assert f"(skill 1, depth {cells})" in output and "The engine plays" in output, output


def test_selfplay_depths_are_the_standard_games(
    live_server: Server, capsys: pytest.CaptureFixture[str]
) -> None:
    """selfplay plays the standard game: its depths run to 9, and a tenth is named by its option."""
    url = live_server.url
    assert main(["selfplay", "--games", "2", "--x-depth", "9", "--o-depth", "9", "--url", url]) == 0
    assert (
        "2 games, X skill 1, depth 9, O skill 1, depth 9: X won 0, O won 0, drawn 2"
        in capsys.readouterr().out
    )
    assert main(["selfplay", "--o-depth", "10", "--url", url]) == 1
    assert capsys.readouterr().err == f"error: --o-depth: {refusal('.' * 9, None, 10, url)}\n"


def rating_refusal(info: VariantInfo, rating: float, url: str) -> str:
    """The API's own message for ``rating`` in the variant ``info`` (a 422 at ``rating``)."""
    board = "." * (info.rows * info.columns * info.boards)
    with Client(url) as client, pytest.raises(ServiceError) as refused:
        client.best_move(board, variant=info.id, rating=rating)
    (error,) = refused.value.problem.errors or []
    assert error.loc[-1] == "rating", error
    return error.msg


def test_a_rating_the_variant_cannot_play_is_refused_before_play(
    live_server: Server, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--rating`` runs to the variant's own ``rating_max`` (``GET /v1/variants``), where the
    variant is ``rated``: one above it, or any rating in a variant that is not rated, stops ``play``
    before its first prompt, and ``best-move`` before it asks, in the API's words naming the bound
    and the variant, rather than at the engine's first move. The static bound of ``--rating``, the
    highest of every variant's, comes first: above it, argparse refuses."""
    url = live_server.url
    with Client(url) as client:
        variants = client.variants()
    rated = [info for info in variants if info.rated]
    assert rated, "no variant is rated"
    for info in rated:
        assert info.rating_max is not None, info
        above = info.rating_max + 1
        if above > MAX_RATING:  # the variant rated highest: the option's own bound refuses it
            code, output = run_cli(["play", "--variant", info.id, "--rating", str(above), "--url", url], "")
            assert code == 2 and "argument --rating" in output, output
            continue
        api = rating_refusal(info, above, url)
        assert api == (
            f"Input should be less than or equal to {info.rating_max}, perfect play's rating in {info.id}"
        )
        code, output = run_cli(["play", "--variant", info.id, "--rating", str(above), "--url", url], "")
        assert (code, output) == (1, f"error: --rating: {api}\n"), output
        board = "." * (info.rows * info.columns * info.boards)
        assert main(["best-move", board, "--variant", info.id, "--rating", str(above), "--url", url]) == 1
        assert capsys.readouterr().err == f"error: --rating: {api}\n"
    # Where a variant is not rated (none may be left: then only the bounds above are checked).
    unrated = [info for info in variants if not info.rated]
    if unrated:
        info = unrated[-1]
        api = rating_refusal(info, 100, url)
        code, output = run_cli(["play", "--variant", info.id, "--rating", "100", "--url", url], "")
        assert code == 1, output
        assert output.startswith(
            f"error: --rating: rating is on a calibrated variant's scale, and {info.id} is not calibrated "
        ), output
        options = api.replace("use level, depth or skill", "use --level, --depth or --skill")
        assert output == f"error: --rating: {options}\n", output
        assert "Tic-tac-toe" not in output


# --- puzzles in every variant ----------------------------------------------------------------------

#: The line that poses a puzzle of any variant: its id, rating, side to move (a mark, or in wild and
#: Notakto "the first player" or "the second player") and the outcome its solution keeps.
POSED = re.compile(
    r"^Puzzle (\S+), rated (\d+): (X|O|the first player|the second player) to move; "
    r"only one move keeps the (win|draw)\.$",
    re.M,
)


def variant_puzzles(
    live_server: Server,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    answers: str,
    *options: str,
) -> tuple[str, list[Puzzle]]:
    """``tictactoe puzzle`` with ``options`` and ``answers`` on its input: its output, and the puzzles
    it posed, each drawn as ``play`` draws its variant's board (Notakto's side by side, 4 × 4)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(answers))
    assert main(["puzzle", *options, "--url", live_server.url]) == 0
    out = capsys.readouterr().out
    assert out.rstrip().endswith("Bye."), out
    posed = POSED.findall(out)
    with Client(live_server.url) as client:
        puzzles = [client.puzzle(found[0]).value for found in posed]
    for puzzle, found in zip(puzzles, posed, strict=True):
        side = puzzle.player if puzzle.player in ("X", "O") else f"the {puzzle.player} player"
        assert found == (puzzle.id, str(puzzle.rating), side, puzzle.outcome)
        assert "\n" + render_board(puzzle.board, numbered=True) + "\n" in out
    return out, puzzles


def answer_of(puzzle: Puzzle, cell: int, mark: str | None = None) -> str:
    """What a person types to answer ``puzzle`` with ``cell``: its number, and in wild the mark."""
    return f"{cell + 1}\n" + (f"{mark}\n" if puzzle.variant == "wild" else "")


def said_move(puzzle: Puzzle, cell: int, mark: str | None) -> str:
    """A move of a puzzle as the terminal says it: its cell's number, and in wild the mark first."""
    return f"{cell + 1}" if puzzle.variant != "wild" else f"{mark} in {cell + 1}"


@pytest.mark.parametrize(
    ("variant", "cells", "seed"),
    [("misere", 9, "3"), ("wild", 9, "5"), ("notakto-2", 18, "7"), ("4x4-3", 16, "2")],
)
def test_a_puzzle_of_a_variant_answered_right_then_wrong(
    live_server: Server,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    variant: Variant,
    cells: int,
    seed: str,
) -> None:
    """``puzzle --variant``: the variant's puzzles, its board drawn as ``play`` draws it, the answer
    read as ``play`` reads a move there (in wild a cell, then the mark), right only when it is the
    solution, cell and mark; a wrong one judged as the review judges that move in the variant."""
    options = ["--variant", variant, "--seed", seed]
    out, (puzzle,) = variant_puzzles(live_server, monkeypatch, capsys, "q\n", *options)
    assert out.startswith(f"Puzzles of {NAMES[variant]}: find the one move that keeps the win or the draw.")
    assert puzzle.variant == variant and puzzle.id.startswith(f"{variant}:")
    assert f"Your move (1-{cells}, q to quit): " in out
    assert (puzzle.mark is not None) == (variant == "wild")
    assert (puzzle.grid is not None) == variant.startswith("notakto")
    # The same seed, the same puzzle: now solved.
    right = answer_of(puzzle, puzzle.solution, puzzle.mark) + "n\n"
    out, posed = variant_puzzles(live_server, monkeypatch, capsys, right, *options)
    assert posed == [puzzle]
    solution = said_move(puzzle, puzzle.solution, puzzle.mark)
    assert f"Right: {solution}. {puzzle.reason}\nPuzzles: 1 right, 0 wrong.\n" in out, out
    if variant == "wild":
        assert "Which mark [X/O, Enter for X]: " in out
    # A wrong answer: in wild the solution's cell with the other mark, elsewhere another empty cell
    # (in Notakto, a cell of a dead board first, which is asked again).
    with Client(live_server.url) as client:
        analysis = client.analyze(puzzle.board, puzzle.player, variant=variant)
    moves = [(move.position, move.mark) for move in analysis.moves]
    if variant == "wild":
        wrong: tuple[int, Mark | None] = (puzzle.solution, "O" if puzzle.mark == "X" else "X")
    else:
        wrong = next((cell, mark) for cell, mark in moves if cell != puzzle.solution)
    assert wrong in moves
    answers = answer_of(puzzle, wrong[0], wrong[1])
    dead = [
        index
        for index in range(len(puzzle.board))
        if variant.startswith("notakto")
        and puzzle.board[index] == "."
        and not any(move.position // 9 == index // 9 for move in analysis.moves)
    ]
    if dead:
        answers = f"{dead[0] + 1}\n" + answers
    out, posed = variant_puzzles(live_server, monkeypatch, capsys, answers + "n\n", *options)
    assert posed == [puzzle]
    move: ReviewMove = wrong[0] if wrong[1] is None else (wrong[0], wrong[1])
    with Client(live_server.url) as client:
        (judged,) = client.review([move], puzzle.board, puzzle.player, variant=variant).plies
    assert judged.judgement in {"mistake", "blunder"}  # the only move that keeps the outcome was missed
    article = "an" if judged.judgement[0] in "aeiou" else "a"
    assert (
        f"Not this one: {said_move(puzzle, *wrong)} is {article} {judged.judgement}. {judged.reason}\n"
        f"The answer is {solution}. {puzzle.reason}\nPuzzles: 0 right, 1 wrong.\n"
    ) in out, out
    if dead:
        assert f"Cell {dead[0] + 1} is on a dead board, one with a line; choose a live board." in out


def test_notakto_puzzles_on_three_boards_side_by_side(
    live_server: Server, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Notakto's three boards are drawn side by side, numbered 1 to 27 (board 2 from 10), as ``play``
    draws them, and the cells of every board answer."""
    options = ["--variant", "notakto-3", "--seed", "4"]
    out, (puzzle,) = variant_puzzles(live_server, monkeypatch, capsys, "q\n", *options)
    assert len(puzzle.board) == 27 and puzzle.grid == puzzle.solution // 9
    assert re.search(r"^ \S+ +\| \S+ +\| \S+ +\S+ +\| \S+ +\| \S+ +\S+ +\| \S+ +\| \S+$", out, re.M), out
    out, _ = variant_puzzles(live_server, monkeypatch, capsys, f"{puzzle.solution + 1}\nn\n", *options)
    assert f"Right: {puzzle.solution + 1}. {puzzle.reason}\n" in out


def test_puzzle_filters_on_the_variants_scale_and_themes(
    live_server: Server, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--theme``, ``--min-rating`` and ``--max-rating`` with ``--variant``: the variant's themes and
    its own rating scale (``GET /v1/variants``); a theme the variant has not, or a lowest rating above
    its ``rating_max``, is refused before any puzzle is drawn, naming the variant's themes or scale."""
    url = live_server.url
    with Client(url) as client:
        listed = {info.id: info for info in client.variants()}
        wild = [puzzle for puzzle in client.iter_puzzles(variant="wild", limit=100)]
    top = listed["wild"].rating_max
    assert top is not None and all(puzzle.rating <= top for puzzle in wild)  # on wild's own scale
    low, high = sorted({puzzle.rating for puzzle in wild})[-2:]  # the top two ratings of wild's book
    for seed in ("1", "2", "3"):
        _, posed = variant_puzzles(
            live_server,
            monkeypatch,
            capsys,
            "q\n",
            *["--variant", "wild", "--min-rating", str(low), "--max-rating", str(high), "--seed", seed],
        )
        assert [low <= puzzle.rating <= high and puzzle.variant == "wild" for puzzle in posed] == [True]
    _, posed = variant_puzzles(
        live_server, monkeypatch, capsys, "q\n", "--variant", "misere", "--theme", "squeeze", "--seed", "6"
    )
    assert [("squeeze" in puzzle.themes, puzzle.variant) for puzzle in posed] == [(True, "misere")]
    misere = listed["misere"]
    themes = [tag for tag in misere.tactics if tag in THEMES]
    assert main(["puzzle", "--variant", "misere", "--theme", "fork", "--url", url]) == 1
    captured = capsys.readouterr()
    assert captured.err == (
        f"error: --theme: fork is not a theme of misere's puzzles; its themes: {', '.join(themes)}\n"
    )
    assert captured.out == ""
    above = str((misere.rating_max or 0) + 1)
    assert main(["puzzle", "--variant", "misere", "--min-rating", above, "--url", url]) == 1
    assert capsys.readouterr().err == (
        f"error: --min-rating: puzzles of misere are rated on its scale, from 0 to {misere.rating_max}\n"
    )
    # The standard game keeps its own: fork is one of its themes.
    _, posed = variant_puzzles(live_server, monkeypatch, capsys, "q\n", "--theme", "fork", "--seed", "2")
    assert [("fork" in puzzle.themes, puzzle.variant) for puzzle in posed] == [(True, "standard")]


# --- languages ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("environment", "tag"),
    [
        ({"LANG": "es_ES.UTF-8"}, "es-ES"),
        ({"LANG": "pt_BR"}, "pt-BR"),
        ({"LANG": "de"}, "de"),
        ({"LANG": "fr_CA.ISO8859-1@euro"}, "fr-CA"),
        ({"LANG": "sr_RS.UTF-8@latin"}, "sr-Latn-RS"),
        ({"LANG": "es_419.UTF-8"}, "es-419"),
        ({"LC_ALL": "fr_FR.UTF-8", "LC_MESSAGES": "de_DE.UTF-8", "LANG": "es_ES.UTF-8"}, "fr-FR"),
        ({"LC_MESSAGES": "de_DE.UTF-8", "LANG": "es_ES.UTF-8"}, "de-DE"),
        ({"LC_ALL": "", "LC_MESSAGES": "", "LANG": "pt_PT.UTF-8"}, "pt-PT"),
        ({"LC_ALL": "C", "LANG": "es_ES.UTF-8"}, None),
        ({"LANG": "C"}, None),
        ({"LANG": "C.UTF-8"}, None),
        ({"LANG": "POSIX"}, None),
        ({"LANG": "/usr/share/locale/es"}, None),
        ({}, None),
    ],
)
def test_the_locale_names_the_language(environment: dict[str, str], tag: str | None) -> None:
    """As a POSIX program: the first of LC_ALL, LC_MESSAGES and LANG that is set and not empty, a
    locale name read as a BCP 47 tag; C and POSIX (with any codeset) name none."""
    assert locale_language(environment) == tag
    assert locale_tag("es_ES.UTF-8") == "es-ES" and locale_tag("C.UTF-8") is None


def engine_sentence(url: str, lang: str | None) -> str:
    """The engine's first move of ``play --side O --first X --skill 1``, in the service's words in
    ``lang``."""
    with Client(url, lang=lang) as client:
        return client.best_move(".........", "X", skill=1).reason


@pytest.mark.parametrize(
    ("arguments", "environment", "lang"),
    [
        (["--lang", "es"], {}, "es"),
        ([], {"LANG": "es_ES.UTF-8"}, "es"),
        ([], {"LC_ALL": "fr_FR.UTF-8", "LANG": "es_ES.UTF-8"}, "fr"),
        ([], {"LC_MESSAGES": "de_DE.UTF-8", "LANG": "es_ES.UTF-8"}, "de"),
        ([], {"LANG": "pt_BR.UTF-8"}, "pt"),
        ([], {"LANG": "C"}, "en"),
        ([], {"LC_ALL": "C.UTF-8", "LANG": "es_ES.UTF-8"}, "en"),
        (["--lang", "en"], {"LANG": "es_ES.UTF-8"}, "en"),  # the option wins over the locale
        (["--lang", ""], {"LANG": "es_ES.UTF-8"}, "en"),  # an empty TAG asks for none
        ([], {}, "en"),
    ],
)
def test_the_engines_sentences_in_the_language_of_lang_or_the_locale(
    live_server: Server,
    monkeypatch: pytest.MonkeyPatch,
    arguments: list[str],
    environment: dict[str, str],
    lang: str,
) -> None:
    """A game through standard input against a live server: the engine's reason is the service's own
    in the language of ``--lang``, else of the locale, and the terminal's own words are in it too."""
    for variable, value in environment.items():
        monkeypatch.setenv(variable, value)
    command = ["play", "--side", "O", "--first", "X", "--skill", "1", "--url", live_server.url, *arguments]
    code, out = run_cli(command, "q\n")
    assert code == 0, out
    reason = engine_sentence(live_server.url, lang)
    with speaking(lang):
        played = gettext("The engine plays {cell}: {reason}").format(cell=1, reason=reason)
    assert re.search(rf"^{re.escape(played)}$", out, re.M), out
    if lang != "en":
        assert reason != engine_sentence(live_server.url, "en")
    with speaking(lang):
        roles = gettext("You are {person}, the engine is {engine} ({strength}); {starter} starts.")
        strength = gettext("skill {skill}").format(skill=1)
        bye = gettext("Bye.")
    assert roles.format(person="O", engine="X", strength=strength, starter="X") in out, out
    assert out.endswith(f"{bye}\n"), out


def english_fragments() -> set[str]:
    """The words of the terminal's English messages between their placeholders, two words or more,
    that a sentence left untranslated would show."""
    template = read_po((TERMINAL_LOCALES.parent / "tictactoe.pot").open("rb"))
    found = set()
    for message in template:
        for text in message.id if isinstance(message.id, tuple) else (message.id,):
            for fragment in re.split(r"\{[a-z_]+\}", str(text)):
                words = fragment.strip(" .:;,()").split()
                if len([word for word in words if word.isalpha()]) >= 2:
                    found.add(" ".join(words))
    return found


@pytest.mark.parametrize("tag", ["es", "fr", "de", "pt"])
def test_every_command_speaks_the_language_asked_for(
    live_server: Server, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tag: str
) -> None:
    """best-move, analyze, review, play and puzzle with ``--lang`` (anywhere on the line) or the
    locale, and their errors: the engine's sentences the service's own in that language, and the
    terminal's own words (prompts, labels, results, errors) from its catalogue in that language, with
    no English sentence of the terminal's left."""
    url = live_server.url
    with Client(url, lang=tag) as client:
        move = client.best_move("XX.OO....")
        analysis = client.analyze("X.O...X..", "O")
        review = client.review([0, 1, 4, 2, 8])
        misere = next(info for info in client.variants() if info.id == "misere")
    said: list[str] = []
    assert main(["--lang", tag, "best-move", "XX.OO....", "--url", url]) == 0
    said.append(capsys.readouterr().out)
    assert main(["analyze", "X.O...X..", "--player", "O", "--lang", tag, "--url", url]) == 0
    said.append(capsys.readouterr().out)
    assert main(["review", "1", "2", "5", "3", "9", "--lang", tag, "--url", url]) == 0
    said.append(capsys.readouterr().out)
    code, out = run_cli(
        ["play", "--variant", "misere", "--lang", tag, "--url", url], "X\nX\n\n" + every_cell()
    )
    assert code == 0, out
    said.append(out)
    monkeypatch.setenv("LANG", {"pt": "pt_BR", "es": "es_ES", "fr": "fr_FR", "de": "de_DE"}[tag] + ".UTF-8")
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 30 + "X\n" * 30))
    assert main(["puzzle", "--seed", "3", "--url", url]) == 0
    said.append(capsys.readouterr().out)
    assert main(["review", "5", "5", "--url", url]) == 1
    said.append(capsys.readouterr().err)
    best, analysed, reviewed, played, puzzled, refused = said
    with speaking(tag):
        assert f"{gettext('Why: {reason}').format(reason=move.reason)}\n" in best
        assert all(entry.reason in analysed for entry in analysis.moves), analysed
        header = [pgettext("column", name) for name in ("cell", "outcome", "traps", "why")]
        assert any(all(label in line for label in header) for line in analysed.splitlines()), analysed
        for ply in review.plies:
            assert f"{ply.reason}\n" in reviewed, reviewed
        assert reviewed.startswith(
            gettext("{game} from the empty board, {starts}:").format(
                game=gettext("The game"), starts=gettext("{mark} first").format(mark="X")
            )
        ), reviewed
        assert played.startswith(gettext("{variant} against the engine.").format(variant=misere.name)), played
        assert gettext("{variant}: {rules}").format(variant=misere.name, rules=misere.rules) + "\n" in played
        assert (
            gettext("Games: you won {you}, the engine won {engine}, drawn {drawn}.").split("{")[0] in played
        )
        assert pgettext("question", "Play again") in played and played.endswith(gettext("Bye.") + "\n"), (
            played
        )
        assert gettext("Puzzles: find the one move that keeps the win or the draw.") in puzzled, puzzled
        assert refused.startswith(gettext("error: {message}").format(message="")), refused
    english = [(fragment, out) for fragment in english_fragments() for out in said if fragment in out]
    assert english == []


def test_a_malformed_lang_is_named_by_its_option(
    live_server: Server, capsys: pytest.CaptureFixture[str]
) -> None:
    """The service says what is wrong with the tag; the terminal names --lang, before any prompt."""
    with Client(live_server.url) as client, pytest.raises(ServiceError) as refused:
        client.best_move("X........", lang="not a tag!")
    (error,) = refused.value.problem.errors or []
    assert main(["best-move", "X........", "--lang", "not a tag!", "--url", live_server.url]) == 1
    assert capsys.readouterr().err == f"error: --lang: {error.msg}\n"
    code, out = run_cli(["--lang", "not a tag!", "play", "--url", live_server.url], "X\nX\n")
    assert (code, out) == (1, f"error: --lang: {error.msg}\n")


def test_the_default_variant_is_the_services_first(live_server: Server) -> None:
    """The variant the service lists first goes without saying, given or not: play greets as for no
    variant and names no rules, review's title names none; any other variant is named."""
    with Client(live_server.url) as client:
        default = client.variants()[0]
    options = ["--side", "O", "--first", "X", "--skill", "1", "--url", live_server.url]
    plain = "Tic-tac-toe against the engine. Type q to quit at any prompt.\nYou are O"
    for given in ([], ["--variant", default.id]):
        code, out = run_cli(["play", *given, *options], "q\n")
        assert code == 0 and out.startswith(plain), out
        assert default.rules not in out
        code, out = run_cli(["review", *given, "5", "--url", live_server.url])
        assert code == 0 and out.startswith("The game from the empty board, X first:"), out
    code, out = run_cli(["review", "--variant", "4x4", "5", "--url", live_server.url])
    assert code == 0 and out.startswith("The game of Tic-tac-toe on 4 × 4 from the empty board, X first:"), (
        out
    )
