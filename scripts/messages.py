"""``make messages``: the message catalogues of :mod:`service.language`, brought up to date with the
code, or checked (``--check``).

With Babel's own commands (``pybabel``), as every Python project that ships gettext catalogues does:
``pybabel extract`` gathers every message the code says (the calls of :class:`~service.game.words.Message`
and :class:`~service.game.words.Plural`, with their ``TRANSLATORS:`` comments) into ``messages.pot``;
``pybabel update`` brings each language's ``.po`` up to date with it (a new message waits there
untranslated, a message gone from the code leaves); ``pybabel compile`` writes the ``.mo`` the service
reads. English is the source language: its ``.po`` says every message as the code writes it.

``--check`` changes nothing: it fails when the code says a message that ``messages.pot`` lacks (or
the reverse), when a ``.po`` is not up to date with ``messages.pot``, or when a ``.mo`` is not what
its ``.po`` compiles to. Whether each translation is complete and keeps its placeholders is for the
tests (``tests/game/test_catalogues.py``).
"""

from __future__ import annotations

import argparse
import io
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from service.language import DOMAIN, LANGUAGES, LOCALES

ROOT = Path(__file__).resolve().parent.parent
#: The template: every message the code says.
TEMPLATE = LOCALES.parent / "messages.pot"
#: The functions whose calls are messages, and which of their arguments are the context and texts.
KEYWORDS = ("Message:1c,2", "Plural:1c,2,3")
#: Who writes the catalogues, as their headers say.
AUTHORS = "Tic-tac-toe service maintainers"
#: Where the messages are said.
SOURCES = ("service",)


def pybabel(*arguments: str) -> None:
    """Run a ``pybabel`` command, quietly."""
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", "--quiet", *arguments], check=True)


def extract(template: Path) -> None:
    """``pybabel extract`` every message of the code into ``template``."""
    keywords = [f"--keyword={keyword}" for keyword in KEYWORDS]
    pybabel(
        "extract",
        *keywords,
        "--add-comments=TRANSLATORS:",
        "--no-location",
        "--sort-output",
        "--project=tictactoe-service",
        f"--copyright-holder={AUTHORS}",
        f"--output-file={template}",
        *(str(ROOT / source) for source in SOURCES),
    )


def _read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as file:
        return read_po(file, locale=locale)


def _keys(catalog: Catalog) -> list[tuple[object, ...]]:
    """What the template says of each message: its id, context, comments and flags."""
    return sorted(
        (repr(message.id), message.context or "", tuple(message.auto_comments), tuple(sorted(message.flags)))
        for message in catalog
        if message.id
    )


def po_path(tag: str) -> Path:
    return LOCALES / tag / "LC_MESSAGES" / f"{DOMAIN}.po"


def compiled(tag: str) -> bytes:
    """The ``.mo`` that the ``.po`` of ``tag`` compiles to."""
    buffer = io.BytesIO()
    write_mo(buffer, _read(po_path(tag), tag))
    return buffer.getvalue()


def _finish(tag: str) -> None:
    """Say who writes the catalogue of ``tag`` in its header, and fill the English one, the source
    language's, with every message as the code writes it."""
    path = po_path(tag)
    catalog = _read(path, tag)
    catalog.last_translator = catalog.language_team = AUTHORS
    for message in catalog if tag == LANGUAGES[0] else ():
        if message.id:
            message.string = message.id
            message.flags.discard("fuzzy")
    with path.open("wb") as file:
        write_po(file, catalog, omit_header=False, width=100)


def write() -> None:
    """Bring the template, every ``.po`` and every ``.mo`` up to date with the code."""
    with tempfile.TemporaryDirectory() as scratch:
        fresh = Path(scratch) / "messages.pot"
        extract(fresh)
        if not TEMPLATE.exists() or _keys(_read(fresh)) != _keys(_read(TEMPLATE)):
            TEMPLATE.write_bytes(fresh.read_bytes())
    for tag in LANGUAGES:
        if not po_path(tag).exists():
            pybabel(
                "init",
                f"--input-file={TEMPLATE}",
                f"--output-dir={LOCALES}",
                f"--locale={tag}",
                "--width=100",
            )
    for tag in LANGUAGES:
        pybabel(
            "update",
            f"--input-file={TEMPLATE}",
            f"--output-dir={LOCALES}",
            f"--locale={tag}",
            "--no-fuzzy-matching",
            "--ignore-obsolete",
            "--width=100",
        )
    for tag in LANGUAGES:
        _finish(tag)
    for tag in LANGUAGES:
        po_path(tag).with_suffix(".mo").write_bytes(compiled(tag))


def check() -> list[str]:
    """What is out of date, in words; empty when everything is."""
    stale = []
    with tempfile.TemporaryDirectory() as scratch:
        fresh = Path(scratch) / "messages.pot"
        extract(fresh)
        if not TEMPLATE.exists() or _keys(_read(fresh)) != _keys(_read(TEMPLATE)):
            stale.append("messages.pot is not what the code says")
    template = {(message.id, message.context) for message in _read(TEMPLATE) if message.id}
    for tag in LANGUAGES:
        path = po_path(tag)
        if not path.exists():
            stale.append(f"{tag}: no catalogue")
            continue
        found = {(message.id, message.context) for message in _read(path, tag) if message.id}
        if found != template:
            stale.append(f"{tag}: its .po is not up to date with messages.pot")
        mo = path.with_suffix(".mo")
        if not mo.exists() or mo.read_bytes() != compiled(tag):
            stale.append(f"{tag}: its .mo is not what its .po compiles to")
    return stale


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="make messages", description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="check the catalogues instead of writing them")
    arguments = parser.parse_args(argv)
    if not arguments.check:
        write()
        return 0
    stale = check()
    for problem in stale:
        print(f"{problem}: run make messages")
    if not stale:
        print(f"the catalogues of {', '.join(LANGUAGES)} are up to date with the code")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
