"""``make calibrate``: the difficulty levels measured by play, and ``docs/levels.md`` and ``docs/levels.png``.

Six players meet in a round robin: a uniformly random player, and the five
levels of :mod:`service.game.levels` (``"perfect"`` is also the perfect player
every level is measured against). Every pairing plays ``--games`` games, each
side moving first in half of them; perfect play also meets itself. Every move is
drawn with a seed from a stream of the pairing's own (seeded by ``--seed`` and
the two names), so a rerun writes the same files byte for byte.

Five opponents of a typed rating (:data:`TYPED`, played as :func:`service.game.levels.rated`
plays them) join the round robin: each meets the six calibrated players. Its rating is
measured against them, theirs held at what their own games give, so that the six keep the
ratings the service uses (:data:`service.game.levels.LADDERS`) and each typed rating is
measured on the scale it was asked on; it must come within :data:`TYPED_TOLERANCE` points.

From the round robin come:

* for each pairing, the win, draw and loss rates;
* for each player a rating on the Elo scale, fitted to every game at once
  (Bradley–Terry, a draw counting half a win; maximum likelihood with
  :func:`scipy.optimize.minimize`, the random player anchored at 0), with a
  95 % interval from the Fisher information;
* the checks the presets must pass (:func:`checks`): each level beats the one
  before it head to head (the random player comes before ``"beginner"``), and
  scores more than it against the random player and against perfect play, each
  by a margin of :data:`Z_MIN` standard errors; ``"perfect"`` never loses;
* every typed rating measured within :data:`TYPED_TOLERANCE` of the rating asked, and the
  ratings of :data:`service.game.levels.LADDERS` those the fit gives, rounded.

The variants (:data:`VARIANT_IDS`) come after the standard game, each with presets of its own,
found by a search (:func:`search`): the candidate ladders of :data:`CANDIDATES`, in order of
preference, each play a round robin in the same way as the standard game's (the same players and
seeds, every move chosen from the variant's exact values as the service chooses it,
:func:`service.game.exact.choose`), and the first whose every check passes is chosen. A candidate
that already fails an ordering check does not play its typed ratings. Typed ratings are fractions
of the variant's own perfect-play rating (:func:`typed_for`), played on the variant's own scale. A
variant is calibrated when a candidate passes; its section of ``docs/levels.md`` shows every
candidate tried and what failed, the chosen one's round robin, and the search's wall time; the
chosen presets, and the ratings when calibrated, belong in its entry of
:data:`service.game.levels.LADDERS`. ``docs/levels-variants.png`` shows every variant's ladder.

The command fails (exit status 1) when a check of the standard game fails, so presets that break
the ordering cannot be written into the documents quietly, or when ``LADDERS`` is not what the
run gives: a variant's presets not the chosen ones, a calibrated variant's ratings missing or not
the fit's, or a variant there with ratings that is no longer calibrated.
"""

from __future__ import annotations

import argparse
import functools
import itertools
import math
import random
import statistics
import sys
import textwrap
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from scipy.optimize import minimize
from tqdm import tqdm

from service.answers.books import Book, PuzzleFilter
from service.game import OUTCOMES, Options, choose
from service.game.exact import Values
from service.game.levels import LADDERS, PLAYS_LIKE, STANDARD_LADDER, Ladder, Level, Preset
from service.game.puzzles import COMPLETE_UP_TO, SELECTED, themes_of
from service.game.tables import TABLED, table
from service.game.variants import VARIANTS, Move, State, Variant
from service.game.words import ENGLISH, say
from tests.support import ROOT

RANDOM = "random"
#: Every player, weakest first by design: the random player, then the levels.
PLAYERS: tuple[str, ...] = (RANDOM, *(level.value for level in Level))
PERFECT = Level.PERFECT.value
#: The typed ratings played as opponents in the standard game, and how close their measured ratings
#: must come (in every variant).
TYPED = (50, 150, 250, 350, 450)
TYPED_TOLERANCE = 25
#: Games per pairing of ``make calibrate``; the issue's floor is 2,000.
GAMES = 10_000
SEED = 20261123
#: A check passes when its difference is at least this many standard errors: with 14
#: one-sided comparisons, the chance that any one would pass by luck between two equal
#: players is below 1 % (Bonferroni: the normal quantile of 1 - 0.01 / 14 is 3.19).
Z_MIN = 3.2
#: The Elo scale: a 400-point lead means 10 to 1 odds.
ELO = 400 / math.log(10)

STANDARD = "standard"
#: The variants calibrated after the standard game, in the order of their sections of the document.
VARIANT_IDS: tuple[str, ...] = ("misere", "wild", "notakto", "notakto-2", "notakto-3", "4x4", "4x4-3")
#: Games per pairing in each game of ``make calibrate`` (``--games`` sets one number for all): 10,000
#: where that takes a few minutes at most, fewer in the variants whose games pass through far more
#: positions, each ranked anew (Notakto on three boards: about 2.5 minutes per 1,000 games per
#: pairing; 4 × 4: about 50 seconds).
GAMES_OF: dict[str, int] = {variant: GAMES for variant in (STANDARD, *VARIANT_IDS)} | {
    "notakto-3": 2_000,
    "4x4": 5_000,
}
#: A variant's typed ratings: these fractions of its perfect play's rating, rounded to
#: :data:`TYPED_STEP` (the standard game's :data:`TYPED` are the same fractions rounded to 50).
TYPED_FRACTIONS = (0.1, 0.3, 0.5, 0.7, 0.9)
TYPED_STEP = 10
#: The width of the prose of the variants' sections of ``docs/levels.md``.
WIDTH = 100
#: How many states' ranked moves (and moves best within a horizon) a :class:`Game` keeps.
KEPT = 1 << 18

#: A ladder's presets: one for each level, weakest first.
Presets = Mapping[Level, Preset]


def ladder_of(cells: int, *levels: tuple[int, float]) -> dict[Level, Preset]:
    """The presets of ``levels``, (depth, skill) for ``beginner`` to ``hard``, and perfect play
    seeing all ``cells`` cells."""
    return dict(zip(Level, (*(Preset(*level) for level in levels), Preset(cells, 1.0)), strict=True))


def standard_read_in(cells: int) -> dict[Level, Preset]:
    """The standard game's presets read in a variant of ``cells`` cells."""
    below = [tuple(STANDARD_LADDER.presets[level]) for level in Level if level is not Level.PERFECT]
    return ladder_of(cells, *((int(depth), float(skill)) for depth, skill in below))


def _candidates(variant: str, *ladders: tuple[tuple[int, float], ...]) -> tuple[dict[Level, Preset], ...]:
    cells = VARIANTS[variant].cells
    return (standard_read_in(cells), *(ladder_of(cells, *levels) for levels in ladders))


#: Each variant's candidate ladders, in order of preference: :func:`search` plays them in this order
#: and keeps the first that passes every check. Each gives (depth, skill) for ``beginner`` to
#: ``hard``; ``perfect`` always sees the whole game, skill 1. The order prefers the shortest
#: look-ahead that separates the levels: first the standard game's presets read in the variant
#: (depth 2, ``hard`` 4), then ladders whose weak levels look a little further ahead and whose strong
#: ones look further still. Skill is the lever only where depth alone cannot separate them: in
#: Notakto every shallow player loses to perfect play alike, so there the levels share one depth
#: and rise in skill.
CANDIDATES: dict[str, tuple[Presets, ...]] = {
    "misere": _candidates("misere", ((3, 0.3), (4, 0.6), (5, 0.8), (7, 0.9))),
    "wild": _candidates("wild", ((2, 0.3), (3, 0.5), (5, 0.7), (5, 0.9))),
    "notakto": _candidates("notakto", ((6, 0.2), (6, 0.4), (6, 0.6), (6, 0.8))),
    # placeholder: to be replaced by the ladder the trials find
    "notakto-2": _candidates("notakto-2", ((18, 0.3), (18, 0.5), (18, 0.7), (18, 0.9))),
    # placeholder: to be replaced by the ladder the trials find
    "notakto-3": _candidates("notakto-3", ((27, 0.4), (27, 0.6), (27, 0.75), (27, 0.9))),
    "4x4": _candidates("4x4", ((2, 0.2), (2, 0.4), (2, 0.7), (4, 0.8))),
    "4x4-3": _candidates("4x4-3", ((2, 0.3), (2, 0.7), (3, 0.8), (4, 0.9))),
}


def options(player: str, seed: int, ladder: Ladder) -> Options:
    """How ``player`` chooses a move on ``ladder`` (its variant's levels, with the ratings a typed-rating
    player is played on), with the seed of that move."""
    if player == RANDOM:
        return Options(skill=0.0, seed=seed)
    if player.startswith("rating "):
        return ladder.rated(asked(player), seed)
    return ladder.options(Level(player), seed)


def asked(player: str) -> int:
    """The rating a typed-rating player was asked for."""
    return int(player.removeprefix("rating "))


def rated_players(typed: Sequence[int]) -> tuple[str, ...]:
    """The typed ratings as players' names."""
    return tuple(f"rating {rating}" for rating in typed)


#: The standard game's typed ratings as players' names.
RATED: tuple[str, ...] = rated_players(TYPED)


def typed_for(ratings: Mapping[str, int]) -> tuple[int, ...]:
    """A variant's typed ratings (:data:`TYPED_FRACTIONS`), on its scale ``ratings``."""
    top = ratings[PERFECT]
    found = (min(top, round(top * share / TYPED_STEP) * TYPED_STEP) for share in TYPED_FRACTIONS)
    return tuple(dict.fromkeys(rating for rating in found if rating >= 0))


def increasing(ratings: Mapping[str, int]) -> bool:
    """Whether ``ratings`` rise from the random player to perfect play, as a typed rating needs."""
    return all(ratings[low] < ratings[high] for low, high in itertools.pairwise(PLAYERS))


@dataclass(frozen=True)
class Tally:
    """The games of ``player`` against ``opponent``, from ``player``'s side."""

    player: str
    opponent: str
    wins: int
    draws: int
    losses: int

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """Points per game: 1 for a win, 1/2 for a draw."""
        return (self.wins + self.draws / 2) / self.games

    @property
    def variance(self) -> float:
        """The sample variance of the points of one game."""
        scores = [1.0] * self.wins + [0.5] * self.draws + [0.0] * self.losses
        return statistics.variance(scores)

    def reversed(self) -> Tally:
        return Tally(self.opponent, self.player, self.losses, self.draws, self.wins)

    def rates(self) -> str:
        """Win, draw and loss rates in per cent, as ``W / D / L``."""
        return " / ".join(f"{100 * count / self.games:.1f}" for count in (self.wins, self.draws, self.losses))


def tally_of(player: str, opponent: str, points: Sequence[float]) -> Tally:
    """The tally of ``points`` (1, 1/2 or 0 each) that ``player`` made against ``opponent``."""
    return Tally(player, opponent, points.count(1.0), points.count(0.5), points.count(0.0))


class Game:
    """The moves of one variant, from its exact values (its shipped table, or solved for the standard
    game): each state's ranked moves and the moves best within each horizon, worked out once and
    kept for the :data:`KEPT` states most recently met, for the games of a round robin pass through
    the same early positions again and again, and their late ones seldom."""

    def __init__(self, variant: Variant, ladder: Ladder | None = None) -> None:
        self.variant = variant
        #: The levels played: the variant's own (:data:`~service.game.levels.LADDERS`) unless given.
        self.ladder = LADDERS[variant.id] if ladder is None else ladder
        self.values = Values(variant, table(variant.id) if variant in TABLED else None)
        self.ranked = functools.lru_cache(maxsize=KEPT)(self.values.ranked)
        self.within = functools.lru_cache(maxsize=KEPT)(self.values.within)

    @property
    def start(self) -> tuple[int, int]:
        """The value of the empty board for the first side: ``(score, plies)`` under perfect play."""
        return self.values.value(self.variant.start())

    def chosen(self, state: State, how: Options) -> Move:
        """The move a player choosing with ``how`` makes in an unfinished ``state``."""
        move = choose(self.ranked(state), how, functools.partial(self.within, state))
        return Move(move.cell, move.mark)


def play_game(game: Game, first: str, second: str, rng: random.Random, ladder: Ladder | None = None) -> float:
    """One game, ``first`` moving first (as X where the sides have marks): 1, 1/2 or 0 for ``first``."""
    variant = game.variant
    state = variant.start()
    movers = (first, second)
    while True:
        mover = state.mover
        how = options(movers[mover], rng.getrandbits(64), ladder or game.ladder)
        state, ended = variant.play(state, game.chosen(state, how))
        if ended is not None:
            return (1 + (ended if mover == 0 else -ended)) / 2


def pairing(
    game: Game, player: str, opponent: str, games: int, seed: int, *, ladder: Ladder | None = None
) -> tuple[Tally, Tally, Tally]:
    """``games`` games between two players, ``player`` moving first in the even-numbered ones: the
    tally of them all, of those ``player`` moved first in, and of those it moved second in."""
    rng = random.Random(f"{seed}:{player}:{opponent}")
    points = [
        play_game(game, player, opponent, rng, ladder)
        if number % 2 == 0
        else 1 - play_game(game, opponent, player, rng, ladder)
        for number in range(games)
    ]
    return (
        tally_of(player, opponent, points),
        tally_of(player, opponent, points[0::2]),
        tally_of(player, opponent, points[1::2]),
    )


def pairings() -> list[tuple[str, str]]:
    """Every pair of calibrated players once, and perfect play against itself."""
    pairs = [(a, b) for i, a in enumerate(PLAYERS) for b in PLAYERS[i + 1 :]]
    return [*pairs, (PERFECT, PERFECT)]


def typed_pairings(typed: Sequence[int] = TYPED) -> list[tuple[str, str]]:
    """Every typed-rating player against every calibrated one."""
    return [(player, opponent) for player in rated_players(typed) for opponent in PLAYERS]


def _standard_ratings() -> dict[str, int]:
    return dict(STANDARD_LADDER.ratings or {})


@dataclass(frozen=True)
class Results:
    """A round robin in one variant: a tally for every ordered pair of players that met."""

    games: int
    seed: int
    tallies: dict[tuple[str, str], Tally]
    variant: str = STANDARD
    #: The score of the first side under perfect play from the empty board (0: a draw), and the plies.
    start: tuple[int, int] = (0, 9)
    #: For every ordered pair, the tallies of the games the player moved first in, then second in.
    sides: dict[tuple[str, str], tuple[Tally, Tally]] = field(default_factory=dict)
    #: The typed ratings played, and the scale they were played on (none when the scale does not rise).
    typed: tuple[int, ...] = TYPED
    scale: Mapping[str, int] = field(default_factory=_standard_ratings)
    #: The presets the levels played with.
    presets: Presets = field(default_factory=lambda: dict(STANDARD_LADDER.presets))
    #: Whether the typed ratings were left unplayed because an ordering check had already failed.
    typed_skipped: bool = False

    def __getitem__(self, pair: tuple[str, str]) -> Tally:
        return self.tallies[pair]

    @property
    def rated(self) -> tuple[str, ...]:
        """The typed-rating players."""
        return rated_players(self.typed)


def round_robin(
    games: int = GAMES,
    seed: int = SEED,
    progress: Callable[[Iterable[tuple[str, str]]], Iterable[tuple[str, str]]] = iter,
    *,
    variant: str = STANDARD,
    ladder: Ladder | None = None,
    typed_if_ordered: bool = False,
) -> Results:
    """Every pairing of :func:`pairings` in ``variant``, ``games`` games each, the levels playing
    ``ladder`` (the variant's in :data:`~service.game.levels.LADDERS` by default), then every
    pairing of :func:`typed_pairings`; ``progress`` wraps the pairings.

    The typed ratings are played on the ladder's scale: its ratings, as the service plays them, or
    else the ratings its first pairings give, rounded. The standard game's are :data:`TYPED`, other
    variants' :func:`typed_for` that scale; none are played when the scale does not rise from player
    to player, nor, with ``typed_if_ordered``, when an ordering check of :func:`checks` fails.
    """
    game = Game(VARIANTS[variant], ladder)
    tallies: dict[tuple[str, str], Tally] = {}
    sides: dict[tuple[str, str], tuple[Tally, Tally]] = {}

    def play(pairs: list[tuple[str, str]], ladder: Ladder) -> None:
        for player, opponent in progress(pairs):
            tally, first, second = pairing(game, player, opponent, games, seed, ladder=ladder)
            tallies[player, opponent] = tally
            tallies[opponent, player] = tally.reversed()
            sides[player, opponent] = (first, second)
            sides[opponent, player] = (second.reversed(), first.reversed())

    play(pairings(), game.ladder)
    presets = dict(game.ladder.presets)
    played = Results(games, seed, tallies, variant, game.start, sides, (), {}, presets)
    scale = game.ladder.ratings or {rating.player: round(rating.elo) for rating in fit_ratings(played)}
    skipped = typed_if_ordered and not all(check.passed for check in checks(played))
    typed = () if skipped else TYPED if variant == STANDARD else typed_for(scale) if increasing(scale) else ()
    if typed:
        play(typed_pairings(typed), Ladder(game.ladder.presets, scale))
    return Results(games, seed, tallies, variant, game.start, sides, typed, scale, presets, skipped)


@dataclass(frozen=True)
class Attempt:
    """One candidate ladder of a search: its presets, what its round robin says, and its wall time."""

    presets: Presets
    verdict: Verdict
    seconds: float


def search(
    variant: str,
    games: int,
    seed: int = SEED,
    progress: Callable[[Iterable[tuple[str, str]]], Iterable[tuple[str, str]]] = iter,
    *,
    candidates: Sequence[Presets] | None = None,
) -> list[Attempt]:
    """The round robin of each candidate ladder of ``variant`` (:data:`CANDIDATES`, or ``candidates``)
    in order, ``games`` games per pairing with the same seeds, until one is calibrated: every
    attempt, the last the calibrated one if any is. A candidate that fails an ordering check does not
    play its typed ratings."""
    tried: list[Attempt] = []
    for presets in CANDIDATES[variant] if candidates is None else candidates:
        started = time.monotonic()
        ladder = Ladder(presets)
        found = verdict(
            round_robin(games, seed, progress, variant=variant, ladder=ladder, typed_if_ordered=True)
        )
        tried.append(Attempt(dict(presets), found, time.monotonic() - started))
        if found.calibrated:
            break
    return tried


def chosen(attempts: Sequence[Attempt]) -> Attempt:
    """The attempt a search chooses: the calibrated one, or the last tried when none is."""
    return next((attempt for attempt in attempts if attempt.verdict.calibrated), attempts[-1])


# --- ratings ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rating:
    player: str
    elo: float
    #: Half the width of the 95 % interval (0 for the anchor).
    margin: float


def _negative_log_likelihood(gap: np.ndarray, points: np.ndarray, games: np.ndarray) -> float:
    """Of ``points`` won in ``games`` by players ``gap`` ahead (natural units), in the Bradley–Terry
    model: log p = -log(1 + e^-gap), log (1 - p) = -log(1 + e^gap)."""
    return float(np.sum(points * np.logaddexp(0, -gap) + (games - points) * np.logaddexp(0, gap)))


def fit_ratings(results: Results) -> list[Rating]:
    """Elo-scale Bradley–Terry ratings by maximum likelihood, the random player at 0."""
    index = {player: number for number, player in enumerate(PLAYERS)}
    pairs = [(a, b) for a, b in pairings() if a != b]
    first = np.array([index[a] for a, _ in pairs])
    second = np.array([index[b] for _, b in pairs])
    games = np.array([results[pair].games for pair in pairs], dtype=float)
    points = np.array([results[pair].score for pair in pairs]) * games

    def strengths(free: np.ndarray) -> np.ndarray:
        return np.concatenate(([0.0], free))  # the random player, first, is the anchor

    def negative_log_likelihood(free: np.ndarray) -> float:
        theta = strengths(free)
        return _negative_log_likelihood(theta[first] - theta[second], points, games)

    fitted = minimize(
        negative_log_likelihood, np.zeros(len(PLAYERS) - 1), method="BFGS", options={"gtol": 1e-10}
    )
    theta = strengths(fitted.x)
    # The Fisher information of the free strengths, and the standard errors from its inverse.
    p = 1 / (1 + np.exp(-(theta[first] - theta[second])))
    information = np.zeros((len(PLAYERS), len(PLAYERS)))
    for a, b, weight in zip(first, second, games * p * (1 - p), strict=True):
        information[a, a] += weight
        information[b, b] += weight
        information[a, b] -= weight
        information[b, a] -= weight
    errors = np.sqrt(np.diag(np.linalg.inv(information[1:, 1:])))
    margins = np.concatenate(([0.0], 1.96 * errors))
    return [Rating(player, float(ELO * theta[i]), float(ELO * margins[i])) for player, i in index.items()]


def fit_typed(results: Results, ratings: Sequence[Rating], player: str) -> Rating:
    """The rating of a typed-rating ``player`` from its games against the calibrated players,
    their ratings held fixed; its interval from the Fisher information of that one rating."""
    fixed = np.array([rating.elo / ELO for rating in ratings])
    order = [rating.player for rating in ratings]
    games = np.array([results[player, opponent].games for opponent in order], dtype=float)
    points = np.array([results[player, opponent].score for opponent in order]) * games

    def negative_log_likelihood(free: np.ndarray) -> float:
        return _negative_log_likelihood(free[0] - fixed, points, games)

    start = np.array([asked(player) / ELO])
    theta = float(minimize(negative_log_likelihood, start, method="BFGS", options={"gtol": 1e-10}).x[0])
    p = 1 / (1 + np.exp(-(theta - fixed)))
    margin = 1.96 / math.sqrt(float(np.sum(games * p * (1 - p))))
    return Rating(player, ELO * theta, ELO * margin)


# --- checks -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Check:
    claim: str
    #: The difference in points per game, and how many standard errors it is.
    difference: float
    z: float

    @property
    def passed(self) -> bool:
        return self.z >= Z_MIN


def _z(difference: float, variance: float) -> float:
    if variance == 0:
        return math.inf if difference > 0 else -math.inf if difference < 0 else 0.0
    return difference / math.sqrt(variance)


def checks(results: Results) -> list[Check]:
    """The claims the presets must make true, each with its margin; see the module's docstring."""
    made: list[Check] = []
    n = results.games
    for below, level in itertools.pairwise(PLAYERS):
        head = results[level, below]
        made.append(
            Check(
                f"{level} beats {below} head to head",
                head.score - 0.5,
                _z(head.score - 0.5, head.variance / n),
            )
        )
        for opponent in (RANDOM, PERFECT):
            if opponent == below == RANDOM:
                continue  # the head-to-head check already says it
            mine, theirs = results[level, opponent], results[below, opponent]
            difference = mine.score - theirs.score
            made.append(
                Check(
                    f"{level} scores more than {below} against {opponent}",
                    difference,
                    _z(difference, (mine.variance + theirs.variance) / n),
                )
            )
    made.append(never_loses(results))
    return made


def never_loses(results: Results) -> Check:
    """Perfect play never loses: in a drawn game, ever; in a game that one side wins from the start,
    as that side (the other side loses to perfect play whoever plays it)."""
    score = results.start[0]
    if score == 0:
        losses = sum(results[PERFECT, opponent].losses for opponent in PLAYERS)
        claim = f"{PERFECT} never loses ({losses} losses)"
    else:
        side = 0 if score > 0 else 1
        losses = sum(results.sides[PERFECT, opponent][side].losses for opponent in PLAYERS)
        losses += results.sides[PERFECT, PERFECT][1 - side].wins  # the other perfect player's losses
        name = ("first", "second")[side]
        claim = f"{PERFECT} never loses moving {name}, the side that wins from the start ({losses} losses)"
    return Check(claim, 0.0, math.inf if losses == 0 else -math.inf)


@dataclass(frozen=True)
class TypedCheck:
    """A typed rating: asked, and measured."""

    rating: Rating

    @property
    def asked(self) -> int:
        return asked(self.rating.player)

    @property
    def difference(self) -> float:
        return self.rating.elo - self.asked

    @property
    def passed(self) -> bool:
        return abs(self.difference) <= TYPED_TOLERANCE


def typed_checks(results: Results, ratings: Sequence[Rating]) -> list[TypedCheck]:
    """Each typed rating measured (:func:`fit_typed`), to be within :data:`TYPED_TOLERANCE` of the asked."""
    return [TypedCheck(fit_typed(results, ratings, player)) for player in results.rated]


def stale_ratings(ratings: Sequence[Rating], calibrated: Mapping[str, int] | None = None) -> list[str]:
    """The players whose rating in ``calibrated`` (the standard game's
    :attr:`service.game.levels.STANDARD_LADDER.ratings` by default) is not the fit's, rounded."""
    calibrated = calibrated or STANDARD_LADDER.ratings or {}
    return [rating.player for rating in ratings if calibrated[rating.player] != round(rating.elo)]


def _counts(tally: Tally) -> dict[str, int]:
    return {"win": tally.wins, "draw": tally.draws, "loss": tally.losses}


# --- the documents -------------------------------------------------------------------------------------


def markdown(
    results: Results, ratings: Sequence[Rating], made: Sequence[Check], typed: Sequence[TypedCheck]
) -> str:
    """The standard game's part of ``docs/levels.md``, which the variants' sections follow."""
    by_player = {rating.player: rating for rating in ratings}
    lines = [
        "# Difficulty levels, calibrated",
        "",
        "Written by `make calibrate` (`scripts/calibrate.py`); a rerun writes this file byte for byte.",
        f"Six players meet in a round robin of {results.games:,} games per pairing, each side moving first",
        f"in half of them, seed {results.seed}: a uniformly random player and the five levels. The",
        '`"perfect"` level is the perfect player the others are measured against, and also plays itself.',
        f"Opponents of the typed ratings {', '.join(map(str, TYPED))} meet each of the six as often.",
        "Rates are win / draw / loss in per cent, from the first-named player's side.",
        "",
        "![Outcome rates and ratings per level](levels.png)",
        "",
        "## The levels",
        "",
        "| level | depth | skill | plays like | rating | vs random (W / D / L) | vs perfect (W / D / L) |",
        "|---|---:|---:|---|---:|---:|---:|",
    ]
    for player in PLAYERS:
        rating = by_player[player]
        if player == RANDOM:
            depth, skill, like = "–", "0", "a uniformly random player (not a level)"
        else:
            preset = STANDARD_LADDER.presets[Level(player)]
            depth, skill, like = str(preset.depth), f"{preset.skill:g}", PLAYS_LIKE[Level(player)]
        lines.append(
            f"| `{player}` | {depth} | {skill} | {like} | {_shown(rating)} | "
            f"{_versus_random(results, player)} | {results[player, PERFECT].rates()} |"
        )
    lines += [
        "",
        "Ratings are on the Elo scale (400 points: odds of 10 to 1), with 95 % intervals.",
        "",
        "## Every pairing",
        "",
        *_pairings_table(results),
        "",
        "## The ordering",
        "",
        f"Each difference is in points per game (a win 1, a draw ½) and must be at least {Z_MIN} standard",
        "errors (z): with 14 such comparisons, the chance that any one passes by luck between two equal",
        "players is below 1 %.",
        "",
        *_checks_table(made),
        "",
        "## Typed ratings",
        "",
        "`rating` on a best-move request asks for an opponent of that strength. Each of its moves is",
        "played by one of the two calibrated players whose ratings are around it: the stronger with a",
        "probability that grows linearly from 0 at the weaker's rating to 1 at its own (`weight` below),",
        "drawn with the request's `seed`. Each typed rating is measured from its games against the six",
        "calibrated players, their ratings held at the values above, and must come within",
        f"{TYPED_TOLERANCE} points of the rating asked.",
        "",
        *_typed_tables(results, typed),
        "",
        "## How the ratings are fitted",
        "",
        "A Bradley–Terry model on the Elo scale: the expected points of a player against an opponent are",
        "1 / (1 + 10^((R_opponent − R_player) / 400)), a draw counting half a win. The ratings maximise",
        "the likelihood of every game of every pairing (perfect play against itself tells nothing and is",
        "left out), with `scipy.optimize.minimize`, the random player fixed at 0. The intervals are 1.96",
        "standard errors, from the inverse of the Fisher information. A typed rating is fitted alone, the",
        "same way, from its own games, the six calibrated ratings fixed.",
        "",
    ]
    return "\n".join(lines)


def _shown(rating: Rating) -> str:
    return "0 (anchor)" if rating.player == RANDOM else f"{rating.elo:.0f} ± {rating.margin:.0f}"


def _versus_random(results: Results, player: str) -> str:
    return "–" if player == RANDOM else results[player, RANDOM].rates()


def _pairings_table(results: Results) -> list[str]:
    """Every pairing's rates, a row per player."""
    lines = [
        "Each row's player against each column's opponent: win / draw / loss in per cent.",
        "",
        "| player | " + " | ".join(PLAYERS) + " |",
        "|---|" + "---:|" * len(PLAYERS),
    ]
    for player in PLAYERS:
        cells = [
            results[player, opponent].rates() if (player, opponent) in results.tallies else "–"
            for opponent in PLAYERS
        ]
        lines.append(f"| {player} | " + " | ".join(cells) + " |")
    return lines


def _checks_table(made: Sequence[Check]) -> list[str]:
    lines = ["| check | difference | z | |", "|---|---:|---:|---|"]
    for check in made:
        z = "–" if math.isinf(check.z) else f"{check.z:.1f}"
        difference = "–" if check.claim.startswith(PERFECT + " never") else f"{check.difference:+.3f}"
        lines.append(f"| {check.claim} | {difference} | {z} | {'passed' if check.passed else 'FAILED'} |")
    return lines


def _typed_tables(results: Results, typed: Sequence[TypedCheck]) -> list[str]:
    """Each typed rating asked, how it plays and what it measured, then its games."""
    lines = [
        "| asked | plays as | weight of the stronger | measured | difference | |",
        "|---:|---|---:|---:|---:|---|",
    ]
    for measured in typed:
        mix = Ladder(results.presets, results.scale).blend(measured.asked)
        lines.append(
            f"| {measured.asked} | `{mix.lower}` or `{mix.upper}` | {mix.weight:.2f} | "
            f"{measured.rating.elo:.0f} ± {measured.rating.margin:.0f} | {round(measured.difference):+d} | "
            f"{'passed' if measured.passed else 'FAILED'} |"
        )
    lines += [
        "",
        "Games of each typed rating against each calibrated player: win / draw / loss in per cent.",
        "",
        "| typed rating | " + " | ".join(PLAYERS) + " |",
        "|---|" + "---:|" * len(PLAYERS),
    ]
    for player in results.rated:
        lines.append(f"| {asked(player)} | " + " | ".join(results[player, o].rates() for o in PLAYERS) + " |")
    return lines


@dataclass(frozen=True)
class Verdict:
    """What a variant's round robin says: whether its levels are calibrated, and what failed."""

    results: Results
    ratings: list[Rating]
    made: list[Check]
    typed: list[TypedCheck]

    @property
    def variant(self) -> Variant:
        return VARIANTS[self.results.variant]

    @property
    def failures(self) -> list[str]:
        """Every check that failed, in words."""
        found = [check.claim for check in self.made if not check.passed]
        if self.results.typed_skipped:
            found.append("the typed ratings were not played, because an ordering check failed")
        elif not self.results.typed:
            found.append("the ratings do not rise from player to player, so no typed rating is played")
        found += [
            f"typed rating {check.asked} measured at {check.rating.elo:.0f}, beyond {TYPED_TOLERANCE} points"
            for check in self.typed
            if not check.passed
        ]
        return found

    @property
    def calibrated(self) -> bool:
        return not self.failures

    @property
    def scale(self) -> dict[str, int]:
        """The ratings the fit gives, rounded: the variant's ladder's ratings when calibrated."""
        return {rating.player: round(rating.elo) for rating in self.ratings}


def verdict(results: Results) -> Verdict:
    """The ratings, checks and typed ratings of a round robin."""
    ratings = fit_ratings(results)
    return Verdict(results, ratings, checks(results), typed_checks(results, ratings))


def variant_markdown(attempts: Sequence[Attempt]) -> str:
    """The section of ``docs/levels.md`` of a variant other than the standard game: its search
    (``attempts``), then the round robin of the chosen attempt."""
    found = chosen(attempts).verdict
    results, variant = found.results, found.variant
    lines = [
        f"## {say(ENGLISH, variant.name)} (`{variant.id}`)",
        "",
        *textwrap.wrap(_about(found), WIDTH),
        "",
        *textwrap.wrap(_verdict_sentence(found), WIDTH),
    ]
    if not found.calibrated:
        lines += ["", *(f"- {failure}" for failure in found.failures)]
    lines += [
        "",
        f"### `{variant.id}`: the search",
        "",
        *_search_lines(attempts),
        "",
        f"### `{variant.id}`: the levels",
        "",
        *_levels_table(found),
        "",
        f"### `{variant.id}`: every pairing",
        "",
        *_pairings_table(results),
        "",
        f"### `{variant.id}`: the ordering",
        "",
        *_checks_table(found.made),
    ]
    if results.typed:
        lines += ["", f"### `{variant.id}`: typed ratings", "", *_typed_tables(results, found.typed)]
    lines += ["", f"### `{variant.id}`: the puzzle book", "", *_book_lines(variant), ""]
    return "\n".join(lines)


def _book_lines(variant: Variant) -> list[str]:
    """How the variant's shipped puzzle book was chosen, and how its puzzles spread over its ratings
    and themes (``make puzzles`` writes the books from the levels above)."""
    book = Book.shipped(variant)
    if book.complete:
        held = f"It holds every puzzle of `{variant.id}`: {len(book):,}."
    else:
        held = (
            f"`{variant.id}` has {book.found:,} puzzles, more than {COMPLETE_UP_TO:,}: its book holds a "
            f"selection of {len(book):,}. The puzzles are grouped by rating and themes, each group in the "
            "order of the SHA-256 of the puzzles' ids; rounds then take the next puzzle of every group "
            f"that has one left, until a round ends with at least {SELECTED:,} taken "
            "(`selection` in `service/game/puzzles.py`)."
        )
    about = (
        "Each puzzle is rated by the levels above: the rating of the weakest player that plays its "
        f"solution at least half of the time. {held}"
    )
    ratings = Counter(book.ratings)
    themes = {theme: len(book.matching(PuzzleFilter(theme))) for theme in themes_of(variant)}
    return [
        *textwrap.wrap(about, WIDTH),
        "",
        "| rating | " + " | ".join(map(str, sorted(ratings))) + " |",
        "|---|" + "---:|" * len(ratings),
        "| puzzles | " + " | ".join(f"{ratings[rating]:,}" for rating in sorted(ratings)) + " |",
        "",
        "| theme | " + " | ".join(f"`{theme}`" for theme in themes_of(variant)) + " |",
        "|---|" + "---:|" * len(themes_of(variant)),
        "| puzzles | " + " | ".join(f"{themes[theme]:,}" for theme in themes_of(variant)) + " |",
    ]


def _about(found: Verdict) -> str:
    """The first paragraph of a variant's section: the game, and how its round robin was played."""
    results, variant = found.results, found.variant
    score, plies = results.start
    outcome = {"win": "the first side wins", "loss": "the second side wins", "draw": "it is a draw"}
    which = "the search below chose" if found.calibrated else "of the last candidate the search below tried"
    about = (
        f"{say(ENGLISH, variant.rules)} Under perfect play from the empty board "
        f"{outcome[OUTCOMES[score]]}, in {plies} plies. The six players meet in a round robin of "
        f"{results.games:,} games per pairing, "
        f"each side moving first in half of them, seed {results.seed}, the levels with the presets {which} "
        f"for `{variant.id}` (depths in its plies: `perfect` sees all {variant.cells} cells)."
    )
    if results.typed:
        about += (
            f" Opponents of the typed ratings {', '.join(map(str, results.typed))} (a tenth, three "
            f"tenths, a half, seven and nine tenths of `perfect`'s rating, rounded to {TYPED_STEP}) meet "
            "each of the six as often, played on the ratings below."
        )
    return about


def _verdict_sentence(found: Verdict) -> str:
    variant, failures = found.variant, found.failures
    if found.calibrated:
        return (
            f"**Calibrated:** every check passes, so `rating` applies in `{variant.id}`, from 0 to "
            f"{found.scale[PERFECT]} on this scale."
        )
    return (
        f"**Not calibrated:** {len(failures)} check{'s' if len(failures) > 1 else ''} failed, so "
        f"`rating` is refused in `{variant.id}`; its levels still play as their presets say."
    )


def _preset(preset: Preset) -> str:
    """A preset as ``depth/skill``."""
    return f"{preset.depth}/{preset.skill:g}"


def _below_perfect(presets: Presets) -> str:
    """The presets of ``beginner`` to ``hard``, as ``depth/skill`` each."""
    return ", ".join(_preset(presets[level]) for level in Level if level is not Level.PERFECT)


def _lowest_z(found: Verdict) -> str:
    """The smallest margin of the ordering's comparisons (perfect play's losses aside)."""
    z = min(check.z for check in found.made if not check.claim.startswith(f"{PERFECT} never"))
    return f"{z:.1f}" if math.isfinite(z) else "∞" if z > 0 else "−∞"


def _search_lines(attempts: Sequence[Attempt]) -> list[str]:
    """Every candidate a variant's search tried, what failed, its wall time and what it chose."""
    final = chosen(attempts)
    intro = (
        "The candidates tried, in order of preference (`CANDIDATES` in `scripts/calibrate.py`), each "
        "level's preset as depth/skill, `perfect` seeing all "
        f"{final.verdict.variant.cells} cells: the search stops at the first that passes every check. "
        "`lowest z` is the smallest margin of the ordering's comparisons, in standard errors (at least "
        f"{Z_MIN} to pass)."
    )
    return [
        *textwrap.wrap(intro, WIDTH),
        "",
        *_search_table(attempts, final),
        *_search_failures(attempts, final),
        "",
        *_search_summary(attempts, final),
    ]


def _search_table(attempts: Sequence[Attempt], final: Attempt) -> list[str]:
    """A row per candidate tried: its presets, how many checks failed, its lowest z, and the result."""
    levels = [level for level in Level if level is not Level.PERFECT]
    lines = [
        "| # | " + " | ".join(level.value for level in levels) + " | failed checks | lowest z | |",
        "|---:|" + "---:|" * len(levels) + "---:|---:|---|",
    ]
    for number, attempt in enumerate(attempts, 1):
        presets = " | ".join(_preset(attempt.presets[level]) for level in levels)
        result = "chosen" if attempt is final else "failed"
        failed_checks = len(attempt.verdict.failures)
        lines.append(f"| {number} | {presets} | {failed_checks} | {_lowest_z(attempt.verdict)} | {result} |")
    return lines


def _search_failures(attempts: Sequence[Attempt], final: Attempt) -> list[str]:
    """What failed in each candidate not chosen, a line each (the chosen one's are the verdict's)."""
    lines = []
    for number, attempt in enumerate(attempts, 1):
        if attempt is not final:
            failures = "; ".join(attempt.verdict.failures)
            text = f"- candidate {number} ({_below_perfect(attempt.presets)}): {failures}."
            lines += textwrap.wrap(text, WIDTH, subsequent_indent="  ")
    return ["", "What failed:", "", *lines] if lines else []


def _search_summary(attempts: Sequence[Attempt], final: Attempt) -> list[str]:
    """What the search chose, and its wall time, every candidate's included."""
    outcome = (
        "chose"
        if final.verdict.calibrated
        else "found none that passes; the levels below are the last tried,"
    )
    summary = (
        f"The search tried {len(attempts)} candidate{'s' if len(attempts) > 1 else ''} at "
        f"{final.verdict.results.games:,} games per pairing and {outcome} candidate "
        f"{attempts.index(final) + 1}: "
        + ", ".join(f"`{level.value}` {_preset(preset)}" for level, preset in final.presets.items())
        + "; it took, every candidate's round robin included,"
    )
    # The wall time alone on the last line: the one figure a rerun changes moves no other line.
    seconds = sum(attempt.seconds for attempt in attempts)
    return [*textwrap.wrap(summary, WIDTH), f"{seconds:,.0f} s of wall time."]


def _levels_table(found: Verdict) -> list[str]:
    """The chosen levels' presets, ratings and rates against the random and the perfect player."""
    results = found.results
    by_player = {rating.player: rating for rating in found.ratings}
    lines = [
        "| level | depth | skill | rating | vs random (W / D / L) | vs perfect (W / D / L) |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for player in PLAYERS:
        if player == RANDOM:
            depth, skill = "–", "0"
        else:
            preset = results.presets[Level(player)]
            depth, skill = str(preset.depth), f"{preset.skill:g}"
        lines.append(
            f"| `{player}` | {depth} | {skill} | {_shown(by_player[player])} | "
            f"{_versus_random(results, player)} | {results[player, PERFECT].rates()} |"
        )
    return lines


def variants_introduction(searches: Sequence[Sequence[Attempt]]) -> str:
    """What the variants' sections of ``docs/levels.md`` show, before them: how the search goes, and
    what it chose in each variant."""
    verdicts = [chosen(attempts).verdict for attempts in searches]
    calibrated = [f"`{found.variant.id}`" for found in verdicts if found.calibrated]
    about = (
        "Each variant has a round robin of its own, with its own ratings and its own checks: the "
        "six players of the standard game's, the levels with presets of the variant's own, a level's "
        "depth counted in the variant's plies and `perfect` seeing the whole game. Every move is chosen "
        "from the variant's exact values, as the service chooses it. The checks are the standard game's, "
        "but for perfect play in a game that one side wins from the start: it never loses as that side. "
        "A variant is calibrated when every check passes and every typed rating comes within "
        f"{TYPED_TOLERANCE} points of the rating asked: `rating` then applies there, on the variant's "
        "own scale (`rated` in `GET /v1/variants`); elsewhere it is a `422`."
    )
    how = (
        "The presets come from a search. Each variant has candidate ladders in order of preference "
        "(`CANDIDATES` in `scripts/calibrate.py`): first the standard game's presets read in the "
        "variant, then ladders with a short look-ahead for the weak levels and a longer one for the "
        "strong, or, where depth alone cannot separate the levels, one depth for all and a rising skill. "
        "Each candidate plays the whole round robin, on the same seeds, and the first that passes every "
        "check, typed ratings included, is chosen: the search stops there. A candidate that already "
        "fails an ordering check does not play its typed ratings. Each variant's section lists every "
        "candidate tried and what failed. The wall times are the only figures a rerun changes."
    )
    lines = [
        "## The variants",
        "",
        *textwrap.wrap(about, WIDTH),
        "",
        *textwrap.wrap(how, WIDTH),
        "",
        "![Every variant's ladder](levels-variants.png)",
        "",
        "| variant | chosen presets (beginner, easy, medium, hard) | perfect's rating | candidates tried "
        "| wall time (s) |",
        "|---|---|---:|---:|---:|",
    ]
    for attempts, found in zip(searches, verdicts, strict=True):
        presets = _below_perfect(found.results.presets) + ("" if found.calibrated else " (none passes)")
        perfect = next(rating for rating in found.ratings if rating.player == PERFECT)
        seconds = sum(attempt.seconds for attempt in attempts)
        lines.append(
            f"| `{found.variant.id}` | {presets} | {_shown(perfect)} | {len(attempts)} | {seconds:,.0f} |"
        )
    lines += ["", "Calibrated: " + (", ".join(calibrated) if calibrated else "none") + ".", ""]
    return "\n".join(lines)


def plot_variants(verdicts: Sequence[Verdict], path: Path) -> None:
    """``docs/levels-variants.png``: every variant's ladder, a panel each: the ratings of the random
    player and the five levels, with their 95 % intervals."""
    columns = min(4, len(verdicts))
    rows = math.ceil(len(verdicts) / columns)
    figure = Figure(figsize=(4 * columns, 3.2 * rows))
    axes = figure.subplots(rows, columns, squeeze=False)
    for axis, found in itertools.zip_longest(axes.flat, verdicts):
        if found is None:
            axis.set_visible(False)
            continue
        _ladder_panel(axis, found)
    figure.suptitle("Every variant's ladder: Elo ratings (random player = 0), 95 % intervals")
    figure.tight_layout(rect=(0, 0, 1, 0.96))
    # No software or date in the metadata: the same results make the same bytes.
    figure.savefig(path, dpi=100, metadata={"Software": None})


def _ladder_panel(axis: Axes, found: Verdict) -> None:
    """One variant's ratings, weakest at the top, on ``axis``."""
    color = "#1565c0" if found.calibrated else "#9e9e9e"
    ratings = found.ratings
    axis.errorbar(
        [rating.elo for rating in ratings],
        [rating.player for rating in ratings],
        xerr=[rating.margin for rating in ratings],
        fmt="o",
        color=color,
        capsize=3,
    )
    for y, rating in enumerate(ratings):
        axis.annotate(
            f"{rating.elo:.0f}",
            (rating.elo, y),
            textcoords="offset points",
            xytext=(0, 6),
            ha="center",
            fontsize=8,
        )
    axis.invert_yaxis()
    axis.margins(x=0.12, y=0.15)
    axis.grid(axis="x", alpha=0.3)
    axis.tick_params(labelsize=8)
    status = "" if found.calibrated else ", not calibrated"
    axis.set_title(f"{say(ENGLISH, found.variant.name)} ({found.variant.id}{status})", fontsize=9)


def plot(results: Results, ratings: Sequence[Rating], typed: Sequence[TypedCheck], path: Path) -> None:
    """``docs/levels.png``: outcome rates against the random and the perfect player, and the ratings."""
    levels = [player for player in PLAYERS if player != RANDOM]
    colors = {"win": "#2e7d32", "draw": "#9e9e9e", "loss": "#c62828"}
    figure = Figure(figsize=(14, 5))
    axes = figure.subplots(1, 3, gridspec_kw={"width_ratios": [1, 1, 1.1]})
    for axis, opponent in zip(axes[:2], (RANDOM, PERFECT), strict=True):
        left = [0.0] * len(levels)
        for outcome in ("win", "draw", "loss"):
            widths = [100 * _counts(results[level, opponent])[outcome] / results.games for level in levels]
            axis.barh(levels, widths, left=left, color=colors[outcome], label=outcome)
            for y, (start, width) in enumerate(zip(left, widths, strict=True)):
                if width >= 6:
                    axis.text(
                        start + width / 2,
                        y,
                        f"{width:.0f}",
                        ha="center",
                        va="center",
                        color="white",
                        fontsize=9,
                    )
            left = [start + width for start, width in zip(left, widths, strict=True)]
        axis.set_xlim(0, 100)
        axis.invert_yaxis()
        axis.set_xlabel("% of games")
        axis.set_title(f"Against the {opponent} player")
    handles, labels = axes[0].get_legend_handles_labels()
    figure.legend(handles, labels, loc="lower center", ncol=3, frameon=False)
    axes[1].set_yticklabels([])
    shown = list(ratings)
    axes[2].errorbar(
        [rating.elo for rating in shown],
        [rating.player for rating in shown],
        xerr=[rating.margin for rating in shown],
        fmt="o",
        color="#1565c0",
        capsize=4,
    )
    for y, rating in enumerate(shown):
        axes[2].annotate(
            f"{rating.elo:.0f}",
            (rating.elo, y),
            textcoords="offset points",
            xytext=(0, 7),
            ha="center",
            fontsize=9,
        )
    asked_at = [check.asked for check in typed]
    axes[2].errorbar(
        [check.rating.elo for check in typed],
        [f"typed {value}" for value in asked_at],
        xerr=[check.rating.margin for check in typed],
        fmt="s",
        color="#ef6c00",
        capsize=4,
        label="measured",
    )
    axes[2].scatter(
        asked_at,
        [f"typed {value}" for value in asked_at],
        marker="|",
        s=200,
        color="black",
        label="asked",
        zorder=3,
    )
    axes[2].legend(loc="lower left", fontsize=8)
    axes[2].invert_yaxis()
    axes[2].set_xlabel("Elo rating (random player = 0), 95 % intervals")
    axes[2].set_title("Ratings from the round robin, and typed ratings")
    axes[2].grid(axis="x", alpha=0.3)
    figure.suptitle(f"Difficulty levels: {results.games:,} games per pairing, each side first in half")
    figure.tight_layout(rect=(0, 0.06, 1, 1))
    # No software or date in the metadata: the same results make the same bytes.
    figure.savefig(path, dpi=100, metadata={"Software": None})


def main(argv: Sequence[str] | None = None) -> int:
    arguments = _parser().parse_args(argv)
    picked = [variant for variant in VARIANT_IDS if variant in arguments.variants]
    games = GAMES_OF[STANDARD] if arguments.games is None else arguments.games
    started = time.monotonic()
    standard = verdict(round_robin(games, arguments.seed, _progress(STANDARD)))
    print(f"{STANDARD}: {games:,} games per pairing in {time.monotonic() - started:.0f} s")
    _print_ratings(standard)
    searches: dict[str, list[Attempt]] = {}
    for variant in picked:
        games = GAMES_OF[variant] if arguments.games is None else arguments.games
        searches[variant] = _searched(variant, games, arguments.seed)
    written = _write(standard, list(searches.values()), arguments.output)
    print(f"wrote {', '.join(written)} in {arguments.output}")
    verdicts = [chosen(attempts).verdict for attempts in searches.values()]
    return _exit_status(standard, verdicts, arguments.seed == SEED, arguments.games is None)


def _exit_status(standard: Verdict, verdicts: Sequence[Verdict], seeded: bool, default: bool) -> int:
    """1 when a check of the standard game fails or, on the default seed (``seeded``), the service's
    ladders are not what the run gives (:func:`stale`), each failure printed; else 0."""
    for found in verdicts:
        if not found.calibrated:
            print(f"{found.variant.id} is not calibrated: {'; '.join(found.failures)}")
    failed = list(standard.failures)
    if seeded:  # the service's ladders come from the default run
        failed += [claim for found in (standard, *verdicts) for claim in stale(found, default)]
    for claim in failed:
        print(f"FAILED: {claim}", file=sys.stderr)
    return 1 if failed else 0


def _write(standard: Verdict, searches: Sequence[Sequence[Attempt]], output: Path) -> list[str]:
    """``levels.md`` and ``levels.png`` in ``output``, and ``levels-variants.png`` when there are
    variants: the names of the files written."""
    document = markdown(standard.results, standard.ratings, standard.made, standard.typed)
    if searches:
        document += "\n" + "\n".join([variants_introduction(searches), *map(variant_markdown, searches)])
    output.mkdir(parents=True, exist_ok=True)
    (output / "levels.md").write_text(document, encoding="utf-8")
    plot(standard.results, standard.ratings, standard.typed, output / "levels.png")
    if not searches:
        return ["levels.md", "levels.png"]
    plot_variants(
        [standard, *(chosen(attempts).verdict for attempts in searches)], output / "levels-variants.png"
    )
    return ["levels.md", "levels.png", "levels-variants.png"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="make calibrate", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--games",
        type=int,
        default=None,
        help="games per pairing in every game (default: each game's own, 10,000 in the standard game)",
    )
    parser.add_argument(
        "--seed", type=int, default=SEED, help="the seed of every pairing (default: %(default)s)"
    )
    parser.add_argument(
        "--variants",
        nargs="*",
        choices=VARIANT_IDS,
        default=list(VARIANT_IDS),
        help="the variants calibrated after the standard game (default: all of them)",
    )
    parser.add_argument(
        "--output",
        type=Path,
        default=ROOT / "docs",
        help="where levels.md, levels.png and levels-variants.png go (default: docs/)",
    )
    return parser


def _searched(variant: str, games: int, seed: int) -> list[Attempt]:
    """A variant's search, each candidate's outcome printed, then the chosen attempt's ratings."""
    attempts = search(variant, games, seed, _progress(variant))
    for number, attempt in enumerate(attempts, 1):
        failures = attempt.verdict.failures
        outcome = f"{len(failures)} checks failed" if failures else "every check passes"
        print(
            f"{variant} candidate {number} ({_below_perfect(attempt.presets)}): {outcome}, "
            f"{games:,} games per pairing in {attempt.seconds:.0f} s"
        )
    _print_ratings(chosen(attempts).verdict)
    return attempts


def _print_ratings(found: Verdict) -> None:
    for rating in found.ratings:
        print(f"{rating.player:>10}  {rating.elo:6.0f} ± {rating.margin:3.0f}")
    for check in found.typed:
        print(f"{check.rating.player:>10}  {check.rating.elo:6.0f} ± {check.rating.margin:3.0f}")


def stale(found: Verdict, default: bool) -> list[str]:
    """What :data:`service.game.levels.LADDERS` has wrong of a variant's run with the default games
    per pairing (``default``): presets not those the run played (the chosen ones), the ratings of a
    calibrated variant not the fit's, or not there; ratings of a variant that is not calibrated. Each
    says what to write."""
    if not default:
        return []
    variant = found.variant.id
    ladder = LADDERS[variant]
    where = f"service.game.levels.LADDERS[{variant!r}]"
    failed = []
    if list(ladder.presets.items()) != list(found.results.presets.items()):
        failed.append(f"{where}.presets are not the chosen ones: write {python_ladder(found)}")
    if not found.calibrated:
        if ladder.ratings is not None:
            failed.append(f"{where}.ratings is there, but {variant} is not calibrated: remove it")
        return failed
    if ladder.ratings is None:
        return [
            *failed,
            f"{variant} is calibrated, but {where}.ratings is None: write {python_ladder(found)}",
        ]
    return failed + [
        f"{where}.ratings[{player!r}] is not the fit's rating: update it to {found.scale[player]}"
        for player in stale_ratings(found.ratings, ladder.ratings)
    ]


def python_ladder(found: Verdict) -> str:
    """The entry of :data:`service.game.levels.LADDERS` that ``found`` calls for, as the Python of
    :mod:`service.game.levels`: the presets it played, and the fit's ratings, rounded, where it is
    calibrated."""
    presets = found.results.presets
    steps = ", ".join(
        f"({presets[level].depth}, {presets[level].skill!r})" for level in Level if level is not Level.PERFECT
    )
    ratings = f", ratings={tuple(found.scale[name] for name in PLAYERS)}" if found.calibrated else ""
    return f"_ladder({found.variant.cells}, {steps}{ratings})"


def _progress(variant: str) -> Callable[[Iterable[tuple[str, str]]], Iterable[tuple[str, str]]]:
    """A progress bar on the error stream for the pairings of ``variant``."""

    def progress(pairs: Iterable[tuple[str, str]]) -> Iterable[tuple[str, str]]:
        bar = tqdm(list(pairs), desc=f"{variant} pairings", unit="pairing", file=sys.stderr)
        for player, opponent in bar:
            bar.set_postfix_str(f"{player} vs {opponent}")
            yield player, opponent

    return progress


if __name__ == "__main__":
    sys.exit(main())
