"""The rule variants on /play, in headless Chromium: the picker, every variant's board at a desktop's
width and at 390 px, a game of each played out, wild's mark by pointer and by keyboard, what each
engine move says, the review of a game in every variant, the engine's level in every variant, a
rating only where the variant is rated, on that variant's own scale, and puzzles in every variant with
a book: its themes, its scale, its board, wild's answer a cell and a mark, Notakto's dead boards."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

from tests.browser.driver import DESKTOP, NARROW, Page, best, readable, sent, worst
from tests.browser.test_browser import JUDGEMENT_WORDS, RECORD_ANNOUNCEMENTS, Held
from tests.support.server import Server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Locator, Request, Route

pytest.importorskip("playwright.sync_api")

#: The page's GET /v1/variants, whatever its query (the page's language).
VARIANTS_URL = "**/v1/variants*"
VARIANTS = ["standard", "misere", "wild", "notakto", "notakto-2", "notakto-3", "4x4", "4x4-3"]
SIZES: dict[str, dict[str, Any]] = {"desktop": DESKTOP, "390px": NARROW}
BOARD_NAMES = {2: ["left", "right"], 3: ["left", "middle", "right"]}
#: The variants the tests of the engine's level play in: one of each kind of board at least.
LEVELLED = ["misere", "wild", "notakto", "notakto-2", "notakto-3", "4x4", "4x4-3"]


@pytest.fixture(params=list(SIZES))
def sized(request: pytest.FixtureRequest, browser: Browser, live_server: Server) -> Iterator[Page]:
    """The page at a desktop's size, then at 390 px wide."""
    page = Page(browser, live_server, **SIZES[request.param])
    yield page
    page.close()


def listed(server: Server) -> dict[str, dict[str, Any]]:
    """``GET /v1/variants``, by id."""
    answer = httpx.get(f"{server.url}/v1/variants").json()
    return {variant["id"]: variant for variant in answer["variants"]}


def cell_name(variant: dict[str, Any], index: int) -> str:
    """A cell as the page names it: its number from 1 on its board, and which board."""
    if variant["boards"] == 1:
        return f"cell {index + 1}"
    size = variant["rows"] * variant["columns"]
    return f"cell {index % size + 1} of the {BOARD_NAMES[variant['boards']][index // size]} board"


def move_name(variant: dict[str, Any], move: dict[str, Any]) -> str:
    """A move of a review, or its better move, as the page names it: its cell, and in wild its mark."""
    cell = cell_name(variant, move["position"])
    return f"{move['mark']} in {cell}" if "mark" in move else cell


def side_name(variant: dict[str, Any], side: str) -> str:
    """A side as the review names it: its mark, or in wild and Notakto, the side moving first or second."""
    return side if variant["marks"] == "own" else f"moving {side}"


def played_like(side: dict[str, Any]) -> str:
    """A side's level, with its rating only where the variant is calibrated (not null)."""
    return str(side["level"]) if side["rating"] is None else f"{side['level']} (≈ {side['rating']})"


def replayed(variant: dict[str, Any], moves: list[Any], first: str) -> str:
    """The board after a review's ``moves`` from the variant's empty board, ``first`` moving first:
    in wild each move places its own mark, in Notakto every move an X."""
    board = ["."] * (variant["rows"] * variant["columns"] * variant["boards"])
    mark = first
    for move in moves:
        if variant["marks"] == "either":
            board[move["position"]] = move["mark"]
        else:
            board[move] = "X" if variant["marks"] == "x_only" else mark
            mark = "O" if mark == "X" else "X"
    return "".join(board)


def game_requests(page: Page) -> list[Request]:
    """The page's requests to the service's game operations, recorded from now on."""
    requests: list[Request] = []
    page.page.on("request", lambda r: requests.append(r) if "/v1/" in r.url and r.method == "POST" else None)
    return requests


def test_the_picker_offers_every_variant_as_the_service_lists_them(page: Page, live_server: Server) -> None:
    page.goto("/play")
    options: list[dict[str, Any]] = page.page.locator("#variant option").evaluate_all(
        """options => options.map((o) => ({
            id: o.value, name: o.textContent.trim(), rows: Number(o.dataset.rows),
            columns: Number(o.dataset.columns), boards: Number(o.dataset.boards),
            marks: o.dataset.marks, misere: o.dataset.misere === "true",
        }))"""
    )
    variants = listed(live_server)
    assert [option["id"] for option in options] == list(variants) == VARIANTS
    fields = ("name", "rows", "columns", "boards", "marks", "misere")
    for option in options:
        assert option == {"id": option["id"], **{name: variants[option["id"]][name] for name in fields}}
        page.page.select_option("#variant", option["id"])
        assert page.page.locator("#variant-rules").inner_text() == variants[option["id"]]["rules"]
        cells = option["rows"] * option["columns"] * option["boards"]
        assert (
            page.page.locator("#board[role=grid] > [role=row] > [role=gridcell] > button.cell").count()
            == cells
        )
        assert page.page.locator("#board [role=row]").count() == option["rows"]
        indexes = sorted(
            int(i)
            for i in page.page.locator("#board .cell").evaluate_all("cs => cs.map(c => c.dataset.cell)")
        )
        assert indexes == list(range(cells))
        # One tab stop on the board, and the choice of a mark only where a move chooses one.
        assert page.page.locator("#board [tabindex='0']").count() == 1
        assert page.page.locator("#mark-choice").is_visible() == (option["marks"] == "either")
        assert page.page.locator("#order").is_visible() == (option["marks"] != "own")
        assert page.page.locator("#side").is_visible() == (option["marks"] == "own")
    assert page.status().startswith("Three in a row on 4 × 4: ")
    page.assert_only_own_host()


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_game_of_each_variant_is_drawn_played_and_said(
    sized: Page, live_server: Server, variant: str
) -> None:
    """A game played out to its end, at a desktop's width and at 390 px: every board drawn whole and
    in the page's width, Notakto's side by side; every request of the variant, none with an option
    the variant refuses; every engine move said as the service gave it; the result said."""
    info = listed(live_server)[variant]
    sized.goto("/play")
    sized.page.evaluate(RECORD_ANNOUNCEMENTS)
    requests = game_requests(sized)
    moves: list[dict[str, Any]] = []
    sized.page.on(
        "response", lambda r: moves.append(r.json()) if r.url.endswith("/v1/best-move") and r.ok else None
    )
    sized.new_variant_game(variant)
    width = sized.page.evaluate("window.innerWidth")
    assert sized.page.evaluate("document.scrollingElement.scrollWidth") <= width
    boxes: list[dict[str, Any]] = sized.page.locator("#board .cell").evaluate_all(
        """cells => cells.map((c) => {
            const box = c.getBoundingClientRect();
            return { cell: Number(c.dataset.cell), grid: Number(c.dataset.grid),
                     x: box.x, y: box.y, right: box.right, width: box.width, height: box.height };
        })"""
    )
    size = info["rows"] * info["columns"]
    for box in boxes:
        assert box["x"] >= 0 and box["right"] <= width, box
        assert box["width"] >= 24 and box["height"] >= 24, box  # a cell stays a target for a finger
        assert box["grid"] == box["cell"] // size
    by_cell = {box["cell"]: box for box in boxes}
    for board in range(1, info["boards"]):
        for row in range(info["rows"]):
            left = by_cell[(board - 1) * size + row * info["columns"] + info["columns"] - 1]
            right = by_cell[board * size + row * info["columns"]]
            # Side by side: the same row at the same height, the next board to the right.
            assert right["y"] == left["y"] and right["x"] > left["right"]

    sized.play_out(worst if variant.startswith("notakto") else best)
    assert sized.page.locator("#error").inner_text() == ""
    assert requests, "the page asked nothing"
    for request in requests:
        body = sent(request)
        assert body.get("variant", "standard") == variant, body
        if request.url.endswith("/v1/best-move"):
            assert body["level"] == "perfect", body  # the level chosen, in every variant
        if not info["rated"]:
            assert "rating" not in body, body
    # Every variant's game is reviewed, one entry per move (each move places a mark).
    review = sized.wait_for_review()
    assert len(review["plies"]) == len(sized.board()) - sized.board().count(".")
    assert sized.page.locator("#review-moves > li").count() == len(review["plies"])
    announced = [tuple(item) for item in sized.page.evaluate("window.announced")]
    engine = [text for region, text in announced if region == "engine-move"]
    marks = [f"{m['mark']} in " if "mark" in m else "" for m in moves]
    said = [
        f"The engine played {mark}{cell_name(info, m['position'])}: {m['reason']}"
        for mark, m in zip(marks, moves, strict=True)
    ]
    assert engine == said and engine
    assert sized.page.evaluate("window.unheard") == []
    status = sized.status()
    assert ("status", status) in announced
    if info["marks"] == "own":
        assert status.startswith(("Draw.", "You win with X!", "The engine wins with O."))
    else:
        assert status.startswith(("Draw.", "You win, moving first!", "The engine wins, moving second."))
    if info["marks"] == "x_only":
        # Notakto never ends in a draw, and every board is dead at its end.
        assert not status.startswith("Draw.")
        assert sized.page.locator("#boards-state").inner_text().count("dead") == info["boards"]
        assert sized.page.locator("#board .cell.dead").count() == size * info["boards"]


def test_wild_marks_chosen_by_pointer_and_by_keyboard(page: Page) -> None:
    page.goto("/play")
    requests = game_requests(page)
    page.new_variant_game("wild")
    assert page.status() == "Your turn: you move first; place X or O (now X)."
    # By keyboard: the O key on the board chooses O, Enter plays it in the focused cell.
    page.page.focus("#board .cell[data-cell='0']")
    page.page.keyboard.press("o")
    assert page.page.locator("#mark-o").is_checked()
    assert page.status() == "Your turn: you move first; place X or O (now O)."
    page.page.keyboard.press("Enter")
    page.wait_for_turn_or_end()
    assert page.board()[0] == "O"
    # The radio group itself: Tab-reachable, the arrow keys move the choice.
    page.page.focus("#mark-o")
    page.page.keyboard.press("ArrowLeft")
    assert page.page.locator("#mark-x").is_checked()
    # By pointer: a click on the O radio button, then on a cell.
    page.page.click("#mark-o")
    cell = page.board().index(".")
    page.page.click(f"#board .cell[data-cell='{cell}']")
    page.wait_for_turn_or_end()
    assert page.board()[cell] == "O"
    analyses = [sent(r) for r in requests if r.url.endswith("/v1/analysis")]
    assert analyses[0]["variant"] == "wild" and analyses[0]["board"][0] == "O"
    assert all(sent(r)["player"] in ("first", "second") for r in requests if r.url.endswith("/v1/best-move"))


def test_the_arrow_keys_cross_notaktos_boards(page: Page) -> None:
    page.goto("/play")
    page.new_variant_game("notakto-3")
    page.page.focus("#board .cell[data-cell='0']")
    focused = "() => document.activeElement.dataset.cell"
    for expected in ["1", "2", "9", "10"]:
        page.page.keyboard.press("ArrowRight")
        assert page.page.evaluate(focused) == expected
    page.page.keyboard.press("End")
    assert page.page.evaluate(focused) == "20"  # the right end of the row: the right board's cell 3
    page.page.keyboard.press("Control+End")
    assert page.page.evaluate(focused) == "26"
    assert page.page.locator("#board .cell[data-cell='26']").get_attribute("aria-label") == (
        "cell 9 of the right board, empty"
    )


def test_a_variants_game_is_reviewed_beside_its_puzzles(page: Page) -> None:
    """The engine's level is there in every variant, and the game of a variant is reviewed, the
    requests of the game naming it; its puzzles are asked for only when the person asks."""
    page.goto("/play")
    page.get_puzzle()
    puzzles = len([url for url in page.requests if "/v1/puzzles" in url])
    page.page.select_option("#variant", "misere")
    assert not page.page.locator("#strength").evaluate("fieldset => fieldset.disabled")
    assert page.page.locator("#level").is_enabled()
    assert page.page.locator("#puzzle-board").is_hidden()
    assert page.page.locator("#review-waiting").inner_text() == (
        "When this game ends, every move of it is judged here."
    )
    requests = game_requests(page)
    page.new_variant_game("misere")
    page.play_out(best)
    assert page.status().startswith("Draw.")
    review = page.wait_for_review()
    assert len(review["plies"]) == 9
    assert len([url for url in page.requests if "/v1/puzzles" in url]) == puzzles
    assert [sent(r)["variant"] for r in requests if r.url.endswith("/v1/review")] == ["misere"]


# --- puzzles in every variant ------------------------------------------------------------------------

#: The tags of where a move is: no puzzle's themes.
PLACES = {"center", "corner", "edge", "opposite_corner", "opposite"}
#: The variants whose puzzles are solved through the page in full: one of each kind of move.
SOLVED = ["misere", "wild", "notakto-2"]


def themes_of(info: dict[str, Any]) -> list[str]:
    """A variant's puzzle themes: its tactics but those of places."""
    return [tag for tag in info["tactics"] if tag not in PLACES]


def puzzle_asked(page: Page) -> dict[str, list[str]]:
    """The query of the page's last ``GET /v1/puzzles/random``."""
    asked = [r for r in page.responses if "/v1/puzzles/random" in r.url]
    assert asked, "no puzzle was asked for"
    return parse_qs(urlsplit(asked[-1].url).query)


def puzzle_requests(page: Page) -> int:
    return len([url for url in page.requests if "/v1/puzzles" in url])


def choose_puzzle_variant(page: Page, variant: str) -> None:
    """``variant`` in the picker, and its puzzles' controls ready (GET /v1/variants answered)."""
    page.page.select_option("#variant", variant)
    page.page.wait_for_function("() => !document.getElementById('next-puzzle').disabled")


def puzzle_cell(page: Page, index: int) -> Locator:
    return page.page.locator(f"#puzzle-board .cell[data-cell='{index}']")


def dead_boards(board: str, boards: int) -> set[int]:
    """Notakto's boards of ``board`` that hold a line."""
    lines = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
    return {b for b in range(boards) for line in lines if all(board[9 * b + c] == "X" for c in line)}


def wrong_answer(info: dict[str, Any], puzzle: dict[str, Any]) -> tuple[int, str | None]:
    """An answer that is not the solution: in wild the solution's cell with the other mark, elsewhere
    another empty cell of a live board."""
    if info["marks"] == "either":
        return puzzle["solution"], "O" if puzzle["mark"] == "X" else "X"
    dead = dead_boards(puzzle["board"], info["boards"]) if info["marks"] == "x_only" else set()
    cell = next(
        i
        for i, m in enumerate(puzzle["board"])
        if m == "." and i != puzzle["solution"] and i // 9 not in dead
    )
    return cell, None


def answer_puzzle(page: Page, cell: int, mark: str | None) -> None:
    """Answers the puzzle on the page: in wild its mark first (by its radio button), then the cell."""
    if mark is not None:
        page.page.check(f"#puzzle-mark-{mark.lower()}")
    puzzle_cell(page, cell).click()


def test_puzzles_follow_the_variant_chosen(page: Page, live_server: Server) -> None:
    """Every variant with a book (``puzzles`` above 0 in ``GET /v1/variants``) poses its puzzles: the
    theme selector lists its themes, the rating filters run 0 to its ``rating_max``, the request names
    it, and its board is drawn as its game's is (Notakto's side by side, 4 × 4). A puzzle of the
    variant before goes; a theme the new variant has too is kept."""
    variants = listed(live_server)
    page.goto("/play")
    page.get_puzzle()
    order = ["misere", "wild", "notakto", "notakto-2", "notakto-3", "4x4", "4x4-3", "standard"]
    for variant in order:
        info = variants[variant]
        assert info["puzzles"] > 0, variant
        choose_puzzle_variant(page, variant)
        assert page.page.locator("#puzzle-board").is_hidden()  # the puzzle of the variant before
        assert page.page.locator("#puzzle-note").is_hidden()
        options = page.page.locator("#puzzle-theme option").evaluate_all("os => os.map(o => o.value)")
        assert options == ["", *themes_of(info)], variant
        top = str(info["rating_max"])
        for field in ("#puzzle-min", "#puzzle-max"):
            assert page.page.get_attribute(field, "max") == top
        assert page.page.input_value("#puzzle-max") == top
        scale = page.page.locator("#puzzle-scale").inner_text()
        assert scale.startswith(f"In {info['name']}, from 0 to {top}: 0 (even a random player), ")
        assert scale.endswith(f"and {top} (only perfect play).")
        puzzle = page.get_puzzle()
        assert puzzle_asked(page) == {
            "variant": [variant],
            "min_rating": ["0"],
            "max_rating": [top],
            "lang": ["en"],
        }
        assert puzzle["variant"] == variant and 0 <= puzzle["rating"] <= info["rating_max"]
        assert page.puzzle_board() == puzzle["board"]
        shown = page.page.locator("#puzzle-board")
        assert shown.get_attribute("data-boards") == str(info["boards"])
        assert shown.get_attribute("data-across") == str(info["columns"] * info["boards"])
        assert shown.get_attribute("data-rows") == str(info["rows"])
        assert page.page.locator("#puzzle-mark-choice").is_visible() == (info["marks"] == "either")
    # A theme chosen is kept where the next variant has it too, and the request names it.
    choose_puzzle_variant(page, "misere")
    page.get_puzzle("squeeze")
    choose_puzzle_variant(page, "wild")
    assert page.page.input_value("#puzzle-theme") == "squeeze"
    puzzle = page.get_puzzle("squeeze")
    assert puzzle_asked(page)["theme"] == ["squeeze"] and "squeeze" in puzzle["themes"]
    choose_puzzle_variant(page, "4x4")
    assert page.page.input_value("#puzzle-theme") == ""
    page.assert_only_own_host()


def test_a_puzzle_solved_in_misere(page: Page, live_server: Server) -> None:
    info = listed(live_server)["misere"]
    page.goto("/play")
    choose_puzzle_variant(page, "misere")
    puzzle = page.get_puzzle("avoid")
    assert puzzle_asked(page)["theme"] == ["avoid"] and "avoid" in puzzle["themes"]
    status = page.page.locator("#puzzle-status")
    goal = "wins" if puzzle["outcome"] == "win" else "holds the draw"
    assert status.inner_text() == (
        f"Puzzle (rating {puzzle['rating']}): {puzzle['player']} to play. Find the only move that {goal}."
    )
    answer_puzzle(page, puzzle["solution"], None)
    solution = cell_name(info, puzzle["solution"])
    assert status.inner_text().startswith(f"Right: {solution}. {puzzle['reason']} Themes: ")
    assert status.get_attribute("data-result") == "right"
    assert puzzle_cell(page, puzzle["solution"]).get_attribute("aria-label") == (
        f"{solution}, {puzzle['player']}, your answer, right"
    )
    assert page.page.locator("#puzzle-board .cell[aria-disabled='false']").count() == 0


def test_a_puzzle_solved_in_wild_with_its_cell_and_its_mark(page: Page, live_server: Server) -> None:
    """Wild's answer is a cell and a mark: the solution's cell with the other mark is wrong, and the
    solution is said with its mark; the mark chosen by key X or O on the puzzle board, then the cell by
    its key, is right."""
    info = listed(live_server)["wild"]
    page.goto("/play")
    choose_puzzle_variant(page, "wild")
    assert page.page.locator("#puzzle-mark-choice").is_visible()
    puzzle = page.get_puzzle()
    mark, cell = puzzle["mark"], puzzle["solution"]
    assert mark in ("X", "O") and puzzle["player"] in ("first", "second")
    status = page.page.locator("#puzzle-status")
    assert status.inner_text().startswith(f"Puzzle (rating {puzzle['rating']}): you move {puzzle['player']}.")
    assert status.inner_text().endswith(" Choose the mark, X or O, then the cell.")
    other = "O" if mark == "X" else "X"
    answer_puzzle(page, cell, other)
    name = cell_name(info, cell)
    assert status.inner_text().startswith(
        f"Wrong: {other} in {name} is not it. The solution is {mark} in {name}: {puzzle['reason']}"
    )
    assert status.get_attribute("data-result") == "wrong"
    answered = puzzle_cell(page, cell)
    assert (
        answered.get_attribute("aria-label")
        == f"{name}, {other}, your answer, wrong: the solution is {mark} here"
    )
    assert answered.inner_text().startswith(other)
    # The next puzzle, answered by keys: its mark, then its cell (one 3 × 3 board: keys 1–9).
    with page.page.expect_response(lambda r: "/v1/puzzles/random" in r.url) as again:
        page.page.keyboard.press("n")
    puzzle = again.value.json()
    page.wait_for_puzzle()
    assert page.page.evaluate("document.activeElement.closest('#puzzle-board') !== null")
    page.page.keyboard.press(puzzle["mark"].lower())
    assert page.page.is_checked(f"#puzzle-mark-{puzzle['mark'].lower()}")
    assert page.board() == "........."  # the game's board is untouched, and its mark too
    page.page.keyboard.press(str(puzzle["solution"] + 1))
    name = cell_name(info, puzzle["solution"])
    assert status.inner_text().startswith(f"Right: {puzzle['mark']} in {name}. {puzzle['reason']}")
    assert puzzle_cell(page, puzzle["solution"]).get_attribute("aria-label") == (
        f"{name}, {puzzle['mark']}, your answer, right"
    )


def test_a_puzzle_solved_in_notakto_on_two_boards(page: Page, live_server: Server) -> None:
    """Notakto's boards side by side: a dead board's cells take no answer and say so; the solution
    is named by its cell and its board, an X."""
    info = listed(live_server)["notakto-2"]
    page.goto("/play")
    choose_puzzle_variant(page, "notakto-2")
    assert page.page.locator("#puzzle-mark-choice").is_hidden()
    puzzle = page.get_puzzle()
    assert len(puzzle["board"]) == 18 and puzzle["grid"] == puzzle["solution"] // 9
    assert page.puzzle_board() == puzzle["board"]
    status = page.page.locator("#puzzle-status")
    assert status.inner_text().endswith(" Place an X on a live board.")
    assert status.inner_text().startswith(f"Puzzle (rating {puzzle['rating']}): you move {puzzle['player']}.")
    for board in dead_boards(puzzle["board"], 2):
        for index in range(9 * board, 9 * board + 9):
            found = puzzle_cell(page, index)
            assert found.get_attribute("aria-disabled") == "true" and "dead" in (
                found.get_attribute("class") or ""
            )
            if puzzle["board"][index] == ".":
                assert found.get_attribute("aria-label") == f"{cell_name(info, index)}, empty, dead board"
                found.click(force=True)  # no answer on a dead board
                assert status.get_attribute("data-result") == ""
    answer_puzzle(page, puzzle["solution"], None)
    name = cell_name(info, puzzle["solution"])
    assert status.inner_text().startswith(f"Right: {name}. {puzzle['reason']}")
    assert (
        puzzle_cell(page, puzzle["solution"]).get_attribute("aria-label") == f"{name}, X, your answer, right"
    )
    # Another, answered wrong: the solution is named on its board.
    puzzle = page.get_puzzle()
    wrong, _ = wrong_answer(info, puzzle)
    answer_puzzle(page, wrong, None)
    assert status.inner_text().startswith(
        f"Wrong: {cell_name(info, wrong)} is not it. The solution is {cell_name(info, puzzle['solution'])}: "
    )
    assert puzzle_cell(page, puzzle["solution"]).get_attribute("aria-label") == (
        f"{cell_name(info, puzzle['solution'])}, empty, the solution"
    )


def without_puzzles(server: Server, ids: set[str]) -> Callable[[Route], None]:
    """A route handler for ``GET /v1/variants`` that lists ``ids`` with no puzzles."""

    def answer(route: Route) -> None:
        variants = httpx.get(f"{server.url}/v1/variants").json()
        for variant in variants["variants"]:
            if variant["id"] in ids:
                variant["puzzles"] = 0
        route.fulfill(json=variants)

    return answer


def test_puzzles_are_off_where_a_variant_has_none(page: Page, live_server: Server) -> None:
    """A variant that ``GET /v1/variants`` lists with no puzzles: they are off there, the note says
    so, and nothing is asked; the others still have theirs."""
    page.page.route(VARIANTS_URL, without_puzzles(live_server, {"misere"}))
    page.goto("/play")
    page.get_puzzle()
    asked = puzzle_requests(page)
    page.page.select_option("#variant", "misere")
    note = page.page.locator("#puzzle-note")
    assert note.inner_text() == "There are no puzzles of Misère tic-tac-toe yet."
    assert note.is_visible() and page.page.locator("#puzzle-board").is_hidden()
    for control in ("#puzzle-theme", "#puzzle-min", "#puzzle-max", "#next-puzzle"):
        assert page.page.locator(control).is_disabled(), control
    page.page.click("#next-puzzle", force=True)  # disabled: nothing is asked
    assert puzzle_requests(page) == asked
    choose_puzzle_variant(page, "wild")
    assert note.is_hidden()
    page.get_puzzle()
    assert puzzle_asked(page)["variant"] == ["wild"]


def test_puzzles_are_off_when_the_variants_cannot_be_loaded(page: Page) -> None:
    page.page.route(VARIANTS_URL, lambda route: route.abort())
    page.goto("/play")
    page.page.wait_for_function(
        "() => document.getElementById('puzzle-note').textContent.startsWith('Puzzles are off')"
    )
    assert page.page.locator("#puzzle-note").inner_text() == (
        "Puzzles are off: the service's list of variants could not be loaded."
    )
    assert page.page.locator("#next-puzzle").is_disabled()


@pytest.mark.parametrize("variant", SOLVED)
def test_axe_finds_nothing_in_a_variants_puzzles(sized: Page, live_server: Server, variant: str) -> None:
    """axe-core on the puzzles of wild (its mark chooser), misère and Notakto on two boards, at a
    desktop's width and 390 px: the variant chosen, a puzzle asked, answered wrong (the solution
    shown), and the next answered right."""
    info = listed(live_server)[variant]
    sized.goto("/play")
    choose_puzzle_variant(sized, variant)
    _, violations = sized.axe()
    assert violations == [], f"chosen:\n{readable(violations)}"
    puzzle = sized.get_puzzle()
    _, violations = sized.axe()
    assert violations == [], f"asked:\n{readable(violations)}"
    answer_puzzle(sized, *wrong_answer(info, puzzle))
    assert sized.page.locator("#puzzle-status").get_attribute("data-result") == "wrong"
    _, violations = sized.axe()
    assert violations == [], f"answered wrong:\n{readable(violations)}"
    puzzle = sized.get_puzzle()
    answer_puzzle(sized, puzzle["solution"], puzzle.get("mark"))
    assert sized.page.locator("#puzzle-status").get_attribute("data-result") == "right"
    _, violations = sized.axe()
    assert violations == [], f"answered right:\n{readable(violations)}"


# --- the review of a game in every variant ---------------------------------------------------------

#: The variants whose review is checked in full, and the person's side in each: one of each kind
#: of move (a cell and a mark in wild, a cell of several boards in Notakto, a cell of 4 × 4), and
#: misère, where each side's rating is on the variant's own scale while it is rated.
REVIEWED = {"wild": "second", "notakto-2": "first", "4x4": "X", "misere": "O"}


def exact_engine(route: Route) -> None:
    """A route handler for ``/v1/best-move`` that asks the engine's move without the level: the
    service's deterministic optimal move, where the level varies among the optimal ones. With it
    a game played out by the same choices is the same game every time, one with moves to fault."""
    body = sent(route.request)
    body.pop("level", None)
    route.continue_(post_data=json.dumps(body))


@pytest.mark.parametrize("variant", list(REVIEWED))
def test_a_finished_game_of_a_variant_is_reviewed_move_by_move(
    sized: Page, live_server: Server, variant: str
) -> None:
    """The review of a variant's game: asked with the variant and the moves in its form (wild's as
    objects with their marks), shown as the service reviews the same body, each move named as the
    page names cells in that variant, the sides named as the variant names them, a rating only
    where there is one; said in the live region, and nothing that axe-core finds, with every better
    move shown, at a desktop's width and at 390 px."""
    info = listed(live_server)[variant]
    person = REVIEWED[variant]
    sides = info["marks"] != "own"
    engine = ("second" if person == "first" else "first") if sides else ("O" if person == "X" else "X")
    sized.page.route("**/v1/best-move", exact_engine)
    sized.goto("/play")
    sized.page.evaluate(RECORD_ANNOUNCEMENTS)
    if not sides:
        sized.page.select_option("#side", person)
        sized.page.select_option("#first", "X")
    with sized.page.expect_request("**/v1/review") as asked:
        sized.new_variant_game(variant, order=person)
        sized.play_out(worst)
    review = sized.wait_for_review()
    assert sized.page.locator("#error").inner_text() == ""

    # The request: the variant, who moved first, and the game's moves in the variant's form.
    body = sent(asked.value)
    assert set(body) == {"variant", "moves", "player", "lang"}, body
    assert body["lang"] == "en"
    assert body["variant"] == variant
    assert body["player"] == ("first" if sides else "X")
    if info["marks"] == "either":
        assert all(set(move) == {"position", "mark"} and move["mark"] in ("X", "O") for move in body["moves"])
    else:
        assert all(isinstance(move, int) for move in body["moves"]), body["moves"]
    assert replayed(info, body["moves"], body["player"]) == sized.board()

    # The page shows the service's review of that very body.
    expected = httpx.post(f"{live_server.url}/v1/review", json=body).json()
    assert review == expected
    plies = expected["plies"]
    assert set(expected["players"]) == ({"first", "second"} if sides else {"X", "O"})
    items = sized.page.locator("#review-moves > li")
    assert items.count() == len(plies) == len(body["moves"])
    for item, ply in zip(items.all(), plies, strict=True):
        who = "you" if ply["player"] == person else "the engine"
        assert item.get_attribute("data-judgement") == ply["judgement"]
        line = item.locator(".ply-line").inner_text()
        said = f"Move {ply['ply']}, {who} ({side_name(info, ply['player'])}): {move_name(info, ply)} — "
        assert line.startswith(said + JUDGEMENT_WORDS[ply["judgement"]]), line
        assert line.endswith("only move") == ply["only_move"], line
        assert item.locator(".ply-reason").inner_text() == ply["reason"]
        assert item.locator("button.show-better").count() == (ply["better"] is not None)
    faulty = [ply for ply in plies if ply["better"] is not None]
    assert faulty, "the worst moves against perfect play were all judged best"

    # Each side: the person is "you", named as the variant names the sides; no rating where none.
    players = sized.page.locator("#review-players > li")
    assert players.count() == 2
    you, it = players.nth(0).inner_text(), players.nth(1).inner_text()
    mine, theirs = expected["players"][person], expected["players"][engine]
    assert you.startswith(f"You ({side_name(info, person)}) played like: {played_like(mine)} — "), you
    assert it.startswith(f"The engine ({side_name(info, engine)}) played like: {played_like(theirs)} — "), it
    summary = (
        f"Review: you played like: {played_like(mine)}; the engine played like: {played_like(theirs)}."
        " Every move is judged below."
    )
    assert sized.page.locator("#review-status").inner_text() == summary
    assert "null" not in sized.page.locator("#review").inner_text()
    # Each side's rating, on the variant's scale, exactly where the variant is rated.
    assert (mine["rating"] is not None, theirs["rating"] is not None) == (info["rated"], info["rated"])
    assert ("≈" in summary) == info["rated"]
    announced = [tuple(item) for item in sized.page.evaluate("window.announced")]
    assert announced[-1] == ("review-status", summary)
    assert ("status", sized.status()) in announced
    assert sized.page.evaluate("window.unheard") == []
    _, violations = sized.axe()
    assert violations == [], readable(violations)

    # Every better move shown: a small board of the variant's shape, said in words.
    width = sized.page.evaluate("window.innerWidth")
    cells = info["rows"] * info["columns"] * info["boards"]
    size = info["rows"] * info["columns"]
    for ply in faulty:
        item = sized.page.locator(f"#review-moves > li[data-ply='{ply['ply']}']")
        item.locator("button.show-better").click()
        shown = item.locator(".better-move")
        assert shown.is_visible()
        board = shown.locator(".mini-board[role=img]")
        label = board.get_attribute("aria-label") or ""
        assert f"Played: {move_name(info, ply)}, dashed." in label, label
        assert f"Better: {move_name(info, ply['better'])}, marked with a star." in label, label
        assert shown.locator(".better-text").inner_text() == (
            f"Better: {move_name(info, ply['better'])}. {ply['better']['reason']}"
        )
        drawn: list[dict[str, Any]] = board.locator(".mini-cell").evaluate_all(
            """cells => cells.map((c) => {
                const box = c.getBoundingClientRect();
                return { cell: Number(c.dataset.cell), text: c.textContent, played: c.matches(".played"),
                         better: c.matches(".better"), x: box.x, y: box.y, right: box.right };
            })"""
        )
        assert sorted(c["cell"] for c in drawn) == list(range(cells))
        by_cell = {c["cell"]: c for c in drawn}
        for index, c in by_cell.items():
            assert (c["played"], c["better"]) == (
                index == ply["position"],
                index == ply["better"]["position"],
            )
            if index == ply["better"]["position"]:
                assert c["text"] == "★"
            elif index == ply["position"]:
                assert c["text"] == ply["board_after"][index]  # the mark the move placed
            else:
                assert c["text"] == ply["board_before"][index].replace(".", "")
        # The boards side by side, and the rows of the variant's board.
        for grid in range(1, info["boards"]):
            left, right = by_cell[(grid - 1) * size + info["columns"] - 1], by_cell[grid * size]
            assert right["y"] == left["y"] and right["x"] > left["right"]
        assert (
            by_cell[size - 1]["y"] > by_cell[info["columns"] - 1]["y"]
        )  # the board's rows, one under another
        assert max(c["right"] for c in drawn) <= width
    assert sized.page.evaluate("document.scrollingElement.scrollWidth") <= width
    _, violations = sized.axe()
    assert violations == [], readable(violations)
    sized.assert_only_own_host()


# --- the engine's strength in every variant -------------------------------------------------------


def engine_opens(page: Page, variant: str) -> None:
    """Chooses ``variant`` with the engine moving first: second in wild and Notakto, O moving
    first with the person playing X in the others."""
    page.page.select_option("#variant", variant)
    if page.page.locator("#order").is_visible():
        page.page.select_option("#order", "second")
    else:
        page.page.select_option("#side", "X")
        page.page.select_option("#first", "O")


def engine_side(variant: str) -> str:
    """The engine's side when it opens: the first player in wild and Notakto, O elsewhere."""
    return "first" if variant == "wild" or variant.startswith("notakto") else "O"


def free_cell(page: Page) -> int:
    """A cell the person may play now: empty and, in Notakto, on a live board."""
    cell: int = page.page.locator("#board .cell[aria-disabled=false]").first.evaluate(
        "c => Number(c.dataset.cell)"
    )
    return cell


@pytest.mark.parametrize("variant", LEVELLED)
def test_the_engine_plays_the_level_chosen_in_every_variant(
    page: Page, live_server: Server, variant: str
) -> None:
    """The engine's moves are asked at the level chosen, with the variant, as in the standard game
    (no seed, no other option); a level changed on the person's turn applies from its next move."""
    info = listed(live_server)[variant]
    cells = info["rows"] * info["columns"] * info["boards"]
    page.goto("/play")
    engine_opens(page, variant)
    page.page.select_option("#level", "beginner")
    with page.page.expect_request("**/v1/best-move") as opening:
        page.page.click("#new-game")
    assert sent(opening.value) == {
        "variant": variant,
        "board": "." * cells,
        "player": engine_side(variant),
        "level": "beginner",
        "lang": "en",
    }
    page.wait_for_turn_or_end()
    assert page.status().startswith("Your turn")
    page.page.select_option("#level", "easy")
    note = page.page.locator("#level-note")
    assert note.inner_text() == "Level changed to Easy: it applies from the engine's next move."
    with page.page.expect_request("**/v1/best-move") as asked:
        page.page.click(f"#board .cell[data-cell='{free_cell(page)}']")
    body = sent(asked.value)
    assert (body["variant"], body["player"], body["level"]) == (variant, engine_side(variant), "easy")
    assert not {"rating", "seed", "depth", "skill"} & set(body), body
    page.wait_for_turn_or_end()
    assert page.page.locator("#error").inner_text() == ""


def test_a_level_changed_while_the_engine_thinks_in_a_variant_asks_again(page: Page) -> None:
    held = Held()
    page.page.route("**/v1/best-move", held)
    page.goto("/play")
    page.page.select_option("#variant", "4x4")
    page.page.select_option("#level", "perfect")
    page.page.click("#new-game")
    page.wait_for_turn_or_end()
    with page.page.expect_request("**/v1/best-move") as first:
        page.page.click("#board .cell[data-cell='0']")
    assert sent(first.value)["level"] == "perfect"
    with (
        page.page.expect_event("requestfailed") as failed,
        page.page.expect_request("**/v1/best-move") as again,
    ):
        page.page.select_option("#level", "beginner")
    assert failed.value == first.value  # the request at the old level, aborted
    board = "X" + "." * 15
    assert sent(again.value) == {
        "variant": "4x4",
        "board": board,
        "player": "O",
        "level": "beginner",
        "lang": "en",
    }
    page.wait_for_turn_or_end()
    held.release()
    said = "Level changed to Beginner: the engine is choosing its move again at this level."
    assert page.page.locator("#level-note").inner_text() == said


def rating_name(variants: dict[str, dict[str, Any]], variant: str) -> str:
    """A variant as the page's sentences about ratings name it: its name, as the picker gives it."""
    return str(variants[variant]["name"])


def rating_reason(variants: dict[str, dict[str, Any]], variant: str) -> str:
    """Why a rating cannot be chosen in the unrated ``variant``, as the page says it, from the
    variants' rated flags."""
    rated = [rating_name(variants, v) for v in variants if variants[v]["rated"]]
    where = rated[0] if len(rated) == 1 else f"{', '.join(rated[:-1])} and {rated[-1]}"
    return f"Ratings are off in {rating_name(variants, variant)}: ratings are calibrated for {where} only."


def scale(info: dict[str, Any]) -> list[tuple[str, int]]:
    """A rated variant's scale as the slider's marks are to give it: random at 0, then its levels'
    ratings, weakest first, from ``GET /v1/variants``."""
    return [("random", 0), *((name, level["rating"]) for name, level in info["levels"].items())]


def slider_scale(page: Page) -> tuple[str | None, str | None, list[tuple[str, int]]]:
    """The slider's range and marks as the page has them now: its min, its max, and its marks."""
    slider = page.page.locator("#rating")
    marks = page.page.locator("#rating-marks option").evaluate_all(
        "options => options.map((o) => [o.label, Number(o.value)])"
    )
    return slider.get_attribute("min"), slider.get_attribute("max"), [(name, value) for name, value in marks]


def rating_words(marks: list[tuple[str, int]], value: int) -> str:
    """A rating in words beside the slider: the calibrated player it is, or the two around it."""
    exact = [name for name, rating in marks if rating == value]
    if exact:
        return f"{value}: {exact[0]}"
    lower = [(name, rating) for name, rating in marks if rating < value][-1]
    upper = next((name, rating) for name, rating in marks if rating > value)
    return f"{value}: between {lower[0]} ({lower[1]}) and {upper[0]} ({upper[1]})"


def rated_other(variants: dict[str, dict[str, Any]]) -> str:
    """A rated variant other than the standard game: misère where it is rated, else the first one
    listed rated (the standard game only where no other variant is rated)."""
    others = [v for v in variants if variants[v]["rated"] and v != "standard"]
    return "misere" if "misere" in others else next(iter(others), "standard")


def wait_for_ratings(page: Page) -> None:
    """Waits until the page has read the variants' rated flags (the standard game's is rated)."""
    page.page.wait_for_function("() => !document.getElementById('by-rating').disabled")


def test_the_rating_is_offered_in_each_rated_variant_on_its_scale_and_only_there(
    page: Page, live_server: Server
) -> None:
    """Every variant in turn, as ``GET /v1/variants`` lists it: where it is rated, "By rating" is on
    offer and the slider runs from 0 to its ``rating_max``, its marks its levels' ratings; where it
    is not, "By rating" is off and the page says why (if no variant is unrated, only the first)."""
    variants = listed(live_server)
    page.goto("/play")
    by_rating = page.page.locator("#by-rating")
    note = page.page.locator("#rating-note")
    wait_for_ratings(page)
    assert note.is_hidden()
    was_rated = True
    for variant, info in variants.items():
        page.page.select_option("#variant", variant)
        if info["rated"]:
            assert by_rating.is_enabled() and note.is_hidden(), variant
            assert slider_scale(page) == ("0", str(info["rating_max"]), scale(info)), variant
            assert page.page.locator("#level-note").inner_text() == ""
        else:
            assert by_rating.is_disabled() and page.page.locator("#rating").is_disabled()
            assert page.page.locator("#level").is_enabled() and page.page.is_checked("#by-level")
            assert note.is_visible()
            assert note.inner_text() == rating_reason(variants, variant)
            # The radio button is described by the reason; a change from a rated variant says it.
            assert by_rating.get_attribute("aria-describedby") == "rating-note"
            said = rating_reason(variants, variant) if was_rated else ""
            assert page.page.locator("#level-note").inner_text() == said
        was_rated = info["rated"]
    page.page.select_option("#variant", "standard")
    assert by_rating.is_enabled() and note.is_hidden()
    assert slider_scale(page) == ("0", str(variants["standard"]["rating_max"]), scale(variants["standard"]))


def test_by_rating_in_a_rated_variant_plays_on_its_own_scale(sized: Page, live_server: Server) -> None:
    """By rating in a rated variant other than the standard game (misère while it is rated): the
    slider's range and marks are that variant's, its value said by that variant's levels, and the
    engine's move asked with ``rating`` and ``variant``; nothing that axe-core finds, at a desktop's
    width and at 390 px."""
    variants = listed(live_server)
    variant = rated_other(variants)
    info = variants[variant]
    marks = scale(info)
    top = int(info["rating_max"])
    sized.goto("/play")
    wait_for_ratings(sized)
    engine_opens(sized, variant)
    assert slider_scale(sized) == ("0", str(top), marks)
    sized.page.check("#by-rating")
    assert sized.page.locator("#level").is_disabled() and sized.page.locator("#rating").is_enabled()
    slider = sized.page.locator("#rating")
    value = sized.page.locator("#rating-value")
    slider.focus()
    sized.page.keyboard.press("End")
    assert value.inner_text() == f"{top}: perfect" == slider.get_attribute("aria-valuetext")
    # A rating between two of the variant's levels, said by their ratings on its scale.
    (low, low_rating), (high, high_rating) = marks[2], marks[3]
    rating = (low_rating + high_rating) // 2
    slider.fill(str(rating))
    said = rating_words(marks, rating)
    assert said == f"{rating}: between {low} ({low_rating}) and {high} ({high_rating})"
    assert value.inner_text() == said == slider.get_attribute("aria-valuetext")
    _, violations = sized.axe()
    assert violations == [], readable(violations)
    cells = info["rows"] * info["columns"] * info["boards"]
    with sized.page.expect_response(lambda r: r.url.endswith("/v1/best-move")) as caught:
        sized.page.click("#new-game")
    assert sent(caught.value.request) == {
        "variant": variant,
        "board": "." * cells,
        "player": engine_side(variant),
        "rating": rating,
        "lang": "en",
    }
    assert caught.value.status == 200
    sized.wait_for_turn_or_end()
    assert sized.page.locator("#error").inner_text() == ""
    # Changed on the person's turn: said by the variant's levels, sent with the next move.
    changed = (marks[1][1] + marks[2][1]) // 2
    slider.fill(str(changed))
    assert sized.page.locator("#level-note").inner_text() == (
        f"Rating changed to {changed} (between {marks[1][0]} and {marks[2][0]}): "
        "it applies from the engine's next move."
    )
    with sized.page.expect_request("**/v1/best-move") as asked:
        sized.page.click(f"#board .cell[data-cell='{free_cell(sized)}']")
    body = sent(asked.value)
    assert (body["variant"], body["rating"], "level" in body) == (variant, changed, False)
    sized.wait_for_turn_or_end()
    assert sized.page.locator("#error").inner_text() == ""
    width = sized.page.evaluate("window.innerWidth")
    assert sized.page.evaluate("document.scrollingElement.scrollWidth") <= width
    _, violations = sized.axe()
    assert violations == [], readable(violations)
    sized.assert_only_own_host()


def test_a_change_of_variant_moves_the_slider_to_its_scale_and_clamps_the_rating(
    sized: Page, live_server: Server
) -> None:
    """From the rated variant with the highest ``rating_max`` to the one with the lowest: the slider
    takes the new range and marks, a rating above the new top comes down to it, and the page says
    so in the level's note; the engine is asked at the rating kept. Through an unrated variant (if
    one is listed) the level plays, and back in the first variant the range is its own again, the
    rating as it was left. axe-core finds nothing, at a desktop's width and at 390 px."""
    variants = listed(live_server)
    rated = [v for v in variants if variants[v]["rated"]]
    highest = max(rated, key=lambda v: int(variants[v]["rating_max"]))
    lowest = min(rated, key=lambda v: int(variants[v]["rating_max"]))
    top, bottom = int(variants[highest]["rating_max"]), int(variants[lowest]["rating_max"])
    sized.goto("/play")
    wait_for_ratings(sized)
    sized.page.select_option("#variant", highest)
    sized.page.check("#by-rating")
    sized.page.fill("#rating", str(top))
    assert sized.page.locator("#rating-value").inner_text() == f"{top}: perfect"
    sized.page.evaluate(RECORD_ANNOUNCEMENTS)
    engine_opens(sized, lowest)
    assert slider_scale(sized) == ("0", str(bottom), scale(variants[lowest]))
    assert sized.page.locator("#rating").input_value() == str(bottom)
    assert sized.page.is_checked("#by-rating")
    assert sized.page.locator("#rating-value").inner_text() == f"{bottom}: perfect"
    note = sized.page.locator("#level-note")
    if top > bottom:
        said = (
            f"Ratings in {rating_name(variants, lowest)} go up to {bottom} (perfect play): "
            f"the rating is now {bottom} instead of {top}."
        )
        assert note.inner_text() == said
        assert ("level-note", said) in [tuple(item) for item in sized.page.evaluate("window.announced")]
    else:  # one rated variant only: nothing to clamp
        assert note.inner_text() == ""
    width = sized.page.evaluate("window.innerWidth")
    assert sized.page.evaluate("document.scrollingElement.scrollWidth") <= width
    _, violations = sized.axe()
    assert violations == [], readable(violations)
    cells = variants[lowest]["rows"] * variants[lowest]["columns"] * variants[lowest]["boards"]
    with sized.page.expect_request("**/v1/best-move") as opening:
        sized.page.click("#new-game")
    assert sent(opening.value) == {
        "variant": lowest,
        "board": "." * cells,
        "player": engine_side(lowest),
        "rating": bottom,
        "lang": "en",
    }
    sized.wait_for_turn_or_end()
    assert sized.page.locator("#error").inner_text() == ""
    unrated = [v for v in variants if not variants[v]["rated"]]
    if unrated:
        sized.page.select_option("#variant", unrated[0])
        assert sized.page.is_checked("#by-level") and sized.page.locator("#by-rating").is_disabled()
    sized.page.select_option("#variant", highest)
    assert slider_scale(sized) == ("0", str(top), scale(variants[highest]))
    assert sized.page.locator("#rating").input_value() == str(bottom)
    assert sized.page.locator("#by-rating").is_enabled()
    assert sized.page.is_checked("#by-rating") != bool(unrated)
    assert sized.page.locator("#rating-value").inner_text() == rating_words(scale(variants[highest]), bottom)
    _, violations = sized.axe()
    assert violations == [], readable(violations)


def mark_rated(variants: list[dict[str, Any]], ids: set[str]) -> None:
    """``GET /v1/variants``'s list with ``ids`` rated and the others not: a variant rated as the
    service may soon list one (on the standard game's scale, where the service has none for it), or
    one listed as not rated (no ratings)."""
    standard = next(v for v in variants if v["id"] == "standard")
    for variant in variants:
        variant["rated"] = variant["id"] in ids
        if not variant["rated"]:
            variant["rating_max"] = None
            variant["levels"] = {n: {**level, "rating": None} for n, level in variant["levels"].items()}
        elif variant["rating_max"] is None:
            variant["rating_max"] = standard["rating_max"]
            variant["levels"] = {
                n: {**level, "rating": standard["levels"][n]["rating"]}
                for n, level in variant["levels"].items()
            }


def marked_rated(server: Server, ids: set[str]) -> Callable[[Route], None]:
    """A route handler for ``GET /v1/variants`` that answers the service's list with ``ids`` rated
    and the others not (:func:`mark_rated`)."""

    def answer(route: Route) -> None:
        variants = httpx.get(f"{server.url}/v1/variants").json()
        mark_rated(variants["variants"], ids)
        route.fulfill(json=variants)

    return answer


def as_listed(server: Server, ids: set[str]) -> dict[str, dict[str, Any]]:
    """The variants as :func:`marked_rated` lists them to the page, by id."""
    variants: list[dict[str, Any]] = httpx.get(f"{server.url}/v1/variants").json()["variants"]
    mark_rated(variants, ids)
    return {variant["id"]: variant for variant in variants}


def an_unrated_variant(page: Page, server: Server) -> tuple[dict[str, dict[str, Any]], str]:
    """The variants as the page reads them, and one it reads as not rated: the last one the service
    does not rate, or where it rates every variant, the last one listed, given to the page as not
    rated (the page then never sends a rating there, so the service's own rating is never asked)."""
    variants = listed(server)
    unrated = [v for v in variants if not variants[v]["rated"]]
    if unrated:
        return variants, unrated[-1]
    variant = list(variants)[-1]
    flags = set(variants) - {variant}
    page.page.route(VARIANTS_URL, marked_rated(server, flags))
    return as_listed(server, flags), variant


def test_a_rating_chosen_falls_back_to_the_level_in_an_unrated_variant(
    sized: Page, live_server: Server
) -> None:
    variants, variant = an_unrated_variant(sized, live_server)
    sized.goto("/play")
    wait_for_ratings(sized)
    sized.page.select_option("#level", "beginner")
    sized.page.check("#by-rating")
    sized.page.fill("#rating", "250")
    sized.page.evaluate(RECORD_ANNOUNCEMENTS)
    engine_opens(sized, variant)
    assert sized.page.is_checked("#by-level") and not sized.page.is_checked("#by-rating")
    assert sized.page.locator("#level").is_enabled() and sized.page.locator("#rating").is_disabled()
    said = f"{rating_reason(variants, variant)} The engine plays by level instead: Beginner."
    assert sized.page.locator("#level-note").inner_text() == said
    assert ("level-note", said) in [tuple(item) for item in sized.page.evaluate("window.announced")]
    assert sized.page.locator("#rating-note").is_visible()
    width = sized.page.evaluate("window.innerWidth")
    assert sized.page.evaluate("document.scrollingElement.scrollWidth") <= width
    _, violations = sized.axe()
    assert violations == [], readable(violations)
    with sized.page.expect_request("**/v1/best-move") as opening:
        sized.page.click("#new-game")
    body = sent(opening.value)
    assert (body["variant"], body["level"], "rating" in body) == (variant, "beginner", False)
    sized.wait_for_turn_or_end()
    assert sized.page.locator("#error").inner_text() == ""
    _, violations = sized.axe()
    assert violations == [], readable(violations)


def refused_ratings(server: Server) -> Callable[[Route], None]:
    """A route handler for ``POST /v1/best-move`` that answers a request with a rating as the
    service answers one beyond every variant's scale: its own 422, naming ``body.rating``."""

    def answer(route: Route) -> None:
        body = sent(route.request)
        if "rating" not in body:
            route.fallback()
            return
        refused = httpx.post(f"{server.url}/v1/best-move", json={**body, "rating": 10**6})
        assert refused.status_code == 422, refused.text
        route.fulfill(status=422, content_type="application/json", body=refused.text)

    return answer


def test_the_page_reads_the_rated_flags_and_falls_back_when_a_rating_is_refused(
    page: Page, live_server: Server
) -> None:
    """A variant listed as rated offers the rating, on its own scale. Here the list is the service's
    with one more variant marked rated, which the service itself does not rate (where it rates every
    variant, one whose ratings are refused here with the service's own 422), and one marked not
    rated: the page sends the rating, the service refuses it, ratings are off in that variant, and
    the engine's move is asked again at the level."""
    variants = listed(live_server)
    unrated = [v for v in variants if not variants[v]["rated"]]
    if unrated:
        extra = unrated[0]
    else:
        extra = list(variants)[-1]
        page.page.route("**/v1/best-move", refused_ratings(live_server))
    other = unrated[1] if len(unrated) > 1 else next(v for v in variants if v not in ("standard", extra))
    flags = ({v for v in variants if variants[v]["rated"]} | {extra}) - {other}
    marked = as_listed(live_server, flags)
    page.page.route(VARIANTS_URL, marked_rated(live_server, flags))
    page.goto("/play")
    wait_for_ratings(page)
    page.page.select_option("#variant", other)
    assert page.page.locator("#rating-note").inner_text() == rating_reason(marked, other)
    assert page.page.locator("#by-rating").is_disabled()
    engine_opens(page, extra)
    assert page.page.locator("#by-rating").is_enabled()
    assert page.page.locator("#rating-note").is_hidden()
    assert slider_scale(page) == ("0", str(marked[extra]["rating_max"]), scale(marked[extra]))
    page.page.select_option("#level", "medium")
    page.page.check("#by-rating")
    page.page.fill("#rating", "250")
    cells = variants[extra]["rows"] * variants[extra]["columns"] * variants[extra]["boards"]
    with (
        page.page.expect_response("**/v1/best-move") as refused,
        page.page.expect_request(lambda r: r.url.endswith("/v1/best-move") and "level" in sent(r)) as again,
    ):
        page.page.click("#new-game")
    assert sent(refused.value.request)["rating"] == 250
    assert refused.value.status == 422
    assert sent(again.value) == {
        "variant": extra,
        "board": "." * cells,
        "player": engine_side(extra),
        "level": "medium",
        "lang": "en",
    }
    page.wait_for_turn_or_end()
    assert page.page.locator("#error").inner_text() == ""
    assert page.page.is_checked("#by-level") and page.page.locator("#by-rating").is_disabled()
    why = f"Ratings are off in {rating_name(variants, extra)}: the service did not accept one there."
    assert page.page.locator("#rating-note").inner_text() == why
    assert (
        page.page.locator("#level-note").inner_text() == f"{why} The engine plays by level instead: Medium."
    )


def test_ratings_are_off_when_the_variants_cannot_be_loaded(page: Page) -> None:
    page.page.route(VARIANTS_URL, lambda route: route.abort())
    page.goto("/play")
    note = page.page.locator("#rating-note")
    page.page.wait_for_function(
        "() => document.getElementById('rating-note').textContent.startsWith('Ratings are off')"
    )
    assert note.inner_text() == (
        "Ratings are off: the service's list of variants could not be loaded. Levels play in every variant."
    )
    assert page.page.locator("#by-rating").is_disabled() and page.page.locator("#level").is_enabled()


@pytest.mark.parametrize("variant", VARIANTS[1:])
def test_axe_finds_nothing_in_any_variant(sized: Page, variant: str) -> None:
    """axe-core on each variant's page: before a game, with a hint shown, and at the game's end, with
    its review and every better move shown."""
    sized.goto("/play")
    sized.page.select_option("#variant", variant)
    for stage in ("chosen", "hint", "ended"):
        if stage == "hint":
            sized.new_variant_game(variant)
            sized.page.click("#hint")
            sized.page.wait_for_selector("#board .cell .hint")
        elif stage == "ended":
            sized.play_out(worst)
            sized.wait_for_review()
            for button in sized.page.locator("#review-moves button.show-better").all():
                button.click()
        _, violations = sized.axe()
        assert violations == [], f"{stage}:\n{readable(violations)}"
