"""``tictactoe``: the engine in a terminal.

Commands: ``serve``, ``best-move BOARD``, ``analyze BOARD``, ``play`` (a person
against the engine), ``selfplay`` (the engine against itself) and ``openapi``
(write the OpenAPI document). The game commands talk to the service at
``--url``; without it the app runs in-process, so no server is needed.

The terminal speaks to people: every command numbers cells 1 to 9, row by row
from the top-left, and rows and columns 1 to 3 (the API's indexes plus one).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO, TypeVar

import httpx

from . import __version__
from .client import AsyncClient, ServiceError
from .game import Board, Level, Mark, opponent
from .schemas import AnalysisResponse, BestMoveResponse

Ask = Callable[[str], str]

RESULT_WORDS = {"x_won": "X wins", "o_won": "O wins", "draw": "Draw"}

DESCRIPTION = """\
The tic-tac-toe engine in a terminal. The game commands talk to the service at --url;
without it the service runs in-process, so no server is needed.

Cells are numbered 1 to 9, row by row from the top-left:

   1 | 2 | 3
  ---+---+---
   4 | 5 | 6
  ---+---+---
   7 | 8 | 9

A board is 9 characters, one per cell in that order: X or O for a mark, and . - _ or a
space for an empty cell, such as X.O...X..
"""

#: The command-line option of each field of a request body, for error messages.
OPTIONS = {
    "board": "BOARD",
    "player": "--player",
    "skill": "--skill",
    "random": "--random",
    "seed": "--seed",
    "depth": "--depth",
    "level": "--level",
}
LEVELS = [level.value for level in Level]


@dataclass(frozen=True)
class Engine:
    """How strong the engine plays: a level, or a skill and perhaps a depth (perfect by default)."""

    level: str | None = None
    skill: float | None = None
    depth: int | None = None

    def __str__(self) -> str:
        if self.level is not None:
            return f"level {self.level}"
        skill = f"skill {1.0 if self.skill is None else self.skill:g}"
        return skill if self.depth is None else f"{skill}, depth {self.depth}"

    def options(self) -> dict[str, Any]:
        """The keyword arguments of :meth:`AsyncClient.best_move`."""
        return {"level": self.level, "skill": self.skill, "depth": self.depth}


def cell(index: int) -> int:
    """A cell as people number it: 1 to 9."""
    return index + 1


def line_text(line: Sequence[int]) -> str:
    """A line of three cells, such as ``1-2-3``."""
    return "-".join(str(cell(index)) for index in line)


class Quit(Exception):
    """The person asked to stop, or the input ended."""


def render_board(cells: str, numbered: bool = False) -> str:
    """The board as three text rows; empty cells show their number 1–9 when ``numbered``."""
    shown = [
        (str(index + 1) if numbered else " ") if mark == "." else mark for index, mark in enumerate(cells)
    ]
    rows = [" " + " | ".join(shown[row * 3 : row * 3 + 3]) for row in range(3)]
    return "\n---+---+---\n".join(rows)


def render_analysis(analysis: AnalysisResponse) -> str:
    """The board, its status, and a table of every move's value, best first."""
    lines = [render_board(analysis.board), ""]
    if analysis.player is None:
        winning = ", ".join(line_text(line) for line in analysis.winning_lines)
        winner = f", winning line {winning}" if winning else ""
        lines.append(f"Game over: {RESULT_WORDS[analysis.status.value]}{winner}.")
        return "\n".join(lines)
    lines.append(
        f"{analysis.player} to move: {analysis.outcome} with perfect play, "
        f"{analysis.plies_to_end} more move(s). Best play from here: "
        + " ".join(str(cell(index)) for index in analysis.principal_variation)
    )
    lines.append("")
    lines.append("cell  row  col  outcome  score  plies  traps  best  why")
    for move in analysis.moves:
        best = "*" if move.position in analysis.best_moves else " "
        lines.append(
            f"{cell(move.position):>4}  {cell(move.row):>3}  {cell(move.column):>3}  {move.outcome:<7}"
            f"  {move.score:>5}  {move.plies_to_end:>5}  {move.traps:>5}  {best:>4}  {move.reason}"
        )
    return "\n".join(lines)


def describe_move(move: BestMoveResponse) -> str:
    flag = "" if move.optimal else " (not optimal)"
    return (
        f"{move.player} plays cell {cell(move.position)} (row {cell(move.row)}, column {cell(move.column)})"
        f"{flag}: "
        f"{move.outcome} in {move.plies_to_end} move(s) with perfect play.\n"
        f"Why: {move.reason}\n"
        f"{render_board(move.board_after)}\nStatus: {move.status_after.value}"
    )


def make_client(url: str | None, timeout: float = 5.0) -> AsyncClient:
    """A client of the service at ``url``, or of the app run in-process."""
    if url:
        return AsyncClient(url, timeout=timeout)
    try:
        from .settings import Settings  # noqa: PLC0415 - only when running in-process
        from .web.app import create_app  # noqa: PLC0415
    except ImportError as error:
        raise SystemExit(
            f"error: {error.name} is not installed: give --url of a running service, "
            "or install the service with pip install 'tictactoe-service[server]'"
        ) from None

    app = create_app(Settings(log_level="warning"))  # a terminal game prints no access log
    return AsyncClient("http://tictactoe.local", transport=httpx.ASGITransport(app=app))


# --- prompts ---------------------------------------------------------------------------------------


def reader(stream: TextIO, out: TextIO) -> Ask:
    """Prompt on ``out`` and read a line from ``stream``; :class:`Quit` at the end of input."""

    def ask(prompt: str) -> str:
        out.write(prompt)
        out.flush()
        line = stream.readline()
        if not line:
            out.write("\n")
            raise Quit
        answer = line.strip()
        if answer.lower() in {"q", "quit", "exit"}:
            raise Quit
        return answer

    return ask


def ask_choice(ask: Ask, out: TextIO, prompt: str, choices: Sequence[str], default: str) -> str:
    """One of ``choices``, in any case; Enter for ``default``."""
    by_key = {choice.casefold(): choice for choice in choices}
    while True:
        answer = ask(f"{prompt} [{'/'.join(choices)}, Enter for {default}]: ") or default
        if answer.casefold() in by_key:
            return by_key[answer.casefold()]
        out.write(f"Please answer one of {', '.join(choices)}.\n")


def ask_move(ask: Ask, out: TextIO, cells: str) -> int:
    while True:
        answer = ask("Your move (1-9, q to quit): ")
        if answer.isdigit() and 1 <= int(answer) <= 9:
            cell = int(answer) - 1
            if cells[cell] == ".":
                return cell
            out.write(f"Cell {answer} is taken; choose an empty cell.\n")
        else:
            out.write("Please type a number from 1 to 9: 1 is top-left, 9 is bottom-right.\n")


# --- commands --------------------------------------------------------------------------------------


async def play(
    client: AsyncClient,
    ask: Ask,
    out: TextIO,
    *,
    side: str | None,
    first: str | None,
    engine: Engine | None,
) -> int:
    """A person against the engine (asked for its level when ``engine`` is ``None``); the exit status."""
    out.write("Tic-tac-toe against the engine. Type q to quit at any prompt.\n")
    try:
        person: Mark = "O" if (side or ask_choice(ask, out, "Play as", ["X", "O"], "X")) == "O" else "X"
        starter: Mark = "O" if (first or ask_choice(ask, out, "Who starts", ["X", "O"], "X")) == "O" else "X"
        if engine is None:
            engine = Engine(level=ask_choice(ask, out, "Engine level", LEVELS, Level.PERFECT.value))
        mark = opponent(person)
        out.write(f"You are {person}, the engine is {mark} ({engine}); {starter} starts.\n")
        cells, to_move, status = "." * 9, starter, "in_progress"
        while status == "in_progress":
            out.write("\n" + render_board(cells, numbered=True) + "\n")
            if to_move == person:
                chosen = ask_move(ask, out, cells)
                cells = cells[:chosen] + person + cells[chosen + 1 :]
                status = Board(cells).status.value
            else:
                move = await client.best_move(cells, mark, **engine.options())
                out.write(f"The engine plays {cell(move.position)}: {move.reason}\n")
                cells, status = move.board_after, move.status_after.value
            to_move = opponent(to_move)
        out.write("\n" + render_board(cells) + "\n")
        winner = {"x_won": "X", "o_won": "O"}.get(status)
        if winner is None:
            out.write("Draw.\n")
        else:
            verdict = "You win!" if winner == person else "The engine wins."
            out.write(f"{RESULT_WORDS[status]}. {verdict}\n")
        return 0
    except Quit:
        out.write("Bye.\n")
        return 0


async def selfplay(
    client: AsyncClient,
    out: TextIO,
    *,
    games: int,
    x: Engine,
    o: Engine,
    first: str,
    seed: int | None,
) -> int:
    """The engine against itself, each side at its own strength; prints the tally."""
    engines = {"X": x, "O": o}
    rng = random.Random(seed)
    tally: Counter[str] = Counter()
    for game in range(games):
        starter: Mark = (
            ("X" if game % 2 == 0 else "O") if first == "alternate" else ("O" if first == "O" else "X")
        )
        cells, to_move, status = "." * 9, starter, "in_progress"
        while status == "in_progress":
            options = engines[to_move].options()
            move = await client.best_move(cells, to_move, seed=rng.getrandbits(32), **options)
            cells, status = move.board_after, move.status_after.value
            to_move = opponent(to_move)
        tally[status] += 1
    out.write(
        f"{games} game(s), X {x}, O {o}: "
        f"X won {tally['x_won']}, O won {tally['o_won']}, drawn {tally['draw']}\n"
    )
    return 0


NumberT = TypeVar("NumberT", int, float)


def _number(
    text: str, kind: Callable[[str], NumberT], what: str, fits: Callable[[NumberT], bool], span: str
) -> NumberT:
    """``text`` read as ``kind``, or an argparse error saying what was expected."""
    try:
        number = kind(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None
    if not fits(number):
        raise argparse.ArgumentTypeError(f"{text} is not {span}")
    return number


def skill_value(text: str) -> float:
    """An engine skill: a number from 0 (a random player) to 1 (perfect play)."""
    return _number(text, float, "a number", lambda skill: 0.0 <= skill <= 1.0, "between 0 and 1")


DEPTH_HELP = "look only this many moves ahead, 1 to 9: 1 takes a win, 2 also blocks, 3 also forks"
LEVEL_HELP = "a difficulty level, weakest first (not with --skill or --depth)"


def depth_value(text: str) -> int:
    """How far the engine looks ahead: a whole number from 1 to 9."""
    return _number(text, int, "a whole number", lambda depth: 1 <= depth <= 9, "from 1 to 9")


def count_value(text: str) -> int:
    """A number of games: a whole number of at least 1."""
    return _number(text, int, "a whole number", lambda count: count >= 1, "1 or more")


def parser() -> argparse.ArgumentParser:
    formatter = argparse.RawDescriptionHelpFormatter
    main = argparse.ArgumentParser(prog="tictactoe", description=DESCRIPTION, formatter_class=formatter)
    main.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    main.add_argument("--url", help="the service to use, such as http://127.0.0.1:8000 (default: in-process)")
    main.add_argument(
        "--timeout", type=float, default=5.0, help="seconds to wait for each answer (default: %(default)s)"
    )
    commands = main.add_subparsers(dest="command", required=True, metavar="COMMAND")

    serve = commands.add_parser("serve", help="run the service (as python -m service)")
    serve.add_argument("--host", help="address to listen on (default: TICTACTOE_HOST, or 127.0.0.1)")
    serve.add_argument(
        "--port", type=int, help="TCP port, 0 for any free one (default: TICTACTOE_PORT, or 8000)"
    )

    board_help = "the board: 9 characters, X or O for a mark and . for an empty cell, such as X.O...X.."
    player_help = "the side to move, needed only when both sides have as many marks (default: X)"
    best = commands.add_parser("best-move", help="the move to play on a board, its value and why")
    best.add_argument("board", metavar="BOARD", help=board_help)
    best.add_argument("--player", choices=["X", "O"], help=player_help)
    best.add_argument(
        "--skill", type=skill_value, help="engine skill from 0 (random) to 1 (perfect, the default)"
    )
    best.add_argument(
        "--random", action="store_true", default=None, help="break ties between optimal moves at random"
    )
    best.add_argument("--seed", type=int, help="makes the random choices reproducible")
    best.add_argument("--depth", type=depth_value, help=DEPTH_HELP)
    best.add_argument("--level", choices=LEVELS, help=LEVEL_HELP)

    analyze = commands.add_parser("analyze", help="every move's value on a board")
    analyze.add_argument("board", metavar="BOARD", help=board_help)
    analyze.add_argument("--player", choices=["X", "O"], help=player_help)

    game = commands.add_parser("play", help="play against the engine")
    game.add_argument("--side", choices=["X", "O"], help="your side (asked when absent)")
    game.add_argument("--first", choices=["X", "O"], help="who starts (asked when absent)")
    game.add_argument("--level", choices=LEVELS, help=f"{LEVEL_HELP} (asked when no strength is given)")
    game.add_argument("--skill", type=skill_value, help="engine skill from 0 (random) to 1 (perfect)")
    game.add_argument("--depth", type=depth_value, help=f"the engine's depth: {DEPTH_HELP}")

    auto = commands.add_parser("selfplay", help="the engine against itself, with a tally of the results")
    auto.add_argument("--games", type=count_value, default=10, help="how many games (default: %(default)s)")
    for side in ("x", "o"):
        mark = side.upper()
        auto.add_argument(f"--{side}-level", choices=LEVELS, help=f"{mark}'s level (default: perfect play)")
        auto.add_argument(
            f"--{side}-skill", type=skill_value, help=f"{mark}'s skill from 0 to 1 (default: 1)"
        )
        auto.add_argument(f"--{side}-depth", type=depth_value, help=f"how far {mark} looks ahead, 1 to 9")
    auto.add_argument(
        "--first",
        choices=["X", "O", "alternate"],
        default="alternate",
        help="who starts (default: alternate)",
    )
    auto.add_argument("--seed", type=int, help="makes the games reproducible")

    document = commands.add_parser("openapi", help="write the OpenAPI document of the service")
    document.add_argument(
        "output", nargs="?", default="openapi/openapi.json", help="where to write it (default: %(default)s)"
    )
    return main


def problem_text(error: ServiceError) -> str:
    """What the service refused, named by the command-line option at fault."""
    problem = error.problem
    if not problem.errors:
        return problem.detail
    parts = []
    for item in problem.errors:
        fields = [str(part) for part in item.loc[1:] if not isinstance(part, int)]
        option = OPTIONS.get(fields[0], fields[0]) if fields else "the request"
        parts.append(f"{option}: {item.msg}")
    return "; ".join(parts)


async def run(args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    async with make_client(args.url, args.timeout) as client:
        if args.command == "best-move":
            move = await client.best_move(
                args.board,
                args.player,
                skill=args.skill,
                random=args.random,
                seed=args.seed,
                depth=args.depth,
                level=args.level,
            )
            out.write(describe_move(move) + "\n")
            return 0
        if args.command == "analyze":
            out.write(render_analysis(await client.analyze(args.board, args.player)) + "\n")
            return 0
        if args.command == "play":
            ask = reader(stdin, out)
            given = Engine(args.level, args.skill, args.depth)
            engine = None if given == Engine() else given
            return await play(client, ask, out, side=args.side, first=args.first, engine=engine)
        x = Engine(args.x_level, args.x_skill, args.x_depth)
        o = Engine(args.o_level, args.o_skill, args.o_depth)
        return await selfplay(client, out, games=args.games, x=x, o=o, first=args.first, seed=args.seed)


def write_openapi(output: str) -> int:
    """Write the OpenAPI document the app serves to ``output``."""
    from .settings import Settings  # noqa: PLC0415 - needs the server's packages
    from .web.app import create_app  # noqa: PLC0415
    from .web.openapi import render  # noqa: PLC0415

    target = Path(output)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(render(create_app(Settings(log_level="warning"))), encoding="utf-8")
    print(f"wrote {target}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    command_line = parser()
    args = command_line.parse_args(argv)
    for prefix in ("", "x_", "o_"):
        strength = [vars(args).get(prefix + name) for name in ("level", "skill", "depth")]
        if strength[0] is not None and any(value is not None for value in strength[1:]):
            option = "--" + prefix.replace("_", "-")
            command_line.error(
                f"{option}level stands for a skill and a depth: "
                f"give it alone, or {option}skill and {option}depth"
            )
    if args.command == "openapi":
        return write_openapi(args.output)
    if args.command == "serve":
        from .__main__ import main as serve  # noqa: PLC0415 - starts uvicorn

        serve(
            [
                *(["--host", args.host] if args.host else []),
                *(["--port", str(args.port)] if args.port is not None else []),
            ]
        )
        return 0
    try:
        return asyncio.run(run(args, sys.stdin, sys.stdout))
    except ServiceError as error:
        sys.stderr.write(f"error: {problem_text(error)}\n")
        return 1
    except httpx.TransportError as error:
        sys.stderr.write(f"error: cannot reach the service at {args.url}: {error}\n")
        return 1
    except KeyboardInterrupt:
        sys.stderr.write("\n")
        return 130
    except BrokenPipeError:
        # The reader went away (| head): stop quietly, and keep Python from complaining again
        # when it flushes stdout at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    sys.exit(main())
