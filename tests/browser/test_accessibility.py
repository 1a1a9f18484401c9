"""axe-core, the real one (tests/browser/package.json pins it), on /play in each of its states and in
each of its languages, and on /docs and /redoc: none of its rules may fail on the game, nor on the
parts of the documentation pages that are ours; what Swagger UI and ReDoc render themselves is
counted, and docs/api.md has the count."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

from service.language import LANGUAGES
from tests.browser.driver import DESKTOP, PHONE, Page, best, readable, weakest_engine, worst
from tests.browser.test_languages import play_to_the_end, wait_for_your_turn_or_the_end
from tests.browser.test_variants import listed
from tests.support.server import Server
from tests.support.stats import counts

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytest.importorskip("playwright.sync_api")

SIZES: dict[str, dict[str, Any]] = {"desktop": DESKTOP, "phone": PHONE}


@pytest.fixture(params=list(SIZES))
def sized(request: pytest.FixtureRequest, browser: Browser, live_server: Server) -> Iterator[Page]:
    """The page at a desktop's size, then at a phone's."""
    page = Page(browser, live_server, **SIZES[request.param])
    yield page
    page.close()


def assert_no_violations(page: Page) -> None:
    _, violations = page.axe()
    assert violations == [], readable(violations)


def test_the_game_before_and_during_a_game_with_a_hint(sized: Page) -> None:
    sized.goto("/play")
    assert_no_violations(sized)
    sized.new_game()
    sized.page.click("#board .cell[data-cell='0']")
    sized.wait_for_turn_or_end()
    sized.page.click("#hint")
    sized.page.wait_for_selector("#board .cell .hint")
    assert sized.page.locator("#reasons li").count() >= 1
    assert sized.page.locator("#engine-move").inner_text().startswith("The engine played cell ")
    assert_no_violations(sized)
    # The level changed mid-game is said in the page.
    sized.page.select_option("#level", "medium")
    assert sized.page.locator("#level-note").inner_text().startswith("Level changed to Medium")
    assert_no_violations(sized)


def winning_cells(page: Page) -> dict[int, dict[str, Any]]:
    """Each cell of the winning line, with its classes, label, tag and border style."""
    cells: list[dict[str, Any]] = page.page.locator("#board .cell.winning").evaluate_all(
        """cells => cells.map((c) => ({
            cell: Number(c.dataset.cell),
            classes: Array.from(c.classList).filter((n) => n.startsWith("won-by-")),
            label: c.getAttribute("aria-label"),
            tag: c.parentElement.querySelector(".line-tag").textContent,
            border: getComputedStyle(c).borderTopStyle,
        }))"""
    )
    return {cell.pop("cell"): cell for cell in cells}


def test_the_game_you_win(sized: Page, live_server: Server) -> None:
    """The engine, routed to its worst move, loses to best play."""
    sized.page.route("**/v1/best-move", weakest_engine(live_server))
    sized.goto("/play")
    sized.new_game()
    sized.play_out(best)
    assert sized.status().startswith("You win with X! Winning line: ")
    line = winning_cells(sized)
    assert len(line) == 3
    for cell, shown in line.items():
        assert shown == {
            "classes": ["won-by-person"],
            "label": f"cell {cell + 1}, X, your winning line",
            "tag": "your line",
            "border": "solid",
        }
    assert sized.page.locator("#status").get_attribute("data-result") == "person"
    assert_no_violations(sized)


def test_the_game_the_engine_wins(sized: Page) -> None:
    """The person plays the move the service ranks last, against the perfect engine."""
    sized.goto("/play")
    sized.new_game()
    sized.play_out(worst)
    assert sized.status().startswith("The engine wins with O. Winning line: ")
    line = winning_cells(sized)
    assert len(line) == 3
    for cell, shown in line.items():
        assert shown == {
            "classes": ["won-by-engine"],
            "label": f"cell {cell + 1}, O, the engine's winning line",
            "tag": "engine's line",
            "border": "dashed",
        }
    assert sized.page.locator("#status").get_attribute("data-result") == "engine"
    assert_no_violations(sized)


def test_the_game_drawn(sized: Page) -> None:
    sized.goto("/play")
    sized.new_game(side="O", first="X")
    sized.play_out(best)
    assert sized.status() == "Draw."
    assert sized.board().count(".") == 0
    assert winning_cells(sized) == {}
    assert sized.page.locator("#status").get_attribute("data-result") == "draw"
    assert_no_violations(sized)


def test_the_review_of_a_game_with_a_better_move_shown(sized: Page) -> None:
    sized.goto("/play")
    sized.new_game()
    sized.play_out(worst)
    review = sized.wait_for_review()
    assert sized.page.locator("#review-moves > li").count() == len(review["plies"])
    assert_no_violations(sized)
    # Every better move shown at once: each small board, its text and its legend.
    buttons = sized.page.locator("#review-moves button.show-better")
    assert buttons.count() >= 1
    for button in buttons.all():
        button.focus()
        sized.page.keyboard.press("Enter")
        assert button.get_attribute("aria-expanded") == "true"
        assert sized.page.evaluate("document.activeElement.classList.contains('show-better')")
    assert sized.page.locator(".mini-board[role=img]").count() == buttons.count()
    assert_no_violations(sized)


def test_a_puzzle_asked_answered_wrong_and_right(sized: Page) -> None:
    sized.goto("/play")
    puzzle = sized.get_puzzle("block_fork", 94, 382)
    assert sized.puzzle_board() == puzzle["board"]
    assert_no_violations(sized)
    wrong = next(i for i, mark in enumerate(puzzle["board"]) if mark == "." and i != puzzle["solution"])
    sized.page.keyboard.press(str(wrong + 1))
    assert sized.page.locator("#puzzle-status").inner_text().startswith(f"Wrong: cell {wrong + 1}")
    assert sized.page.locator("#puzzle-board .cell.solution").count() == 1
    assert_no_violations(sized)
    puzzle = sized.get_puzzle("win", 0, 0)
    sized.page.click(f"#puzzle-board .cell[data-cell='{puzzle['solution']}']")
    assert (
        sized.page.locator("#puzzle-status").inner_text().startswith(f"Right: cell {puzzle['solution'] + 1}")
    )
    assert_no_violations(sized)


def test_puzzle_filters_that_match_nothing_or_are_wrong(sized: Page) -> None:
    sized.goto("/play")
    sized.page.select_option("#puzzle-theme", "win")
    sized.page.fill("#puzzle-min", "400")
    sized.page.fill("#puzzle-max", "450")
    with sized.page.expect_response(lambda r: "/v1/puzzles/random" in r.url) as answered:
        sized.page.click("#next-puzzle")
    assert answered.value.status == 404
    sized.page.locator("#puzzle-error").wait_for(state="visible")
    assert sized.page.locator("#puzzle-error").inner_text().startswith("No puzzle matches these filters")
    assert_no_violations(sized)
    sized.page.fill("#puzzle-min", "460")
    sized.page.click("#next-puzzle")
    assert sized.page.locator("#puzzle-min").get_attribute("aria-invalid") == "true"
    assert_no_violations(sized)


def test_the_engine_by_rating_changed_during_a_game(sized: Page) -> None:
    sized.goto("/play")
    sized.page.check("#by-rating")
    assert sized.page.is_disabled("#level")
    assert_no_violations(sized)
    sized.page.click("#new-game")
    sized.wait_for_turn_or_end()
    sized.page.fill("#rating", "120")
    assert sized.page.locator("#level-note").inner_text().startswith("Rating changed to 120")
    assert_no_violations(sized)


def test_the_engine_by_rating_in_each_rated_variants_scale(sized: Page, live_server: Server) -> None:
    """By rating in the rated variant with the highest ``rating_max``, then in the one with the
    lowest, which brings the rating down to its top and says so, and a game at it."""
    variants = listed(live_server)
    rated = [v for v in variants if variants[v]["rated"]]
    highest = max(rated, key=lambda v: int(variants[v]["rating_max"]))
    lowest = min(rated, key=lambda v: int(variants[v]["rating_max"]))
    sized.goto("/play")
    sized.page.wait_for_function("() => !document.getElementById('by-rating').disabled")
    sized.page.select_option("#variant", highest)
    sized.page.check("#by-rating")
    sized.page.fill("#rating", str(variants[highest]["rating_max"]))
    assert_no_violations(sized)
    sized.page.select_option("#variant", lowest)
    assert sized.page.locator("#rating").get_attribute("max") == str(variants[lowest]["rating_max"])
    if highest != lowest:
        assert (
            sized.page.locator("#level-note")
            .inner_text()
            .startswith(f"Ratings in {variants[lowest]['name']}")
        )
    assert_no_violations(sized)
    sized.page.click("#new-game")
    sized.wait_for_turn_or_end()
    assert sized.page.locator("#error").inner_text() == ""
    assert_no_violations(sized)


@pytest.mark.parametrize("tag", LANGUAGES)
def test_the_game_in_every_language(sized: Page, tag: str) -> None:
    """The page in each language the service speaks, in each of its states: loaded, a game with a
    hint, the game's end with its review and every better move shown, a puzzle answered. Nothing
    here reads the page's words, which are English until they are translated."""
    sized.goto(f"/play?lang={tag}")
    assert sized.page.evaluate("document.documentElement.lang") == tag
    sized.page.wait_for_function("() => !document.getElementById('by-rating').disabled")
    assert_no_violations(sized)
    sized.page.click("#new-game")
    wait_for_your_turn_or_the_end(sized)
    sized.page.locator("#board .cell[aria-disabled=false]").first.click()
    wait_for_your_turn_or_the_end(sized)
    sized.page.click("#hint")
    sized.page.wait_for_selector("#board .cell .hint")
    assert_no_violations(sized)
    play_to_the_end(sized)
    sized.page.wait_for_function("() => document.getElementById('review-status').textContent !== ''")
    for button in sized.page.locator("#review-moves button.show-better").all():
        button.click()
    with sized.page.expect_response(lambda r: "/v1/puzzles/random" in r.url) as answered:
        sized.page.click("#next-puzzle")
    solution = answered.value.json()["solution"]
    sized.page.locator(f"#puzzle-board .cell[data-cell='{solution}']").click()
    assert sized.page.locator("#puzzle-status").get_attribute("data-result") == "right"
    assert_no_violations(sized)


# --- the documentation pages ----------------------------------------------------------------------

#: The rules about the page around Swagger UI and ReDoc, which our templates in
#: service/web/routes/docs.py write: its language, title, viewport and landmarks.
OURS = {
    "document-title",
    "html-has-lang",
    "html-lang-valid",
    "html-xml-lang-mismatch",
    "landmark-no-duplicate-main",
    "landmark-one-main",
    "meta-viewport",
    "meta-viewport-large",
    "region",
}


@pytest.mark.parametrize(
    ("path", "ready", "title"),
    [
        ("/docs", ".opblock", "Tic-tac-toe best-move API: reference and console (Swagger UI)"),
        ("/redoc", "h2", "Tic-tac-toe best-move API: reference (ReDoc)"),
    ],
    ids=["docs", "redoc"],
)
def test_the_documentation_pages_do_their_part(page: Page, path: str, ready: str, title: str) -> None:
    page.goto(path)
    page.page.locator(f"main {ready}").first.wait_for()
    assert page.page.evaluate("document.documentElement.lang") == "en"
    assert page.page.title() == title
    assert page.page.locator("main").count() == 1
    version, violations = page.axe()
    ours = [v for v in violations if v["id"] in OURS]
    assert ours == [], readable(ours)
    # Everything else is inside what the interface renders into our <main>.
    outside = page.page.evaluate(
        "targets => targets.filter((t) => !document.querySelector(t).closest('main'))",
        [target for v in violations for target in v["targets"]],
    )
    assert outside == []
    page.assert_only_own_host()
    for violation in violations:
        name = f"axe-core {version} {path}: {violation['id']} ({violation['impact']})"
        counts[name] = len(violation["targets"])
        print(f"{name}: {len(violation['targets'])}")
