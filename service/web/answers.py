"""The service's answers: response models filled from the solved game, their JSON kept as bytes.

Deterministic answers never change, so each is rendered once (every best move
when the app starts, each analysis on first use) and served as the same bytes
with the same entity tag. :func:`json_response` and :func:`cacheable` wrap
them in HTTP responses.
"""

from __future__ import annotations

from collections.abc import Iterable

from fastapi import Response

from ..game import Analysis, Mark, MoveValue, Options, Position, SolvedGame, choose
from ..game.tactics import explain
from ..schemas import AnalysisResponse, BestMoveResponse, MoveInfo
from .caching import etag, etag_matches

JSON = "application/json"
CACHE_CONTROL = "public, max-age=86400"
NO_STORE = {"Cache-Control": "no-store"}


def _move(position: Position, move: MoveValue) -> dict[str, object]:
    """The fields every answer gives of a move: where it is, what it is worth, and what it does."""
    assert position.to_move is not None, "a finished board has no move"
    found, sentence = explain(position.board, position.to_move, move.cell, move.score, move.plies)
    return {
        "position": move.cell,
        "row": move.row,
        "column": move.column,
        "score": move.score,
        "outcome": move.outcome,
        "plies_to_end": move.plies,
        "tactics": list(found),
        "reason": sentence,
    }


def best_move_response(analysis: Analysis, move: MoveValue) -> BestMoveResponse:
    """The answer that plays ``move`` in the position of ``analysis``."""
    position = analysis.position
    assert position.to_move is not None, "a finished board has no move"
    after = position.play(move.cell)
    return BestMoveResponse(
        board=position.board.cells,
        player=position.to_move,
        **_move(position, move),
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
        moves=[MoveInfo(**_move(analysis.position, move), traps=move.traps) for move in analysis.moves],
        principal_variation=list(analysis.principal_variation),
    )


class Answers:
    """The service's answers as JSON bytes; the deterministic ones rendered once and kept.

    Every best move (9,040 positions) is rendered when the app starts, so the
    hot path never renders; an analysis is rendered on first use (10,956 at
    most, about 450 bytes each).
    """

    def __init__(self, game: SolvedGame) -> None:
        self.game = game
        self._best: dict[tuple[str, Mark | None], bytes] = {
            key: _render_best(analysis)
            for key, analysis in game.analyses.items()
            if analysis.choice is not None
        }
        self._analysis: dict[tuple[str, Mark | None], bytes] = {}
        self._etags: dict[bytes, str] = {}

    def best_move(self, position: Position) -> bytes:
        """The chosen move (steps 1–4) in an unfinished position."""
        return self._best[position.board.cells, position.to_move]

    def best_move_with(self, position: Position, options: Options) -> bytes:
        """The move chosen with ``options``; rendered each time when they involve randomness."""
        if options.deterministic:
            return self.best_move(position)
        analysis = self.game[position]
        return best_move_response(analysis, choose(analysis, options)).model_dump_json().encode()

    def batch(self, requests: Iterable[tuple[Position, Options]]) -> bytes:
        """The answers to several best-move requests, as a ``{"results": [...]}`` document."""
        return _results([self.best_move_with(position, options) for position, options in requests])

    def analysis(self, position: Position) -> bytes:
        """The full analysis of a position, finished or not."""
        key = (position.board.cells, position.to_move)
        body = self._analysis.get(key)
        if body is None:
            body = self._analysis[key] = analysis_response(self.game[position]).model_dump_json().encode()
        return body

    def etag(self, body: bytes) -> str:
        """The entity tag of one of these answers, computed once (answers are few and never change)."""
        tag = self._etags.get(body)
        if tag is None:
            tag = self._etags[body] = etag(body)
        return tag


def _render_best(analysis: Analysis) -> bytes:
    assert analysis.choice is not None
    return best_move_response(analysis, analysis.choice).model_dump_json().encode()


def _results(bodies: list[bytes]) -> bytes:
    return b'{"results":[' + b",".join(bodies) + b"]}"


def json_response(body: bytes, *, deterministic: bool = True) -> Response:
    """A JSON answer; ``Cache-Control: no-store`` when it involved randomness."""
    return Response(body, media_type=JSON, headers=None if deterministic else NO_STORE)


def cacheable(answers: Answers, body: bytes, if_none_match: str | None) -> Response:
    """A cacheable answer: ``304`` when the client already holds this entity."""
    tag = answers.etag(body)
    headers = {"ETag": tag, "Cache-Control": CACHE_CONTROL}
    if etag_matches(if_none_match, tag):
        return Response(status_code=304, headers=headers)
    return Response(body, media_type=JSON, headers=headers)
