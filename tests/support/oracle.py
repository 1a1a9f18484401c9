"""An independent brute-force tic-tac-toe oracle, sharing no code with ``service``.

Boards are tuples of nine ints: ``1`` for X, ``-1`` for O, ``0`` for empty.
Values follow the API contract: from the side to move, ``(score, plies)``
with the winner hurrying and the loser delaying.
"""

from __future__ import annotations

from functools import cache

WIN_LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
TO_INT = {"X": 1, "O": -1, ".": 0}
TO_CHAR = {1: "X", -1: "O", 0: "."}


def encode(text: str) -> tuple[int, ...]:
    return tuple(TO_INT[ch] for ch in text)


def decode(cells: tuple[int, ...]) -> str:
    return "".join(TO_CHAR[v] for v in cells)


def has_line(cells: tuple[int, ...], side: int) -> bool:
    return any(cells[a] == cells[b] == cells[c] == side for a, b, c in WIN_LINES)


def finished(cells: tuple[int, ...]) -> bool:
    return has_line(cells, 1) or has_line(cells, -1) or 0 not in cells


def better(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Is value ``a`` strictly better than ``b`` for the side that gets it?"""
    if a[0] != b[0]:
        return a[0] > b[0]
    if a[0] == 1:
        return a[1] < b[1]
    if a[0] == -1:
        return a[1] > b[1]
    return False


@cache
def move_values(cells: tuple[int, ...], side: int) -> tuple[tuple[int, int, int], ...]:
    """``(cell, score, plies)`` of every legal move for ``side``, by cell."""
    out = []
    for i in range(9):
        if cells[i] != 0:
            continue
        child = cells[:i] + (side,) + cells[i + 1 :]
        if has_line(child, side):
            out.append((i, 1, 1))
        elif 0 not in child:
            out.append((i, 0, 1))
        else:
            score, plies = value(child, -side)
            out.append((i, -score, plies + 1))
    return tuple(out)


@cache
def value(cells: tuple[int, ...], side: int) -> tuple[int, int]:
    best: tuple[int, int] | None = None
    for _, score, plies in move_values(cells, side):
        if best is None or better((score, plies), best):
            best = (score, plies)
    assert best is not None
    return best


def optimal_moves(cells: tuple[int, ...], side: int) -> list[int]:
    best = value(cells, side)
    return [i for i, s, p in move_values(cells, side) if (s, p) == best]


def traps(cells: tuple[int, ...], side: int, cell: int) -> int:
    child = cells[:cell] + (side,) + cells[cell + 1 :]
    if finished(child):
        return 0
    best_for_opponent = value(child, -side)[0]
    return sum(1 for _, s, _ in move_values(child, -side) if s < best_for_opponent)


def choose(cells: tuple[int, ...], side: int) -> int:
    """Steps 1–4 of the contract: optimal, then most traps, then lowest cell."""
    candidates = optimal_moves(cells, side)
    most = max(traps(cells, side, c) for c in candidates)
    return min(c for c in candidates if traps(cells, side, c) == most)


def principal_variation(cells: tuple[int, ...], side: int) -> list[int]:
    line = []
    while not finished(cells):
        cell = choose(cells, side)
        line.append(cell)
        cells = cells[:cell] + (side,) + cells[cell + 1 :]
        side = -side
    return line


def reachable() -> dict[tuple[int, ...], set[int]]:
    """Every board reached by real play from the empty board with either side starting.

    Maps each board to the sides that can be to move on it (empty set when finished).
    """
    seen: dict[tuple[int, ...], set[int]] = {}
    stack: list[tuple[tuple[int, ...], int]] = [((0,) * 9, 1), ((0,) * 9, -1)]
    visited: set[tuple[tuple[int, ...], int]] = set()
    while stack:
        cells, side = stack.pop()
        if (cells, side) in visited:
            continue
        visited.add((cells, side))
        if finished(cells):
            seen.setdefault(cells, set())
            continue
        seen.setdefault(cells, set()).add(side)
        for i in range(9):
            if cells[i] == 0:
                stack.append((cells[:i] + (side,) + cells[i + 1 :], -side))
    return seen


# --- a player that looks only a few plies ahead (the horizon rule), written again from its definition ---


@cache
def horizon_move_values(cells: tuple[int, ...], side: int, depth: int) -> tuple[tuple[int, int, int], ...]:
    """``(cell, score, plies)`` of every legal move when looking ``depth`` plies ahead."""
    out = []
    for i in range(9):
        if cells[i] != 0:
            continue
        child = cells[:i] + (side,) + cells[i + 1 :]
        if has_line(child, side):
            out.append((i, 1, 1))
        elif 0 not in child or depth == 1:
            out.append((i, 0, 1))
        else:
            score, plies = horizon_value(child, -side, depth - 1)
            out.append((i, -score, plies + 1))
    return tuple(out)


@cache
def horizon_value(cells: tuple[int, ...], side: int, depth: int) -> tuple[int, int]:
    best: tuple[int, int] | None = None
    for _, score, plies in horizon_move_values(cells, side, depth):
        if best is None or better((score, plies), best):
            best = (score, plies)
    assert best is not None
    return best


def horizon_best_moves(cells: tuple[int, ...], side: int, depth: int) -> list[int]:
    """The moves no other move beats within the horizon (``better`` lets all draws tie)."""
    values = horizon_move_values(cells, side, depth)
    return [i for i, score, plies in values if not any(better((s, p), (score, plies)) for _, s, p in values)]


# --- tactics, written again from their definitions ----------------------------------------------


def completing(cells: tuple[int, ...], side: int) -> set[int]:
    """Empty cells whose line holds ``side`` on its other two cells."""
    return {
        i
        for i in range(9)
        if cells[i] == 0
        and any(i in line and all(cells[j] == side for j in line if j != i) for line in WIN_LINES)
    }


@cache
def fork_cells(cells: tuple[int, ...], side: int) -> frozenset[int]:
    return frozenset(
        i
        for i in range(9)
        if cells[i] == 0 and len(completing(cells[:i] + (side,) + cells[i + 1 :], side)) >= 2
    )


def tactics(cells: tuple[int, ...], side: int, cell: int) -> list[str]:
    """The tags of the contract that hold for ``side`` playing ``cell``, in its order."""
    after = cells[:cell] + (side,) + cells[cell + 1 :]
    win = cell in completing(cells, side)
    tags = []
    if win:
        tags.append("win")
    if cell in completing(cells, -side):
        tags.append("block")
    mine = completing(after, side)
    if not win and len(mine) >= 2:
        tags.append("fork")
    if not win and len(mine) == 1:
        tags.append("threat")
    if fork_cells(cells, -side) and not fork_cells(after, -side):
        tags.append("block_fork")
    tags.append({4: "center", 0: "corner", 2: "corner", 6: "corner", 8: "corner"}.get(cell, "edge"))
    opposite = {0: 8, 8: 0, 2: 6, 6: 2}.get(cell)
    if opposite is not None and cells[opposite] == -side:
        tags.append("opposite_corner")
    return tags
