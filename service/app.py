"""The application factory: settings, the solved game, routes, errors and middleware."""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import cache

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware

from . import __version__, logs, pages, problems
from .api import REQUEST_MODELS, router
from .docs import install_docs
from .middleware import BodyLimitMiddleware
from .observability import Metrics, ObservabilityMiddleware
from .openapi import DESCRIPTION, TAGS, install_openapi
from .settings import Settings
from .solver import SolvedGame, solve
from .views import Documents


@cache
def solved_game() -> SolvedGame:
    """The game, solved once per process.

    The table lives as long as the process, so it is moved out of the garbage
    collector's sight (:func:`gc.freeze`): collections then skip its objects.
    """
    game = solve()
    gc.freeze()
    return game


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the service: solve the game (once per process) and wire the web layer around it."""
    settings = settings or Settings()
    logs.configure(settings.log_level)
    game = solved_game()

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        logs.logger.info(
            "solved table ready: %d boards, %d positions, solved in %.1f ms",
            game.boards,
            game.positions,
            game.seconds * 1000,
        )
        yield

    app = FastAPI(
        title="Tic-tac-toe best-move API",
        version=__version__,
        description=DESCRIPTION,
        openapi_tags=TAGS,
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        redirect_slashes=False,
    )
    app.state.settings = settings
    app.state.documents = Documents(game)
    app.include_router(router)
    app.include_router(pages.router)
    install_docs(app)
    app.mount("/static", pages.static_files(), name="static")
    app.state.route_methods = problems.route_methods([*app.router.routes, *router.routes])
    problems.install(app)
    app.add_middleware(problems.UnhandledErrorMiddleware)
    app.add_middleware(BodyLimitMiddleware, max_bytes=settings.max_body_bytes)
    app.add_middleware(
        CORSMiddleware,
        allow_origins=settings.cors_origins,
        allow_methods=["GET", "POST", "OPTIONS"],
        allow_headers=["Content-Type", "If-None-Match", "X-Request-ID"],
        expose_headers=["ETag", "X-Request-ID"],
        allow_credentials=False,
        max_age=86400,
    )
    app.state.metrics = Metrics(__version__, game.boards, game.seconds)
    app.add_middleware(ObservabilityMiddleware, metrics=app.state.metrics)
    install_openapi(app, REQUEST_MODELS)
    return app


app = create_app()
