"""The benchmark's apps besides the product: each is an application factory, served by a worker of its own.

All three answer ``GET /bench/constant`` with the same bytes, :data:`CONSTANT` (a
real answer of the service, so that every target sends as many bytes back; the
benchmark checks it against the product's answer before it measures anything):

* :func:`raw_asgi`: a bare ASGI callable, the same answer to any request: what
  uvicorn itself costs, the ceiling of the stack (a baseline, on stock uvicorn);
* :func:`bare_fastapi`: a ``FastAPI()`` with that one route and nothing else (no
  middleware, no exception handlers of its own): what FastAPI costs (a baseline,
  on stock uvicorn);
* :func:`product_with_constant_route`: a diagnostic, served with the product's
  uvicorn settings: the product app from its own factory,
  with the constant route inserted *first* in its route list, so that it is
  matched before any route of the product: what any request costs in the
  product app (its middleware: request ids, access log, metrics, CORS) before
  the product's own work starts. It also answers ``POST``, without reading the
  body: what a request with a body costs before the product's own work.

The routes are written as the product's handlers are: an ``async def``
returning a :class:`~fastapi.Response` of JSON bytes.
"""

from __future__ import annotations

from fastapi import FastAPI, Response
from fastapi.routing import APIRoute
from starlette.types import ASGIApp, Receive, Scope, Send

CONSTANT_PATH = "/bench/constant"
#: The product's request whose answer the constant targets send.
CONSTANT_OF = "/v1/best-move?board=X...O...."
#: The service's answer to :data:`CONSTANT_OF`: every run checks it against the product's.
CONSTANT = (
    b'{"board":"X...O....","player":"X","position":1,"row":0,"column":1,"score":0,"outcome":"draw",'
    b'"plies_to_end":7,"tactics":["threat","edge"],"reason":"Threatens to complete the top row at the '
    b'top-right corner; the game is a draw with best play.","optimal":true,"board_after":"XX..O....",'
    b'"status_after":"in_progress"}'
)
JSON = "application/json"


async def constant() -> Response:
    return Response(CONSTANT, media_type=JSON)


def raw_asgi() -> ASGIApp:
    """A bare ASGI app: the constant answer to every HTTP request, lifespan accepted."""
    start = {
        "type": "http.response.start",
        "status": 200,
        "headers": [(b"content-type", JSON.encode()), (b"content-length", str(len(CONSTANT)).encode())],
    }
    body = {"type": "http.response.body", "body": CONSTANT}

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                else:
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        await send(start)
        await send(body)

    return app


def bare_fastapi() -> FastAPI:
    """``FastAPI()`` with one route, ``GET /bench/constant``, and nothing else."""
    app = FastAPI()
    app.get(CONSTANT_PATH)(constant)
    return app


def product_with_constant_route() -> FastAPI:
    """The product app (``service.web.app:create_app``, default settings) with the constant route first."""
    from service.web.app import create_app  # noqa: PLC0415 - only this server loads the product

    app = create_app()
    route = APIRoute(CONSTANT_PATH, constant, methods=["GET", "POST"], include_in_schema=False)
    app.router.routes.insert(0, route)
    return app
