"""The language of an answer: BCP 47 well-formedness (RFC 5646 §2.1), the ranges of an
``Accept-Language`` value (RFC 9110 §12.5.4), the lookup scheme of RFC 4647 §3.4 with the RFC's
own examples, and the service's five languages negotiated from a ``lang`` or the header."""

from __future__ import annotations

import itertools

import pytest

from service.language.negotiation import (
    MAX_HEADER_LENGTH,
    MAX_MEMBERS,
    MAX_TAG_LENGTH,
    language_ranges,
    lookup,
    negotiate,
    well_formed,
)

#: The languages the service offers, and the one it falls back to.
OFFERED = ("en", "es", "fr", "de", "pt")
DEFAULT = "en"

#: RFC 4647 §3.4, "Example of a Lookup Fallback Pattern": what the range searches for, in order.
FALLBACK = (
    "zh-Hant-CN-x-private1-private2",
    "zh-Hant-CN-x-private1",
    "zh-Hant-CN",
    "zh-Hant",
    "zh",
)


# RFC 4647 §3.4: lookup


@pytest.mark.parametrize("step", FALLBACK)
def test_the_rfc_fallback_pattern_finds_each_step(step: str) -> None:
    assert lookup([FALLBACK[0]], [step], "default") == step


@pytest.mark.parametrize("index", range(len(FALLBACK)))
def test_the_rfc_fallback_pattern_searches_in_its_order(index: int) -> None:
    """Offered every step from ``index`` on, in any order, lookup takes the step at ``index``:
    each step is searched before every later one."""
    later = FALLBACK[index:]
    assert lookup([FALLBACK[0]], later, "default") == FALLBACK[index]
    assert lookup([FALLBACK[0]], later[::-1], "default") == FALLBACK[index]


@pytest.mark.parametrize(
    "offered",
    [
        "zh-Hant-CN-x",  # a singleton goes with the subtag after it: never searched alone
        "zh-Hant-CN-x-private2",  # not a prefix of the range
        "zh-CN",  # subtags are removed from the end only
        "zh-Hant-CN-x-private1-private2-private3",  # lookup never searches a longer tag
    ],
)
def test_the_rfc_fallback_pattern_finds_nothing_else(offered: str) -> None:
    assert lookup([FALLBACK[0]], [offered], "default") == "default"


@pytest.mark.parametrize(
    ("language_range", "offered", "expected"),
    [
        # an extension's singleton is removed with its last subtag, as the private-use "x" is
        ("en-u-ca-gregory", ["en-u-ca"], "en-u-ca"),
        ("en-u-ca-gregory", ["en-u", "en"], "en"),
        ("en-a-bbb-x-ccc", ["en-a", "en-a-bbb-x"], "default"),
        ("en-a-bbb-x-ccc", ["en-a-bbb"], "en-a-bbb"),
        # a private-use range: "x" goes with its subtag, and nothing is left
        ("x-klingon", ["x-klingon"], "x-klingon"),
        ("x-klingon", ["x", "i"], "default"),
        # case does not matter, and the answer is spelled as offered
        ("ZH-hant-cn", ["zh-Hant-CN"], "zh-Hant-CN"),
        ("pt-br", ["PT-BR", "pt"], "PT-BR"),
        ("pt-BR", ["pt-br", "PT-br"], "pt-br"),
        # the range is the most specific tag the client takes: never a longer one
        ("pt", ["pt-BR"], "default"),
        # single characters in a row pair off from the right, each with the subtag after it
        ("en-a-b-cc", ["en-a-b", "en-a"], "en-a"),
        ("en-a-b-c-dd", ["en-a-b", "en-a"], "en-a-b"),
        ("en" + "-a" * 2_047, ["en-a", "en"], "en-a"),
        ("en" + "-a" * 2_046, ["en-a", "en"], "en"),
        ("en" + "-a" * 2_046, ["en-a-a", "en"], "en-a-a"),
    ],
)
def test_lookup_truncates_a_range_from_its_end(
    language_range: str, offered: list[str], expected: str
) -> None:
    assert lookup([language_range], offered, "default") == expected


@pytest.mark.parametrize(
    ("offered", "expected"),
    [
        # RFC 4647 §3.4: "if the language range is "de-ch", a lookup operation can produce
        # content with the tags "de" or "de-CH" but never content with the tag "de-CH-1996"."
        (["de"], "de"),
        (["de-CH"], "de-CH"),
        (["de-CH-1996"], "default"),
        (["de-CH-1996", "de"], "de"),
        (["de-CH-1996", "de-CH"], "de-CH"),
        (["de", "de-CH-1996", "de-CH"], "de-CH"),
    ],
)
def test_the_rfc_de_ch_example(offered: list[str], expected: str) -> None:
    assert lookup(["de-ch"], offered, "default") == expected


@pytest.mark.parametrize(
    ("offered", "expected"),
    [
        # the priority list "fr-FR, zh-Hant" with the default "ja-JP" searches fr-FR, fr,
        # zh-Hant, zh, then gives ja-JP: a range's shorter forms come before the next range
        (["fr-FR", "fr", "zh-Hant", "zh"], "fr-FR"),
        (["zh", "zh-Hant", "fr"], "fr"),
        (["zh", "zh-Hant"], "zh-Hant"),
        (["zh"], "zh"),
        (["fr-CA", "zh-Hans", "ja"], "ja-JP"),
        ([], "ja-JP"),
    ],
)
def test_ranges_are_searched_in_turn_before_the_default(offered: list[str], expected: str) -> None:
    assert lookup(["fr-FR", "zh-Hant"], offered, "ja-JP") == expected


@pytest.mark.parametrize(
    ("ranges", "expected"),
    [
        (["*"], "default"),
        (["*", "fr"], "fr"),
        (["ja", "*"], "default"),
        (["*", "ja", "*", "de"], "de"),
        ([], "default"),
    ],
)
def test_the_wildcard_is_skipped_in_lookup(ranges: list[str], expected: str) -> None:
    """RFC 4647 §3.4: ``*`` followed by other ranges is skipped; alone or last, the default. It
    matches nothing by itself, even an offered ``*``."""
    assert lookup(ranges, OFFERED, "default") == expected
    assert lookup(ranges, ["*", *OFFERED], "default") == expected


def tried(language_range: str) -> list[str]:
    """The ranges lookup tries for ``language_range``, a subtag at a time, in the words of
    RFC 4647 §3.4: the last subtag goes, and a single-character subtag left last goes with it."""
    subtags = language_range.split("-")
    ranges = []
    while subtags:
        ranges.append("-".join(subtags))
        subtags.pop()
        if subtags and len(subtags[-1]) == 1:
            subtags.pop()
    return ranges


@pytest.mark.parametrize("count", range(1, 7))
def test_lookup_tries_what_the_rfc_tries(count: int) -> None:
    """Every range of ``count`` subtags of one to three characters, with each of its prefixes
    offered beside a tag that no range matches, of every length that matters: the prefix is
    found exactly when lookup, a subtag at a time, tries it. (Ranges longer than every offered
    tag are passed over in one step, which must change nothing.)"""
    for subtags in itertools.product(("a", "x", "bb", "ccc"), repeat=count):
        language_range = "-".join(subtags)
        ranges = tried(language_range)
        ends = [end for end, character in enumerate(language_range) if character == "-"]
        for end in [*ends, len(language_range)]:
            prefix = language_range[:end]
            expected = prefix if prefix in ranges else "none"
            for length in (1, end, end + 1, len(language_range), len(language_range) + 1):
                assert lookup([language_range], ["z" * length, prefix], "none") == expected


# RFC 9110 §12.5.4: the ranges of Accept-Language


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("da, en-gb;q=0.8, en;q=0.7", ["da", "en-gb", "en"]),  # RFC 9110 §12.5.4's example
        ("es-ES,es;q=0.9,en;q=0.8", ["es-es", "es", "en"]),
        ("en;q=0.1, es", ["es", "en"]),
        ("fr;q=0.999, de;q=1", ["de", "fr"]),
        ("de;q=0.25, fr;q=0.5, es;q=0.3, pt;q=0.05", ["fr", "es", "de", "pt"]),
        ("fr;q=0.5, de;q=0.5", ["fr", "de"]),
        ("de;q=0.5, fr;q=0.5", ["de", "fr"]),
        ("b;q=0.5, a, c;q=0.5, d", ["a", "d", "b", "c"]),
        ("Zh-Hant-CN-X-Private1", ["zh-hant-cn-x-private1"]),
        ("Fr-CA;Q=0.5", ["fr-ca"]),
        ("en-123, abcdefgh-1", ["en-123", "abcdefgh-1"]),
        ("*", ["*"]),
        # optional whitespace around commas and semicolons, empty list elements
        ("fr ; q=0.5 , de;q=0.4", ["fr", "de"]),
        ("fr\t;\tq=0.7,\tde;q=0.6", ["fr", "de"]),
        ("a,,b", ["a", "b"]),
        (" , fr , ,", ["fr"]),
        ("", []),
        ("  ", []),
        # qvalues: at most three decimals, none above 1; q=0 means "not acceptable"
        ("fr;q=1.000", ["fr"]),
        ("fr;q=1.", ["fr"]),
        ("fr;q=0.001", ["fr"]),
        ("fr;q=0, *;q=0, de;q=0.000, es;q=0.", []),
        ("fr;q=1.0001, de", ["de"]),
        ("fr;q=1.001, de", ["de"]),
        ("fr;q=1.1, fr;q=2, fr;q=0.5000, de", ["de"]),
        ("fr;q=.5, fr;q=-0, fr;q=+1, fr;q=1e0, de", ["de"]),
        ("fr;q=abc, fr;q=, fr;q, fr;, fr;=1, fr;qq=1, de", ["de"]),
        ("fr;q= 0.5, fr;q =0.5, fr; q=0.5", ["fr"]),
        # parameters: only a single q
        ("fr;level=1, de", ["de"]),
        ("fr;q=0.5;q=0.5, de", ["de"]),
        ("fr;q=0.5;charset=utf-8, de", ["de"]),
        # ranges: 1*8ALPHA *("-" 1*8alphanum), or "*"
        ("abcdefghi, de", ["de"]),
        ("en-abcdefghi, de", ["de"]),
        ("1en, en_US, en US, en-, -en, en--us, *-us, en-*, de", ["de"]),
        (";;;,,q=abc", []),
        ("\u212aa, de", ["de"]),  # the Kelvin sign is not a "k"
    ],
)
def test_language_ranges(header: str, expected: list[str]) -> None:
    assert language_ranges(header) == expected


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("a," * 500_000, ["a"] * 32),
        ("fr;q=0.5, " + "x" * 1_000_000, ["fr"]),
        ("," * 1_000_000 + "fr", []),
        ("de;q=0.5;" * 125_000, []),
        ("en-" + "-".join(["a"] * 500_000), ["en" + "-a" * 2_047]),  # cut at 4,096 characters
        (", ".join(["en"] * 10_000), ["en"] * 32),
        (",".join(f"en-{i}" for i in range(10_000)), [f"en-{i}" for i in range(32)]),
    ],
)
def test_a_long_header_is_read_only_in_part(header: str, expected: list[str]) -> None:
    """A header of a million characters, or ten thousand members: at most 32 ranges come back,
    read from the first 4,096 characters only."""
    ranges = language_ranges(header)
    assert len(ranges) <= MAX_MEMBERS
    assert ranges == expected


def test_only_the_first_members_are_read() -> None:
    assert MAX_MEMBERS == 32
    assert language_ranges(",".join(f"en-{i}" for i in range(10_000))) == [f"en-{i}" for i in range(32)]
    # the 33rd list element is never read, however good
    assert language_ranges("ja," * 32 + "fr") == ["ja"] * 32
    assert language_ranges("," * 32 + "fr") == []
    assert language_ranges("ja," * 31 + "fr") == ["ja"] * 31 + ["fr"]


def test_only_the_first_characters_are_read() -> None:
    assert MAX_HEADER_LENGTH == 4096
    assert language_ranges(" " * (MAX_HEADER_LENGTH - 2) + "fr") == ["fr"]
    assert language_ranges(" " * (MAX_HEADER_LENGTH - 1) + "fr") == ["f"]
    assert language_ranges(" " * MAX_HEADER_LENGTH + "fr") == []


# The service's five languages


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("es-ES,es;q=0.9,en;q=0.8", "es"),
        ("pt-BR", "pt"),
        ("de-CH", "de"),
        ("ja, fr;q=0.5", "fr"),
        ("en;q=0.1, es", "es"),  # quality values decide, not the order
        ("es;q=0, fr", "fr"),
        ("es;q=0.000, fr;q=0.001", "fr"),
        ("*", "en"),
        ("*, pt", "pt"),
        ("", "en"),
        (";;;,,q=abc", "en"),
        ("fr;q=1.0001", "en"),
        ("fr;q=1.0001, de;q=0.1", "de"),
        ("fr;q=0.5000, de;q=0.1", "de"),
        ("fr;level=1, de;q=0.1", "de"),
        ("x-klingon", "en"),
        ("x-klingon, pt;q=0.2", "pt"),
        ("i-klingon", "en"),
        ("ES-mx", "es"),
        ("FR;Q=0.3, De-AT;q=0.2", "fr"),
        ("fr;q=0.5, de;q=0.5", "fr"),
        ("de;q=0.5, fr;q=0.5", "de"),
        ("ja, zh-Hant-TW;q=0.9, ko;q=0.8", "en"),
        ("es_ES, pt", "pt"),
        ("sv, es-419;q=0.7, fr-CA;q=0.7", "es"),
        ("pt" + "-a" * 2_047, "pt"),
        ("ja-" + "abcdefgh-" * 454 + "de", "en"),
    ],
)
def test_the_service_languages_from_the_header(header: str, expected: str) -> None:
    assert negotiate(None, header, OFFERED, DEFAULT) == (expected, True)


@pytest.mark.parametrize(
    ("lang", "header", "expected"),
    [
        # lang names the language, and the header is not read: the answer does not vary on it
        ("fr", "de", ("fr", False)),
        ("pt-BR", "es;q=0.9", ("pt", False)),
        ("ES-mx", None, ("es", False)),
        ("ja", "de", ("en", False)),
        ("*", "de", ("en", False)),
        ("", "de", ("en", False)),
        # the header alone chooses, and varies, even when nothing in it matches
        (None, "de", ("de", True)),
        (None, "ja", ("en", True)),
        (None, "", ("en", True)),
        (None, "!!!", ("en", True)),
        # neither: the default, which varies on nothing
        (None, None, ("en", False)),
    ],
)
def test_negotiate(lang: str | None, header: str | None, expected: tuple[str, bool]) -> None:
    assert negotiate(lang, header, OFFERED, DEFAULT) == expected


def test_negotiate_answers_the_default_as_given() -> None:
    assert negotiate(None, None, OFFERED, "pt") == ("pt", False)
    assert negotiate(None, "ja", OFFERED, "pt") == ("pt", True)
    assert negotiate("ja", None, OFFERED, "pt") == ("pt", False)
    assert negotiate(None, "EN", ("EN-us", "En"), "x") == ("En", True)


# RFC 5646 §2.1: well-formed language tags


@pytest.mark.parametrize(
    "tag",
    [
        "en",
        "es-419",
        "zh-Hant-CN",
        "sr-Latn-RS",
        "de-CH-1901",
        "en-US-x-twain",
        "x-whatever",
        "i-klingon",
        "en-GB-oed",
        "sgn-BE-FR",
        "qaa-Qaaa-QM-x-southern",
        "zh-cmn-Hans-CN",
        "zh-yue-HK",
        "zh-min-nan",
        "art-lojban",
        "i-default",
        "de-CH-x-phonebk",
        "az-Arab-x-AZE-derbend",
        "sl-rozaj-biske",
        "hy-Latn-IT-arevela",
        "de-DE-u-co-phonebk",
        "en-US-u-islamcal",
        "zh-CN-a-myext-x-private",
        "en-a-myext-b-another",
        "en-Latn-GB-boont-r-extended-sequence-x-private",
        "x-a",
        "abcd",
        "abcdefgh",
        # case does not matter
        "EN-us",
        "ZH-hANT-cn",
        "I-KLINGON",
        "X-WHATEVER",
        "EN-gb-OED",
        # by the ABNF, a 5 to 8 letter language and a 5 to 8 character variant: well-formed,
        # though neither subtag is registered
        "english-language",
        # a repeated singleton (as a repeated variant) makes a tag invalid (RFC 5646 §2.2.9),
        # not ill-formed: the ABNF of §2.1 allows it
        "ar-a-aaa-b-bbb-a-ccc",
        "de-1901-1901",
    ],
)
def test_well_formed(tag: str) -> None:
    assert well_formed(tag)


@pytest.mark.parametrize(
    "tag",
    [
        "",
        "e",
        "en_US",
        "en-",
        "-en",
        "en--US",
        "123",
        "en-US-",
        "a-DE",
        "en US",
        " en",
        "en\n",
        "x",
        "x-",
        "x-abcdefghi",
        "en-x",
        "en-US-x",
        "en-a",
        "en-a-b",
        "en-a-x-b",
        "abcdefghi",
        "english-languages",
        "en-abcdefghi",
        "de-419-DE",
        "de-CH-DE",
        "zh-cmn-yue-wuu-min",
        "en-Latn-Latn",
        "i-notatag",
        "en-GB-oed-x",
        "*",
        "en-*",
        "\u212aa",  # the Kelvin sign folds to "k", and is still not ASCII
        "en-\u0663\u0664\u0665",  # Arabic-Indic digits are not DIGIT
    ],
)
def test_not_well_formed(tag: str) -> None:
    assert not well_formed(tag)


@pytest.mark.parametrize(
    "tag",
    [
        # RFC 5646 §2.1: irregular
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
        # and regular
        "art-lojban",
        "cel-gaulish",
        "no-bok",
        "no-nyn",
        "zh-guoyu",
        "zh-hakka",
        "zh-min",
        "zh-min-nan",
        "zh-xiang",
    ],
)
def test_every_grandfathered_tag_is_well_formed(tag: str) -> None:
    assert well_formed(tag)
    assert well_formed(tag.upper())
    assert not well_formed(tag + "-")


def test_a_tag_is_at_most_64_characters() -> None:
    """Well-formed tags of valid subtags, one of the longest accepted and one too long."""
    assert MAX_TAG_LENGTH == 64
    longest = "en-x-b" + "-a" * 29
    too_long = "en-x-bb" + "-a" * 29
    assert (len(longest), len(too_long)) == (64, 65)
    assert well_formed(longest)
    assert not well_formed(too_long)
    assert well_formed(too_long[:-2])
    assert not well_formed("en-" + "-".join(["abcdefgh"] * 7))
