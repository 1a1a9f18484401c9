"""The contract's "Review of a game" written again over the variant oracle, sharing nothing with ``service``.

Read with a variant's moves (a cell and a mark, as :mod:`.variant_oracle` plays them): a move's
judgement and whether it was an only move, from the oracle's exact values, and its likelihood under
the random player and the five levels (:mod:`.coach_oracle`'s strengths), exact as fractions, each
level's horizon by the oracle's own depth-limited search; ``perfect`` (depth 9) sees the whole game.
"""

from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple

from tests.support import coach_oracle as co
from tests.support.variant_oracle import Rules

#: A move as the oracle plays it: a cell and a mark.
Played = tuple[int, str]


class OraclePly(NamedTuple):
    score_before: int
    plies_before: int
    score: int
    plies: int
    best_moves: list[int]
    judgement: str
    only_move: bool


def equally_good(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Steps 1–2 of the move order: the same score, and among wins or losses the same length."""
    return a[0] == b[0] and (a[0] == 0 or a[1] == b[1])


def move_value(oracle: Rules, cells: str, mover: str, move: Played) -> tuple[int, int]:
    played, ended = oracle.after(cells, move)
    if ended is not None:
        return ended, 1
    score, plies = oracle.value(played, oracle.other(mover))
    return -score, plies + 1


def oracle_ply(oracle: Rules, cells: str, mover: str, move: Played) -> OraclePly:
    """One move judged as the contract says, from the oracle's values."""
    top = oracle.value(cells, mover)
    values = {m: move_value(oracle, cells, mover, m) for m in oracle.moves(cells, mover)}
    mine = values[move]
    if equally_good(mine, top):
        judgement = "best"
    elif mine[0] == top[0]:
        judgement = "inaccuracy"
    else:
        judgement = "mistake" if mine[0] == 0 else "blunder"
    keeping = [m for m, value in values.items() if value[0] == top[0]]
    return OraclePly(
        score_before=top[0],
        plies_before=top[1],
        score=mine[0],
        plies=mine[1],
        best_moves=sorted({m[0] for m, value in values.items() if equally_good(value, top)}),
        judgement=judgement,
        only_move=len(values) >= 2 and keeping == [move],
    )


def likelihood(
    oracle: Rules, cells: str, mover: str, move: Played, depth: int | None, skill: Fraction
) -> Fraction:
    """``(1 - s) / L + s * [move in H] / |H|``; the random player ``1 / L``. A horizon at least as deep
    as the moves left (the empty cells, at most) sees the whole game: it finds the optimal moves
    (steps 1–2), which the exact values give without a search."""
    legal = list(oracle.moves(cells, mover))
    if depth is None:
        return Fraction(1, len(legal))
    if depth >= cells.count("."):
        top = oracle.value(cells, mover)
        seen = [m for m in legal if equally_good(move_value(oracle, cells, mover, m), top)]
    else:
        seen = oracle.within(cells, mover, depth)
    return (1 - skill) / len(legal) + (skill / len(seen) if move in seen else 0)


def posterior(chances: list[dict[str, Fraction]]) -> dict[str, Fraction]:
    weights = {name: Fraction(1) for name in co.NAMES}
    for chance in chances:
        weights = {name: weights[name] * chance[name] for name in co.NAMES}
    total = sum(weights.values())
    return {name: weight / total for name, weight in weights.items()}
