"""Fixtures shared by every layer, and the layer markers.

The tests are in one directory per layer, each with a marker of the same name:
``game`` (unit tests of the rules and the solver), ``api`` (the app in-process),
``e2e`` (a real server over HTTP), ``browser`` (Chromium) and ``deploy`` (image,
compose file, manifests). A test that uses the ``live_server`` fixture is also
marked ``e2e``. ``pytest -m "game or api"`` runs the fast ones.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from hypothesis import HealthCheck, settings

from service import logs
from service.settings import Settings
from service.web.app import create_app
from service.web.fast_lane import FastLane
from tests.support.server import Server, running

LAYERS = ("game", "api", "e2e", "browser", "deploy")

# No test depends on the wall clock: Hypothesis neither fails an example that runs long (its
# ``deadline``) nor a test whose examples are slow to make (the ``too_slow`` health check), which a
# busy machine would turn into failures.
settings.register_profile("no-clock", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("no-clock")
HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        layer = Path(item.fspath).resolve().relative_to(HERE).parts[0]
        if layer in LAYERS:
            item.add_marker(getattr(pytest.mark, layer))
        if "live_server" in getattr(item, "fixturenames", ()) and layer != "e2e":
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def anyio_backend() -> str:
    return "asyncio"


#: The loggers whose level the service sets (:func:`service.logs.configure`, :func:`service.logs.config`).
SERVICE_LOGGERS = ("service", "uvicorn", "uvicorn.error", "mcp")


@pytest.fixture(autouse=True)
def captured_log() -> Iterator[None]:
    """Every line the in-process service logs during a test is written while the test's output is
    captured, and the log levels the test set are put back.

    The service's writer thread writes lines a little after they are logged (:mod:`service.logs`):
    those of a test's last requests would reach standard error once pytest had stopped capturing it,
    between two tests, and be printed among the test results. And a test that logs at info (a
    ``create_app(Settings(log_level="info"))``, a ``logs.configure("info")``) would otherwise leave
    the whole session's app logging every request at info.
    """
    levels = {name: logging.getLogger(name).level for name in SERVICE_LOGGERS}
    yield
    logs.flush()
    for name, level in levels.items():
        logging.getLogger(name).setLevel(level)


@pytest.fixture
def service_log(capsys: pytest.CaptureFixture[str]) -> Callable[[], list[dict[str, Any]]]:
    """The lines the in-process service logs during the test, captured instead of shown.

    The service's writer thread writes each line to standard error as it is when the line is
    written (:class:`service.logs.StandardError`), which pytest captures for the test (``capsys``).
    Calling the fixture waits until every line logged so far is written, and returns those of the
    test, parsed.
    """
    written: list[str] = []

    def lines() -> list[dict[str, Any]]:
        logs.flush()
        written.append(capsys.readouterr().err)
        return [json.loads(line) for line in "".join(written).splitlines() if line.startswith("{")]

    return lines


@pytest.fixture(scope="session")
def app() -> FastAPI:
    """The app in-process, quiet: tests that read logs make their own."""
    return create_app(Settings(log_level="warning"))


@pytest.fixture(scope="session")
def routes_only_app() -> FastAPI:
    """The app with the fast lane taken out: every request answered by the routes."""
    app = create_app(Settings(log_level="warning"))
    kept = [middleware for middleware in app.user_middleware if middleware.cls is not FastLane]  # type: ignore[comparison-overlap]
    assert len(kept) == len(app.user_middleware) - 1, "the app has no fast lane to take out"
    app.user_middleware = kept
    return app


@pytest.fixture
async def client(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        yield client


@pytest.fixture(scope="session")
def live_server() -> Iterator[Server]:
    """``python -m service`` on 127.0.0.1 and a free port, shared by the session's tests."""
    with running(env={"TICTACTOE_LOG_LEVEL": "warning"}) as server:
        yield server


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    from tests.support.stats import counts

    if counts:
        terminalreporter.section("figures")
        for name, value in sorted(counts.items()):
            terminalreporter.write_line(f"{name}: {value:,}")
