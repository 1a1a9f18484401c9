from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator

import httpx
import pytest
from fastapi import FastAPI

from service.settings import Settings
from service.web.app import create_app


@pytest.fixture(scope="session")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="session")
def app() -> FastAPI:
    return create_app(Settings())


@pytest.fixture
async def client(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        yield client


def require_tool(name: str) -> str:
    """The path of a system tool; skip without it, but fail under CI where it must be installed."""
    path = shutil.which(name)
    if path is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{name} is required under CI but is not installed")
        pytest.skip(f"{name} is not installed")
    return path


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    from .stats import counts

    if counts:
        terminalreporter.section("figures")
        for name, value in sorted(counts.items()):
            terminalreporter.write_line(f"{name}: {value:,}")
