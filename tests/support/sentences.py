"""The standard game's sentences, written from the textbook oracle's tactics and names written here, apart
from the code under test: what the tests of the tactics and of the puzzles compare the service's with."""

from __future__ import annotations

from collections.abc import Callable

from tests.support import oracle

#: Cells and lines as a person names them, written here apart from the code under test.
CELL_NAMES = [
    f"the {where}" for where in (
        "top-left corner", "top edge", "top-right corner",
        "left edge", "center", "right edge",
        "bottom-left corner", "bottom edge", "bottom-right corner",
    )
]  # fmt: skip
#: The lines of the standard game in the order a sentence picks the first of them: rows, columns,
#: then the diagonals.
LINE_NAMES: dict[tuple[int, ...], str] = {
    (0, 1, 2): "top row",
    (3, 4, 5): "middle row",
    (6, 7, 8): "bottom row",
    (0, 3, 6): "left column",
    (1, 4, 7): "middle column",
    (2, 5, 8): "right column",
    (0, 4, 8): "diagonal from the top-left",
    (2, 4, 6): "diagonal from the top-right",
}

MARK = {1: "X", -1: "O"}


def listed(cells: set[int] | frozenset[int]) -> str:
    """Cells by their names, in cell order: ``A``, ``A and B``, ``A, B and C``."""
    names = [CELL_NAMES[cell] for cell in sorted(cells)]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" and {names[-1]}"


def first_line(through: int, holds: Callable[[int], bool]) -> str:
    """The name of the first line (as :data:`LINE_NAMES` lists them) through the cell ``through`` whose other
    cells all pass ``holds``."""
    return next(
        name
        for line, name in LINE_NAMES.items()
        if through in line and all(holds(c) for c in line if c != through)
    )


def standard_sentence(cells: tuple[int, ...], side: int, cell: int, score: int, plies: int) -> str:
    """The sentence of a move of the standard game, built from the oracle's tags and the names above: its
    main tactic with its cells and lines, then how the game ends or the move's value."""
    me, you = MARK[side], MARK[-side]
    tags = oracle.tactics(cells, side, cell)
    after = cells[:cell] + (side,) + cells[cell + 1 :]
    if "win" in tags:
        return f"Completes {me}'s {first_line(cell, lambda c: after[c] == side)}: {me} wins."
    if "block" in tags:
        action = f"Blocks {you}'s {first_line(cell, lambda c: cells[c] == -side)}"
    elif "fork" in tags:
        action = f"Forks: {me} threatens to win at {listed(oracle.completing(after, side))}"
    elif "block_fork" in tags:
        forks = oracle.fork_cells(cells, -side)
        action = f"Takes away {you}'s fork{'s' if len(forks) > 1 else ''} at {listed(forks)}"
    elif "threat" in tags:
        (target,) = oracle.completing(after, side)
        line = first_line(target, lambda c: after[c] == side)
        action = f"Threatens to complete the {line} at {CELL_NAMES[target]}"
    elif "opposite_corner" in tags:
        action = f"Takes {CELL_NAMES[cell]}, opposite {you}'s mark in {CELL_NAMES[8 - cell]}"
    else:
        action = f"Takes {CELL_NAMES[cell]}"
    value = {
        1: f"{me} wins with best play, in {plies} moves",
        0: "the game is a draw with best play",
        -1: f"{you} can force a win, in {plies} moves",
    }[score]
    return f"{action}; {value}."
