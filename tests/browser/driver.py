"""Driving the pages in Chromium: a page that records its requests, the game's moves, and axe-core."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict
from urllib.parse import urlsplit

import httpx
import pytest

from tests.support.server import Server
from tests.support.tools import under_ci

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Request, Response, Route

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ENDED = re.compile(r"^(Draw\.|The engine wins|You win)")
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 375, "height": 667}, "is_mobile": True, "has_touch": True}
#: The narrowest phone the variants' boards are drawn for.
NARROW = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}

#: axe-core as tests/browser/package-lock.json pins it (npm ci --prefix tests/browser).
AXE_SCRIPT = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"
AXE_VERSION = "4.14."
#: Where the page loads axe-core from: a path of the service's own origin that the test answers
#: itself, so the page's Content Security Policy (scripts from its own origin only) stays in force.
AXE_PATH = "/__tests__/axe.min.js"


class Violation(TypedDict):
    id: str
    impact: str
    help: str
    targets: list[str]
    summaries: list[str]


class Page:
    """A page that records every request it makes, and what its console says."""

    def __init__(self, browser: Browser, server: Server, **context: Any) -> None:
        self.context = browser.new_context(**context)
        self.page = self.context.new_page()
        self.page.set_default_timeout(15_000)
        self.server = server
        self.touch = bool(context.get("has_touch"))
        self.requests: list[str] = []
        self.console: list[str] = []
        self.responses: list[Response] = []
        self.page.on("request", lambda request: self.requests.append(request.url))
        self.page.on("response", self.record)
        self.page.on("console", lambda message: self.console.append(f"{message.type}: {message.text}"))

    def record(self, response: Response) -> None:
        """Keeps ``response``: the tests read what the service answered the page."""
        self.responses.append(response)

    def goto(self, path: str) -> None:
        self.page.goto(self.server.url + path)

    def close(self) -> None:
        self.context.close()

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

    # --- the game -----------------------------------------------------------------------------------

    def status(self) -> str:
        text: str = self.page.locator("#status").inner_text()
        return text

    def wait_for_turn_or_end(self) -> None:
        self.page.wait_for_function(
            "() => /^(Your turn|Draw\\.|The engine wins|You win)/"
            ".test(document.getElementById('status').textContent)"
        )

    def board(self) -> str:
        """The board as the page shows it, as a board string of X, O and '.' (in the order of the
        cells' indexes, which on Notakto's boards side by side is not the order they are drawn in)."""
        marks: list[str] = self.page.locator("#board .cell").evaluate_all(
            "cells => cells.sort((a, b) => a.dataset.cell - b.dataset.cell)"
            ".map(c => c.classList.contains('x') ? 'X' : c.classList.contains('o') ? 'O' : '.')"
        )
        return "".join(marks)

    def focused_cell(self) -> int | None:
        """The cell that has the focus, or None when the focus is not on the board."""
        cell: str | None = self.page.evaluate(
            "() => { const e = document.activeElement;"
            " return e && e.matches('#board .cell') ? e.dataset.cell : null; }"
        )
        return None if cell is None else int(cell)

    def new_game(self, side: str = "X", first: str = "X", level: str = "perfect") -> None:
        self.page.select_option("#side", side)
        self.page.select_option("#first", first)
        self.page.select_option("#level", level)
        self.page.click("#new-game")
        self.wait_for_turn_or_end()

    def new_variant_game(self, variant: str, order: str = "first") -> None:
        """A new game of ``variant`` with the person moving ``order`` (wild and Notakto) or as X
        moving first (the others)."""
        self.page.select_option("#variant", variant)
        if self.page.locator("#order").is_visible():
            self.page.select_option("#order", order)
        self.page.click("#new-game")
        self.wait_for_turn_or_end()

    def play_out(self, choose: Callable[[dict[str, Any]], int]) -> list[int]:
        """Plays the person's moves, each chosen by ``choose`` from the service's analysis of the
        board, until the game ends; the cells played. A touch screen taps them. In wild the mark
        of the chosen move is chosen first, by a click on its radio button."""
        played: list[int] = []
        variant = self.page.locator("#variant").input_value()
        sides = self.page.locator("#order").is_visible()
        person = self.page.locator("#order" if sides else "#side").input_value()
        while not ENDED.match(self.status()):
            body = {"board": self.board(), "player": person}
            if variant != "standard":
                body["variant"] = variant
            analysis = httpx.post(f"{self.server.url}/v1/analysis", json=body).json()
            cell = choose(analysis)
            mark = next((m.get("mark") for m in analysis["moves"] if m["position"] == cell), None)
            if mark is not None:
                self.page.click(f"#mark-{mark.lower()}")
            locator = self.page.locator(f"#board .cell[data-cell='{cell}']")
            if self.touch:
                locator.tap()
            else:
                locator.click()
            played.append(cell)
            self.wait_for_turn_or_end()
        return played

    def wait_for_review(self) -> dict[str, Any]:
        """The review of the game just ended, as the service gave it to the page, once the page shows it."""
        self.page.wait_for_function("() => document.getElementById('review-status').textContent !== ''")
        answers = [r for r in self.responses if r.url.endswith("/v1/review")]
        assert answers, "the page showed a review without asking for one"
        review: dict[str, Any] = answers[-1].json()
        return review

    # --- puzzles -----------------------------------------------------------------------------------

    def puzzle_board(self) -> str:
        """The puzzle board as the page shows it, as a board string of X, O and '.' of its variant (in
        the order of the cells' indexes, as :meth:`board`)."""
        marks: list[str] = self.page.locator("#puzzle-board .cell").evaluate_all(
            "cells => cells.sort((a, b) => a.dataset.cell - b.dataset.cell)"
            ".map(c => c.classList.contains('x') ? 'X' : c.classList.contains('o') ? 'O' : '.')"
        )
        return "".join(marks)

    def get_puzzle(self, theme: str = "", low: int = 0, high: int | None = None) -> dict[str, Any]:
        """Asks for a puzzle with these filters and waits for it on the board; the puzzle. Without
        ``high`` the highest rating is the one the page offers: the chosen variant's top."""
        self.page.select_option("#puzzle-theme", theme)
        self.page.fill("#puzzle-min", str(low))
        if high is not None:
            self.page.fill("#puzzle-max", str(high))
        with self.page.expect_response(lambda r: "/v1/puzzles/random" in r.url) as answered:
            self.page.click("#next-puzzle")
        puzzle: dict[str, Any] = answered.value.json()
        self.wait_for_puzzle()
        return puzzle

    def wait_for_puzzle(self) -> None:
        """Waits until a puzzle is on its board and asked."""
        self.page.wait_for_function(
            "() => document.getElementById('puzzle-status').textContent.startsWith('Puzzle')"
        )

    # --- axe-core -----------------------------------------------------------------------------------

    def axe(self) -> tuple[str, list[Violation]]:
        """axe-core's version and the violations it finds on the page as it is now (every rule that
        axe-core runs by default: WCAG 2.x A and AA, and its best practices)."""
        script = axe_script()
        self.page.route(f"**{AXE_PATH}", lambda route: serve_axe(route, script))
        self.page.add_script_tag(url=self.server.url + AXE_PATH)
        found: dict[str, Any] = self.page.evaluate(
            """async () => {
                const result = await axe.run(document, { resultTypes: ["violations"] });
                return {
                    version: axe.version,
                    violations: result.violations.map((v) => ({
                        id: v.id,
                        impact: v.impact,
                        help: v.help,
                        targets: v.nodes.map((n) => n.target.join(" ")),
                        summaries: v.nodes.map((n) => n.failureSummary),
                    })),
                };
            }"""
        )
        version: str = found["version"]
        assert version.startswith(AXE_VERSION), version
        violations: list[Violation] = found["violations"]
        return version, violations


def axe_script() -> Path:
    """axe-core's script: skips when it is not installed, but fails under CI, which installs it."""
    if not AXE_SCRIPT.exists():
        if under_ci():
            pytest.fail(f"{AXE_SCRIPT} is missing: make test installs it (npm ci --prefix tests/browser)")
        pytest.skip("axe-core is not installed: npm ci --prefix tests/browser (make test does it)")
    return AXE_SCRIPT


def serve_axe(route: Route, script: Path) -> None:
    route.fulfill(path=script, content_type="text/javascript; charset=utf-8")


def readable(violations: list[Violation]) -> str:
    """The violations, one per line with its nodes, for an assertion's message."""
    return "\n".join(
        f"{v['id']} ({v['impact']}): {v['help']}\n"
        + "\n".join(f"    {t}: {s}" for t, s in zip(v["targets"], v["summaries"], strict=True))
        for v in violations
    )


def sent(request: Request) -> dict[str, Any]:
    """The JSON body of ``request``."""
    body = request.post_data_json
    assert isinstance(body, dict), body
    return body


# --- the person's choices, from the service's analysis --------------------------------------------


def best(analysis: dict[str, Any]) -> int:
    """A move that is optimal for the side to move."""
    cell: int = analysis["best_moves"][0]
    return cell


def worst(analysis: dict[str, Any]) -> int:
    """The move that the service ranks last for the side to move: a losing one whenever there is."""
    cell: int = analysis["moves"][-1]["position"]
    return cell


def weakest_engine(server: Server) -> Callable[[Route], None]:
    """A route handler for ``/v1/best-move`` that answers with the engine's worst move instead: a
    whole answer, built from the service's own analysis of the board, so the person can win."""

    def answer(route: Route) -> None:
        request = sent(route.request)
        analysis = httpx.post(
            f"{server.url}/v1/analysis", json={"board": request["board"], "player": request["player"]}
        ).json()
        move = analysis["moves"][-1]
        cell = move["position"]
        after = request["board"][:cell] + request["player"] + request["board"][cell + 1 :]
        status = httpx.post(f"{server.url}/v1/analysis", json={"board": after}).json()["status"]
        fields = ("position", "row", "column", "score", "outcome", "plies_to_end", "tactics", "reason")
        route.fulfill(
            json={
                "board": request["board"],
                "player": request["player"],
                **{name: move[name] for name in fields},
                "optimal": False,
                "board_after": after,
                "status_after": status,
            }
        )

    return answer
