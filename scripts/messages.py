"""``make messages``: the message catalogues of the project, brought up to date with the code, or
checked (``--check``). There are two: the service's (:mod:`service.language`: the engine's sentences,
the problems, the game page), and the terminal game's (:mod:`tictactoe_client._words`: its prompts,
labels and errors), which ships in the client's distribution, apart from the service.

With Babel's own commands (``pybabel``), as every Python project that ships gettext catalogues does:
``pybabel extract`` gathers every message the code says (with their ``TRANSLATORS:`` comments) into
the catalogue's template (``.pot``); ``pybabel update`` brings each language's ``.po`` up to date with
it (a new message waits there untranslated, a message gone from the code leaves); ``pybabel compile``
writes the ``.mo`` the code reads. English is the source language: its ``.po`` says every message as
the code writes it.

``--check`` changes nothing: it fails when the code says a message that a template lacks (or the
reverse), when a ``.po`` is not up to date with its template, or when a ``.mo`` is not what its
``.po`` compiles to. Whether each translation is complete and keeps its placeholders is for the
tests (``tests/game/test_catalogues.py``).
"""

from __future__ import annotations

import argparse
import io
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po
from tictactoe_client import _words as terminal

from service import language

#: Who writes the catalogues, as their headers say.
AUTHORS = "Tic-tac-toe service maintainers"


@dataclass(frozen=True)
class Catalogue:
    """One gettext catalogue: where its languages' files are, its name (gettext's domain), the
    functions whose calls are its messages (Babel's keyword specifications, beside its defaults:
    ``_``, ``gettext``, ``pgettext``, ``npgettext``, ``N_``...), and the code that says them."""

    project: str
    locales: Path
    domain: str
    languages: tuple[str, ...]
    keywords: tuple[str, ...]
    sources: tuple[Path, ...]

    @property
    def template(self) -> Path:
        """The template: every message the code says."""
        return self.locales.parent / f"{self.domain}.pot"

    def po_path(self, tag: str) -> Path:
        return self.locales / tag / "LC_MESSAGES" / f"{self.domain}.po"


SERVICE = Catalogue(
    project="tictactoe-service",
    locales=language.LOCALES,
    domain=language.DOMAIN,
    languages=language.LANGUAGES,
    keywords=("Message:1c,2", "Plural:1c,2,3"),
    sources=(Path(language.__file__).resolve().parent.parent,),
)
TERMINAL = Catalogue(
    project="tictactoe-client",
    locales=terminal.LOCALES,
    domain=terminal.DOMAIN,
    languages=terminal.LANGUAGES,
    keywords=("NP_:1c,2",),
    sources=tuple(Path(terminal.__file__).resolve().parent / name for name in ("_cli.py", "_words.py")),
)
CATALOGUES = (SERVICE, TERMINAL)


def pybabel(*arguments: str) -> None:
    """Run a ``pybabel`` command, quietly."""
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", "--quiet", *arguments], check=True)


def extract(catalogue: Catalogue, template: Path) -> None:
    """``pybabel extract`` every message of the code into ``template``."""
    keywords = [f"--keyword={keyword}" for keyword in catalogue.keywords]
    pybabel(
        "extract",
        *keywords,
        "--add-comments=TRANSLATORS:",
        "--no-location",
        "--sort-output",
        f"--project={catalogue.project}",
        f"--copyright-holder={AUTHORS}",
        f"--output-file={template}",
        *(str(source) for source in catalogue.sources),
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


def compiled(catalogue: Catalogue, tag: str) -> bytes:
    """The ``.mo`` that the ``.po`` of ``tag`` compiles to."""
    buffer = io.BytesIO()
    write_mo(buffer, _read(catalogue.po_path(tag), tag))
    return buffer.getvalue()


def _finish(catalogue: Catalogue, tag: str) -> None:
    """Say who writes the catalogue of ``tag`` in its header, and fill the English one, the source
    language's, with every message as the code writes it."""
    path = catalogue.po_path(tag)
    catalog = _read(path, tag)
    catalog.last_translator = catalog.language_team = AUTHORS
    for message in catalog if tag == catalogue.languages[0] else ():
        if message.id:
            message.string = message.id
            message.flags.discard("fuzzy")
    with path.open("wb") as file:
        write_po(file, catalog, omit_header=False, width=100)


def _fresh(catalogue: Catalogue, scratch: str) -> Path:
    fresh = Path(scratch) / "fresh.pot"
    extract(catalogue, fresh)
    return fresh


def write(catalogue: Catalogue) -> None:
    """Bring the template, every ``.po`` and every ``.mo`` of ``catalogue`` up to date with the code."""
    template = catalogue.template
    with tempfile.TemporaryDirectory() as scratch:
        fresh = _fresh(catalogue, scratch)
        if not template.exists() or _keys(_read(fresh)) != _keys(_read(template)):
            template.write_bytes(fresh.read_bytes())
    options = [
        f"--input-file={template}",
        f"--output-dir={catalogue.locales}",
        f"--domain={catalogue.domain}",
    ]
    for tag in catalogue.languages:
        if not catalogue.po_path(tag).exists():
            pybabel("init", *options, f"--locale={tag}", "--width=100")
    for tag in catalogue.languages:
        pybabel(
            "update", *options, f"--locale={tag}", "--no-fuzzy-matching", "--ignore-obsolete", "--width=100"
        )
    for tag in catalogue.languages:
        _finish(catalogue, tag)
    for tag in catalogue.languages:
        catalogue.po_path(tag).with_suffix(".mo").write_bytes(compiled(catalogue, tag))


def check(catalogue: Catalogue = SERVICE) -> list[str]:
    """What is out of date in ``catalogue``, in words; empty when everything is."""
    stale = []
    template = catalogue.template
    with tempfile.TemporaryDirectory() as scratch:
        fresh = _fresh(catalogue, scratch)
        if not template.exists() or _keys(_read(fresh)) != _keys(_read(template)):
            stale.append(f"{template.name} is not what the code says")
    if not template.exists():
        return stale
    said = {(message.id, message.context) for message in _read(template) if message.id}
    for tag in catalogue.languages:
        path = catalogue.po_path(tag)
        if not path.exists():
            stale.append(f"{catalogue.project}, {tag}: no catalogue")
            continue
        found = {(message.id, message.context) for message in _read(path, tag) if message.id}
        if found != said:
            stale.append(f"{catalogue.project}, {tag}: its .po is not up to date with {template.name}")
        mo = path.with_suffix(".mo")
        if not mo.exists() or mo.read_bytes() != compiled(catalogue, tag):
            stale.append(f"{catalogue.project}, {tag}: its .mo is not what its .po compiles to")
    return stale


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="make messages", description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="check the catalogues instead of writing them")
    arguments = parser.parse_args(argv)
    if not arguments.check:
        for catalogue in CATALOGUES:
            write(catalogue)
        return 0
    stale = [problem for catalogue in CATALOGUES for problem in check(catalogue)]
    for problem in stale:
        print(f"{problem}: run make messages")
    if not stale:
        names = ", ".join(catalogue.project for catalogue in CATALOGUES)
        print(f"the catalogues of {names}, in {', '.join(SERVICE.languages)}, are up to date with the code")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
