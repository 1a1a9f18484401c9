"""/play in the languages the service speaks: how the page's language is chosen and said, the picker,
the script's words that the page carries, and the engine's sentences asked in the page's language.

Until the page's own messages are translated, a page in another language shows their English text
(gettext falls back to it): these tests check the mechanisms, never a translation of the page's
words. The engine's sentences are translated already, so the page shows them in its language."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

from service.game.words import Message, Plural
from service.language import LANGUAGES, NAMES, words
from service.web import page_words
from service.web.page_words import HTML, SCRIPT, forms, rendered, script_words
from service.web.routes.pages import STATIC
from tests.browser.driver import Page, sent
from tests.support.server import Server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Request, Route

#: The script that says the page's words.
SCRIPT_FILE = STATIC / "play.js"
#: The functions of play.js that say a key of the page's words, and what each key must hold there.
SAYERS = {"say": str, "sayParts": str, "sayCount": list, "named": dict}


# --- which language, and how it is said (no browser needed) --------------------------------------


def html_lang(text: str) -> str:
    found = re.search(r'<html lang="([^"]*)">', text)
    assert found, text[:200]
    return found[1]


def varies_on_language(response: httpx.Response) -> bool:
    vary = {token.strip().lower() for token in response.headers.get("vary", "").split(",")}
    return "accept-language" in vary


@pytest.mark.parametrize(
    ("query", "header", "tag", "by_header"),
    [
        ("", None, "en", False),
        ("?lang=es", None, "es", False),
        ("?lang=pt-BR", None, "pt", False),  # the lookup of RFC 4647: pt-BR, then pt
        ("?lang=de", "fr", "de", False),  # lang overrides the header
        ("?lang=zz", "fr", "en", False),  # well-formed, not offered: English, and the header unread
        ("", "fr-CH, fr;q=0.9, en;q=0.8", "fr", True),
        ("", "ja, de;q=0.5", "de", True),
        ("", "ja", "en", True),
        ("?lang=", "es", "es", True),  # empty: no language named
        ("?lang=not%20a%20tag!", "pt-PT", "pt", True),  # malformed: ignored, never a 422
        ("?lang=x" + "y" * 100, None, "en", False),
    ],
)
def test_the_page_speaks_the_language_asked_for_or_the_browsers(
    live_server: Server, query: str, header: str | None, tag: str, by_header: bool
) -> None:
    headers = {"Accept-Language": header} if header is not None else {}
    answer = httpx.get(f"{live_server.url}/play{query}", headers=headers)
    assert answer.status_code == 200
    assert answer.headers["content-language"] == tag
    assert html_lang(answer.text) == tag
    assert varies_on_language(answer) == by_header
    # The picker: every language in its own name and its own language, the page's chosen.
    options = re.findall(
        r'<option value="([a-z]+)" lang="([a-z]+)"( selected)?>([^<]*)</option>', answer.text
    )
    assert [(value, lang, text) for value, lang, _, text in options] == [(t, t, NAMES[t]) for t in LANGUAGES]
    assert [value for value, _, selected, _ in options if selected] == [tag]
    # The script's words are the page's language's.
    assert page_data(answer.text)["lang"] == tag


def page_data(text: str) -> dict[str, Any]:
    """The script's words that a page carries: the JSON of #page-words."""
    found = re.search(r'<script type="application/json" id="page-words">(.*?)</script>', text, re.S)
    assert found, "the page carries no words for its script"
    data: dict[str, Any] = json.loads(found[1])
    return data


@pytest.mark.parametrize("tag", LANGUAGES)
def test_each_language_is_rendered_whole_and_safe(live_server: Server, tag: str) -> None:
    """Every placeholder of the template is filled; the words are data that cannot end their
    element; the page's policy is the one every page has (no inline script is allowed, and none is
    needed: JSON is not run)."""
    text = httpx.get(f"{live_server.url}/play", params={"lang": tag}).text
    assert re.findall(r"\{\{\s*\w+\s*\}\}", text) == []
    found = re.search(r'<script type="application/json" id="page-words">(.*?)</script>', text, re.S)
    assert found is not None
    assert "<" not in found[1] and ">" not in found[1] and "&" not in found[1]
    assert page_data(text) == script_words(tag)
    policy = httpx.get(f"{live_server.url}/play", params={"lang": tag}).headers["content-security-policy"]
    assert "script-src 'self';" in policy
    english = httpx.get(f"{live_server.url}/play").headers["content-security-policy"]
    assert policy == english


def test_a_translation_is_escaped_as_text() -> None:
    """The page's messages are text: a translation with markup in it is shown, not run."""

    class Hostile:
        """A catalogue whose every message has markup, a quote and an ampersand in it."""

        def pgettext(self, context: str, text: str) -> str:
            return f'<b onclick="x">&{text}'

    said = page_words._html(Hostile(), HTML["title"])  # type: ignore[arg-type]
    assert "<b" not in said and '"' not in said
    assert said.startswith("&lt;b onclick=&quot;x&quot;&gt;&amp;")
    keys = page_words._html(Hostile(), HTML["board_help"])  # type: ignore[arg-type]
    assert "<kbd>&lt;b" in keys  # the key's name escaped, inside the page's own <kbd>


# --- the script's words ----------------------------------------------------------------------------


def first_argument(source: str, start: int) -> str:
    """The text of the first argument of the call whose arguments start at ``start``."""
    depth = 0
    quote = ""
    for at in range(start, len(source)):
        char = source[at]
        if quote:
            if char == "\\":
                continue
            if char == quote:
                quote = ""
        elif char in "\"'`":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            if depth == 0:
                return source[start:at]
            depth -= 1
        elif char == "," and depth == 0:
            return source[start:at]
    raise AssertionError(f"no end to the call at {start}")


def keys_said() -> dict[str, set[str]]:
    """Every key of the page's words that play.js says, by the function that says it: the string
    literals of the first argument of each call (``say(won ? "a" : "b", ...)`` says both), but those
    compared with (``say(x === "win" ? ...``)."""
    source = SCRIPT_FILE.read_text(encoding="utf-8")
    said: dict[str, set[str]] = {name: set() for name in SAYERS}
    for call in re.finditer(r"\b(say|sayParts|sayCount|named)\(", source):
        before = source[: call.start()]
        if before.endswith("function ") or (before.endswith(".") and not before.endswith("...")):
            continue  # its definition, or a method of the same name
        argument = first_argument(source, call.end())
        for literal in re.finditer(r'"([^"]+)"', argument):
            if not argument[: literal.start()].rstrip().endswith(("===", "!==")):
                said[call[1]].add(literal[1])
    return said


def test_the_script_says_every_key_the_page_carries_and_no_other() -> None:
    said = keys_said()
    every = set().union(*said.values())
    assert every, "no key found in play.js"
    assert every == set(SCRIPT), (sorted(every - set(SCRIPT)), sorted(set(SCRIPT) - every))
    for tag in LANGUAGES:
        carried = script_words(tag)["words"]
        assert isinstance(carried, dict)
        assert set(carried) == every
        for function, keys in said.items():
            for key in keys:
                assert isinstance(carried[key], SAYERS[function]), (tag, function, key)


def test_the_page_words_are_messages_of_the_page() -> None:
    """Every message of the page is the page's (context ``page``, or ``page, <what>``), but the
    variants' rules, which are the engine's own messages."""
    rules = {message for message in SCRIPT["rules"].values()}  # type: ignore[union-attr]
    messages: list[Message | Plural] = []
    for entry in SCRIPT.values():
        if isinstance(entry, Message | Plural):
            messages.append(entry)
        elif entry is not SCRIPT["rules"]:
            messages.extend(entry.values())
    messages += [text if isinstance(text, Message) else text.message for text in HTML.values()]
    for message in messages:
        if message not in rules and message is not HTML["variant_rules"]:
            assert message.context == "page" or message.context.startswith("page, "), message


@pytest.mark.parametrize("tag", LANGUAGES)
def test_a_plural_has_the_forms_of_its_catalogue(tag: str) -> None:
    """Each plural message comes with as many forms as the language's catalogue has, in its order:
    the form for 1 first, the one for other numbers last."""
    catalogue = words(tag)
    count = int(re.search(r"nplurals=(\d+)", catalogue.info()["plural-forms"])[1])  # type: ignore[index]
    plurals = [entry for entry in SCRIPT.values() if isinstance(entry, Plural)]
    assert plurals
    for plural in plurals:
        said = forms(catalogue, plural)
        assert len(said) == count, (tag, plural)
        assert said[0] == catalogue.npgettext(plural.context, plural.singular, plural.plural, 1)
        assert said[-1] == catalogue.npgettext(plural.context, plural.singular, plural.plural, 7)


def test_the_english_page_is_the_template_filled() -> None:
    """The English page keeps the words the page has always had (the browser tests read them)."""
    text = rendered((STATIC / "play.html").read_text(encoding="utf-8"), "en")
    for said in [
        "<title>Tic-tac-toe against the engine</title>",
        '<button id="new-game" type="submit">New game</button>',
        'aria-label="cell 1, empty"',
        "250: between easy (181) and medium (316)",
        "Keys <kbd>X</kbd> and <kbd>O</kbd> choose it too.",
        "<kbd>Home</kbd> and <kbd>End</kbd> to the ends of a row (with <kbd>Ctrl</kbd>, of the board)",
        '<span id="puzzle-scale">In Tic-tac-toe, from 0 to 493: 0 (even a random player), 94 (beginner), '
        "181 (easy), 316 (medium), 382 (hard) and 493 (only perfect play).</span>",
        '<option value="block_fork">Stop a fork</option>',
        '<option value="misere" data-rows="3" data-columns="3" data-boards="1" data-marks="own" '
        'data-misere="true">Misère tic-tac-toe</option>',
    ]:
        assert said in text, said


# --- in the browser --------------------------------------------------------------------------------


def test_plural_forms_are_as_many_as_the_browsers_plural_categories(page: Page) -> None:
    """The script picks a plural's form by the index of ``Intl.PluralRules``'s category among the
    language's categories, in CLDR's order: there must be one form per category."""
    page.goto("/play")
    plurals = [key for key, entry in SCRIPT.items() if isinstance(entry, Plural)]
    for tag in LANGUAGES:
        categories = page.page.evaluate(
            "tag => new Intl.PluralRules(tag).resolvedOptions().pluralCategories.length", tag
        )
        carried = script_words(tag)["words"]
        assert isinstance(carried, dict)
        for key in plurals:
            assert len(carried[key]) == categories, (tag, key)


def requests_of(page: Page) -> list[Request]:
    """The page's requests to the service's API, recorded from now on."""
    requests: list[Request] = []
    page.page.on("request", lambda r: requests.append(r) if "/v1/" in r.url else None)
    return requests


def language_of(request: Request) -> str | None:
    """The language a request of the page names: ``lang`` of its query, or of its JSON body."""
    if request.method == "GET":
        named = parse_qs(urlsplit(request.url).query).get("lang")
        return named[0] if named and len(named) == 1 else None
    lang = sent(request).get("lang")
    return lang if isinstance(lang, str) else None


def deterministic_engine(route: Route) -> None:
    """``/v1/best-move`` without the level: the service's one optimal move, the same every time,
    so that the test can ask for it again in another language."""
    body = sent(route.request)
    body.pop("level", None)
    route.continue_(post_data=json.dumps(body))


def wait_for_your_turn_or_the_end(page: Page) -> None:
    """Waits, in any language, until a cell can be played or the game is over."""
    page.page.wait_for_function(
        """() => document.getElementById("status").dataset.result !== "" ||
                 document.querySelector("#board .cell[aria-disabled=false]") !== null"""
    )


def play_to_the_end(page: Page) -> None:
    """Plays the first cell that can be played until the game is over, in any language."""
    while True:
        wait_for_your_turn_or_the_end(page)
        if page.page.locator("#status").get_attribute("data-result"):
            return
        page.page.locator("#board .cell[aria-disabled=false]").first.click()


def test_the_page_asks_the_service_in_its_language_and_shows_its_sentences(
    page: Page, live_server: Server
) -> None:
    """On /play?lang=es every request names the language; the engine's reason, the variants' names
    and rules are the Spanish ones the service gives."""
    requests = requests_of(page)
    page.page.route("**/v1/best-move", deterministic_engine)
    page.goto("/play?lang=es")
    assert page.page.evaluate("document.documentElement.lang") == "es"
    page.page.wait_for_function("() => !document.getElementById('by-rating').disabled")
    # The variants, named and ruled as the service says them in Spanish.
    spanish = httpx.get(f"{live_server.url}/v1/variants", params={"lang": "es"}).json()["variants"]
    english = httpx.get(f"{live_server.url}/v1/variants", params={"lang": "en"}).json()["variants"]
    names = page.page.locator("#variant option").evaluate_all("os => os.map((o) => o.textContent.trim())")
    assert names == [variant["name"] for variant in spanish] != [variant["name"] for variant in english]
    for variant in spanish[:2]:
        page.page.select_option("#variant", variant["id"])
        assert page.page.locator("#variant-rules").inner_text() == variant["rules"]
    page.page.select_option("#variant", "standard")
    # The engine opens: its move and its reason, in Spanish.
    page.page.select_option("#first", "O")
    with page.page.expect_response(lambda r: r.url.endswith("/v1/best-move")) as answered:
        page.page.click("#new-game")
    asked = {key: value for key, value in sent(answered.value.request).items() if key != "level"}
    assert asked["lang"] == "es"
    reason = answered.value.json()["reason"]
    again = {
        lang: httpx.post(f"{live_server.url}/v1/best-move", json={**asked, "lang": lang}).json()
        for lang in ("es", "en")
    }
    assert again["es"]["position"] == again["en"]["position"] == answered.value.json()["position"]
    assert reason == again["es"]["reason"] != again["en"]["reason"]
    page.page.wait_for_function("() => document.getElementById('engine-move').textContent !== ''")
    assert reason in page.page.locator("#engine-move").inner_text()
    # A hint: every move's reason, in Spanish, as the service gives them.
    wait_for_your_turn_or_the_end(page)
    with page.page.expect_response(lambda r: r.url.endswith("/v1/analysis")) as analysed:
        page.page.click("#hint")
    page.page.wait_for_selector("#reasons li")
    reasons = [item.inner_text() for item in page.page.locator("#reasons li").all()]
    expected = [move["reason"] for move in analysed.value.json()["moves"]]
    assert len(reasons) == len(expected) and all(
        r.endswith(e) for r, e in zip(reasons, expected, strict=True)
    )
    # A puzzle, in Spanish too.
    with page.page.expect_response(lambda r: "/v1/puzzles/random" in r.url) as puzzled:
        page.page.click("#next-puzzle")
    puzzle = puzzled.value.json()
    page.page.locator(f"#puzzle-board .cell[data-cell='{puzzle['solution']}']").click()
    assert puzzle["reason"] in page.page.locator("#puzzle-status").inner_text()
    # The rest of the game, and its review.
    with page.page.expect_request("**/v1/review"):
        play_to_the_end(page)
    page.page.wait_for_function("() => document.getElementById('review-status').textContent !== ''")
    languages = {request.url.split("?")[0].rsplit("/", 1)[-1]: language_of(request) for request in requests}
    assert set(languages) >= {"variants", "best-move", "analysis", "random", "review"}, languages
    assert [language_of(request) for request in requests] == ["es"] * len(requests)
    page.assert_only_own_host()


def test_the_page_follows_the_browsers_languages(browser: Browser, live_server: Server) -> None:
    """A browser whose languages are German first gets the page in German, without asking."""
    german = Page(browser, live_server, locale="de-DE")
    try:
        requests = requests_of(german)
        with german.page.expect_response(lambda r: urlsplit(r.url).path == "/play") as answered:
            german.goto("/play")
        assert answered.value.headers["content-language"] == "de"
        assert "accept-language" in answered.value.headers.get("vary", "").lower()
        assert german.page.evaluate("document.documentElement.lang") == "de"
        assert german.page.locator("#lang").input_value() == "de"
        german.page.wait_for_function("() => !document.getElementById('by-rating').disabled")
        assert requests and [language_of(request) for request in requests] == ["de"] * len(requests)
    finally:
        german.close()


@pytest.mark.parametrize("script", [True, False], ids=["script", "no-script"])
def test_the_picker_shows_the_page_in_the_language_chosen(
    browser: Browser, live_server: Server, script: bool
) -> None:
    """The picker is a form: choosing a language and pressing its button asks for /play?lang=<tag>,
    with the script or without it."""
    page = Page(browser, live_server, java_script_enabled=script)
    try:
        page.goto("/play?lang=fr")
        label = page.page.locator("label:has(#lang)")
        assert label.count() == 1 and label.inner_text().strip()
        for tag in ("de", "pt", "en"):
            page.page.select_option("#lang", tag)
            with page.page.expect_navigation():
                page.page.click("#change-language")
            assert urlsplit(page.page.url).path == "/play"
            assert parse_qs(urlsplit(page.page.url).query) == {"lang": [tag]}
            assert page.page.evaluate("document.documentElement.lang") == tag
            assert page.page.locator("#lang").input_value() == tag
    finally:
        page.close()
