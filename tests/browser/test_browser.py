"""The browser game and the offline API documentation, in headless Chromium driven by Playwright."""

from __future__ import annotations

import contextlib
import json
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

from service.game import Level
from service.game.levels import STANDARD_LADDER
from tests.browser.driver import ENDED, Page, sent, worst
from tests.support.server import Server

RATINGS = STANDARD_LADDER.ratings or {}
MAX_RATING = RATINGS["perfect"]

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
        page.page.locator("#board .cell[aria-disabled='false']").first.click()
        moves += 1
        page.wait_for_turn_or_end()
    assert moves >= 3
    assert not page.status().startswith("You win")
    marks = page.page.locator("#board .cell.x").count() + page.page.locator("#board .cell.o").count()
    assert marks >= 5
    if "engine wins" in page.status():
        assert page.page.locator("#board .cell.winning").count() >= 3
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
    assert page.page.locator("#board[role=grid] > [role=row] > [role=gridcell] > button.cell").count() == 9
    page.assert_only_own_host()


def test_hint_shows_every_moves_value(page: Page, live_server: Server) -> None:
    page.goto("/play")
    page.page.click("#new-game")
    page.wait_for_turn_or_end()
    page.page.click("#board .cell[data-cell='0']")
    page.wait_for_turn_or_end()
    page.page.click("#hint")
    page.page.wait_for_selector("#board .cell .hint")
    board = "".join(
        (
            page.page.locator(f"#board .cell[data-cell='{i}']").evaluate(
                "el => el.firstChild && el.firstChild.nodeType === 3 ? el.firstChild.textContent : ''"
            )
            or "."
        )
        for i in range(9)
    )
    analysis = httpx.post(f"{live_server.url}/v1/analysis", json={"board": board, "player": "X"}).json()
    shown = {
        int(cell.get_attribute("data-cell") or -1): cell.locator(".hint").inner_text()
        for cell in page.page.locator("#board .cell").all()
        if cell.locator(".hint").count()
    }
    expected = {
        m["position"]: ("draw" if m["outcome"] == "draw" else f"{m['outcome']} {m['plies_to_end']}")
        for m in analysis["moves"]
    }
    assert shown == expected
    assert page.page.locator("#board .cell.hint-best").count() == len(analysis["best_moves"])
    assert "Hint:" in page.status()
    reasons = [item.inner_text() for item in page.page.locator("#reasons li").all()]
    best = set(analysis["best_moves"])
    assert reasons == [
        f"Cell {m['position'] + 1}{' (best)' if m['position'] in best else ''}: {m['reason']}"
        for m in analysis["moves"]
    ]
    first = analysis["moves"][0]
    assert (
        page.page.locator(f"#board .cell[data-cell='{first['position']}']").get_attribute("title")
        == first["reason"]
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
    page.page.click("#board .cell[data-cell='4']")
    error = page.page.locator("#error")
    error.wait_for(state="visible")
    assert "Cannot reach the service" in error.inner_text()


def test_an_unreachable_review_is_said_and_the_result_stays(page: Page) -> None:
    page.page.route("**/v1/review", lambda route: route.abort())
    page.goto("/play")
    page.new_game()
    page.play_out(worst)
    error = page.page.locator("#error")
    error.wait_for(state="visible")
    assert error.inner_text().startswith("The review of the game is not available. Cannot reach the service.")
    assert page.status().startswith("The engine wins with O.")
    assert page.page.locator("#review-waiting").inner_text() == "This game has no review."
    assert page.page.locator("#review-body").is_hidden()


def test_unreachable_puzzles_are_said_clearly(page: Page) -> None:
    page.goto("/play")
    error = page.page.locator("#puzzle-error")
    # The message names the button as it reads: Get a puzzle before the first puzzle, Next puzzle after.
    page.page.route("**/v1/puzzles/random*", lambda route: route.abort())
    assert page.page.locator("#next-puzzle").inner_text() == "Get a puzzle"
    page.page.click("#next-puzzle")
    error.wait_for(state="visible")
    assert error.inner_text() == (
        "Cannot reach the service. Check the connection and press Get a puzzle to try again."
    )
    page.page.unroute("**/v1/puzzles/random*")
    page.get_puzzle()
    page.page.route("**/v1/puzzles/random*", lambda route: route.abort())
    assert page.page.locator("#next-puzzle").inner_text() == "Next puzzle"
    page.page.click("#next-puzzle")
    error.wait_for(state="visible")
    assert error.inner_text() == (
        "Cannot reach the service. Check the connection and press Next puzzle to try again."
    )
    assert page.page.locator("#puzzle-board").is_hidden()
    assert page.page.locator("#puzzle-status").inner_text() == ""


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
        phone.page.tap("#board .cell[data-cell='4']")
        phone.wait_for_turn_or_end()
        assert phone.page.locator("#board .cell.o").count() == 1
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


def test_swagger_ui_sends_a_variants_board_and_its_example(page: Page) -> None:
    """The console takes what the service takes: a 4×4 board typed into the cacheable GET (its
    schema once refused more than 9 characters), and the 4×4 example of the POST, sent as shown."""
    page.goto("/docs")
    page.page.wait_for_selector(".opblock")
    block = page.page.locator("#operations-moves-getBestMove")
    block.locator(".opblock-summary").click()
    block.locator("tr[data-param-name='variant'] select").select_option("4x4")
    block.locator("tr[data-param-name='board'] input").fill("X....O..........")
    block.locator("button.execute").click()
    status_cell = block.locator(".live-responses-table tr.response .response-col_status").first
    status_cell.wait_for()
    assert status_cell.inner_text().strip().startswith("200")
    assert (
        '"board": "X....O.........."' in block.locator(".live-responses-table .microlight").first.inner_text()
    )
    post = page.page.locator("#operations-moves-postBestMove")
    post.locator(".opblock-summary").click()
    post.locator(".examples-select select").first.select_option(
        label="Four in a row on a 4×4 board, as a string of 16 cells"
    )
    post.locator("button.execute").click()
    sent = post.locator(".live-responses-table tr.response .response-col_status").first
    sent.wait_for()
    assert sent.inner_text().strip().startswith("200")
    assert (
        '"status_after": "in_progress"'
        in post.locator(".live-responses-table .microlight").first.inner_text()
    )
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
    page.page.click("#board .cell[data-cell='0']")
    page.wait_for_turn_or_end()
    assert page.status() == "You win with X! Winning line: 1-5-9."
    assert page.page.locator("#board .cell.winning").count() == 3


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
        page.page.click("#board .cell[data-cell='8']")
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
        page.page.click("#board .cell[data-cell='0']")
    assert sent(first.value)["level"] == "perfect"
    with (
        page.page.expect_event("requestfailed") as failed,
        page.page.expect_request("**/v1/best-move") as again,
    ):
        page.page.select_option("#level", "beginner")
    assert failed.value == first.value  # the request at the old level, aborted
    assert failed.value.failure == "net::ERR_ABORTED"
    assert sent(again.value) == {
        "variant": "standard",
        "board": "X........",
        "player": "O",
        "level": "beginner",
        "lang": "en",
    }
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
        page.page.click("#board .cell[data-cell='4']")
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
            page.page.click(f"#board .cell[data-cell='{cell}']")
        elif how == "digit":
            page.page.keyboard.press(str(cell + 1))
        else:
            page.page.focus(f"#board .cell[data-cell='{cell}']")
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


#: The live regions of /play, as each is marked.
LIVE_REGIONS = {
    "status": "status",
    "engine-move": "polite",
    "level-note": "polite",
    "error": "alert",
    "review-status": "status",
    "puzzle-status": "status",
    "puzzle-error": "alert",
}


def test_every_engine_move_the_result_and_the_review_are_announced(page: Page) -> None:
    page.goto("/play")
    # The regions are in the page, shown and empty, before anything is said in them.
    regions = page.page.evaluate(
        """(ids) => ids.map((id) => {
            const el = document.getElementById(id);
            return [id, el.hidden, getComputedStyle(el).display, el.closest("[aria-hidden=true]") === null,
                    el.getAttribute("aria-live") || el.getAttribute("role")];
        })""",
        list(LIVE_REGIONS),
    )
    assert regions == [[name, False, "block", True, kind] for name, kind in LIVE_REGIONS.items()]
    page.page.evaluate(RECORD_ANNOUNCEMENTS)
    moves: list[dict[str, Any]] = []
    page.page.on(
        "response", lambda r: moves.append(r.json()) if r.url.endswith("/v1/best-move") and r.ok else None
    )
    page.page.select_option("#first", "O")  # the engine's first move is the game's first
    page.page.click("#new-game")
    page.wait_for_turn_or_end()
    page.play_out(worst)
    review = page.wait_for_review()
    announced = [tuple(item) for item in page.page.evaluate("window.announced")]
    engine = [text for region, text in announced if region == "engine-move"]
    assert engine == [f"The engine played cell {m['position'] + 1}: {m['reason']}" for m in moves]
    assert len(engine) >= 3
    # The result, then the review's summary, which names the level each side played like.
    said = f"the engine played like: {review['players']['O']['level']} (≈ {review['players']['O']['rating']})"
    assert announced[-2] == ("status", page.status())
    assert announced[-1][0] == "review-status"
    assert said in announced[-1][1]
    assert page.page.evaluate("window.unheard") == []
    assert page.status().startswith("The engine wins with O. Winning line: ")


# --- the review of a game -------------------------------------------------------------------------

#: Each judgement as the page words it: a word and the annotator's sign, never a colour alone.
JUDGEMENT_WORDS = {
    "best": "Best",
    "inaccuracy": "Inaccuracy (?!)",
    "mistake": "Mistake (?)",
    "blunder": "Blunder (??)",
}


def replay(moves: list[int], first: str) -> str:
    """The board after ``moves`` from the empty board, ``first`` moving first."""
    board = ["."] * 9
    mark = first
    for cell in moves:
        board[cell] = mark
        mark = "O" if mark == "X" else "X"
    return "".join(board)


def played_like(side: dict[str, Any]) -> str:
    return f"{side['level']} (≈ {side['rating']})"


@pytest.mark.parametrize(("side", "first"), [("X", "X"), ("O", "O"), ("O", "X")])
def test_a_finished_game_is_reviewed_move_by_move(page: Page, side: str, first: str) -> None:
    page.goto("/play")
    page.new_game(side=side, first=first)
    with page.page.expect_request("**/v1/review") as asked:
        played = page.play_out(worst)
    review = page.wait_for_review()
    # The page sends the game's moves, from the empty board, and who started, in its language.
    body = sent(asked.value)
    assert set(body) == {"variant", "moves", "player", "lang"}
    assert body["lang"] == "en"
    assert (body["variant"], body["player"]) == ("standard", first)
    assert replay(body["moves"], first) == page.board()
    person_moves = body["moves"][0 if first == side else 1 :: 2]
    assert person_moves == played
    # Every move, in order, with the judgement the service gives it, and its reason.
    items = page.page.locator("#review-moves > li")
    assert items.count() == len(review["plies"]) == len(body["moves"])
    for item, ply in zip(items.all(), review["plies"], strict=True):
        who = "you" if ply["player"] == side else "the engine"
        assert item.get_attribute("data-judgement") == ply["judgement"]
        line = item.locator(".ply-line").inner_text()
        expected = f"Move {ply['ply']}, {who} ({ply['player']}): cell {ply['position'] + 1} — "
        assert line.startswith(expected + JUDGEMENT_WORDS[ply["judgement"]]), line
        assert line.endswith("only move") == ply["only_move"], line
        assert item.locator(".ply-reason").inner_text() == ply["reason"]
        assert item.locator("button.show-better").count() == (ply["better"] is not None)
    assert "blunder" in [ply["judgement"] for ply in review["plies"]]
    # Each side's strength: the level it played like and its rating; the person is "you".
    engine = "O" if side == "X" else "X"
    sides = page.page.locator("#review-players > li")
    assert sides.count() == 2
    you, it = (sides.nth(0).inner_text(), sides.nth(1).inner_text())
    assert you.startswith(f"You ({side}) played like: {played_like(review['players'][side])} — "), you
    assert it.startswith(f"The engine ({engine}) played like: {played_like(review['players'][engine])} — "), (
        it
    )
    judged = review["players"][side]
    assert (
        f"{judged['judgements']['best']} of {judged['moves']} moves best (accuracy {judged['accuracy']:g}%)"
        in you
    )
    assert page.page.locator("#review-status").inner_text() == (
        f"Review: you played like: {played_like(review['players'][side])}; the engine played like: "
        f"{played_like(review['players'][engine])}. Every move is judged below."
    )
    page.assert_only_own_host()


def test_a_better_move_is_shown_on_demand(page: Page) -> None:
    page.goto("/play")
    page.new_game()
    page.play_out(worst)
    review = page.wait_for_review()
    faulty = [ply for ply in review["plies"] if ply["better"] is not None]
    assert faulty, "the worst moves against perfect play were all judged best"
    assert page.page.locator("#review-moves button.show-better").count() == len(faulty)
    ply = faulty[0]
    item = page.page.locator(f"#review-moves > li[data-ply='{ply['ply']}']")
    button = item.locator("button.show-better")
    shown = item.locator(".better-move")
    assert button.get_attribute("aria-expanded") == "false"
    assert button.get_attribute("aria-label") == f"Show the better move for move {ply['ply']}"
    assert shown.is_hidden()
    assert button.get_attribute("aria-controls") == shown.get_attribute("id")
    button.focus()
    page.page.keyboard.press("Enter")  # a button: the keyboard opens it as a click does
    assert button.get_attribute("aria-expanded") == "true"
    assert button.get_attribute("aria-label") == f"Hide the better move for move {ply['ply']}"
    assert shown.is_visible()
    # The small board: the position before the move, the move played, and the better one.
    board = shown.locator(".mini-board")
    better, position = ply["better"]["position"], ply["position"]
    cells = board.locator(".mini-cell").evaluate_all(
        "cells => cells.map((c) => [c.textContent, c.matches('.played'), c.matches('.better')])"
    )
    for index, (text, is_played, is_better) in enumerate(cells):
        mark = ply["board_before"][index]
        assert (is_played, is_better) == (index == position, index == better)
        if index == better:
            assert text == "★"
        elif index == position:
            assert text == ply["player"]
        else:
            assert text == ("" if mark == "." else mark)
    # ... and in words: the board's text alternative, and a sentence under it.
    label = board.get_attribute("aria-label") or ""
    assert board.get_attribute("role") == "img"
    assert f"Played: cell {position + 1}" in label
    assert f"Better: cell {better + 1}" in label
    assert (
        shown.locator(".better-text").inner_text() == f"Better: cell {better + 1}. {ply['better']['reason']}"
    )
    page.page.keyboard.press("Space")  # and closes it again
    assert button.get_attribute("aria-expanded") == "false"
    assert shown.is_hidden()


@pytest.mark.parametrize("abortable", [True, False], ids=["aborted", "answered-late"])
def test_a_new_game_drops_the_review_of_the_last_one(page: Page, abortable: bool) -> None:
    if not abortable:
        page.page.add_init_script(UNABORTABLE_FETCH)
    held = Held()
    page.page.route("**/v1/review", held)
    page.goto("/play")
    page.new_game()
    with page.page.expect_request("**/v1/review") as asked:
        page.play_out(worst)
    if abortable:
        with page.page.expect_event("requestfailed") as failed:
            page.page.click("#new-game")
        assert failed.value == asked.value
        held.release()
    else:
        page.page.click("#new-game")
        with page.page.expect_response(lambda response: response.request == asked.value) as late:
            held.release()
        assert late.value.status == 200
    page.wait_for_turn_or_end()
    # The new game has no review yet, and the last game's never shows up in it.
    page.page.click("#board .cell[data-cell='4']")
    page.wait_for_turn_or_end()
    assert page.page.locator("#review-status").inner_text() == ""
    assert page.page.locator("#review-moves > li").count() == 0
    assert page.page.locator("#review-body").is_hidden()
    assert page.page.locator("#review-waiting").inner_text().startswith("When this game ends")


# --- puzzles --------------------------------------------------------------------------------------


#: Each theme as the page words it.
THEME_WORDS = {
    "win": "win",
    "block": "block",
    "fork": "fork",
    "threat": "threat",
    "block_fork": "stop a fork",
}


def puzzle_query(url: str) -> dict[str, list[str]]:
    return parse_qs(urlsplit(url).query)


def test_a_puzzle_solved_right_with_the_keyboard(page: Page) -> None:
    page.goto("/play")
    puzzle = page.get_puzzle("fork", 382, 382)
    asked = [r for r in page.responses if "/v1/puzzles/random" in r.url][-1]
    assert puzzle_query(asked.url) == {
        "variant": ["standard"],
        "theme": ["fork"],
        "min_rating": ["382"],
        "max_rating": ["382"],
        "lang": ["en"],
    }
    assert "fork" in puzzle["themes"]
    assert puzzle["rating"] == 382
    assert page.puzzle_board() == puzzle["board"]
    goal = "wins" if puzzle["outcome"] == "win" else "holds the draw"
    status = page.page.locator("#puzzle-status")
    assert status.inner_text() == (
        f"Puzzle (rating 382): {puzzle['player']} to play. Find the only move that {goal}."
    )
    # The puzzle's board has the focus, on its first empty cell; the keys answer there.
    focused = page.page.evaluate("document.activeElement.closest('#puzzle-board') !== null")
    assert focused
    page.page.keyboard.press(str(puzzle["solution"] + 1))
    assert status.inner_text().startswith(f"Right: cell {puzzle['solution'] + 1}. {puzzle['reason']}")
    assert status.get_attribute("data-result") == "right"
    assert status.inner_text().endswith(f" Themes: {', '.join(THEME_WORDS[t] for t in puzzle['themes'])}.")
    solved = page.page.locator(f"#puzzle-board .cell[data-cell='{puzzle['solution']}']")
    assert solved.get_attribute("aria-label") == (
        f"cell {puzzle['solution'] + 1}, {puzzle['player']}, your answer, right"
    )
    assert solved.inner_text().startswith(puzzle["player"])
    # Answered: the board takes no other answer; the game's board is untouched.
    assert page.page.locator("#puzzle-board .cell[aria-disabled='false']").count() == 0
    assert page.board() == "........."
    assert page.page.locator("#next-puzzle").inner_text() == "Next puzzle"
    with page.page.expect_response(lambda r: "/v1/puzzles/random" in r.url) as again:
        page.page.keyboard.press("n")  # the next puzzle, with the same filters
    assert puzzle_query(again.value.url) == {
        "variant": ["standard"],
        "theme": ["fork"],
        "min_rating": ["382"],
        "max_rating": ["382"],
        "lang": ["en"],
    }
    page.wait_for_puzzle()
    assert page.puzzle_board() == again.value.json()["board"]
    assert status.get_attribute("data-result") == ""
    page.assert_only_own_host()


def test_a_puzzle_answered_wrong_shows_the_solution(page: Page) -> None:
    page.goto("/play")
    puzzle = page.get_puzzle()
    assert puzzle_query([r for r in page.responses if "/v1/puzzles/random" in r.url][-1].url) == {
        "variant": ["standard"],
        "min_rating": ["0"],
        "max_rating": ["493"],
        "lang": ["en"],
    }
    wrong = next(i for i, mark in enumerate(puzzle["board"]) if mark == "." and i != puzzle["solution"])
    page.page.click(f"#puzzle-board .cell[data-cell='{wrong}']")
    status = page.page.locator("#puzzle-status")
    solution_cell = puzzle["solution"] + 1
    assert status.inner_text().startswith(
        f"Wrong: cell {wrong + 1} is not it. The solution is cell {solution_cell}: {puzzle['reason']}"
    )
    assert status.get_attribute("data-result") == "wrong"
    answered = page.page.locator(f"#puzzle-board .cell[data-cell='{wrong}']")
    assert answered.get_attribute("aria-label") == f"cell {wrong + 1}, {puzzle['player']}, your answer, wrong"
    solution = page.page.locator(f"#puzzle-board .cell[data-cell='{puzzle['solution']}']")
    assert solution.get_attribute("aria-label") == f"cell {puzzle['solution'] + 1}, empty, the solution"
    assert "solution" in (solution.get_attribute("class") or "").split()
    tag = solution.locator("xpath=..").locator(".line-tag")
    assert tag.inner_text() == "solution"
    # A second answer changes nothing.
    solution.focus()
    page.page.keyboard.press("Enter")
    assert solution.get_attribute("aria-label") == f"cell {puzzle['solution'] + 1}, empty, the solution"
    assert status.get_attribute("data-result") == "wrong"


def test_no_matching_puzzle_is_said_clearly(page: Page, live_server: Server) -> None:
    """The message says to press the button by the label it has then: Get a puzzle before the
    first puzzle, Next puzzle once one was shown."""
    page.goto("/play")
    button = page.page.locator("#next-puzzle")
    error = page.page.locator("#puzzle-error")
    query = {"theme": "win", "min_rating": "400", "max_rating": "450"}
    assert httpx.get(f"{live_server.url}/v1/puzzles/random", params=query).status_code == 404
    for label in ("Get a puzzle", "Next puzzle"):
        if label == "Next puzzle":
            page.get_puzzle()
        page.page.select_option("#puzzle-theme", "win")
        page.page.fill("#puzzle-min", "400")
        page.page.fill("#puzzle-max", "450")
        assert button.inner_text() == label
        with page.page.expect_response(lambda r: "/v1/puzzles/random" in r.url) as answered:
            button.click()
        assert answered.value.status == 404
        error.wait_for(state="visible")
        assert error.inner_text() == (
            "No puzzle matches these filters (theme win, rating 400 to 450). "
            f"Widen the rating range or choose another theme, then press {button.inner_text()}."
        )
        assert button.inner_text() == label
        assert page.page.locator("#puzzle-board").is_hidden()
        assert page.page.locator("#puzzle-status").inner_text() == ""


@pytest.mark.parametrize(
    ("low", "high", "field", "message"),
    [
        ("300", "100", "#puzzle-min", "The lowest rating (300) is above the highest (100)."),
        ("", "100", "#puzzle-min", "The lowest rating must be a whole number from 0 to 493."),
        ("0", "500", "#puzzle-max", "The highest rating must be a whole number from 0 to 493."),
        ("1.5", "100", "#puzzle-min", "The lowest rating must be a whole number from 0 to 493."),
    ],
)
def test_wrong_puzzle_filters_are_said_before_asking(
    page: Page, low: str, high: str, field: str, message: str
) -> None:
    page.goto("/play")
    page.page.fill("#puzzle-min", low)
    page.page.fill("#puzzle-max", high)
    page.page.click("#next-puzzle")
    assert page.page.locator("#puzzle-error").inner_text() == message
    assert page.page.locator(field).get_attribute("aria-invalid") == "true"
    assert page.page.evaluate("document.activeElement.id") == field[1:]
    assert [url for url in page.requests if "/v1/puzzles" in url] == []
    # Mended, the filters are asked for, and the mark is gone.
    page.page.fill("#puzzle-min", "0")
    page.page.fill("#puzzle-max", "493")
    with page.page.expect_response(lambda r: "/v1/puzzles/random" in r.url):
        page.page.click("#next-puzzle")
    assert page.page.locator(field).get_attribute("aria-invalid") is None
    assert page.page.locator("#puzzle-error").inner_text() == ""


@pytest.mark.parametrize("abortable", [True, False], ids=["aborted", "answered-late"])
def test_a_new_puzzle_drops_the_answer_of_the_last_request(page: Page, abortable: bool) -> None:
    """Two requests with filters that no puzzle meets both: the page shows the second one's puzzle."""
    if not abortable:
        page.page.add_init_script(UNABORTABLE_FETCH)
    held = Held()
    page.page.route("**/v1/puzzles/random*", held)
    page.goto("/play")
    page.page.select_option("#puzzle-theme", "win")
    page.page.fill("#puzzle-max", "0")
    with page.page.expect_request("**/v1/puzzles/random*") as first:
        page.page.click("#next-puzzle")
    page.page.select_option("#puzzle-theme", "fork")
    page.page.fill("#puzzle-min", "382")
    page.page.fill("#puzzle-max", "382")
    if abortable:
        with page.page.expect_event("requestfailed") as failed:
            page.page.click("#next-puzzle")
        assert failed.value == first.value
        held.release()
    else:
        with page.page.expect_response(lambda r: "fork" in r.url) as second:
            page.page.click("#next-puzzle")
        with page.page.expect_response(lambda r: r.request == first.value) as late:
            held.release()
        # The last request's puzzle is answered (the page never reads that answer's body).
        assert late.value.status == 200
        assert puzzle_query(late.value.url)["theme"] == ["win"]
        assert second.value.json()["rating"] == 382
    page.wait_for_puzzle()
    shown = [r for r in page.responses if "fork" in r.url][-1].json()
    assert page.page.locator("#puzzle-status").inner_text().startswith("Puzzle (rating 382):")
    assert page.puzzle_board() == shown["board"]


def test_the_game_and_the_puzzles_do_not_cancel_each_other(page: Page) -> None:
    """Each has its requests: a puzzle asked for while the engine thinks leaves the engine's move be."""
    held = Held()
    page.page.route("**/v1/best-move", held)
    page.goto("/play")
    page.new_game()
    with page.page.expect_request("**/v1/best-move") as thinking:
        page.page.click("#board .cell[data-cell='4']")
    page.get_puzzle()
    with page.page.expect_response(lambda r: r.request == thinking.value):
        held.release()
    page.wait_for_turn_or_end()
    assert page.board().count("O") == 1
    assert page.page.locator("#error").inner_text() == ""


# --- strength by rating ---------------------------------------------------------------------------


def test_the_rating_slider_says_its_value_and_the_levels_around_it(page: Page) -> None:
    page.goto("/play")
    marks = page.page.locator("#rating-marks option").evaluate_all(
        "options => options.map((o) => [o.label, Number(o.value)])"
    )
    assert dict(marks) == RATINGS
    slider = page.page.locator("#rating")
    assert (slider.get_attribute("min"), slider.get_attribute("max")) == ("0", str(MAX_RATING))
    # By level at first: the slider is off; by rating, the level is.
    assert page.page.is_checked("#by-level")
    assert (page.page.is_enabled("#level"), slider.is_enabled()) == (True, False)
    page.page.check("#by-rating")
    assert (page.page.is_enabled("#level"), slider.is_enabled()) == (False, True)
    value = page.page.locator("#rating-value")
    slider.focus()
    for key, said in [
        ("End", f"{MAX_RATING}: perfect"),
        ("Home", "0: random"),
        ("ArrowRight", f"1: between random (0) and beginner ({RATINGS['beginner']})"),
    ]:
        page.page.keyboard.press(key)
        assert value.inner_text() == said
        assert slider.get_attribute("aria-valuetext") == said
    slider.fill(str(RATINGS["medium"]))
    assert value.inner_text() == f"{RATINGS['medium']}: medium"
    page.page.check("#by-level")
    assert (page.page.is_enabled("#level"), slider.is_enabled()) == (True, False)


def test_a_game_by_rating_sends_the_rating_instead_of_the_level(page: Page) -> None:
    page.goto("/play")
    page.page.check("#by-rating")
    page.page.fill("#rating", "250")
    page.page.select_option("#first", "O")  # the engine (O) moves first
    with page.page.expect_response(lambda r: r.url.endswith("/v1/best-move")) as caught:
        page.page.click("#new-game")
    assert sent(caught.value.request) == {
        "variant": "standard",
        "board": ".........",
        "player": "O",
        "rating": 250,
        "lang": "en",
    }
    assert caught.value.status == 200
    page.wait_for_turn_or_end()
    # Changed on your turn, the rating applies from the engine's next move, and the page says so.
    page.page.fill("#rating", "400")
    note = page.page.locator("#level-note")
    assert (
        note.inner_text()
        == "Rating changed to 400 (between hard and perfect): it applies from the engine's next move."
    )
    cell = page.board().index(".")
    with page.page.expect_request("**/v1/best-move") as asked:
        page.page.click(f"#board .cell[data-cell='{cell}']")
    body = sent(asked.value)
    assert (body["rating"], "level" in body) == (400, False)
    page.wait_for_turn_or_end()
    # Back to levels: the level, and no rating.
    page.page.check("#by-level")
    assert note.inner_text() == "Level changed to Perfect: it applies from the engine's next move."
    cell = page.board().index(".")
    with page.page.expect_request("**/v1/best-move") as asked:
        page.page.click(f"#board .cell[data-cell='{cell}']")
    body = sent(asked.value)
    assert (body["level"], "rating" in body) == ("perfect", False)


def test_choosing_the_rating_while_the_engine_thinks_asks_again_at_that_rating(page: Page) -> None:
    held = Held()
    page.page.route("**/v1/best-move", held)
    page.goto("/play")
    page.page.check("#by-rating")
    page.page.fill("#rating", "100")
    page.page.check("#by-level")
    page.new_game(level="perfect")
    with page.page.expect_request("**/v1/best-move") as first:
        page.page.click("#board .cell[data-cell='0']")
    assert sent(first.value)["level"] == "perfect"
    with (
        page.page.expect_event("requestfailed") as failed,
        page.page.expect_request("**/v1/best-move") as again,
    ):
        page.page.check("#by-rating")
    assert failed.value == first.value  # the request at the level, aborted
    assert failed.value.failure == "net::ERR_ABORTED"
    assert sent(again.value) == {
        "variant": "standard",
        "board": "X........",
        "player": "O",
        "rating": 100,
        "lang": "en",
    }
    page.wait_for_turn_or_end()
    held.release()
    said = (
        "Rating changed to 100 (between beginner and easy): "
        "the engine is choosing its move again at this rating."
    )
    assert page.page.locator("#level-note").inner_text() == said
    answer = again.value.response()
    assert answer is not None
    assert page.board() == answer.json()["board_after"]
