"""MCP over standard input and output, each line checked as ``/mcp`` checks a body.

The SDK serves MCP over the process's standard input and output (``MCPServer.run("stdio")``) and
reads each line with its own parser: it takes a request whose id is not a string or an integer
for a notification (no answer), keeps the last of duplicate keys, and says nothing of a line that
is not JSON. Here every line is first judged by the envelope's checks (:func:`.envelope.refused`,
the very checks of ``/mcp`` over HTTP, given to :func:`checked` by its caller, so that this module
imports none of them): a line that is one JSON-RPC message of MCP goes on to the
SDK as it came; any other is answered at once with the same JSON-RPC error as over HTTP (``id``
null, ``-32700`` or ``-32600``, in the service's words), as a line of its own, and the SDK never
sees it. A blank line is no message, and is passed over.

How: while the SDK serves, :data:`sys.stdin` and :data:`sys.stdout` are streams of this module
(:func:`checked`) whose binary layers (``buffer``) the SDK reads and writes, as it does with
streams that are not the process's descriptors 0 and 1: :class:`Lines` gives it the checked
lines, and :class:`Wire` writes its answers and the refusals, each line whole, one writer at a
time, so that a refusal never lands inside an answer. Text written to ``sys.stdout`` by anything
else goes to standard error, never onto the protocol's stream.
"""

from __future__ import annotations

import io
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import BinaryIO

from ..media import json_bytes

#: What refuses a line: the JSON-RPC error answering it, or ``None`` for one message of MCP.
Judge = Callable[[bytes], dict[str, object] | None]


class Wire(io.BufferedIOBase):
    """The protocol's output: whole lines only, written by one thread at a time.

    The SDK writes a message in pieces, then a newline; a refusal (:meth:`send`) waits until the
    message being written is complete.
    """

    def __init__(self, target: BinaryIO) -> None:
        super().__init__()
        self.target = target
        self.lock = threading.Lock()
        self.partial = b""  # the start of a line the SDK is writing
        self.waiting: list[bytes] = []  # refusals to write once that line is complete

    def writable(self) -> bool:
        return True

    def write(self, data: bytes | bytearray | memoryview) -> int:  # type: ignore[override]
        with self.lock:
            lines, newline, self.partial = (self.partial + bytes(data)).rpartition(b"\n")
            if newline:
                self._out(lines + newline)
            if not self.partial and self.waiting:
                self._out(b"".join(self.waiting))
                self.waiting.clear()
        return len(data)

    def send(self, line: bytes) -> None:
        """Write ``line`` (ending with a newline) as soon as no other line is half written."""
        with self.lock:
            if self.partial:
                self.waiting.append(line)
            else:
                self._out(line)

    def _out(self, data: bytes) -> None:
        self.target.write(data)
        self.target.flush()

    def flush(self) -> None:
        with self.lock:
            self.target.flush()


class Lines(io.RawIOBase):
    """The protocol's input as the SDK reads it: the lines of ``source`` that are one message each;
    each other line is answered on ``wire`` with its refusal by ``judge`` (see the module's docstring)."""

    def __init__(self, source: BinaryIO, wire: Wire, judge: Judge) -> None:
        super().__init__()
        self.source = source
        self.wire = wire
        self.judge = judge
        self.pending = b""  # a checked line, or what the SDK has not read of it yet

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        while not self.pending:
            line = self.source.readline()
            if not line:
                return 0  # the client closed standard input
            if not line.strip():
                continue
            refusal = self.judge(line)
            if refusal is None:
                self.pending = line if line.endswith(b"\n") else line + b"\n"
            else:
                self.wire.send(json_bytes(refusal) + b"\n")
        size = min(len(buffer), len(self.pending))
        buffer[:size] = self.pending[:size]
        self.pending = self.pending[size:]
        return size


class Protocol(io.TextIOWrapper):
    """A standard stream for the SDK: its binary layer is the protocol's (``protocol``), and text
    written to it goes to standard error (see the module's docstring)."""

    def __init__(self, protocol: io.BufferedIOBase, text: BinaryIO) -> None:
        super().__init__(text, encoding="utf-8", line_buffering=True)
        self.protocol = protocol

    @property
    def buffer(self) -> io.BufferedIOBase:  # type: ignore[override]
        return self.protocol


@contextmanager
def checked(judge: Judge) -> Iterator[None]:
    """Standard input and output checked line by line by ``judge`` for as long as the block runs:
    serve in it."""
    stdin, stdout = sys.stdin, sys.stdout
    wire = Wire(stdout.buffer)
    lines = io.BufferedReader(Lines(stdin.buffer, wire, judge))
    sys.stdin = Protocol(lines, io.BytesIO())
    sys.stdout = Protocol(wire, sys.stderr.buffer)
    try:
        yield
    finally:
        sys.stdout.flush()
        sys.stdin, sys.stdout = stdin, stdout
