"""Requests the tests build in more than one place: ASGI scopes of uploads, the longest valid body,
the longest games and many boards of a variant."""

from __future__ import annotations

import json
import random
from typing import Any

from service.game.variants import VARIANTS, Move
from service.schemas import MAX_BATCH_ITEMS


def post_scope(length: int, path: str = "/v1/best-move") -> dict[str, Any]:
    """The ASGI scope of a JSON ``POST`` to ``path`` that declares a body of ``length`` bytes."""
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [
            (b"host", b"testserver"),
            (b"content-type", b"application/json"),
            (b"content-length", str(length).encode()),
        ],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }


def longest_batch(indent: int) -> bytes:
    """The longest valid request, as JSON tools write it with ``indent`` and CRLF line ends.

    A batch of the most items, each with an empty board in rows of ``null`` and every option at
    its longest.
    """
    item = {
        "board": [[None, None, None]] * 3,
        "player": "X",
        "skill": 0.30000000000000004,
        "random": False,
        "seed": -(2**63),
        "depth": 9,
    }
    text = json.dumps({"items": [item] * MAX_BATCH_ITEMS}, indent=indent)
    return text.replace("\n", "\r\n").encode()


def longest_game(variant_id: str, tries: int = 300, seed: int = 0) -> list[object]:
    """The moves of the longest of ``tries`` random games of a variant from its empty board, as a
    review takes them (in ``wild``, each a cell and the mark placed)."""
    variant, rng = VARIANTS[variant_id], random.Random(seed)
    longest: list[Move] = []
    for _ in range(tries):
        state, played, ended = variant.start(), [], None
        while ended is None:
            move = rng.choice(list(variant.moves(state)))
            state, ended = variant.play(state, move)
            played.append(move)
        longest = max(longest, played, key=len)
    if variant.marks == "either":
        return [{"position": move.cell, "mark": "XO"[move.mark]} for move in longest]
    return [move.cell for move in longest]


def unfinished_boards(variant_id: str, count: int, seed: int = 0) -> list[str]:
    """``count`` distinct boards of a variant on which the game goes on, from random games, as strings."""
    variant, rng = VARIANTS[variant_id], random.Random(seed)
    found: dict[str, None] = {}
    while len(found) < count:
        state, cells, ended = variant.start(), ["."] * variant.cells, None
        while ended is None and len(found) < count:
            move = rng.choice(list(variant.moves(state)))
            state, ended = variant.play(state, move)
            cells[move.cell] = "XO"[move.mark]
            if ended is None:
                found["".join(cells)] = None
    return list(found)
