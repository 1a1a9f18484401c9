"""The tactic tags of the tic-tac-toe family, worked out again from their definitions on board strings.

It shares nothing with ``service.game``: lines come from the textbook oracle
(:mod:`tests.support.variant_oracle`), which walks the board to find them, and every tag is found by
looking at the cells of a board string, before and after the move, as the definitions in
``service/game/tactics.py`` state them. ``mover`` is ``X`` or ``O`` in own-mark variants, else
``first`` or ``second``; a move is a cell of the whole string and the mark it places.
"""

from __future__ import annotations

from functools import cache

from tests.support.variant_oracle import Rules


def boards(rules: Rules, cells: str) -> list[str]:
    return [rules.board(cells, index) for index in range(rules.boards)]


def completing(rules: Rules, board: str, mark: str) -> frozenset[int]:
    """The empty cells of one board that would finish a line of ``mark``: its other cells all ``mark``."""
    return _completing(rules.size, rules.line, board, mark)


@cache
def _lines(size: int, length: int) -> list[list[int]]:
    return Rules(size, length).lines


@cache
def _completing(size: int, length: int, board: str, mark: str) -> frozenset[int]:
    found = set()
    for line in _lines(size, length):
        empty = [cell for cell in line if board[cell] == "."]
        if len(empty) == 1 and all(board[cell] == mark for cell in line if cell != empty[0]):
            found.add(empty[0])
    return frozenset(found)


def lined(rules: Rules, board: str) -> bool:
    """Whether one board of X alone holds a line."""
    return bool(_lined(rules.size, rules.line, board))


@cache
def _lined(size: int, length: int, board: str) -> bool:
    return any(all(board[cell] == "X" for cell in line) for line in _lines(size, length))


def fork_cells(rules: Rules, board: str, mark: str) -> frozenset[int]:
    """The empty cells that would give ``mark`` two or more completing cells."""
    return _fork_cells(rules.size, rules.line, board, mark)


@cache
def _fork_cells(size: int, length: int, board: str, mark: str) -> frozenset[int]:
    return frozenset(
        cell
        for cell, symbol in enumerate(board)
        if symbol == "." and len(_completing(size, length, put(board, cell, mark), mark)) >= 2
    )


def put(cells: str, cell: int, mark: str) -> str:
    return cells[:cell] + mark + cells[cell + 1 :]


def place(rules: Rules, cell: int) -> str:
    """``corner``: its row and column on the border; ``edge``: one of them; ``center``: neither."""
    row, column = divmod(cell % rules.width, rules.size)
    on_border = [index in (0, rules.size - 1) for index in (row, column)]
    return "corner" if all(on_border) else "edge" if any(on_border) else "center"


def opposite(rules: Rules, cell: int) -> int:
    """The cell across the center of its board."""
    start = cell - cell % rules.width
    return start + rules.width - 1 - cell % rules.width


def tactics(rules: Rules, cells: str, mover: str, cell: int, mark: str) -> list[str]:
    """The tags of the move, in listing order."""
    if rules.marks == "either":
        return wild(rules, cells, cell, mark)
    if rules.marks == "x_only":
        return notakto(rules, cells, cell)
    return misere(rules, cells, mover, cell) if rules.misere else lines(rules, cells, mover, cell)


def lines(rules: Rules, cells: str, mover: str, cell: int) -> list[str]:
    """Own marks, a line wins (one board)."""
    other = rules.other(mover)
    after = put(cells, cell, mover)
    win = cell in completing(rules, cells, mover)
    threats = completing(rules, after, mover)
    found = ["win"] if win else []
    if cell in completing(rules, cells, other):
        found.append("block")
    if not win and len(threats) >= 2:
        found.append("fork")
    if not win and len(threats) == 1:
        found.append("threat")
    if fork_cells(rules, cells, other) and not fork_cells(rules, after, other):
        found.append("block_fork")
    found.append(place(rules, cell))
    if place(rules, cell) == "corner" and cells[opposite(rules, cell)] == other:
        found.append("opposite_corner")
    return found


def misere(rules: Rules, cells: str, mover: str, cell: int) -> list[str]:
    """Own marks, a line loses."""
    other = rules.other(mover)
    after = put(cells, cell, mover)
    lose = cell in completing(rules, cells, mover)
    empty = [each for each, symbol in enumerate(after) if symbol == "."]
    found = ["lose"] if lose else []
    if not lose and empty and all(each in completing(rules, after, other) for each in empty):
        found.append("squeeze")
    if not lose and completing(rules, cells, mover):
        found.append("avoid")
    found.append(place(rules, cell))
    if cells[opposite(rules, cell)] == other:
        found.append("opposite")
    return found


def open_cells(rules: Rules, board: str) -> frozenset[int]:
    """The cells that would finish a line with X or with O."""
    return completing(rules, board, "X") | completing(rules, board, "O")


def wild(rules: Rules, cells: str, cell: int, mark: str) -> list[str]:
    """Either mark, a line of either mark wins."""
    after = put(cells, cell, mark)
    win = cell in completing(rules, cells, mark)
    empty = [each for each, symbol in enumerate(after) if symbol == "."]
    gift = not win and bool(open_cells(rules, after))
    squeeze = (
        not win
        and not gift
        and bool(empty)
        and all(open_cells(rules, put(after, each, reply)) for each in empty for reply in "XO")
    )
    found = ["win"] if win else []
    if not win and cell in open_cells(rules, cells):
        found.append("block")
    if gift:
        found.append("gift")
    if squeeze:
        found.append("squeeze")
    found.append(place(rules, cell))
    return found


def notakto(rules: Rules, cells: str, cell: int) -> list[str]:
    """X only on live boards; the last line loses."""
    after = put(cells, cell, "X")
    index = cell // rules.width
    made = lined(rules, boards(rules, after)[index])
    live = [j for j, board in enumerate(boards(rules, after)) if not lined(rules, board)]
    found = []
    if made:
        found.append("kill" if live else "lose")
    if made and len(live) == 1:
        found.append("hand_over")
    if live and len(live) == 1:
        last = boards(rules, after)[live[0]]
        if all(each in completing(rules, last, "X") for each, symbol in enumerate(last) if symbol == "."):
            found.append("squeeze")
    if not made:
        found.append("live")
    found.append(place(rules, cell))
    return found
