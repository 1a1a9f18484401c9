"""What a Python front end writes with the client openapi-python-client generates (default configuration).

Run by tests/e2e/test_generated_clients.py against a live server (the URL is the first argument),
after type-checking it with mypy --strict. Prints ``ok`` when every check passed. The variants are
named by the generated enum's members (``Variant.FOUR_BY_FOUR``, from the document's
``x-enum-varnames``): names that degrade (``VALUE_6``) fail mypy.
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
    BestMoveItem,
    BestMoveRequest,
    BestMoveResponse,
    GetRandomPuzzleThemeType0,
    HealthResponse,
    Judgement,
    Mark,
    MarkedMove,
    Player,
    Problem,
    Puzzle,
    PuzzlePage,
    ReviewRequest,
    ReviewResponse,
    Sides,
    Status,
    TurnSides,
    Variant,
)

#: A board of each status, in a variant that has it, by the generated Status members.
STATUSES: dict[Status, tuple[Variant, str]] = {
    Status.IN_PROGRESS: (Variant.STANDARD, "........."),
    Status.X_WON: (Variant.STANDARD, "XXXOO...."),
    Status.O_WON: (Variant.STANDARD, "OOOXX.X.."),
    Status.DRAW: (Variant.STANDARD, "XOXXOOOXX"),
    Status.FIRST_WON: (Variant.WILD, "XXX......"),
    Status.SECOND_WON: (Variant.NOTAKTO, "XXX......"),
}


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
        body=BatchRequest(items=[BestMoveItem(board="X........"), BestMoveItem(board="XX.OO....")]),
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

    variants(client)

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


def variants(client: Client) -> None:
    """A 4x4 best move in the three forms, Notakto on two boards, a review of wild, every status."""
    cells: list[str | None] = ["X", *[None] * 15]
    rows: list[list[str | None]] = [["X", "", "", ""], ["", "", "", ""], ["", "", "", ""], ["", "", "", ""]]
    boards: list[str | list[str | None] | list[list[str | None]]] = ["X...............", cells, rows]
    for board in boards:
        request = BestMoveRequest(board=board, variant=Variant.FOUR_BY_FOUR)
        move = post_best_move.sync(client=client, body=request)
        assert isinstance(move, BestMoveResponse) and (move.position, move.row, move.column) == (1, 0, 1), (
            move
        )
        assert move.board == "X..............." and move.player == Player.O, move
        assert move.status_after == Status.IN_PROGRESS and move.plies_to_end == 15, move
    cached = get_best_move.sync(client=client, board="X...............", variant=Variant.FOUR_BY_FOUR)
    assert isinstance(cached, BestMoveResponse) and cached.board_after == "XO..............", cached

    two_boards = post_best_move.sync(
        client=client, body=BestMoveRequest(board="X........X........", variant=Variant.NOTAKTO_2)
    )
    assert isinstance(two_boards, BestMoveResponse), two_boards
    assert (two_boards.position, two_boards.grid, two_boards.player) == (8, 0, Player.FIRST), two_boards
    notakto = get_position.sync("X........X........", client=client, variant=Variant.NOTAKTO_2)
    assert isinstance(notakto, AnalysisResponse), notakto
    assert notakto.best_moves == [8, 17] and notakto.score == 1 and notakto.status == Status.IN_PROGRESS, (
        notakto
    )

    moves: list[int | MarkedMove] = [
        MarkedMove(position=4, mark="X"),
        MarkedMove(position=0, mark="O"),
        MarkedMove(position=8, mark="O"),
    ]
    review = post_review.sync(client=client, body=ReviewRequest(moves=moves, variant=Variant.WILD))
    assert isinstance(review, ReviewResponse) and review.status == Status.IN_PROGRESS, review
    assert review.player == Player.FIRST and review.winner is None, review
    assert isinstance(review.players, TurnSides), review.players  # wild's sides: first and second
    assert review.players.first.moves == 2 and review.players.second.moves == 1, review.players
    assert review.plies[1].judgement == Judgement.INACCURACY, review.plies[1]
    assert review.plies[2].mark == Mark.O and review.plies[2].only_move, review.plies[2]
    finished = [*moves, MarkedMove(position=1, mark="X"), MarkedMove(position=7, mark="X")]
    won = post_review.sync(client=client, body=ReviewRequest(moves=finished, variant=Variant.WILD))
    assert isinstance(won, ReviewResponse) and won.status == Status.FIRST_WON, won
    assert won.winner == Player.FIRST, won

    assert set(STATUSES) == set(Status), list(Status)
    for status, (variant, board) in STATUSES.items():
        analysis = post_analysis.sync(client=client, body=AnalysisRequest(board=board, variant=variant))
        assert isinstance(analysis, AnalysisResponse) and analysis.status == status, (status, analysis)


if __name__ == "__main__":
    main(sys.argv[1])
