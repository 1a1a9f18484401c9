"""The browser game and the offline API documentation, in headless Chromium driven by Playwright."""

from __future__ import annotations

import contextlib
import json
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from service.game import Level
from tests.browser.driver import ENDED, Page, sent, worst
from tests.support.server import Server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Route

playwright_api = pytest.importorskip("playwright.sync_api")


def test_a_whole_game_by_clicks_ends_in_a_draw_or_an_engine_win(page: Page) -> None:
    page.goto("/play")
    page.page.select_option("#side", "X")
    page.page.select_option("#first", "X")
    page.page.click("#new-game")
    page.wait_for_turn_or_end()
    moves = 0
    while not ENDED.match(page.status()):
        page.page.locator(".cell[aria-disabled='false']").first.click()
        moves += 1
        page.wait_for_turn_or_end()
    assert moves >= 3
    assert not page.status().startswith("You win")
    marks = page.page.locator(".cell.x").count() + page.page.locator(".cell.o").count()
    assert marks >= 5
    if "engine wins" in page.status():
        assert page.page.locator(".cell.winning").count() >= 3
        assert "Winning line:" in page.status()
    page.assert_only_own_host()


def test_the_game_can_be_played_with_the_keyboard(page: Page) -> None:
    page.goto("/play")
    page.page.keyboard.press("n")
    page.wait_for_turn_or_end()
    page.page.locator("body").click(position={"x": 1, "y": 1})
    for key in "123456789" * 2:
        if ENDED.match(page.status()):
            break
        page.page.keyboard.press(key)
        page.wait_for_turn_or_end()
    assert ENDED.match(page.status()), page.status()
    # The cells are buttons, in a grid of rows.
    assert page.page.locator("[role=grid] > [role=row] > [role=gridcell] > button.cell").count() == 9
    page.assert_only_own_host()


def test_hint_shows_every_moves_value(page: Page, live_server: Server) -> None:
    page.goto("/play")
    page.page.click("#new-game")
    page.wait_for_turn_or_end()
    page.page.click(".cell[data-cell='0']")
    page.wait_for_turn_or_end()
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
        int(cell.get_attribute("data-cell") or -1): cell.locator(".hint").inner_text()
        for cell in page.page.locator(".cell").all()
        if cell.locator(".hint").count()
    }
    expected = {
        m["position"]: ("draw" if m["outcome"] == "draw" else f"{m['outcome']} {m['plies_to_end']}")
        for m in analysis["moves"]
    }
    assert shown == expected
    assert page.page.locator(".cell.hint-best").count() == len(analysis["best_moves"])
    assert "Hint:" in page.status()
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
    body = sent(caught.value.request)
    assert (body["level"], body["player"]) == ("easy", "O")
    answer = caught.value.json()
    page.wait_for_turn_or_end()
    said = page.page.locator("#engine-move").inner_text()
    assert said == f"The engine played cell {answer['position'] + 1}: {answer['reason']}"


def test_unreachable_service_shows_a_readable_error(page: Page) -> None:
    page.goto("/play")
    page.page.route("**/v1/best-move", lambda route: route.abort())
    page.page.click("#new-game")
    page.wait_for_turn_or_end()
    page.page.click(".cell[data-cell='4']")
    error = page.page.locator("#error")
    error.wait_for(state="visible")
    assert "Cannot reach the service" in error.inner_text()


def test_phone_sized_screen(browser: Browser, live_server: Server) -> None:
    phone = Page(browser, live_server, viewport={"width": 360, "height": 640}, is_mobile=True, has_touch=True)
    try:
        phone.goto("/play")
        width = phone.page.evaluate("document.scrollingElement.scrollWidth")
        assert width <= 360
        box = phone.page.locator("#board").bounding_box()
        assert box is not None and box["width"] <= 360 and box["width"] > 200
        phone.page.tap("#new-game")
        phone.wait_for_turn_or_end()
        phone.page.tap(".cell[data-cell='4']")
        phone.wait_for_turn_or_end()
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
    page.wait_for_turn_or_end()
    page.page.click(".cell[data-cell='0']")
    page.wait_for_turn_or_end()
    assert page.status() == "You win with X! Winning line: 1-5-9."
    assert page.page.locator(".cell.winning").count() == 3


# --- no stale answers -----------------------------------------------------------------------------


class Held:
    """A route handler that holds the first request it sees unanswered, and lets the others through."""

    def __init__(self) -> None:
        self.routes: list[Route] = []

    def __call__(self, route: Route) -> None:
        if self.routes:
            route.fallback()
        else:
            self.routes.append(route)

    def release(self) -> None:
        """Sends the held request on and delivers its answer, if the page still wants it."""
        for route in self.routes:
            # A request that the page has cancelled can no longer be continued: that is fine here.
            with contextlib.suppress(playwright_api.Error):
                route.continue_()


#: Makes every fetch of the page deaf to its AbortController, as if its answer had come in just
#: before the abort: what is left to keep a late answer off the board is the page's own check.
UNABORTABLE_FETCH = """{
    const fetch = window.fetch;
    window.fetch = (resource, options) => fetch(resource, { ...options, signal: undefined });
}"""


@pytest.mark.parametrize("abortable", [True, False], ids=["aborted", "answered-late"])
def test_a_new_game_drops_the_engine_move_of_the_last_one(page: Page, abortable: bool) -> None:
    """The engine is still thinking about its first move of one game when another game starts: that
    request is aborted, and its answer, even when it comes all the same, never reaches the new board."""
    if not abortable:
        page.page.add_init_script(UNABORTABLE_FETCH)
    held = Held()
    page.page.route("**/v1/best-move", held)
    page.goto("/play")
    page.page.select_option("#first", "O")  # the engine (O) opens
    with page.page.expect_request("**/v1/best-move") as opening:
        page.page.click("#new-game")
    page.page.wait_for_function("document.getElementById('status').textContent.startsWith('The engine is')")
    page.page.select_option("#first", "X")  # you open the next game
    if abortable:
        with page.page.expect_event("requestfailed") as failed:
            page.page.click("#new-game")
        assert failed.value == opening.value
        assert failed.value.failure == "net::ERR_ABORTED"
        page.wait_for_turn_or_end()
        held.release()
    else:
        page.page.click("#new-game")
        page.wait_for_turn_or_end()
        with page.page.expect_response(lambda response: response.request == opening.value) as late:
            held.release()
        # The last game's opening move is answered (the page never reads that answer's body).
        assert late.value.status == 200
    # The new game goes on, with one move each: the old game's answer is nowhere.
    with page.page.expect_response("**/v1/best-move") as answered:
        page.page.click(".cell[data-cell='8']")
    page.wait_for_turn_or_end()
    move = answered.value.json()
    assert move["board"] == "........X"
    assert page.board() == move["board_after"]
    assert page.page.locator("#engine-move").inner_text() == (
        f"The engine played cell {move['position'] + 1}: {move['reason']}"
    )
    assert page.status() == "Your turn: you are X."
    assert page.page.locator("#error").inner_text() == ""


def test_a_level_changed_while_the_engine_thinks_asks_again_at_that_level(page: Page) -> None:
    held = Held()
    page.page.route("**/v1/best-move", held)
    page.goto("/play")
    page.new_game(level="perfect")
    with page.page.expect_request("**/v1/best-move") as first:
        page.page.click(".cell[data-cell='0']")
    assert sent(first.value)["level"] == "perfect"
    with (
        page.page.expect_event("requestfailed") as failed,
        page.page.expect_request("**/v1/best-move") as again,
    ):
        page.page.select_option("#level", "beginner")
    assert failed.value == first.value  # the request at the old level, aborted
    assert failed.value.failure == "net::ERR_ABORTED"
    assert sent(again.value) == {"board": "X........", "player": "O", "level": "beginner"}
    page.wait_for_turn_or_end()
    held.release()
    note = page.page.locator("#level-note")
    said = "Level changed to Beginner: the engine is choosing its move again at this level."
    assert note.inner_text() == said
    assert note.is_visible()
    answer = again.value.response()
    assert answer is not None
    assert page.board() == answer.json()["board_after"]


def test_a_level_changed_on_your_turn_applies_to_the_engines_next_move(page: Page) -> None:
    page.goto("/play")
    page.new_game(level="perfect")
    page.page.select_option("#level", "easy")
    note = page.page.locator("#level-note")
    assert note.inner_text() == "Level changed to Easy: it applies from the engine's next move."
    assert note.is_visible()
    with page.page.expect_request("**/v1/best-move") as asked:
        page.page.click(".cell[data-cell='4']")
    assert sent(asked.value)["level"] == "easy"
    page.wait_for_turn_or_end()


# --- keyboard and focus ---------------------------------------------------------------------------


def test_arrow_keys_home_and_end_move_around_the_board_as_in_a_grid(page: Page) -> None:
    page.goto("/play")
    page.new_game()
    assert page.focused_cell() == 0  # a new game puts the focus on the board
    for key, cell in [
        ("ArrowRight", 1),
        ("ArrowRight", 2),
        ("ArrowRight", 2),  # no wrapping at the edge
        ("ArrowDown", 5),
        ("Home", 3),
        ("End", 5),
        ("ArrowDown", 8),
        ("ArrowDown", 8),
        ("ArrowLeft", 7),
        ("Control+Home", 0),
        ("ArrowUp", 0),
        ("ArrowLeft", 0),
        ("Control+End", 8),
        ("ArrowUp", 5),
    ]:
        page.page.keyboard.press(key)
        assert page.focused_cell() == cell, key
        # One tab stop: the focused cell alone is in the tab order.
        stops = page.page.locator("#board [tabindex='0']").evaluate_all(
            "cells => cells.map(c => c.dataset.cell)"
        )
        assert stops == [str(cell)]
    page.page.keyboard.press("Enter")  # plays the focused cell
    page.wait_for_turn_or_end()
    assert page.board()[5] == "X"
    assert page.focused_cell() == 5
    page.page.keyboard.press("Tab")  # Tab leaves the board at once
    assert page.focused_cell() is None
    page.page.keyboard.press("Shift+Tab")  # and comes back to the cell last used
    assert page.focused_cell() == 5


@pytest.mark.parametrize("how", ["click", "Enter", "Space", "digit"])
def test_the_focus_stays_on_the_board_after_a_move(page: Page, how: str) -> None:
    page.goto("/play")
    page.new_game()
    for cell in (4, 0, 8, 2, 6, 1, 3, 5, 7):
        if ENDED.match(page.status()):
            break
        if page.board()[cell] != ".":
            continue
        if how == "click":
            page.page.click(f".cell[data-cell='{cell}']")
        elif how == "digit":
            page.page.keyboard.press(str(cell + 1))
        else:
            page.page.focus(f".cell[data-cell='{cell}']")
            page.page.keyboard.press(how)
        page.wait_for_turn_or_end()
        assert page.board()[cell] == "X"
        assert page.focused_cell() == cell, page.page.evaluate("document.activeElement.tagName")
    assert ENDED.match(page.status())
    assert page.focused_cell() is not None


# --- what is announced ----------------------------------------------------------------------------

#: Records every text that the page's live regions take, in order, with the region's id, and every
#: moment one of them is out of the accessibility tree (hidden, not displayed): a region that is not
#: there when its text changes may say nothing.
RECORD_ANNOUNCEMENTS = """() => {
    window.announced = [];
    window.unheard = [];
    for (const region of document.querySelectorAll("[aria-live], [role=status], [role=alert]")) {
        new MutationObserver((records) => {
            const shown = !region.hidden && getComputedStyle(region).display !== "none" &&
                getComputedStyle(region).visibility !== "hidden" && !region.closest("[aria-hidden=true]");
            if (!shown) window.unheard.push(region.id);
            const said = records.some((r) => r.type !== "attributes");
            if (said && region.textContent) window.announced.push([region.id, region.textContent]);
        }).observe(region, { childList: true, characterData: true, subtree: true, attributes: true });
    }
}"""


def test_every_engine_move_and_the_result_are_announced(page: Page) -> None:
    page.goto("/play")
    # The regions are in the page, shown and empty, before anything is said in them.
    regions = page.page.evaluate(
        """() => ["status", "engine-move", "level-note", "error"].map((id) => {
            const el = document.getElementById(id);
            return [id, el.hidden, getComputedStyle(el).display, el.closest("[aria-hidden=true]") === null,
                    el.getAttribute("aria-live") || el.getAttribute("role")];
        })"""
    )
    assert regions == [
        ["status", False, "block", True, "status"],
        ["engine-move", False, "block", True, "polite"],
        ["level-note", False, "block", True, "polite"],
        ["error", False, "block", True, "alert"],
    ]
    page.page.evaluate(RECORD_ANNOUNCEMENTS)
    moves: list[dict[str, Any]] = []
    page.page.on(
        "response", lambda r: moves.append(r.json()) if r.url.endswith("/v1/best-move") and r.ok else None
    )
    page.page.select_option("#first", "O")  # the engine's first move is the game's first
    page.page.click("#new-game")
    page.wait_for_turn_or_end()
    page.play_out(worst)
    announced = [tuple(item) for item in page.page.evaluate("window.announced")]
    engine = [text for region, text in announced if region == "engine-move"]
    assert engine == [f"The engine played cell {m['position'] + 1}: {m['reason']}" for m in moves]
    assert len(engine) >= 3
    assert announced[-1] == ("status", page.status())
    assert page.page.evaluate("window.unheard") == []
    assert page.status().startswith("The engine wins with O. Winning line: ")
