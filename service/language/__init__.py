"""The player's language: the languages the service speaks, their message catalogues, and how one is
chosen for an answer.

Every sentence for a person (the reason of a move, a variant's name and rules, a problem's title and
detail) is a message of one gettext catalogue, written in English in the code where it is said
(:mod:`service.game.words`), extracted with Babel (``make messages``) into ``messages.pot``, and
translated in one ``.po`` file per language, shipped compiled (``.mo``) beside it:
``locales/<tag>/LC_MESSAGES/messages.po``. The standard library's :mod:`gettext` reads them.

A request names its language with ``lang`` (a BCP 47 tag), or its ``Accept-Language`` header does,
by the lookup of RFC 4647 (:mod:`.negotiation`); English otherwise, and whenever no language offered
matches. The API contract's "Languages" says the rest.
"""

from __future__ import annotations

import gettext
from functools import cache
from pathlib import Path

from ..game.words import Words
from .negotiation import language_ranges, lookup, negotiate, well_formed

#: The languages offered, by their BCP 47 tags: English, the source, first.
LANGUAGES = ("en", "es", "fr", "de", "pt")
#: The language of an answer when the request names none that is offered.
DEFAULT = LANGUAGES[0]
#: Each language's name in itself, as a picker lists it.
NAMES = {"en": "English", "es": "Español", "fr": "Français", "de": "Deutsch", "pt": "Português"}
#: Where the catalogues are: one directory per language.
LOCALES = Path(__file__).resolve().parent / "locales"
#: The catalogue's name (gettext's domain).
DOMAIN = "messages"


@cache
def words(tag: str) -> Words:
    """The compiled catalogue of the offered language ``tag``: its messages, and its plural rule."""
    if tag not in LANGUAGES:
        raise LookupError(f"{tag!r} is not one of the languages offered: {', '.join(LANGUAGES)}")
    return gettext.translation(DOMAIN, LOCALES, languages=[tag])


def chosen(lang: str | None, accept_language: str | None) -> tuple[str, bool]:
    """The offered language an answer is in, from a request's ``lang`` (well-formed, or ``None``) and
    its ``Accept-Language`` header (or ``None``), and whether the header chose it (the answer then
    varies on it)."""
    return negotiate(lang, accept_language, LANGUAGES, DEFAULT)


__all__ = [
    "DEFAULT",
    "LANGUAGES",
    "NAMES",
    "chosen",
    "language_ranges",
    "lookup",
    "well_formed",
    "words",
]
