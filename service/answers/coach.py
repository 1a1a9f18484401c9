"""The coach's answers: reviews of games, and the puzzle books, as JSON bytes.

Every variant's puzzle book (:mod:`.books`) is read once, when the app starts, its puzzles already
rendered. A page of them is the rendered puzzles joined; what a page holds (its puzzles, its total,
its cursor) and its entity tag are kept for the pages most recently asked for, like analyses, but
not its bytes: joining them again takes a microsecond. A page's ``next`` cursor is the id of its
last puzzle: the following page starts after it, in the book's order (rating, then id), whatever
filters the query has.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from ..game.exact import OUTCOMES
from ..game.levels import NAMES
from ..game.puzzles import canonical_form, read_id
from ..game.puzzles import puzzle_id as id_of
from ..game.review import IllegalMove, Ply, Review, SideReview, review_game
from ..game.variants import VARIANTS, Move, Variant, VariantPosition
from ..game.words import Message, Said
from ..language import DEFAULT
from ..schemas import Judgements, MarkedMove, ReviewResponse, Sides, TurnSides
from ..schemas import Move as MoveModel
from ..schemas import PlyReview as PlyModel
from ..schemas import Puzzle as PuzzleModel
from ..schemas import SideReview as SideModel
from .books import Book, PuzzleFilter, rounded
from .entity import Entity
from .variants import WINNERS, exact_values, move_fields

#: How many pages of puzzles are kept rendered.
PAGES_KEPT = 1024
#: How many puzzles are kept said in a language other than the default (the book holds those): the
#: most recently asked for, each under 1 KB.
PUZZLES_KEPT = 4096


class Page(NamedTuple):
    """What a page of puzzles holds, and the entity tag of its JSON."""

    places: tuple[int, ...]
    total: int
    following: str | None
    tag: str


class Coach:
    """Reviews, and every variant's puzzle book, read once (see the module's docstring)."""

    def __init__(self) -> None:
        self.values = exact_values()
        #: The puzzle books, by the variant's id.
        self.books = {variant.id: Book.shipped(variant) for variant in VARIANTS.values()}
        self._page = lru_cache(maxsize=PAGES_KEPT)(self._find_page)
        self._spoken = lru_cache(maxsize=PUZZLES_KEPT)(self._say)

    def review(
        self, start: VariantPosition, moves: Sequence[int | MarkedMove], language: str = DEFAULT
    ) -> bytes:
        """The review of a game in any variant, in ``language``; raises
        :class:`~service.game.review.IllegalMove` for a move that cannot be played, or that is not in
        the variant's form of a move."""
        played = review_game(self.values[start.variant.id], start, game_moves(start.variant, moves))
        return review_response(played, language).model_dump_json(exclude_unset=True).encode()

    def puzzle(self, puzzle_id: str, language: str = DEFAULT) -> Entity | None:
        """One puzzle of any variant by its id, in ``language``; ``None`` when there is no such puzzle."""
        found = read_id(puzzle_id)
        if found is None:
            return None
        place = self.books[found[0].id].order.get(puzzle_id)
        return None if place is None else self.spoken(found[0].id, place, language)

    def spoken(self, variant: str, place: int, language: str) -> Entity:
        """The puzzle at ``place`` in the book of ``variant``, in ``language``: as the book holds it in
        the default language, else with its reason said in ``language`` (kept, for the puzzles most
        recently asked for)."""
        if language == DEFAULT:
            return self.books[variant].entity(place)
        return self._spoken(variant, place, language)

    def _say(self, variant: str, place: int, language: str) -> Entity:
        puzzle = PuzzleModel.model_validate_json(self.books[variant].body(place))
        position = VARIANTS[variant].resolve(puzzle.board, puzzle.player)
        mark = None if puzzle.mark is None else "XO".index(puzzle.mark)
        solution = next(
            move
            for move in self.values[variant].ranked(position.state)
            if move.cell == puzzle.solution and mark in (None, move.mark)
        )
        reason = move_fields(position, solution, language)["reason"]
        body = puzzle.model_copy(update={"reason": reason}).model_dump_json(exclude_unset=True).encode()
        return Entity.of(body, language)

    def missing(self, puzzle_id: str) -> Said:
        """Why no puzzle has the id ``puzzle_id`` (the detail of its ``404``), naming the puzzle when
        the id's board is one only turned or mirrored, or when the variant's book is a selection."""
        found = read_id(puzzle_id)
        if found is None:
            message = Message(
                "error", "no puzzle has this id: it names no variant (the variants: {variants})"
            )
            return Said.of(message, variants=", ".join(VARIANTS))
        variant, board, mover = found
        sides = (mover,) if mover is not None else ()
        if len(board) != variant.cells or (sides and mover not in variant.sides) or board.strip("XO."):
            if sides:
                message = Message(
                    "error",
                    "no puzzle has this id: an id of {variant} is its board of {cells} cells "
                    "then the side to move",
                )
            else:
                message = Message(
                    "error", "no puzzle has this id: an id of {variant} is its board of {cells} cells"
                )
            return Said.of(message, variant=variant.id, cells=variant.cells)
        canonical = id_of(variant, canonical_form(variant, board), mover or "")
        book = self.books[variant.id]
        if canonical != puzzle_id and canonical in book.order:
            message = Message(
                "error", "no puzzle has the id {id}: that board is puzzle {canonical}, turned or mirrored"
            )
            return Said.of(message, id=puzzle_id, canonical=canonical)
        if not book.complete:
            message = Message(
                "error",
                "no puzzle has the id {id}: the book of {variant} holds a selection of "
                "{count:,} of its puzzles",
            )
            return Said.of(message, id=puzzle_id, variant=variant.id, count=len(book))
        return Said.of(Message("error", "no puzzle has the id {id}"), id=puzzle_id)

    def cursor_error(self, variant: str, cursor: str | None) -> Said | None:
        """What is wrong with a page's ``cursor``; ``None`` when there is none or the service gave it."""
        if cursor is None or cursor in self.books[variant].order:
            return None
        message = Message(
            "error", "{cursor} is not a cursor this service gave for {variant}: pass the `next` of a page"
        )
        return Said.of(message, cursor=repr(cursor), variant=variant)

    def page(
        self, variant: str, wanted: PuzzleFilter, limit: int, cursor: str | None, language: str = DEFAULT
    ) -> Entity:
        """The page of up to ``limit`` puzzles of ``variant`` ``wanted`` after the puzzle ``cursor`` (an
        id this service gave, see :meth:`cursor_error`), or from the first, in ``language``."""
        found = self._page(variant, wanted, limit, cursor, language)
        return Entity(
            self._page_body(variant, found.places, found.total, found.following, language), found.tag
        )

    def _find_page(
        self, variant: str, wanted: PuzzleFilter, limit: int, cursor: str | None, language: str
    ) -> Page:
        places, total, following = self.books[variant].page(wanted, limit, cursor)
        body = self._page_body(variant, places, total, following, language)
        return Page(tuple(places), total, following, Entity.of(body, language).tag)

    def _page_body(
        self, variant: str, places: Sequence[int], total: int, following: str | None, language: str
    ) -> bytes:
        listed = b",".join([self.spoken(variant, place, language).body for place in places])
        cursor = b"null" if following is None else b'"%s"' % following.encode()
        return b'{"puzzles":[%s],"total":%d,"next":%s}' % (listed, total, cursor)

    def random(
        self, variant: str, wanted: PuzzleFilter, seed: int | None, language: str = DEFAULT
    ) -> Entity | None:
        """A puzzle of ``variant`` ``wanted`` matches, drawn uniformly (reproducibly with ``seed``), in
        ``language``; ``None`` when none matches."""
        place = self.books[variant].drawn(wanted, seed)
        return None if place is None else self.spoken(variant, place, language)


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
            message = Message("error", "a move names its mark only in wild: in {variant} a move is a cell")
            raise IllegalMove(index, Said.of(message, variant=variant.id))
        cells.append(move)
    return cells


def review_response(done: Review, language: str = DEFAULT) -> ReviewResponse:
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
        plies=[_ply(ply, language) for ply in done.plies],
        players=players,
    )


def _ply(ply: Ply, language: str) -> PlyModel:
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
        better=None if better is None else MoveModel(**move_fields(before, better, language)),
        **move_fields(before, ply.played, language),
    )


def _side(side: SideReview) -> SideModel:
    weights, chances = side.weights, None
    if weights is not None:
        total = sum(weights)
        chances = {name: rounded(weight, total) for name, weight in zip(NAMES, weights, strict=True)}
    return SideModel(
        moves=side.moves,
        judgements=Judgements(**{judgement.value: count for judgement, count in side.judgements.items()}),
        accuracy=side.accuracy,
        only_moves=side.only_moves,
        level_likelihoods=chances,
        level=side.level,
        rating=side.rating,
    )
