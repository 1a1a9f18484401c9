"""The streams that MCP over stdio is served through (service/web/mcp/stdio.py): lines whole, and checked."""

from __future__ import annotations

import io
import json

from service.web.mcp.envelope import refused
from service.web.mcp.stdio import Lines, Wire


def test_a_refusal_waits_until_the_line_being_written_is_complete() -> None:
    out = io.BytesIO()
    wire = Wire(out)
    wire.write(b'{"jsonrpc": "2.0", "id": 1, ')
    wire.send(b'{"refusal": 1}\n')
    assert out.getvalue() == b""
    wire.write(b'"result": {}}\n{"jsonrpc"')
    assert out.getvalue() == b'{"jsonrpc": "2.0", "id": 1, "result": {}}\n'
    wire.write(b': "2.0", "id": 2, "result": {}}\n')
    wire.send(b'{"refusal": 2}\n')
    assert out.getvalue().splitlines() == [
        b'{"jsonrpc": "2.0", "id": 1, "result": {}}',
        b'{"jsonrpc": "2.0", "id": 2, "result": {}}',
        b'{"refusal": 1}',
        b'{"refusal": 2}',
    ]


def test_only_messages_are_read_and_every_other_line_is_answered() -> None:
    source = io.BytesIO(
        b'{"jsonrpc": "2.0", "id": 1, "method": "ping"}\n'
        b"\n"
        b'{"jsonrpc": "2.0", "id": [1], "method": "ping"}\r\n'
        b'{"jsonrpc": "2.0", "method": "notifications/initialized"}'
    )
    out = io.BytesIO()
    read = io.BufferedReader(Lines(source, Wire(out), refused)).read()
    assert read.splitlines() == [
        b'{"jsonrpc": "2.0", "id": 1, "method": "ping"}',
        b'{"jsonrpc": "2.0", "method": "notifications/initialized"}',
    ]
    (refusal,) = [json.loads(line) for line in out.getvalue().splitlines()]
    assert refusal == {
        "jsonrpc": "2.0",
        "id": None,
        "error": {
            "code": -32600,
            "message": "Invalid Request: id must be a string or an integer, not an array",
        },
    }
