"""A game reviewed as a coach would: every move judged from the solved values, and each side's strength.

A move of the side to move P is judged against the position's value for P
(:mod:`.solver`), from the values alone:

* ``best``: the move is optimal by steps 1–2 of the move order (its score is the
  position's, and among wins it is one of the fastest, among losses one of the slowest);
* ``inaccuracy``: it keeps the position's score but is not optimal (a slower win, a
  quicker loss);
* ``mistake``: a win becomes a draw;
* ``blunder``: a win or a draw becomes a loss.

It is an *only move* when the position had at least two legal moves, exactly one of them
keeps the position's score, and that move was played.

The strength a side played at is read from its moves by Bayes' rule. Under a player of
depth ``d`` and skill ``s`` (:mod:`.levels`) a move has the likelihood
``(1 - s) / L + s * [move in H] / |H|``, where ``L`` is the number of legal moves and ``H``
the moves best within the horizon ``d`` (:mod:`.horizon`); under the uniformly random player
it is ``1 / L``. A side's likelihood is the product over its moves, and its posterior over the
random player and the five levels (:data:`~.levels.STRENGTHS`) starts from a uniform prior.
Every probability is an exact :class:`~fractions.Fraction`.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Mapping, Sequence
from enum import StrEnum
from fractions import Fraction
from math import lcm
from operator import mul
from typing import NamedTuple

from .board import MARKS, Mark, Position, Status
from .geometry import TERNARY_SIZE, ternary
from .horizon import best_mask, masks
from .levels import NAMES, RATINGS, STRENGTHS
from .solver import Analysis, MoveValue, SolvedGame
from .tactics import Tactic, explain_masks


class Judgement(StrEnum):
    """How good a move was, from the values alone (see the module's docstring), best first."""

    BEST = "best"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


_JUDGEMENTS = tuple(Judgement)
_BEST = Judgement.BEST


class IllegalMove(ValueError):
    """A move of a game that cannot be played: on a taken cell, off the board, or after the end.

    ``index`` is the move's place in the game's list of moves, from 0.
    """

    def __init__(self, index: int, message: str) -> None:
        super().__init__(message)
        self.index = index
        self.message = message


def judge(optimal: bool, score_before: int, score: int) -> Judgement:
    """The judgement of a move worth ``score`` to its mover, in a position worth ``score_before`` to
    them, ``optimal`` when it is one of the position's best moves by steps 1–2 of the move order."""
    if optimal:
        return _BEST
    if score == score_before:
        return Judgement.INACCURACY
    if score == 0:
        return Judgement.MISTAKE
    return Judgement.BLUNDER


def _judgement(analysis: Analysis, played: MoveValue) -> Judgement:
    assert analysis.score is not None
    return judge(played.cell in analysis.best_moves, analysis.score, played.score)


def only_move(analysis: Analysis, cell: int) -> bool:
    """Whether ``cell`` was the only one of at least two legal moves to keep the position's score.

    The moves are ordered best first, by score first (:mod:`.solver`), so those that keep the
    score come first: it is the only one when it is first and the second does not keep it.
    """
    moves = analysis.moves
    return len(moves) >= 2 and moves[0].cell == cell and moves[1].score != analysis.score


def likelihood(position: Position, cell: int, depth: int | None, skill: Fraction) -> Fraction:
    """The probability that a player of ``depth`` and ``skill`` plays ``cell`` in ``position``;
    ``depth`` ``None`` is the uniformly random player (whatever ``skill`` says)."""
    own, other = masks(position)
    return Fraction(*_chance(own, other, 1 << cell, (depth, skill.numerator, skill.denominator), {}))


def posterior(moves: Iterable[tuple[Position, int]]) -> dict[str, Fraction]:
    """The probability of each calibrated player (:data:`~.levels.STRENGTHS`, in its order) given
    the ``(position, cell)`` moves of one side, from a uniform prior."""
    return chances_of(_weights((*masks(position), cell) for position, cell in moves))


def chances_of(weights: Sequence[int]) -> dict[str, Fraction]:
    """The probability of each calibrated player, from weights proportional to them (in the order of
    :data:`~.levels.STRENGTHS`)."""
    total = sum(weights)
    return {name: Fraction(weight, total) for name, weight in zip(NAMES, weights, strict=True)}


def _weights(moves: Iterable[tuple[int, int, int]]) -> tuple[int, ...]:
    """The products of the likelihoods of one side's moves under each player of :data:`PLAYERS`, over
    one common denominator: integers, which add, compare and divide exactly and fast. A move is given
    as the bit masks of the mover's cells and of the other side's, and its cell.

    Each move's likelihoods share one denominator (:func:`_likelihoods`), so the products of their
    numerators are the products of the likelihoods, all over the product of those denominators.
    """
    return multiplied(_likelihoods(own, other, cell) for own, other, cell in moves)


def multiplied(rows: Iterable[tuple[int, ...]]) -> tuple[int, ...]:
    """The products, player by player, of the likelihoods of a side's moves, each move's given as
    numerators over one common denominator (:func:`on_one_denominator`)."""
    weights: tuple[int, ...] | None = None
    for row in rows:
        weights = row if weights is None else tuple(map(mul, weights, row))
    if weights is None:
        raise ValueError("a posterior needs at least one move")
    return weights


def on_one_denominator(chances: Sequence[tuple[int, int]]) -> tuple[int, ...]:
    """The numerators of ``chances`` (numerator, denominator pairs) over their least common denominator."""
    common = lcm(*(denominator for _, denominator in chances))
    return tuple(numerator * (common // denominator) for numerator, denominator in chances)


def chance(legal: int, best: int, found: bool, a: int, b: int) -> tuple[int, int]:
    """The likelihood ``(1 - s) / L + s * [move in H] / |H|`` of a move under a player of skill
    ``s = a / b``, with ``legal`` moves L, ``best`` of them best within its horizon (H), ``found``
    when the move is one of those: a numerator and a denominator, not reduced."""
    return (b - a) * best + (a * legal if found else 0), b * legal * best


#: :data:`~.levels.STRENGTHS` as :func:`_chance` reads them: the depth, and the skill as ``a / b``.
PLAYERS = tuple((depth, skill.numerator, skill.denominator) for _, depth, skill in STRENGTHS)


# A memo of :func:`_likelihoods`, filled as moves are asked for: the distinct rows, each once (a few
# thousand), and the row of each move, indexed by position (:func:`~.geometry.ternary`) and cell, as
# 1 + its index in the rows; 0 when not yet known.
_ROWS: list[tuple[int, ...]] = []
_ROW_INDEX: dict[tuple[int, ...], int] = {}
_ROW_OF = array("H", bytes(2 * 9 * TERNARY_SIZE))


def _likelihoods(own: int, other: int, cell: int) -> tuple[int, ...]:
    """The numerators of :func:`_chance` of playing ``cell`` under each player of :data:`PLAYERS`, over
    their least common denominator, remembered."""
    slot = 9 * ternary(own, other) + cell
    known = _ROW_OF[slot]
    if not known:
        horizons: dict[int, int] = {}  # the levels share depths
        row = on_one_denominator([_chance(own, other, 1 << cell, player, horizons) for player in PLAYERS])
        index = _ROW_INDEX.get(row)
        if index is None:
            index = _ROW_INDEX[row] = len(_ROWS)
            _ROWS.append(row)
        known = _ROW_OF[slot] = 1 + index
    return _ROWS[known - 1]


def _chance(
    own: int, other: int, played: int, player: tuple[int | None, int, int], horizons: dict[int, int]
) -> tuple[int, int]:
    """:func:`likelihood` as a numerator and a denominator, not reduced (integers multiply faster
    than fractions, which reduce at every step), the position and the move as bit masks and the
    player as in :data:`PLAYERS`; ``horizons`` keeps the best moves already found at each depth."""
    depth, a, b = player
    legal = 9 - (own | other).bit_count()
    if depth is None:
        return 1, legal
    best = horizons.get(depth)
    if best is None:
        best = horizons[depth] = best_mask(own, other, depth)
    return chance(legal, best.bit_count(), bool(best & played), a, b)


def most_likely(chances: Mapping[str, Fraction | int]) -> str:
    """The most probable player of ``chances`` (probabilities, or weights proportional to them); on a
    tie, the weaker (the one listed first)."""
    if not chances:
        raise ValueError("no players to choose from")
    found = ""
    for name, chance in chances.items():
        if not found or chance > chances[found]:
            found = name
    return found


def accuracy(best: int, moves: int) -> float | None:
    """Per cent of ``moves`` judged best, to one decimal (exactly, half up); ``None`` for no moves."""
    if not moves:
        return None
    return (2000 * best + moves) // (2 * moves) / 10  # the tenths, 1000 * best / moves + 1/2 rounded down


class PlyReview(NamedTuple):
    """One move of a reviewed game, with values for the side that played it (``player``)."""

    ply: int
    player: Mark
    cell: int
    board_before: str
    board_after: str
    score_before: int
    plies_before: int
    score: int
    plies: int
    best_moves: tuple[int, ...]
    judgement: Judgement
    only_move: bool
    tactics: tuple[Tactic, ...]
    reason: str
    #: The engine's move by steps 1–4, when the move played was not ``best``, its tactics and reason.
    better: MoveValue | None
    better_tactics: tuple[Tactic, ...] | None
    better_reason: str | None


class SideReview(NamedTuple):
    """One side's moves in a game, counted, and the strength they show (``None``s with no moves).

    ``weights`` are proportional to the posterior probabilities of the calibrated players, in the
    order of :data:`~.levels.STRENGTHS`: exact integers, from which :attr:`posterior` divides.
    """

    player: str
    moves: int
    judgements: dict[Judgement, int]
    accuracy: float | None
    only_moves: int
    weights: tuple[int, ...] | None
    level: str | None
    rating: int | None

    @property
    def posterior(self) -> dict[str, Fraction] | None:
        """The probability of each calibrated player given this side's moves, from a uniform prior."""
        return None if self.weights is None else chances_of(self.weights)


class Review(NamedTuple):
    """A game from ``start`` to ``final``: every move, and each side (``X`` first)."""

    start: Position
    final: Position
    plies: tuple[PlyReview, ...]
    sides: dict[Mark, SideReview]


def review(game: SolvedGame, start: Position, moves: Sequence[int]) -> Review:
    """The review of ``moves`` (cells, in the order played) from the unfinished ``start``.

    Raises :class:`IllegalMove` for the first move that cannot be played, and a plain
    :class:`ValueError` when ``start`` is finished or there are no moves.
    """
    if start.to_move is None:
        raise ValueError(f"the game is over on the starting board ({start.status.value})")
    if not moves:
        raise ValueError("a review needs at least one move")
    here = game[start]
    own, other = masks(start)  # the cells of the side to move, and of the other side
    plies: list[PlyReview] = []
    played: dict[Mark, list[tuple[int, int, int]]] = {mark: [] for mark in MARKS}
    for index, cell in enumerate(moves):
        mover = _check(here.position, index, cell)
        after = game.after(here, cell)
        plies.append(_ply(index + 1, here, cell, after.position, own=own, other=other))
        played[mover].append((own, other, cell))
        here, own, other = after, other, own | 1 << cell
    sides = {mark: _side(mark, played[mark], plies) for mark in MARKS}
    return Review(start, here.position, tuple(plies), sides)


def _check(here: Position, index: int, cell: int) -> Mark:
    """The side to move, once ``cell`` is known to be a legal move of ``here``."""
    if here.to_move is None:
        status: Status = here.status
        raise IllegalMove(index, f"the game is over ({status.value}) before this move: no move can follow")
    if not 0 <= cell <= 8:
        raise IllegalMove(index, f"cell {cell} is not on the board: cells are 0 to 8")
    if here.board.cells[cell] != ".":
        raise IllegalMove(index, f"cell {cell} is taken (by {here.board.cells[cell]})")
    return here.to_move


def _ply(number: int, analysis: Analysis, cell: int, after: Position, *, own: int, other: int) -> PlyReview:
    """The review of the move ``cell`` of the side holding ``own`` against ``other`` (bit masks)."""
    position = analysis.position
    assert position.to_move is not None and analysis.score is not None and analysis.plies is not None
    mover = position.to_move
    move = _move(analysis, cell)
    judgement = _judgement(analysis, move)
    tactics, reason = explain_masks(own, other, mover, cell, score=move.score, plies=move.plies)
    better = better_tactics = better_reason = None
    if judgement is not _BEST:
        better = analysis.moves[0]
        better_tactics, better_reason = explain_masks(
            own, other, mover, better.cell, score=better.score, plies=better.plies
        )
    return PlyReview(
        ply=number,
        player=mover,
        cell=cell,
        board_before=position.board.cells,
        board_after=after.board.cells,
        score_before=analysis.score,
        plies_before=analysis.plies,
        score=move.score,
        plies=move.plies,
        best_moves=analysis.best_moves,
        judgement=judgement,
        only_move=only_move(analysis, cell),
        tactics=tactics,
        reason=reason,
        better=better,
        better_tactics=better_tactics,
        better_reason=better_reason,
    )


def _side(mark: Mark, played: list[tuple[int, int, int]], plies: list[PlyReview]) -> SideReview:
    mine = [(ply.judgement, ply.only_move) for ply in plies if ply.player == mark]
    return side_review(mark, mine, _weights(played) if played else None, RATINGS)


def side_review(
    player: str,
    judged: Sequence[tuple[Judgement, bool]],
    weights: tuple[int, ...] | None,
    ratings: Mapping[str, int] | None,
) -> SideReview:
    """The review of ``player``'s moves, each given as its judgement and whether it was an only move,
    with the weights of the calibrated players given those moves (``None`` without moves) and their
    ``ratings`` (``None`` where the levels are not calibrated)."""
    counts = dict.fromkeys(_JUDGEMENTS, 0)
    for judgement, _ in judged:
        counts[judgement] += 1
    level = None
    if weights is not None:
        level = most_likely(dict(zip(NAMES, weights, strict=True)))  # the weights compare as the chances
    return SideReview(
        player=player,
        moves=len(judged),
        judgements=counts,
        accuracy=accuracy(counts[_BEST], len(judged)),
        only_moves=sum(only for _, only in judged),
        weights=weights,
        level=level,
        rating=None if level is None or ratings is None else ratings[level],
    )


def _move(analysis: Analysis, cell: int) -> MoveValue:
    for move in analysis.moves:
        if move.cell == cell:
            return move
    raise ValueError(f"cell {cell} is not a legal move")
