"""The tic-tac-toe family's rules as data, its shipped tables, and which boards are legal.

The oracle (:mod:`tests.support.variant_oracle`) is a textbook negamax over board strings, written
from the API contract's table of variants; it shares nothing with ``service.game``. Every string of a
variant on 3 × 3 boards (``standard``, ``misere``, ``wild``, ``notakto`` and ``notakto-2``) resolves,
with every player, exactly when a game reaches it, to the oracle's side to move, status and lines. The
values and the move order are checked in ``test_values.py``, the horizon in ``test_horizon.py``, the
4 × 4 variants in ``test_variants_4x4.py`` and the standard game's board reading and words for an
illegal board in ``test_board.py``.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest

from service.game import BoardError
from service.game.geometry import grid
from service.game.tables import Table, TableError, path_of, table
from service.game.variants import VARIANTS, Variant
from tests.support.variant_oracle import VARIANTS as ORACLES
from tests.support.variant_oracle import Rules

#: Unfinished positions (a board and its side to move), either side starting where that applies: the
#: oracle's counts for 3 × 3 (as the exhaustive test below finds them), the contract's for 4 × 4 (with X
#: first; as many with O first).
POSITIONS = {
    "standard": 9040,
    "misere": 9040,
    "wild": 11093,
    "notakto": 230,
    "notakto-2": 154100,
    "4x4": 2 * 9_062_619,
    "4x4-3": 2 * 3_463_541,
}


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
    standard = VARIANTS["standard"].grid
    assert standard is grid(3, 3)
    assert standard.lines == (
        (0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)
    )  # fmt: skip
    assert standard.symmetries[1] == (6, 3, 0, 7, 4, 1, 8, 5, 2)  # a quarter turn clockwise
    assert standard.symmetries[4] == (2, 1, 0, 5, 4, 3, 8, 7, 6)  # a mirror


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


def full_lines(rules: Rules, cells: str) -> list[tuple[int, ...]]:
    """The lines full of one mark on every board, as cells of the whole string, each sorted, in order."""
    found = []
    for index in range(rules.boards):
        board = rules.board(cells, index)
        for line in rules.lines:
            if board[line[0]] != "." and len({board[cell] for cell in line}) == 1:
                found.append(tuple(sorted(index * rules.width + cell for cell in line)))
    return sorted(found)


@pytest.mark.parametrize("variant_id", ["standard", "misere", "wild", "notakto", "notakto-2"])
def test_exactly_the_boards_a_game_reaches_are_legal(variant_id: str) -> None:
    """Every string of the variant's symbols resolves, with every player, exactly when a game reaches it
    (started by either side where that applies), to the oracle's side to move, status and lines."""
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
            assert sorted(tuple(sorted(line)) for line in position.winning_lines) == full_lines(oracle, cells)
    assert legal == len(boards)


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
