"""The coach's answers: reviews of games, and the puzzle book, as JSON bytes.

Every puzzle (:mod:`service.game.puzzles`) is found and rendered once, when the app
starts; a page of them is the rendered puzzles joined. What a page holds (its puzzles,
its total, its cursor) and its entity tag are kept for the pages most recently asked for,
like analyses, but not its bytes: joining them again takes a microsecond, and keeping
them would take some 6 KB a page. A page's ``next`` cursor is the id of its last
puzzle: the following page starts after it, in the book's order (rating, then id),
whatever filters the query has.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from ..game.choice import generator
from ..game.exact import OUTCOMES
from ..game.levels import LADDERS, NAMES
from ..game.puzzles import Puzzle, Theme, canonical_form, puzzles
from ..game.review import IllegalMove, Ply, Review, SideReview, review_game
from ..game.variants import STANDARD, Move, Variant, VariantPosition
from ..schemas import Judgements, MarkedMove, ReviewResponse, Sides, TurnSides
from ..schemas import Move as MoveModel
from ..schemas import PlyReview as PlyModel
from ..schemas import Puzzle as PuzzleModel
from ..schemas import SideReview as SideModel
from .entity import Entity
from .variants import WINNERS, exact_values, move_fields

#: How many pages of puzzles are kept rendered.
PAGES_KEPT = 1024


class PuzzleFilter(NamedTuple):
    """What a query asks of a puzzle; ``None`` asks nothing."""

    theme: Theme | None = None
    outcome: str | None = None
    min_rating: int | None = None
    max_rating: int | None = None

    def matches(self, puzzle: Puzzle) -> bool:
        return (
            (self.theme is None or self.theme in puzzle.themes)
            and (self.outcome is None or puzzle.outcome == self.outcome)
            and (self.min_rating is None or puzzle.rating >= self.min_rating)
            and (self.max_rating is None or puzzle.rating <= self.max_rating)
        )


class Page(NamedTuple):
    """What a page of puzzles holds, and the entity tag of its JSON."""

    ids: tuple[str, ...]
    total: int
    following: str | None
    tag: str


class Coach:
    """Reviews, and the puzzle book made once (see the module's docstring)."""

    def __init__(self) -> None:
        self.values = exact_values()
        #: The puzzle book: the standard game's, the first variant of the registry.
        self.variant = STANDARD
        self.book = puzzles(self.values[STANDARD.id], LADDERS[STANDARD.id])
        self._entities = {puzzle.id: Entity.of(_render_puzzle(puzzle)) for puzzle in self.book}
        self._order = {puzzle.id: index for index, puzzle in enumerate(self.book)}
        self._page = lru_cache(maxsize=PAGES_KEPT)(self._find_page)
        self._matching = lru_cache(maxsize=PAGES_KEPT)(self._find)

    def review(self, start: VariantPosition, moves: Sequence[int | MarkedMove]) -> bytes:
        """The review of a game in any variant; raises :class:`~service.game.review.IllegalMove` for a
        move that cannot be played, or that is not in the variant's form of a move."""
        played = review_game(self.values[start.variant.id], start, game_moves(start.variant, moves))
        return review_response(played).model_dump_json(exclude_unset=True).encode()

    def puzzle(self, puzzle_id: str) -> Entity | None:
        """One puzzle by its id, ``None`` when there is no such puzzle."""
        return self._entities.get(puzzle_id)

    def missing(self, puzzle_id: str) -> str:
        """Why no puzzle has the id ``puzzle_id`` (the detail of its ``404``), naming the puzzle when
        the id's board is one only turned or mirrored."""
        cells = self.variant.cells
        if len(puzzle_id) != cells + 1:
            return f"no puzzle has this id: an id is {cells + 1} characters, not {len(puzzle_id)}"
        board, mover = puzzle_id[:cells], puzzle_id[cells:]
        if mover in self.variant.sides and not board.strip("XO."):
            canonical = canonical_form(self.variant, board) + mover
            if canonical != puzzle_id and canonical in self._entities:
                return (
                    f"no puzzle has the id {puzzle_id}: that board is puzzle {canonical}, turned or mirrored"
                )
        return f"no puzzle has the id {puzzle_id}"

    def cursor_error(self, cursor: str | None) -> str | None:
        """What is wrong with a page's ``cursor``; ``None`` when there is none or the service gave it."""
        if cursor is None or cursor in self._entities:
            return None
        return f"{cursor!r} is not a cursor this service gave: pass the `next` of a page"

    def page(self, wanted: PuzzleFilter, limit: int, cursor: str | None) -> Entity:
        """The page of up to ``limit`` puzzles ``wanted`` after the puzzle ``cursor`` (an id this service
        gave, see :meth:`cursor_error`), or from the first."""
        found = self._page(wanted, limit, cursor)
        return Entity(self._page_body(found.ids, found.total, found.following), found.tag)

    def _find_page(self, wanted: PuzzleFilter, limit: int, cursor: str | None) -> Page:
        start = 0 if cursor is None else self._order[cursor] + 1
        matching = self._matching(wanted)
        after = [puzzle.id for puzzle in matching if self._order[puzzle.id] >= start]
        ids, following = tuple(after[:limit]), after[limit - 1] if len(after) > limit else None
        body = self._page_body(ids, len(matching), following)
        return Page(ids, len(matching), following, Entity.of(body).tag)

    def _page_body(self, ids: tuple[str, ...], total: int, following: str | None) -> bytes:
        listed = b",".join([self._entities[puzzle_id].body for puzzle_id in ids])
        cursor = b"null" if following is None else b'"%s"' % following.encode()
        return b'{"puzzles":[%s],"total":%d,"next":%s}' % (listed, total, cursor)

    def random(self, wanted: PuzzleFilter, seed: int | None) -> Entity | None:
        """A matching puzzle drawn uniformly (reproducibly with ``seed``), ``None`` when none matches."""
        matching = self._matching(wanted)
        if not matching:
            return None
        return self._entities[generator(seed).choice(matching).id]

    def _find(self, wanted: PuzzleFilter) -> tuple[Puzzle, ...]:
        """The puzzles ``wanted`` matches, in the book's order (kept, the most recently asked for)."""
        return tuple(puzzle for puzzle in self.book if wanted.matches(puzzle))


def game_moves(variant: Variant, moves: Sequence[int | MarkedMove]) -> Sequence[int | Move]:
    """The moves of a request as the game reads them: cells, or in ``wild`` cells and marks (a bare
    cell there is refused by the game, which names the move's index)."""
    if variant.marks != "either":
        return cells_of(variant, moves)
    return [move if isinstance(move, int) else Move(move.position, "XO".index(move.mark)) for move in moves]


def cells_of(variant: Variant, moves: Sequence[int | MarkedMove]) -> list[int]:
    """The cells of a game's moves in a variant whose moves are cells; raises
    :class:`~service.game.review.IllegalMove` for a move that names a mark."""
    cells: list[int] = []
    for index, move in enumerate(moves):
        if not isinstance(move, int):
            raise IllegalMove(index, f"a move names its mark only in wild: in {variant.id} a move is a cell")
        cells.append(move)
    return cells


def review_response(done: Review) -> ReviewResponse:
    """The answer to ``POST /v1/review``."""
    start, final = done.start, done.final
    assert start.player is not None
    first, second = (_side(side) for side in done.sides)
    own = start.variant.marks == "own"
    players = Sides(X=first, O=second) if own else TurnSides(first=first, second=second)
    return ReviewResponse(
        board=start.cells,
        player=start.player,
        status=final.status,
        winner=WINNERS.get(final.status),
        plies=[_ply(ply) for ply in done.plies],
        players=players,
    )


def _ply(ply: Ply) -> PlyModel:
    before, top, better = ply.before, ply.ranked[0], ply.better
    return PlyModel(
        ply=ply.ply,
        player=before.player,
        board_before=before.cells,
        board_after=ply.after.cells,
        score_before=top.score,
        outcome_before=OUTCOMES[top.score],
        plies_to_end_before=top.plies,
        best_moves=list(ply.best_moves),
        judgement=ply.judgement,
        only_move=ply.only_move,
        better=None if better is None else MoveModel(**move_fields(before, better)),
        **move_fields(before, ply.played),
    )


def _side(side: SideReview) -> SideModel:
    weights, chances = side.weights, None
    if weights is not None:
        total = sum(weights)
        chances = {name: _rounded(weight, total) for name, weight in zip(NAMES, weights, strict=True)}
    return SideModel(
        moves=side.moves,
        judgements=Judgements(**{judgement.value: count for judgement, count in side.judgements.items()}),
        accuracy=side.accuracy,
        only_moves=side.only_moves,
        level_likelihoods=chances,
        level=side.level,
        rating=side.rating,
    )


def _rounded(numerator: int, denominator: int) -> float:
    """The probability ``numerator / denominator`` to 4 decimals, rounded from its exact value (half to
    even, as :func:`round` does a fraction, in integers: a fraction's ``round`` takes several
    microseconds, and making the fraction, which reduces it, a few more)."""
    whole, left = divmod(numerator * 10_000, denominator)
    if 2 * left > denominator or (2 * left == denominator and whole % 2):
        whole += 1
    return whole / 10_000


def _render_puzzle(puzzle: Puzzle) -> bytes:
    return (
        PuzzleModel(
            id=puzzle.id,
            board=puzzle.board,
            player=puzzle.player,
            solution=puzzle.solution,
            outcome=puzzle.outcome,
            plies_to_end=puzzle.plies,
            themes=list(puzzle.themes),
            reason=puzzle.reason,
            solve_rates={
                name: _rounded(rate.numerator, rate.denominator) for name, rate in puzzle.solve_rates.items()
            },
            rating=puzzle.rating,
        )
        .model_dump_json()
        .encode()
    )
