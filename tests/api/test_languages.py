"""The player's language through the API (the contract's "Languages"): chosen by ``lang`` or by
``Accept-Language``, said in ``Content-Language`` (and ``Vary``), keyed into entity tags, listed by
``GET /v1/languages``; everything a program reads stays the same in every language."""

from __future__ import annotations

from string import Formatter
from typing import Any

import httpx
import pytest
from pydantic_core import PydanticKnownError

from service.game.words import Message
from service.language import LANGUAGES, NAMES, validation, words
from service.language.validation import PYDANTIC_ERRORS
from tests.api.test_api import assert_problem, only_error

pytestmark = pytest.mark.anyio

BOARD = "X...O...."
#: Every operation that says sentences, with a valid request in a language (``lang`` where it goes).
IN_A_LANGUAGE: list[tuple[str, str, dict[str, str], dict[str, Any] | None]] = [
    ("GET", "/v1/best-move", {"board": BOARD}, None),
    ("POST", "/v1/best-move", {}, {"board": BOARD}),
    ("POST", "/v1/best-move/batch", {}, {"items": [{"board": BOARD}, {"board": "X........"}]}),
    ("GET", "/v1/positions/X...O....", {}, None),
    ("POST", "/v1/analysis", {}, {"board": BOARD}),
    ("POST", "/v1/review", {}, {"moves": [4, 1, 0]}),
    ("GET", "/v1/puzzles", {"limit": "3", "variant": "notakto-2"}, None),
    ("GET", "/v1/puzzles/random", {"seed": "7", "variant": "wild"}, None),
    ("GET", "/v1/puzzles/.....OOXXX", {}, None),
    ("GET", "/v1/variants", {}, None),
]
#: The members of an answer that are sentences for people; every other member is the same in every
#: language.
SENTENCES = {"reason", "name", "rules"}


async def ask(
    client: httpx.AsyncClient,
    request: tuple[str, str, dict[str, str], dict[str, Any] | None],
    lang: str | None = None,
    **headers: str,
) -> httpx.Response:
    method, path, params, body = request
    if lang is not None and body is None:
        params = params | {"lang": lang}
    elif lang is not None and body is not None:
        body = body | {"lang": lang}
    sent = {name.replace("_", "-"): value for name, value in headers.items()}
    return await client.request(method, path, params=params, json=body, headers=sent)


def without_sentences(value: object) -> object:
    """An answer with its sentences taken out: what a program reads."""
    if isinstance(value, dict):
        return {key: without_sentences(item) for key, item in value.items() if key not in SENTENCES}
    if isinstance(value, list):
        return [without_sentences(item) for item in value]
    return value


def sentences(value: object) -> list[str]:
    """Every sentence of an answer, in order."""
    if isinstance(value, dict):
        found = [item for key, item in value.items() if key in SENTENCES and isinstance(item, str)]
        return found + [
            text for key, item in value.items() if key not in SENTENCES for text in sentences(item)
        ]
    if isinstance(value, list):
        return [text for item in value for text in sentences(item)]
    return []


@pytest.mark.parametrize("request_", IN_A_LANGUAGE, ids=lambda r: f"{r[0]} {r[1]}")
async def test_every_operation_answers_in_the_language_lang_names(
    client: httpx.AsyncClient, request_: tuple[str, str, dict[str, str], dict[str, Any] | None]
) -> None:
    english = await ask(client, request_)
    assert english.status_code == 200, english.text
    assert english.headers["content-language"] == "en"
    assert "accept-language" not in english.headers.get("vary", "").lower()
    tags = {english.headers.get("etag")}
    for tag in LANGUAGES[1:]:
        answer = await ask(client, request_, tag)
        assert answer.status_code == 200, answer.text
        assert answer.headers["content-language"] == tag
        assert "accept-language" not in answer.headers.get("vary", "").lower()
        assert without_sentences(answer.json()) == without_sentences(english.json())
        said, source = sentences(answer.json()), sentences(english.json())
        assert len(said) == len(source) > 0
        assert [text for text in said if text in source] == [text for text in said if text in {"Notakto"}], (
            "every sentence is translated"
        )
        tags.add(answer.headers.get("etag"))
    assert len(tags) == len(LANGUAGES) or tags == {None}, "entity tags differ by language"


@pytest.mark.parametrize("request_", IN_A_LANGUAGE, ids=lambda r: f"{r[0]} {r[1]}")
async def test_accept_language_chooses_when_lang_is_absent_and_the_answer_varies_on_it(
    client: httpx.AsyncClient, request_: tuple[str, str, dict[str, str], dict[str, Any] | None]
) -> None:
    named = await ask(client, request_, "de")
    chosen = await ask(client, request_, Accept_Language="ja, de-AT;q=0.8, fr;q=0.5")
    assert chosen.headers["content-language"] == "de"
    assert "Accept-Language" in chosen.headers["vary"]
    assert chosen.content == named.content
    assert chosen.headers.get("etag") == named.headers.get("etag")
    overridden = await ask(client, request_, "pt", Accept_Language="de")
    assert overridden.headers["content-language"] == "pt"
    assert "accept-language" not in overridden.headers.get("vary", "").lower()


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("es-ES,es;q=0.9,en;q=0.8", "es"),
        ("pt-BR", "pt"),
        ("en;q=0.1, fr", "fr"),
        ("es;q=0, fr", "fr"),
        ("zh-Hant-TW, ja", "en"),
        ("*", "en"),
        ("", "en"),
        (";;;,,q=abc", "en"),
        ("x-klingon, DE", "de"),
    ],
)
async def test_accept_language_is_looked_up_with_its_quality_values(
    client: httpx.AsyncClient, header: str, expected: str
) -> None:
    answer = await client.get("/v1/best-move", params={"board": BOARD}, headers={"Accept-Language": header})
    assert answer.status_code == 200
    assert answer.headers["content-language"] == expected
    assert "Accept-Language" in answer.headers["vary"]


@pytest.mark.parametrize(
    ("lang", "expected"), [("ES", "es"), ("pt-BR", "pt"), ("ja", "en"), ("x-private", "en")]
)
async def test_a_language_not_offered_falls_back_to_english_and_regions_to_their_language(
    client: httpx.AsyncClient, lang: str, expected: str
) -> None:
    answer = await client.get("/v1/best-move", params={"board": BOARD, "lang": lang})
    assert answer.status_code == 200
    assert answer.headers["content-language"] == expected


@pytest.mark.parametrize("lang", ["", "e", "english!", "en_US", "-en", "a" * 65, "en--us"])
async def test_a_malformed_lang_is_a_422_naming_it(client: httpx.AsyncClient, lang: str) -> None:
    for answer, where in (
        (await client.get("/v1/best-move", params={"board": BOARD, "lang": lang}), "query"),
        (await client.post("/v1/best-move", json={"board": BOARD, "lang": lang}), "body"),
        (await client.post("/v1/best-move/batch", json={"items": [{"board": BOARD}], "lang": lang}), "body"),
    ):
        error = only_error(assert_problem(answer, 422, "invalid-input"))
        assert error["loc"] == [where, "lang"]
        assert error["type"] == "language_tag"
        assert "BCP 47" in error["msg"]


async def test_a_batch_has_one_language_for_all_its_items(client: httpx.AsyncClient) -> None:
    batch = await client.post(
        "/v1/best-move/batch", json={"items": [{"board": BOARD}, {"board": "........."}], "lang": "fr"}
    )
    singles = [
        (await client.post("/v1/best-move", json={"board": b, "lang": "fr"})).json()
        for b in (BOARD, ".........")
    ]
    assert batch.json()["results"] == singles
    item = await client.post("/v1/best-move/batch", json={"items": [{"board": BOARD, "lang": "fr"}]})
    error = only_error(assert_problem(item, 422, "invalid-input"))
    assert (error["loc"], error["type"]) == (["body", "items", 0, "lang"], "extra_forbidden")


async def test_an_english_entity_tag_does_not_match_another_language(client: httpx.AsyncClient) -> None:
    english = await client.get("/v1/best-move", params={"board": BOARD})
    spanish = await client.get(
        "/v1/best-move",
        params={"board": BOARD, "lang": "es"},
        headers={"If-None-Match": english.headers["etag"]},
    )
    assert spanish.status_code == 200
    again = await client.get(
        "/v1/best-move",
        params={"board": BOARD, "lang": "es"},
        headers={"If-None-Match": spanish.headers["etag"]},
    )
    assert again.status_code == 304
    assert again.headers["content-language"] == "es"


async def test_the_languages_offered_are_listed_and_cacheable(client: httpx.AsyncClient) -> None:
    answer = await client.get("/v1/languages")
    assert answer.status_code == 200
    assert answer.json() == {
        "languages": [{"tag": tag, "name": NAMES[tag]} for tag in LANGUAGES],
        "default": "en",
    }
    assert [entry["tag"] for entry in answer.json()["languages"]][:1] == ["en"]
    assert len(LANGUAGES) == 5
    assert answer.headers["cache-control"].startswith("public")
    again = await client.get("/v1/languages", headers={"If-None-Match": answer.headers["etag"]})
    assert again.status_code == 304


async def test_problems_have_their_title_in_the_language_and_their_type_unchanged(
    client: httpx.AsyncClient,
) -> None:
    english = await client.get("/v1/best-move", params={"board": "XXXXXXXXX"})
    for tag in LANGUAGES[1:]:
        answer = await client.get("/v1/best-move", params={"board": "XXXXXXXXX", "lang": tag})
        assert answer.headers["content-language"] == tag
        problem, source = answer.json(), english.json()
        assert (problem["type"], problem["status"]) == (source["type"], source["status"])
        assert [error["type"] for error in problem["errors"]] == [error["type"] for error in source["errors"]]
        assert problem["title"] != source["title"]
    header = await client.get("/v1/nowhere", headers={"Accept-Language": "fr-CA"})
    assert header.status_code == 404
    assert header.headers["content-language"] == "fr"
    assert "Accept-Language" in header.headers["vary"]
    body = await client.post("/v1/best-move", json={"board": "XXXXXXXXX", "lang": "de"})
    assert body.headers["content-language"] == "de"


#: Requests refused for what they send, with the type of their problem.
REFUSED: list[tuple[str, str, dict[str, Any], Any, int, str]] = [
    ("GET", "/v1/best-move", {"board": "XXXXXXXXZ"}, None, 422, "invalid-input"),
    ("GET", "/v1/best-move", {"board": "XXX......", "skill": "2"}, None, 422, "invalid-input"),
    ("POST", "/v1/best-move", {}, {"board": "XO", "skill": 2, "colour": 1}, 422, "invalid-input"),
    ("POST", "/v1/best-move", {}, {"board": "X........", "player": "X"}, 422, "invalid-input"),
    ("POST", "/v1/review", {}, {"moves": [4, 4]}, 422, "invalid-input"),
    ("POST", "/v1/review", {}, {"moves": [{"position": 1}], "variant": "wild"}, 422, "invalid-input"),
    ("POST", "/v1/best-move", {}, {"board": "XXXOO...."}, 422, "game-over"),
    ("GET", "/v1/puzzles/...O..XXOX", {}, None, 404, "not-found"),
    ("GET", "/v1/puzzles", {"cursor": "X...O...XO"}, None, 422, "invalid-input"),
    ("GET", "/v1/nowhere", {}, None, 404, "not-found"),
    ("PUT", "/v1/best-move", {}, None, 405, "method-not-allowed"),
]


@pytest.mark.parametrize("refused", REFUSED, ids=lambda r: f"{r[0]} {r[1]} {r[5]}")
async def test_a_problem_is_said_whole_in_the_language_asked(
    client: httpx.AsyncClient, refused: tuple[str, str, dict[str, Any], Any, int, str]
) -> None:
    """Title, detail and every error's msg in the language; type, status, locations and error types as
    in English."""
    method, path, params, body, status, kind = refused
    english = await client.request(method, path, params=params, json=body)
    source = assert_problem(english, status, kind)
    for tag in LANGUAGES[1:]:
        answer = await client.request(
            method, path, params=params, json=body, headers={"Accept-Language": tag}
        )
        problem = assert_problem(answer, status, kind)
        assert answer.headers["content-language"] == tag
        assert problem["title"] != source["title"]
        assert problem["detail"] != source["detail"]
        located = [(error["loc"], error["type"]) for error in problem.get("errors", [])]
        assert located == [(error["loc"], error["type"]) for error in source.get("errors", [])]
        for said, english_error in zip(problem.get("errors", []), source.get("errors", []), strict=True):
            assert said["msg"] != english_error["msg"]


@pytest.mark.parametrize("kind", list(PYDANTIC_ERRORS))
@pytest.mark.parametrize("number", [1, 2, 5])
def test_pydantics_messages_are_said_in_english_as_pydantic_says_them(kind: str, number: int) -> None:
    message = PYDANTIC_ERRORS[kind]
    text = message.text if isinstance(message, Message) else message.plural
    context: dict[str, Any] = {
        name: number if name.endswith(("length", "_of", "gt", "ge", "lt", "le")) else "x"
        for _, name, _, _ in Formatter().parse(text)
        if name
    }
    said = validation.said({"type": kind, "ctx": context or None})
    assert said is not None
    assert str(said) == PydanticKnownError(kind, context or None).message()  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "expected",
    ["'X' or 'O'", "'X', 'O', 'first' or 'second'", "'beginner', 'easy', 'medium', 'hard' or 'perfect'"],
)
@pytest.mark.parametrize("kind", ["literal_error", "enum"])
def test_the_values_expected_are_listed_with_the_languages_or(kind: str, expected: str) -> None:
    """Pydantic lists the values a literal or an enum expects with an English "or": said again as a
    list in each language, the values quoted as Pydantic quotes them, and in English as Pydantic says it."""
    said = validation.said({"type": kind, "ctx": {"expected": expected}})
    assert said is not None
    assert str(said) == PydanticKnownError(kind, {"expected": expected}).message()  # type: ignore[arg-type]
    values = expected.replace(" or ", ", ").split(", ")
    conjunctions = {"es": " o ", "fr": " ou ", "de": " oder ", "pt": " ou "}
    for tag, conjunction in conjunctions.items():
        text = said.to(words(tag))
        assert " or " not in text and conjunction in text, text
        assert [value for value in values if value in text] == values, text


async def test_a_literal_refused_in_spanish_lists_its_values_with_o(client: httpx.AsyncClient) -> None:
    answer = await client.post("/v1/best-move", json={"board": "X........", "player": "Z", "lang": "es"})
    (error,) = assert_problem(answer, 422, "invalid-input")["errors"]
    assert error["msg"] == "El valor debe ser 'X', 'O', 'first' o 'second'"
