"""Examples of the OpenAPI document: real requests and the service's real answers to them.

The tests send every request example and compare the answer with the
response example, so the documentation cannot drift from the service.
"""

from __future__ import annotations

from typing import Any

from ..answers.books import sizes
from ..game.levels import LADDERS

#: An OpenAPI example object: ``summary`` and ``value``.
Example = dict[str, Any]

BEST_MOVE_REQUESTS: dict[str, Example] = {
    "string": {
        "summary": "A board as a string",
        "value": {"board": "X........"},
    },
    "cells": {
        "summary": "A board as 9 cells",
        "value": {"board": ["X", None, "O", None, None, None, "X", None, None], "player": "O"},
    },
    "rows": {
        "summary": "A board as 3 rows, O to start",
        "value": {"board": [["", "", ""], ["", "", ""], ["", "", ""]], "player": "O"},
    },
    "level": {
        "summary": "A difficulty level for a front end, reproducibly",
        "value": {"board": "XX..O....", "level": "medium", "seed": 7},
    },
    "depth": {
        "summary": "An engine that looks only two moves ahead",
        "value": {"board": "XX..O....", "depth": 2},
    },
    "rating": {
        "summary": "An opponent of a typed rating, reproducibly",
        "value": {"board": "XX..O....", "rating": 250, "seed": 7},
    },
    "skill": {
        "summary": "A weaker engine, reproducibly",
        "value": {"board": "XX.OO....", "skill": 0.25, "seed": 7},
    },
    "varied": {
        "summary": "Optimal, but not always the same move",
        "value": {"board": ".........", "random": True},
    },
    "4x4": {
        "summary": "Four in a row on a 4×4 board, as a string of 16 cells",
        "value": {"variant": "4x4", "board": "X....O.........."},
    },
    "4x4 rows": {
        "summary": "Three in a row on a 4×4 board, as 4 rows, at a level",
        "value": {
            "variant": "4x4-3",
            "board": [["X", "", "", ""], ["", "O", "", ""], ["", "", "", ""], ["", "", "", ""]],
            "level": "hard",
            "seed": 7,
        },
    },
    "wild": {
        "summary": "Wild tic-tac-toe: the answer says which mark to place",
        "value": {"variant": "wild", "board": "X...O...."},
    },
    "notakto": {
        "summary": "Notakto on two boards, as a string of 18 cells",
        "value": {"variant": "notakto-2", "board": "X...X....X........"},
    },
}

BATCH_REQUESTS: dict[str, Example] = {
    "two": {
        "summary": "Two boards",
        "value": {"items": [{"board": "X........"}, {"board": "XX.OO...."}]},
    },
}

#: The answer to ``BEST_MOVE_REQUESTS["string"]``.
BEST_MOVE_RESPONSE: dict[str, Any] = {
    "board": "X........",
    "player": "O",
    "position": 4,
    "row": 1,
    "column": 1,
    "score": 0,
    "outcome": "draw",
    "plies_to_end": 8,
    "tactics": ["center"],
    "reason": "Takes the center; the game is a draw with best play.",
    "optimal": True,
    "board_after": "X...O....",
    "status_after": "in_progress",
}

#: The answer to ``BATCH_REQUESTS["two"]``.
BATCH_RESPONSE: dict[str, Any] = {
    "results": [
        BEST_MOVE_RESPONSE,
        {
            "board": "XX.OO....",
            "player": "X",
            "position": 2,
            "row": 0,
            "column": 2,
            "score": 1,
            "outcome": "win",
            "plies_to_end": 1,
            "tactics": ["win", "block_fork", "corner"],
            "reason": "Completes X's top row: X wins.",
            "optimal": True,
            "board_after": "XXXOO....",
            "status_after": "x_won",
        },
    ]
}

#: ``GET /v1/best-move?board=X.O...X..&player=O``.
BEST_MOVE_QUERY: dict[str, str] = {"board": "X.O...X..", "player": "O"}
BEST_MOVE_QUERY_RESPONSE: dict[str, Any] = {
    "board": "X.O...X..",
    "player": "O",
    "position": 3,
    "row": 1,
    "column": 0,
    "score": -1,
    "outcome": "loss",
    "plies_to_end": 4,
    "tactics": ["block", "edge"],
    "reason": "Blocks X's left column; X can force a win, in 4 moves.",
    "optimal": True,
    "board_after": "X.OO..X..",
    "status_after": "in_progress",
}

ANALYSIS_REQUESTS: dict[str, Example] = {
    "unfinished": {"summary": "X to move and win", "value": {"board": "XX.OO...."}},
    "finished": {"summary": "A finished board", "value": {"board": "XXXOO.O.."}},
    "misere": {
        "summary": "Misère: the side that makes three in a row loses",
        "value": {"variant": "misere", "board": "XX.OO...."},
    },
    "4x4": {
        "summary": "Four in a row on a 4×4 board",
        "value": {"variant": "4x4", "board": "XXX.OOO........."},
    },
    "notakto": {
        "summary": "Notakto on three boards",
        "value": {"variant": "notakto-3", "board": "XX......." + "X...X...." + "........."},
    },
}

#: The analysis of ``XX.OO....`` (X to move), from ``POST /v1/analysis`` or ``GET /v1/positions/XX.OO....``.
ANALYSIS_BOARD = "XX.OO...."
ANALYSIS_RESPONSE: dict[str, Any] = {
    "board": "XX.OO....",
    "status": "in_progress",
    "winner": None,
    "winning_lines": [],
    "player": "X",
    "score": 1,
    "outcome": "win",
    "plies_to_end": 1,
    "best_moves": [2],
    "moves": [
        {
            "position": 2,
            "row": 0,
            "column": 2,
            "score": 1,
            "outcome": "win",
            "plies_to_end": 1,
            "tactics": ["win", "block_fork", "corner"],
            "reason": "Completes X's top row: X wins.",
            "traps": 0,
        },
        {
            "position": 5,
            "row": 1,
            "column": 2,
            "score": 0,
            "outcome": "draw",
            "plies_to_end": 5,
            "tactics": ["block", "threat", "block_fork", "edge"],
            "reason": "Blocks O's middle row; the game is a draw with best play.",
            "traps": 3,
        },
        {
            "position": 6,
            "row": 2,
            "column": 0,
            "score": -1,
            "outcome": "loss",
            "plies_to_end": 2,
            "tactics": ["threat", "block_fork", "corner"],
            "reason": "Takes away O's forks at the top-right corner and the bottom-left corner; "
            "O can force a win, in 2 moves.",
            "traps": 3,
        },
        {
            "position": 7,
            "row": 2,
            "column": 1,
            "score": -1,
            "outcome": "loss",
            "plies_to_end": 2,
            "tactics": ["threat", "edge"],
            "reason": "Threatens to complete the top row at the top-right corner; "
            "O can force a win, in 2 moves.",
            "traps": 2,
        },
        {
            "position": 8,
            "row": 2,
            "column": 2,
            "score": -1,
            "outcome": "loss",
            "plies_to_end": 2,
            "tactics": ["threat", "corner"],
            "reason": "Threatens to complete the top row at the top-right corner; "
            "O can force a win, in 2 moves.",
            "traps": 2,
        },
    ],
    "principal_variation": [2],
}

#: The analysis of ``ANALYSIS_REQUESTS["finished"]``.
FINISHED_ANALYSIS_RESPONSE: dict[str, Any] = {
    "board": "XXXOO.O..",
    "status": "x_won",
    "winner": "X",
    "winning_lines": [[0, 1, 2]],
    "player": None,
    "score": None,
    "outcome": None,
    "plies_to_end": None,
    "best_moves": [],
    "moves": [],
    "principal_variation": [],
}

PROBLEMS: dict[int, tuple[str, dict[str, Any]]] = {
    400: (
        "The body is not valid JSON.",
        {
            "type": "/problems/malformed-json",
            "title": "Malformed JSON",
            "status": 400,
            "detail": "the request body is not valid JSON: Expecting value at character 10",
            "instance": "/v1/best-move",
            "errors": [{"loc": ["body"], "msg": "Expecting value at character 10", "type": "json_invalid"}],
        },
    ),
    404: (
        "No such resource.",
        {
            "type": "/problems/not-found",
            "title": "Not Found",
            "status": 404,
            "detail": "no resource at /v1/positions/X..../....",
            "instance": "/v1/positions/X..../....",
        },
    ),
    413: (
        "The body is larger than the limit (1 MiB by default).",
        {
            "type": "/problems/body-too-large",
            "title": "Content Too Large",
            "status": 413,
            "detail": "the request body is larger than the limit of 1048576 bytes",
            "instance": "/v1/best-move",
        },
    ),
    415: (
        "The body is not sent as JSON, or is sent with a content coding (a `Content-Encoding` other "
        "than `identity`, such as `gzip`): bodies are read unencoded only, and such an answer says so "
        "in `Accept-Encoding`.",
        {
            "type": "/problems/unsupported-media-type",
            "title": "Unsupported Media Type",
            "status": 415,
            "detail": "the request body must be JSON sent with Content-Type: application/json; "
            "got text/plain",
            "instance": "/v1/best-move",
        },
    ),
    422: (
        "Invalid input: each problem is in `errors`, with its location. On a best-move request "
        "for a finished board the type is `/problems/game-over` and `game_status` gives the status.",
        {
            "type": "/problems/invalid-input",
            "title": "Invalid input",
            "status": 422,
            "detail": "body.board: unknown symbol: cell 4 (row 1, column 1) has 'Z' (U+005A). "
            "Use X or O for a mark and '.', '-', '_', ' ' for an empty cell",
            "instance": "/v1/best-move",
            "errors": [
                {
                    "loc": ["body", "board"],
                    "msg": "unknown symbol: cell 4 (row 1, column 1) has 'Z' (U+005A). "
                    "Use X or O for a mark and '.', '-', '_', ' ' for an empty cell",
                    "type": "board_symbol",
                }
            ],
        },
    ),
    503: (
        "A large request (a body over 8 KiB) while this worker answers as many as it takes at once: "
        "retry after the seconds in `Retry-After`; a proxy in front sends it to another replica.",
        {
            "type": "/problems/unavailable",
            "title": "Service Unavailable",
            "status": 503,
            "detail": "this worker is answering as many large requests as it takes at once (1); retry in 1 s",
            "instance": "/v1/best-move/batch",
        },
    ),
}

#: For each operation that takes input, a request it refuses as invalid and the service's answer to it:
#: the ``422`` example of that operation in the document (a test sends each request, and compares).
INVALID_INPUT: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "postBestMove": (
        {"method": "POST", "url": "/v1/best-move", "json": {"board": "X...Z...."}},
        PROBLEMS[422][1],
    ),
    "getBestMove": (
        {"method": "GET", "url": "/v1/best-move", "params": {"variant": "4x4", "board": "X........"}},
        {
            "type": "/problems/invalid-input",
            "title": "Invalid input",
            "status": 422,
            "detail": "query.board: a board string has exactly 16 characters, one per cell; got 9",
            "instance": "/v1/best-move",
            "errors": [
                {
                    "loc": ["query", "board"],
                    "msg": "a board string has exactly 16 characters, one per cell; got 9",
                    "type": "board_length",
                }
            ],
        },
    ),
    "postBestMoveBatch": (
        {
            "method": "POST",
            "url": "/v1/best-move/batch",
            "json": {"items": [{"board": "X........"}, {"board": "XX......."}]},
        },
        {
            "type": "/problems/invalid-input",
            "title": "Invalid input",
            "status": 422,
            "detail": "body.items.1.board: the board has 2 X and 0 O; the sides alternate, so the counts "
            "differ by at most one",
            "instance": "/v1/best-move/batch",
            "errors": [
                {
                    "loc": ["body", "items", 1, "board"],
                    "msg": "the board has 2 X and 0 O; the sides alternate, so the counts differ by at "
                    "most one",
                    "type": "board_counts",
                }
            ],
        },
    ),
    "getPosition": (
        {"method": "GET", "url": "/v1/positions/XXXOO.O..", "params": {"player": "X"}},
        {
            "type": "/problems/invalid-input",
            "title": "Invalid input",
            "status": 422,
            "detail": "query.player: X has three in a row, so X moved last and cannot be the player to move",
            "instance": "/v1/positions/XXXOO.O..",
            "errors": [
                {
                    "loc": ["query", "player"],
                    "msg": "X has three in a row, so X moved last and cannot be the player to move",
                    "type": "player_winner_not_last",
                }
            ],
        },
    ),
    "postAnalysis": (
        {"method": "POST", "url": "/v1/analysis", "json": {"variant": "notakto", "board": "X...O...."}},
        {
            "type": "/problems/invalid-input",
            "title": "Invalid input",
            "status": 422,
            "detail": "body.board: this game's boards hold only X; cell 4 (row 1, column 1) has O",
            "instance": "/v1/analysis",
            "errors": [
                {
                    "loc": ["body", "board"],
                    "msg": "this game's boards hold only X; cell 4 (row 1, column 1) has O",
                    "type": "board_symbol",
                }
            ],
        },
    ),
    "postReview": (
        {
            "method": "POST",
            "url": "/v1/review",
            "json": {
                "variant": "wild",
                "moves": [{"position": 4, "mark": "X"}, {"position": 4, "mark": "o"}],
            },
        },
        {
            "type": "/problems/invalid-input",
            "title": "Invalid input",
            "status": 422,
            "detail": "body.moves.1: cell 4 is taken (by X)",
            "instance": "/v1/review",
            "errors": [
                {"loc": ["body", "moves", 1], "msg": "cell 4 is taken (by X)", "type": "illegal_move"}
            ],
        },
    ),
    "listPuzzles": (
        {"method": "GET", "url": "/v1/puzzles", "params": {"limit": 0}},
        {
            "type": "/problems/invalid-input",
            "title": "Invalid input",
            "status": 422,
            "detail": "query.limit: Input should be greater than or equal to 1",
            "instance": "/v1/puzzles",
            "errors": [
                {
                    "loc": ["query", "limit"],
                    "msg": "Input should be greater than or equal to 1",
                    "type": "greater_than_equal",
                }
            ],
        },
    ),
    "getRandomPuzzle": (
        {"method": "GET", "url": "/v1/puzzles/random", "params": {"min_rating": 300, "max_rating": 100}},
        {
            "type": "/problems/invalid-input",
            "title": "Invalid input",
            "status": 422,
            "detail": "query.max_rating: max_rating (100) is below min_rating (300)",
            "instance": "/v1/puzzles/random",
            "errors": [
                {
                    "loc": ["query", "max_rating"],
                    "msg": "max_rating (100) is below min_rating (300)",
                    "type": "rating_range",
                }
            ],
        },
    ),
    "getPuzzle": (
        {"method": "GET", "url": "/v1/puzzles/..OOOXXOXX", "params": {"variant": "4x4"}},
        {
            "type": "/problems/invalid-input",
            "title": "Invalid input",
            "status": 422,
            "detail": "query.variant: Extra inputs are not permitted",
            "instance": "/v1/puzzles/..OOOXXOXX",
            "errors": [
                {
                    "loc": ["query", "variant"],
                    "msg": "Extra inputs are not permitted",
                    "type": "extra_forbidden",
                }
            ],
        },
    ),
    "getVariants": (
        {"method": "GET", "url": "/v1/variants", "params": {"variant": "4x4"}},
        {
            "type": "/problems/invalid-input",
            "title": "Invalid input",
            "status": 422,
            "detail": "query.variant: Extra inputs are not permitted",
            "instance": "/v1/variants",
            "errors": [
                {
                    "loc": ["query", "variant"],
                    "msg": "Extra inputs are not permitted",
                    "type": "extra_forbidden",
                }
            ],
        },
    ),
    "getLanguages": (
        {"method": "GET", "url": "/v1/languages", "params": {"variant": "4x4"}},
        {
            "type": "/problems/invalid-input",
            "title": "Invalid input",
            "status": 422,
            "detail": "query.variant: Extra inputs are not permitted",
            "instance": "/v1/languages",
            "errors": [
                {
                    "loc": ["query", "variant"],
                    "msg": "Extra inputs are not permitted",
                    "type": "extra_forbidden",
                }
            ],
        },
    ),
}

REVIEW_REQUESTS: dict[str, Example] = {
    "game": {
        "summary": "A whole game from the empty board",
        "value": {"moves": [4, 1, 0, 8, 6, 3, 2]},
    },
    "from a board": {
        "summary": "The end of a game, from a board with O to move",
        "value": {"board": "X...O...X", "moves": [2, 6, 3]},
    },
    "wild": {
        "summary": "A game of wild tic-tac-toe: each move with the mark it places",
        "value": {
            "variant": "wild",
            "moves": [
                {"position": 4, "mark": "X"},
                {"position": 0, "mark": "O"},
                {"position": 8, "mark": "O"},
            ],
        },
    },
    "notakto": {
        "summary": "A game of Notakto on two boards",
        "value": {"variant": "notakto-2", "moves": [4, 13, 0, 8]},
    },
}
#: The answer to ``REVIEW_REQUESTS["game"]``.
REVIEW_RESPONSE: dict[str, Any] = {
    "board": ".........",
    "player": "X",
    "status": "x_won",
    "winner": "X",
    "plies": [
        {
            "ply": 1,
            "player": "X",
            "position": 4,
            "row": 1,
            "column": 1,
            "board_before": ".........",
            "board_after": "....X....",
            "score_before": 0,
            "outcome_before": "draw",
            "plies_to_end_before": 9,
            "score": 0,
            "outcome": "draw",
            "plies_to_end": 9,
            "best_moves": [0, 1, 2, 3, 4, 5, 6, 7, 8],
            "judgement": "best",
            "only_move": False,
            "tactics": ["center"],
            "reason": "Takes the center; the game is a draw with best play.",
            "better": None,
        },
        {
            "ply": 2,
            "player": "O",
            "position": 1,
            "row": 0,
            "column": 1,
            "board_before": "....X....",
            "board_after": ".O..X....",
            "score_before": 0,
            "outcome_before": "draw",
            "plies_to_end_before": 8,
            "score": -1,
            "outcome": "loss",
            "plies_to_end": 6,
            "best_moves": [0, 2, 6, 8],
            "judgement": "blunder",
            "only_move": False,
            "tactics": ["edge"],
            "reason": "Takes the top edge; X can force a win, in 6 moves.",
            "better": {
                "position": 0,
                "row": 0,
                "column": 0,
                "score": 0,
                "outcome": "draw",
                "plies_to_end": 8,
                "tactics": ["corner"],
                "reason": "Takes the top-left corner; the game is a draw with best play.",
            },
        },
        {
            "ply": 3,
            "player": "X",
            "position": 0,
            "row": 0,
            "column": 0,
            "board_before": ".O..X....",
            "board_after": "XO..X....",
            "score_before": 1,
            "outcome_before": "win",
            "plies_to_end_before": 5,
            "score": 1,
            "outcome": "win",
            "plies_to_end": 5,
            "best_moves": [0, 2, 3, 5, 6, 8],
            "judgement": "best",
            "only_move": False,
            "tactics": ["threat", "corner"],
            "reason": "Threatens to complete the diagonal from the top-left at the bottom-right "
            "corner; X wins with best play, in 5 moves.",
            "better": None,
        },
        {
            "ply": 4,
            "player": "O",
            "position": 8,
            "row": 2,
            "column": 2,
            "board_before": "XO..X....",
            "board_after": "XO..X...O",
            "score_before": -1,
            "outcome_before": "loss",
            "plies_to_end_before": 4,
            "score": -1,
            "outcome": "loss",
            "plies_to_end": 4,
            "best_moves": [8],
            "judgement": "best",
            "only_move": False,
            "tactics": ["block", "corner", "opposite_corner"],
            "reason": "Blocks X's diagonal from the top-left; X can force a win, in 4 moves.",
            "better": None,
        },
        {
            "ply": 5,
            "player": "X",
            "position": 6,
            "row": 2,
            "column": 0,
            "board_before": "XO..X...O",
            "board_after": "XO..X.X.O",
            "score_before": 1,
            "outcome_before": "win",
            "plies_to_end_before": 3,
            "score": 1,
            "outcome": "win",
            "plies_to_end": 3,
            "best_moves": [3, 6],
            "judgement": "best",
            "only_move": False,
            "tactics": ["fork", "corner"],
            "reason": "Forks: X threatens to win at the top-right corner and the left edge; X wins "
            "with best play, in 3 moves.",
            "better": None,
        },
        {
            "ply": 6,
            "player": "O",
            "position": 3,
            "row": 1,
            "column": 0,
            "board_before": "XO..X.X.O",
            "board_after": "XO.OX.X.O",
            "score_before": -1,
            "outcome_before": "loss",
            "plies_to_end_before": 2,
            "score": -1,
            "outcome": "loss",
            "plies_to_end": 2,
            "best_moves": [2, 3, 5, 7],
            "judgement": "best",
            "only_move": False,
            "tactics": ["block", "block_fork", "edge"],
            "reason": "Blocks X's left column; X can force a win, in 2 moves.",
            "better": None,
        },
        {
            "ply": 7,
            "player": "X",
            "position": 2,
            "row": 0,
            "column": 2,
            "board_before": "XO.OX.X.O",
            "board_after": "XOXOX.X.O",
            "score_before": 1,
            "outcome_before": "win",
            "plies_to_end_before": 1,
            "score": 1,
            "outcome": "win",
            "plies_to_end": 1,
            "best_moves": [2],
            "judgement": "best",
            "only_move": True,
            "tactics": ["win", "corner"],
            "reason": "Completes X's diagonal from the top-right: X wins.",
            "better": None,
        },
    ],
    "players": {
        "X": {
            "moves": 4,
            "judgements": {"best": 4, "inaccuracy": 0, "mistake": 0, "blunder": 0},
            "accuracy": 100.0,
            "only_moves": 1,
            "level_likelihoods": {
                "random": 0.0416,
                "beginner": 0.0665,
                "easy": 0.0915,
                "medium": 0.1247,
                "hard": 0.3119,
                "perfect": 0.3638,
            },
            "level": "perfect",
            "rating": 493,
        },
        "O": {
            "moves": 3,
            "judgements": {"best": 2, "inaccuracy": 0, "mistake": 0, "blunder": 1},
            "accuracy": 66.7,
            "only_moves": 0,
            "level_likelihoods": {
                "random": 0.0513,
                "beginner": 0.1282,
                "easy": 0.2051,
                "medium": 0.3077,
                "hard": 0.3077,
                "perfect": 0.0,
            },
            "level": "medium",
            "rating": 316,
        },
    },
}

#: ``GET /v1/puzzles/{id}``: the first puzzle of ``PUZZLE_PAGE``.
PUZZLE: dict[str, Any] = {
    "id": ".....OOXXX",
    "variant": "standard",
    "board": ".....OOXX",
    "player": "X",
    "solution": 4,
    "outcome": "win",
    "plies_to_end": 3,
    "themes": ["fork", "block_fork"],
    "reason": "Forks: X threatens to win at the top-left corner and the top edge; X wins with best "
    "play, in 3 moves.",
    "solve_rates": {"random": 0.2, "beginner": 0.2, "easy": 0.2, "medium": 0.2, "hard": 1.0, "perfect": 1.0},
    "rating": 382,
}

#: ``GET /v1/puzzles?theme=fork&min_rating=300&limit=2``.
PUZZLE_QUERY: dict[str, Any] = {"theme": "fork", "min_rating": 300, "limit": 2}
PUZZLE_PAGE: dict[str, Any] = {
    "puzzles": [
        PUZZLE,
        {
            "id": ".....OXOXO",
            "variant": "standard",
            "board": ".....OXOX",
            "player": "O",
            "solution": 4,
            "outcome": "win",
            "plies_to_end": 3,
            "themes": ["fork", "block_fork"],
            "reason": "Forks: O threatens to win at the top edge and the left edge; O wins with "
            "best play, in 3 moves.",
            "solve_rates": {
                "random": 0.2,
                "beginner": 0.2,
                "easy": 0.2,
                "medium": 0.2,
                "hard": 1.0,
                "perfect": 1.0,
            },
            "rating": 382,
        },
    ],
    "total": 34,
    "next": ".....OXOXO",
}


def _ladder(variant_id: str) -> dict[str, Any]:
    """A variant's ``levels`` and ``rating_max`` in ``GET /v1/variants``, from its calibrated ladder, and
    its puzzle book's size, from the shipped book."""
    ladder = LADDERS[variant_id]
    ratings = ladder.ratings or {}
    levels = {
        level.value: {"depth": preset.depth, "skill": preset.skill, "rating": ratings.get(level.value)}
        for level, preset in ladder.presets.items()
    }
    held, complete = sizes()[variant_id]
    return {
        "rated": ladder.ratings is not None,
        "levels": levels,
        "rating_max": ladder.rating_max,
        "puzzles": held,
        "puzzles_complete": complete,
    }


#: ``GET /v1/variants``, as the service answers it.
VARIANTS_RESPONSE: dict[str, Any] = {
    "variants": [
        {
            "id": "standard",
            "name": "Tic-tac-toe",
            "rules": "Each side places its own mark; three in a row wins.",
            "rows": 3,
            "columns": 3,
            "boards": 1,
            "line": 3,
            "marks": "own",
            "misere": False,
            "start": {"outcome": "draw", "plies_to_end": 9},
            "positions": 9040,
            "tactics": [
                "win",
                "block",
                "fork",
                "threat",
                "block_fork",
                "center",
                "corner",
                "edge",
                "opposite_corner",
            ],
            **_ladder("standard"),
        },
        {
            "id": "misere",
            "name": "Misère tic-tac-toe",
            "rules": "Each side places its own mark; the side that makes three in a row loses.",
            "rows": 3,
            "columns": 3,
            "boards": 1,
            "line": 3,
            "marks": "own",
            "misere": True,
            "start": {"outcome": "draw", "plies_to_end": 9},
            "positions": 9040,
            "tactics": ["lose", "squeeze", "avoid", "center", "corner", "edge", "opposite"],
            **_ladder("misere"),
        },
        {
            "id": "wild",
            "name": "Wild tic-tac-toe",
            "rules": "Each move places X or O, as the side to move chooses; the side that makes three "
            "in a row of either mark wins.",
            "rows": 3,
            "columns": 3,
            "boards": 1,
            "line": 3,
            "marks": "either",
            "misere": False,
            "start": {"outcome": "win", "plies_to_end": 7},
            "positions": 11093,
            "tactics": ["win", "block", "gift", "squeeze", "center", "corner", "edge"],
            **_ladder("wild"),
        },
        {
            "id": "notakto",
            "name": "Notakto",
            "rules": "Both sides place X on a board without three in a row; the side that makes three "
            "in a row loses.",
            "rows": 3,
            "columns": 3,
            "boards": 1,
            "line": 3,
            "marks": "x_only",
            "misere": True,
            "start": {"outcome": "win", "plies_to_end": 6},
            "positions": 230,
            "tactics": ["lose", "squeeze", "live", "center", "corner", "edge"],
            **_ladder("notakto"),
        },
        {
            "id": "notakto-2",
            "name": "Notakto on 2 boards",
            "rules": "Both sides place X on a board without three in a row; a board with three in a "
            "row is dead, and the side that makes the last line loses.",
            "rows": 3,
            "columns": 3,
            "boards": 2,
            "line": 3,
            "marks": "x_only",
            "misere": True,
            "start": {"outcome": "loss", "plies_to_end": 11},
            "positions": 154100,
            "tactics": ["lose", "kill", "hand_over", "squeeze", "live", "center", "corner", "edge"],
            **_ladder("notakto-2"),
        },
        {
            "id": "notakto-3",
            "name": "Notakto on 3 boards",
            "rules": "Both sides place X on a board without three in a row; a board with three in a "
            "row is dead, and the side that makes the last line loses.",
            "rows": 3,
            "columns": 3,
            "boards": 3,
            "line": 3,
            "marks": "x_only",
            "misere": True,
            "start": {"outcome": "win", "plies_to_end": 14},
            "positions": 80477000,
            "tactics": ["lose", "kill", "hand_over", "squeeze", "live", "center", "corner", "edge"],
            **_ladder("notakto-3"),
        },
        {
            "id": "4x4",
            "name": "Tic-tac-toe on 4 × 4",
            "rules": "Each side places its own mark on a 4 × 4 board; four in a row wins.",
            "rows": 4,
            "columns": 4,
            "boards": 1,
            "line": 4,
            "marks": "own",
            "misere": False,
            "start": {"outcome": "draw", "plies_to_end": 16},
            "positions": 18125238,
            "tactics": [
                "win",
                "block",
                "fork",
                "threat",
                "block_fork",
                "center",
                "corner",
                "edge",
                "opposite_corner",
            ],
            **_ladder("4x4"),
        },
        {
            "id": "4x4-3",
            "name": "Three in a row on 4 × 4",
            "rules": "Each side places its own mark on a 4 × 4 board; three in a row wins.",
            "rows": 4,
            "columns": 4,
            "boards": 1,
            "line": 3,
            "marks": "own",
            "misere": False,
            "start": {"outcome": "win", "plies_to_end": 5},
            "positions": 6927082,
            "tactics": [
                "win",
                "block",
                "fork",
                "threat",
                "block_fork",
                "center",
                "corner",
                "edge",
                "opposite_corner",
            ],
            **_ladder("4x4-3"),
        },
    ]
}
