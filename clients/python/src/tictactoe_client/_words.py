"""The terminal game's own words (its prompts, labels and errors) in the player's language.

The engine's sentences (a move's reason, a variant's name and rules, a problem's detail) come from
the service in the language asked for; the words the terminal adds around them are messages of this
package's own gettext catalogue, written in English where :mod:`._cli` says them, extracted with
Babel (``make messages``) into ``locales/tictactoe.pot`` and translated in one ``.po`` per language,
shipped compiled (``locales/<tag>/LC_MESSAGES/tictactoe.mo``). The standard library's :mod:`gettext`
reads them, so the client needs nothing more at run time.

The language is chosen as the service chooses it from a ``lang``: the lookup of RFC 4647 §3.4 (a
tag is shortened a subtag at a time until a language offered matches: ``pt-BR`` is ``pt``), and
English when none does. It is the language of the calls made in a :func:`speaking` block (a context
variable, as asyncio's tasks and threads each see their own), English outside any.

The functions are gettext's, by their usual names, so that ``pybabel extract`` finds every message
with its default keywords; :func:`N_` and :func:`NP_` mark a message said later, where it is chosen.
"""

from __future__ import annotations

import gettext as _gettext
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path

#: The languages of the catalogue, by their BCP 47 tags: English, the source, first.
LANGUAGES = ("en", "es", "fr", "de", "pt")
DEFAULT = LANGUAGES[0]
#: Where the catalogues are, one directory per language, and their name (gettext's domain).
LOCALES = Path(__file__).resolve().parent / "locales"
DOMAIN = "tictactoe"

#: The catalogue of the language spoken (:func:`speaking`); none outside any block, where the source
#: (English) is said.
_spoken: ContextVar[_gettext.NullTranslations | None] = ContextVar("spoken", default=None)
_SOURCE = _gettext.NullTranslations()


def _said() -> _gettext.NullTranslations:
    return _spoken.get() or _SOURCE


def language(tag: str | None) -> str:
    """The language of the catalogue that ``tag`` asks for, by RFC 4647 lookup; English for
    ``None`` and for a tag no language matches."""
    parts = (tag or "").lower().split("-")
    while parts and parts[0]:
        candidate = "-".join(parts)
        if candidate in LANGUAGES:
            return candidate
        parts.pop()
        if parts and len(parts[-1]) == 1:  # a singleton goes with what follows it (RFC 4647 §3.4)
            parts.pop()
    return DEFAULT


@cache
def catalogue(tag: str) -> _gettext.NullTranslations:
    """The compiled catalogue of ``tag``, one of :data:`LANGUAGES`."""
    if tag not in LANGUAGES:
        raise LookupError(f"{tag!r} is not one of {', '.join(LANGUAGES)}")
    return _gettext.translation(DOMAIN, LOCALES, languages=[tag])


@contextmanager
def speaking(tag: str | None) -> Iterator[str]:
    """Say the terminal's words in the language ``tag`` asks for (:func:`language`) while the block
    runs; the language chosen."""
    chosen = language(tag)
    token = _spoken.set(catalogue(chosen))
    try:
        yield chosen
    finally:
        _spoken.reset(token)


def gettext(message: str) -> str:
    """``message`` in the language spoken."""
    return _said().gettext(message)


_ = gettext


def pgettext(context: str, message: str) -> str:
    """``message`` of ``context`` in the language spoken."""
    return _said().pgettext(context, message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The form of a message for ``count``, in the language spoken."""
    return _said().ngettext(singular, plural, count)


def npgettext(context: str, singular: str, plural: str, count: int) -> str:
    """The form of a message of ``context`` for ``count``, in the language spoken."""
    return _said().npgettext(context, singular, plural, count)


def N_(message: str) -> str:
    """A message said later (with :func:`gettext`): marked here, where it is written, for extraction."""
    return message


def NP_(context: str, message: str) -> tuple[str, str]:
    """A message of ``context`` said later (``pgettext(*marked)``), marked for extraction."""
    return context, message


def decimal(number: float, places: int | None = None) -> str:
    """A number as the language writes it: its decimal separator, ``places`` decimals (as short as
    it goes without ``places``)."""
    text = f"{number:g}" if places is None else f"{number:.{places}f}"
    # TRANSLATORS: The decimal separator of numbers, as "0.5" writes it (a comma in many languages).
    return text.replace(".", pgettext("number", "."))
