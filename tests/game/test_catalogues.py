"""The message catalogues of every language offered: complete, true to their source's placeholders and
plural forms, up to date with the code, and rendering every kind of sentence without English left in
it or a placeholder left unfilled.

The sentences are rendered for every move of every position of the standard game, and for a seeded
sample of every other variant's positions (``scripts.sentences``), in every language.
"""

from __future__ import annotations

import re
import string
import subprocess
from collections.abc import Iterator
from functools import cache

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from scripts import messages as catalogues
from scripts.sentences import examples
from service.game.exact import Values
from service.game.tables import table
from service.game.tactics import explain_move
from service.game.variants import STANDARD, VARIANTS, Move, Variant, reach
from service.game.words import CELLS, LINES, WHERE, say
from service.language import DEFAULT, LANGUAGES, words
from tests.support.tools import require_tool

TRANSLATED = [tag for tag in LANGUAGES if tag != DEFAULT]


#: Every catalogue (the service's, the terminal game's) in every language, as the tests name them.
EVERY = [
    pytest.param(catalogue, tag, id=f"{catalogue.project}-{tag}")
    for catalogue in catalogues.CATALOGUES
    for tag in catalogue.languages
]


@cache
def catalogue(tag: str, of: catalogues.Catalogue = catalogues.SERVICE) -> Catalog:
    with of.po_path(tag).open("rb") as file:
        return read_po(file, locale=tag)


@cache
def template(of: catalogues.Catalogue = catalogues.SERVICE) -> Catalog:
    with of.template.open("rb") as file:
        return read_po(file)


def fields(text: str) -> set[str]:
    """The named placeholders of a message's text."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def forms(message: Message) -> list[str]:
    """Every translation of a message: one, or one per plural form."""
    if isinstance(message.string, (list, tuple)):
        return [str(text or "") for text in message.string]
    return [message.string or ""]


def sources(message: Message) -> list[str]:
    return list(message.id) if isinstance(message.id, (list, tuple)) else [message.id]


@pytest.mark.parametrize("of", catalogues.CATALOGUES, ids=lambda of: of.project)
def test_the_template_and_every_catalogue_are_up_to_date_with_the_code(of: catalogues.Catalogue) -> None:
    assert catalogues.check(of) == []


def test_the_template_holds_every_name_and_sentence() -> None:
    ids = {(message.context, sources(message)[0]) for message in template() if message.id}
    assert ("cell", "the center") in ids
    assert ("line", "short diagonal below the diagonal from the top-right") in ids
    assert ("problem", "Invalid input") in ids
    assert ("variant", "Notakto on 3 boards") in ids
    assert len(ids) > 150


def test_the_terminals_template_holds_its_prompts_labels_and_errors() -> None:
    ids = {(message.context, sources(message)[0]) for message in template(catalogues.TERMINAL) if message.id}
    assert ("question", "Play again") in ids
    assert ("column", "traps") in ids
    assert (None, "error: {message}") in ids
    assert ("outlook", "{side} wins with perfect play, in {count} more move.") in ids
    assert len(ids) > 100


@pytest.mark.parametrize(("of", "tag"), EVERY)
def test_every_message_is_translated(of: catalogues.Catalogue, tag: str) -> None:
    found = catalogue(tag, of)
    assert found.locale is not None and str(found.locale) == tag
    missing = [
        (message.context, sources(message)[0])
        for message in found
        if message.id and (message.fuzzy or not all(forms(message)))
    ]
    assert missing == []
    assert len([message for message in found if message.id]) == len([m for m in template(of) if m.id])


@pytest.mark.parametrize(("of", "tag"), EVERY)
def test_every_translation_keeps_its_placeholders_and_has_every_plural_form(
    of: catalogues.Catalogue, tag: str
) -> None:
    found = catalogue(tag, of)
    wrong = []
    for message in found:
        if not message.id:
            continue
        wanted = set().union(*(fields(text) for text in sources(message)))
        translations = forms(message)
        if message.pluralizable and len(translations) != found.num_plurals:
            wrong.append((message.context, sources(message)[0], "plural forms"))
        for text in translations:
            if fields(text) != wanted:
                wrong.append((message.context, sources(message)[0], text))
            if set(re.sub(r"\{[a-z_]+(:[,])?\}", "", text.replace("{{", "").replace("}}", ""))) & set("{}"):
                wrong.append((message.context, sources(message)[0], "a brace outside a placeholder"))
    assert wrong == []
    assert [error for _, errors in found.check() for error in errors] == []


@pytest.mark.parametrize(("of", "tag"), EVERY)
def test_msgfmt_checks_every_catalogue(of: catalogues.Catalogue, tag: str) -> None:
    msgfmt = require_tool("msgfmt")
    done = subprocess.run(
        [msgfmt, "--check", "--output-file=/dev/null", str(of.po_path(tag))],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""


@cache
def english_fragments() -> tuple[str, ...]:
    """The words of every English message between its placeholders that a translation could leave in a
    sentence untranslated: two words or more."""
    found = set()
    for message in template():
        for text in sources(message) if message.id else []:
            for literal, *_ in string.Formatter().parse(text):
                piece = literal.strip(" ,.;:")
                if " " in piece and re.search("[a-z]{3}", piece):
                    found.add(piece)
    return tuple(sorted(found, key=len, reverse=True))


def spoken_in(tag: str, variant: Variant) -> Iterator[str]:
    """The reason of every move of every position of a small variant, or of one move of each kind of
    sentence in a sample of a large one's, in ``tag``."""
    values = Values(variant, table(variant.id))
    catalogue = words(tag)
    if variant is STANDARD:
        for state in reach(variant.id).unfinished:
            for move in values.ranked(state):
                played = Move(move.cell, move.mark)
                yield explain_move(variant, state, played, move.score, move.plies, words=catalogue)[1]
        return
    for state, index in examples(variant, 400).values():
        move = values.ranked(state)[index]
        played = Move(move.cell, move.mark)
        yield explain_move(variant, state, played, move.score, move.plies, words=catalogue)[1]


@pytest.mark.parametrize("tag", TRANSLATED)
@pytest.mark.parametrize("variant_id", list(VARIANTS))
def test_every_kind_of_sentence_is_said_whole_in_every_language(tag: str, variant_id: str) -> None:
    variant = VARIANTS[variant_id]
    fragments = english_fragments()
    said = set(spoken_in(tag, variant))
    assert said
    for sentence in said:
        assert "{" not in sentence and "}" not in sentence, sentence
        assert not [piece for piece in fragments if piece in sentence], sentence
        assert sentence[0].isupper() and sentence.endswith("."), sentence
    english = set(spoken_in(DEFAULT, variant))
    assert len(said) == len(english) or variant is not STANDARD
    assert not said & english


@pytest.mark.parametrize("tag", TRANSLATED)
def test_names_are_translated_and_tell_every_cell_and_line_apart(tag: str) -> None:
    catalogue = words(tag)
    for size, names in CELLS.items():
        said = [say(catalogue, name) for name in names]
        assert len(set(said)) == size * size
        assert len({say(catalogue, name) for name in WHERE[size]}) == size * size
    for lines in LINES.values():
        said = [say(catalogue, name) for name in lines.values()]
        assert len(set(said)) == len(said)
        assert not set(said) & {name.text for name in lines.values()}


def test_every_cell_and_line_of_every_variant_has_a_name() -> None:
    for variant in VARIANTS.values():
        assert len(CELLS[variant.size]) == len(WHERE[variant.size]) == variant.board_cells
        assert set(LINES[variant.size, variant.line]) == set(variant.grid.lines)
