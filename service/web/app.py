"""The application factory: the engine's answers, routes, errors and middleware, wired once per process."""

from __future__ import annotations

import gc
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio
import anyio.to_thread
from fastapi import FastAPI
from starlette.middleware.cors import CORSMiddleware

from .. import __version__, logs
from ..answers import Answers, Coach
from ..settings import Settings
from . import mcp, problems
from .admission import AdmissionMiddleware
from .fast_lane import FastLane
from .metrics import Metrics
from .middleware.access import AccessMiddleware
from .middleware.compression import CompressionMiddleware
from .middleware.cors import CORSPolicy, RefusedPreflightMiddleware
from .middleware.encoding import ContentEncodingMiddleware
from .middleware.errors import ErrorMiddleware
from .middleware.head import HeadMiddleware
from .middleware.limits import BodyLimitMiddleware
from .middleware.request_id import RequestIdMiddleware
from .middleware.security import NoSniffMiddleware
from .openapi import DESCRIPTION, TAGS, install_openapi
from .routes import analysis, docs, languages, moves, operations, pages, puzzles, review, variants


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the service: the engine's answers (once per process) and the web layer around them.

    uvicorn calls it as a factory (``service.web.app:create_app``), once per worker.
    """
    settings = settings or Settings()
    logs.configure(settings.log_level)
    started = time.perf_counter()
    answers = Answers()
    coach = Coach()
    ready = time.perf_counter() - started
    metrics = Metrics(__version__, answers.positions, ready)
    logs.count_drops(metrics.log_lines_dropped.inc)
    tools = mcp.Endpoint(answers, settings, coach)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        logs.logger.info(
            "engine ready: %d variants, %d positions in their tables, ready in %.1f ms",
            len(answers.positions),
            sum(answers.positions.values()),
            ready * 1000,
        )
        try:
            async with tools.running():
                yield
        finally:
            # Every line of this run written before it ends (the writer thread goes on: uvicorn
            # logs after the lifespan, and the process's exit writes what is left, see service.logs).
            with anyio.CancelScope(shield=True):
                await anyio.to_thread.run_sync(logs.flush)

    app = FastAPI(
        title="Tic-tac-toe best-move API",
        version=__version__,
        description=DESCRIPTION,
        openapi_tags=TAGS,
        lifespan=lifespan,
        openapi_url=None,
        docs_url=None,
        redoc_url=None,
        redirect_slashes=False,
        routes=[tools.route],  # MCP, for AI assistants: the API's answers as tools
        # FastAPI's OpenTelemetry, only when asked for: see Settings.opentelemetry.
        telemetry={
            "tracing": settings.opentelemetry,
            "metrics": settings.opentelemetry,
            "logs": settings.opentelemetry,
        },
    )
    app.state.answers = answers
    app.state.coach = coach
    app.state.metrics = metrics
    # The API first: routes are matched in order, and the API is what is asked most.
    metrics_here = [operations.metrics_router] if settings.metrics_port is None else []
    routers = [
        moves.router,
        analysis.router,
        review.router,
        puzzles.router,
        variants.router,
        languages.router,
        operations.router,
        *metrics_here,
        pages.router,
    ]
    for router in routers:
        app.include_router(router)
    api = [route for router in routers for route in router.routes]
    docs.install_docs(app)
    app.mount("/static", pages.static_files(), name="static")
    app.state.route_methods = problems.route_methods([*api, *app.router.routes])
    problems.install(app)
    # Innermost first: Starlette's add_middleware puts each one outside the ones before it.
    # The order, and why, is in service/web/middleware/__init__.py.
    app.add_middleware(FastLane, answers=answers, routes=api)
    app.add_middleware(AdmissionMiddleware, limit=settings.max_costly_requests)
    app.add_middleware(
        BodyLimitMiddleware,
        max_body_bytes=settings.max_body_bytes,
        path_limits={mcp.PATH: mcp.MAX_BODY_BYTES},
    )
    app.add_middleware(ContentEncodingMiddleware)
    cors = CORSPolicy(settings.cors_origins)
    app.add_middleware(CORSMiddleware, **cors.options())
    app.add_middleware(RefusedPreflightMiddleware, policy=cors)
    app.add_middleware(CompressionMiddleware)
    app.add_middleware(ErrorMiddleware)
    app.add_middleware(HeadMiddleware)
    app.add_middleware(AccessMiddleware, metrics=metrics)
    app.add_middleware(RequestIdMiddleware)
    app.add_middleware(NoSniffMiddleware)
    install_openapi(app, api)
    # What start-up made (the answers, the puzzle book, the app) lives as long as the process:
    # out of the collector's sight, collections no longer walk it.
    gc.freeze()
    return app
