"""Chromium for the browser tests, and a fresh page (its own browser context) for each test."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from tests.browser.driver import CHROMIUM_ARGS, DESKTOP, Page
from tests.support.server import Server
from tests.support.tools import require_tool

if TYPE_CHECKING:
    from playwright.sync_api import Browser


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    playwright_api = pytest.importorskip("playwright.sync_api")
    executable = require_tool("chromium")
    with playwright_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser: Browser, live_server: Server) -> Iterator[Page]:
    page = Page(browser, live_server, **DESKTOP)
    yield page
    page.close()
