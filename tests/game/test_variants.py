"""The tic-tac-toe family's rules as data, and their exact values against an oracle written apart.

The oracle (:mod:`tests.support.variant_oracle`) is a textbook negamax over board strings, written
from the API contract's table of variants; it shares nothing with ``service.game``. Every position
that a game of ``standard``, ``misere``, ``wild``, ``notakto`` and ``notakto-2`` reaches is checked
against it; ``notakto-3`` has tens of millions, so random games' later positions are checked, and its
start against the contract's facts; the standard variant against the standard game's solver.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from service.game import Board, BoardError, Position, solve
from service.game.exact import Values
from service.game.geometry import LINES, STANDARD, SYMMETRIES, grid
from service.game.horizon import best_cells
from service.game.tables import TABLED, Table, TableError, path_of, table
from service.game.variants import O_MARK, VARIANTS, X_MARK, State, Variant
from tests.support.variant_oracle import VARIANTS as ORACLES
from tests.support.variant_oracle import Rules

#: The contract's facts: the start's value for the first side, by variant.
STARTS = {
    "standard": (0, 9),
    "misere": (0, 9),
    "wild": (1, 7),
    "notakto": (1, 6),
    "notakto-2": (-1, 11),
    "notakto-3": (1, 14),
    "4x4": (0, 16),
    "4x4-3": (1, 5),
}
#: Unfinished positions (a board and its side to move), either side starting where that applies: the
#: oracle's counts for 3 × 3 (as the exhaustive test below finds them), the contract's for 4 × 4 (with X
#: first; as many with O first).
POSITIONS = {
    "misere": 9040,
    "wild": 11093,
    "notakto": 230,
    "notakto-2": 154100,
    "4x4": 2 * 9_062_619,
    "4x4-3": 2 * 3_463_541,
}
EXHAUSTIVE = ["standard", "misere", "wild", "notakto", "notakto-2"]
#: Marks from which ``notakto-3``'s positions in random games are checked: the oracle, with no
#: symmetries, solves what follows them in seconds.
LATE = 12


def state_of(variant: Variant, cells: str, mover: str) -> State:
    """The service's state of a board string and side to move, as the oracle writes them."""
    x = sum(1 << i for i, symbol in enumerate(cells) if symbol == "X")
    o = sum(1 << i for i, symbol in enumerate(cells) if symbol == "O")
    side = {"X": X_MARK, "O": O_MARK, "first": 0, "second": 1}[mover]
    return State(x, o, side)


def shipped(variant: Variant) -> Values:
    """The values the service gives: from the shipped table, or solved for the standard game."""
    return Values(variant, table(variant.id)) if variant in TABLED else Values(variant)


def firsts(variant: Variant) -> list[str]:
    return ["X", "O"] if variant.marks == "own" else ["first"]


def test_the_variants_are_the_contracts() -> None:
    assert list(VARIANTS) == [
        "standard",
        "misere",
        "wild",
        "notakto",
        "notakto-2",
        "notakto-3",
        "4x4",
        "4x4-3",
    ]
    for variant in VARIANTS.values():
        oracle = ORACLES[variant.id]
        assert (variant.size, variant.line, variant.boards) == (oracle.size, oracle.line, oracle.boards)
        assert (variant.marks, variant.misere) == (oracle.marks, oracle.misere)


@pytest.mark.parametrize(("size", "line", "count"), [(3, 3, 8), (4, 4, 10), (4, 3, 24)])
def test_each_grid_has_the_contracts_lines_and_its_symmetries_keep_them(
    size: int, line: int, count: int
) -> None:
    found = grid(size, line)
    oracle = Rules(size, line)
    assert len(found.lines) == count
    assert sorted(sorted(each) for each in found.lines) == sorted(sorted(each) for each in oracle.lines)
    assert len(set(found.symmetries)) == 8
    lines = {frozenset(each) for each in found.lines}
    for symmetry in found.symmetries:
        assert sorted(symmetry) == list(found.cells)
        assert {frozenset(symmetry[cell] for cell in each) for each in found.lines} == lines


def test_the_standard_grid_is_the_standard_games_geometry() -> None:
    assert (
        STANDARD.lines
        == LINES
        == ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
    )
    assert STANDARD.symmetries == SYMMETRIES
    assert SYMMETRIES[1] == (6, 3, 0, 7, 4, 1, 8, 5, 2)  # a quarter turn clockwise
    assert SYMMETRIES[4] == (2, 1, 0, 5, 4, 3, 8, 7, 6)  # a mirror


@pytest.mark.parametrize("variant_id", list(STARTS))
def test_the_start_has_the_contracts_value(variant_id: str) -> None:
    variant = VARIANTS[variant_id]
    assert shipped(variant).value(variant.start()) == STARTS[variant_id]


@pytest.mark.parametrize("variant_id", list(POSITIONS))
def test_each_table_stands_for_the_contracts_count_of_positions(variant_id: str) -> None:
    assert table(variant_id).positions == POSITIONS[variant_id]


def test_a_table_file_of_another_variant_or_of_nothing_is_refused(tmp_path: Path) -> None:
    for found in (path_of(VARIANTS["notakto"]).read_bytes(), b"", b"tttable1", b"x" * 300):
        (tmp_path / "wild.table").write_bytes(found)
        with pytest.raises(TableError):
            Table(VARIANTS["wild"], tmp_path / "wild.table")
    with pytest.raises(TableError):
        Table(VARIANTS["wild"], tmp_path / "missing.table")


@pytest.mark.parametrize("variant_id", EXHAUSTIVE)
def test_every_reachable_position_has_the_oracles_value(variant_id: str) -> None:
    variant, oracle = VARIANTS[variant_id], ORACLES[variant_id]
    values = shipped(variant)
    checked = 0
    for first in firsts(variant):
        for cells, mover in oracle.reachable(first):
            state = state_of(variant, cells, mover)
            assert values.value(state) == oracle.value(cells, mover), (cells, mover)
            moves = [(move.cell, "XO"[move.mark]) for move in variant.moves(state)]
            assert moves == sorted(oracle.moves(cells, mover), key=lambda m: (m[0], m[1] == "O"))
            checked += 1
    assert (
        checked
        == {"standard": 9040, "misere": 9040, "wild": 11093, "notakto": 230, "notakto-2": 154100}[variant_id]
    )


def test_notakto_on_three_boards_agrees_with_the_oracle_late_in_random_games() -> None:
    variant, oracle = VARIANTS["notakto-3"], ORACLES["notakto-3"]
    values = shipped(variant)
    rng = random.Random(3)
    checked = 0
    for _ in range(300):
        cells, mover = oracle.start(), "first"
        while True:
            moves = list(oracle.moves(cells, mover))
            played, ended = oracle.after(cells, rng.choice(moves))
            if ended is not None:
                break
            cells, mover = played, oracle.other(mover)
            if cells.count("X") >= LATE:
                assert values.value(state_of(variant, cells, mover)) == oracle.value(cells, mover), cells
                checked += 1
    assert checked >= 500


def test_the_standard_variant_values_every_position_as_the_standard_solver() -> None:
    game = solve()
    values = Values(VARIANTS["standard"])
    compared = 0
    for analysis in game:
        if analysis.score is None:
            continue
        cells, mover = analysis.position.board.cells, analysis.position.to_move
        assert mover is not None
        state = state_of(VARIANTS["standard"], cells, mover)
        assert values.value(state) == (analysis.score, analysis.plies), cells
        compared += 1
    assert compared == 9040


@pytest.mark.parametrize("variant_id", ["misere", "wild", "notakto"])
def test_every_reachable_positions_moves_are_ranked_by_the_oracles_values(variant_id: str) -> None:
    variant, oracle = VARIANTS[variant_id], ORACLES[variant_id]
    values = shipped(variant)
    for first in firsts(variant):
        for cells, mover in oracle.reachable(first):
            ranked = values.ranked(state_of(variant, cells, mover))
            for move in ranked:
                played, ended = oracle.after(cells, (move.cell, "XO"[move.mark]))
                if ended is not None:
                    assert (move.score, move.plies, move.traps) == (ended, 1, 0), (cells, move)
                else:
                    score, plies = oracle.value(played, oracle.other(mover))
                    traps = oracle.traps(played, oracle.other(mover))
                    assert (move.score, move.plies, move.traps) == (-score, plies + 1, traps), (cells, move)
            # The contract's order: score, fastest win or slowest loss, most traps, cell, X before O.
            order = [
                (
                    -m.score,
                    m.plies if m.score > 0 else -m.plies if m.score < 0 else 0,
                    -m.traps,
                    m.cell,
                    m.mark,
                )
                for m in ranked
            ]
            assert order == sorted(order)


def test_the_standard_variant_ranks_every_move_as_the_standard_solver() -> None:
    """The standard game's answers, from the solver of every variant: the same moves in the same order,
    with the same values and traps, and the same principal variation."""
    variant = VARIANTS["standard"]
    values = Values(variant)
    compared = 0
    for analysis in solve():
        position = analysis.position
        if position.to_move is None:
            continue
        state = state_of(variant, position.board.cells, position.to_move)
        ranked = values.ranked(state)
        assert [(m.cell, m.score, m.plies, m.traps) for m in ranked] == [tuple(m) for m in analysis.moves]
        assert tuple(m.cell for m in values.variation(state)) == analysis.principal_variation
        compared += 1
    assert compared == 9040


def every_board(variant: Variant) -> Iterator[str]:
    """Every string of the variant's symbols, of its length."""
    symbols = "X." if variant.marks == "x_only" else "XO."
    return ("".join(cells) for cells in itertools.product(symbols, repeat=variant.cells))


def expected_status(variant: Variant, mover: str, ended: int | None) -> str:
    """The status the contract gives a board the oracle reached, ``mover`` to move after it."""
    if ended is None:
        return "in_progress"
    if ended == 0:
        return "draw"
    last = ORACLES[variant.id].other(mover)
    winner = last if ended > 0 else mover
    return f"{winner.lower()}_won" if variant.marks == "own" else f"{winner}_won"


@pytest.mark.parametrize("variant_id", ["misere", "wild", "notakto", "notakto-2"])
def test_exactly_the_boards_a_game_reaches_are_legal(variant_id: str) -> None:
    """Every string of the variant's symbols resolves, with every player, exactly when a game reaches it
    (started by either side where that applies), to the oracle's side to move and status."""
    variant, oracle = VARIANTS[variant_id], ORACLES[variant_id]
    reached: dict[tuple[str, str], int | None] = {}
    for first in firsts(variant):
        reached |= oracle.games(first)
    movers: dict[str, list[str]] = {}
    for cells, mover in reached:
        movers.setdefault(cells, []).append(mover)
    boards = set(movers)
    legal = 0
    for cells in every_board(variant):
        for player in (None, *variant.sides):
            try:
                position = variant.resolve(cells, player)
            except BoardError as error:
                assert cells not in boards or player is not None, (cells, player, error.message)
                if cells in boards:  # a player that does not fit this board
                    assert error.field == "player", (cells, player, error.message)
                continue
            assert cells in boards, (cells, player)
            legal += player is None
            mover = position.player or next(m for m in movers[cells] if player in (None, m))
            if position.player is not None:
                assert (cells, position.player) in reached, (cells, player)
            assert position.status == expected_status(variant, mover, reached[cells, mover]), (cells, player)
    assert legal == len(boards)


def test_the_standard_variant_resolves_every_board_as_the_standard_rules() -> None:
    """Every string of X, O and . with every player: the same legality, error code and field, side to
    move, status and lines as :meth:`Position.resolve`."""
    variant = VARIANTS["standard"]
    for cells in every_board(variant):
        for player in (None, "X", "O"):
            try:
                expected = Position.resolve(Board(cells), player)
            except BoardError as error:
                with pytest.raises(BoardError) as found:
                    variant.resolve(cells, player)
                assert (found.value.code, found.value.field, found.value.message) == (
                    error.code,
                    error.field,
                    error.message,
                )
                continue
            position = variant.resolve(cells, player)
            assert position.player == expected.to_move
            assert position.status == expected.status.value
            assert position.winning_lines == expected.board.winning_lines()


@pytest.mark.parametrize(
    ("variant_id", "board", "code"),
    [
        ("misere", "XXX.....", "board_length"),
        ("notakto", "X...O....", "board_symbol"),
        ("4x4-3", "XXX.XXX.OOO.OOO.", "board_two_winners"),
        ("4x4-3", "XXXOXXX.OO.O.OO.", "board_lines_apart"),
        ("wild", "XXX.X.XXX", "board_lines_apart"),
        ("notakto", "XXXXXXXXX", "board_lines_apart"),
        ("misere", "XXXO..OOO", "board_two_winners"),
        ("misere", "XXXOO.OO.", "board_winner_not_last"),
    ],
)
def test_unreachable_and_malformed_boards_are_named(variant_id: str, board: str, code: str) -> None:
    variant = VARIANTS[variant_id]
    with pytest.raises(BoardError) as found:
        variant.resolve(variant.parse(board))
    assert found.value.code == code, found.value.message


def test_a_player_of_another_variant_is_refused() -> None:
    with pytest.raises(BoardError) as found:
        VARIANTS["wild"].resolve(".........", "X")
    assert (found.value.code, found.value.field) == ("player_unknown", "player")
    assert '"first" or "second"' in found.value.message
    with pytest.raises(BoardError) as found:
        VARIANTS["misere"].resolve(".........", "first")
    assert found.value.code == "player_unknown"


def test_the_horizon_from_the_table_is_the_standard_games_horizon_search() -> None:
    """:meth:`Values.within` reads the horizon off exact values; :mod:`service.game.horizon` searches
    it, depth by depth: on every position of the standard game, at every depth, they agree."""
    values = Values(VARIANTS["standard"])
    compared = 0
    for analysis in solve():
        position = analysis.position
        if position.to_move is None:
            continue
        state = state_of(VARIANTS["standard"], position.board.cells, position.to_move)
        for depth in range(1, 10):
            found = sorted(move.cell for move in values.within(state, depth))
            assert found == list(best_cells(position, depth)), (position, depth)
            compared += 1
    assert compared == 9040 * 9


@pytest.mark.parametrize("variant_id", ["misere", "wild", "notakto"])
def test_the_horizon_of_each_small_variant_is_the_oracles_depth_limited_search(variant_id: str) -> None:
    variant, oracle = VARIANTS[variant_id], ORACLES[variant_id]
    values = shipped(variant)
    for first in firsts(variant):
        for cells, mover in oracle.reachable(first):
            state = state_of(variant, cells, mover)
            for depth in range(1, variant.cells + 1):
                expected = oracle.within(cells, mover, depth)
                found = sorted((move.cell, "XO"[move.mark]) for move in values.within(state, depth))
                assert found == expected, (cells, mover, depth)
