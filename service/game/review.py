"""A game reviewed as a coach would, in any variant: every move judged from the exact values, and each
side's strength.

A move of the side to move P is judged against the position's value for P (:mod:`.exact`), from the
values alone:

* ``best``: the move is optimal by steps 1–2 of the move order (its score is the position's, and
  among wins it is one of the fastest, among losses one of the slowest), whatever its traps;
* ``inaccuracy``: it keeps the position's score but is not optimal (a slower win, a quicker loss);
* ``mistake``: a win becomes a draw;
* ``blunder``: a win or a draw becomes a loss.

It is an *only move* when the position had at least two legal moves, exactly one of them keeps the
position's score, and that move was played. A move is a cell and the mark placed
(:class:`~.variants.Move`), so in ``wild`` the same cell with X and with O are two moves.

The strength a side played at is read from its moves by Bayes' rule. Under a player of depth ``d``
and skill ``s`` (:mod:`.levels`) a move has the likelihood ``(1 - s) / L + s * [move in H] / |H|``,
where ``L`` is the number of legal moves and ``H`` the moves best within the horizon ``d``
(:meth:`~.exact.Values.within`, with the depths of the variant's own levels, :data:`~.levels.LADDERS`);
under the uniformly random player it is ``1 / L``. A side's likelihood is the product over its
moves, and its posterior over the random player and the variant's five levels
(:attr:`~.levels.Ladder.strengths`) starts from a uniform prior. Every probability is exact:
integers over one common denominator, or a :class:`~fractions.Fraction`. A side's rating is its
most likely level's on the variant's scale, where the variant's levels are calibrated; elsewhere it
is ``None``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from enum import StrEnum
from fractions import Fraction
from math import lcm
from operator import mul
from typing import NamedTuple

from .exact import RankedMove, Values, rank
from .levels import LADDERS, NAMES, Ladder
from .variants import X_MARK, Move, State, Variant, VariantPosition
from .words import Message, Said


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

    ``index`` is the move's place in the game's list of moves, from 0; ``said`` what is wrong, in any
    language (:attr:`message` in English).
    """

    def __init__(self, index: int, said: Said) -> None:
        super().__init__(str(said))
        self.index = index
        self.said = said

    @property
    def message(self) -> str:
        return str(self.said)


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


def chances_of(weights: Sequence[int]) -> dict[str, Fraction]:
    """The probability of each calibrated player, from weights proportional to them (in the order of
    :attr:`~.levels.Ladder.strengths`)."""
    total = sum(weights)
    return {name: Fraction(weight, total) for name, weight in zip(NAMES, weights, strict=True)}


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


def players(ladder: Ladder) -> tuple[tuple[int | None, int, int], ...]:
    """The calibrated players of ``ladder`` as :func:`likelihoods` reads them: the depth, and the
    skill as ``a / b``."""
    return tuple((depth, skill.numerator, skill.denominator) for _, depth, skill in ladder.strengths)


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


class SideReview(NamedTuple):
    """One side's moves in a game, counted, and the strength they show (``None``s with no moves).

    ``weights`` are proportional to the posterior probabilities of the calibrated players, in the
    order of :attr:`~.levels.Ladder.strengths`: exact integers, from which :attr:`posterior` divides.
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


class Ply(NamedTuple):
    """One move of a reviewed game: the positions around it, every move of the position before it,
    ranked (:meth:`~.exact.Values.ranked`), the move played among them, and how it is judged."""

    ply: int
    before: VariantPosition
    after: VariantPosition
    ranked: tuple[RankedMove, ...]
    played: RankedMove
    judgement: Judgement
    only_move: bool

    @property
    def best_moves(self) -> tuple[int, ...]:
        """The cells of the position's optimal moves (steps 1–2), each once, in order."""
        top = rank((self.ranked[0].score, self.ranked[0].plies))
        return tuple(sorted({m.cell for m in self.ranked if rank((m.score, m.plies)) == top}))

    @property
    def better(self) -> RankedMove | None:
        """The engine's move (steps 1–4) when the move played was not ``best``."""
        return None if self.judgement is Judgement.BEST else self.ranked[0]


class Review(NamedTuple):
    """A game from ``start`` to ``final``: every move, and each side, the side of mark X or the first
    side first (as :attr:`.variants.State.mover` numbers them)."""

    start: VariantPosition
    final: VariantPosition
    plies: tuple[Ply, ...]
    sides: tuple[SideReview, SideReview]


def review_game(values: Values, start: VariantPosition, moves: Sequence[int | Move]) -> Review:
    """The review of ``moves``, in the order played, from the unfinished ``start`` of ``values``'s
    variant: each a cell, whose mark the rules imply (the mover's own, or X in Notakto), or a
    :class:`~.variants.Move` with its mark (which ``wild`` needs).

    Raises :class:`IllegalMove` for the first move that cannot be played, and a plain
    :class:`ValueError` when ``start`` is finished or there are no moves.
    """
    variant = values.variant
    if start.player is None:
        raise ValueError(f"the game is over on the starting board ({start.status})")
    if not moves:
        raise ValueError("a review needs at least one move")
    here = start
    plies: list[Ply] = []
    rows: tuple[list[tuple[int, ...]], list[tuple[int, ...]]] = ([], [])
    for index, given in enumerate(moves):
        move = _legal(variant, here, index, given)
        ranked = tuple(values.ranked(here.state))
        played = next(m for m in ranked if (m.cell, m.mark) == move)
        first = ranked[0]
        after = _after(variant, here, move)
        plies.append(
            Ply(
                ply=index + 1,
                before=here,
                after=after,
                ranked=ranked,
                played=played,
                judgement=judge(
                    rank((played.score, played.plies)) == rank((first.score, first.plies)),
                    first.score,
                    played.score,
                ),
                only_move=len(ranked) >= 2 and first is played and ranked[1].score != first.score,
            )
        )
        rows[here.state.mover].append(likelihoods(values, here.state, move))
        here = after
    ratings = LADDERS[variant.id].ratings
    sides = tuple(
        side_review(
            variant.sides[side],
            [(ply.judgement, ply.only_move) for ply in plies if ply.before.state.mover == side],
            multiplied(rows[side]) if rows[side] else None,
            ratings,
        )
        for side in (0, 1)
    )
    return Review(start, here, tuple(plies), (sides[0], sides[1]))


def likelihoods(values: Values, state: State, move: Move) -> tuple[int, ...]:
    """The likelihood of ``move`` in an unfinished ``state`` under each calibrated player of the
    variant's ladder (:func:`players`), as numerators over one common denominator."""
    legal = sum(1 for _ in values.variant.moves(state))
    horizons: dict[int, set[Move]] = {}  # the levels share depths
    found: list[tuple[int, int]] = []
    for depth, a, b in players(LADDERS[values.variant.id]):
        if depth is None:
            found.append((1, legal))
            continue
        best = horizons.get(depth)
        if best is None:
            best = horizons[depth] = values.within(state, depth)
        found.append(chance(legal, len(best), move in best, a, b))
    return on_one_denominator(found)


def likelihood(values: Values, state: State, move: Move, depth: int | None, skill: Fraction) -> Fraction:
    """The probability that a player of ``depth`` (in the variant's plies) and ``skill`` plays ``move``
    in the unfinished ``state``; ``depth`` ``None`` is the uniformly random player (whatever ``skill``
    says)."""
    legal = sum(1 for _ in values.variant.moves(state))
    if depth is None:
        return Fraction(1, legal)
    best = values.within(state, depth)
    return Fraction(*chance(legal, len(best), move in best, skill.numerator, skill.denominator))


def _legal(variant: Variant, here: VariantPosition, index: int, given: int | Move) -> Move:
    """The move ``given`` as the rules read it, once it is known to be legal in ``here``."""
    if here.player is None:
        # TRANSLATORS: {status} is the board's status as the API names it (x_won, draw...).
        message = Message("error", "the game is over ({status}) before this move: no move can follow")
        raise IllegalMove(index, Said.of(message, status=here.status))
    cell = given if isinstance(given, int) else given.cell
    if not 0 <= cell < variant.cells:
        message = Message("error", "cell {cell} is not on the board: cells are 0 to {last}")
        raise IllegalMove(index, Said.of(message, cell=cell, last=variant.cells - 1))
    if here.cells[cell] != ".":
        message = Message("error", "cell {cell} is taken (by {mark})")
        raise IllegalMove(index, Said.of(message, cell=cell, mark=here.cells[cell]))
    board = cell // variant.board_cells
    if not variant.live(here.state) >> cell & 1:
        message = Message("error", "cell {cell} is on board {board}, which has a line: no move can go there")
        raise IllegalMove(index, Said.of(message, cell=cell, board=board))
    mover = here.state.mover
    if variant.marks == "either":
        if isinstance(given, int):
            message = Message("error", "in {variant} a move names its mark: X or O, with its cell")
            raise IllegalMove(index, Said.of(message, variant=variant.id))
        return given
    implied = mover if variant.marks == "own" else X_MARK
    if not isinstance(given, int) and given.mark != implied:
        if variant.marks == "own":
            message = Message("error", "in {variant} {side} places {mark}, not {given}")
        else:
            message = Message("error", "in {variant} both sides place X, not {given}")
        said = Said.of(
            message, variant=variant.id, side=variant.sides[mover], mark="XO"[mover], given="XO"[given.mark]
        )
        raise IllegalMove(index, said)
    return Move(cell, implied)


def _after(variant: Variant, here: VariantPosition, move: Move) -> VariantPosition:
    """The position after a legal ``move`` in ``here``."""
    state, ended = variant.play(here.state, move)
    cells = here.cells[: move.cell] + "XO"[move.mark] + here.cells[move.cell + 1 :]
    return variant.resolve(cells, None if ended is not None else variant.sides[state.mover])
