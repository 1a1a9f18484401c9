"""``tictactoe``: the engine in a terminal, through this client.

Commands: ``best-move BOARD``, ``analyze BOARD``, ``play`` (a person against the
engine), ``selfplay`` (the engine against itself), ``review CELL...`` (a game
judged move by move) and ``puzzle`` (find the only move, puzzle after puzzle);
:data:`COMMANDS` lists them, each with its options and what it runs. They talk
to the service at ``--url`` (or ``TICTACTOE_URL``). Without either, they run the
service in this process when it is installed (``tictactoe-service[server]``,
found through the entry point :data:`APP_ENTRY_POINT`), so that no server is
needed; otherwise they say so in one line. ``--url``, ``--timeout`` and ``--lang`` may
be given anywhere on the line, before the command or after it.

The engine's sentences (a move's reason, a variant's name and rules) come in the
language of ``--lang``, a BCP 47 tag; without it, in the language of the locale, as
a POSIX program finds it: the first of ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` that
is set and not empty, a locale name such as ``es_ES.UTF-8`` read as ``es-ES``
(:func:`locale_language`); ``C`` and ``POSIX`` ask for none (the service's default,
English). The terminal's own words (prompts, labels, its errors) are in the same language, from this
package's own catalogue (:mod:`._words`); the command line's help and its usage errors are argparse's,
in English.

The terminal speaks to people: every command numbers cells 1 to 9, row by row
from the top-left, and rows and columns 1 to 3 (the API's indexes plus one); a
4 × 4 board's cells 1 to 16, and Notakto's boards, side by side, 1 to 18 or 27
(board 2 starts at 10). A wild move on the command line is its cell and the mark
placed, such as ``5X``.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import random
import re
import signal
import sys
import threading
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from importlib.metadata import entry_points
from types import FrameType
from typing import TextIO, TypeVar

import httpx
import pydantic

from ._base import URL_VARIABLE
from ._client import AsyncClient
from ._errors import ServiceError
from ._models import (
    AnalysisResponse,
    BestMoveResponse,
    Puzzle,
    Rating,
    ReviewResponse,
    SideReview,
    Sides,
    VariantInfo,
)
from ._models import Level as LevelName
from ._types import Mark, Player, ReviewMove, Theme, Variant
from ._version import __version__
from ._words import NP_, _, decimal, ngettext, npgettext, pgettext, speaking

Ask = Callable[[str], str]

#: The entry point through which an installed service offers its app to run in this process: a
#: function of no arguments that returns the ASGI app, quiet (no access log).
APP_ENTRY_POINT = ("tictactoe.apps", "in-process")

#: How a finished game ended, in words (said with ``pgettext(*RESULT_WORDS[status])``).
RESULT_WORDS = {
    "x_won": NP_("result", "X wins"),
    "o_won": NP_("result", "O wins"),
    "first_won": NP_("result", "The first player wins"),
    "second_won": NP_("result", "The second player wins"),
    "draw": NP_("result", "Draw"),
}


def result_words(status: str) -> str:
    """How a finished game ended, as a sentence begins (``status`` is the API's)."""
    return pgettext(*RESULT_WORDS[status])


#: The API's values of an outcome, a level and a judgement, in words.
OUTCOME_WORDS = {"win": NP_("outcome", "win"), "draw": NP_("outcome", "draw"), "loss": NP_("outcome", "loss")}
LEVEL_WORDS = {
    "random": NP_("level", "random"),
    "beginner": NP_("level", "beginner"),
    "easy": NP_("level", "easy"),
    "medium": NP_("level", "medium"),
    "hard": NP_("level", "hard"),
    "perfect": NP_("level", "perfect"),
}
JUDGEMENT_WORDS = {
    "best": NP_("judgement", "best"),
    "inaccuracy": NP_("judgement", "inaccuracy"),
    "mistake": NP_("judgement", "mistake"),
    "blunder": NP_("judgement", "blunder"),
}


def word(words: Mapping[str, tuple[str, str]], value: str) -> str:
    """One of the API's values in words (the value itself if it is new to this client)."""
    marked = words.get(value)
    return value if marked is None else pgettext(*marked)


DESCRIPTION = """\
The tic-tac-toe engine in a terminal. The commands talk to the service at --url (or
TICTACTOE_URL); without either, the service runs in this process when it is installed
(pip install 'tictactoe-service[server]'), so no server is needed. --url, --timeout and
--lang may come before the command or after it.

The engine's sentences (why a move, a variant's rules) are in the language of --lang, else
of the locale (LC_ALL, LC_MESSAGES or LANG, such as es_ES.UTF-8), else English.

Cells are numbered 1 to 9, row by row from the top-left:

   1 | 2 | 3
  ---+---+---
   4 | 5 | 6
  ---+---+---
   7 | 8 | 9

A board is 9 characters, one per cell in that order: X or O for a mark, and . - _ or a
space for an empty cell, such as X.O...X.. With --variant, a 4x4 board's cells are 1 to
16 and Notakto's boards, side by side, 1 to 18 or 27 (board 2 starts at 10), and a
board string has a character for each.
"""

#: The command-line option of each field of a request body, for error messages.
OPTIONS = {
    "board": "BOARD",
    "player": "--player",
    "variant": "--variant",
    "skill": "--skill",
    "random": "--random",
    "seed": "--seed",
    "depth": "--depth",
    "level": "--level",
    "rating": "--rating",
    "moves": "CELL",
    "theme": "--theme",
    "min_rating": "--min-rating",
    "max_rating": "--max-rating",
    "lang": "--lang",
}
#: The difficulty levels, weakest first (the API's, checked by mypy against the client's type).
LEVELS: tuple[LevelName, ...] = ("beginner", "easy", "medium", "hard", "perfect")
MARKS: tuple[Mark, ...] = ("X", "O")
#: The rule variants (the API's, checked by mypy against the client's type), and those whose sides
#: are the first and the second player rather than marks: wild, where each move places X or O, and
#: Notakto, where both place X.
VARIANTS: tuple[Variant, ...] = (
    "standard",
    "misere",
    "wild",
    "notakto",
    "notakto-2",
    "notakto-3",
    "4x4",
    "4x4-3",
)
SIDES: tuple[Player, ...] = ("first", "second")
PLAYERS: tuple[Player, ...] = (*MARKS, *SIDES)
VARIANT_HELP = "the rules (standard by default): " + ", ".join(VARIANTS)
#: The bounds of ``rating``, as the API's document gives them: the highest is perfect play's rating in
#: the variant rated highest. Each variant's own bound, its ``rating_max`` in ``GET /v1/variants``, is
#: checked before anything is played (:func:`strength_fault`).
RATING_SCHEMA = pydantic.TypeAdapter(Rating).json_schema()
MAX_RATING = float(RATING_SCHEMA["maximum"])
#: The puzzles' themes in every variant (the API's, checked by mypy against the client's type); each
#: variant has some of them, its ``tactics`` in ``GET /v1/variants`` that are themes.
THEMES: tuple[Theme, ...] = (
    "win",
    "block",
    "fork",
    "threat",
    "block_fork",
    "lose",
    "squeeze",
    "avoid",
    "gift",
    "live",
    "kill",
    "hand_over",
)


@dataclass(frozen=True)
class Engine:
    """How strong the engine plays: a level, a rating, or a skill and perhaps a depth (perfect by default)."""

    level: LevelName | None = None
    skill: float | None = None
    depth: int | None = None
    rating: float | None = None

    def __str__(self) -> str:
        if self.level is not None:
            return _("level {level}").format(level=word(LEVEL_WORDS, self.level))
        if self.rating is not None:
            return _("rating {rating}").format(rating=decimal(self.rating))
        skill = decimal(1.0 if self.skill is None else self.skill)
        if self.depth is None:
            return _("skill {skill}").format(skill=skill)
        return _("skill {skill}, depth {depth}").format(skill=skill, depth=self.depth)

    async def move(
        self,
        client: AsyncClient,
        cells: str,
        mark: Player,
        seed: int | None = None,
        variant: Variant | None = None,
    ) -> BestMoveResponse:
        """The engine's move as ``mark`` (or side) on ``cells``."""
        return await client.best_move(
            cells,
            mark,
            variant=variant,
            level=self.level,
            skill=self.skill,
            depth=self.depth,
            rating=self.rating,
            seed=seed,
        )


def opponent(mark: Mark) -> Mark:
    """The other side."""
    return "O" if mark == "X" else "X"


#: The other side, by marks or, in wild and Notakto, by order.
OTHER: dict[Player, Player] = {"X": "O", "O": "X", "first": "second", "second": "first"}


def cell(index: int) -> int:
    """A cell as people number it: 1 to 9."""
    return index + 1


def line_text(line: Sequence[int]) -> str:
    """A line of three cells, such as ``1-2-3``."""
    return "-".join(str(cell(index)) for index in line)


class Quit(Exception):
    """The person asked to stop, or the input ended."""


class InputError(Exception):
    """Input the service refused, said in the terminal's words (exit status 1, as every refusal)."""


def error_line(message: str) -> str:
    """An error as the terminal reports it, on a line of its own."""
    # TRANSLATORS: How the terminal game reports an error: {message} says what went wrong.
    return _("error: {message}").format(message=message)


def capitalised(text: str) -> str:
    """``text`` as a sentence begins."""
    return text[:1].upper() + text[1:]


def render_board(cells: str, numbered: bool = False) -> str:
    """The board as text rows; empty cells show their number (1 to the number of cells) when
    ``numbered``. A board of 16 cells is 4 × 4; of 18 or 27, Notakto's 3 × 3 boards side by side."""
    size = 4 if len(cells) == 16 else 3
    boards = max(len(cells) // 9, 1) if size == 3 else 1
    width = len(str(len(cells))) if numbered else 1
    shown = [
        (str(index + 1) if numbered else " ") if mark == "." else mark for index, mark in enumerate(cells)
    ]
    shown = [text.center(width) for text in shown]

    def row(board: int, line: int) -> str:
        start = board * size * size + line * size
        return " " + " | ".join(shown[start : start + size]) + " "

    rule = "+".join(["-" * (width + 2)] * size)
    gap = "    "
    lines: list[str] = []
    for line in range(size):
        if line:
            lines.append(gap.join([rule] * boards).rstrip())
        lines.append(gap.join(row(board, line) for board in range(boards)).rstrip())
    return "\n".join(lines)


#: The columns of :func:`render_analysis`'s table, and whether each is aligned to the right.
ANALYSIS_COLUMNS = (
    (NP_("column", "cell"), True),
    (NP_("column", "row"), True),
    (NP_("column", "col"), True),
    (NP_("column", "outcome"), False),
    (NP_("column", "score"), True),
    (NP_("column", "plies"), True),
    (NP_("column", "traps"), True),
    (NP_("column", "best"), True),
    (NP_("column", "why"), False),
)


def table(rows: Sequence[Sequence[str]], right: Sequence[bool]) -> list[str]:
    """Rows of cells as lines, each column as wide as its widest cell, two spaces between."""
    widths = [max(len(row[column]) for row in rows) for column in range(len(right))]
    return [
        "  ".join(
            text.rjust(width) if to_right else text.ljust(width)
            for text, width, to_right in zip(row, widths, right, strict=True)
        ).rstrip()
        for row in rows
    ]


def outlook(outcome: str, player: Player, count: int) -> str:
    """What perfect play makes of a game for ``player`` (``outcome``, the API's, is theirs), ``count``
    moves from its end."""
    side = capitalised(side_name(player))
    # TRANSLATORS: {side} is a mark (X, O), or "the first player" or "the second player"; {count} the
    # moves left to the game's end, both sides' together.
    if outcome == "win":
        said = npgettext(
            "outlook",
            "{side} wins with perfect play, in {count} more move.",
            "{side} wins with perfect play, in {count} more moves.",
            count,
        )
    elif outcome == "loss":
        said = npgettext(
            "outlook",
            "{side} loses with perfect play, in {count} more move.",
            "{side} loses with perfect play, in {count} more moves.",
            count,
        )
    else:
        said = npgettext(
            "outlook",
            "The game is a draw with perfect play, in {count} more move.",
            "The game is a draw with perfect play, in {count} more moves.",
            count,
        )
    return said.format(side=side, count=count)


def render_analysis(analysis: AnalysisResponse) -> str:
    """The board, its status, and a table of every move's value, best first."""
    lines = [render_board(analysis.board), ""]
    if analysis.player is None or analysis.outcome is None or analysis.plies_to_end is None:
        winning = ", ".join(line_text(line) for line in analysis.winning_lines)
        result = result_words(analysis.status)
        if winning:
            lines.append(
                ngettext(
                    "Game over: {result}, winning line {lines}.",
                    "Game over: {result}, winning lines {lines}.",
                    len(analysis.winning_lines),
                ).format(result=result, lines=winning)
            )
        else:
            lines.append(_("Game over: {result}.").format(result=result))
        return "\n".join(lines)
    lines.append(
        # TRANSLATORS: {side} is a mark (X, O), or "the first player" or "the second player".
        _("{side} is to move.").format(side=capitalised(side_name(analysis.player)))
        + " "
        + outlook(analysis.outcome, analysis.player, analysis.plies_to_end)
        + " "
        + _("Best play from here: {cells}.").format(
            cells=" ".join(str(cell(index)) for index in analysis.principal_variation)
        )
    )
    lines.append("")
    rows = [[pgettext(*label) for label, _right in ANALYSIS_COLUMNS]]
    for move in analysis.moves:
        best = "*" if move.position in analysis.best_moves else ""
        rows.append(
            [
                str(cell(move.position)),
                str(cell(move.row)),
                str(cell(move.column)),
                word(OUTCOME_WORDS, move.outcome),
                str(move.score),
                str(move.plies_to_end),
                str(move.traps),
                best,
                move.reason,
            ]
        )
    lines += table(rows, [right for _label, right in ANALYSIS_COLUMNS])
    return "\n".join(lines)


def rules_text(info: VariantInfo) -> str:
    """A variant's name and rules, a line in the service's words (in the language asked for)."""
    # TRANSLATORS: A variant's name, as "Wild tic-tac-toe", then its rules, a whole sentence from the
    # service that begins with a capital.
    return _("{variant}: {rules}").format(variant=info.name, rules=info.rules) + "\n"


def where(move: BestMoveResponse) -> str:
    """Where a move goes: its cell, its row and column, and its board among several."""
    numbers = {"cell": cell(move.position), "row": cell(move.row), "column": cell(move.column)}
    if move.grid is None:
        return _("cell {cell} (row {row}, column {column})").format(**numbers)
    return _("cell {cell} (board {board}, row {row}, column {column})").format(
        board=cell(move.grid), **numbers
    )


def describe_move(move: BestMoveResponse) -> str:
    """A move, its value and why, and the board after it."""
    values = {"side": capitalised(side_name(move.player)), "where": where(move), "mark": move.mark}
    if move.mark is None:
        # TRANSLATORS: {side} is a mark (X, O), or "the first player" or "the second player"; {where}
        # a cell, as "cell 5 (row 2, column 2)".
        played = _("{side} plays {where}.").format(**values)
    else:
        # TRANSLATORS: {mark} is the mark placed, X or O.
        played = _("{side} plays {mark} in {where}.").format(**values)
    if not move.optimal:
        played += " " + _("It is not the best move.")
    lines = [
        played,
        outlook(move.outcome, move.player, move.plies_to_end)
        if move.status_after == "in_progress"
        else f"{result_words(move.status_after)}.",
        _("Why: {reason}").format(reason=move.reason),
        render_board(move.board_after),
    ]
    return "\n".join(lines)


def count_text(count: int, judgement: str) -> str:
    """How many moves were judged so, in words."""
    if judgement == "best":
        said = npgettext("judgement", "{count} best", "{count} best", count)
    elif judgement == "inaccuracy":
        said = npgettext("judgement", "{count} inaccuracy", "{count} inaccuracies", count)
    elif judgement == "mistake":
        said = npgettext("judgement", "{count} mistake", "{count} mistakes", count)
    else:
        said = npgettext("judgement", "{count} blunder", "{count} blunders", count)
    return said.format(count=count)


#: The sides that are not marks, in words.
SIDE_WORDS = {"first": NP_("side", "the first player"), "second": NP_("side", "the second player")}


def side_name(player: Player) -> str:
    """A side in a sentence: its mark, or in wild and Notakto "the first player" or "the second player"."""
    return player if player in MARKS else pgettext(*SIDE_WORDS[player])


def result_text(status: str, to_move: Player) -> str:
    """How a game stands at its last board: its result, or whose turn it is."""
    if status == "in_progress":
        # TRANSLATORS: {side} is a mark (X, O), or "the first player" or "the second player".
        return _("The game goes on: {side} to move.").format(side=side_name(to_move))
    return f"{result_words(status)}."


def side_summary(mark: Player, side: SideReview) -> str:
    """One side's part of a review: its moves, their judgements, and the strength they show."""
    who = capitalised(side_name(mark))
    if side.moves == 0:
        # TRANSLATORS: {side} is a mark (X, O), or "the first player" or "the second player".
        return _("{side}: no moves.").format(side=who)
    counts = side.judgements
    judged = ", ".join(
        count_text(number, name)
        for name, number in (
            ("best", counts.best),
            ("inaccuracy", counts.inaccuracy),
            ("mistake", counts.mistake),
            ("blunder", counts.blunder),
        )
    )
    # TRANSLATORS: An accuracy, as "87.5%"; {number} is written with the language's decimal separator.
    accuracy = "-" if side.accuracy is None else _("{number}%").format(number=decimal(side.accuracy, 1))
    only = ngettext("{count} only move found", "{count} only moves found", side.only_moves).format(
        count=side.only_moves
    )
    # A rating only where the variant's levels are calibrated (``rated`` in GET /v1/variants).
    level = "-" if side.level is None else word(LEVEL_WORDS, side.level)
    strength = level if side.rating is None else f"{level} (≈ {decimal(side.rating)})"
    # TRANSLATORS: {judged} lists how many moves were judged each way, as "3 best, 1 mistake".
    moves = ngettext("{side}: {count} move: {judged}.", "{side}: {count} moves: {judged}.", side.moves)
    return (
        moves.format(side=who, count=side.moves, judged=judged)
        + "\n   "
        # TRANSLATORS: {accuracy} is a percentage, {only} as "2 only moves found", {strength} a level.
        + _("Accuracy {accuracy}, {only}, played like: {strength}.").format(
            accuracy=accuracy, only=only, strength=strength
        )
    )


def move_text(position: int, mark: str | None) -> str:
    """A move as people name it: its cell (1 to the number of cells), and in wild the mark, as ``X in 5``."""
    # TRANSLATORS: A move of wild tic-tac-toe: the mark placed (X or O) and the number of its cell.
    return (
        str(cell(position)) if mark is None else _("{mark} in {cell}").format(mark=mark, cell=cell(position))
    )


def verdict(judgement: str, only_move: bool) -> str:
    """A move's judgement in words, and whether it was the only move."""
    said = word(JUDGEMENT_WORDS, judgement)
    # TRANSLATORS: {judgement} is a move's judgement: best, inaccuracy, mistake or blunder.
    return _("{judgement}, the only move").format(judgement=said) if only_move else said


def render_review(review: ReviewResponse, variant: VariantInfo | None = None) -> str:
    """Every move with its judgement (and the better move when it was not best), then each side.
    Boards of any variant: a 4 × 4 board, or Notakto's boards side by side, with their cells'
    numbers; in wild each move with its mark. ``variant``, when given (not the service's default
    variant, which goes without saying), is named in the title."""
    # TRANSLATORS: {variant} is a variant's name, such as "Wild tic-tac-toe".
    game = _("The game") if variant is None else _("The game of {variant}").format(variant=variant.name)
    if review.player in MARKS:
        # TRANSLATORS: Who moves first in a game: X or O.
        starts = _("{mark} first").format(mark=review.player)
    else:
        starts = _("{side} to move").format(side=side_name(review.player))
    if set(review.board) == {"."}:
        # TRANSLATORS: {game} is "The game" or "The game of" a variant; {starts} as "X first".
        lines = [_("{game} from the empty board, {starts}:").format(game=game, starts=starts), ""]
    else:
        lines = [
            _("{game} from this board, {starts}:").format(game=game, starts=starts),
            "",
            render_board(review.board, numbered=True),
            "",
        ]
    for ply in review.plies:
        lines.append(
            # TRANSLATORS: A line of a review: the move's number in the game, its side (a mark, or "the
            # first player"), the move ({move}: a cell's number, or in wild as "X in 5"), its judgement
            # and why.
            _("{number}. {side} plays {move}: {judgement}. {reason}").format(
                number=f"{ply.ply:>2}",
                side=capitalised(side_name(ply.player)),
                move=move_text(ply.position, ply.mark),
                judgement=verdict(ply.judgement, ply.only_move),
                reason=ply.reason,
            )
        )
        if ply.better is not None:
            lines.append(
                "    "
                + _("Better: {move}. {reason}").format(
                    move=move_text(ply.better.position, ply.better.mark), reason=ply.better.reason
                )
            )
    last = review.plies[-1]
    lines += ["", render_board(last.board_after, numbered=True), ""]
    lines.append(result_text(review.status, OTHER[last.player]))
    lines.append("")
    players = review.players
    if isinstance(players, Sides):
        lines += [side_summary("X", players.X), side_summary("O", players.O)]
    else:
        lines += [side_summary("first", players.first), side_summary("second", players.second)]
    return "\n".join(lines)


def make_client(url: str | None, timeout: float = 5.0, lang: str | None = None) -> AsyncClient:
    """A client of the service at ``url``, or of the installed service's app run in this process,
    asking for the engine's sentences in ``lang`` (``None``: the service's default language)."""
    if url:
        return AsyncClient(url, timeout=timeout, lang=lang)
    group, name = APP_ENTRY_POINT
    found = entry_points(group=group, name=name)
    install = "pip install 'tictactoe-service[server]'"
    if not found:
        # TRANSLATORS: {install} is the command that installs the service.
        needs = _(
            "no service to talk to: give --url (or TICTACTOE_URL) of a running service, or install it "
            "to run here: {install}"
        )
        raise SystemExit(error_line(needs.format(install=install)))
    try:
        app = next(iter(found)).load()()
    except ModuleNotFoundError as error:
        # TRANSLATORS: {module} is a Python package's name; {install} the command that installs it.
        missing = _("the service needs {module}, which is not installed: {install}")
        raise SystemExit(error_line(missing.format(module=error.name, install=install))) from None
    return AsyncClient("http://tictactoe.local", lang=lang, transport=httpx.ASGITransport(app=app))


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


ChoiceT = TypeVar("ChoiceT", bound=str)

#: The answers to a question of yes or no, in words: what a person types.
YES_NO = {"y": NP_("answer", "y"), "n": NP_("answer", "n")}
#: The order of a person's moves in wild and Notakto, in words: what a person types.
ORDER_WORDS = {"first": NP_("order", "first"), "second": NP_("order", "second")}


def ask_choice(
    ask: Ask,
    out: TextIO,
    prompt: str,
    choices: Sequence[ChoiceT],
    default: ChoiceT,
    *,
    words: Mapping[str, tuple[str, str]] | None = None,
) -> ChoiceT:
    """One of ``choices``, typed in any case as ``words`` say it (or as the choice itself is
    written); Enter for ``default``."""
    shown = {choice: word(words or {}, choice) for choice in choices}
    by_key = {choice.casefold(): choice for choice in choices}
    by_key |= {said.casefold(): choice for choice, said in shown.items()}
    while True:
        # TRANSLATORS: A question ({prompt}) and its answers: {choices} as "X/O", {default} the answer
        # that Enter gives.
        question = _("{prompt} [{choices}, Enter for {default}]: ").format(
            prompt=prompt, choices="/".join(shown.values()), default=shown[default]
        )
        answer = ask(question)
        if not answer:
            return default
        if answer.casefold() in by_key:
            return by_key[answer.casefold()]
        # TRANSLATORS: {choices} lists the answers, as "X, O".
        out.write(_("Please answer one of {choices}.").format(choices=", ".join(shown.values())) + "\n")


def ask_move(ask: Ask, out: TextIO, cells: str) -> int:
    """The empty cell a person chooses, by its number (1 to the number of cells)."""
    last = len(cells)
    while True:
        answer = ask(_("Your move (1-{last}, q to quit): ").format(last=last))
        if answer.isdigit() and 1 <= int(answer) <= last:
            cell = int(answer) - 1
            if cells[cell] == ".":
                return cell
            out.write(_("Cell {cell} is taken; choose an empty cell.").format(cell=answer) + "\n")
        elif last == 9:
            out.write(_("Please type a number from 1 to 9: 1 is top-left, 9 is bottom-right.") + "\n")
        else:
            out.write(
                _("Please type a number from 1 to {last}, as the board shows them.").format(last=last) + "\n"
            )


# --- commands --------------------------------------------------------------------------------------


async def variants_of(client: AsyncClient) -> dict[str, VariantInfo]:
    """Every variant the service plays, by its id, in its order (``GET /v1/variants``): the first is
    its default variant, the one a request without ``variant`` plays (:func:`default_variant`)."""
    return {info.id: info for info in await client.variants()}


def default_variant(variants: Mapping[str, VariantInfo]) -> Variant:
    """The service's default variant: the first it lists, the rules of a request without ``variant``."""
    return next(iter(variants.values())).id


def board_cells(info: VariantInfo) -> int:
    """The cells of a variant's board (of all its boards): the most plies a game of it lasts."""
    return info.rows * info.columns * info.boards


def by_sides(info: VariantInfo) -> bool:
    """Whether a variant's sides are the first and the second player rather than marks: where a move
    places either mark (wild), or only X (Notakto)."""
    return info.marks != "own"


def not_played(variants: Mapping[str, VariantInfo], variant: Variant) -> str:
    """That the service does not play ``variant``, and what it plays."""
    return _("the service does not play {variant} (it plays {variants})").format(
        variant=variant, variants=", ".join(variants)
    )


def strength_fault(
    variants: Mapping[str, VariantInfo], variant: Variant, engine: Engine, option: str = "--"
) -> str | None:
    """Why the service would refuse ``engine`` in ``variant``, in the API's words, the options named
    as on the command line (``option`` their prefix, such as ``--x-``), or ``None``: a depth beyond
    the variant's cells, a rating in a variant that is not rated, or one above perfect play's rating
    on the variant's own scale (``rating_max`` in ``GET /v1/variants``)."""
    info = variants.get(variant)
    if info is None:
        return not_played(variants, variant)
    cells = board_cells(info)
    if engine.depth is not None and engine.depth > cells:
        # TRANSLATORS: {option} is a command-line option, such as --depth; {cells} a number.
        return _("{option}: Input should be less than or equal to {cells}").format(
            option=f"{option}depth", cells=cells
        )
    if engine.rating is not None and not info.rated:
        rated = [name for name, other in variants.items() if other.rated]
        # TRANSLATORS: {option} is the prefix of the command-line options, such as -- or --x-; {variant}
        # a variant's id, as --variant takes it; {rated} lists the ids of the variants that are calibrated.
        fault = _(
            "{option}rating: rating is on a calibrated variant's scale, and {variant} is not calibrated "
            "(calibrated: {rated}): use {option}level, {option}depth or {option}skill"
        )
        return fault.format(option=option, variant=variant, rated=", ".join(rated) or "-")
    top = info.rating_max
    if engine.rating is not None and top is not None and engine.rating > top:
        # TRANSLATORS: {option} is a command-line option; {top} a rating; {variant} a variant's id.
        fault = _("{option}: Input should be less than or equal to {top}, perfect play's rating in {variant}")
        return fault.format(option=f"{option}rating", top=top, variant=variant)
    return None


def refuse_strengths(
    variants: Mapping[str, VariantInfo], variant: Variant, engines: Mapping[str, Engine]
) -> None:
    """:class:`InputError` for the first engine (by its options' prefix) that ``variant`` cannot play."""
    for option, engine in engines.items():
        fault = strength_fault(variants, variant, engine, option)
        if fault is not None:
            raise InputError(fault)


def bounded(engines: Mapping[str, Engine]) -> bool:
    """Whether any of ``engines`` has a depth or a rating, whose bounds depend on the variant."""
    return any(engine.depth is not None or engine.rating is not None for engine in engines.values())


def dead_board(info: VariantInfo, cells: str, index: int) -> bool:
    """Whether cell ``index`` is on a board, one of several, that has a line, and so takes no more
    moves (a single board with a line ends the game). A line is ``info.line`` cells of one mark in a
    row, column or diagonal."""
    if info.boards == 1:
        return False
    size = info.rows * info.columns
    start = index - index % size
    board = [cells[start + row * info.columns : start + (row + 1) * info.columns] for row in range(info.rows)]
    steps = ((0, 1), (1, 0), (1, 1), (1, -1))
    for row in range(info.rows):
        for column in range(info.columns):
            for down, across in steps:
                ends = (row + down * (info.line - 1), column + across * (info.line - 1))
                if not (0 <= ends[0] < info.rows and 0 <= ends[1] < info.columns):
                    continue
                run = {board[row + down * step][column + across * step] for step in range(info.line)}
                if len(run) == 1 and run != {"."}:
                    return True
    return False


def ask_placed(ask: Ask, out: TextIO, info: VariantInfo, side: Player) -> Mark:
    """The mark a person's move places: asked where a move places either (wild), X where only X is
    placed (Notakto), else the side's own."""
    if info.marks == "either":
        return ask_choice(ask, out, pgettext("question", "Which mark"), MARKS, "X")
    if info.marks == "x_only" or side not in MARKS:
        return "X"
    return "X" if side == "X" else "O"


def ask_legal_move(ask: Ask, out: TextIO, info: VariantInfo, cells: str) -> int:
    """The cell of a person's move: an empty one (asked again when taken), and not on a dead board
    (one of several with a line)."""
    while True:
        chosen = ask_move(ask, out, cells)
        if not dead_board(info, cells, chosen):
            return chosen
        dead = _("Cell {cell} is on a dead board, one with a line; choose a live board.")
        out.write(dead.format(cell=cell(chosen)) + "\n")


def engine_played(move: BestMoveResponse) -> str:
    """The engine's move and why, as it plays it against a person."""
    if move.mark is None:
        played = _("The engine plays {cell}: {reason}")
    else:
        # TRANSLATORS: {mark} is the mark the engine places, X or O, and {cell} the cell's number.
        played = _("The engine plays {mark} in {cell}: {reason}")
    return played.format(mark=move.mark, cell=cell(move.position), reason=move.reason)


def introduction(person: Player, engine: Engine, info: VariantInfo, starter: Player) -> str:
    """Who is who in a game of a person against the engine."""
    if not by_sides(info):
        # TRANSLATORS: {person} and {engine} are marks, X or O; {strength} as "level perfect"; {starter}
        # the mark that starts.
        said = _("You are {person}, the engine is {engine} ({strength}); {starter} starts.")
    elif person == "first":
        said = _("You move first, the engine second ({strength}).")
    else:
        said = _("You move second, the engine first ({strength}).")
    return said.format(person=person, engine=OTHER[person], strength=engine, starter=starter)


async def play_game(
    client: AsyncClient,
    ask: Ask,
    out: TextIO,
    *,
    person: Player,
    starter: Player,
    engine: Engine,
    info: VariantInfo,
    named: Variant | None = None,
) -> str:
    """One game of a person against the engine in the variant ``info``; its final status. Where the
    sides are the first and the second player (:func:`by_sides`), ``person`` and ``starter`` are
    ``"first"`` or ``"second"``, and each move asks for its mark where a move may place either.
    ``named`` is the variant sent with each request (``None`` for the service's default)."""
    mark = OTHER[person]
    out.write(introduction(person, engine, info, starter) + "\n")
    cells, to_move, status = "." * board_cells(info), starter, "in_progress"
    while status == "in_progress":
        out.write("\n" + render_board(cells, numbered=True) + "\n")
        if to_move == person:
            chosen = ask_legal_move(ask, out, info, cells)
            after = cells[:chosen] + ask_placed(ask, out, info, person) + cells[chosen + 1 :]
            try:
                status = (await client.analyze(after, mark, variant=named)).status
            except ServiceError as error:
                if error.status != 422:
                    raise
                # The service knows the rules: a move it refuses is asked again.
                refused = _("Cell {cell} cannot be played: {why}").format(
                    cell=cell(chosen), why=error.problem.detail
                )
                out.write(refused + "\n")
                continue
            cells = after
        else:
            move = await engine.move(client, cells, mark, variant=named)
            out.write(engine_played(move) + "\n")
            cells, status = move.board_after, move.status_after
        to_move = mark if to_move == person else person
    # The final board keeps the numbers of its empty cells, as every board of the game did.
    out.write("\n" + render_board(cells, numbered=True) + "\n")
    winner: str | None = {"x_won": "X", "o_won": "O", "first_won": "first", "second_won": "second"}.get(
        status
    )
    if winner is None:
        out.write(f"{result_words('draw')}.\n")
    else:
        said = _("You win!") if winner == person else _("The engine wins.")
        out.write(f"{result_words(status)}. {said}\n")
    return status


def quit_hint() -> str:
    return _("Type q to quit at any prompt.")


async def play(
    client: AsyncClient,
    ask: Ask,
    out: TextIO,
    *,
    side: Mark | None,
    first: Mark | None,
    engine: Engine | None,
    variant: Variant | None = None,
    order: Player | None = None,
) -> int:
    """A person against the engine, game after game, in any variant (the service's default variant
    when ``None``; asked for the engine's level when ``engine`` is ``None``: the same five levels in
    every variant). An ``engine`` the variant cannot play (a depth beyond its cells, a rating where it
    is not rated or above its perfect play's rating) is refused first, in the API's words, from the
    variant's board, ``rated`` and ``rating_max`` in ``GET /v1/variants``. Another variant than the
    default is named, with its name and rules as the service words them."""
    variants = await variants_of(client)
    default = default_variant(variants)
    variant = variant or default
    if variant not in variants:
        raise InputError(not_played(variants, variant))
    info = variants[variant]
    refuse_strengths(variants, variant, {"--": engine or Engine()})
    if variant == default:
        out.write(_("Tic-tac-toe against the engine.") + " " + quit_hint() + "\n")
    else:
        # TRANSLATORS: {variant} is a variant's name, such as "Wild tic-tac-toe".
        out.write(_("{variant} against the engine.").format(variant=info.name) + " " + quit_hint() + "\n")
        out.write(rules_text(info))
    try:
        person: Player
        starter: Player
        if by_sides(info):
            person = order or ask_choice(
                ask, out, pgettext("question", "Move"), SIDES, "first", words=ORDER_WORDS
            )
            starter = "first"
            wins = {"first_won": "you" if person == "first" else "engine"}
            wins["second_won"] = "engine" if person == "first" else "you"
        else:
            person = side or ask_choice(ask, out, pgettext("question", "Play as"), MARKS, "X")
            starter = first or ask_choice(ask, out, pgettext("question", "Who starts"), MARKS, "X")
            wins = {
                "x_won": "you" if person == "X" else "engine",
                "o_won": "you" if person == "O" else "engine",
            }
        if engine is None:
            # The API's five levels play in every variant: the same choice as in the standard game.
            engine = Engine(
                level=ask_choice(
                    ask, out, pgettext("question", "Engine level"), LEVELS, "perfect", words=LEVEL_WORDS
                )
            )
        tally: Counter[str] = Counter()
        while True:
            status = await play_game(
                client,
                ask,
                out,
                person=person,
                starter=starter,
                engine=engine,
                info=info,
                named=None if variant == default else variant,
            )
            tally[wins.get(status, "drawn")] += 1
            games = _("Games: you won {you}, the engine won {engine}, drawn {drawn}.")
            out.write(games.format(you=tally["you"], engine=tally["engine"], drawn=tally["drawn"]) + "\n")
            if ask_choice(ask, out, pgettext("question", "Play again"), ["y", "n"], "y", words=YES_NO) == "n":
                break
            out.write("\n")
    except Quit:
        pass
    out.write(_("Bye.") + "\n")
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
            move = await engines[to_move].move(client, cells, to_move, seed=rng.getrandbits(32))
            cells, status = move.board_after, move.status_after
            to_move = opponent(to_move)
        tally[status] += 1
    # TRANSLATORS: {x} and {o} are each side's strength, as "level perfect"; the rest are numbers.
    said = ngettext(
        "{count} game, X {x}, O {o}: X won {x_won}, O won {o_won}, drawn {drawn}",
        "{count} games, X {x}, O {o}: X won {x_won}, O won {o_won}, drawn {drawn}",
        games,
    )
    out.write(
        said.format(count=games, x=x, o=o, x_won=tally["x_won"], o_won=tally["o_won"], drawn=tally["draw"])
        + "\n"
    )
    return 0


def ask_puzzle_move(
    ask: Ask, out: TextIO, info: VariantInfo, side: Player, cells: str
) -> tuple[int, Mark | None]:
    """The person's answer to a puzzle, read as ``play`` reads a move of the variant ``info``: a cell
    (a taken one, or one on a dead board, asked again), and the mark it places where a move may place
    either (wild)."""
    chosen = ask_legal_move(ask, out, info, cells)
    return chosen, ask_placed(ask, out, info, side) if info.marks == "either" else None


def judged(move: str, judgement: str) -> str:
    """That a person's answer to a puzzle was not the one, and how it is judged."""
    # TRANSLATORS: {move} is the move played, a cell's number (or in wild as "X in 5").
    if judgement == "best":
        return _("Not this one: {move} is one of the best moves, but not the only one.").format(move=move)
    if judgement == "inaccuracy":
        return _("Not this one: {move} is an inaccuracy.").format(move=move)
    if judgement == "mistake":
        return _("Not this one: {move} is a mistake.").format(move=move)
    return _("Not this one: {move} is a blunder.").format(move=move)


async def solve_puzzle(
    client: AsyncClient,
    ask: Ask,
    out: TextIO,
    puzzle: Puzzle,
    *,
    info: VariantInfo,
    named: Variant | None = None,
) -> bool:
    """One puzzle of the variant ``info``: its board (as ``play`` draws it), the person's move (in wild
    a cell and a mark), and whether it was the one; ``True`` if it was. A wrong move is reviewed in
    the puzzle's variant (``named``: ``None`` for the service's default)."""
    side = side_name(puzzle.player)
    if puzzle.outcome == "win":
        # TRANSLATORS: {id} is the puzzle's id, {rating} its rating; {side} a mark (X, O), or "the first
        # player" or "the second player".
        said = _("Puzzle {id}, rated {rating}: {side} to move; only one move keeps the win.")
    else:
        said = _("Puzzle {id}, rated {rating}: {side} to move; only one move keeps the draw.")
    out.write(said.format(id=puzzle.id, rating=puzzle.rating, side=side) + "\n")
    out.write("\n" + render_board(puzzle.board, numbered=True) + "\n")
    chosen, mark = ask_puzzle_move(ask, out, info, puzzle.player, puzzle.board)
    answer = f"{move_text(puzzle.solution, puzzle.mark)}. {puzzle.reason}"
    if chosen == puzzle.solution and mark == puzzle.mark:
        out.write(_("Right: {answer}").format(answer=answer) + "\n")
        return True
    move: ReviewMove = chosen if mark is None else (chosen, mark)
    (ply,) = (await client.review([move], puzzle.board, puzzle.player, variant=named)).plies
    out.write(judged(move_text(chosen, mark), ply.judgement) + " " + ply.reason + "\n")
    out.write(_("The answer is {answer}").format(answer=answer) + "\n")
    return False


def puzzle_filters_fault(
    variants: Mapping[str, VariantInfo], variant: Variant, theme: Theme | None, min_rating: int | None
) -> str | None:
    """Why no puzzle of ``variant`` can match the filters, named by their options, or ``None``: a
    theme that is not one of the variant's (its ``tactics`` in ``GET /v1/variants`` that are themes),
    or a lowest rating above the variant's scale (its ``rating_max``)."""
    info = variants.get(variant)
    if info is None:
        return not_played(variants, variant)
    if info.puzzles == 0:
        # TRANSLATORS: {variant} is a variant's id, as --variant takes it.
        return _("the service has no puzzles of {variant}").format(variant=variant)
    themes = [tag for tag in info.tactics if tag in THEMES]
    if theme is not None and theme not in themes:
        # TRANSLATORS: {theme} and {themes} are the API's names of themes, as "block_fork", kept as they
        # are typed; {variant} a variant's id, as --variant takes it.
        fault = _("--theme: {theme} is not a theme of {variant}'s puzzles; its themes: {themes}")
        return fault.format(theme=theme, variant=variant, themes=", ".join(themes))
    top = info.rating_max
    if min_rating is not None and top is not None and min_rating > top:
        fault = _("--min-rating: puzzles of {variant} are rated on its scale, from 0 to {top}")
        return fault.format(variant=variant, top=top)
    return None


async def puzzles(
    client: AsyncClient,
    ask: Ask,
    out: TextIO,
    *,
    theme: Theme | None,
    min_rating: int | None,
    max_rating: int | None,
    seed: int | None,
    variant: Variant | None = None,
) -> int:
    """Puzzles of ``variant`` (the service's default variant when ``None``) drawn at random, one after
    the other while the person wants another. Filters no puzzle of the variant can match (a theme it
    has not, a rating above its scale) are refused first, from ``GET /v1/variants``. Another variant
    than the default is named, with its name and rules as the service words them."""
    variants = await variants_of(client)
    default = default_variant(variants)
    variant = variant or default
    named = None if variant == default else variant
    fault = puzzle_filters_fault(variants, variant, theme, min_rating)
    if fault is not None:
        raise InputError(fault)
    info = variants[variant]
    if named is None:
        out.write(_("Puzzles: find the one move that keeps the win or the draw.") + " " + quit_hint() + "\n")
    else:
        # TRANSLATORS: {variant} is a variant's name, such as "Wild tic-tac-toe".
        said = _("Puzzles of {variant}: find the one move that keeps the win or the draw.")
        out.write(said.format(variant=info.name) + " " + quit_hint() + "\n")
        out.write(rules_text(info))
    rng = None if seed is None else random.Random(seed)
    tally: Counter[bool] = Counter()
    try:
        while True:
            drawn = await client.random_puzzle(
                None if rng is None else rng.getrandbits(32),
                variant=named,
                theme=theme,
                min_rating=min_rating,
                max_rating=max_rating,
            )
            out.write("\n")
            tally[
                await solve_puzzle(
                    client, ask, out, drawn.value, info=variants[drawn.value.variant], named=named
                )
            ] += 1
            out.write(
                _("Puzzles: {right} right, {wrong} wrong.").format(right=tally[True], wrong=tally[False])
                + "\n"
            )
            if (
                ask_choice(ask, out, pgettext("question", "Next puzzle"), ["y", "n"], "y", words=YES_NO)
                == "n"
            ):
                break
    except Quit:
        pass
    out.write(_("Bye.") + "\n")
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


DEPTH_HELP = (
    "look only this many moves ahead, 1 to the variant's number of cells (9 in the standard game; 16 "
    "on 4x4 and 4x4-3, 18 and 27 on notakto-2 and notakto-3): 1 takes a win, 2 also blocks, 3 also "
    "forks, and a depth of at least the moves left plays perfectly"
)
LEVEL_HELP = "a difficulty level, weakest first, in any variant (not with --skill, --depth or --rating)"
BOARD_HELP = "the board: 9 characters, X or O for a mark and . for an empty cell, such as X.O...X.."
PLAYER_HELP = "the side to move, needed only when both sides have as many marks (default: X)"
RATING_HELP = (
    "an opponent of this Elo strength on the variant's own scale, from its levels' calibration: from 0 "
    "(a random player) to perfect play's rating in that variant (rating_max in GET /v1/variants); only in "
    "a variant whose levels are calibrated, rated in GET /v1/variants (not with --level, --skill or --depth)"
)


def rating_value(text: str) -> float:
    """An opponent's strength on the levels' Elo scale: a number from 0 to the highest perfect play's
    rating of any variant (the variant's own bound is checked against ``GET /v1/variants``)."""
    return _number(
        text, float, "a number", lambda rating: 0 <= rating <= MAX_RATING, f"from 0 to {MAX_RATING:g}"
    )


#: The most cells of any variant's board (Notakto's three boards).
MOST_CELLS = 27


def move_value(text: str) -> tuple[int, Mark | None]:
    """A move of ``review`` as people write it: its cell, 1 to the number of cells, and in wild the
    mark placed after it (``5X``, ``5o``); the cell and the mark (``None`` without one)."""
    number, mark = text, None
    if text[-1:].upper() in MARKS:
        number, mark = text[:-1], text[-1].upper()
    if not (number.isascii() and number.isdigit()):
        raise argparse.ArgumentTypeError(f"{text!r} is not a cell (or, in wild, a cell and a mark: 5X)")
    if not 1 <= int(number) <= MOST_CELLS:
        raise argparse.ArgumentTypeError(f"{text} is not a cell from 1 to 9 (to 16, 18 or 27 in a variant)")
    return int(number), "X" if mark == "X" else "O" if mark == "O" else None


def review_moves_fault(info: VariantInfo, moves: Sequence[tuple[int, Mark | None]]) -> str | None:
    """What is wrong with the moves given for a review of the variant ``info``, or ``None``: a cell
    off its board, a move without its mark where a move may place either (wild), or a mark where the
    variant's moves name none. Checked before the review is asked for."""
    cells = board_cells(info)
    for number, mark in moves:
        written = f"{number}{mark or ''}"
        if number > cells:
            # TRANSLATORS: {move} is a move as typed, as "12" or "5X"; {variant} a variant's id, as
            # --variant takes it.
            fault = _("{move} is not a cell from 1 to {cells} in {variant}")
            return fault.format(move=written, cells=cells, variant=info.id)
        if info.marks == "either" and mark is None:
            fault = _(
                "in {variant} each move names the mark placed after its cell, such as {cell}X or {cell}O"
            )
            return fault.format(variant=info.id, cell=number)
        if info.marks != "either" and mark is not None:
            fault = _("{move}: in {variant} a move is a cell alone, without a mark")
            return fault.format(move=written, variant=info.id)
    return None


def puzzle_rating(text: str) -> int:
    """A puzzle's rating bound: a whole number of at least 0."""
    return _number(text, int, "a whole number", lambda rating: rating >= 0, "0 or more")


def depth_value(text: str) -> int:
    """How far the engine looks ahead: a whole number of at least 1. Its bound, the variant's number
    of cells, is checked against the variant's board as the service gives it (:func:`strength_fault`)."""
    return _number(text, int, "a whole number", lambda depth: depth >= 1, "1 or more")


def count_value(text: str) -> int:
    """A number of games: a whole number of at least 1."""
    return _number(text, int, "a whole number", lambda count: count >= 1, "1 or more")


# --- the commands' options --------------------------------------------------------------------------


def best_move_options(command: argparse.ArgumentParser) -> None:
    command.add_argument("board", metavar="BOARD", help=BOARD_HELP)
    command.add_argument("--variant", choices=VARIANTS, help=VARIANT_HELP)
    command.add_argument("--player", choices=PLAYERS, help=PLAYER_HELP)
    command.add_argument(
        "--skill", type=skill_value, help="engine skill from 0 (random) to 1 (perfect, the default)"
    )
    command.add_argument(
        "--random", action="store_true", default=None, help="break ties between optimal moves at random"
    )
    command.add_argument("--seed", type=int, help="makes the random choices reproducible")
    command.add_argument("--depth", type=depth_value, help=DEPTH_HELP)
    command.add_argument("--level", choices=LEVELS, help=LEVEL_HELP)
    command.add_argument("--rating", type=rating_value, help=RATING_HELP)


def analyze_options(command: argparse.ArgumentParser) -> None:
    command.add_argument("board", metavar="BOARD", help=BOARD_HELP)
    command.add_argument("--variant", choices=VARIANTS, help=VARIANT_HELP)
    command.add_argument("--player", choices=PLAYERS, help=PLAYER_HELP)


def play_options(command: argparse.ArgumentParser) -> None:
    command.add_argument("--variant", choices=VARIANTS, help=VARIANT_HELP)
    command.add_argument(
        "--order",
        choices=SIDES,
        help="in wild and Notakto, whether you move first or second (asked when absent)",
    )
    command.add_argument(
        "--side", choices=MARKS, help="your mark (asked when absent; in wild and Notakto see --order)"
    )
    command.add_argument(
        "--first", choices=MARKS, help="who starts (asked when absent; in wild and Notakto see --order)"
    )
    command.add_argument("--level", choices=LEVELS, help=f"{LEVEL_HELP} (asked when no strength is given)")
    command.add_argument("--skill", type=skill_value, help="engine skill from 0 (random) to 1 (perfect)")
    command.add_argument("--depth", type=depth_value, help=f"the engine's depth: {DEPTH_HELP}")
    command.add_argument("--rating", type=rating_value, help=f"the engine as {RATING_HELP}")


def selfplay_options(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--games", type=count_value, default=10, help="how many games (default: %(default)s)"
    )
    for side in ("x", "o"):
        mark = side.upper()
        command.add_argument(
            f"--{side}-level", choices=LEVELS, help=f"{mark}'s level (default: perfect play)"
        )
        command.add_argument(
            f"--{side}-skill", type=skill_value, help=f"{mark}'s skill from 0 to 1 (default: 1)"
        )
        command.add_argument(f"--{side}-depth", type=depth_value, help=f"how far {mark} looks ahead, 1 to 9")
        command.add_argument(
            f"--{side}-rating",
            type=rating_value,
            help=f"{mark}'s Elo strength on the standard game's scale, 0 to perfect play's rating there "
            f"(rating_max in GET /v1/variants); alone, without --{side}-level, --{side}-skill or "
            f"--{side}-depth",
        )
    command.add_argument(
        "--first",
        choices=["X", "O", "alternate"],
        default="alternate",
        help="who starts (default: alternate)",
    )
    command.add_argument("--seed", type=int, help="makes the games reproducible")


def review_options(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "moves",
        metavar="CELL",
        nargs="+",
        type=move_value,
        help="the cells played, in order: 1 to 9 (1 to 16 in 4x4 and 4x4-3; 1 to 18 or 27 in Notakto, "
        "board 2 from 10); in wild each cell followed by the mark placed, X or O, such as 5X",
    )
    command.add_argument("--variant", choices=VARIANTS, help=VARIANT_HELP)
    command.add_argument(
        "--board",
        help="the board the game starts from (default: the variant's empty board): a character per "
        "cell, X or O for a mark and . for an empty cell",
    )
    command.add_argument(
        "--player",
        choices=PLAYERS,
        help="who plays first, needed only when both sides have as many marks (default: X); "
        "first or second in wild and Notakto",
    )


def puzzle_options(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--variant",
        choices=VARIANTS,
        help=f"the variant whose puzzles to solve, {VARIANT_HELP}; boards and moves as play has them "
        "(in wild a cell, then the mark)",
    )
    command.add_argument(
        "--theme",
        choices=THEMES,
        help="only puzzles whose answer does this: one of the variant's themes (its tactics in "
        "GET /v1/variants but places; win, block, fork, threat and block_fork in the standard game)",
    )
    scale = "on the variant's own scale, 0 to its rating_max in GET /v1/variants"
    command.add_argument(
        "--min-rating", type=puzzle_rating, help=f"only puzzles rated at least this, {scale}"
    )
    command.add_argument("--max-rating", type=puzzle_rating, help=f"only puzzles rated at most this, {scale}")
    command.add_argument("--seed", type=int, help="makes the puzzles drawn reproducible")


# --- what the commands run -------------------------------------------------------------------------

#: A game command: what it does with a client of the service, its input and its output.
GameCommand = Callable[[AsyncClient, argparse.Namespace, TextIO, TextIO], Awaitable[int]]


async def best_move_command(client: AsyncClient, args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    engines = {"--": Engine(args.level, args.skill, args.depth, args.rating)}
    if bounded(engines):
        # Checked here as the service does, so that a depth beyond every variant's cells (28 and
        # more, where the service names its schema's bound) is also said with the variant's bound.
        variants = await variants_of(client)
        refuse_strengths(variants, args.variant or default_variant(variants), engines)
    move = await client.best_move(
        args.board,
        args.player,
        variant=args.variant,
        skill=args.skill,
        random=args.random,
        seed=args.seed,
        depth=args.depth,
        level=args.level,
        rating=args.rating,
    )
    out.write(describe_move(move) + "\n")
    return 0


async def analyze_command(client: AsyncClient, args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    out.write(render_analysis(await client.analyze(args.board, args.player, variant=args.variant)) + "\n")
    return 0


async def play_command(client: AsyncClient, args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    given = Engine(args.level, args.skill, args.depth, args.rating)
    engine = None if given == Engine() else given
    return await play(
        client,
        reader(stdin, out),
        out,
        side=args.side,
        first=args.first,
        engine=engine,
        variant=args.variant,
        order=args.order,
    )


async def selfplay_command(client: AsyncClient, args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    x = Engine(args.x_level, args.x_skill, args.x_depth, args.x_rating)
    o = Engine(args.o_level, args.o_skill, args.o_depth, args.o_rating)
    engines = {"--x-": x, "--o-": o}
    if bounded(engines):
        # Refused before the first game rather than at the first move of the engine at fault. The
        # games are of the service's default variant: no request names one.
        variants = await variants_of(client)
        refuse_strengths(variants, default_variant(variants), engines)
    return await selfplay(client, out, games=args.games, x=x, o=o, first=args.first, seed=args.seed)


#: The review's command-line names of the request's fields: its board is an option.
REVIEW_OPTIONS = {**OPTIONS, "board": "--board"}


async def review_command(client: AsyncClient, args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    given: list[tuple[int, Mark | None]] = args.moves
    variants = await variants_of(client)
    variant: Variant = args.variant or default_variant(variants)
    if variant not in variants:
        raise InputError(not_played(variants, variant))
    fault = review_moves_fault(variants[variant], given)
    if fault is not None:
        raise InputError(fault)
    moves: list[ReviewMove] = [number - 1 if mark is None else (number - 1, mark) for number, mark in given]
    try:
        review = await client.review(moves, args.board, args.player, variant=args.variant)
    except ServiceError as error:
        refused = illegal_move(error)
        if refused is None:
            raise InputError(problem_text(error, REVIEW_OPTIONS)) from None
        index, message = refused
        number, mark = given[index]
        why = await why_illegal(client, args, variants[variant], moves, index=index, message=message)
        # TRANSLATORS: {index} is the move's place in the list given; {move} the move as typed, as "5" or
        # "5X"; {why} why it cannot be played.
        fault = _("move {index} in the list, {move}, cannot be played: {why}")
        raise InputError(fault.format(index=index + 1, move=f"{number}{mark or ''}", why=why)) from None
    named = None if variant == default_variant(variants) else variants[variant]
    out.write(render_review(review, named) + "\n")
    return 0


def illegal_move(error: ServiceError) -> tuple[int, str] | None:
    """The index of the move the service refused as illegal, and why, if that is what it refused."""
    for item in error.problem.errors or []:
        match item.loc:
            case ["body", "moves", int(index)]:
                return index, item.msg
    return None


async def why_illegal(
    client: AsyncClient,
    args: argparse.Namespace,
    info: VariantInfo,
    moves: list[ReviewMove],
    *,
    index: int,
    message: str,
) -> str:
    """Why ``moves[index]`` cannot be played in the variant ``info``, from the board before it, in the
    terminal's numbers (the service's ``message`` when the board does not tell)."""
    if index == 0:
        start = args.board or "." * board_cells(info)
        before = await client.analyze(start, args.player, variant=args.variant)
        cells, status = before.board, before.status
    else:
        review = await client.review(moves[:index], args.board, args.player, variant=args.variant)
        cells, status = review.plies[-1].board_after, review.status
    if status != "in_progress":
        # TRANSLATORS: {result} is how the game ended, as "X wins".
        if index == 0:
            over = _("the game is over on the starting board. {result}.")
        else:
            over = _("the game is over after move {number}. {result}.")
        return over.format(number=index, result=result_words(status))
    move = moves[index]
    at = move if isinstance(move, int) else move[0] if isinstance(move, tuple) else move.position
    if cells[at] != ".":
        return _("cell {cell} is taken (by {mark})").format(cell=cell(at), mark=cells[at])
    if dead_board(info, cells, at):
        board = at // (info.rows * info.columns) + 1
        dead = _("cell {cell} is on board {board}, which has a line: no move can go there")
        return dead.format(cell=cell(at), board=board)
    return message


async def puzzle_command(client: AsyncClient, args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    return await puzzles(
        client,
        reader(stdin, out),
        out,
        theme=args.theme,
        min_rating=args.min_rating,
        max_rating=args.max_rating,
        seed=args.seed,
        variant=args.variant,
    )


def problem_text(error: ServiceError, options: Mapping[str, str] = OPTIONS) -> str:
    """What the service refused, named by the command-line option at fault."""
    problem = error.problem
    if not problem.errors:
        return problem.detail
    parts = []
    for item in problem.errors:
        fields = [str(part) for part in item.loc[1:] if not isinstance(part, int)]
        option = options.get(fields[0], fields[0]) if fields else _("the request")
        parts.append(f"{option}: {item.msg}")
    return "; ".join(parts)


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


@contextmanager
def interrupted_at_once() -> Iterator[None]:
    """Ctrl-C raises :class:`KeyboardInterrupt` at once, even during a blocking read of the terminal.

    ``asyncio.run`` replaces Python's own SIGINT handler with one that only cancels the main
    task, which a blocking ``readline`` (as ``play`` does between moves) never notices: the
    read goes on, and the first Ctrl-C is lost. It leaves any other handler alone, so this one,
    which interrupts as Python's does, is kept while the block runs.
    """
    if threading.current_thread() is not threading.main_thread() or (
        signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        yield  # Ctrl-C is ignored, or handled by someone else: leave it so
        return
    signal.signal(signal.SIGINT, _interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)


async def with_client(args: argparse.Namespace, command: GameCommand, stdin: TextIO, out: TextIO) -> int:
    async with make_client(args.url, args.timeout, args.lang) as client:
        return await command(client, args, stdin, out)


def game(command: GameCommand) -> Callable[[argparse.Namespace], int]:
    """Run a game command with a client of the service, reporting its errors in words, all in the
    language of ``--lang`` (:func:`~._words.speaking`)."""

    def run(args: argparse.Namespace) -> int:
        with speaking(args.lang):
            return attempt(args)

    def attempt(args: argparse.Namespace) -> int:
        try:
            with interrupted_at_once():
                return asyncio.run(with_client(args, command, sys.stdin, sys.stdout))
        except ServiceError as error:
            sys.stderr.write(error_line(problem_text(error)) + "\n")
            return 1
        except InputError as error:
            sys.stderr.write(error_line(str(error)) + "\n")
            return 1
        except httpx.TimeoutException:
            late = _("the service at {url} did not answer within {seconds} s")
            sys.stderr.write(error_line(late.format(url=args.url, seconds=decimal(args.timeout))) + "\n")
            return 1
        except httpx.TransportError as error:
            # TRANSLATORS: {reason} is the network's own words, in English, such as "Connection refused".
            unreachable = _("cannot reach the service at {url}: {reason}")
            reason = str(error) or type(error).__name__
            sys.stderr.write(error_line(unreachable.format(url=args.url, reason=reason)) + "\n")
            return 1
        except pydantic.ValidationError as error:  # a server answered, but not as the service does
            count = error.error_count()
            # TRANSLATORS: A server answered at {url}, but its answer is not the tic-tac-toe service's.
            strange = ngettext(
                "the answer from {url} is not the service's ({count} problem)",
                "the answer from {url} is not the service's ({count} problems)",
                count,
            )
            sys.stderr.write(error_line(strange.format(url=args.url, count=count)) + "\n")
            return 1
        except KeyboardInterrupt:
            sys.stderr.write("\n")
            return 130
        except BrokenPipeError:
            # The reader went away (| head): stop quietly, and keep Python from complaining again
            # when it flushes stdout at exit.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 141

    return run


@dataclass(frozen=True)
class Command:
    """A subcommand: its line in the help, its own options, and what it runs (its exit status)."""

    help: str
    options: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


#: Every subcommand, in the order of the help. A new one is a new entry.
COMMANDS: dict[str, Command] = {
    "best-move": Command(
        "the move to play on a board, its value and why", best_move_options, game(best_move_command)
    ),
    "analyze": Command("every move's value on a board", analyze_options, game(analyze_command)),
    "play": Command("play against the engine", play_options, game(play_command)),
    "selfplay": Command(
        "the engine against itself, with a tally of the results", selfplay_options, game(selfplay_command)
    ),
    "review": Command(
        "a game judged move by move, and the strength each side played at",
        review_options,
        game(review_command),
    ),
    "puzzle": Command("find the only good move, puzzle after puzzle", puzzle_options, game(puzzle_command)),
}


def service_url(value: str) -> str:
    """``--url``: an http or https URL with a host, and a port if any in range."""
    try:
        url = httpx.URL(value)
        port = url.port  # None when the URL gives none
    except (httpx.InvalidURL, ValueError) as error:
        raise argparse.ArgumentTypeError(f"{value!r} is not a URL: {error}") from None
    if url.scheme not in ("http", "https") or not url.host:
        raise argparse.ArgumentTypeError(f"{value!r} is not an http:// or https:// URL with a host")
    if port is not None and not 0 < port < 65536:
        raise argparse.ArgumentTypeError(f"{value!r} has port {port}, not one of 1 to 65535")
    return value


def seconds(value: str) -> float:
    """``--timeout``: a number of seconds, more than 0 and finite."""
    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a number of seconds") from None
    if not (number > 0 and math.isfinite(number)):
        raise argparse.ArgumentTypeError(f"{value!r} is not a number of seconds above 0")
    return number


#: The environment variables that name the locale of a program's messages, strongest first: POSIX's
#: LC_ALL, then LC_MESSAGES, then LANG; the first that is set and not empty decides.
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")
#: A POSIX locale name, ``language[_territory][.codeset][@modifier]``, whose language can be a BCP 47
#: tag's: a language of 2 or 3 letters (ISO 639), a territory of 2 letters or 3 digits (ISO 3166, UN
#: M.49).
LOCALE_NAME = re.compile(
    r"(?P<language>[A-Za-z]{2,3})(?:_(?P<territory>[A-Za-z]{2}|[0-9]{3}))?(?:\.[^@]*)?(?:@(?P<modifier>.*))?",
    re.ASCII,
)
#: The modifiers of a locale name that name a script (``sr_RS@latin``), as BCP 47 names it; any other
#: modifier (``@euro``) says nothing of the language and is left out.
SCRIPT_MODIFIERS = {"latin": "Latn", "cyrillic": "Cyrl", "devanagari": "Deva"}


def locale_tag(name: str) -> str | None:
    """A POSIX locale name as a BCP 47 language tag: ``es_ES.UTF-8`` is ``es-ES``, ``pt_BR`` is
    ``pt-BR``, ``de`` is ``de``, ``sr_RS@latin`` is ``sr-Latn-RS``. ``None`` for ``C`` and ``POSIX``
    (with any codeset, ``C.UTF-8``), which name no language, and for a name that is not of that form
    (a path to a locale's files, say): then no language is asked for."""
    match = LOCALE_NAME.fullmatch(name)
    if match is None:  # C, POSIX, C.UTF-8, and whatever else names no language
        return None
    parts = [match["language"].lower()]
    script = SCRIPT_MODIFIERS.get((match["modifier"] or "").lower())
    if script is not None:
        parts.append(script)
    if match["territory"]:
        parts.append(match["territory"].upper())
    return "-".join(parts)


def locale_language(environ: Mapping[str, str]) -> str | None:
    """The language of the locale of messages in ``environ``, as a POSIX program reads it (the first
    of :data:`LOCALE_VARIABLES` that is set and not empty), as a BCP 47 tag (:func:`locale_tag`);
    ``None`` when none is set, or under ``C`` or ``POSIX``."""
    name = next((environ[variable] for variable in LOCALE_VARIABLES if environ.get(variable)), None)
    return None if name is None else locale_tag(name)


def language_option(value: str) -> str | None:
    """``--lang``: a language tag, sent as it is (the service says whether it is one: a malformed tag
    is refused, in its words, naming ``--lang``); empty, no language at all."""
    return value.strip() or None


def shared_options(defaults: bool) -> argparse.ArgumentParser:
    """The options of every command, which may come before the command or after it.

    The main parser's copy has the defaults; each command's copy has none (``SUPPRESS``), so
    an option given before the command is not overwritten by the command's default.
    """
    options = argparse.ArgumentParser(add_help=False)
    unset = argparse.SUPPRESS
    options.add_argument(
        "--url",
        type=service_url,
        default=(os.environ.get(URL_VARIABLE) or None) if defaults else unset,
        help=f"the service to use, such as http://127.0.0.1:8000 (default: {URL_VARIABLE}, "
        "or in this process)",
    )
    options.add_argument(
        "--timeout",
        type=seconds,
        default=5.0 if defaults else unset,
        help="seconds to wait for the service at each step: connecting, sending, each read (default: 5)",
    )
    options.add_argument(
        "--lang",
        type=language_option,
        metavar="TAG",
        default=locale_language(os.environ) if defaults else unset,
        help="the language of the engine's sentences (its reasons, a variant's name and rules): a BCP 47 "
        "tag such as es, fr, de, pt or pt-BR, English when the service does not offer it (default: the "
        "locale's, from LC_ALL, LC_MESSAGES or LANG, such as es_ES.UTF-8 for es-ES; none under C or "
        "POSIX); an empty TAG asks for none",
    )
    return options


def parser() -> argparse.ArgumentParser:
    formatter = argparse.RawDescriptionHelpFormatter
    main = argparse.ArgumentParser(
        prog="tictactoe", description=DESCRIPTION, formatter_class=formatter, parents=[shared_options(True)]
    )
    main.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = main.add_subparsers(dest="command", required=True, metavar="COMMAND")
    shared = shared_options(False)
    for name, command in COMMANDS.items():
        command.options(commands.add_parser(name, help=command.help, parents=[shared]))
    return main


def main(argv: Sequence[str] | None = None) -> int:
    command_line = parser()
    args = command_line.parse_args(argv)
    for prefix in ("", "x_", "o_"):
        level, skill, depth, rating = (
            vars(args).get(prefix + name) for name in ("level", "skill", "depth", "rating")
        )
        option = "--" + prefix.replace("_", "-")
        if rating is not None and any(value is not None for value in (level, skill, depth)):
            command_line.error(
                f"{option}rating is a strength of its own: give it alone, "
                f"without {option}level, {option}skill or {option}depth"
            )
        if level is not None and (skill is not None or depth is not None):
            command_line.error(
                f"{option}level stands for a skill and a depth: "
                f"give it alone, or {option}skill and {option}depth"
            )
    return COMMANDS[args.command].run(args)
