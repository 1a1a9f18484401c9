"""An independent brute-force oracle of the coach layer (review, puzzles), sharing no code with ``service``.

Written from the contract (``../shared/API-CONTRACT.md``: "Values", "Choosing among moves",
"Difficulty", "Review of a game", "Puzzles") and from ``docs/levels.md``. Perfect-play values,
optimal moves, the engine's choice (steps 1-4), traps and tactics come from :mod:`.oracle`;
everything else is written again here, plainly:

* judgements and only-moves;
* the moves best within a horizon of ``d`` plies, by a depth-limited minimax of its own;
* the likelihood of a move under a player of depth ``d`` and skill ``s``, and exact posteriors
  (:class:`~fractions.Fraction`) over the random player and the five levels from a uniform prior;
* the 8 symmetries of the square as explicit maps of rows and columns, and canonical forms;
* the puzzle set, by brute force over every reachable position.

Boards are tuples of nine ints as in :mod:`.oracle`: ``1`` for X, ``-1`` for O, ``0`` for empty.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from tests.support import ROOT, oracle

Cells = tuple[int, ...]

MARK = {1: "X", -1: "O"}
SIDE = {"X": 1, "O": -1}

# --- the strengths: the random player and the five levels (docs/levels.md) -------------------------

#: ``(name, depth, skill)``: the uniformly random player, then each level, weakest first.
STRENGTHS: tuple[tuple[str, int | None, Fraction], ...] = (
    ("random", None, Fraction(0)),
    ("beginner", 2, Fraction(3, 10)),
    ("easy", 2, Fraction(6, 10)),
    ("medium", 2, Fraction(1)),
    ("hard", 4, Fraction(1)),
    ("perfect", 9, Fraction(1)),
)
NAMES: tuple[str, ...] = tuple(name for name, _, _ in STRENGTHS)
#: The calibrated ratings of docs/levels.md.
RATINGS: dict[str, int] = {
    "random": 0,
    "beginner": 94,
    "easy": 181,
    "medium": 316,
    "hard": 382,
    "perfect": 493,
}


def documented_ladder(
    variant_id: str,
) -> tuple[tuple[tuple[str, int | None, Fraction], ...], dict[str, int] | None]:
    """A variant's strengths ``(name, depth, skill)`` and its ratings (``None`` where the variant is not
    calibrated), read from its section of docs/levels.md; the standard game's are the ones above."""
    if variant_id == "standard":
        return STRENGTHS, RATINGS
    text = (ROOT / "docs" / "levels.md").read_text(encoding="utf-8")
    section = text[text.index(f"(`{variant_id}`)\n") :]
    table = section[section.index(f"### `{variant_id}`: the levels") :].split("\n\n")[1]
    strengths: list[tuple[str, int | None, Fraction]] = []
    ratings: dict[str, int] = {}
    for row in table.splitlines()[2:]:
        name, depth, skill, rating = (part.strip() for part in row.split("|")[1:5])
        name = name.strip("`")
        strengths.append((name, None if depth == "–" else int(depth), Fraction(skill)))
        ratings[name] = int(rating.split()[0])
    assert tuple(name for name, _, _ in strengths) == NAMES
    calibrated = f"\n**Calibrated:** every check passes, so `rating` applies in `{variant_id}`" in section
    return tuple(strengths), ratings if calibrated else None


JUDGEMENTS = ("best", "inaccuracy", "mistake", "blunder")
POSITIONAL = ("center", "corner", "edge", "opposite_corner")


@cache
def tactics(cells: Cells, side: int, cell: int) -> tuple[str, ...]:
    """The tactics of a move (:func:`.oracle.tactics`), remembered."""
    return tuple(oracle.tactics(cells, side, cell))


def play(cells: Cells, side: int, cell: int) -> Cells:
    assert cells[cell] == 0
    return cells[:cell] + (side,) + cells[cell + 1 :]


def legal(cells: Cells) -> list[int]:
    return [i for i in range(9) if cells[i] == 0]


@cache
def positions() -> tuple[tuple[Cells, int], ...]:
    """Every unfinished legal position (board, side to move), both sides where the rules allow both."""
    found = sorted((cells, side) for cells, sides in oracle.reachable().items() for side in sides)
    return tuple(found)


@cache
def finished_boards() -> tuple[Cells, ...]:
    return tuple(sorted(cells for cells, sides in oracle.reachable().items() if not sides))


def status(cells: Cells) -> str:
    if oracle.has_line(cells, 1):
        return "x_won"
    if oracle.has_line(cells, -1):
        return "o_won"
    return "in_progress" if 0 in cells else "draw"


# --- values and judgements ("Values", "Choosing among moves", "Review of a game") -----------------


@cache
def move_value(cells: Cells, side: int, cell: int) -> tuple[int, int]:
    """``(score, plies)`` of ``side`` playing ``cell``, for ``side``."""
    for c, score, plies in oracle.move_values(cells, side):
        if c == cell:
            return score, plies
    raise AssertionError(f"{cell} is not a legal move")


@cache
def optimal(cells: Cells, side: int) -> tuple[int, ...]:
    """The moves optimal by steps 1-2: the same score and plies as the position's value
    (a draw of any length is as good as the position's draw, since every draw fills the board)."""
    best = oracle.value(cells, side)
    found = []
    for cell, score, plies in oracle.move_values(cells, side):
        if score == best[0] and (score == 0 or plies == best[1]):
            found.append(cell)
    return tuple(found)


@cache
def judgement(cells: Cells, side: int, cell: int) -> str:
    """``best`` when optimal by steps 1-2; else, comparing scores, ``inaccuracy`` (kept),
    ``mistake`` (a win became a draw) or ``blunder`` (a win or a draw became a loss)."""
    if cell in optimal(cells, side):
        return "best"
    before = oracle.value(cells, side)[0]
    after = move_value(cells, side, cell)[0]
    if after == before:
        return "inaccuracy"
    if before == 1 and after == 0:
        return "mistake"
    assert after == -1 and before in (0, 1), (cells, side, cell)
    return "blunder"


@cache
def keepers(cells: Cells, side: int) -> tuple[int, ...]:
    """The moves that keep the position's score."""
    before = oracle.value(cells, side)[0]
    return tuple(c for c, score, _ in oracle.move_values(cells, side) if score == before)


@cache
def only_move(cells: Cells, side: int, cell: int) -> bool:
    return len(legal(cells)) >= 2 and keepers(cells, side) == (cell,)


# --- the horizon ("Difficulty"), written from the contract's words ---------------------------------


def _key(value: tuple[int, int]) -> tuple[int, int]:
    """Higher is better: the score, then among wins the fewest plies, among losses the most;
    all ``0``s tie."""
    score, plies = value
    return (score, -plies if score == 1 else plies if score == -1 else 0)


@cache
def horizon_moves(cells: Cells, side: int, depth: int) -> tuple[tuple[int, tuple[int, int]], ...]:
    """Each legal move of ``side`` and its value within ``depth`` plies (its own move is ply 1)."""
    found = []
    for cell in legal(cells):
        after = play(cells, side, cell)
        if oracle.has_line(after, side):
            found.append((cell, (1, 1)))  # completes a line: +1 in 1 ply
        elif 0 not in after:
            found.append((cell, (0, 1)))  # fills the board: 0
        elif depth == 1:
            found.append((cell, (0, 1)))  # at the horizon, the game not over: 0
        else:
            reply = horizon_best_value(after, -side, depth - 1)
            found.append((cell, (-reply[0], reply[1] + 1)))
    return tuple(found)


@cache
def horizon_best_value(cells: Cells, side: int, depth: int) -> tuple[int, int]:
    return max((value for _, value in horizon_moves(cells, side, depth)), key=_key)


@cache
def horizon_best(cells: Cells, side: int, depth: int) -> frozenset[int]:
    """H: the moves best within the horizon ``depth``."""
    top = _key(horizon_best_value(cells, side, depth))
    return frozenset(cell for cell, value in horizon_moves(cells, side, depth) if _key(value) == top)


# --- likelihoods and posteriors ("Review of a game") ----------------------------------------------


@cache
def likelihood(cells: Cells, side: int, cell: int, depth: int | None, skill: Fraction) -> Fraction:
    """``(1 - s) / L + s * [cell in H] / |H|``; ``1 / L`` for the random player (no depth)."""
    moves = legal(cells)
    assert cell in moves
    if depth is None:
        return Fraction(1, len(moves))
    best = horizon_best(cells, side, depth)
    hit = Fraction(1, len(best)) if cell in best else Fraction(0)
    return (1 - skill) * Fraction(1, len(moves)) + skill * hit


@cache
def posterior(moves: tuple[tuple[Cells, int, int], ...]) -> dict[str, Fraction]:
    """The exact posterior of each strength, uniform prior, given ``(cells, side, cell)`` moves
    (remembered: do not change the answer)."""
    assert moves
    products: dict[str, Fraction] = {}
    for name, depth, skill in STRENGTHS:
        product = Fraction(1)
        for cells, side, cell in moves:
            product *= likelihood(cells, side, cell, depth, skill)
        products[name] = product
    total = sum(products.values(), Fraction(0))
    return {name: product / total for name, product in products.items()}


def most_likely(chances: dict[str, Fraction]) -> str:
    """The most probable name; on a tie, the one listed first (the weaker)."""
    best = NAMES[0]
    for name in NAMES:
        if chances[name] > chances[best]:
            best = name
    return best


def accuracy(best: int, moves: int) -> float | None:
    """Per cent of moves judged best, to one decimal (computed exactly, then rounded half up)."""
    if moves == 0:
        return None
    tenths = Fraction(1000 * best, moves)
    rounded = int(tenths + Fraction(1, 2))
    return rounded / 10


# --- the 8 symmetries of the square -------------------------------------------------------------

#: Each symmetry as where the cell at ``(row, column)`` of the new board comes from on the old one.
_MAPS: tuple[tuple[str, Callable[[int, int], tuple[int, int]]], ...] = (
    ("identity", lambda r, c: (r, c)),
    ("rotate 90", lambda r, c: (2 - c, r)),
    ("rotate 180", lambda r, c: (2 - r, 2 - c)),
    ("rotate 270", lambda r, c: (c, 2 - r)),
    ("mirror left-right", lambda r, c: (r, 2 - c)),
    ("mirror top-bottom", lambda r, c: (2 - r, c)),
    ("mirror main diagonal", lambda r, c: (c, r)),
    ("mirror anti-diagonal", lambda r, c: (2 - c, 2 - r)),
)


def _permutation(source: Callable[[int, int], tuple[int, int]]) -> tuple[int, ...]:
    """``p`` with new cell ``i`` showing old cell ``p[i]``."""
    out = []
    for i in range(9):
        r, c = source(i // 3, i % 3)
        out.append(3 * r + c)
    return tuple(out)


SYMMETRIES: tuple[tuple[int, ...], ...] = tuple(_permutation(source) for _, source in _MAPS)


def transform(board: str, p: Sequence[int]) -> str:
    return "".join(board[p[i]] for i in range(9))


def canonical_form(board: str) -> str:
    return min(transform(board, p) for p in SYMMETRIES)


def canonical_cell(board: str, cell: int) -> int:
    """Where ``cell`` of ``board`` lands on the canonical board (the same whichever symmetry gives it,
    when ``cell`` is fixed by the board's own symmetries)."""
    target = canonical_form(board)
    landed = {p.index(cell) for p in SYMMETRIES if transform(board, p) == target}
    assert len(landed) == 1, (board, cell, landed)
    return landed.pop()


# --- puzzles ("Puzzles") --------------------------------------------------------------------------


@dataclass(frozen=True)
class Puzzle:
    id: str
    board: str
    player: str
    solution: int
    outcome: str
    plies: int
    themes: tuple[str, ...]
    solve_rates: dict[str, Fraction]
    rating: int


def puzzle_solution(cells: Cells, side: int) -> int | None:
    """The solution when the position is a puzzle: >= 2 legal moves, exactly one keeping the position's
    score, that score a win or a draw."""
    if len(legal(cells)) < 2 or oracle.value(cells, side)[0] == -1:
        return None
    kept = keepers(cells, side)
    return kept[0] if len(kept) == 1 else None


def make_puzzle(cells: Cells, side: int) -> Puzzle:
    solution = puzzle_solution(cells, side)
    assert solution is not None
    board = oracle.decode(cells)
    score, plies = oracle.value(cells, side)
    assert move_value(cells, side, solution) == (score, plies)
    rates = {name: likelihood(cells, side, solution, depth, skill) for name, depth, skill in STRENGTHS}
    rating = next(RATINGS[name] for name in NAMES if rates[name] >= Fraction(1, 2))
    themes = tuple(tag for tag in tactics(cells, side, solution) if tag not in POSITIONAL)
    return Puzzle(
        id=board + MARK[side],
        board=board,
        player=MARK[side],
        solution=solution,
        outcome={1: "win", 0: "draw"}[score],
        plies=plies,
        themes=themes,
        solve_rates=rates,
        rating=rating,
    )


@cache
def puzzle_positions() -> tuple[tuple[Cells, int], ...]:
    """Every position (in every orientation) that is a puzzle."""
    return tuple((cells, side) for cells, side in positions() if puzzle_solution(cells, side) is not None)


@cache
def puzzles() -> tuple[Puzzle, ...]:
    """One puzzle per symmetry class, made on its canonical board, sorted by (rating, id)."""
    classes = {(canonical_form(oracle.decode(cells)), side) for cells, side in puzzle_positions()}
    made = [make_puzzle(oracle.encode(board), side) for board, side in classes]
    return tuple(sorted(made, key=lambda puzzle: (puzzle.rating, puzzle.id)))
