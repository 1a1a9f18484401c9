"""The JSON-RPC envelope of a message to ``/mcp``, checked before the SDK reads it.

:class:`Envelope` stands in front of the SDK's app. It reads the body once, as the API reads
one (:func:`..strict.parse`: UTF-8, strict JSON, no duplicate key), checks that it is one JSON-RPC
2.0 message as MCP defines it (:func:`fault`), and hands it on, as it came, to the SDK. Anything
else is answered here with a JSON-RPC error, ``id: null`` (the id is not known, or is not an id)
and status ``400``, in the API's own words:

* ``-32700`` (Parse error): a body that is not JSON: not UTF-8, a syntax error, ``NaN`` or
  ``Infinity``, or a key given twice in an object, at any depth. A duplicate key is malformed
  JSON, as it is for the API (``400`` ``/problems/malformed-json``), by the one rule of
  :mod:`..strict`; and a message with two ``id`` or two ``method`` members has no one meaning
  that an answer could refer to.
* ``-32600`` (Invalid Request): JSON that is not one message: not an object (MCP has no
  batches), ``jsonrpc`` other than ``"2.0"``, an ``id`` that is not a string or an integer (MCP
  allows no other id: not ``null``, ``true``, ``1.5``, ``1e999``, an object or an array), a
  ``method`` that is not a string, ``params`` that are not an object, a response whose ``result``
  or ``error`` is not one, or no ``method``, ``result`` or ``error`` at all.

The same checks answer every line read over standard input and output (:func:`refused`, given
to :mod:`.stdio`), where the refusal is the same JSON-RPC error, as a line of its own.

Without this layer the SDK takes a request whose id is not a string or an integer for a
notification (``202``, no answer), keeps the last of duplicate keys, and quotes its validation
library, with the library's web address and version, in its refusals.
"""

from __future__ import annotations

import json
from typing import NamedTuple

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import strict
from ..problems import json_fault

#: The JSON-RPC 2.0 error codes this layer answers with.
PARSE_ERROR = -32700
INVALID_REQUEST = -32600


class Envelope:
    """ASGI layer in front of the SDK's app: only one JSON-RPC message of MCP gets through."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        body = await _body(receive)
        try:
            message = await strict.parse(body)  # a large body off the event loop
        except json.JSONDecodeError as error:
            refusal: Refusal | None = not_json(error)
        else:
            refusal = not_a_message(message)
        if refusal is not None:
            await JSONResponse(refusal.answer(), 400)(scope, receive, send)
            return
        await self.app(scope, _replay(body, receive), send)


class Refusal(NamedTuple):
    """The JSON-RPC error answering what is not one message of MCP (see the module's docstring)."""

    code: int
    message: str

    def answer(self) -> dict[str, object]:
        """The error as JSON-RPC sends it: ``id`` null, for the id is not known, or is not an id."""
        return {"jsonrpc": "2.0", "id": None, "error": {"code": self.code, "message": self.message}}


def not_json(error: json.JSONDecodeError) -> Refusal:
    """The parse error (``-32700``) of a body or line that is not strict JSON."""
    reason = json_fault(error.msg, error.pos)
    return Refusal(PARSE_ERROR, f"Parse error: the body is not valid JSON: {reason}")


def not_a_message(message: object) -> Refusal | None:
    """The Invalid Request (``-32600``) of parsed JSON that is not one message (:func:`fault`)."""
    wrong = fault(message)
    return None if wrong is None else Refusal(INVALID_REQUEST, f"Invalid Request: {wrong}")


def judged(body: bytes) -> Refusal | None:
    """What refuses ``body`` (a body, or a line over standard input), or ``None`` for one message."""
    try:
        message = strict.loads(body)
    except json.JSONDecodeError as error:
        return not_json(error)
    return not_a_message(message)


def fault(message: object) -> str | None:
    """What makes ``message`` (parsed JSON) not one JSON-RPC 2.0 message of MCP; ``None`` when it is one.

    A request has a ``method`` and an ``id``, a notification a ``method`` and no ``id``, a
    response an ``id`` and a ``result``, an error an ``id`` (``null`` allowed, as JSON-RPC says,
    for a request whose id could not be read) and an ``error`` with an integer ``code`` and a
    string ``message``. Other members are let through, as JSON-RPC lets them.
    """
    if not isinstance(message, dict):
        return (
            f"the body must be one JSON-RPC message, a JSON object, not {kind(message)} (MCP has no batches)"
        )
    if message.get("jsonrpc") != "2.0":
        return 'jsonrpc must be "2.0"'
    if "method" in message:
        if "id" in message and not is_id(message["id"]):
            return f"id must be a string or an integer, not {kind(message['id'])}"
        if not isinstance(message["method"], str):
            return f"method must be a string, not {kind(message['method'])}"
        if "params" in message and not isinstance(message["params"], dict):
            return f"params must be an object when given, not {kind(message['params'])}"
        return None
    if "result" in message or "error" in message:
        return _response_fault(message)
    return "a message needs a method (a request or a notification), or a result or an error (a response)"


def _response_fault(message: dict[str, object]) -> str | None:
    """What makes ``message`` (with a ``result`` or an ``error``) not one response; ``None`` if nothing."""
    if "result" in message and "error" in message:
        return "a response has a result or an error, not both"
    if "id" not in message:
        return "a response needs the id of the request it answers"
    ident = message["id"]
    if "result" in message:
        if not is_id(ident):
            return f"the id of a response must be a string or an integer, not {kind(ident)}"
        if not isinstance(message["result"], dict):
            return f"result must be an object, not {kind(message['result'])}"
        return None
    if not (ident is None or is_id(ident)):
        return f"the id of an error must be a string, an integer or null, not {kind(ident)}"
    error = message["error"]
    if not (
        isinstance(error, dict) and is_integer(error.get("code")) and isinstance(error.get("message"), str)
    ):
        return "error must be an object with an integer code and a string message"
    return None


def is_integer(value: object) -> bool:
    """Whether ``value`` is a JSON integer (``true`` and ``false`` are not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_id(value: object) -> bool:
    """Whether ``value`` is a request id MCP allows: a string or an integer (never ``null``)."""
    return isinstance(value, str) or is_integer(value)


def kind(value: object) -> str:
    """What sort of JSON value ``value`` is, in words (a client may send anything: no value is echoed)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number with a fraction or an exponent"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"


async def _body(receive: Receive) -> bytes:
    """The request's whole body (the body limit, outside, stops one that grows too large)."""
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    """``receive`` giving the body read here first, in one message, then what the client sends next."""
    pending = True

    async def replay() -> Message:
        nonlocal pending
        if pending:
            pending = False
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


def refused(line: bytes) -> dict[str, object] | None:
    """The JSON-RPC error answering ``line`` (over standard input), or ``None`` for one message."""
    refusal = judged(line)
    return None if refusal is None else refusal.answer()
