"""The service's answers: the solved game's values rendered once, their JSON kept as bytes.

Every answer of every variant, the standard game's included, is worked out by one engine, the
exact values of :mod:`service.game.exact` read from the variant's shipped table, and rendered by
:class:`~.variants.VariantAnswers`. What sets the standard game apart here is only how much is
kept: deterministic answers never change, so they are served as the same bytes with the same
entity tag (an :class:`~.entity.Entity`), every best move of its 9,040 positions the first time it
is asked for, kept for the life of the process in plain dictionaries keyed by the board's text,
and the analyses most recently asked for, in a cache of bounded size. The solved table of
:mod:`service.game.solver` finds a standard board's position by its text, at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache

from ..game import MARKS, Mark, Options, Position, SolvedGame, solve
from ..game.variants import STANDARD, VariantPosition
from ..schemas import BestMoveResponse
from .entity import Entity
from .variants import VariantAnswers, catalogue


@cache
def solved_game() -> SolvedGame:
    """The game, solved once per process, for the app and the MCP tools alike."""
    return solve()


#: How many analyses are kept rendered: the most recently asked for. An analysis is about 800
#: bytes and takes about 55 µs to render; all 10,956 would hold some 10 MiB in every worker.
ANALYSES_KEPT = 512


def family_position(position: Position) -> VariantPosition:
    """A position of the standard game as the engine of every variant reads it."""
    return STANDARD.resolve(position.board.cells, position.to_move)


class BestMoves(dict[str, bytes]):
    """The rendered best moves of the standard game's unfinished positions in which ``mover`` is to
    move, keyed by their board text.

    A position's answer is rendered the first time it is looked up (some 100 µs) and kept:
    start-up does not render 9,040 answers, and a lookup of one already rendered is a plain
    ``dict`` lookup. Only the bytes are kept: the entity tag is made when a ``GET`` asks for it
    (:meth:`Answers.best_move`: 2 µs, where keeping 9,040 tags would take about 1.2 MB). A finished
    position raises :class:`KeyError`, as it has no move.
    """

    def __init__(self, variants: VariantAnswers, mover: Mark) -> None:
        super().__init__()
        self.variants = variants
        self.mover = mover

    def __missing__(self, cells: str) -> bytes:
        position = STANDARD.resolve(cells, self.mover)
        if position.player is None:
            raise KeyError(cells)
        self[cells] = body = self.variants.render_best(position)
        return body


class Answers:
    """The service's answers as JSON bytes; the deterministic ones rendered once and kept.

    In the standard game every best move is rendered the first time it is asked for and kept
    (:class:`BestMoves`); an analysis is rendered when asked for, and the last
    :data:`ANALYSES_KEPT` are kept. A position of another variant (a
    :class:`~service.game.variants.VariantPosition`) is answered by :attr:`variants`, which keeps
    the most recent of its own.
    """

    def __init__(self, game: SolvedGame) -> None:
        self.game = game
        self.variants = VariantAnswers()
        #: ``GET /v1/variants``, rendered once.
        self.catalogue = catalogue(self.variants)
        # Keyed by the side to move; a finished position (``None``) raises ``KeyError``, as it has no move.
        self._best: dict[Mark | None, BestMoves] = {mover: BestMoves(self.variants, mover) for mover in MARKS}
        self._analysis = lru_cache(maxsize=ANALYSES_KEPT)(self._render_analysis)

    @staticmethod
    def quick(position: Position | VariantPosition, options: Options | None = None) -> bool:
        """Whether the best move in ``position`` with ``options`` (with none: its analysis) takes well
        under a millisecond of CPU, however it is asked (``make bench``, "CPU by operation and
        variant"): a move chosen without randomness (the standard game's kept, another variant's
        0.1 to 0.4 ms), or an analysis in the standard game (kept, or some 0.2 ms to render).
        Anything else (a move chosen with options, up to some 5 ms with a rating; an analysis of
        another variant, up to some 2.6 ms in Notakto on three boards) is worth answering off the
        event loop."""
        if options is not None:
            return options.deterministic
        return not isinstance(position, VariantPosition)

    def best_move(self, position: Position | VariantPosition) -> Entity:
        """The chosen move (steps 1–4) in an unfinished position, with its entity tag."""
        if isinstance(position, VariantPosition):
            return self.variants.best_move(position)
        return Entity.of(self.best_body(position))

    def best_body(self, position: Position | VariantPosition) -> bytes:
        """The chosen move (steps 1–4) in an unfinished position."""
        if isinstance(position, VariantPosition):
            return self.variants.best_move(position).body
        return self._best[position.to_move][position.board.cells]

    def chosen(self, position: Position | VariantPosition) -> BestMoveResponse:
        """The chosen move (steps 1–4) in an unfinished position, as the answer's model."""
        if not isinstance(position, VariantPosition):
            position = family_position(position)
        return self.variants.chosen(position)

    def best_move_with(self, position: Position | VariantPosition, options: Options) -> bytes:
        """The move chosen with ``options``; rendered each time when they involve randomness."""
        if options.deterministic:
            return self.best_body(position)
        if not isinstance(position, VariantPosition):
            position = family_position(position)
        return self.variants.best_move_with(position, options)

    def batch(self, requests: Sequence[tuple[Position | VariantPosition, Options]]) -> bytes:
        """The answers to several best-move requests, as a ``{"results": [...]}`` document."""
        return b'{"results":[' + b",".join(self.best_move_with(*request) for request in requests) + b"]}"

    def analysis(self, position: Position | VariantPosition) -> Entity:
        """The full analysis of a position, finished or not."""
        if isinstance(position, VariantPosition):
            return self.variants.analysis(position)
        return self._analysis(position.board.cells, position.to_move)

    def _render_analysis(self, cells: str, to_move: Mark | None) -> Entity:
        return Entity.of(self.variants.render_analysis(STANDARD.resolve(cells, to_move)))
