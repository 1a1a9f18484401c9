"""Difficulty levels: what each preset stands for, the levels played by the one engine (:func:`choose`
over :meth:`Values.ranked`) against the independent oracles, the ordering a calibration run must
show, the rating fit, and ``make calibrate`` reproducing ``docs/levels.md`` and ``docs/levels.png``."""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from scripts import calibrate
from scripts.calibrate import PLAYERS, Results, Tally
from service.game import STANDARD, VARIANTS, Options, Values, Variant, choose, levels
from service.game.exact import RankedMove
from service.game.levels import LADDERS, Level, Preset
from service.game.levels import STANDARD_LADDER as S
from service.game.tables import table
from service.game.variants import O_MARK, X_MARK, State
from tests.support import ROOT, oracle
from tests.support import coach_oracle as co
from tests.support.variant_oracle import VARIANTS as ORACLES

#: The standard game's calibrated ratings, and perfect play's.
RATINGS = S.ratings or {}
TOP = RATINGS["perfect"]

#: The small variants other than the standard game, whose every position the variant oracle walks.
SMALL = ("misere", "wild", "notakto")


@cache
def shipped(variant_id: str) -> Values:
    """The values the service gives: the variant's shipped table."""
    return Values(VARIANTS[variant_id], table(variant_id))


def state_of(cells: tuple[int, ...], side: int) -> State:
    """The engine's state of an oracle's board (``1`` X, ``-1`` O) with ``side`` to move."""
    x = sum(1 << i for i, mark in enumerate(cells) if mark == 1)
    o = sum(1 << i for i, mark in enumerate(cells) if mark == -1)
    return State(x, o, X_MARK if side == 1 else O_MARK)


def variant_state(variant: Variant, cells: str, mover: str) -> State:
    """The engine's state of the variant oracle's board string and side to move."""
    x = sum(1 << i for i, symbol in enumerate(cells) if symbol == "X")
    o = sum(1 << i for i, symbol in enumerate(cells) if symbol == "O")
    return State(x, o, {"X": X_MARK, "O": O_MARK, "first": 0, "second": 1}[mover])


def played(values: Values, state: State, options: Options) -> RankedMove:
    """The move a player of ``options`` makes: the one engine's choice among the ranked moves."""
    return choose(values.ranked(state), options, lambda depth: values.within(state, depth))


def standard_positions() -> list[tuple[tuple[int, ...], int]]:
    """Every unfinished position of the standard game, by the oracle: 9,040 (board, side to move)."""
    cases = [(cells, side) for cells, sides in oracle.reachable().items() for side in sides]
    assert len(cases) == 9040
    return cases


def test_every_level_has_a_preset_and_they_are_listed_weakest_first() -> None:
    assert list(S.presets) == list(Level)
    assert [level.value for level in Level] == ["beginner", "easy", "medium", "hard", "perfect"]
    assert S.options(Level.MEDIUM, seed=7) == Options(skill=1.0, depth=2, seed=7)
    assert not S.options(Level.BEGINNER).deterministic
    # the presets, as the oracle reads docs/levels.md
    assert [(level.value, preset.depth, preset.skill) for level, preset in S.presets.items()] == [
        (name, depth, float(skill)) for name, depth, skill in co.STRENGTHS[1:]
    ]
    # every variant has a ladder, in the registry's order; its perfect play sees the whole game
    assert list(LADDERS) == list(VARIANTS)
    for variant in VARIANTS.values():
        ladder = LADDERS[variant.id]
        assert list(ladder.presets) == list(Level)
        assert ladder.presets[Level.PERFECT] == Preset(variant.cells, 1.0)
        assert ladder.options(Level.PERFECT, 3) == Options(skill=1.0, depth=variant.cells, seed=3)
        assert all(1 <= preset.depth <= variant.cells for preset in ladder.presets.values())


@pytest.mark.parametrize("solved", ["shipped", "from scratch"])
def test_the_perfect_level_plays_an_optimal_move_on_every_position(solved: str) -> None:
    """Every unfinished position of the standard game, two seeds each: the move is one the oracle's
    minimax finds optimal, on the shipped table and on values solved from scratch."""
    values = shipped("standard") if solved == "shipped" else Values(STANDARD)
    for cells, side in standard_positions():
        state = state_of(cells, side)
        optimal = oracle.optimal_moves(cells, side)
        for seed in (0, 1):
            assert played(values, state, S.options(Level.PERFECT, seed)).cell in optimal, (cells, side)


@pytest.mark.parametrize("level", [Level.MEDIUM, Level.HARD])
def test_a_level_of_full_skill_plays_a_move_best_within_its_horizon_on_every_position(level: Level) -> None:
    """Every unfinished position of the standard game, two seeds each: the move is one the oracle's own
    depth-limited minimax finds best within the level's depth."""
    values = shipped("standard")
    depth = S.presets[level].depth
    assert S.presets[level].skill == 1.0
    for cells, side in standard_positions():
        state = state_of(cells, side)
        best = co.horizon_best(cells, side, depth)
        for seed in (0, 1):
            assert played(values, state, S.options(level, seed)).cell in best, (cells, side, depth)


@pytest.mark.parametrize("variant_id", SMALL)
def test_the_perfect_level_plays_an_optimal_move_in_every_small_variant(variant_id: str) -> None:
    """Every position a game of the variant reaches, two seeds each: the move keeps the value that the
    variant oracle's negamax gives the position, with the depth of the variant's whole game."""
    variant, rules = VARIANTS[variant_id], ORACLES[variant_id]
    values = shipped(variant_id)
    checked = 0
    for first in ("X", "O") if variant.marks == "own" else ("first",):
        for cells, mover in rules.reachable(first):
            state = variant_state(variant, cells, mover)
            best = rules.value(cells, mover)
            for seed in (0, 1):
                move = played(values, state, LADDERS[variant_id].options(Level.PERFECT, seed))
                after, ended = rules.after(cells, (move.cell, "XO"[move.mark]))
                value = (ended, 1) if ended is not None else _negated(rules.value(after, rules.other(mover)))
                assert value == best, (cells, mover, move)
            checked += 1
    assert checked == {"misere": 9040, "wild": 11093, "notakto": 230}[variant_id]


def _negated(value: tuple[int, int]) -> tuple[int, int]:
    """The value of a move for its side from the value of the position it leaves for the other side."""
    return -value[0], value[1] + 1


def test_the_perfect_level_varies_among_optimal_moves() -> None:
    """On the empty board every cell draws; perfect play draws among all nine."""
    values = shipped("standard")
    start = STANDARD.start()
    cells = Counter(played(values, start, S.options(Level.PERFECT, seed)).cell for seed in range(200))
    assert set(cells) == set(range(9))


def test_the_levels_are_ordered_on_a_smaller_seeded_run() -> None:
    """2,000 games per pairing on a seed other than the documents': every check of the ordering
    holds by at least ``Z_MIN`` standard errors (see ``scripts/calibrate.py``), so a different seed
    or a little noise does not flip a verdict."""
    results = calibrate.round_robin(games=2000, seed=1)
    made = calibrate.checks(results)
    assert len(made) == 15
    failed = [(check.claim, round(check.z, 1)) for check in made if not check.passed]
    assert not failed
    assert all(results[Level.PERFECT.value, opponent].losses == 0 for opponent in PLAYERS)
    typed = calibrate.typed_checks(results, calibrate.fit_ratings(results))
    assert [check.asked for check in typed] == list(calibrate.TYPED)
    assert all(check.passed for check in typed), [(check.asked, round(check.rating.elo)) for check in typed]


def _tallies_expected_from(elo: dict[str, float], games: int) -> Results:
    """A round robin whose scores are exactly what the ratings ``elo`` predict (draws as halves)."""
    tallies: dict[tuple[str, str], Tally] = {}
    for player, opponent in calibrate.pairings():
        expected = 1 / (1 + 10 ** ((elo[opponent] - elo[player]) / 400))
        points = round(expected * games * 2)  # in half points: wins count 2, draws 1
        wins, draws = divmod(points, 2)
        tally = Tally(player, opponent, wins, draws, games - wins - draws)
        tallies[player, opponent] = tally
        tallies[opponent, player] = tally.reversed()
    return Results(games, 0, tallies)


def test_the_rating_fit_recovers_known_ratings() -> None:
    truth = dict(zip(PLAYERS, (0.0, 80.0, 170.0, 300.0, 390.0, 500.0), strict=True))
    ratings = calibrate.fit_ratings(_tallies_expected_from(truth, 100_000))
    for rating in ratings:
        assert rating.elo == pytest.approx(truth[rating.player], abs=0.5)
        assert (rating.margin == 0) == (rating.player == calibrate.RANDOM)
        assert math.isfinite(rating.margin)


def test_a_typed_rating_fit_recovers_a_known_rating() -> None:
    truth = dict(zip(PLAYERS, (0.0, 80.0, 170.0, 300.0, 390.0, 500.0), strict=True))
    games = 100_000
    tallies = dict(_tallies_expected_from(truth, games).tallies)
    typed = calibrate.RATED[2]
    for opponent, elo in truth.items():
        expected = 1 / (1 + 10 ** ((elo - 262.0) / 400))
        wins, draws = divmod(round(expected * games * 2), 2)
        tallies[typed, opponent] = Tally(typed, opponent, wins, draws, games - wins - draws)
    results = Results(games, 0, tallies)
    ratings = [calibrate.Rating(player, elo, 0.0) for player, elo in truth.items()]
    measured = calibrate.fit_typed(results, ratings, typed)
    assert measured.elo == pytest.approx(262.0, abs=0.5)
    assert 0 < measured.margin < 5
    assert calibrate.TypedCheck(measured).difference == pytest.approx(262.0 - 250, abs=0.5)
    assert calibrate.TypedCheck(measured).passed
    far = calibrate.TypedCheck(calibrate.Rating(typed, 250 + calibrate.TYPED_TOLERANCE + 1, 1.0))
    assert not far.passed


def test_the_services_ratings_are_the_fits() -> None:
    ratings = [calibrate.Rating(name, float(rating), 0.0) for name, rating in (S.ratings or {}).items()]
    assert calibrate.stale_ratings(ratings) == []
    moved = [calibrate.Rating(r.player, r.elo + (1 if r.player == "easy" else 0), 0.0) for r in ratings]
    assert calibrate.stale_ratings(moved) == ["easy"]


def test_make_calibrate_writes_the_committed_documents_byte_for_byte(tmp_path: Path) -> None:
    """The standard game's part of ``docs/levels.md``, and ``docs/levels.png``; the variants' sections
    follow it (see the tests below)."""
    assert calibrate.main(["--variants", "--output", str(tmp_path)]) == 0
    written = (tmp_path / "levels.md").read_text(encoding="utf-8")
    committed = (ROOT / "docs" / "levels.md").read_text(encoding="utf-8")
    assert committed.startswith(written + "\n## The variants\n"), (
        "docs/levels.md is not what make calibrate writes: run make calibrate"
    )
    assert (tmp_path / "levels.png").read_bytes() == (ROOT / "docs" / "levels.png").read_bytes(), (
        "docs/levels.png is not what make calibrate writes: run make calibrate"
    )


def _sections() -> dict[str, str]:
    """The variants' sections of ``docs/levels.md``, by the variant's id."""
    committed = (ROOT / "docs" / "levels.md").read_text(encoding="utf-8")
    parts = committed.split("\n## ")[1:]
    found = {}
    for part in parts:
        heading = part.splitlines()[0]
        if heading.endswith("`)"):
            found[heading[heading.rindex("(`") + 2 : -2]] = "## " + part
    return found


def test_every_variant_has_a_section_and_the_calibrated_ones_are_those_of_levels_calibrated() -> None:
    sections = _sections()
    assert list(sections) == list(calibrate.VARIANT_IDS)
    committed = (ROOT / "docs" / "levels.md").read_text(encoding="utf-8")
    calibrated_ones = [variant for variant, ladder in LADDERS.items() if ladder.ratings is not None]
    listed = [f"`{variant}`" for variant in calibrated_ones if variant != "standard"]
    assert f"\nCalibrated: {', '.join(listed) or 'none'}.\n" in committed
    for variant, section in sections.items():
        calibrated = "\n**Calibrated:** every check passes" in section
        assert calibrated != ("\n**Not calibrated:**" in section)
        assert ("FAILED" not in section) == calibrated, variant
        assert (variant in calibrated_ones) == calibrated, variant


def test_the_calibrated_variants_ratings_are_those_of_their_sections() -> None:
    """Like the standard game's ratings, a calibrated variant's in ``levels.LADDERS`` are the ones
    its table in ``docs/levels.md`` gives, rounded; each rises from player to player. So are the
    presets of every variant, calibrated or not."""
    sections = _sections()
    for variant, ladder in LADDERS.items():
        if variant == "standard":
            continue
        start = sections[variant].index("| level | depth")
        rows = sections[variant][start:].split("\n\n")[0].splitlines()[2:]
        presets = {
            row.split("|")[1].strip().strip("`"): (row.split("|")[2], row.split("|")[3]) for row in rows
        }
        assert presets.pop("random") == (" – ", " 0 ")
        assert {name: (int(depth), float(skill)) for name, (depth, skill) in presets.items()} == {
            level.value: (preset.depth, preset.skill) for level, preset in ladder.presets.items()
        }, variant
        ratings = ladder.ratings
        if ratings is None:
            continue
        start = sections[variant].index("| level | depth")
        rows = sections[variant][start:].split("\n\n")[0].splitlines()[2:]
        shown = {row.split("|")[1].strip().strip("`"): row.split("|")[4].strip() for row in rows}
        assert shown.pop("random") == "0 (anchor)"
        assert {name: int(text.split(" ± ")[0]) for name, text in shown.items()} == {
            name: rating for name, rating in ratings.items() if name != "random"
        }, variant
        assert ratings["random"] == 0 and calibrate.increasing(ratings)


def _timeless(section: str) -> str:
    """A variant's section without its search's wall time, the one figure a rerun changes."""
    return re.sub(r"^[\d,]+ s of wall time\.$", "… s of wall time.", section, flags=re.MULTILINE)


def test_a_variants_section_is_what_its_search_writes() -> None:
    """Notakto's search, the quickest, run again: its section of ``docs/levels.md`` byte for byte but
    for the wall time, and ``levels.LADDERS`` in step with it."""
    attempts = calibrate.search("notakto", calibrate.GAMES_OF["notakto"])
    assert _timeless(calibrate.variant_markdown(attempts)) == _timeless(_sections()["notakto"])
    assert calibrate.stale(calibrate.chosen(attempts).verdict, default=True) == []


# --- the search of a variant's ladder ------------------------------------------------------------

#: Hand-made candidates for Notakto: the standard game's presets, which fail there; a ladder that
#: passes every check at :data:`SEARCH_GAMES` games per pairing; one that must never be played.
NOTAKTO_CANDIDATES = (
    calibrate.standard_read_in(9),
    calibrate.ladder_of(9, (6, 0.2), (6, 0.4), (6, 0.6), (6, 0.8)),
    calibrate.ladder_of(9, (6, 0.25), (6, 0.5), (6, 0.75), (6, 0.95)),
)
SEARCH_GAMES = 2000


@cache
def notakto_search() -> tuple[calibrate.Attempt, ...]:
    return tuple(calibrate.search("notakto", SEARCH_GAMES, candidates=NOTAKTO_CANDIDATES))


def test_every_variant_has_candidates_the_standard_presets_first() -> None:
    assert list(calibrate.CANDIDATES) == list(calibrate.VARIANT_IDS)
    for variant, candidates in calibrate.CANDIDATES.items():
        cells = VARIANTS[variant].cells
        assert len(candidates) >= 2, variant
        assert dict(candidates[0]) == {
            level: Preset(cells if level is Level.PERFECT else preset.depth, preset.skill)
            for level, preset in S.presets.items()
        }
        for presets in candidates:
            assert list(presets) == list(Level)
            assert presets[Level.PERFECT] == Preset(cells, 1.0)
            assert all(1 <= preset.depth <= cells and 0 <= preset.skill <= 1 for preset in presets.values())
    assert calibrate.CANDIDATES["misere"][1] == calibrate.ladder_of(9, (3, 0.3), (4, 0.6), (5, 0.8), (7, 0.9))


def test_the_search_stops_at_the_first_calibrated_candidate_and_documents_every_one_tried(
    tmp_path: Path,
) -> None:
    attempts = notakto_search()
    assert [dict(attempt.presets) for attempt in attempts] == [dict(c) for c in NOTAKTO_CANDIDATES[:2]]
    first, second = attempts
    assert calibrate.chosen(attempts) is second
    assert second.verdict.calibrated and second.verdict.results.presets == NOTAKTO_CANDIDATES[1]
    assert len(second.verdict.typed) == 5 and all(check.passed for check in second.verdict.typed)
    assert all(attempt.seconds > 0 for attempt in attempts)
    # the first fails an ordering check, so its typed ratings were not played
    assert not first.verdict.calibrated
    assert first.verdict.results.typed == () and first.verdict.results.typed_skipped
    assert first.verdict.failures[-1] == "the typed ratings were not played, because an ordering check failed"
    ordering = [check.claim for check in first.verdict.made if not check.passed]
    assert ordering and first.verdict.failures[:-1] == ordering

    section = calibrate.variant_markdown(attempts)
    assert "\n**Calibrated:** every check passes, so `rating` applies in `notakto`" in section
    assert "FAILED" not in section
    search = section[section.index("### `notakto`: the search") : section.index("### `notakto`: the levels")]
    rows = [line for line in search.splitlines() if line.startswith("| 1 |") or line.startswith("| 2 |")]
    assert rows == [
        f"| 1 | 2/0.3 | 2/0.6 | 2/1 | 4/1 | {len(first.verdict.failures)} | "
        f"{calibrate._lowest_z(first.verdict)} | failed |",
        f"| 2 | 6/0.2 | 6/0.4 | 6/0.6 | 6/0.8 | 0 | {calibrate._lowest_z(second.verdict)} | chosen |",
    ]
    assert "| 3 |" not in search
    assert "- candidate 1 (2/0.3, 2/0.6, 2/1, 4/1): " + first.verdict.failures[0] in search
    assert "- candidate 2" not in search
    summary = " ".join(search.split())
    assert (
        "The search tried 2 candidates at 2,000 games per pairing and chose candidate 2: `beginner` 6/0.2, "
        "`easy` 6/0.4, `medium` 6/0.6, `hard` 6/0.8, `perfect` 9/1; it took, every candidate's round robin "
        "included," in summary
    )
    seconds = sum(attempt.seconds for attempt in attempts)
    assert search.rstrip().endswith(f"included,\n{seconds:,.0f} s of wall time.")
    assert "standard game's presets" not in section.split("###")[0]
    # the levels table is the chosen candidate's, as the oracle reads it
    table = section[section.index("### `notakto`: the levels") :].split("\n\n")[1].splitlines()[2:]
    assert [row.split("|")[2:4] for row in table][1:] == [
        [" 6 ", " 0.2 "],
        [" 6 ", " 0.4 "],
        [" 6 ", " 0.6 "],
        [" 6 ", " 0.8 "],
        [" 9 ", " 1 "],
    ]

    introduction = calibrate.variants_introduction([attempts])
    perfect = next(rating for rating in second.verdict.ratings if rating.player == "perfect")
    assert f"| `notakto` | 6/0.2, 6/0.4, 6/0.6, 6/0.8 | {calibrate._shown(perfect)} | 2 |" in introduction
    assert "![Every variant's ladder](levels-variants.png)" in introduction
    assert "\nCalibrated: `notakto`.\n" in introduction

    # the figure of every variant's ladder: the same bytes every time
    calibrate.plot_variants([first.verdict, second.verdict], tmp_path / "a.png")
    calibrate.plot_variants([first.verdict, second.verdict], tmp_path / "b.png")
    assert (tmp_path / "a.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (tmp_path / "a.png").read_bytes() == (tmp_path / "b.png").read_bytes()


def test_the_chosen_attempt_is_the_last_tried_when_none_passes() -> None:
    bad = calibrate.ladder_of(9, (2, 0.5), (2, 0.5), (2, 0.5), (2, 0.5))
    attempts = calibrate.search("notakto", 200, candidates=(bad, NOTAKTO_CANDIDATES[0]))
    assert len(attempts) == 2 and not any(attempt.verdict.calibrated for attempt in attempts)
    assert calibrate.chosen(attempts) is attempts[-1]
    section = calibrate.variant_markdown(attempts)
    assert "\n**Not calibrated:**" in section and "**Calibrated:**" not in section
    assert "| 2 | 2/0.3 | 2/0.6 | 2/1 | 4/1 |" in section and section.count("| chosen |") == 1
    assert "found none that passes; the levels below are the last tried, candidate 2" in " ".join(
        section.split()
    )
    # the chosen attempt's failures are the verdict's, above the search; the others' are listed in it
    assert "- candidate 1 (2/0.5, 2/0.5, 2/0.5, 2/0.5): " in section and "- candidate 2 (" not in section
    assert "(none passes)" in calibrate.variants_introduction([attempts])
    assert "\nCalibrated: none.\n" in calibrate.variants_introduction([attempts])


def test_stale_names_what_levels_must_hold_of_the_chosen_ladder(monkeypatch: pytest.MonkeyPatch) -> None:
    first, second = notakto_search()
    found = second.verdict
    scale = found.scale
    written = (
        "_ladder(9, (6, 0.2), (6, 0.4), (6, 0.6), (6, 0.8), ratings="
        + str(tuple(scale[name] for name in PLAYERS))
        + ")"
    )
    assert calibrate.python_ladder(found) == written
    where = "service.game.levels.LADDERS['notakto']"

    monkeypatch.setitem(LADDERS, "notakto", levels.Ladder(found.results.presets, scale))
    assert calibrate.stale(found, default=True) == []
    # other presets: named, with what to write
    monkeypatch.setitem(LADDERS, "notakto", levels.Ladder(NOTAKTO_CANDIDATES[2], scale))
    assert calibrate.stale(found, default=True) == [
        f"{where}.presets are not the chosen ones: write {written}"
    ]
    assert calibrate.stale(found, default=False) == []  # only the default run's figures count
    # no ratings, or one rating off
    monkeypatch.setitem(LADDERS, "notakto", levels.Ladder(found.results.presets))
    assert calibrate.stale(found, default=True) == [
        f"notakto is calibrated, but {where}.ratings is None: write {written}"
    ]
    off = scale | {"hard": scale["hard"] + 1}
    monkeypatch.setitem(LADDERS, "notakto", levels.Ladder(found.results.presets, off))
    assert calibrate.stale(found, default=True) == [
        f"{where}.ratings['hard'] is not the fit's rating: update it to {scale['hard']}"
    ]
    # a chosen attempt that is not calibrated has no ratings in LADDERS
    monkeypatch.setitem(LADDERS, "notakto", levels.Ladder(first.presets, scale))
    assert calibrate.stale(first.verdict, default=True) == [
        f"{where}.ratings is there, but notakto is not calibrated: remove it"
    ]
    monkeypatch.setitem(LADDERS, "notakto", levels.Ladder(first.presets))
    assert calibrate.stale(first.verdict, default=True) == []


def test_the_readme_shows_the_calibrated_table() -> None:
    levels = (ROOT / "docs" / "levels.md").read_text(encoding="utf-8")
    start = levels.index("| level | depth")
    table = levels[start : levels.index("\n\n", start)]
    assert table in (ROOT / "README.md").read_text(encoding="utf-8"), "README's table of levels is stale"


# --- typed ratings -----------------------------------------------------------------------------


def test_a_rating_blends_the_two_calibrated_players_around_it() -> None:
    assert S.blend(0) == levels.Blend("random", "beginner", 0.0)
    assert S.blend(TOP) == levels.Blend("hard", "perfect", 1.0)
    names = [name for name, _, _ in S.strengths]
    for lower, upper in itertools.pairwise(names):
        low, high = RATINGS[lower], RATINGS[upper]
        if lower != "random":  # a calibrated rating is its player's, at the bottom of the next span
            assert S.blend(low) == levels.Blend(lower, upper, 0.0)
        middle = S.blend((low + high) / 2)
        assert (middle.lower, middle.upper) == (lower, upper)
        assert middle.weight == pytest.approx(0.5)
    assert S.blend(250)[:2] == ("easy", "medium")
    assert S.blend(250).weight == pytest.approx((250 - 181) / (316 - 181))
    for wrong in (-1, -0.001, TOP + 0.001, 10_000):
        with pytest.raises(ValueError, match="rating"):
            S.blend(wrong)


def test_a_rated_opponent_plays_each_move_as_one_of_its_two_players_in_proportion() -> None:
    strengths = {name: (depth, float(skill)) for name, depth, skill in S.strengths}
    draws = 4000
    for rating in (50, 150, 250, 350, 450):
        mix = S.blend(rating)
        lower, upper = strengths[mix.lower], strengths[mix.upper]
        played: Counter[tuple[int | None, float]] = Counter()
        for seed in range(draws):
            options = S.rated(rating, seed)
            assert options == S.rated(rating, seed)  # reproducible with the seed
            played[(options.depth, options.skill)] += 1
        assert set(played) <= {lower, upper}
        share = played[upper] / draws
        spread = math.sqrt(mix.weight * (1 - mix.weight) / draws)
        assert abs(share - mix.weight) < 5 * spread, (rating, share, mix.weight)
    # at a calibrated rating, the player itself
    assert {S.rated(RATINGS["medium"], seed).depth for seed in range(50)} == {2}
    assert all(S.rated(RATINGS["medium"], seed).skill == 1.0 for seed in range(50))
    assert all(S.rated(0, seed).skill == 0.0 for seed in range(50))


def test_a_rating_in_a_variant_blends_on_that_variants_scale() -> None:
    scale = {"random": 0, "beginner": 100, "easy": 200, "medium": 300, "hard": 600, "perfect": 1000}
    presets = {level: Preset(27 if level is Level.PERFECT else 2, 1.0) for level in Level}
    ladder = levels.Ladder(presets, scale)
    assert ladder.blend(800) == levels.Blend("hard", "perfect", 0.5)
    assert ladder.blend(150) == levels.Blend("beginner", "easy", 0.5)
    assert ladder.rating_max == 1000
    with pytest.raises(ValueError, match="from 0 to 1000"):
        ladder.blend(1001)
    with pytest.raises(ValueError, match="increase"):
        levels.Ladder(presets, scale | {"hard": 300})
    with pytest.raises(ValueError, match="not calibrated"):
        levels.Ladder(presets).blend(50)
    # each player plays with its own preset of the ladder
    assert {ladder.rated(1000, seed).depth for seed in range(20)} == {27}
    assert {ladder.rated(300, seed).depth for seed in range(20)} == {2}
    assert S.rated(450, 7) == levels.Ladder(S.presets, S.ratings).rated(450, 7)


def test_a_rated_opponent_without_a_seed_varies() -> None:
    values = shipped("standard")
    start = STANDARD.start()
    assert len({played(values, start, S.rated(450)).cell for _ in range(200)}) > 1
