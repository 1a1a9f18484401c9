"""The browser game and the offline API documentation, in headless Chromium driven by Playwright."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from urllib.parse import urlsplit

import httpx
import pytest

from service.game import Level
from tests.support.server import Server
from tests.support.tools import require_tool

playwright_api = pytest.importorskip("playwright.sync_api")

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ENDED = re.compile(r"^(Draw\.|The engine wins with|You win with)")


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    executable = require_tool("chromium")
    with playwright_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


class Page:
    """A page that records every request it makes."""

    def __init__(self, browser: object, server: Server, **context: object) -> None:
        self.context = browser.new_context(**context)  # type: ignore[attr-defined]
        self.page = self.context.new_page()
        self.page.set_default_timeout(15_000)
        self.server = server
        self.requests: list[str] = []
        self.console: list[str] = []
        self.page.on("request", lambda request: self.requests.append(request.url))
        self.page.on("console", lambda message: self.console.append(f"{message.type}: {message.text}"))

    def goto(self, path: str) -> None:
        self.page.goto(self.server.url + path)

    def assert_only_own_host(self) -> None:
        """Nothing was requested from another host, and the page broke no security policy."""
        own = urlsplit(self.server.url).netloc
        local = {"data", "blob"}
        foreign = [
            url for url in self.requests if urlsplit(url).scheme not in local and urlsplit(url).netloc != own
        ]
        assert foreign == [], foreign
        assert self.requests, "no request was recorded"
        violations = [line for line in self.console if "Content Security Policy" in line]
        assert violations == [], violations


@pytest.fixture
def page(browser: object, live_server: Server) -> Iterator[Page]:
    page = Page(browser, live_server)
    yield page
    page.context.close()


def status(page: Page) -> str:
    text: str = page.page.locator("#status").inner_text()
    return text


def wait_for_turn_or_end(page: Page) -> None:
    page.page.wait_for_function(
        "() => /^(Your turn|Draw\\.|The engine wins|You win)/"
        ".test(document.getElementById('status').textContent)"
    )


def test_a_whole_game_by_clicks_ends_in_a_draw_or_an_engine_win(page: Page) -> None:
    page.goto("/play")
    page.page.select_option("#side", "X")
    page.page.select_option("#first", "X")
    page.page.click("#new-game")
    wait_for_turn_or_end(page)
    moves = 0
    while not ENDED.match(status(page)):
        page.page.locator(".cell:enabled").first.click()
        moves += 1
        wait_for_turn_or_end(page)
    assert moves >= 3
    assert not status(page).startswith("You win")
    marks = page.page.locator(".cell.x").count() + page.page.locator(".cell.o").count()
    assert marks >= 5
    if "engine wins" in status(page):
        assert page.page.locator(".cell.winning").count() >= 3
        assert "Winning line:" in status(page)
    page.assert_only_own_host()


def test_the_game_can_be_played_with_the_keyboard(page: Page) -> None:
    page.goto("/play")
    page.page.keyboard.press("n")
    wait_for_turn_or_end(page)
    page.page.locator("body").click(position={"x": 1, "y": 1})
    for key in "123456789" * 2:
        if ENDED.match(status(page)):
            break
        page.page.keyboard.press(key)
        wait_for_turn_or_end(page)
    assert ENDED.match(status(page)), status(page)
    # Tab reaches the cells: they are buttons.
    assert page.page.locator("button.cell").count() == 9
    page.assert_only_own_host()


def test_hint_shows_every_moves_value(page: Page, live_server: Server) -> None:
    page.goto("/play")
    page.page.click("#new-game")
    wait_for_turn_or_end(page)
    page.page.click(".cell[data-cell='0']")
    wait_for_turn_or_end(page)
    page.page.click("#hint")
    page.page.wait_for_selector(".cell .hint")
    board = "".join(
        (
            page.page.locator(f".cell[data-cell='{i}']").evaluate(
                "el => el.firstChild && el.firstChild.nodeType === 3 ? el.firstChild.textContent : ''"
            )
            or "."
        )
        for i in range(9)
    )
    analysis = httpx.post(f"{live_server.url}/v1/analysis", json={"board": board, "player": "X"}).json()
    shown = {
        int(cell.get_attribute("data-cell")): cell.locator(".hint").inner_text()
        for cell in page.page.locator(".cell").all()
        if cell.locator(".hint").count()
    }
    expected = {
        m["position"]: ("draw" if m["outcome"] == "draw" else f"{m['outcome']} {m['plies_to_end']}")
        for m in analysis["moves"]
    }
    assert shown == expected
    assert page.page.locator(".cell.hint-best").count() == len(analysis["best_moves"])
    assert "Hint:" in status(page)
    reasons = [item.inner_text() for item in page.page.locator("#reasons li").all()]
    best = set(analysis["best_moves"])
    assert reasons == [
        f"Cell {m['position'] + 1}{' (best)' if m['position'] in best else ''}: {m['reason']}"
        for m in analysis["moves"]
    ]
    first = analysis["moves"][0]
    assert (
        page.page.locator(f".cell[data-cell='{first['position']}']").get_attribute("title") == first["reason"]
    )
    page.assert_only_own_host()


def test_the_level_selector_offers_every_level_and_reaches_the_request(page: Page) -> None:
    page.goto("/play")
    offered = page.page.locator("#level option").evaluate_all("options => options.map(o => o.value)")
    assert offered == [level.value for level in Level]
    assert page.page.locator("#level").input_value() == "perfect"
    page.page.select_option("#first", "O")  # the engine (O) moves first
    page.page.select_option("#level", "easy")
    with page.page.expect_response(lambda r: r.url.endswith("/v1/best-move")) as caught:
        page.page.click("#new-game")
    body = caught.value.request.post_data_json
    assert (body["level"], body["player"]) == ("easy", "O")
    answer = caught.value.json()
    wait_for_turn_or_end(page)
    said = page.page.locator("#engine-move").inner_text()
    assert said == f"The engine played cell {answer['position'] + 1}: {answer['reason']}"


def test_unreachable_service_shows_a_readable_error(page: Page) -> None:
    page.goto("/play")
    page.page.route("**/v1/best-move", lambda route: route.abort())
    page.page.click("#new-game")
    wait_for_turn_or_end(page)
    page.page.click(".cell[data-cell='4']")
    error = page.page.locator("#error")
    error.wait_for(state="visible")
    assert "Cannot reach the service" in error.inner_text()


def test_phone_sized_screen(browser: object, live_server: Server) -> None:
    phone = Page(browser, live_server, viewport={"width": 360, "height": 640}, is_mobile=True, has_touch=True)
    try:
        phone.goto("/play")
        width = phone.page.evaluate("document.scrollingElement.scrollWidth")
        assert width <= 360
        box = phone.page.locator("#board").bounding_box()
        assert box is not None and box["width"] <= 360 and box["width"] > 200
        phone.page.tap("#new-game")
        wait_for_turn_or_end(phone)
        phone.page.tap(".cell[data-cell='4']")
        wait_for_turn_or_end(phone)
        assert phone.page.locator(".cell.o").count() == 1
    finally:
        phone.context.close()


def test_swagger_ui_offline_shows_every_operation_and_tries_one(page: Page, live_server: Server) -> None:
    page.goto("/docs")
    page.page.wait_for_selector(".opblock")
    operations = httpx.get(f"{live_server.url}/openapi.json").json()["paths"]
    expected = sum(len(methods) for methods in operations.values())
    assert page.page.locator(".opblock").count() == expected
    for path in operations:
        assert page.page.locator(f".opblock-summary-path[data-path='{path}']").count() >= 1
    block = page.page.locator("#operations-moves-postBestMove")
    block.locator(".opblock-summary").click()
    # "Try it out" is on from the start (tryItOutEnabled), so the request example is ready to send.
    assert block.locator("button.try-out__btn").inner_text().strip() == "Cancel"
    block.locator("button.execute").click()
    status_cell = block.locator(".live-responses-table tr.response .response-col_status").first
    status_cell.wait_for()
    assert status_cell.inner_text().strip().startswith("200")
    page.assert_only_own_host()


def test_redoc_renders_offline(page: Page) -> None:
    page.goto("/redoc")
    page.page.locator("h2", has_text="Best move for a board").first.wait_for()
    for summary in ["Best moves for many boards", "Analysis of a board", "Health check"]:
        assert page.page.locator("h2", has_text=summary).count() >= 1, summary
    page.assert_only_own_host()


def test_the_page_asks_the_service_whether_a_game_is_over(page: Page) -> None:
    """The rules live in the service: the page shows the status and lines the service gives."""
    invented = {
        "board": "X........",
        "status": "x_won",
        "winner": "X",
        "winning_lines": [[0, 4, 8]],
        "player": None,
        "score": None,
        "outcome": None,
        "plies_to_end": None,
        "best_moves": [],
        "moves": [],
        "principal_variation": [],
    }
    page.page.route(
        "**/v1/analysis",
        lambda route: route.fulfill(status=200, content_type="application/json", body=json.dumps(invented)),
    )
    page.goto("/play")
    page.page.select_option("#side", "X")
    page.page.select_option("#first", "X")
    page.page.click("#new-game")
    wait_for_turn_or_end(page)
    page.page.click(".cell[data-cell='0']")
    wait_for_turn_or_end(page)
    assert status(page) == "You win with X! Winning line: 1-5-9."
    assert page.page.locator(".cell.winning").count() == 3
