"""The puzzle books, one per variant: found once by ``make puzzles`` and shipped rendered, as the tables are.

A variant's book (:func:`service.game.puzzles.selection` of its puzzles) is the file
``data/<variant>.book`` in this package: a first line of how many puzzles the variant has in all
(``#`` and the number, separated by a tab), then one line per puzzle of the book, in the book's
order (rating, then id): the puzzle's id, rating, outcome, themes (joined by commas), the entity tag
of its JSON, and its JSON as the API answers it, separated by tabs. ``make puzzles``
(:mod:`scripts.puzzles`) writes every book from the variant's shipped table and ladder; ``make
puzzles-check`` (run in CI) checks that each shipped file is what a fresh computation gives.

A :class:`Book` maps its file into memory, shared by the workers of a machine, and reads it once
for where each puzzle's entity tag and JSON are. For every theme and outcome a query can name (or
none) it keeps the places of the puzzles that have them, in the book's order, along which the
ratings never decrease: a filter's matches are one slice of one list, found by bisection, so a page
or a draw takes a few microseconds however large the book.
"""

from __future__ import annotations

import mmap
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from functools import cache
from itertools import product
from pathlib import Path
from typing import NamedTuple

from ..game.choice import generator
from ..game.exact import Values
from ..game.levels import LADDERS
from ..game.puzzles import Puzzle, puzzles, selection, themes_of
from ..game.tables import table
from ..game.variants import VARIANTS, Variant
from ..schemas import Puzzle as PuzzleModel
from .entity import Entity, etag
from .variants import placed

#: Where the shipped books are, inside the package.
DATA = Path(__file__).with_name("data")
OUTCOMES = ("win", "draw")
#: The length of an entity tag (:func:`~.entity.etag`), quotes included.
TAG_LENGTH = len(etag(b""))


def path_of(variant: Variant) -> Path:
    """The shipped file of ``variant``'s book."""
    return DATA / f"{variant.id}.book"


@cache
def sizes() -> dict[str, tuple[int, bool]]:
    """How many puzzles each variant's shipped book holds, and whether that is every puzzle of the
    variant, by the variant's id."""
    found = {}
    for variant in VARIANTS.values():
        text = path_of(variant).read_bytes()
        held = text.count(b"\n") - 1
        found[variant.id] = held, held == int(text[: text.index(b"\n")].split(b"\t")[1])
    return found


class PuzzleFilter(NamedTuple):
    """What a query asks of a puzzle; ``None`` asks nothing."""

    theme: str | None = None
    outcome: str | None = None
    min_rating: int | None = None
    max_rating: int | None = None


class Matches(NamedTuple):
    """The puzzles a filter matches: places ``start`` to ``stop`` (excluded) of ``places``."""

    places: Sequence[int]
    start: int
    stop: int

    def __len__(self) -> int:
        return self.stop - self.start


class Book:
    """A variant's puzzle book, read from its file (see the module's docstring): ``data``, its bytes
    (memory-mapped when shipped, so that every worker of a machine shares its pages)."""

    def __init__(self, variant: Variant, data: bytes | mmap.mmap) -> None:
        self.variant = variant
        self._data = data
        first = data.find(b"\n")
        mark, found = data[:first].split(b"\t")
        if mark != b"#":
            raise ValueError(f"the book of {variant.id} does not start with how many puzzles it has in all")
        #: How many puzzles the variant has in all: the book holds them all, or a selection.
        self.found = int(found)
        #: Each puzzle's id, rating, and where its entity tag and JSON are in the file.
        self.ids: list[str] = []
        self.ratings = array("H")
        self._tags, self._ends = array("I"), array("I")
        self._places: dict[tuple[str | None, str | None], array[int]] = {
            key: array("I") for key in product((None, *themes_of(variant)), (None, *OUTCOMES))
        }
        start = first + 1
        while start < len(data):
            end = data.find(b"\n", start)
            puzzle_id, rating, outcome, themes, _ = data[start:end].split(b"\t", 4)
            place = len(self.ids)
            self.ids.append(puzzle_id.decode())
            self.ratings.append(int(rating))
            self._tags.append(start + len(puzzle_id) + len(rating) + len(outcome) + len(themes) + 4)
            self._ends.append(end)
            for theme in (None, *themes.decode().split(",")) if themes else (None,):
                self._places[theme, None].append(place)
                self._places[theme, outcome.decode()].append(place)
            start = end + 1
        #: Each puzzle's place in the book, by its id.
        self.order = {puzzle_id: place for place, puzzle_id in enumerate(self.ids)}
        if any(low > high for low, high in zip(self.ratings, self.ratings[1:], strict=False)):
            raise ValueError(f"the book of {variant.id} is not in order of rating")

    @classmethod
    def shipped(cls, variant: Variant) -> Book:
        """The book shipped for ``variant``."""
        with path_of(variant).open("rb") as file:
            return cls(variant, mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ))

    def __len__(self) -> int:
        return len(self.ids)

    @property
    def complete(self) -> bool:
        """Whether the book holds every puzzle of its variant, rather than a selection."""
        return len(self) == self.found

    def body(self, place: int) -> bytes:
        """The JSON of the puzzle at ``place`` in the book."""
        return self._data[self._tags[place] + TAG_LENGTH + 1 : self._ends[place]]

    def entity(self, place: int) -> Entity:
        """The JSON of the puzzle at ``place`` in the book, and its entity tag."""
        tag = self._tags[place]
        return Entity(self.body(place), self._data[tag : tag + TAG_LENGTH].decode())

    def matching(self, wanted: PuzzleFilter) -> Matches:
        """The puzzles ``wanted`` matches, in the book's order (none for a theme not of this variant)."""
        places = self._places.get((wanted.theme, wanted.outcome), array("I"))
        start, stop = 0, len(places)
        if wanted.min_rating is not None:
            start = bisect_left(places, wanted.min_rating, key=self.ratings.__getitem__)
        if wanted.max_rating is not None:
            stop = bisect_right(places, wanted.max_rating, key=self.ratings.__getitem__)
        return Matches(places, start, max(start, stop))

    def page(self, wanted: PuzzleFilter, limit: int, cursor: str | None) -> tuple[list[int], int, str | None]:
        """The places of up to ``limit`` puzzles ``wanted`` after the puzzle ``cursor`` (one of this
        book's ids), how many match in all, and the id the following page starts after (or ``None``)."""
        found = self.matching(wanted)
        start = found.start
        if cursor is not None:
            start = max(start, bisect_right(found.places, self.order[cursor], found.start, found.stop))
        stop = min(start + limit, found.stop)
        places = list(found.places[start:stop])
        following = self.ids[places[-1]] if stop < found.stop and places else None
        return places, len(found), following

    def drawn(self, wanted: PuzzleFilter, seed: int | None) -> int | None:
        """The place of a puzzle ``wanted`` matches, drawn uniformly (reproducibly with ``seed``);
        ``None`` if none."""
        found = self.matching(wanted)
        if not found:
            return None
        return found.places[found.start + generator(seed).randrange(len(found))]


# --- making the books ----------------------------------------------------------------------------------


def render(puzzle: Puzzle) -> bytes:
    """A puzzle's line of its book (see the module's docstring)."""
    variant, solution = puzzle.variant, puzzle.solution
    body = PuzzleModel(
        id=puzzle.id,
        variant=variant.id,
        board=puzzle.board,
        player=puzzle.player,
        solution=solution.cell,
        **placed(variant, solution.cell, solution.mark),
        outcome=puzzle.outcome,
        plies_to_end=puzzle.plies,
        themes=list(puzzle.themes),
        reason=puzzle.reason,
        solve_rates={
            name: rounded(rate.numerator, rate.denominator) for name, rate in puzzle.solve_rates.items()
        },
        rating=puzzle.rating,
    ).model_dump_json(exclude_unset=True)
    fields = (
        puzzle.id,
        str(puzzle.rating),
        puzzle.outcome,
        ",".join(puzzle.themes),
        etag(body.encode()),
        body,
    )
    return "\t".join(fields).encode()


def rounded(numerator: int, denominator: int) -> float:
    """The probability ``numerator / denominator`` to 4 decimals, rounded from its exact value (half to
    even, as :func:`round` does a fraction, in integers: a fraction's ``round`` takes several
    microseconds, and making the fraction, which reduces it, a few more)."""
    whole, left = divmod(numerator * 10_000, denominator)
    if 2 * left > denominator or (2 * left == denominator and whole % 2):
        whole += 1
    return whole / 10_000


def generate(variant: Variant) -> bytes:
    """The book file of ``variant``, from its shipped table and its calibrated ladder."""
    found = puzzles(Values(variant, table(variant.id)), LADDERS[variant.id])
    lines = [b"#\t%d" % len(found), *map(render, selection(found))]
    return b"".join(line + b"\n" for line in lines)
