"""Tic-tac-toe minimax as tutorials write it: one full-tree search per query, nothing remembered.

The baseline that the solved table is compared with.
"""

from __future__ import annotations

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def winner(board: list[str]) -> str | None:
    for a, b, c in LINES:
        if board[a] != "." and board[a] == board[b] == board[c]:
            return board[a]
    return None


def minimax(board: list[str], player: str, me: str) -> int:
    """The score for ``me`` with ``player`` to move: 1 win, 0 draw, -1 loss."""
    won = winner(board)
    if won is not None:
        return 1 if won == me else -1
    if "." not in board:
        return 0
    scores = []
    for cell in range(9):
        if board[cell] == ".":
            board[cell] = player
            scores.append(minimax(board, "O" if player == "X" else "X", me))
            board[cell] = "."
    return max(scores) if player == me else min(scores)


def best_move(cells: str, player: str) -> int:
    """The cell with the best minimax score for ``player`` (the first of equals)."""
    board = list(cells)
    best_cell, best_score = -1, -2
    for cell in range(9):
        if board[cell] == ".":
            board[cell] = player
            score = minimax(board, "O" if player == "X" else "X", player)
            board[cell] = "."
            if score > best_score:
                best_cell, best_score = cell, score
    return best_cell
