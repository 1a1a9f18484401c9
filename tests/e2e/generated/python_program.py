"""What a Python front end writes with the client openapi-python-client generates (default configuration).

Run by tests/e2e/test_generated_clients.py against a live server (the URL is the first argument),
after type-checking it with mypy --strict. Prints ``ok`` when every check passed.
"""

from __future__ import annotations

import sys

from tic_tac_toe_best_move_api_client import Client
from tic_tac_toe_best_move_api_client.api.analysis import get_position, post_analysis
from tic_tac_toe_best_move_api_client.api.coach import (
    get_puzzle,
    get_random_puzzle,
    list_puzzles,
    post_review,
)
from tic_tac_toe_best_move_api_client.api.moves import get_best_move, post_best_move, post_best_move_batch
from tic_tac_toe_best_move_api_client.api.service import get_health, get_metrics
from tic_tac_toe_best_move_api_client.models import (
    AnalysisRequest,
    AnalysisResponse,
    BatchRequest,
    BatchResponse,
    BestMoveRequest,
    BestMoveResponse,
    GetRandomPuzzleThemeType0,
    HealthResponse,
    Judgement,
    Problem,
    Puzzle,
    PuzzlePage,
    ReviewRequest,
    ReviewResponse,
    Sides,
)


def main(url: str) -> None:
    client = Client(base_url=url)
    cells: list[str | None] = ["X", None, None, None, None, None, None, None, None]
    rows: list[list[str | None]] = [["X", "", ""], ["", "", ""], ["", "", ""]]
    boards: list[str | list[str | None] | list[list[str | None]]] = ["X........", cells, rows]
    for board in boards:
        move = post_best_move.sync(client=client, body=BestMoveRequest(board=board))
        assert isinstance(move, BestMoveResponse) and move.position == 4, move
    batch = post_best_move_batch.sync(
        client=client,
        body=BatchRequest(items=[BestMoveRequest(board="X........"), BestMoveRequest(board="XX.OO....")]),
    )
    assert isinstance(batch, BatchResponse) and [m.position for m in batch.results] == [4, 2], batch

    cached = get_best_move.sync_detailed(client=client, board="X........")
    assert cached.status_code == 200 and isinstance(cached.parsed, BestMoveResponse)
    etag = cached.headers["etag"]
    again = get_best_move.sync_detailed(client=client, board="X........", if_none_match=etag)
    assert again.status_code == 304, again.status_code

    position = get_position.sync(client=client, board="XX.OO....")
    assert isinstance(position, AnalysisResponse) and position.best_moves == [2], position
    finished = post_analysis.sync(client=client, body=AnalysisRequest(board="XXXOO.O.."))
    assert isinstance(finished, AnalysisResponse) and finished.winner is not None, finished

    health = get_health.sync(client=client)
    assert isinstance(health, HealthResponse) and health.positions == 8533, health
    metrics = get_metrics.sync_detailed(client=client)
    assert metrics.status_code == 200 and b"tictactoe_http_requests_total" in metrics.content

    refused = post_best_move.sync_detailed(client=client, body=BestMoveRequest(board="XXXOO...."))
    assert refused.status_code == 422 and isinstance(refused.parsed, Problem), refused
    assert refused.parsed.type_ == "/problems/game-over", refused.parsed

    rated = post_best_move.sync(client=client, body=BestMoveRequest(board="XX..O....", rating=493, seed=1))
    assert isinstance(rated, BestMoveResponse) and rated.position == 2, rated
    review = post_review.sync(client=client, body=ReviewRequest(moves=[0, 4, 8, 2, 6, 3, 1]))
    assert isinstance(review, ReviewResponse) and review.plies[3].judgement == Judgement.BLUNDER, review
    assert isinstance(review.players, Sides), review.players  # the standard game's sides: X and O
    assert review.players.x.moves == 4 and review.players.o.moves == 3, review.players
    illegal = post_review.sync_detailed(client=client, body=ReviewRequest(moves=[4, 0, 4]))
    assert illegal.status_code == 422 and isinstance(illegal.parsed, Problem), illegal
    assert isinstance(illegal.parsed.errors, list) and illegal.parsed.errors[0].loc == ["body", "moves", 2]

    ids: set[str] = set()
    cursor: str | None = None
    while True:
        page = list_puzzles.sync(client=client, limit=100, cursor=cursor)
        assert isinstance(page, PuzzlePage), page
        ids.update(puzzle.id for puzzle in page.puzzles)
        cursor = page.next_
        if cursor is None:
            break
    assert page.total > 100 and len(ids) == page.total, (len(ids), page.total)
    first = min(ids)
    puzzle = get_puzzle.sync_detailed(first, client=client)
    assert isinstance(puzzle.parsed, Puzzle) and puzzle.parsed.id == first, puzzle
    cached_puzzle = get_puzzle.sync_detailed(first, client=client, if_none_match=puzzle.headers["etag"])
    assert cached_puzzle.status_code == 304, cached_puzzle.status_code
    unknown = get_puzzle.sync_detailed("XXXXXXXXXX", client=client)
    assert unknown.status_code == 404 and isinstance(unknown.parsed, Problem), unknown
    random = get_random_puzzle.sync(client=client, seed=5, theme=GetRandomPuzzleThemeType0.BLOCK)
    assert isinstance(random, Puzzle) and "block" in random.themes, random
    print("ok")


if __name__ == "__main__":
    main(sys.argv[1])
