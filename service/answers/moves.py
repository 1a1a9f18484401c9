"""The service's answers: response models filled from the solved game, their JSON kept as bytes.

Deterministic answers never change, so they are rendered once and served as
the same bytes with the same entity tag (an :class:`~.entity.Entity`): every best
move the first time it is asked for, kept for the life of the process (9,040 of
them at most), and the analyses most recently asked for, in a cache of bounded
size.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache

from ..game import MARKS, Analysis, Mark, MoveValue, Options, Position, SolvedGame, choose, solve
from ..game.tactics import explain
from ..game.variants import VariantPosition
from ..schemas import AnalysisResponse, BestMoveResponse, MoveInfo
from .entity import Entity
from .variants import VariantAnswers, catalogue


@cache
def solved_game() -> SolvedGame:
    """The game, solved once per process, for the app and the MCP tools alike."""
    return solve()


def move_fields(move: MoveValue, tactics: Sequence[str], reason: str) -> dict[str, object]:
    """The fields every answer gives of a move: where it is, what it is worth, and what it does."""
    return {
        "position": move.cell,
        "row": move.row,
        "column": move.column,
        "score": move.score,
        "outcome": move.outcome,
        "plies_to_end": move.plies,
        "tactics": list(tactics),
        "reason": reason,
    }


def explained(position: Position, move: MoveValue) -> dict[str, object]:
    """:func:`move_fields` of a move in ``position``, its tactics and reason found here."""
    assert position.to_move is not None, "a finished board has no move"
    return move_fields(move, *explain(position.board, position.to_move, move.cell, move.score, move.plies))


def best_move_response(analysis: Analysis, move: MoveValue) -> BestMoveResponse:
    """The answer that plays ``move`` in the position of ``analysis``."""
    position = analysis.position
    assert position.to_move is not None, "a finished board has no move"
    after = position.play(move.cell)
    return BestMoveResponse(
        board=position.board.cells,
        player=position.to_move,
        **explained(position, move),
        optimal=move.cell in analysis.best_moves,
        board_after=after.board.cells,
        status_after=after.status,
    )


def analysis_response(analysis: Analysis) -> AnalysisResponse:
    """The full analysis of a position."""
    return AnalysisResponse(
        board=analysis.position.board.cells,
        status=analysis.status,
        winner=analysis.winner,
        winning_lines=[list(line) for line in analysis.winning_lines],
        player=analysis.position.to_move,
        score=analysis.score,
        outcome=analysis.outcome,
        plies_to_end=analysis.plies,
        best_moves=list(analysis.best_moves),
        moves=[MoveInfo(**explained(analysis.position, move), traps=move.traps) for move in analysis.moves],
        principal_variation=list(analysis.principal_variation),
    )


#: How many analyses are kept rendered: the most recently asked for. An analysis is about 800
#: bytes and takes about 55 µs to render; all 10,956 would hold some 10 MiB in every worker.
ANALYSES_KEPT = 512


class BestMoves(dict[str, bytes]):
    """The rendered best moves of the unfinished positions in which ``mover`` is to move, keyed by
    their board text.

    A position's answer is rendered the first time it is looked up (some 100 µs) and kept:
    start-up does not render 9,040 answers, and a lookup of one already rendered is a plain
    ``dict`` lookup. Only the bytes are kept: the keys are the boards' own texts, held by the
    solved table already (a key of the board and the side to move would be a tuple more for each
    answer kept), and the entity tag is made when a ``GET`` asks for it (:meth:`Answers.best_move`:
    2 µs, where keeping 9,040 tags would take about 1.2 MB). A finished position raises
    :class:`KeyError`, as it has no move.
    """

    def __init__(self, game: SolvedGame, mover: Mark) -> None:
        super().__init__()
        self.game = game
        self.mover = mover

    def __missing__(self, cells: str) -> bytes:
        analysis = self.game.analyses[cells, self.mover]
        if analysis.choice is None:
            raise KeyError(cells)
        self[analysis.position.board.cells] = body = _render_best(analysis, analysis.choice)
        return body


class Answers:
    """The service's answers as JSON bytes; the deterministic ones rendered once and kept.

    Every best move is rendered the first time it is asked for and kept (:class:`BestMoves`);
    an analysis is rendered when asked for, and the last :data:`ANALYSES_KEPT` are kept. A position
    of another variant (a :class:`~service.game.variants.VariantPosition`) is answered by
    :attr:`variants`, from the variant's shipped table.
    """

    def __init__(self, game: SolvedGame) -> None:
        self.game = game
        self.variants = VariantAnswers()
        #: ``GET /v1/variants``, rendered once.
        self.catalogue = catalogue(game, self.variants)
        # Keyed by the side to move; a finished position (``None``) raises ``KeyError``, as it has no move.
        self._best: dict[Mark | None, BestMoves] = {mover: BestMoves(game, mover) for mover in MARKS}
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
        if isinstance(position, VariantPosition):
            return self.variants.chosen(position)
        analysis = self.game[position]
        assert analysis.choice is not None, "a finished board has no move"
        return best_move_response(analysis, analysis.choice)

    def best_move_with(self, position: Position | VariantPosition, options: Options) -> bytes:
        """The move chosen with ``options``; rendered each time when they involve randomness."""
        if isinstance(position, VariantPosition):
            return self.variants.best_move_with(position, options)
        if options.deterministic:
            return self.best_body(position)
        analysis = self.game[position]
        return _render_best(analysis, choose(analysis, options))

    def batch(self, requests: Sequence[tuple[Position | VariantPosition, Options]]) -> bytes:
        """The answers to several best-move requests, as a ``{"results": [...]}`` document."""
        return b'{"results":[' + b",".join(self.best_move_with(*request) for request in requests) + b"]}"

    def analysis(self, position: Position | VariantPosition) -> Entity:
        """The full analysis of a position, finished or not."""
        if isinstance(position, VariantPosition):
            return self.variants.analysis(position)
        return self._analysis(position.board.cells, position.to_move)

    def _render_analysis(self, cells: str, to_move: Mark | None) -> Entity:
        analysis = self.game.analyses[cells, to_move]
        return Entity.of(analysis_response(analysis).model_dump_json(exclude_unset=True).encode())


def _render_best(analysis: Analysis, move: MoveValue) -> bytes:
    return best_move_response(analysis, move).model_dump_json(exclude_unset=True).encode()
