"""The answers of the variants other than the standard game, from their shipped tables.

The same answers as :mod:`.moves` gives for the standard game, read with the variant's moves,
lines and sides (the API contract's "Variants"): a move adds ``mark`` in ``wild`` and ``grid`` in
Notakto, and ``row`` and ``column`` are within its board. Deterministic answers are rendered when
first asked for and the most recent kept, as the standard game's analyses are.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from ..game.board import BoardError, canonical_symbols
from ..game.choice import Options, choose
from ..game.exact import OUTCOMES, RankedMove, Values, rank
from ..game.levels import LADDERS, Ladder
from ..game.tables import TABLED, table
from ..game.tactics import TACTICS, explain_move
from ..game.variants import VARIANTS, Move, Variant, VariantPosition
from ..game.words import say
from ..language import DEFAULT, LANGUAGES, words
from ..schemas import (
    AnalysisResponse,
    BestMoveResponse,
    LevelInfo,
    MoveInfo,
    VariantInfo,
    VariantLevels,
    VariantList,
    VariantStart,
)
from .entity import Entity

#: How many analyses (and moves ranked) are kept: the most recently asked for. A 4 × 4 analysis is
#: about 4 KB and takes about 0.4 ms to render.
KEPT = 1024
#: How many best moves (and the positions of the boards asked for) are kept: the most recently asked
#: for. A best move is under 1 KB kept, with its position, and takes 0.1 to 0.4 ms to find and render:
#: the standard game keeps all of its 9,040, and 16,384 keep the positions that the games of a
#: variant pass through most, for about 16 MB at most.
BEST_KEPT = 16_384
#: A variant with at most this many unfinished positions keeps every best move asked for, and every
#: legal position looked up, in plain dictionaries keyed by its board's canonical text (the standard
#: game's 9,040 positions, misère's, wild's and Notakto's on one board: at most some 30,000 answers,
#: each under 1 KB, and as many positions, each under 0.5 KB); its analyses are quick to render (some
#: 0.2 ms). The others keep the most recent, above.
KEPT_WHOLE = 16_384


def placed(variant: Variant, cell: int, mark: int) -> dict[str, object]:
    """What a move on ``cell`` placing ``mark`` adds in its variant: the ``mark`` in ``wild``, where a
    side chooses it, and the ``grid`` (the board the cell is on) in Notakto."""
    fields: dict[str, object] = {}
    if variant.marks == "either":
        fields["mark"] = "XO"[mark]
    if variant.marks == "x_only":
        fields["grid"] = cell // variant.board_cells
    return fields


def move_fields(position: VariantPosition, move: RankedMove, language: str = DEFAULT) -> dict[str, object]:
    """What every answer gives of a move in a variant: where it is, what it is worth, what it does (in
    ``language``)."""
    variant = position.variant
    on_board = move.cell % variant.board_cells
    tactics, reason = explain_move(
        variant, position.state, Move(move.cell, move.mark), move.score, move.plies, words=words(language)
    )
    fields: dict[str, object] = {
        "position": move.cell,
        "row": on_board // variant.size,
        "column": on_board % variant.size,
        **placed(variant, move.cell, move.mark),
    }
    return fields | {
        "score": move.score,
        "outcome": OUTCOMES[move.score],
        "plies_to_end": move.plies,
        "tactics": list(tactics),
        "reason": reason,
    }


def status_after(position: VariantPosition, move: RankedMove) -> str:
    """The status of the board after ``move``."""
    variant = position.variant
    _, ended = variant.play(position.state, Move(move.cell, move.mark))
    if ended is None:
        return "in_progress"
    if ended == 0:
        return "draw"
    mover = position.state.mover
    winner = mover if ended > 0 else 1 - mover
    side = variant.sides[winner] if variant.marks != "own" else "XO"[winner]
    return f"{side.lower()}_won"


def after(cells: str, move: RankedMove) -> str:
    return cells[: move.cell] + "XO"[move.mark] + cells[move.cell + 1 :]


#: The side that won, by the status of a finished board.
WINNERS = {"x_won": "X", "o_won": "O", "first_won": "first", "second_won": "second"}


def exact_values() -> dict[str, Values]:
    """The exact values of every variant, from its shipped table, by its id."""
    return {variant.id: Values(variant, table(variant.id)) for variant in TABLED}


class VariantAnswers:
    """Best moves and analyses in every variant, from its shipped table."""

    def __init__(self) -> None:
        self.values = exact_values()
        #: The variants small enough to keep every best move asked for (:data:`KEPT_WHOLE`).
        self.small = frozenset(key for key in self.values if table(key).positions <= KEPT_WHOLE)
        self._whole: dict[tuple[str, str, str | None], Entity] = {}
        #: The legal positions of the small variants looked up so far, by (variant, cells, player): a
        #: board in canonical symbols, as most are written, is found in one step.
        self._known: dict[tuple[str, str, str | None], VariantPosition] = {}
        self._lookup = lru_cache(maxsize=BEST_KEPT)(self._find)
        self._ranked = lru_cache(maxsize=KEPT)(self._rank)
        self._best = lru_cache(maxsize=BEST_KEPT)(self._render_best)
        self._analysis = lru_cache(maxsize=KEPT)(self._render_analysis)

    def lookup(self, variant_id: str, text: str, player: str | None) -> VariantPosition | None:
        """The position of a board string in any spelling of its symbols and a player, when the variant
        holds it legal; ``None`` otherwise, and the routes say why.

        Only a string of the variant's length, in its symbols once spelled canonically (``X``, ``O``,
        ``.``), and a player it knows, is looked up in (and so kept by) the cache, by its canonical
        cells: a client's other text is never kept, whatever its size or spelling."""
        found = self._known.get((variant_id, text, player))  # only ever read with a client's text
        if found is not None:
            return found
        variant = VARIANTS[variant_id]
        if len(text) != variant.cells or player not in (None, *variant.sides):
            return None
        cells = canonical_symbols(text)
        if cells.strip(variant.shape.marks + "."):
            return None
        found = self._lookup(variant_id, cells, player)
        if found is not None and variant_id in self.small:
            self._known[variant_id, cells, player] = found
        return found

    def _find(self, variant_id: str, text: str, player: str | None) -> VariantPosition | None:
        variant = VARIANTS[variant_id]
        try:
            return variant.resolve(text, player)
        except BoardError:
            return None

    def ranked(self, position: VariantPosition) -> tuple[RankedMove, ...]:
        """Every move of an unfinished position, best first (the contract's order)."""
        return self._ranked(position)

    def best_move(self, position: VariantPosition, language: str = DEFAULT) -> Entity:
        """The chosen move (steps 1–4) in an unfinished position, in ``language``, with its entity tag:
        in a small variant every one kept in the default language, the most recent in the others."""
        if position.variant.id not in self.small or language != DEFAULT:
            return self._best(position, language)
        key = (position.variant.id, position.cells, position.player)
        found = self._whole.get(key)
        if found is None:
            found = self._whole[key] = Entity.of(self.render_best(position))
        return found

    def best_move_with(self, position: VariantPosition, options: Options, language: str = DEFAULT) -> bytes:
        """The move chosen with ``options``; rendered each time when they involve randomness."""
        if options.deterministic:
            return self.best_move(position, language).body
        values = self.values[position.variant.id]
        chosen = choose(self.ranked(position), options, lambda depth: values.within(position.state, depth))
        return self.response(position, chosen, language).model_dump_json(exclude_unset=True).encode()

    def chosen(self, position: VariantPosition, language: str = DEFAULT) -> BestMoveResponse:
        """The chosen move (steps 1–4) in an unfinished position, as the answer's model."""
        return self.response(position, self.ranked(position)[0], language)

    def analysis(self, position: VariantPosition, language: str = DEFAULT) -> Entity:
        """The full analysis of a position, finished or not, in ``language``."""
        return self._analysis(position, language)

    def response(
        self, position: VariantPosition, move: RankedMove, language: str = DEFAULT
    ) -> BestMoveResponse:
        """The answer that plays ``move`` in ``position``, in ``language``."""
        first = self.ranked(position)[0]
        best = rank((first.score, first.plies))
        return BestMoveResponse(
            board=position.cells,
            player=position.player,
            **move_fields(position, move, language),
            optimal=rank((move.score, move.plies)) == best,
            board_after=after(position.cells, move),
            status_after=status_after(position, move),
        )

    def _rank(self, position: VariantPosition) -> tuple[RankedMove, ...]:
        return tuple(self.values[position.variant.id].ranked(position.state))

    def render_best(self, position: VariantPosition, language: str = DEFAULT) -> bytes:
        """The chosen move (steps 1–4) in an unfinished position, rendered (not kept)."""
        return self.chosen(position, language).model_dump_json(exclude_unset=True).encode()

    def render_analysis(self, position: VariantPosition, language: str = DEFAULT) -> bytes:
        """Everything about a position, rendered (not kept)."""
        return self.analysis_response(position, language).model_dump_json(exclude_unset=True).encode()

    def _render_best(self, position: VariantPosition, language: str) -> Entity:
        return Entity.of(self.render_best(position, language), language)

    def _render_analysis(self, position: VariantPosition, language: str) -> Entity:
        return Entity.of(self.render_analysis(position, language), language)

    def analysis_response(self, position: VariantPosition, language: str = DEFAULT) -> AnalysisResponse:
        """Everything about a position of a variant."""
        common = {
            "board": position.cells,
            "status": position.status,
            "winner": WINNERS.get(position.status),
            "winning_lines": [list(line) for line in position.winning_lines],
            "player": position.player,
        }
        if position.player is None:
            return AnalysisResponse(
                **common,
                score=None,
                outcome=None,
                plies_to_end=None,
                best_moves=[],
                moves=[],
                principal_variation=[],
            )
        ranked = self.ranked(position)
        first = ranked[0]
        best = rank((first.score, first.plies))
        values = self.values[position.variant.id]
        return AnalysisResponse(
            **common,
            score=first.score,
            outcome=OUTCOMES[first.score],
            plies_to_end=first.plies,
            best_moves=sorted({m.cell for m in ranked if rank((m.score, m.plies)) == best}),
            moves=[MoveInfo(**move_fields(position, m, language), traps=m.traps) for m in ranked],
            principal_variation=[m.cell for m in values.variation(position.state, first)],
        )


def _levels(ladder: Ladder) -> VariantLevels:
    """What each level of ``ladder`` stands for, with its rating where the ladder is calibrated."""
    ratings = ladder.ratings or {}
    return VariantLevels(
        **{
            level.value: LevelInfo(depth=preset.depth, skill=preset.skill, rating=ratings.get(level.value))
            for level, preset in ladder.presets.items()
        }
    )


def catalogues(answers: VariantAnswers, books: Mapping[str, tuple[int, bool]]) -> dict[str, Entity]:
    """``GET /v1/variants`` in every language offered, by its tag."""
    return {language: catalogue(answers, books, language) for language in LANGUAGES}


def catalogue(
    answers: VariantAnswers, books: Mapping[str, tuple[int, bool]], language: str = DEFAULT
) -> Entity:
    """``GET /v1/variants``: every variant, its name and rules (in ``language``), its value from the
    empty board, its levels, and its puzzle book (``books``: how many puzzles each holds, and whether
    that is all of them)."""
    catalogue = words(language)
    found = []
    for variant in VARIANTS.values():
        value, positions = answers.values[variant.id].value(variant.start()), table(variant.id).positions
        found.append(
            VariantInfo(
                id=variant.id,
                name=say(catalogue, variant.name),
                rules=say(catalogue, variant.rules),
                rows=variant.size,
                columns=variant.size,
                boards=variant.boards,
                line=variant.line,
                marks=variant.marks,
                misere=variant.misere,
                start=VariantStart(outcome=OUTCOMES[value[0]], plies_to_end=value[1]),
                positions=positions,
                tactics=list(TACTICS[variant.id]),
                rated=LADDERS[variant.id].ratings is not None,
                levels=_levels(LADDERS[variant.id]),
                rating_max=LADDERS[variant.id].rating_max,
                puzzles=books[variant.id][0],
                puzzles_complete=books[variant.id][1],
            )
        )
    return Entity.of(VariantList(variants=found).model_dump_json().encode(), language)
