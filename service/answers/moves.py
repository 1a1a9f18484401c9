"""The service's answers: the solved games' values rendered once, their JSON kept as bytes.

Every answer of every variant, the standard game's included, is worked out by one engine, the exact
values of :mod:`service.game.exact` read from the variant's shipped table, and rendered and kept by
:class:`~.variants.VariantAnswers`: deterministic answers never change, so they are served as the
same bytes with the same entity tag (an :class:`~.entity.Entity`). What sets a variant apart here is
only how much is kept, from its size: every best move of a small variant (the standard game's 9,040
among them), the most recent of the others.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..game.choice import Options
from ..game.tables import table
from ..game.variants import STANDARD, VariantPosition, reach
from ..language import DEFAULT
from ..schemas import BestMoveResponse
from .books import sizes
from .entity import Entity
from .variants import VariantAnswers, catalogues


class Answers:
    """The service's answers as JSON bytes; the deterministic ones rendered once and kept
    (:attr:`variants`)."""

    def __init__(self) -> None:
        self.variants = VariantAnswers()
        #: ``GET /v1/variants``, rendered once in each language, by its tag.
        self.catalogues = catalogues(self.variants, sizes())
        #: The legal boards of the standard game, the registry's first variant, finished or not.
        self.boards = reach(STANDARD.id).boards
        #: The unfinished positions each variant's shipped table stands for, by the variant's id.
        self.positions = {key: table(key).positions for key in self.variants.values}

    def quick(self, position: VariantPosition, options: Options | None = None) -> bool:
        """Whether the best move in ``position`` with ``options`` (with none: its analysis) takes well
        under a millisecond of CPU, however it is asked (``make bench``, "CPU by operation and
        variant"): a move chosen without randomness (kept, or 0.1 to 0.4 ms to find), or an analysis
        in a small variant (kept, or some 0.2 ms to render). Anything else (a move chosen with options,
        up to some 5 ms with a rating; an analysis of a large variant, up to some 2.6 ms in Notakto on
        three boards) is worth answering off the event loop."""
        if options is not None:
            return options.deterministic
        return position.variant.id in self.variants.small

    def lookup(self, variant_id: str, text: str, player: str | None) -> VariantPosition | None:
        """The position of a board string in canonical symbols and a player, when the variant holds it
        legal (:meth:`.VariantAnswers.lookup`)."""
        return self.variants.lookup(variant_id, text, player)

    def best_move(self, position: VariantPosition, language: str = DEFAULT) -> Entity:
        """The chosen move (steps 1–4) in an unfinished position, in ``language``, with its entity tag."""
        return self.variants.best_move(position, language)

    def best_body(self, position: VariantPosition, language: str = DEFAULT) -> bytes:
        """The chosen move (steps 1–4) in an unfinished position."""
        return self.variants.best_move(position, language).body

    def chosen(self, position: VariantPosition, language: str = DEFAULT) -> BestMoveResponse:
        """The chosen move (steps 1–4) in an unfinished position, as the answer's model."""
        return self.variants.chosen(position, language)

    def best_move_with(self, position: VariantPosition, options: Options, language: str = DEFAULT) -> bytes:
        """The move chosen with ``options``; rendered each time when they involve randomness."""
        return self.variants.best_move_with(position, options, language)

    def batch(self, requests: Sequence[tuple[VariantPosition, Options]], language: str = DEFAULT) -> bytes:
        """The answers to several best-move requests, in ``language``, as a ``{"results": [...]}``
        document."""
        answers = (self.best_move_with(position, options, language) for position, options in requests)
        return b'{"results":[' + b",".join(answers) + b"]}"

    def analysis(self, position: VariantPosition, language: str = DEFAULT) -> Entity:
        """The full analysis of a position, finished or not, in ``language``."""
        return self.variants.analysis(position, language)
