"""The 4 × 4 variants (``4x4``, four in a row, and ``4x4-3``, three in a row) against an oracle.

The oracle is :mod:`tests.support.variant_oracle`: a textbook negamax over board strings with a memo,
written from the API contract's table of variants, sharing nothing with ``service.game`` (no bit
masks, no tables, no code of the engine). For 4 × 4 its memo is keyed by a canonical board string:
the board as the side to move sees it (its marks ``X``), under the eight symmetries of the square that
it computes itself from rows and columns, the smallest string. It solves each variant once, for every
test of this module, from the empty board (every position a game reaches, either side starting): about
a minute of CPU time for ``4x4`` and 20 s for ``4x4-3``, and with both solved the process holds about
600 MB.

Checked against the shipped tables (``Values(variant, table(id))``), for each variant:

* every unfinished position with at most 4 marks, X first and O first (12,857 each): its value, and
  its ranked moves (cell, score, plies, traps), in the contract's order;
* 100,000 distinct positions with more than 4 marks from random games, either side starting: their
  values, and the ranked moves of every 25th;
* the oracle's solve reaches as many classes of alike positions as the table holds, and they stand for
  the contract's count of unfinished boards;
* legality: boards from random games (legal), random strings and slightly changed legal boards (mostly
  not) resolve, with every player, exactly when a game reaches them with that side to move, by the
  oracle's taking back of moves (:meth:`Rules.reached`), to its side to move, status and lines;
  and that taking back of moves finds exactly the boards that the oracle's forward walk of every game
  reaches, on every 3 × 3 board of the variants on one board.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator
from math import comb

import pytest

from service.game import BoardError
from service.game.exact import Values
from service.game.tables import table
from service.game.variants import O_MARK, VARIANTS, X_MARK, State
from tests.support.variant_oracle import VARIANTS as ORACLES
from tests.support.variant_oracle import Rules

IDS = ["4x4", "4x4-3"]
#: Marks up to which every position is checked; random positions have more.
FEW = 4
#: Distinct positions from random games checked per variant, and every how many of them the ranked
#: moves are checked too.
RANDOM_POSITIONS = 100_000
RANKED_EVERY = 25
#: Boards of each kind whose legality is checked per variant.
LEGALITY_BOARDS = 3_000

Ranked = list[tuple[int, int, int, int]]


class Oracle:
    """One 4 × 4 variant solved by the oracle from the empty board, with the traps of its positions."""

    def __init__(self, variant_id: str) -> None:
        spec = ORACLES[variant_id]
        self.rules = Rules(spec.size, spec.line, symmetric=True)
        self.rules.value(self.rules.start(), "X")
        #: The classes of alike unfinished positions that games reach (with the swap of X and O with
        #: the side to move, O's start is X's).
        self.classes = len(self.rules.memo)
        self.mistakes_memo: dict[tuple[str, str], int] = {}

    def value(self, cells: str, mover: str) -> tuple[int, int]:
        return self.rules.value(cells, mover)

    def mistakes(self, cells: str, mover: str) -> int:
        """How many moves of an unfinished board score worse for ``mover`` than its best."""
        key = self.rules.key(cells, mover)
        found = self.mistakes_memo.get(key)
        if found is None:
            best = self.value(cells, mover)[0]
            found = sum(score < best for _, score, _ in self.moves(cells, mover))
            self.mistakes_memo[key] = found
        return found

    def moves(self, cells: str, mover: str) -> Iterator[tuple[int, int, int]]:
        """Each move's cell and value ``(score, plies)`` for ``mover``."""
        for move in self.rules.moves(cells, mover):
            played, ended = self.rules.after(cells, move)
            if ended is not None:
                yield move[0], ended, 1
            else:
                score, plies = self.value(played, self.rules.other(mover))
                yield move[0], -score, plies + 1

    def ranked(self, cells: str, mover: str) -> Ranked:
        """Every move ``(cell, score, plies, traps)``, in the contract's order: the best score, the fastest
        win or the slowest loss, the most traps (the opponent's replies worse than its best), the lowest
        cell."""
        other = self.rules.other(mover)
        found = []
        for cell, score, plies in self.moves(cells, mover):
            played = cells[:cell] + mover + cells[cell + 1 :]
            traps = 0 if plies == 1 else self.mistakes(played, other)
            found.append((cell, score, plies, traps))

        def order(move: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
            cell, score, plies, traps = move
            hurry = plies if score > 0 else -plies if score < 0 else 0
            return (-score, hurry, -traps, cell)

        return sorted(found, key=order)


@pytest.fixture(scope="module")
def oracles() -> dict[str, Oracle]:
    """Each 4 × 4 variant solved once by the oracle, on first use, for every test of this module (the
    only one that uses it), and let go after them."""
    return {}


def solved(oracles: dict[str, Oracle], variant_id: str) -> Oracle:
    if variant_id not in oracles:
        oracles[variant_id] = Oracle(variant_id)
    return oracles[variant_id]


def state_of(cells: str, mover: str) -> State:
    """The service's state of a board string and side to move."""
    x = sum(1 << i for i, symbol in enumerate(cells) if symbol == "X")
    o = sum(1 << i for i, symbol in enumerate(cells) if symbol == "O")
    return State(x, o, X_MARK if mover == "X" else O_MARK)


def engine_ranked(values: Values, cells: str, mover: str) -> Ranked:
    ranked = values.ranked(state_of(cells, mover))
    assert all(move.mark == (X_MARK if mover == "X" else O_MARK) for move in ranked)
    return [(move.cell, move.score, move.plies, move.traps) for move in ranked]


def shipped(variant_id: str) -> Values:
    return Values(VARIANTS[variant_id], table(variant_id))


def first_plies(rules: Rules, first: str, most: int) -> set[tuple[str, str]]:
    """Every unfinished ``(board, side to move)`` of the games started by ``first``, up to ``most`` marks."""
    found = {(rules.start(), first)}
    layer = set(found)
    for _ in range(most):
        following = set()
        for cells, mover in layer:
            for move in rules.moves(cells, mover):
                played, ended = rules.after(cells, move)
                if ended is None:
                    following.add((played, rules.other(mover)))
        found |= following
        layer = following
    return found


def boards_with_few_marks(cells: int, most: int) -> int:
    """How many boards of ``cells`` cells hold at most ``most`` marks that alternate from a given side."""
    return sum(comb(cells, (k + 1) // 2) * comb(cells - (k + 1) // 2, k // 2) for k in range(most + 1))


@pytest.mark.parametrize("variant_id", IDS)
def test_the_oracles_solve_reaches_the_tables_classes_and_the_contracts_count(
    oracles: dict[str, Oracle], variant_id: str
) -> None:
    oracle = solved(oracles, variant_id)
    assert oracle.value(oracle.rules.start(), "X") == {"4x4": (0, 16), "4x4-3": (1, 5)}[variant_id]
    assert oracle.value(oracle.rules.start(), "O") == oracle.value(oracle.rules.start(), "X")
    assert oracle.classes == len(table(variant_id))
    # Each class (a canonical board, X to move) stands for its distinct images under the symmetries with
    # X to move (X started, or O started and X moves second) and as many with the marks swapped.
    positions = 0
    for cells, _ in itertools.islice(oracle.rules.memo, oracle.classes):
        positions += 2 * len(set(oracle.rules.images(cells)))
    assert positions == 2 * {"4x4": 9_062_619, "4x4-3": 3_463_541}[variant_id]


@pytest.mark.parametrize("variant_id", IDS)
def test_every_position_with_few_marks_has_the_oracles_value_and_ranked_moves(
    oracles: dict[str, Oracle], variant_id: str
) -> None:
    oracle, values = solved(oracles, variant_id), shipped(variant_id)
    for first in ("X", "O"):
        positions = first_plies(oracle.rules, first, FEW)
        assert len(positions) == boards_with_few_marks(16, FEW) == 12_857
        for cells, mover in sorted(positions):
            assert values.value(state_of(cells, mover)) == oracle.value(cells, mover), (cells, mover)
            assert engine_ranked(values, cells, mover) == oracle.ranked(cells, mover), (cells, mover)


def random_positions(rules: Rules, seed: int) -> Iterator[tuple[str, str]]:
    """Unfinished ``(board, side to move)`` with more than :data:`FEW` marks along random games, either
    side starting, each once."""
    rng = random.Random(seed)
    seen: set[tuple[str, str]] = set()
    while True:
        cells, mover = rules.start(), rng.choice("XO")
        while True:
            played, ended = rules.after(cells, rng.choice(list(rules.moves(cells, mover))))
            if ended is not None:
                break
            cells, mover = played, rules.other(mover)
            if len(cells) - cells.count(".") > FEW and (cells, mover) not in seen:
                seen.add((cells, mover))
                yield cells, mover


@pytest.mark.parametrize("variant_id", IDS)
def test_random_positions_have_the_oracles_value_and_ranked_moves(
    oracles: dict[str, Oracle], variant_id: str
) -> None:
    oracle, values = solved(oracles, variant_id), shipped(variant_id)
    positions = random_positions(oracle.rules, seed=44 if variant_id == "4x4" else 43)
    ranked = 0
    for index, (cells, mover) in enumerate(itertools.islice(positions, RANDOM_POSITIONS)):
        assert values.value(state_of(cells, mover)) == oracle.value(cells, mover), (cells, mover)
        if index % RANKED_EVERY == 0:
            assert engine_ranked(values, cells, mover) == oracle.ranked(cells, mover), (cells, mover)
            ranked += 1
    assert ranked == RANDOM_POSITIONS // RANKED_EVERY


def status_of(rules: Rules, cells: str, mover: str, first: str) -> str:
    """The contract's status of a board that a game started by ``first`` reaches, ``mover`` to move:
    in progress while ``mover`` has a move, else what the last move did (taken back and played again)."""
    if any(True for _ in rules.moves(cells, mover)):
        return "in_progress"
    last = rules.other(mover)
    for cell, symbol in enumerate(cells):
        before = cells[:cell] + "." + cells[cell + 1 :]
        if (
            symbol == last
            and (cell, last) in rules.moves(before, last)
            and rules.reached(before, last, first)
        ):
            ended = rules.after(before, (cell, last))[1]
            assert ended is not None
            return "draw" if ended == 0 else f"{(last if ended > 0 else mover).lower()}_won"
    raise AssertionError(f"no last move of {last} leads to {cells}")


def full_lines(rules: Rules, cells: str) -> set[frozenset[int]]:
    return {
        frozenset(line)
        for line in rules.lines
        if cells[line[0]] != "." and len({cells[c] for c in line}) == 1
    }


def boards_to_resolve(rules: Rules, seed: int) -> Iterator[str]:
    """Boards of random games, at a random length or their end (legal), the same with one cell changed,
    random strings, random strings with counts that alternate, and those with two random lines drawn."""
    rng = random.Random(seed)
    for _ in range(LEGALITY_BOARDS):
        cells, mover = rules.start(), rng.choice("XO")
        stop = rng.randrange(1, 17)
        while True:
            cells, ended = rules.after(cells, rng.choice(list(rules.moves(cells, mover))))
            mover = rules.other(mover)
            if ended is not None or len(cells) - cells.count(".") == stop:
                break
        yield cells
        cell = rng.randrange(16)
        yield cells[:cell] + rng.choice("XO.".replace(cells[cell], "")) + cells[cell + 1 :]
        yield "".join(rng.choice("XO.") for _ in range(16))
        marks = rng.randrange(17)
        symbols = list("X" * ((marks + 1) // 2) + "O" * (marks // 2) + "." * (16 - marks))
        rng.shuffle(symbols)
        yield "".join(symbols if rng.random() < 0.5 else [{"X": "O", "O": "X"}.get(s, s) for s in symbols])
        yield with_two_lines(rules, rng)


def with_two_lines(rules: Rules, rng: random.Random) -> str:
    """A random full board with two random lines drawn, each of a random mark, then marks off the lines
    changed until the counts differ by at most one (where they can)."""
    symbols = list("X" * 8 + "O" * 8)
    rng.shuffle(symbols)
    drawn: set[int] = set()
    for line in rng.sample(rules.lines, 2):
        mark = rng.choice("XO")
        for cell in line:
            symbols[cell] = mark
        drawn |= set(line)
    off = [cell for cell in range(len(symbols)) if cell not in drawn]
    rng.shuffle(off)
    for cell in off:
        more, fewer = ("X", "O") if symbols.count("X") > symbols.count("O") else ("O", "X")
        if symbols.count(more) - symbols.count(fewer) <= 1:
            break
        if symbols[cell] == more:
            symbols[cell] = fewer
    for cell in rng.sample(off, rng.randrange(3)):
        symbols[cell] = "."
    return "".join(symbols)


@pytest.mark.parametrize("variant_id", IDS)
def test_boards_resolve_exactly_when_a_game_reaches_them(variant_id: str) -> None:
    variant = VARIANTS[variant_id]
    rules = Rules(ORACLES[variant_id].size, ORACLES[variant_id].line)
    tally: Counter[str] = Counter()
    for cells in boards_to_resolve(rules, seed=7 if variant_id == "4x4" else 8):
        x, o = cells.count("X"), cells.count("O")
        for player in (None, "X", "O"):
            movers = [player] if player is not None else ["X", "O"]
            arrivals = [(m, f) for m in movers for f in ("X", "O") if rules.reached(cells, m, f)]
            try:
                position = variant.resolve(cells, player)
            except BoardError as error:
                assert not arrivals, (cells, player, error.message)
                tally[error.code] += 1
                continue
            assert arrivals, (cells, player)
            tally["legal"] += 1
            assert {frozenset(line) for line in position.winning_lines} == full_lines(rules, cells)
            if position.player is not None:
                by_counts = "O" if x > o else "X" if o > x else player or "X"
                assert position.player == by_counts, (cells, player)
                assert any(m == position.player for m, _ in arrivals), (cells, player)
                assert position.status == "in_progress", (cells, player)
            else:
                tally[position.status] += 1
                statuses = {status_of(rules, cells, m, f) for m, f in arrivals}
                assert statuses == {position.status}, (cells, player, statuses)
    # Every outcome and every refusal occurs (a drawn 4 × 4 board without three in a row is rare).
    expected = {"legal", "x_won", "o_won", "draw"}
    expected |= {"board_counts", "board_two_winners", "board_lines_apart", "board_winner_not_last"}
    expected |= {"player_contradicts_counts", "player_winner_not_last"}
    assert set(tally) == expected, tally
    assert min(tally.values()) >= 5, tally


@pytest.mark.parametrize("variant_id", ["standard", "misere", "wild", "notakto"])
def test_taking_back_moves_finds_exactly_the_boards_games_reach_on_three_by_three(variant_id: str) -> None:
    """:meth:`Rules.reached` against the oracle's forward walk of every game, on every 3 × 3 board."""
    oracle = ORACLES[variant_id]
    rules = Rules(oracle.size, oracle.line, oracle.boards, oracle.marks, oracle.misere)
    sides = ("X", "O") if rules.marks == "own" else ("first", "second")
    firsts = sides if rules.marks == "own" else sides[:1]
    reached = {first: rules.games(first) for first in firsts}
    for symbols in itertools.product("X." if rules.marks == "x_only" else "XO.", repeat=9):
        cells = "".join(symbols)
        for mover, first in itertools.product(sides, firsts):
            expected = (cells, mover) in reached[first]
            assert rules.reached(cells, mover, first) == expected, (cells, mover, first)
