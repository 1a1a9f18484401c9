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
ratings the service uses (:data:`service.game.levels.RATINGS`) and each typed rating is
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
  ratings of :data:`service.game.levels.RATINGS` those the fit gives, rounded.

The command fails (exit status 1) when a check fails, so presets that break the
ordering cannot be written into the documents quietly.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import statistics
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from matplotlib.figure import Figure
from scipy.optimize import minimize
from tqdm import tqdm

from service.game import Board, Options, Position, SolvedGame, choose, solve
from service.game.levels import PRESETS, RATINGS, Level, blend, rated
from tests.support import ROOT

RANDOM = "random"
#: Every player, weakest first by design: the random player, then the levels.
PLAYERS: tuple[str, ...] = (RANDOM, *(level.value for level in Level))
PERFECT = Level.PERFECT.value
#: The typed ratings played as opponents, and how close their measured ratings must come.
TYPED = (50, 150, 250, 350, 450)
TYPED_TOLERANCE = 25
#: The typed ratings as players' names.
RATED: tuple[str, ...] = tuple(f"rating {rating}" for rating in TYPED)
#: Games per pairing of ``make calibrate``; the issue's floor is 2,000.
GAMES = 10_000
SEED = 20261123
#: A check passes when its difference is at least this many standard errors: with 14
#: one-sided comparisons, the chance that any one would pass by luck between two equal
#: players is below 1 % (Bonferroni: the normal quantile of 1 - 0.01 / 14 is 3.19).
Z_MIN = 3.2
#: The Elo scale: a 400-point lead means 10 to 1 odds.
ELO = 400 / math.log(10)


def options(player: str, seed: int) -> Options:
    """How ``player`` chooses a move, with the seed of that move."""
    if player == RANDOM:
        return Options(skill=0.0, seed=seed)
    if player in RATED:
        return rated(asked(player), seed)
    return Level(player).options(seed)


def asked(player: str) -> int:
    """The rating a typed-rating player was asked for."""
    return int(player.removeprefix("rating "))


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


def play_game(game: SolvedGame, first: str, second: str, rng: random.Random) -> float:
    """One game, ``first`` moving first (as X): 1, 1/2 or 0 for ``first``."""
    position = Position(Board.empty(), "X")
    movers = {"X": first, "O": second}
    while position.to_move is not None:
        move = choose(game[position], options(movers[position.to_move], rng.getrandbits(64)))
        position = position.play(move.cell)
    winner = position.board.winner
    return 0.5 if winner is None else 1.0 if winner == "X" else 0.0


def pairing(game: SolvedGame, player: str, opponent: str, games: int, seed: int) -> Tally:
    """``games`` games between two players, ``player`` moving first in the even-numbered ones."""
    rng = random.Random(f"{seed}:{player}:{opponent}")
    points = [
        play_game(game, player, opponent, rng)
        if number % 2 == 0
        else 1 - play_game(game, opponent, player, rng)
        for number in range(games)
    ]
    return Tally(player, opponent, points.count(1.0), points.count(0.5), points.count(0.0))


def pairings() -> list[tuple[str, str]]:
    """Every pair of calibrated players once, and perfect play against itself."""
    pairs = [(a, b) for i, a in enumerate(PLAYERS) for b in PLAYERS[i + 1 :]]
    return [*pairs, (PERFECT, PERFECT)]


def typed_pairings() -> list[tuple[str, str]]:
    """Every typed-rating player against every calibrated one."""
    return [(typed, player) for typed in RATED for player in PLAYERS]


@dataclass(frozen=True)
class Results:
    """A round robin: a tally for every ordered pair of players that met."""

    games: int
    seed: int
    tallies: dict[tuple[str, str], Tally]

    def __getitem__(self, pair: tuple[str, str]) -> Tally:
        return self.tallies[pair]


def round_robin(
    games: int = GAMES,
    seed: int = SEED,
    progress: Callable[[Iterable[tuple[str, str]]], Iterable[tuple[str, str]]] = iter,
) -> Results:
    """Every pairing of :func:`pairings` and :func:`typed_pairings`, ``games`` games each;
    ``progress`` wraps the pairings."""
    game = solve()
    tallies: dict[tuple[str, str], Tally] = {}
    for player, opponent in progress([*pairings(), *typed_pairings()]):
        tally = pairing(game, player, opponent, games, seed)
        tallies[player, opponent] = tally
        tallies[opponent, player] = tally.reversed()
    return Results(games, seed, tallies)


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
    losses = sum(results[PERFECT, opponent].losses for opponent in PLAYERS)
    made.append(
        Check(f"{PERFECT} never loses ({losses} losses)", 0.0, math.inf if losses == 0 else -math.inf)
    )
    return made


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
    return [TypedCheck(fit_typed(results, ratings, player)) for player in RATED]


def stale_ratings(ratings: Sequence[Rating]) -> list[str]:
    """The players whose rating in :data:`service.game.levels.RATINGS` is not the fit's, rounded."""
    return [rating.player for rating in ratings if RATINGS[rating.player] != round(rating.elo)]


def _counts(tally: Tally) -> dict[str, int]:
    return {"win": tally.wins, "draw": tally.draws, "loss": tally.losses}


# --- the documents -------------------------------------------------------------------------------------


def markdown(
    results: Results, ratings: Sequence[Rating], made: Sequence[Check], typed: Sequence[TypedCheck]
) -> str:
    """``docs/levels.md``."""
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
        shown = "0 (anchor)" if player == RANDOM else f"{rating.elo:.0f} ± {rating.margin:.0f}"
        if player == RANDOM:
            depth, skill, like = "–", "0", "a uniformly random player (not a level)"
        else:
            preset = PRESETS[Level(player)]
            depth, skill, like = str(preset.depth), f"{preset.skill:g}", preset.plays_like
        versus_random = "–" if player == RANDOM else results[player, RANDOM].rates()
        lines.append(
            f"| `{player}` | {depth} | {skill} | {like} | {shown} | {versus_random} | "
            f"{results[player, PERFECT].rates()} |"
        )
    lines += [
        "",
        "Ratings are on the Elo scale (400 points: odds of 10 to 1), with 95 % intervals.",
        "",
        "## Every pairing",
        "",
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
    lines += [
        "",
        "## The ordering",
        "",
        f"Each difference is in points per game (a win 1, a draw ½) and must be at least {Z_MIN} standard",
        "errors (z): with 14 such comparisons, the chance that any one passes by luck between two equal",
        "players is below 1 %.",
        "",
        "| check | difference | z | |",
        "|---|---:|---:|---|",
    ]
    for check in made:
        z = "–" if math.isinf(check.z) else f"{check.z:.1f}"
        difference = "–" if check.claim.startswith(PERFECT + " never") else f"{check.difference:+.3f}"
        lines.append(f"| {check.claim} | {difference} | {z} | {'passed' if check.passed else 'FAILED'} |")
    lines += [
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
        "| asked | plays as | weight of the stronger | measured | difference | |",
        "|---:|---|---:|---:|---:|---|",
    ]
    for measured in typed:
        mix = blend(measured.asked)
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
    for player in RATED:
        lines.append(f"| {asked(player)} | " + " | ".join(results[player, o].rates() for o in PLAYERS) + " |")
    lines += [
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
    parser = argparse.ArgumentParser(prog="make calibrate", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=GAMES, help="games per pairing (default: %(default)s)")
    parser.add_argument(
        "--seed", type=int, default=SEED, help="the seed of every pairing (default: %(default)s)"
    )
    parser.add_argument(
        "--output",
        type=Path,
        default=ROOT / "docs",
        help="where levels.md and levels.png go (default: docs/)",
    )
    arguments = parser.parse_args(argv)

    def progress(pairs: Iterable[tuple[str, str]]) -> Iterable[tuple[str, str]]:
        bar = tqdm(list(pairs), desc="pairings", unit="pairing", file=sys.stderr)
        for player, opponent in bar:
            bar.set_postfix_str(f"{player} vs {opponent}")
            yield player, opponent

    results = round_robin(arguments.games, arguments.seed, progress)
    ratings = fit_ratings(results)
    made = checks(results)
    typed = typed_checks(results, ratings)
    arguments.output.mkdir(parents=True, exist_ok=True)
    (arguments.output / "levels.md").write_text(markdown(results, ratings, made, typed), encoding="utf-8")
    plot(results, ratings, typed, arguments.output / "levels.png")
    for rating in ratings:
        print(f"{rating.player:>10}  {rating.elo:6.0f} ± {rating.margin:3.0f}")
    for check in typed:
        print(f"{check.rating.player:>10}  {check.rating.elo:6.0f} ± {check.rating.margin:3.0f}")
    failed = [check.claim for check in made if not check.passed]
    failed += [
        f"typed rating {check.asked} measured at {check.rating.elo:.0f}, beyond {TYPED_TOLERANCE} points"
        for check in typed
        if not check.passed
    ]
    if arguments.games == GAMES and arguments.seed == SEED:  # the service's ratings come from this run
        failed += [
            f"service.game.levels.RATINGS[{player!r}] is not the fit's rating: update it"
            for player in stale_ratings(ratings)
        ]
    for claim in failed:
        print(f"FAILED: {claim}", file=sys.stderr)
    print(f"wrote levels.md and levels.png in {arguments.output}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
