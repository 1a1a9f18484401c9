"""Examples of the OpenAPI document: real requests and the service's real answers to them.

The tests send every request example and compare the answer with the
response example, so the documentation cannot drift from the service.
"""

from __future__ import annotations

from typing import Any

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
    "skill": {
        "summary": "A weaker engine, reproducibly",
        "value": {"board": "XX.OO....", "skill": 0.25, "seed": 7},
    },
    "varied": {
        "summary": "Optimal, but not always the same move",
        "value": {"board": ".........", "random": True},
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
        "The body is not sent as JSON.",
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
