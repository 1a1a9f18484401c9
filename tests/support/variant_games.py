"""Games and positions of the variants, played by the tests' independent oracle of the variants
(:mod:`tests.support.variant_oracle`), not by the service: inputs for the tests and the benchmark
(many positions of a variant, its longest games, and their moves as a review takes them)."""

from __future__ import annotations

import random

from tests.support.variant_oracle import VARIANTS as VARIANT_RULES


def variant_positions(variant_id: str, count: int, seed: int = 1) -> list[tuple[str, str]]:
    """``(board, side to move)`` of ``count`` unfinished positions of random games of a variant, played
    by the tests' oracle of the variants (either side starting where that applies): distinct, or
    fewer when the variant has fewer (``notakto`` has 230), then repeated in turn to ``count``."""
    rules, rng = VARIANT_RULES[variant_id], random.Random(seed)
    firsts = ["X", "O"] if rules.marks == "own" else ["first"]
    found: dict[tuple[str, str], None] = {}
    for _ in range(20 * count):
        if len(found) == count:
            break
        cells, mover = rules.start(), rng.choice(firsts)
        for _ in range(rng.randrange(len(cells))):
            played, ended = rules.after(cells, rng.choice(list(rules.moves(cells, mover))))
            if ended is not None:
                break
            cells, mover = played, rules.other(mover)
        found[cells, mover] = None
    distinct = list(found)
    return [distinct[i % len(distinct)] for i in range(count)]


Game = list[tuple[int, str]]
"""The moves of a game: ``(cell, mark)`` each, from the empty board, the first side to move first."""


def most_moves(variant_id: str) -> int:
    """The most moves a game of a variant can last: its cells, or in Notakto, on each board the most
    marks that make no line and one more, the move that makes the board's line."""
    rules = VARIANT_RULES[variant_id]
    if rules.marks != "x_only":
        return rules.width * rules.boards
    lineless = max(
        bin(cells).count("1")
        for cells in range(1 << rules.width)
        if not rules.has_line("".join("X" if cells >> i & 1 else "." for i in range(rules.width)), "X")
    )
    return rules.boards * (lineless + 1)


def walk(variant_id: str, rng: random.Random, plies: int | None = None) -> Game:
    """A game played by the tests' oracle of the variants, ``plies`` moves long at most (to its end by
    default): each move drawn among those that make no line, else among those that do not end the
    game, else among all of them."""
    rules = VARIANT_RULES[variant_id]
    cells, mover, game = rules.start(), "X" if rules.marks == "own" else "first", Game()
    while plies is None or len(game) < plies:
        played = [(move, *rules.after(cells, move)) for move in rules.moves(cells, mover)]
        calm = [p for p in played if not rules.dead(rules.board(p[1], p[0][0] // rules.width))]
        alive = [p for p in played if p[2] is None]
        move, cells, ended = rng.choice(calm or alive or played)
        game.append(move)
        if ended is not None:
            break
        mover = rules.other(mover)
    return game


def longest_game(variant_id: str, tries: int = 5000, seed: int = 1) -> Game:
    """A game of a variant as long as one can be (:func:`most_moves`), found by seeded walks
    (:func:`walk`); the longest walk found when none is, after ``tries``."""
    rng, longest, most = random.Random(seed), Game(), most_moves(variant_id)
    for _ in range(tries):
        game = walk(variant_id, rng)
        longest = max(longest, game, key=len)
        if len(longest) == most:
            break
    return longest


def longest_games(variant_id: str, count: int, seed: int = 1) -> list[Game]:
    """``count`` different games of a variant as long as :func:`longest_game`: its moves up to the last
    position with no line, in another order (each side's moves among its own turns), then the rest.

    Any order of them is legal, since no position on the way has a line when the last one has none,
    and they lead to the same position, from which the rest is played as before."""
    rules, rng = VARIANT_RULES[variant_id], random.Random(seed)
    game = longest_game(variant_id)
    positions = replay(variant_id, game)
    calm = max(
        i
        for i, (cells, _) in enumerate(positions)
        if not any(rules.dead(rules.board(cells, j)) for j in range(rules.boards))
    )
    found: dict[tuple[tuple[int, str], ...], None] = {}
    for _ in range(50 * count):
        if len(found) == count:
            break
        sides = [game[0:calm:2], game[1:calm:2]]
        for moves in sides:
            rng.shuffle(moves)
        order = [sides[i % 2][i // 2] for i in range(calm)]
        found.setdefault((*order, *game[calm:]))
    return [list(game) for game in found]


def replay(variant_id: str, game: Game) -> list[tuple[str, str]]:
    """``(board, side to move)`` before each move of ``game``, the empty board first, and after its last."""
    rules = VARIANT_RULES[variant_id]
    cells, mover = rules.start(), "X" if rules.marks == "own" else "first"
    found = [(cells, mover)]
    for move in game:
        cells, _ = rules.after(cells, move)
        mover = rules.other(mover)
        found.append((cells, mover))
    return found


def finished(variant_id: str, game: Game) -> bool:
    """Whether a move of ``game`` ended it."""
    rules = VARIANT_RULES[variant_id]
    cells = rules.start()
    for move in game:
        cells, ended = rules.after(cells, move)
        if ended is not None:
            return True
    return False


def game_moves(variant_id: str, game: Game) -> list[int | dict[str, int | str]]:
    """The moves of ``game`` as ``POST /v1/review`` takes them: cells, or in ``wild`` objects with the
    cell and the mark placed."""
    if VARIANT_RULES[variant_id].marks == "either":
        return [{"position": cell, "mark": mark} for cell, mark in game]
    return [cell for cell, _ in game]


def batch_items(variant_id: str, count: int) -> list[dict[str, str]]:
    """The items of a batch of ``count`` unfinished positions of a variant (:func:`variant_positions`)."""
    return [
        {"variant": variant_id, "board": board, "player": side}
        for board, side in variant_positions(variant_id, count)
    ]


def review_of_longest_game(variant_id: str) -> dict[str, object]:
    """The body of a review of a longest game of a variant (:func:`longest_game`)."""
    return {"variant": variant_id, "moves": game_moves(variant_id, longest_game(variant_id))}
