"""The TypeScript client (clients/typescript) in a web page, in headless Chromium.

In Node, ``createClient`` refuses a missing or relative base URL, which nothing can resolve there
(tests/e2e/test_typescript_client.py checks it); in a page, the same calls must keep working,
resolved against the page's address, as its README shows. Its ES modules, built from a copy of its
folder, are served to the page from a path of the service's own origin that the test answers
itself, so the page's Content Security Policy (scripts from its own origin only) stays in force.

In a page the browser says which languages its reader prefers (``Accept-Language``, from its
locale): a client without ``lang`` gets the engine's sentences in that language, and a client's
``lang``, or a call's, asks for another.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from tests.browser.driver import DESKTOP, Page
from tests.support import ROOT
from tests.support.commands import run
from tests.support.server import Server
from tests.support.tools import require_tool, under_ci

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Route

playwright_api = pytest.importorskip("playwright.sync_api")

CLIENT = ROOT / "clients" / "typescript"
#: Where the page imports the built client from (the test answers it).
CLIENT_PATH = "/__tests__/tictactoe-client/"

#: In the page: clients made with no base URL, relative ones and the page's origin, each asked
#: something; and what ``createClient`` throws for a base URL that is no URL even in a page.
IN_THE_PAGE = """async (path) => {
    const { createClient, isClientError } = await import(path + "index.js");
    const made = {
        none: createClient(),
        empty: createClient({ baseUrl: "" }),
        slash: createClient({ baseUrl: "/" }),
        origin: createClient({ baseUrl: location.origin + "/" }),
    };
    const answers = {};
    for (const [name, client] of Object.entries(made)) {
        const health = await client.health();
        const move = await client.bestMove("X........");
        answers[name] = { health: health.status, position: move.position };
    }
    let notAUrl = "created";
    try {
        createClient({ baseUrl: "http://[::1" });
    } catch (error) {
        notAUrl = { name: error.name, typeError: error instanceof TypeError,
                    clientError: isClientError(error), message: error.message };
    }
    const refusedPath = await createClient({ baseUrl: "/no-such-prefix" }).health().then(
        () => "answered", (error) => ({ kind: error.kind, url: error.request.url, status: error.status }));
    return { answers, notAUrl, refusedPath };
}"""


@pytest.fixture(scope="module")
def built_client(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``npm run build`` in a copy of the package's folder (its tools linked): its ES modules."""
    require_tool("node")
    npm = require_tool("npm")
    if not (CLIENT / "node_modules" / ".bin" / "tsc").exists():
        if under_ci():
            pytest.fail("clients/typescript/node_modules is missing: make test installs it (npm ci)")
        pytest.skip("the TypeScript tools are not installed: npm ci --prefix clients/typescript")
    copy = tmp_path_factory.mktemp("tictactoe-client")
    shutil.copytree(
        CLIENT, copy, dirs_exist_ok=True, ignore=shutil.ignore_patterns("node_modules", "dist", "*.tgz")
    )
    (copy / "node_modules").symlink_to(CLIENT / "node_modules", target_is_directory=True)
    run([npm, "run", "build"], cwd=copy, timeout=300)
    return copy / "dist" / "esm"


def serve_module(route: Route, modules: Path) -> None:
    name = route.request.url.rsplit("/", 1)[-1]
    module = modules / name
    if name.endswith(".js") and module.is_file():
        route.fulfill(path=module, content_type="text/javascript; charset=utf-8")
    else:
        route.fulfill(status=404, body="not a module of the client")


def test_without_a_base_url_the_client_in_a_page_asks_the_pages_origin(
    page: Page, built_client: Path
) -> None:
    page.page.route(f"**{CLIENT_PATH}*", lambda route: serve_module(route, built_client))
    page.goto("/play")
    found: dict[str, Any] = page.page.evaluate(IN_THE_PAGE, CLIENT_PATH)
    assert found["answers"] == {
        name: {"health": "ok", "position": 4} for name in ("none", "empty", "slash", "origin")
    }
    assert found["notAUrl"] == {
        "name": "TypeError",
        "typeError": True,
        "clientError": False,
        "message": 'createClient: baseUrl "http://[::1" is not a URL: give the service\'s address, such as'
        ' "http://127.0.0.1:8000"',
    }
    # A relative base URL is resolved against the page, path and all: the service has no such path.
    assert found["refusedPath"] == {"kind": "problem", "url": "/no-such-prefix/health", "status": 404}
    own = page.server.url
    asked = [url for url in page.requests if url.endswith(("/health", "/v1/best-move"))]
    assert asked == [f"{own}/health", f"{own}/v1/best-move"] * 4 + [f"{own}/no-such-prefix/health"]
    page.assert_only_own_host()


#: In the page: the same move asked by a client without ``lang`` (the browser's languages choose),
#: by a client whose ``lang`` is Spanish, and by a call of that client that asks for French; a cached
#: answer's language; and the languages the service offers.
LANGUAGES_IN_THE_PAGE = """async (path) => {
    const { createClient } = await import(path + "index.js");
    const browsers = createClient();
    const spanish = createClient({ lang: "es" });
    const said = (move) => ({ position: move.position, tactics: move.tactics, reason: move.reason });
    const cached = await browsers.getBestMove("X........");
    const listed = await browsers.languages();
    return {
        browsers: await said(await browsers.bestMove("X........")),
        spanish: await said(await spanish.bestMove("X........")),
        french: await said(await spanish.bestMove("X........", {}, { lang: "fr" })),
        cached: { reason: cached.value.reason, language: cached.language },
        tags: listed.value.languages.map((language) => language.tag),
        accepted: navigator.languages,
    };
}"""


def test_in_a_page_the_browsers_languages_choose_and_lang_overrides_them(
    browser: Browser, live_server: Server, built_client: Path
) -> None:
    german = Page(browser, live_server, locale="de-DE", **DESKTOP)
    try:
        german.page.route(f"**{CLIENT_PATH}*", lambda route: serve_module(route, built_client))
        german.goto("/play")
        found: dict[str, Any] = german.page.evaluate(LANGUAGES_IN_THE_PAGE, CLIENT_PATH)
        german.assert_only_own_host()
    finally:
        german.close()
    assert found["accepted"][0] == "de-DE"

    def reason(lang: str) -> str:
        answer = httpx.get(f"{live_server.url}/v1/best-move", params={"board": "X........", "lang": lang})
        assert answer.headers["content-language"] == lang
        text: str = answer.json()["reason"]
        return text

    move = {"position": 4, "tactics": ["center"]}
    assert found["browsers"] == {**move, "reason": reason("de")}
    assert found["spanish"] == {**move, "reason": reason("es")}
    assert found["french"] == {**move, "reason": reason("fr")}
    assert len({found[name]["reason"] for name in ("browsers", "spanish", "french")} | {reason("en")}) == 4
    assert found["cached"] == {"reason": reason("de"), "language": "de"}
    assert found["tags"] == ["en", "es", "fr", "de", "pt"]
