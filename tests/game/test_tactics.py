"""Tactics and sentences of every variant of the family, the standard game included
(:func:`service.game.tactics.explain_move`), against independent oracles and names written here,
apart from the code under test.

The standard game: every move of every unfinished position, its tags against the textbook oracle
(:mod:`tests.support.oracle`) and its sentence, word for word, against one built here from that oracle
and the names below. Every variant: every move of every position of the 3 × 3 variants (random
positions of ``notakto-3`` and the 4 × 4 ones), its tags against tags worked out again from the board
strings (:mod:`tests.support.tactics_oracle`), its sentence checked for its cells, lines and value."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest

from service.game.exact import Values
from service.game.tables import table
from service.game.tactics import TACTICS, explain_move
from service.game.variants import VARIANTS, Move, State, Variant
from tests.support import oracle, tactics_oracle
from tests.support.sentences import CELL_NAMES, LINE_NAMES, MARK, standard_sentence
from tests.support.variant_oracle import VARIANTS as RULES
from tests.support.variant_oracle import Rules

# --- the standard game, against the textbook oracle ------------------------------------------------

STANDARD = VARIANTS["standard"]


def standard_moves() -> list[tuple[tuple[int, ...], int, int, int, int]]:
    """Every move of every unfinished position of the standard game, either side first: the board, the
    side to move, the cell, and the move's value (score, plies), as the oracle gives them."""
    return [
        (cells, side, cell, score, plies)
        for cells, sides in sorted(oracle.reachable().items())
        for side in sorted(sides)
        for cell, score, plies in oracle.move_values(cells, side)
    ]


def explained(
    board: str, mover: str, cell: int, score: int = 0, plies: int = 9
) -> tuple[tuple[str, ...], str]:
    """The tags and the sentence of a move of the standard game, as the service gives them."""
    state = state_of(STANDARD, board, mover)
    return explain_move(STANDARD, state, Move(cell, state.mover), score, plies)


def said_standard(board: str, mover: str, cell: int, score: int, plies: int) -> str:
    return explained(board, mover, cell, score, plies)[1]


def test_the_standard_game_matches_the_oracle_on_every_move() -> None:
    every = standard_moves()
    assert len({(cells, side) for cells, side, *_ in every}) == 9040
    assert len(every) == 32334
    for cells, side, cell, score, plies in every:
        tags, sentence = explained(oracle.decode(cells), MARK[side], cell, score, plies)
        assert list(tags) == oracle.tactics(cells, side, cell), (oracle.decode(cells), MARK[side], cell)
        assert sentence == standard_sentence(cells, side, cell, score, plies), (oracle.decode(cells), cell)


def test_every_standard_reason_names_the_main_tactic_its_cells_and_the_value() -> None:
    for cells, side, cell, score, plies in standard_moves():
        sentence = said_standard(oracle.decode(cells), MARK[side], cell, score, plies)
        tags = oracle.tactics(cells, side, cell)
        main = next((tag for tag in ("win", "block", "fork", "block_fork", "threat") if tag in tags), None)
        words = {
            "win": "wins",
            "block": "Blocks",
            "fork": "Forks",
            "block_fork": "fork",
            "threat": "Threatens",
        }
        assert sentence.endswith("."), sentence
        assert main is None or words[main] in sentence, (sentence, tags)
        after = cells[:cell] + (side,) + cells[cell + 1 :]
        if main == "win":
            won = [line for line, name in LINE_NAMES.items() if all(after[c] == side for c in line)]
            assert any(f"{MARK[side]}'s {LINE_NAMES[line]}" in sentence for line in won), sentence
        if main == "block":
            blocked = [
                line
                for line in LINE_NAMES
                if cell in line and all(cells[c] == -side for c in line if c != cell)
            ]
            assert any(f"{MARK[-side]}'s {LINE_NAMES[line]}" in sentence for line in blocked), sentence
        if main == "fork":
            assert all(CELL_NAMES[c] in sentence for c in oracle.completing(after, side)), sentence
        if main is None:
            assert CELL_NAMES[cell] in sentence, sentence
        action = sentence.split(";")[0]
        assert not any(digit in action for digit in "0123456789"), sentence  # named, never numbered
        if main != "win":
            value = {1: "wins with best play", 0: "draw with best play", -1: "can force a win"}[score]
            assert value in sentence, sentence


def test_standard_reasons_read_well() -> None:
    assert said_standard("XX.OO....", "X", 2, 1, 1) == "Completes X's top row: X wins."
    assert (
        said_standard("XX..O....", "O", 2, 0, 7) == "Blocks X's top row; the game is a draw with best play."
    )
    assert said_standard("X.O.O.X..", "X", 3, 1, 1) == "Completes X's left column: X wins."
    assert said_standard("O...X....", "X", 8, 0, 7) == (
        "Takes the bottom-right corner, opposite O's mark in the top-left corner; "
        "the game is a draw with best play."
    )
    assert (
        said_standard(".........", "X", 1, 0, 9) == "Takes the top edge; the game is a draw with best play."
    )
    assert said_standard("X...O.O.X", "X", 2, 0, 3).startswith("Blocks O's diagonal from the top-right")
    assert said_standard(".........", "X", 4, 0, 9) == "Takes the center; the game is a draw with best play."
    assert explained("X...O....", "X", 8)[0] == ("corner",)
    assert explained("..O.....X", "X", 0)[0] == ("threat", "corner")  # its own mark opposite
    assert explained("........O", "X", 0)[0] == ("corner", "opposite_corner")


# --- every variant, against the tactics oracle -----------------------------------------------------

CELLS_4 = [
    "the top-left corner", "the left cell of the top edge",
    "the right cell of the top edge", "the top-right corner",
    "the upper cell of the left edge", "the top-left center cell",
    "the top-right center cell", "the upper cell of the right edge",
    "the lower cell of the left edge", "the bottom-left center cell",
    "the bottom-right center cell", "the lower cell of the right edge",
    "the bottom-left corner", "the left cell of the bottom edge",
    "the right cell of the bottom edge", "the bottom-right corner",
]  # fmt: skip
ROWS_4 = ["top row", "second row", "third row", "bottom row"]
COLUMNS_4 = ["left column", "second column", "third column", "right column"]
LINES_4: dict[tuple[int, ...], str] = {
    **{tuple(range(4 * r, 4 * r + 4)): ROWS_4[r] for r in range(4)},
    **{tuple(range(c, 16, 4)): COLUMNS_4[c] for c in range(4)},
    (0, 5, 10, 15): "diagonal from the top-left",
    (3, 6, 9, 12): "diagonal from the top-right",
}
LINES_4_3: dict[tuple[int, ...], str] = {
    **{(4 * r, 4 * r + 1, 4 * r + 2): f"left three of the {ROWS_4[r]}" for r in range(4)},
    **{(4 * r + 1, 4 * r + 2, 4 * r + 3): f"right three of the {ROWS_4[r]}" for r in range(4)},
    **{(c, c + 4, c + 8): f"upper three of the {COLUMNS_4[c]}" for c in range(4)},
    **{(c + 4, c + 8, c + 12): f"lower three of the {COLUMNS_4[c]}" for c in range(4)},
    (0, 5, 10): "upper three of the diagonal from the top-left",
    (5, 10, 15): "lower three of the diagonal from the top-left",
    (1, 6, 11): "short diagonal above the diagonal from the top-left",
    (4, 9, 14): "short diagonal below the diagonal from the top-left",
    (3, 6, 9): "upper three of the diagonal from the top-right",
    (6, 9, 12): "lower three of the diagonal from the top-right",
    (2, 5, 8): "short diagonal above the diagonal from the top-right",
    (7, 10, 13): "short diagonal below the diagonal from the top-right",
}
NAMES: dict[tuple[int, int], tuple[list[str], dict[tuple[int, ...], str]]] = {
    (3, 3): (CELL_NAMES, LINE_NAMES),
    (4, 4): (CELLS_4, LINES_4),
    (4, 3): (CELLS_4, LINES_4_3),
}
BOARDS = {
    2: ("the left board", "the right board"),
    3: ("the left board", "the middle board", "the right board"),
}
SIDE = {"X": 0, "O": 1, "first": 0, "second": 1}


def state_of(variant: Variant, cells: str, mover: str) -> State:
    state = variant.resolve(cells, mover).state
    assert variant.sides[state.mover] == mover
    return state


def player(rules: Rules, side: str) -> str:
    return side if rules.marks == "own" else f"the {side} player"


def cell_name(rules: Rules, cell: int, *, board: bool = True) -> str:
    name = NAMES[rules.size, rules.line][0][cell % rules.width]
    if board and rules.boards > 1:
        return f"{name} of {BOARDS[rules.boards][cell // rules.width]}"
    return name


def lines_named(rules: Rules, board: str, cell: int, test: str) -> list[str]:
    """The names of the lines of one board through ``cell`` whose cells, read as a string, match ``test``
    (a regular expression)."""
    return [
        name
        for line, name in NAMES[rules.size, rules.line][1].items()
        if cell in line and re.fullmatch(test, "".join(board[c] for c in line))
    ]


def check(
    variant: Variant, cells: str, state: State, move: Move, score: int, plies: int, ends: bool
) -> tuple[str, ...]:
    """Explain one move of the position ``cells``, ``state`` to the service, and check its tags and
    sentence against the rules; the tags."""
    rules = RULES[variant.id]
    mover = variant.sides[state.mover]
    mark = "XO"[move.mark]
    tags, sentence = explain_move(variant, state, move, score, plies)
    assert list(tags) == tactics_oracle.tactics(rules, cells, mover, move.cell, mark), (cells, mover, move)
    listed = TACTICS[variant.id]
    assert [tag for tag in listed if tag in tags] == list(tags), tags
    me, you = player(rules, mover), player(rules, rules.other(mover))
    cell = move.cell
    index, local = divmod(cell, rules.width)
    board = rules.board(cells, index)
    after = tactics_oracle.put(cells, cell, mark)
    after_board = rules.board(after, index)
    action, _, value = sentence.partition(";") if ";" in sentence else sentence.rpartition(":")
    assert sentence.endswith("."), sentence
    assert not re.search(r"\d", action), sentence  # named, never numbered
    where = cell_name(rules, cell)

    if ends:
        assert value.strip(" .") in {f"{me} wins", f"{me} loses"}, sentence
        assert ("lose" in tags) == value.endswith("loses."), sentence
    else:
        words = {
            1: f"{me} wins with best play, in {plies} moves",
            0: "the game is a draw with best play",
            -1: f"{you} can force a win, in {plies} moves",
        }
        assert value == f" {words[score]}.", sentence
    if variant.misere:
        assert "win" not in action, sentence  # making a line is never a win there

    if rules.marks == "either":
        assert action.startswith(f"Puts {mark} in {where}"), sentence
        if "win" in tags:
            made = lines_named(rules, after, cell, f"{mark}+")
            assert any(f"{mark}'s {name}" in action for name in made), sentence
        elif "gift" in tags:
            gifts = tactics_oracle.open_cells(rules, after)
            assert all(cell_name(rules, c) in action for c in gifts), sentence
            assert you in action, sentence
        elif "squeeze" in tags:
            empty = [c for c, symbol in enumerate(after) if symbol == "."]
            assert all(cell_name(rules, c) in action for c in empty), sentence
        elif "block" in tags:
            blocked = [
                f"{other}'s {name}"
                for other in "XO"
                for name in lines_named(rules, board, cell, f"[{other}.]+")
                if cell in tactics_oracle.completing(rules, board, other)
            ]
            assert "blocking" in action and any(name in action for name in blocked), sentence
    elif rules.marks == "x_only":
        live_after = [
            j for j in range(rules.boards) if not tactics_oracle.lined(rules, rules.board(after, j))
        ]
        made = lines_named(rules, after_board, local, "X+") if {"lose", "kill"} & set(tags) else []
        if "lose" in tags:
            assert any(action.startswith(f"Completes the {name}") for name in made), sentence
            assert rules.boards == 1 or f"{BOARDS[rules.boards][index]}, the last live board" in action
        elif "kill" in tags:
            kills = [f"Kills {BOARDS[rules.boards][index]}, completing its {name}" for name in made]
            assert any(action.startswith(words) for words in kills), sentence
        else:
            assert action.startswith(f"Takes {where}"), sentence
        if "squeeze" in tags:
            last = rules.board(after, live_after[0])
            empty = [c for c, symbol in enumerate(last) if symbol == "."]
            assert f"leaves {you} only cells that complete a line" in action, sentence
            assert all(cell_name(rules, c, board=False) in action for c in empty), sentence
            assert rules.boards == 1 or action.endswith(f"of {BOARDS[rules.boards][live_after[0]]}")
        elif "hand_over" in tags:
            assert f"the last live board, {BOARDS[rules.boards][live_after[0]]}" in action, sentence
        elif "live" in tags:
            assert action.endswith("live"), sentence
    elif variant.misere:
        if "lose" in tags:
            made = lines_named(rules, after, cell, f"{mover}+")
            assert any(f"{mover}'s {name}" in action for name in made), sentence
        elif "squeeze" in tags:
            empty = [c for c, symbol in enumerate(after) if symbol == "."]
            assert action.startswith(f"Leaves {rules.other(mover)} only"), sentence
            assert all(cell_name(rules, c) in action for c in empty), sentence
        elif "avoid" in tags:
            dangers = tactics_oracle.completing(rules, board, mover)
            assert action.startswith("Avoids"), sentence
            assert all(cell_name(rules, c) in action for c in dangers), sentence
        elif "opposite" in tags:
            facing = cell_name(rules, tactics_oracle.opposite(rules, cell))
            assert action == f"Takes {where}, opposite {rules.other(mover)}'s mark in {facing}", sentence
        else:
            assert action == f"Takes {where}", sentence
    else:
        other = rules.other(mover)
        if "win" in tags:
            made = lines_named(rules, after, cell, f"{mover}+")
            assert any(f"Completes {mover}'s {name}" in action for name in made), sentence
        elif "block" in tags:
            blocked = lines_named(rules, board, cell, f"[{other}.]+")
            assert any(f"Blocks {other}'s {name}" in action for name in blocked), sentence
        elif "fork" in tags:
            threats = tactics_oracle.completing(rules, after, mover)
            assert action.startswith("Forks"), sentence
            assert all(cell_name(rules, c) in action for c in threats), sentence
        elif "block_fork" in tags:
            forks = tactics_oracle.fork_cells(rules, board, other)
            assert f"{other}'s fork" in action, sentence
            assert all(cell_name(rules, c) in action for c in forks), sentence
        elif "threat" in tags:
            (target,) = tactics_oracle.completing(rules, after, mover)
            named = lines_named(rules, after, target, f"[{mover}.]+")
            assert any(f"complete the {name} at {cell_name(rules, target)}" in action for name in named)
        else:
            assert action.startswith(f"Takes {where}"), sentence
    return tags


def ranked_moves(
    variant: Variant, values: Values | None, state: State
) -> Iterator[tuple[Move, int, int, bool]]:
    """Every move of a position with its value, and whether it ends the game with a line. Without
    ``values``, a stand-in value: a win in 3 for the mover, unless the move ends the game."""
    if values is not None:
        for ranked in values.ranked(state):
            move = Move(ranked.cell, ranked.mark)
            ended = variant.play(state, move)[1]
            yield move, ranked.score, ranked.plies, ended is not None and ended != 0
        return
    for move in variant.moves(state):
        ended = variant.play(state, move)[1]
        yield move, *((ended, 1) if ended is not None else (1, 3)), bool(ended)


def check_every_move(
    variant: Variant, positions: list[tuple[str, str]], *, exact: bool = True
) -> dict[str, int]:
    """:func:`check` on every move of ``positions``, with exact values or stand-ins; how many moves had
    each tag."""
    values = Values(variant, table(variant.id)) if exact else None
    seen = dict.fromkeys(TACTICS[variant.id], 0)
    for cells, mover in positions:
        state = state_of(variant, cells, mover)
        for move, score, plies, ends in ranked_moves(variant, values, state):
            for tag in check(variant, cells, state, move, score, plies, ends):
                seen[tag] += 1
    return seen


def test_every_variant_lists_its_tags() -> None:
    assert list(TACTICS) == list(VARIANTS)
    assert TACTICS["standard"] == TACTICS["4x4"] == TACTICS["4x4-3"]
    assert TACTICS["standard"] == (
        "win", "block", "fork", "threat", "block_fork", "center", "corner", "edge", "opposite_corner"
    )  # fmt: skip
    assert "win" not in TACTICS["misere"] and "win" not in TACTICS["notakto-2"]


@pytest.mark.parametrize("variant_id", ["standard", "misere", "wild", "notakto"])
def test_every_move_of_every_position(variant_id: str) -> None:
    rules = RULES[variant_id]
    firsts = ["X", "O"] if rules.marks == "own" else ["first"]
    positions = sorted({position for first in firsts for position in rules.reachable(first)})
    seen = check_every_move(VARIANTS[variant_id], positions)
    assert all(seen.values()), seen  # every tag happens


def test_every_move_of_every_position_of_notakto_on_two_boards() -> None:
    """Its positions are the pairs of one board's positions, finished or not, with a live board. The
    value of a move only ends its sentence, and looking up 1.2 million of them would take a minute:
    the moves' sentences end with a stand-in value here, and with exact ones in random positions below."""
    one = RULES["notakto"]
    singles = sorted({cells for cells, _ in one.games("first")})
    live = {cells for cells in singles if not one.has_line(cells, "X")}
    positions = [
        (left + right, "first" if (left + right).count("X") % 2 == 0 else "second")
        for left in singles
        for right in singles
        if left in live or right in live
    ]
    assert len(positions) == 154_100
    seen = check_every_move(VARIANTS["notakto-2"], positions, exact=False)
    assert all(seen.values()), seen


def random_positions(variant_id: str, count: int, seed: int) -> list[tuple[str, str]]:
    """Unfinished positions of random games (with either side first where that applies)."""
    rules = RULES[variant_id]
    rng = random.Random(seed)
    found: set[tuple[str, str]] = set()
    while len(found) < count:
        cells = rules.start()
        mover = rng.choice(["X", "O"]) if rules.marks == "own" else "first"
        stop = rng.randrange(rules.width * rules.boards)
        for _ in range(stop):
            played, ended = rules.after(cells, rng.choice(list(rules.moves(cells, mover))))
            if ended is not None:
                break
            cells, mover = played, rules.other(mover)
        found.add((cells, mover))
    return sorted(found)


@pytest.mark.parametrize(
    ("variant_id", "count"), [("notakto-2", 2000), ("notakto-3", 3000), ("4x4", 3000), ("4x4-3", 3000)]
)
def test_every_move_of_random_positions(variant_id: str, count: int) -> None:
    seen = check_every_move(VARIANTS[variant_id], random_positions(variant_id, count, seed=31))
    assert all(seen.values()), seen


def said(variant_id: str, cells: str, mover: str, cell: int, mark: int = 0) -> str:
    variant = VARIANTS[variant_id]
    state = state_of(variant, cells, mover)
    ranked = next(
        m for m in Values(variant, table(variant_id)).ranked(state) if (m.cell, m.mark) == (cell, mark)
    )
    return explain_move(variant, state, Move(cell, mark), ranked.score, ranked.plies)[1]


def test_sentences_read_well() -> None:
    assert said("misere", "XX.OO....", "X", 2) == "Completes X's top row: X loses."
    assert said("misere", "XX.OO....", "X", 8).startswith(
        "Avoids the top-right corner, which would complete X's top row"
    )
    assert said("wild", "X........", "second", 1, 1) == (
        "Puts O in the top edge; the game is a draw with best play."
    )
    assert said("wild", "X.X......", "first", 1, 0) == (
        "Puts X in the top edge and completes X's top row: the first player wins."
    )
    assert said("notakto-2", "XX.......XX.X.X...", "first", 2) == (
        "Kills the left board, completing its top row, and hands the second player the last live board, the "
        "right board; the first player wins with best play, in 4 moves."
    )
    assert said("4x4", "XXX.OOO.........", "X", 3) == "Completes X's top row: X wins."
    assert said("4x4-3", "XX..O.O.........", "X", 2) == "Completes X's left three of the top row: X wins."
