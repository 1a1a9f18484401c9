"""The language of an answer: which of the offered languages a request asks for, if any.

A request names its language in one of two ways. A ``lang`` given by the client (a query
parameter, say) names it outright. Otherwise the ``Accept-Language`` field (RFC 9110 §12.5.4)
lists language ranges, each with an optional quality value: :func:`language_ranges` reads them
in the client's order of preference, and :func:`lookup` picks the offered language that best
fits them by the *lookup* scheme of RFC 4647 §3.4 (a range stands for the most specific tag
the client accepts: it is shortened a subtag at a time until an offered tag matches, and the
first range that finds one wins). :func:`negotiate` puts the two together and says whether the
header chose, for the answer's ``Vary``.

:func:`well_formed` says whether a string is a well-formed language tag by the syntax of
RFC 5646 §2.1 (BCP 47), for whoever checks a ``lang`` before it is used.

The header is advice from a client that may send anything: a member that does not parse is
skipped, never an error, and only a bounded prefix of the header is read
(:data:`MAX_HEADER_LENGTH`, :data:`MAX_MEMBERS`). Everything here compares tags without regard
to case, as RFC 5646 §2.1.1 and RFC 4647 §2 say, and uses the standard library only.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

#: The longest language tag :func:`well_formed` accepts. RFC 5646 sets no limit (§4.4.1 asks
#: for at least 35 characters of room), but a client may send anything, and a tag longer than
#: this names no language the service could offer.
MAX_TAG_LENGTH = 64
#: Only this many characters of an ``Accept-Language`` value are read, and only this many of its
#: list elements (empty ones count): a client may send anything, and what it sends must cost
#: next to nothing. The work grows with what is read, never with what was sent: a few
#: microseconds for a browser's header (a few dozen characters, a handful of ranges), some tens
#: for the worst 4,096 characters.
MAX_HEADER_LENGTH = 4096
MAX_MEMBERS = 32

# RFC 5646 §2.1, one named piece per rule of its ABNF. The pattern is compiled ASCII-only and
# case-insensitive, so ``[a-z]`` is ALPHA in either case and nothing else (not the Kelvin sign,
# which Unicode case folding would take for a ``k``).
_ALPHANUM = "[a-z0-9]"
_EXTLANG = r"[a-z]{3}(?:-[a-z]{3}){0,2}"  # extlang = 3ALPHA *2("-" 3ALPHA)
# language = 2*3ALPHA ["-" extlang] / 4ALPHA / 5*8ALPHA
_LANGUAGE = rf"(?:[a-z]{{2,3}}(?:-{_EXTLANG})?|[a-z]{{4}}|[a-z]{{5,8}})"
_SCRIPT = "[a-z]{4}"  # 4ALPHA
_REGION = "(?:[a-z]{2}|[0-9]{3})"  # 2ALPHA / 3DIGIT
_VARIANT = rf"(?:{_ALPHANUM}{{5,8}}|[0-9]{_ALPHANUM}{{3}})"  # 5*8alphanum / (DIGIT 3alphanum)
_SINGLETON = "[0-9a-wyz]"  # DIGIT / any ALPHA but "x"
_EXTENSION = rf"{_SINGLETON}(?:-{_ALPHANUM}{{2,8}})+"  # singleton 1*("-" (2*8alphanum))
_PRIVATEUSE = rf"x(?:-{_ALPHANUM}{{1,8}})+"  # "x" 1*("-" (1*8alphanum))
# langtag = language ["-" script] ["-" region] *("-" variant) *("-" extension) ["-" privateuse]
_LANGTAG = (
    rf"{_LANGUAGE}(?:-{_SCRIPT})?(?:-{_REGION})?"
    rf"(?:-{_VARIANT})*(?:-{_EXTENSION})*(?:-{_PRIVATEUSE})?"
)
# irregular and regular: the grandfathered tags, as §2.1 lists them
_IRREGULAR = (
    "en-GB-oed",
    "i-ami",
    "i-bnn",
    "i-default",
    "i-enochian",
    "i-hak",
    "i-klingon",
    "i-lux",
    "i-mingo",
    "i-navajo",
    "i-pwn",
    "i-tao",
    "i-tay",
    "i-tsu",
    "sgn-BE-FR",
    "sgn-BE-NL",
    "sgn-CH-DE",
)
_REGULAR = (
    "art-lojban",
    "cel-gaulish",
    "no-bok",
    "no-nyn",
    "zh-guoyu",
    "zh-hakka",
    "zh-min",
    "zh-min-nan",
    "zh-xiang",
)
# grandfathered = irregular / regular
_GRANDFATHERED = "|".join(re.escape(tag) for tag in _IRREGULAR + _REGULAR)
# Language-Tag = langtag / privateuse / grandfathered
_LANGUAGE_TAG = re.compile(
    rf"(?:{_LANGTAG}|{_PRIVATEUSE}|{_GRANDFATHERED})",
    re.ASCII | re.IGNORECASE,
)

# RFC 9110 §12.5.4: Accept-Language = #( language-range [ weight ] ), with the basic
# language-range of RFC 4647 §2.1 and weight = OWS ";" OWS "q=" qvalue (RFC 9110 §12.4.2);
# the "q" is case-insensitive, as every ABNF string is. A member is one list element with its
# optional whitespace (OWS) stripped. The quantifiers that end at a hyphen, a semicolon or the
# end are possessive ("+"): they never give back what they took, which changes nothing of what
# matches but keeps a long member that fails from being tried again at every subtag.
_OWS = "[ \t]*+"
_LANGUAGE_RANGE = rf"(?:[a-z]{{1,8}}+(?:-{_ALPHANUM}{{1,8}}+)*+|\*)"
_QVALUE = r"(?:0(?:\.[0-9]{0,3})?|1(?:\.0{0,3})?)"
#: Single-character subtags in a row, each followed by another subtag (see :func:`_truncations`).
_SINGLE_CHARACTER_SUBTAGS = re.compile("(?:-[^-](?=-))*")
_MEMBER = re.compile(
    rf"(?P<range>{_LANGUAGE_RANGE})(?:{_OWS};{_OWS}q=(?P<q>{_QVALUE}))?",
    re.ASCII | re.IGNORECASE,
)


def well_formed(tag: str) -> bool:
    """Whether ``tag`` is a well-formed BCP 47 language tag, by the ABNF of RFC 5646 §2.1.

    That is a ``langtag`` (language with up to three extended language subtags, then an
    optional script, an optional region, any variants, any extensions and an optional
    private-use part, in that order), a private-use tag alone (``x-...``), or one of the
    grandfathered tags of §2.1, irregular or regular. Case does not matter (§2.1.1).

    Well-formed is not valid (§2.2.9): a tag that repeats a variant or an extension's
    singleton (``ar-a-aaa-b-bbb-a-ccc``) is well-formed but not valid, and no subtag is looked
    up in the IANA registry. Only the syntax is checked here.

    A tag longer than :data:`MAX_TAG_LENGTH` characters is not accepted, however well formed:
    a client may send anything.
    """
    return len(tag) <= MAX_TAG_LENGTH and _LANGUAGE_TAG.fullmatch(tag) is not None


def language_ranges(header: str) -> list[str]:
    """The language ranges of an ``Accept-Language`` field value, the client's favourite first.

    Ranges (RFC 4647 §2.1, ``*`` included) come lower-cased, by quality value (RFC 9110
    §12.4.2), highest first; ranges of equal quality keep the order the header lists them in.
    A range of quality 0 is left out: it means "not acceptable", and lookup has no use for it.

    The header is advice, so nothing in it is an error: a member that is not a language range
    with at most a single valid ``q`` parameter (the only parameter RFC 9110 allows here) is
    skipped, and so are empty list elements (``a,,b``). Optional whitespace may surround the
    commas and semicolons. Only the first :data:`MAX_HEADER_LENGTH` characters and the first
    :data:`MAX_MEMBERS` list elements are read.
    """
    weighted: list[tuple[int, str]] = []
    for element in header[:MAX_HEADER_LENGTH].split(",", MAX_MEMBERS)[:MAX_MEMBERS]:
        member = _MEMBER.fullmatch(element.strip(" \t"))
        if member is None:
            continue
        quality = _thousandths(member["q"])
        if quality > 0:
            weighted.append((quality, member["range"].lower()))
    weighted.sort(key=lambda pair: -pair[0])  # stable: equal qualities keep the header's order
    return [language_range for _, language_range in weighted]


def _thousandths(qvalue: str | None) -> int:
    """A well-formed ``qvalue`` in thousandths (``"0.5"`` is 500), 1000 when there is none.

    Whole numbers compare exactly, as the three decimals of a ``qvalue`` do.
    """
    if qvalue is None:
        return 1000
    whole, _, decimals = qvalue.partition(".")
    return int(whole) * 1000 + int(decimals.ljust(3, "0"))


def lookup(ranges: Sequence[str], offered: Sequence[str], default: str) -> str:
    """The offered tag that best fits ``ranges`` by the lookup scheme of RFC 4647 §3.4.

    Each range is tried in turn, in the order given. A range is compared with the offered
    tags without regard to case; when none matches, its last subtag is removed, together with
    the subtag before that if it is a single character (an extension's singleton or the ``x``
    of a private-use part), and the shorter range is tried, down to its first subtag. So
    ``zh-Hant-CN-x-private1-private2`` tries itself, ``zh-Hant-CN-x-private1``, ``zh-Hant-CN``,
    ``zh-Hant`` and ``zh``. The first match wins, spelled as in ``offered``.

    The range ``*`` is skipped: it matches everything, so it says nothing about which tag is
    best, and §3.4 skips it when other ranges follow and returns the default when none does,
    which comes to the same. When no range finds a match, the answer is ``default``.
    """
    by_key: dict[str, str] = {}
    for tag in offered:
        by_key.setdefault(tag.lower(), tag)
    longest = max(map(len, by_key), default=0)
    for language_range in ranges:
        if language_range == "*":
            continue
        key = language_range.lower()
        for end in _truncations(key, longest):
            if key[:end] in by_key:
                return by_key[key[:end]]
    return default


def _truncations(language_range: str, longest: int) -> Iterator[int]:
    """The lengths of the ranges lookup tries for ``language_range`` (RFC 4647 §3.4), in order,
    leaving out those longer than ``longest`` characters (than every offered tag).

    First the range itself; then, each time, the range less its last subtag, and less the
    subtag then last too when that is a single character. The ranges longer than ``longest``
    are passed over in one step, not a subtag at a time, so that a long range costs little more
    than a short one. The first range tried within ``longest`` ends at the last hyphen within
    it, unless the subtag before that hyphen is a single character that leaves together with
    the subtag after it. Single characters in a row pair off that way from the right, each with
    the subtag after it: so it leaves when the single-character subtags right after it (each
    followed by another subtag) are even in number, none included.
    """
    end = len(language_range)
    if end > longest:
        end = language_range.rfind("-", 0, longest + 1)
        if end > 0 and (end == 1 or language_range[end - 2] == "-"):
            run = _SINGLE_CHARACTER_SUBTAGS.match(language_range, end)
            if run is None or (run.end() - end) % 4 == 0:  # two characters each: an even number
                end = language_range.rfind("-", 0, end)
    while end > 0:
        yield end
        end = language_range.rfind("-", 0, end)  # the last subtag goes
        if end > 0:
            start = language_range.rfind("-", 0, end) + 1
            if end - start == 1:  # and a single character left last goes with it
                end = start - 1


def negotiate(
    lang: str | None, accept_language: str | None, offered: Sequence[str], default: str
) -> tuple[str, bool]:
    """The language of an answer, and whether the ``Accept-Language`` header chose it.

    A ``lang`` (not ``None``) names the language: it is looked up (:func:`lookup`) as the only
    range, and the header is not read. Whether ``lang`` is a well-formed tag is the caller's to
    check (:func:`well_formed`); here it is just a range. Otherwise a header that is present,
    even empty or malformed, is read (:func:`language_ranges`) and its ranges looked up. With
    neither, the answer is ``default``.

    The flag is true exactly when the header was read: the answer then varies on it
    (``Vary: Accept-Language``), even when nothing in it matched and the default was chosen.
    """
    if lang is not None:
        return lookup([lang], offered, default), False
    if accept_language is None:
        return default, False
    if accept_language in offered:  # one offered tag, as is, the commonest header: its own lookup
        return accept_language, True
    return lookup(language_ranges(accept_language), offered, default), True
