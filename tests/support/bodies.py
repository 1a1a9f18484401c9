"""Requests the tests build in more than one place: ASGI scopes of uploads, the longest valid body."""

from __future__ import annotations

import json
from typing import Any

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
