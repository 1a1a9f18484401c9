"""The benchmark's server: the product app plus two baselines, on one uvicorn process.

* ``GET /bench/constant``: a FastAPI route of the product app that returns a
  constant JSON object, written as the product's handlers are (an ``async``
  function returning a ``Response``): what FastAPI costs.
* ``GET /bench/bare``: a bare ASGI callable returning the same bytes, in front
  of everything: what uvicorn costs, the ceiling of the stack.

Every other path goes to the product app unchanged.
"""

from __future__ import annotations

from fastapi import FastAPI, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from service.web.app import create_app

CONSTANT = b'{"status":"ok","positions":8533}'
_BARE_START = {
    "type": "http.response.start",
    "status": 200,
    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(CONSTANT)).encode())],
}
_BARE_BODY = {"type": "http.response.body", "body": CONSTANT}


def with_constant_route(app: FastAPI) -> FastAPI:
    @app.get("/bench/constant", include_in_schema=False)
    async def constant() -> Response:
        return Response(CONSTANT, media_type="application/json")

    return app


def app() -> ASGIApp:
    """The factory uvicorn runs (``bench.asgi:app``, ``factory=True``)."""
    product = with_constant_route(create_app())

    async def dispatch(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"] == "/bench/bare":
            await send(_BARE_START)
            await send(_BARE_BODY)
            return
        await product(scope, receive, send)

    return dispatch
