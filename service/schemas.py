"""The JSON shapes of API v1, as Pydantic models: one place for the server and the client.

Request models turn JSON into game values (:class:`~service.game.variants.VariantBoard`,
:class:`~service.game.variants.VariantPosition`) and name what is wrong with bad input; the
web layer declares them on its routes, so FastAPI validates and documents
them. Response models describe what the service answers; the Python client
parses answers with them. Only Pydantic and :mod:`service.game` are imported
here, so the client needs neither FastAPI nor a server.
"""

from __future__ import annotations

from functools import cached_property
from typing import Annotated, Any, Literal, get_args

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainValidator,
    StrictBool,
    ValidationError,
    ValidationInfo,
    WithJsonSchema,
    field_validator,
)
from pydantic_core import PydanticCustomError

from .game import BoardError, Level, Mark, Options, Outcome
from .game.board import EMPTY
from .game.choice import DEFAULT as DEFAULT_OPTIONS
from .game.choice import DEPTH_IN_WORDS, MAX_DEPTH
from .game.levels import HIGHEST_RATING, LADDERS, STANDARD_LADDER
from .game.puzzles import themes_of
from .game.review import Judgement
from .game.variants import STANDARD, VARIANTS, VariantBoard, VariantPosition
from .game.words import Message, Plural, Said
from .language import LANGUAGES, well_formed
from .language.validation import PYDANTIC_ERRORS, said

__all__ = [
    "MAX_BATCH_ITEMS",
    "MAX_BODY_BYTES",
    "MAX_PUZZLE_PAGE",
    "PUZZLE_PAGE",
    "AnalysisRequest",
    "AnalysisResponse",
    "BatchRequest",
    "BatchResponse",
    "BestMoveQuery",
    "BestMoveRequest",
    "BestMoveResponse",
    "ErrorDetail",
    "HealthResponse",
    "MoveInfo",
    "PositionQuery",
    "PositionRequest",
    "Problem",
    "Puzzle",
    "PuzzlePage",
    "PuzzleQuery",
    "RandomPuzzleQuery",
    "ReviewRequest",
    "ReviewResponse",
    "VariantInfo",
    "VariantList",
    "VariantName",
    "first_structural_error",
]

# --- boards -----------------------------------------------------------------------------------------

#: Where each cell of a board is (the geometry's rule, in words).
CELL_AT = (
    "cells are numbered in row-major order: on a board of c columns (3, or 4 in `4x4` and `4x4-3`), "
    "cell i is at row i // c, column i % c; Notakto's boards are written one after another, board j "
    "holding cells 9j to 9j + 8"
)

#: The lengths of every variant's board strings, and the sizes of the boards that also come as arrays
#: (those of the variants played on one board).
STRING_LENGTHS = sorted({variant.cells for variant in VARIANTS.values()})
ARRAY_SIZES = sorted({variant.size for variant in VARIANTS.values() if variant.boards == 1})
_SYMBOL = "[XxOo.\\-_ ]"


def _cells_form(size: int) -> str:
    """The name of the form of a board of ``size`` rows as an array of cells."""
    return f"BoardCells{size}x{size}"


def _rows_form(size: int) -> str:
    """The name of the form of a board of ``size`` rows as an array of rows."""
    return f"BoardRows{size}x{size}"


def _array_forms() -> dict[str, dict[str, Any]]:
    """The array forms of a board of each size: its cells, and its rows."""
    forms: dict[str, dict[str, Any]] = {}
    for size in ARRAY_SIZES:
        cells = {"type": "array", "items": {"$ref": "#/components/schemas/Cell"}}
        forms[_cells_form(size)] = {
            **cells,
            "minItems": size * size,
            "maxItems": size * size,
            "description": f"The {size * size} cells of a {size}×{size} board in row-major order.",
        }
        forms[_rows_form(size)] = {
            "type": "array",
            "items": {**cells, "minItems": size, "maxItems": size},
            "minItems": size,
            "maxItems": size,
            "description": f"The {size} rows of {size} cells of a {size}×{size} board, top row first.",
        }
    return forms


#: The JSON schemas of the board forms, by name: the OpenAPI document lists them as components,
#: and the request models refer to them (``#/components/schemas/<name>``). No enum lists a mark in
#: both cases: generated clients turn enum values into names, which must differ. Each form takes
#: the boards of every variant; the variant a request names decides which of them it accepts.
BOARD_SCHEMAS: dict[str, dict[str, Any]] = {
    "Cell": {
        "anyOf": [{"type": "string", "pattern": "^[XxOo.\\-_ ]?$", "maxLength": 1}, {"type": "null"}],
        "description": "One cell: X or O (either case) for a mark; null, '', ' ', '.', '-' or '_' "
        "for an empty cell.",
        "examples": ["X"],
    },
    "BoardString": {
        "type": "string",
        "minLength": STRING_LENGTHS[0],
        "maxLength": STRING_LENGTHS[-1],
        "pattern": "^(?:" + "|".join(f"{_SYMBOL}{{{length}}}" for length in STRING_LENGTHS) + ")$",
        "description": "The cells in row-major order, as many as the variant's board has: 9 on a 3×3 "
        "board, 16 on a 4×4 board, 9 per board in Notakto (18 on 2 boards, 27 on 3). X or O (either "
        "case) for a mark (Notakto: X only), '.', '-', '_' or a space for an empty cell.",
        "examples": ["X.O...X..", "X....O.........."],
    },
    **_array_forms(),
    "BoardCells": {
        "oneOf": [{"$ref": "#/components/schemas/" + _cells_form(size)} for size in ARRAY_SIZES],
        "description": "The cells in row-major order: 9 on a 3×3 board, 16 on a 4×4 board.",
        "examples": [["X", None, "O", None, None, None, "X", None, None]],
    },
    "BoardRows": {
        "oneOf": [{"$ref": "#/components/schemas/" + _rows_form(size)} for size in ARRAY_SIZES],
        "description": "The rows of cells, top row first: 3 rows of 3 on a 3×3 board, 4 rows of 4 on a "
        "4×4 board.",
        "examples": [[["X", "", "O"], ["", "", ""], ["X", "", ""]]],
    },
    "Board": {
        "description": "A board in one of three forms: a string, an array of cells, or an array of rows, "
        "of the size of the request's variant (Notakto's boards as a string only). "
        f"{CELL_AT[0].upper()}{CELL_AT[1:]}.",
        "oneOf": [
            {"$ref": "#/components/schemas/BoardString"},
            {"$ref": "#/components/schemas/BoardCells"},
            {"$ref": "#/components/schemas/BoardRows"},
        ],
    },
}


def inline_schema(name: str) -> dict[str, Any]:
    """The schema ``name`` of :data:`BOARD_SCHEMAS` with the schemas it refers to written out."""

    def resolve(value: Any) -> Any:  # noqa: ANN401 - any JSON value
        if isinstance(value, dict):
            ref = value.get("$ref", "")
            if ref.startswith("#/components/schemas/"):
                return resolve(BOARD_SCHEMAS[ref.rsplit("/", 1)[1]])
            return {key: resolve(item) for key, item in value.items()}
        if isinstance(value, list):
            return [resolve(item) for item in value]
        return value

    resolved: dict[str, Any] = resolve(BOARD_SCHEMAS[name])
    return resolved


BOARD_STRING_SCHEMA = inline_schema("BoardString")
BOARD_SCHEMA = inline_schema("Board")


def refused(code: str, message: Message | Plural, **values: object) -> PydanticCustomError:
    """The error ``code`` of a request's input, in words that are said in the answer's language: its
    context holds them (``said``, :class:`~service.game.words.Said`) and ``values``."""
    return PydanticCustomError(code, "{said}", {"said": Said(message, tuple(values.items())), **values})


def _custom_error(error: BoardError) -> PydanticCustomError:
    return PydanticCustomError(error.code, "{said}", {"said": error.said})


def _board_string(value: object, cells: int = 9) -> object:
    if not isinstance(value, str):
        raise refused(
            "board_type", Message("error", "a board here is a string of {cells} characters"), cells=cells
        )
    return value


def _variant_board(value: object, info: ValidationInfo, *, playable: bool, string: bool) -> object:
    """The board of a request in the variant it names (``variant``, validated before it), read by the
    variant's rules (:meth:`~service.game.variants.Variant.board`) into a
    :class:`~service.game.variants.VariantBoard`. When the variant itself is unknown, its own error
    says so and the board is left as it came (the request fails either way)."""
    if "variant" not in info.data:
        return value
    variant = VARIANTS[info.data["variant"]]
    if string:
        _board_string(value, variant.cells)
    try:
        found = variant.board(value)
        status = variant.resolve(found.cells).status
    except BoardError as error:
        raise _custom_error(error) from None
    if playable and status != "in_progress":
        raise refused(
            "game_over",
            Message("error", "the game is over ({status}): there is no move to make"),
            status=status,
        )
    return found


#: A board of the request's variant, in any form it takes; one on which the game goes on; one as a
#: string, the form of query strings and paths.
AnyBoard = Annotated[
    VariantBoard,
    PlainValidator(lambda value, info: _variant_board(value, info, playable=False, string=False)),
    WithJsonSchema(BOARD_SCHEMA),
]
PlayableBoard = Annotated[
    VariantBoard,
    PlainValidator(lambda value, info: _variant_board(value, info, playable=True, string=False)),
    WithJsonSchema(BOARD_SCHEMA),
]
PlayableBoardString = Annotated[
    VariantBoard,
    PlainValidator(lambda value, info: _variant_board(value, info, playable=True, string=True)),
    WithJsonSchema(BOARD_STRING_SCHEMA),
]
PLAYER_DESCRIPTION = (
    "The side to move. Needed only when both sides have as many marks (X by default); "
    "otherwise the counts decide, and a player that contradicts them is an error. In `wild` and "
    "Notakto the sides are `first` and `second`, and the number of marks decides (even: `first`)."
)
#: Every tactic tag of every variant, the standard game's first (a test keeps them those of
#: ``service.game.tactics.TACTICS``).
AnyTactic = Literal[
    "win",
    "block",
    "fork",
    "threat",
    "block_fork",
    "center",
    "corner",
    "edge",
    "opposite_corner",
    "lose",
    "squeeze",
    "avoid",
    "opposite",
    "gift",
    "live",
    "kill",
    "hand_over",
]
#: Every puzzle theme of every variant: the tactic tags but those of where a move is (a test keeps them
#: ``service.game.puzzles.THEMES``).
Theme = Literal[
    "win",
    "block",
    "fork",
    "threat",
    "block_fork",
    "lose",
    "squeeze",
    "avoid",
    "gift",
    "live",
    "kill",
    "hand_over",
]
#: A side in any variant: a mark, or in ``wild`` and Notakto, where both sides place any mark, a side
#: named by its turn.
AnySide = Literal["X", "O", "first", "second"]
#: Every variant's ``id`` (``service.game.variants.VARIANTS``; a test keeps them equal).
VariantName = Literal["standard", "misere", "wild", "notakto", "notakto-2", "notakto-3", "4x4", "4x4-3"]
#: The status of a board in any variant: the marked variants' (``x_won``, ``o_won``), or those of the
#: variants whose sides are named by their turn (``first_won``, ``second_won``).
StatusName = Literal["in_progress", "x_won", "o_won", "draw", "first_won", "second_won"]

#: The enumerations the OpenAPI document names as components, as it does the board forms: one type
#: each in generated clients, rather than a copy per field. Each is the schema of the ``Literal`` of
#: the same values, which the models use; ``x-enum-varnames`` gives the generators a constant's name
#: for values that are not identifiers.
ENUM_SCHEMAS: dict[str, dict[str, Any]] = {
    "Variant": {
        "type": "string",
        "enum": list(get_args(VariantName)),
        "x-enum-varnames": [VARIANTS[name].constant for name in get_args(VariantName)],
        "description": "A rule variant, the value of `variant` (`standard` when it is not sent): see "
        "`GET /v1/variants` for each one's rules, board and sides.",
    },
    "Status": {
        "type": "string",
        "enum": list(get_args(StatusName)),
        "description": "Where a game stands on a board: `in_progress`, `draw`, and `x_won` or `o_won` "
        "(`first_won` or `second_won` in `wild` and Notakto, whose sides are named by their turn).",
    },
    "Mark": {
        "type": "string",
        "enum": list(get_args(Mark)),
        "description": "A mark: `X` or `O`.",
    },
    "Player": {
        "type": "string",
        "enum": list(get_args(AnySide)),
        "description": "A side: `X` or `O`, or `first` or `second` in `wild` and Notakto, where both "
        "sides place any mark.",
    },
}
VariantField = Annotated[
    VariantName,
    Field(
        description="The rule variant (`standard` by default): see `GET /v1/variants` for each one's rules, "
        "board and sides."
    ),
]


def _a_language_tag(tag: str | None) -> str | None:
    """A BCP 47 language tag, well-formed (RFC 5646 §2.1), up to 64 characters (or none)."""
    if tag is not None and not well_formed(tag):
        message = Message("error", "lang is a BCP 47 language tag, such as en, es or pt-BR; got {tag}")
        raise refused("language_tag", message, tag=tag[:64] + ("…" if len(tag) > 64 else ""))
    return tag


LangField = Annotated[
    str | None,
    AfterValidator(_a_language_tag),
    Field(
        description="The language of the answer's sentences for people, as a BCP 47 tag: "
        f"{', '.join(f'`{tag}`' for tag in LANGUAGES)} are offered (`GET /v1/languages`), and a tag that "
        "names a region or script of one (`pt-BR`) gets it. When absent, `Accept-Language` chooses; "
        "English when no language offered matches, never an error. A malformed tag is a `422`.",
        examples=["es"],
    ),
]

# --- requests ---------------------------------------------------------------------------------------


def _defaults_in_words(schema: dict[str, Any]) -> None:
    """Request schemas say their defaults in the descriptions, not as ``default``.

    A field with a ``default`` is one the server fills in, and type generators (openapi-typescript
    among them) make such fields required in the types they write, so the minimal body a front
    end sends, ``{"board": "X........"}``, would not type-check.
    """
    for field in schema.get("properties", {}).values():
        field.pop("default", None)


def resolve_board(board: VariantBoard, player: str | None) -> VariantPosition:
    """The position on a board of any variant with the side to move its rules decide; raises
    :class:`~service.game.BoardError` naming the rule that the board or ``player`` breaks."""
    return board.variant.resolve(board.cells, player)


class PositionRequest(BaseModel):
    """A board and, optionally, the side to move; resolved by the turn and legality rules.

    ``player`` is the side to move as sent, checked against the board;
    :attr:`position` is the game value, with the side to move the rules decide
    (``None`` on a finished board).
    """

    model_config = ConfigDict(extra="forbid", frozen=True, json_schema_extra=_defaults_in_words)

    # The variant comes first: the board is read by its rules.
    variant: VariantField = "standard"
    board: AnyBoard
    player: AnySide | None = Field(default=None, validate_default=True, description=PLAYER_DESCRIPTION)

    @field_validator("player", mode="after")
    @classmethod
    def _player_agrees(cls, player: AnySide | None, info: ValidationInfo) -> AnySide | None:
        board = info.data.get("board")
        if isinstance(board, VariantBoard):
            try:
                resolve_board(board, player)
            except BoardError as error:
                raise _custom_error(error) from None
        return player

    @cached_property
    def position(self) -> VariantPosition:
        """The position, resolved once (Pydantic keeps a cached property apart from the fields)."""
        return resolve_board(self.board, self.player)


class AnalysisRequest(PositionRequest):
    """Body of ``POST /v1/analysis``: any legal board, finished or not."""

    lang: LangField = None


Skill = Annotated[
    float,
    Field(
        strict=True,
        ge=0,
        le=1,
        allow_inf_nan=False,
        description="Difficulty from 0 to 1 (default 1): with probability `skill` the move is chosen "
        "as usual, otherwise uniformly from all legal moves. 1 is perfect play, 0 a random player.",
    ),
]
Seed = Annotated[
    int,
    Field(
        strict=True,
        ge=-(2**63),
        lt=2**64,
        description="Makes every random choice of this request reproducible: "
        "the same request with the same seed always gets the same answer, "
        "and different seeds draw independently. Without one, each request draws anew.",
    ),
]


Depth = Annotated[
    int,
    Field(
        strict=True,
        ge=1,
        le=MAX_DEPTH,
        description="Look only this many plies ahead, the engine's own move being ply 1: the move is "
        "drawn at random (reproducible with `seed`) from the moves best within that horizon. "
        f"{DEPTH_IN_WORDS[0].upper()}{DEPTH_IN_WORDS[1:]}. From 1 to the variant's number of cells "
        "(9 in the standard game).",
    ),
]


LevelName = Annotated[
    Level,
    Field(
        description="A difficulty level for front ends, weakest first; each stands for a `depth` and "
        "a `skill` of the variant's own, chosen by calibration in that variant so that each level is "
        "stronger than the one before it (`levels` in `GET /v1/variants`). In the standard game: "
        + "; ".join(
            f"`{level.value}` depth {preset.depth}, skill {preset.skill:g}"
            for level, preset in STANDARD_LADDER.presets.items()
        )
        + ". Not together with `depth` or `skill`.",
    ),
]


def _other_scales() -> str:
    """The calibrated variants other than the standard game, with perfect play's rating in each."""
    others = [
        f"`{variant}` {ladder.rating_max}"
        for variant, ladder in LADDERS.items()
        if variant != STANDARD.id and ladder.ratings is not None
    ]
    if not others:
        return (
            "No other variant is calibrated yet (`rated` in `GET /v1/variants`): `rating` in another "
            "variant is a 422 (`variant_unrated`)."
        )
    return (
        "In another variant the scale is that variant's own, from its own calibration, up to perfect play's "
        f"rating there: {', '.join(others)}; in a variant that is not calibrated (`rated` false in "
        "`GET /v1/variants`) `rating` is a 422 (`variant_unrated`)."
    )


Rating = Annotated[
    float,
    Field(
        strict=True,
        ge=0,
        allow_inf_nan=False,
        # The highest of every variant's bound, for the schema; a request is held to its variant's own
        # (``_rated_variant``), which names the variant.
        json_schema_extra={"maximum": HIGHEST_RATING},
        description=f"An opponent of this strength on the Elo scale of the levels' calibration, from 0 (a "
        f"uniformly random player) to {STANDARD_LADDER.rating_max} (`perfect`) in the standard game: "
        + ", ".join(f"`{name}` {rating}" for name, rating in (STANDARD_LADDER.ratings or {}).items())
        + ". "
        + _other_scales()
        + " Each move is played, at random (reproducible with `seed`), by one of the two calibrated "
        "players whose ratings are around it, the stronger the more often the closer the rating is to "
        "its. Not together with `level`, `depth` or `skill`.",
    ),
]


class BestMoveItem(PositionRequest):
    """A best-move request in a batch: a legal board on which the game is not over, and options (its
    language is the batch's)."""

    board: PlayableBoard
    level: LevelName | None = None
    rating: Rating | None = None
    skill: Skill = 1.0
    random: StrictBool = Field(
        default=False,
        description="Break the ties left after the best score and the fastest win (or slowest loss) "
        "uniformly at random, instead of by traps and then the lowest cell (default false).",
    )
    seed: Seed | None = None
    depth: Depth | None = None

    @field_validator("rating", mode="after")
    @classmethod
    def _rated_variant(cls, rating: float | None, info: ValidationInfo) -> float | None:
        """A rating is on its variant's calibrated scale, up to perfect play's rating there; a variant
        whose levels are not calibrated has none."""
        variant = info.data.get("variant", STANDARD.id)
        if rating is None:
            return rating
        top = LADDERS[variant].rating_max
        if top is None:
            rated_ones = ", ".join(name for name, ladder in LADDERS.items() if ladder.ratings is not None)
            message = Message(
                "error",
                "rating is on a calibrated variant's scale, and {variant} is not calibrated "
                "(calibrated: {calibrated}): use level, depth or skill",
            )
            raise refused("variant_unrated", message, variant=variant, calibrated=rated_ones)
        if rating > top:
            message = Message(
                "error", "Input should be less than or equal to {le}, perfect play's rating in {variant}"
            )
            raise refused("less_than_equal", message, le=top, variant=variant)
        return rating

    @field_validator("depth", mode="after")
    @classmethod
    def _within_the_game(cls, depth: int | None, info: ValidationInfo) -> int | None:
        """A horizon runs to the variant's last cell at most."""
        cells = VARIANTS[info.data.get("variant", STANDARD.id)].cells
        if depth is not None and depth > cells:
            raise refused("less_than_equal", PYDANTIC_ERRORS["less_than_equal"], le=cells)
        return depth

    @field_validator("rating", "skill", "depth", mode="after")
    @classmethod
    def _not_with_a_strength(cls, value: float | int | None, info: ValidationInfo) -> float | int | None:
        """A level or a rating stands for a strength of its own: nothing else that sets one may be
        given beside it (``rating`` comes after ``level``, the others after both)."""
        for given in ("level", "rating"):
            if value is not None and given != info.field_name and info.data.get(given) is not None:
                message = Message(
                    "error", "{field} cannot be combined with {given}, which sets it: send one or the other"
                )
                raise refused(f"{given}_conflict", message, field=info.field_name, given=given)
        return value

    @property
    def options(self) -> Options:
        if self.level is not None:
            return LADDERS[self.variant].options(self.level, self.seed)
        if self.rating is not None:
            return LADDERS[self.variant].rated(self.rating, self.seed)
        if self.skill == 1.0 and not self.random and self.seed is None and self.depth is None:
            return DEFAULT_OPTIONS
        return Options(skill=self.skill, randomize=self.random, seed=self.seed, depth=self.depth)


class BestMoveRequest(BestMoveItem):
    """Body of ``POST /v1/best-move``: a legal board on which the game is not over, options, and the
    language of the answer."""

    lang: LangField = None


MAX_BATCH_ITEMS = 1000
#: The default limit on request bodies, in bytes (1 MiB, as the API contract fixes it). It fits the
#: longest valid request, a batch of :data:`MAX_BATCH_ITEMS` items each with an empty board in rows
#: of ``null`` and every option at its longest, as JSON tools write it: 177,011 bytes compact,
#: 587,026 indented by 4 spaces with CRLF line ends, 963,034 indented by 8.
MAX_BODY_BYTES = 1024 * 1024


class BatchRequest(BaseModel):
    """Body of ``POST /v1/best-move/batch``: 1 to 1,000 best-move requests, and their language."""

    model_config = ConfigDict(extra="forbid", frozen=True, json_schema_extra=_defaults_in_words)

    items: list[BestMoveItem] = Field(
        min_length=1, max_length=MAX_BATCH_ITEMS, description="Best-move requests, answered in order."
    )
    lang: LangField = None


def first_structural_error(model: type[BaseModel], data: object) -> dict[str, Any] | None:
    """The first unknown field, non-object item or excess item of ``data`` for ``model``, or ``None``.

    Found by one scan, without validating: input with thousands of such faults is refused at the
    first one, instead of being validated whole and paying for one error each. Its location is
    relative to the body, as Pydantic's would be; input without these faults returns ``None``
    and is validated as usual.
    """
    if not isinstance(data, dict):
        return None
    unknown = _unknown_field(model, data, ())
    if unknown is not None or model is not BatchRequest:
        return unknown
    items = data.get("items")
    if not isinstance(items, list):
        return None
    if len(items) > MAX_BATCH_ITEMS:
        return {
            "type": "too_long",
            "loc": ("items",),
            "msg": f"List should have at most {MAX_BATCH_ITEMS} items after validation, not {len(items)}",
            "ctx": {"field_type": "List", "max_length": MAX_BATCH_ITEMS, "actual_length": len(items)},
        }
    for index, item in enumerate(items):
        if not isinstance(item, dict):
            return {
                "type": "model_type",
                "loc": ("items", index),
                "msg": "Input should be a valid dictionary or instance of BestMoveItem",
                "ctx": {"class_name": "BestMoveItem"},
            }
        unknown = _unknown_field(BestMoveItem, item, ("items", index))
        if unknown is not None:
            return unknown
    return None


def _unknown_field(
    model: type[BaseModel], data: dict[Any, Any], where: tuple[str | int, ...]
) -> dict[str, Any] | None:
    for key in data:
        if key not in model.model_fields:
            return {"type": "extra_forbidden", "loc": (*where, key), "msg": "Extra inputs are not permitted"}
    return None


class BestMoveQuery(PositionRequest):
    """Query of ``GET /v1/best-move``: the board as a 9-character string, and perhaps the player."""

    board: PlayableBoardString
    lang: LangField = None


class NoQuery(BaseModel):
    """Query of a route that takes no parameters: any parameter is an error, as on every route."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class LanguageQuery(BaseModel):
    """Query of a route whose only parameter is the language of its answer."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    lang: LangField = None


class PositionQuery(BaseModel):
    """Query of ``GET /v1/positions/{board}``: perhaps the variant and the player."""

    model_config = ConfigDict(extra="forbid", frozen=True, json_schema_extra=_defaults_in_words)

    variant: VariantField = "standard"
    player: AnySide | None = Field(default=None, description=PLAYER_DESCRIPTION)
    lang: LangField = None


# --- responses --------------------------------------------------------------------------------------

Cell = Annotated[
    int,
    Field(
        ge=0,
        le=26,
        description="Cell index in the board string: row * 3 + column (row * 4 + column on a 4×4 board; "
        "9 * grid + row * 3 + column in Notakto).",
    ),
]
Row = Annotated[int, Field(ge=0, le=3, description="Row of the cell on its board, 0 at the top.")]
Column = Annotated[int, Field(ge=0, le=3, description="Column of the cell on its board, 0 on the left.")]
Score = Annotated[int, Field(ge=-1, le=1, description="1 win, 0 draw, -1 loss, for the side to move.")]
OutcomeName = Annotated[Outcome, Field(description="The score in words.")]
Plies = Annotated[
    int,
    Field(
        ge=1,
        le=27,
        description="Moves the game still lasts under perfect play, the next one included; "
        "the winner hurries, the loser delays.",
    ),
]
CanonicalBoard = Annotated[
    str,
    Field(
        pattern="^[XO.]{9}(?:[XO.]{7}|[X.]{9}|[X.]{18})?$",
        description="The board in canonical form: 9 characters of X, O and '.' (16 on a 4×4 board; 9 per "
        "board in Notakto, X and '.' only).",
        examples=["X...O...."],
    ),
]
AnyStatus = Annotated[
    StatusName,
    Field(
        description="`in_progress`, `draw`, and `x_won` or `o_won` (`first_won` or `second_won` in `wild` "
        "and Notakto)."
    ),
]
PlacedMark = Annotated[
    Mark | None,
    Field(default=None, description="In `wild`: the mark the move places. Absent in other variants."),
]
Grid = Annotated[
    int | None,
    Field(
        default=None,
        ge=0,
        le=2,
        description="In Notakto: the board the cell is on, from 0. Absent in other variants.",
    ),
]


class _Board(BaseModel):
    """The position a move is played in."""

    board: CanonicalBoard
    player: AnySide = Field(description="The side to move, who plays the returned move.")


class Move(BaseModel):
    """A move, its value for the side that plays it under perfect play afterwards, and its tactics."""

    position: Cell
    row: Row
    column: Column
    mark: PlacedMark = None
    grid: Grid = None
    score: Score
    outcome: OutcomeName
    plies_to_end: Plies
    tactics: list[AnyTactic] = Field(
        description="What the move does, in this order: `win` (completes a line), `block` (takes a "
        "cell that would complete the opponent's line), `fork` (leaves two or more cells that would "
        "complete a line), `threat` (exactly one), `block_fork` (leaves the opponent no fork), "
        "`center`, `corner` or `edge`, and `opposite_corner` (a corner opposite the opponent's mark). "
        "The variants read these with their own lines, and add: `lose` (makes a line that loses: "
        "misère, Notakto's last live board), `avoid` (steps around a cell that would complete the "
        "mover's own line), `opposite` (the cell across the center holds the opponent's mark), "
        "`squeeze` (whatever the opponent plays makes a line that loses, or lets the mover win), "
        "`gift` (wild: leaves a line the opponent completes at once), `kill` (Notakto: a line on a "
        "board while another stays live), `hand_over` (a kill that leaves one live board) and `live` "
        "(no line: the board stays live). `GET /v1/variants` lists each variant's tags."
    )
    reason: str = Field(
        description="One sentence for a person: the main tactic, naming its cells and lines as they are "
        "seen on the board (never by index), and the value of the move.",
        examples=["Blocks X's top row; the game is a draw with best play."],
    )


class BestMoveResponse(Move, _Board):
    """The chosen move and its value for the side to move."""

    optimal: bool = Field(description="Whether the returned move is one of the optimal moves.")
    board_after: CanonicalBoard
    status_after: AnyStatus = Field(description="The status of the board after the move.")


class BatchResponse(BaseModel):
    """The answers to a batch, in the order of its items."""

    results: list[BestMoveResponse]


class MoveInfo(Move):
    """One legal move and its value for the side that plays it."""

    traps: int = Field(
        ge=0,
        le=26,
        description="Opponent replies after this move whose result for the opponent is worse "
        "than its perfect-play result: the mistakes this move invites (step 3 of the move choice).",
    )


class AnalysisResponse(BaseModel):
    """Everything about a position: status, values of every move, and the principal variation."""

    board: CanonicalBoard
    status: AnyStatus
    winner: AnySide | None = Field(
        description="The side that won, null if none (in `misere`, the side that did not make the line)."
    )
    winning_lines: list[list[int]] = Field(description="Every complete line, as its cells.")
    player: AnySide | None = Field(description="The side to move; null when the game is over.")
    score: Score | None
    outcome: OutcomeName | None
    plies_to_end: Plies | None
    best_moves: list[int] = Field(
        description="Every optimal cell: best score, then fastest win or slowest loss."
    )
    moves: list[MoveInfo] = Field(description="Every legal move with its value, best first.")
    principal_variation: list[int] = Field(
        description="Cells of the rest of the game when both sides play the chosen move."
    )


# --- the coach: reviews and puzzles -------------------------------------------------------------------

#: The calibrated players a strength is read against, weakest first.
PlayerName = Literal["random", "beginner", "easy", "medium", "hard", "perfect"]
Probability = Annotated[float, Field(ge=0, le=1)]


def _upper(value: object) -> object:
    """A mark as a board takes it, in either case."""
    return value.upper() if isinstance(value, str) else value


class MarkedMove(BaseModel):
    """A move of `wild`: a cell and the mark placed on it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    # The game checks the cell against the board, naming the move's index, as it does bare cells.
    position: Annotated[
        int,
        Field(strict=True),
        WithJsonSchema({"type": "integer", "minimum": 0, "maximum": 8, "description": "The cell, 0 to 8."}),
    ]
    mark: Annotated[
        Mark,
        BeforeValidator(_upper),
        WithJsonSchema(
            {
                "type": "string",
                "pattern": "^[XxOo]$",
                "description": "The mark placed, X or O (either case): either side may place either.",
                "examples": ["X"],
            }
        ),
    ]


def _move_words(data: dict[str, Any]) -> Said:
    """What a move is in the request's variant, in words."""
    variant = VARIANTS.get(data.get("variant", ""))
    if variant is None:
        return Said.of(
            Message(
                "error",
                "a move is a cell (an integer), or in wild an object with the cell and the mark placed",
            )
        )
    if variant.marks == "either":
        message = Message(
            "error",
            "a move of {variant} is an object with the cell (position, 0 to {last}) and the mark placed "
            '(X or O), such as {{"position": 4, "mark": "X"}}',
        )
        return Said.of(message, variant=variant.id, last=variant.cells - 1)
    message = Message("error", "a move of {variant} is a cell: an integer from 0 to {last}")
    return Said.of(message, variant=variant.id, last=variant.cells - 1)


def _game_move(value: object, info: ValidationInfo) -> int | MarkedMove:
    """A move of a review in its variant's form: an integer is a cell, in ``wild`` an object is a
    cell and a mark.

    Anything else is refused here in words that say what a move of the request's variant is,
    located at the move's index; whether the move is on the board and free is the game's to say.
    """
    variant = VARIANTS.get(info.data.get("variant", ""))
    marked = variant is None or variant.marks == "either"
    cell = variant is None or variant.marks != "either"
    if isinstance(value, int) and not isinstance(value, bool) and cell:
        return value
    if isinstance(value, MarkedMove) and marked:
        return value
    if isinstance(value, dict) and marked:
        return _marked_move(value, info)
    raise PydanticCustomError("move_type", "{said}", {"said": _move_words(info.data)})


def _marked_move(value: dict[str, Any], info: ValidationInfo) -> MarkedMove:
    """A move of ``wild`` sent as an object, or the error that says what is wrong with it."""
    try:
        return MarkedMove.model_validate(value)
    except ValidationError as error:
        first = error.errors()[0]
        field = ".".join(str(part) for part in first["loc"])
        here = {
            # TRANSLATORS: Follows what a move is, after "; here": what is wrong with the one sent.
            "missing": Message("error", "{words}; here {field} is missing"),
            "extra_forbidden": Message("error", "{words}; here {field} is not part of a move"),
        }.get(first["type"], Message("error", "{words}; here {field}: {msg}"))
        msg = said(first) or first["msg"]
        raise refused("move_form", here, words=_move_words(info.data), field=field, msg=msg) from None


#: A move of a game: a cell, or in ``wild`` a cell and a mark.
GameMove = Annotated[
    int | MarkedMove,
    PlainValidator(_game_move, json_schema_input_type=Annotated[int, Field(ge=0, le=26)] | MarkedMove),
]


def _start_board(value: object, info: ValidationInfo) -> object:
    """The board a reviewed game starts from: as given, or the empty board of the request's variant
    when it is absent (or ``null``)."""
    if value is None and "variant" in info.data:
        value = EMPTY * VARIANTS[info.data["variant"]].cells
    return _variant_board(value, info, playable=True, string=False)


#: The board a game starts from, its variant's empty board by default.
StartBoard = Annotated[
    VariantBoard, PlainValidator(_start_board), WithJsonSchema({"anyOf": [BOARD_SCHEMA, {"type": "null"}]})
]


class ReviewRequest(PositionRequest):
    """Body of ``POST /v1/review``: a game, as the moves played from a starting board."""

    board: StartBoard = Field(
        default=None,
        validate_default=True,
        description="The board the game starts from, in any of the forms of its variant; its empty "
        "board when absent or null.",
    )
    lang: LangField = None
    moves: list[GameMove] = Field(
        min_length=1,
        max_length=27,
        description="The moves played, in order, the side to move first: each a cell of the board "
        "string (0 to 8 in the standard game, row * 3 + column), or in `wild` an object with the cell "
        "(`position`) and the `mark` placed. Each must be legal when it is played: a move off the "
        "board, on a taken cell or a dead Notakto board, in the wrong form for the variant, or after "
        "the game is over, is a `422` located at its index.",
    )

    @field_validator("moves", mode="after")
    @classmethod
    def _within_the_game(cls, moves: list[int | MarkedMove], info: ValidationInfo) -> list[int | MarkedMove]:
        """No game of a variant has more moves than its board has cells."""
        variant = VARIANTS.get(info.data.get("variant", ""))
        if variant is not None and len(moves) > variant.cells:
            message = Message("error", "a game of {variant} has at most {cells} moves, not {count}")
            raise refused("too_long", message, variant=variant.id, cells=variant.cells, count=len(moves))
        return moves

    @property
    def start(self) -> VariantPosition:
        """The position the game starts from."""
        return self.position


class PlyReview(BaseModel):
    """One move of a reviewed game, judged; values are for the side that played it."""

    ply: int = Field(ge=1, le=27, description="The move's number in the game, from 1.")
    player: AnySide = Field(description="The side that played the move.")
    position: Cell
    row: Row
    column: Column
    mark: PlacedMark = None
    grid: Grid = None
    board_before: CanonicalBoard
    board_after: CanonicalBoard
    score_before: Score = Field(description="The position's value before the move, for the mover.")
    outcome_before: OutcomeName
    plies_to_end_before: Plies
    score: Score = Field(description="The value of the move played, for the mover.")
    outcome: OutcomeName
    plies_to_end: Plies
    best_moves: list[Cell] = Field(
        description="The optimal cells of the position: best score, then fastest win or slowest loss."
    )
    judgement: Judgement = Field(
        description="`best`: one of `best_moves`; `inaccuracy`: keeps the outcome, but a slower win or "
        "a quicker loss; `mistake`: a win becomes a draw; `blunder`: a win or a draw becomes a loss."
    )
    only_move: bool = Field(
        description="The position had two or more legal moves, exactly one kept its outcome, and it "
        "was played."
    )
    tactics: list[AnyTactic] = Field(description="What the move played does (as in the analysis).")
    reason: str = Field(description="One sentence for a person about the move played.")
    better: Move | None = Field(
        description="When the judgement is not `best`: the engine's move in that position (the move "
        "`GET /v1/best-move` gives), with its value and reason; otherwise null."
    )


class Judgements(BaseModel):
    """How many of a side's moves got each judgement."""

    best: int = Field(ge=0)
    inaccuracy: int = Field(ge=0)
    mistake: int = Field(ge=0)
    blunder: int = Field(ge=0)


class SideReview(BaseModel):
    """One side's moves in the game, and the strength they show."""

    moves: int = Field(ge=0, le=14, description="How many moves this side played in the game.")
    judgements: Judgements
    accuracy: float | None = Field(
        ge=0,
        le=100,
        description="Per cent of this side's moves judged `best`, to one decimal; null without moves.",
    )
    only_moves: int = Field(ge=0, description="How many only moves this side found.")
    level_likelihoods: dict[PlayerName, Probability] | None = Field(
        description="The probability that each calibrated player (a uniformly random one and the five "
        "levels) played these moves, from a uniform prior, to 4 decimals; null without moves."
    )
    level: PlayerName | None = Field(
        description="The most probable of them (the weaker on a tie); null without moves."
    )
    rating: int | None = Field(
        description="The calibrated rating of `level` in the game's variant (the levels' report); null "
        "without moves, and in a variant whose levels are not calibrated."
    )


class Sides(BaseModel):
    """Each side's part of the game."""

    X: SideReview
    O: SideReview  # noqa: E741 - the mark's own name


class TurnSides(BaseModel):
    """Each side's part of a game of `wild` or Notakto, whose sides are named by their turn."""

    first: SideReview
    second: SideReview


class ReviewResponse(BaseModel):
    """A game reviewed move by move, and each side's strength."""

    board: CanonicalBoard = Field(description="The starting board.")
    player: AnySide = Field(description="The side that played the first move.")
    status: AnyStatus = Field(description="The status of the final board.")
    winner: AnySide | None = Field(description="The side that won the game on the final board, if any.")
    plies: list[PlyReview] = Field(description="Every move, in order.")
    players: Sides | TurnSides = Field(
        description="Each side: `X` and `O`, or `first` and `second` in `wild` and Notakto."
    )


#: Puzzles in a page: by default, and at most.
PUZZLE_PAGE, MAX_PUZZLE_PAGE = 20, 100

ThemeName = Annotated[
    Theme,
    Field(
        description="Only puzzles whose solution has this theme (the variant's are its `tactics` but places)."
    ),
]
MinRating = Annotated[int, Field(ge=0, description="Only puzzles rated at least this.")]
MaxRating = Annotated[int, Field(ge=0, description="Only puzzles rated at most this.")]
#: A puzzle's id: in the standard game its canonical board and side to move; elsewhere the variant, a
#: colon, the canonical board, and the side to move where the sides are X and O.
PUZZLE_ID = "^(?:{})$".format(
    "|".join(
        ("" if variant is STANDARD else f"{variant.id}:")
        + f"[{variant.shape.marks}.]{{{variant.cells}}}"
        + ("[XO]" if variant.marks == "own" else "")
        for variant in VARIANTS.values()
    )
)
PuzzleId = Annotated[str, Field(pattern=PUZZLE_ID, examples=[".....OOXXX", "misere:....X..O.O"])]


class _PuzzleFilters(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, json_schema_extra=_defaults_in_words)

    variant: VariantField = "standard"
    theme: ThemeName | None = None
    min_rating: MinRating | None = None
    max_rating: MaxRating | None = None
    lang: LangField = None

    @field_validator("theme", mode="after")
    @classmethod
    def _a_theme_of_the_variant(cls, theme: str | None, info: ValidationInfo) -> str | None:
        """A theme is one of the variant's: its tactics but those of where a move is."""
        variant = VARIANTS[info.data.get("variant", STANDARD.id)]
        themes = themes_of(variant)
        if theme is not None and theme not in themes:
            message = Message("error", "{theme} is not a theme of {variant}, whose themes are {themes}")
            raise refused(
                "theme_of_another_variant", message, theme=theme, variant=variant.id, themes=", ".join(themes)
            )
        return theme

    @field_validator("max_rating", mode="after")
    @classmethod
    def _not_below_the_minimum(cls, value: int | None, info: ValidationInfo) -> int | None:
        low = info.data.get("min_rating")
        if value is not None and low is not None and value < low:
            message = Message("error", "max_rating ({high}) is below min_rating ({low})")
            raise refused("rating_range", message, high=value, low=low)
        return value


class PuzzleQuery(_PuzzleFilters):
    """Query of ``GET /v1/puzzles``: filters, and a page."""

    outcome: Literal["win", "draw"] | None = Field(
        default=None, description="Only puzzles with this outcome."
    )
    limit: int = Field(
        default=PUZZLE_PAGE,
        ge=1,
        le=MAX_PUZZLE_PAGE,
        description=f"Puzzles per page, 1 to {MAX_PUZZLE_PAGE} (default {PUZZLE_PAGE}).",
    )
    cursor: PuzzleId | None = Field(
        default=None,
        description="Where the page starts: the `next` of the page before; the first page without it.",
    )


class RandomPuzzleQuery(_PuzzleFilters):
    """Query of ``GET /v1/puzzles/random``: filters, and perhaps a seed."""

    seed: int | None = Field(
        default=None,
        ge=-(2**63),
        lt=2**64,
        description="Makes the draw reproducible (and the answer cacheable); without one, each request "
        "draws anew.",
    )


class Puzzle(BaseModel):
    """A position where exactly one move keeps a win or a draw, posed on its canonical board."""

    id: str = Field(
        pattern=PUZZLE_ID,
        description="The canonical board followed by the side to move in the standard game; elsewhere "
        "the variant, a colon, the canonical board, and the side to move where the sides are X and O.",
        examples=[".....OOXXX", "misere:....X..O.O"],
    )
    variant: VariantName = Field(description="The variant the puzzle is posed in.")
    board: CanonicalBoard = Field(
        description="The canonical board: the smallest, as text, of the alike boards (the 8 rotations "
        "and reflections of the square; in Notakto those of each board, and any order of the boards), "
        "which are the same puzzle."
    )
    player: AnySide = Field(
        description="The side to move, who solves the puzzle: `X` or `O`, or `first` or `second` in "
        "`wild` and Notakto."
    )
    solution: Cell = Field(description="The only move that keeps the outcome: its cell.")
    mark: PlacedMark = None
    grid: Grid = None
    outcome: Literal["win", "draw"] = Field(description="What the solution keeps.")
    plies_to_end: Plies
    themes: list[Theme] = Field(description="The solution's tactics, without where it is on the board.")
    reason: str = Field(description="The sentence that explains the solution.")
    solve_rates: dict[PlayerName, Probability] = Field(
        description="The probability that each calibrated player plays the solution, to 4 decimals."
    )
    rating: int = Field(
        ge=0,
        description="The calibrated rating of the weakest player who plays the solution at least half "
        "of the time.",
    )


class PuzzlePage(BaseModel):
    """A page of the puzzles that match a query, in order of rating, then id."""

    puzzles: list[Puzzle]
    total: int = Field(ge=0, description="How many puzzles match, on every page.")
    next: str | None = Field(description="The `cursor` of the following page; null on the last page.")


class VariantStart(BaseModel):
    """The value of the empty board for the side that moves first, under perfect play."""

    outcome: Outcome
    plies_to_end: int = Field(ge=1, le=27)


class LevelInfo(BaseModel):
    """What one level stands for in a variant: a look-ahead, a skill, and its measured rating."""

    depth: int = Field(ge=1, le=27, description="Plies looked ahead, in the variant's game.")
    skill: float = Field(ge=0, le=1, description="The chance of choosing with that look-ahead.")
    rating: int | None = Field(
        ge=0, description="The level's rating on the variant's scale; null where the variant is not rated."
    )


class VariantLevels(BaseModel):
    """The five levels of a variant, weakest first."""

    beginner: LevelInfo
    easy: LevelInfo
    medium: LevelInfo
    hard: LevelInfo
    perfect: LevelInfo


class VariantInfo(BaseModel):
    """One rule variant: its rules, its board, and its value from the empty board."""

    id: VariantName = Field(description="The value of `variant` that names it.")
    name: str
    rules: str = Field(description="The rules in one sentence.")
    rows: int = Field(ge=3, le=4, description="Rows of each board.")
    columns: int = Field(ge=3, le=4, description="Columns of each board.")
    boards: int = Field(ge=1, le=3, description="Boards played at once (Notakto: 1 to 3).")
    line: int = Field(ge=3, le=4, description="Cells in a row that make a line.")
    marks: Literal["own", "either", "x_only"] = Field(
        description="What a move places: `own` its side's mark (X or O), `either` X or O as the side "
        "chooses, `x_only` X."
    )
    misere: bool = Field(description="Whether the side that makes the (last) line loses.")
    start: VariantStart
    positions: int = Field(
        description="Unfinished positions (a board and its side to move), either side starting where "
        "that applies: each has an exact value."
    )
    tactics: list[str] = Field(description="The tactic tags moves carry in this variant, in their order.")
    rated: bool = Field(description="Whether `rating` applies: the variant's levels are calibrated.")
    levels: VariantLevels = Field(
        description="What each level stands for in this variant, from its own calibration."
    )
    rating_max: int | None = Field(
        ge=0,
        description="The highest `rating` (perfect play's) on this variant's scale; null where the "
        "variant is not rated.",
    )
    puzzles: int = Field(ge=0, description="How many puzzles the variant's book holds (`GET /v1/puzzles`).")
    puzzles_complete: bool = Field(
        description="Whether the book holds every puzzle of the variant, rather than a selection spread "
        "over its ratings and themes."
    )


class VariantList(BaseModel):
    """Every rule variant the service solves, the standard game first."""

    variants: list[VariantInfo]


class LanguageInfo(BaseModel):
    """A language the service speaks."""

    tag: str = Field(description="Its BCP 47 tag, as `lang` names it.", examples=["es"])
    name: str = Field(description="Its name, in itself.", examples=["Español"])


class LanguageList(BaseModel):
    """The languages the service speaks: English first, the language of an answer when a request
    names none that is offered."""

    languages: list[LanguageInfo]
    default: str = Field(description="The language of an answer when no language offered is asked for.")


class HealthResponse(BaseModel):
    """The service is up and every variant's table is ready."""

    status: Literal["ok"]
    version: str
    positions: int = Field(description="Legal boards of the standard game, finished or not (8,533).")
    variants: list[VariantName] = Field(description="The variants whose exact values are ready: all of them.")


class ErrorDetail(BaseModel):
    """One problem with the input."""

    loc: list[str | int] = Field(
        description="Where the problem is: 'body', 'query' or 'path', then field names and array indexes."
    )
    msg: str = Field(description="What is wrong, in words.")
    type: str = Field(description="A machine-readable name of the rule that failed.")


class Problem(BaseModel):
    """An error, as ``application/problem+json`` (RFC 9457)."""

    type: str = Field(description="A URI reference naming the kind of problem.")
    title: str = Field(description="A short summary of the kind of problem.")
    status: int = Field(description="The HTTP status code.")
    detail: str = Field(description="What went wrong with this request.")
    instance: str | None = Field(default=None, description="The path of the request.")
    errors: list[ErrorDetail] | None = Field(
        default=None, description="For invalid input: each problem and where it is (the first 10)."
    )
    errors_omitted: int | None = Field(
        default=None, description="For invalid input with more than 10 problems: how many are not listed."
    )
    game_status: StatusName | None = Field(
        default=None, description="For a best-move request on a finished board: the board's status."
    )
