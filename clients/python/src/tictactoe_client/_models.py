# Generated from openapi/openapi.json by datamodel-codegen with the options of
# [tool.datamodel-codegen] in clients/python/pyproject.toml: do not edit, run `make client-models`.
# ruff: noqa: E501, E741

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field
from typing_extensions import TypeAliasType

PliesToEnd = TypeAliasType(
    "PliesToEnd",
    Annotated[
        int,
        Field(
            description="Moves the game still lasts under perfect play, the next one included; the winner hurries, the loser delays.",
            ge=1,
            le=27,
            title="Plies To End",
        ),
    ],
)


Score = TypeAliasType(
    "Score",
    Annotated[
        int, Field(description="1 win, 0 draw, -1 loss, for the side to move.", ge=-1, le=1, title="Score")
    ],
)


Depth = TypeAliasType(
    "Depth",
    Annotated[
        int,
        Field(
            description="Look only this many plies ahead, the engine's own move being ply 1: the move is drawn at random (reproducible with `seed`) from the moves best within that horizon. 1 takes a win, 2 also blocks, 3 also forks, and a depth of at least the moves left plays perfectly. From 1 to the variant's number of cells (9 in the standard game).",
            ge=1,
            le=27,
            title="Depth",
        ),
    ],
)


Rating = TypeAliasType(
    "Rating",
    Annotated[
        float,
        Field(
            description="An opponent of this strength on the Elo scale of the levels' calibration, from 0 (a uniformly random player) to 493 (`perfect`) in the standard game: `random` 0, `beginner` 94, `easy` 181, `medium` 316, `hard` 382, `perfect` 493. In another variant the scale is that variant's own, from its own calibration, up to perfect play's rating there: `misere` 413, `wild` 683, `notakto` 518, `notakto-2` 613, `notakto-3` 652, `4x4` 258, `4x4-3` 709; in a variant that is not calibrated (`rated` false in `GET /v1/variants`) `rating` is a 422 (`variant_unrated`). Each move is played, at random (reproducible with `seed`), by one of the two calibrated players whose ratings are around it, the stronger the more often the closer the rating is to its. Not together with `level`, `depth` or `skill`.",
            ge=0.0,
            le=709.0,
            title="Rating",
        ),
    ],
)


Seed = TypeAliasType(
    "Seed",
    Annotated[
        int,
        Field(
            description="Makes every random choice of this request reproducible: the same request with the same seed always gets the same answer, and different seeds draw independently. Without one, each request draws anew.",
            ge=-9223372036854775808,
            lt=18446744073709551616,
            title="Seed",
        ),
    ],
)


Grid = TypeAliasType(
    "Grid",
    Annotated[
        int,
        Field(
            description="In Notakto: the board the cell is on, from 0. Absent in other variants.",
            ge=0,
            le=2,
            title="Grid",
        ),
    ],
)


BoardString = TypeAliasType(
    "BoardString",
    Annotated[
        str,
        Field(
            description="The cells in row-major order, as many as the variant's board has: 9 on a 3×3 board, 16 on a 4×4 board, 9 per board in Notakto (18 on 2 boards, 27 on 3). X or O (either case) for a mark (Notakto: X only), '.', '-', '_' or a space for an empty cell.",
            examples=["X.O...X..", "X....O.........."],
            max_length=27,
            min_length=9,
            pattern="^(?:[XxOo.\\-_ ]{9}|[XxOo.\\-_ ]{16}|[XxOo.\\-_ ]{18}|[XxOo.\\-_ ]{27})$",
        ),
    ],
)


Cell1 = TypeAliasType(
    "Cell1",
    Annotated[
        str,
        Field(
            description="One cell: X or O (either case) for a mark; null, '', ' ', '.', '-' or '_' for an empty cell.",
            examples=["X"],
            max_length=1,
            pattern="^[XxOo.\\-_ ]?$",
        ),
    ],
)


Cell = TypeAliasType(
    "Cell",
    Annotated[
        Cell1 | None,
        Field(
            description="One cell: X or O (either case) for a mark; null, '', ' ', '.', '-' or '_' for an empty cell.",
            examples=["X"],
        ),
    ],
)


class ErrorDetail(BaseModel):
    """
    One problem with the input.
    """

    loc: Annotated[
        list[str | int],
        Field(
            description="Where the problem is: 'body', 'query' or 'path', then field names and array indexes.",
            title="Loc",
        ),
    ]
    msg: Annotated[str, Field(description="What is wrong, in words.", title="Msg")]
    type: Annotated[str, Field(description="A machine-readable name of the rule that failed.", title="Type")]


Judgement = TypeAliasType(
    "Judgement",
    Annotated[
        Literal["best", "inaccuracy", "mistake", "blunder"],
        Field(
            description="How good a move was, from the values alone (see the module's docstring), best first.",
            title="Judgement",
        ),
    ],
)


class Judgements(BaseModel):
    """
    How many of a side's moves got each judgement.
    """

    best: Annotated[int, Field(ge=0, title="Best")]
    blunder: Annotated[int, Field(ge=0, title="Blunder")]
    inaccuracy: Annotated[int, Field(ge=0, title="Inaccuracy")]
    mistake: Annotated[int, Field(ge=0, title="Mistake")]


class LanguageInfo(BaseModel):
    """
    A language the service speaks.
    """

    name: Annotated[str, Field(description="Its name, in itself.", examples=["Español"], title="Name")]
    tag: Annotated[
        str, Field(description="Its BCP 47 tag, as `lang` names it.", examples=["es"], title="Tag")
    ]


class LanguageList(BaseModel):
    """
    The languages the service speaks: English first, the language of an answer when a request
    names none that is offered.
    """

    default: Annotated[
        str,
        Field(
            description="The language of an answer when no language offered is asked for.", title="Default"
        ),
    ]
    languages: Annotated[list[LanguageInfo], Field(title="Languages")]


Level = TypeAliasType(
    "Level",
    Annotated[
        Literal["beginner", "easy", "medium", "hard", "perfect"],
        Field(description="A named difficulty, weakest first.", title="Level"),
    ],
)


Rating2 = TypeAliasType(
    "Rating2",
    Annotated[
        int,
        Field(
            description="The level's rating on the variant's scale; null where the variant is not rated.",
            ge=0,
            title="Rating",
        ),
    ],
)


class LevelInfo(BaseModel):
    """
    What one level stands for in a variant: a look-ahead, a skill, and its measured rating.
    """

    depth: Annotated[
        int, Field(description="Plies looked ahead, in the variant's game.", ge=1, le=27, title="Depth")
    ]
    rating: Annotated[
        Rating2 | None,
        Field(
            description="The level's rating on the variant's scale; null where the variant is not rated.",
            title="Rating",
        ),
    ]
    skill: Annotated[
        float,
        Field(description="The chance of choosing with that look-ahead.", ge=0.0, le=1.0, title="Skill"),
    ]


Mark = TypeAliasType("Mark", Annotated[Literal["X", "O"], Field(description="A mark: `X` or `O`.")])


class MarkedMove(BaseModel):
    """
    A move of `wild`: a cell and the mark placed on it.
    """

    model_config = ConfigDict(
        extra="forbid",
    )
    mark: Annotated[
        str,
        Field(
            description="The mark placed, X or O (either case): either side may place either.",
            examples=["X"],
            pattern="^[XxOo]$",
            title="Mark",
        ),
    ]
    position: Annotated[int, Field(description="The cell, 0 to 8.", ge=0, le=8, title="Position")]


class Move(BaseModel):
    """
    A move, its value for the side that plays it under perfect play afterwards, and its tactics.
    """

    column: Annotated[
        int, Field(description="Column of the cell on its board, 0 on the left.", ge=0, le=3, title="Column")
    ]
    grid: Annotated[
        Grid | None,
        Field(
            description="In Notakto: the board the cell is on, from 0. Absent in other variants.",
            title="Grid",
        ),
    ] = None
    mark: Annotated[
        Mark | None,
        Field(description="In `wild`: the mark the move places. Absent in other variants.", title="Mark"),
    ] = None
    outcome: Annotated[
        Literal["win", "draw", "loss"], Field(description="The score in words.", title="Outcome")
    ]
    plies_to_end: Annotated[
        int,
        Field(
            description="Moves the game still lasts under perfect play, the next one included; the winner hurries, the loser delays.",
            ge=1,
            le=27,
            title="Plies To End",
        ),
    ]
    position: Annotated[
        int,
        Field(
            description="Cell index in the board string: row * 3 + column (row * 4 + column on a 4×4 board; 9 * grid + row * 3 + column in Notakto).",
            ge=0,
            le=26,
            title="Position",
        ),
    ]
    reason: Annotated[
        str,
        Field(
            description="One sentence for a person: the main tactic, naming its cells and lines as they are seen on the board (never by index), and the value of the move.",
            examples=["Blocks X's top row; the game is a draw with best play."],
            title="Reason",
        ),
    ]
    row: Annotated[
        int, Field(description="Row of the cell on its board, 0 at the top.", ge=0, le=3, title="Row")
    ]
    score: Annotated[
        int, Field(description="1 win, 0 draw, -1 loss, for the side to move.", ge=-1, le=1, title="Score")
    ]
    tactics: Annotated[
        list[
            Literal[
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
        ],
        Field(
            description="What the move does, in this order: `win` (completes a line), `block` (takes a cell that would complete the opponent's line), `fork` (leaves two or more cells that would complete a line), `threat` (exactly one), `block_fork` (leaves the opponent no fork), `center`, `corner` or `edge`, and `opposite_corner` (a corner opposite the opponent's mark). The variants read these with their own lines, and add: `lose` (makes a line that loses: misère, Notakto's last live board), `avoid` (steps around a cell that would complete the mover's own line), `opposite` (the cell across the center holds the opponent's mark), `squeeze` (whatever the opponent plays makes a line that loses, or lets the mover win), `gift` (wild: leaves a line the opponent completes at once), `kill` (Notakto: a line on a board while another stays live), `hand_over` (a kill that leaves one live board) and `live` (no line: the board stays live). `GET /v1/variants` lists each variant's tags.",
            title="Tactics",
        ),
    ]


class MoveInfo(BaseModel):
    """
    One legal move and its value for the side that plays it.
    """

    column: Annotated[
        int, Field(description="Column of the cell on its board, 0 on the left.", ge=0, le=3, title="Column")
    ]
    grid: Annotated[
        Grid | None,
        Field(
            description="In Notakto: the board the cell is on, from 0. Absent in other variants.",
            title="Grid",
        ),
    ] = None
    mark: Annotated[
        Mark | None,
        Field(description="In `wild`: the mark the move places. Absent in other variants.", title="Mark"),
    ] = None
    outcome: Annotated[
        Literal["win", "draw", "loss"], Field(description="The score in words.", title="Outcome")
    ]
    plies_to_end: Annotated[
        int,
        Field(
            description="Moves the game still lasts under perfect play, the next one included; the winner hurries, the loser delays.",
            ge=1,
            le=27,
            title="Plies To End",
        ),
    ]
    position: Annotated[
        int,
        Field(
            description="Cell index in the board string: row * 3 + column (row * 4 + column on a 4×4 board; 9 * grid + row * 3 + column in Notakto).",
            ge=0,
            le=26,
            title="Position",
        ),
    ]
    reason: Annotated[
        str,
        Field(
            description="One sentence for a person: the main tactic, naming its cells and lines as they are seen on the board (never by index), and the value of the move.",
            examples=["Blocks X's top row; the game is a draw with best play."],
            title="Reason",
        ),
    ]
    row: Annotated[
        int, Field(description="Row of the cell on its board, 0 at the top.", ge=0, le=3, title="Row")
    ]
    score: Annotated[
        int, Field(description="1 win, 0 draw, -1 loss, for the side to move.", ge=-1, le=1, title="Score")
    ]
    tactics: Annotated[
        list[
            Literal[
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
        ],
        Field(
            description="What the move does, in this order: `win` (completes a line), `block` (takes a cell that would complete the opponent's line), `fork` (leaves two or more cells that would complete a line), `threat` (exactly one), `block_fork` (leaves the opponent no fork), `center`, `corner` or `edge`, and `opposite_corner` (a corner opposite the opponent's mark). The variants read these with their own lines, and add: `lose` (makes a line that loses: misère, Notakto's last live board), `avoid` (steps around a cell that would complete the mover's own line), `opposite` (the cell across the center holds the opponent's mark), `squeeze` (whatever the opponent plays makes a line that loses, or lets the mover win), `gift` (wild: leaves a line the opponent completes at once), `kill` (Notakto: a line on a board while another stays live), `hand_over` (a kill that leaves one live board) and `live` (no line: the board stays live). `GET /v1/variants` lists each variant's tags.",
            title="Tactics",
        ),
    ]
    traps: Annotated[
        int,
        Field(
            description="Opponent replies after this move whose result for the opponent is worse than its perfect-play result: the mistakes this move invites (step 3 of the move choice).",
            ge=0,
            le=26,
            title="Traps",
        ),
    ]


Player = TypeAliasType(
    "Player",
    Annotated[
        Literal["X", "O", "first", "second"],
        Field(
            description="A side: `X` or `O`, or `first` or `second` in `wild` and Notakto, where both sides place any mark."
        ),
    ],
)


BestMove = TypeAliasType(
    "BestMove",
    Annotated[
        int,
        Field(
            description="Cell index in the board string: row * 3 + column (row * 4 + column on a 4×4 board; 9 * grid + row * 3 + column in Notakto).",
            ge=0,
            le=26,
        ),
    ],
)


class PlyReview(BaseModel):
    """
    One move of a reviewed game, judged; values are for the side that played it.
    """

    best_moves: Annotated[
        list[BestMove],
        Field(
            description="The optimal cells of the position: best score, then fastest win or slowest loss.",
            title="Best Moves",
        ),
    ]
    better: Annotated[
        Move | None,
        Field(
            description="When the judgement is not `best`: the engine's move in that position (the move `GET /v1/best-move` gives), with its value and reason; otherwise null."
        ),
    ]
    board_after: Annotated[
        str,
        Field(
            description="The board in canonical form: 9 characters of X, O and '.' (16 on a 4×4 board; 9 per board in Notakto, X and '.' only).",
            examples=["X...O...."],
            pattern="^[XO.]{9}(?:[XO.]{7}|[X.]{9}|[X.]{18})?$",
            title="Board After",
        ),
    ]
    board_before: Annotated[
        str,
        Field(
            description="The board in canonical form: 9 characters of X, O and '.' (16 on a 4×4 board; 9 per board in Notakto, X and '.' only).",
            examples=["X...O...."],
            pattern="^[XO.]{9}(?:[XO.]{7}|[X.]{9}|[X.]{18})?$",
            title="Board Before",
        ),
    ]
    column: Annotated[
        int, Field(description="Column of the cell on its board, 0 on the left.", ge=0, le=3, title="Column")
    ]
    grid: Annotated[
        Grid | None,
        Field(
            description="In Notakto: the board the cell is on, from 0. Absent in other variants.",
            title="Grid",
        ),
    ] = None
    judgement: Annotated[
        Judgement,
        Field(
            description="`best`: one of `best_moves`; `inaccuracy`: keeps the outcome, but a slower win or a quicker loss; `mistake`: a win becomes a draw; `blunder`: a win or a draw becomes a loss."
        ),
    ]
    mark: Annotated[
        Mark | None,
        Field(description="In `wild`: the mark the move places. Absent in other variants.", title="Mark"),
    ] = None
    only_move: Annotated[
        bool,
        Field(
            description="The position had two or more legal moves, exactly one kept its outcome, and it was played.",
            title="Only Move",
        ),
    ]
    outcome: Annotated[
        Literal["win", "draw", "loss"], Field(description="The score in words.", title="Outcome")
    ]
    outcome_before: Annotated[
        Literal["win", "draw", "loss"], Field(description="The score in words.", title="Outcome Before")
    ]
    player: Annotated[Player, Field(description="The side that played the move.")]
    plies_to_end: Annotated[
        int,
        Field(
            description="Moves the game still lasts under perfect play, the next one included; the winner hurries, the loser delays.",
            ge=1,
            le=27,
            title="Plies To End",
        ),
    ]
    plies_to_end_before: Annotated[
        int,
        Field(
            description="Moves the game still lasts under perfect play, the next one included; the winner hurries, the loser delays.",
            ge=1,
            le=27,
            title="Plies To End Before",
        ),
    ]
    ply: Annotated[int, Field(description="The move's number in the game, from 1.", ge=1, le=27, title="Ply")]
    position: Annotated[
        int,
        Field(
            description="Cell index in the board string: row * 3 + column (row * 4 + column on a 4×4 board; 9 * grid + row * 3 + column in Notakto).",
            ge=0,
            le=26,
            title="Position",
        ),
    ]
    reason: Annotated[
        str, Field(description="One sentence for a person about the move played.", title="Reason")
    ]
    row: Annotated[
        int, Field(description="Row of the cell on its board, 0 at the top.", ge=0, le=3, title="Row")
    ]
    score: Annotated[
        int, Field(description="The value of the move played, for the mover.", ge=-1, le=1, title="Score")
    ]
    score_before: Annotated[
        int,
        Field(
            description="The position's value before the move, for the mover.",
            ge=-1,
            le=1,
            title="Score Before",
        ),
    ]
    tactics: Annotated[
        list[
            Literal[
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
        ],
        Field(description="What the move played does (as in the analysis).", title="Tactics"),
    ]


SolveRatesAdditionalProperty = TypeAliasType(
    "SolveRatesAdditionalProperty", Annotated[float, Field(ge=0.0, le=1.0)]
)


Moves = TypeAliasType("Moves", Annotated[int, Field(ge=0, le=26)])


Accuracy = TypeAliasType(
    "Accuracy",
    Annotated[
        float,
        Field(
            description="Per cent of this side's moves judged `best`, to one decimal; null without moves.",
            ge=0.0,
            le=100.0,
            title="Accuracy",
        ),
    ],
)


LevelLikelihoodsAdditionalProperty = TypeAliasType(
    "LevelLikelihoodsAdditionalProperty", Annotated[float, Field(ge=0.0, le=1.0)]
)


class SideReview(BaseModel):
    """
    One side's moves in the game, and the strength they show.
    """

    accuracy: Annotated[
        Accuracy | None,
        Field(
            description="Per cent of this side's moves judged `best`, to one decimal; null without moves.",
            title="Accuracy",
        ),
    ]
    judgements: Judgements
    level: Annotated[
        Literal["random", "beginner", "easy", "medium", "hard", "perfect"] | None,
        Field(
            description="The most probable of them (the weaker on a tie); null without moves.", title="Level"
        ),
    ]
    level_likelihoods: Annotated[
        dict[
            Literal["random", "beginner", "easy", "medium", "hard", "perfect"],
            LevelLikelihoodsAdditionalProperty,
        ]
        | None,
        Field(
            description="The probability that each calibrated player (a uniformly random one and the five levels) played these moves, from a uniform prior, to 4 decimals; null without moves.",
            title="Level Likelihoods",
        ),
    ]
    moves: Annotated[
        int, Field(description="How many moves this side played in the game.", ge=0, le=14, title="Moves")
    ]
    only_moves: Annotated[
        int, Field(description="How many only moves this side found.", ge=0, title="Only Moves")
    ]
    rating: Annotated[
        int | None,
        Field(
            description="The calibrated rating of `level` in the game's variant (the levels' report); null without moves, and in a variant whose levels are not calibrated.",
            title="Rating",
        ),
    ]


class Sides(BaseModel):
    """
    Each side's part of the game.
    """

    O: SideReview
    X: SideReview


Status = TypeAliasType(
    "Status",
    Annotated[
        Literal["in_progress", "x_won", "o_won", "draw", "first_won", "second_won"],
        Field(
            description="Where a game stands on a board: `in_progress`, `draw`, and `x_won` or `o_won` (`first_won` or `second_won` in `wild` and Notakto, whose sides are named by their turn)."
        ),
    ],
)


class TurnSides(BaseModel):
    """
    Each side's part of a game of `wild` or Notakto, whose sides are named by their turn.
    """

    first: SideReview
    second: SideReview


Variant = TypeAliasType(
    "Variant",
    Annotated[
        Literal["standard", "misere", "wild", "notakto", "notakto-2", "notakto-3", "4x4", "4x4-3"],
        Field(
            description="A rule variant, the value of `variant` (`standard` when it is not sent): see `GET /v1/variants` for each one's rules, board and sides."
        ),
    ],
)


RatingMax = TypeAliasType(
    "RatingMax",
    Annotated[
        int,
        Field(
            description="The highest `rating` (perfect play's) on this variant's scale; null where the variant is not rated.",
            ge=0,
            title="Rating Max",
        ),
    ],
)


class VariantLevels(BaseModel):
    """
    The five levels of a variant, weakest first.
    """

    beginner: LevelInfo
    easy: LevelInfo
    hard: LevelInfo
    medium: LevelInfo
    perfect: LevelInfo


class VariantStart(BaseModel):
    """
    The value of the empty board for the side that moves first, under perfect play.
    """

    outcome: Annotated[Literal["win", "draw", "loss"], Field(title="Outcome")]
    plies_to_end: Annotated[int, Field(ge=1, le=27, title="Plies To End")]


class AnalysisResponse(BaseModel):
    """
    Everything about a position: status, values of every move, and the principal variation.
    """

    best_moves: Annotated[
        list[int],
        Field(
            description="Every optimal cell: best score, then fastest win or slowest loss.",
            title="Best Moves",
        ),
    ]
    board: Annotated[
        str,
        Field(
            description="The board in canonical form: 9 characters of X, O and '.' (16 on a 4×4 board; 9 per board in Notakto, X and '.' only).",
            examples=["X...O...."],
            pattern="^[XO.]{9}(?:[XO.]{7}|[X.]{9}|[X.]{18})?$",
            title="Board",
        ),
    ]
    moves: Annotated[
        list[MoveInfo], Field(description="Every legal move with its value, best first.", title="Moves")
    ]
    outcome: Annotated[Literal["win", "draw", "loss"] | None, Field(title="Outcome")]
    player: Annotated[
        Player | None, Field(description="The side to move; null when the game is over.", title="Player")
    ]
    plies_to_end: Annotated[PliesToEnd | None, Field(title="Plies To End")]
    principal_variation: Annotated[
        list[int],
        Field(
            description="Cells of the rest of the game when both sides play the chosen move.",
            title="Principal Variation",
        ),
    ]
    score: Annotated[Score | None, Field(title="Score")]
    status: Annotated[
        Status,
        Field(
            description="`in_progress`, `draw`, and `x_won` or `o_won` (`first_won` or `second_won` in `wild` and Notakto)."
        ),
    ]
    winner: Annotated[
        Player | None,
        Field(
            description="The side that won, null if none (in `misere`, the side that did not make the line).",
            title="Winner",
        ),
    ]
    winning_lines: Annotated[
        list[list[int]], Field(description="Every complete line, as its cells.", title="Winning Lines")
    ]


class BestMoveResponse(BaseModel):
    """
    The chosen move and its value for the side to move.
    """

    board: Annotated[
        str,
        Field(
            description="The board in canonical form: 9 characters of X, O and '.' (16 on a 4×4 board; 9 per board in Notakto, X and '.' only).",
            examples=["X...O...."],
            pattern="^[XO.]{9}(?:[XO.]{7}|[X.]{9}|[X.]{18})?$",
            title="Board",
        ),
    ]
    board_after: Annotated[
        str,
        Field(
            description="The board in canonical form: 9 characters of X, O and '.' (16 on a 4×4 board; 9 per board in Notakto, X and '.' only).",
            examples=["X...O...."],
            pattern="^[XO.]{9}(?:[XO.]{7}|[X.]{9}|[X.]{18})?$",
            title="Board After",
        ),
    ]
    column: Annotated[
        int, Field(description="Column of the cell on its board, 0 on the left.", ge=0, le=3, title="Column")
    ]
    grid: Annotated[
        Grid | None,
        Field(
            description="In Notakto: the board the cell is on, from 0. Absent in other variants.",
            title="Grid",
        ),
    ] = None
    mark: Annotated[
        Mark | None,
        Field(description="In `wild`: the mark the move places. Absent in other variants.", title="Mark"),
    ] = None
    optimal: Annotated[
        bool, Field(description="Whether the returned move is one of the optimal moves.", title="Optimal")
    ]
    outcome: Annotated[
        Literal["win", "draw", "loss"], Field(description="The score in words.", title="Outcome")
    ]
    player: Annotated[Player, Field(description="The side to move, who plays the returned move.")]
    plies_to_end: Annotated[
        int,
        Field(
            description="Moves the game still lasts under perfect play, the next one included; the winner hurries, the loser delays.",
            ge=1,
            le=27,
            title="Plies To End",
        ),
    ]
    position: Annotated[
        int,
        Field(
            description="Cell index in the board string: row * 3 + column (row * 4 + column on a 4×4 board; 9 * grid + row * 3 + column in Notakto).",
            ge=0,
            le=26,
            title="Position",
        ),
    ]
    reason: Annotated[
        str,
        Field(
            description="One sentence for a person: the main tactic, naming its cells and lines as they are seen on the board (never by index), and the value of the move.",
            examples=["Blocks X's top row; the game is a draw with best play."],
            title="Reason",
        ),
    ]
    row: Annotated[
        int, Field(description="Row of the cell on its board, 0 at the top.", ge=0, le=3, title="Row")
    ]
    score: Annotated[
        int, Field(description="1 win, 0 draw, -1 loss, for the side to move.", ge=-1, le=1, title="Score")
    ]
    status_after: Annotated[Status, Field(description="The status of the board after the move.")]
    tactics: Annotated[
        list[
            Literal[
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
        ],
        Field(
            description="What the move does, in this order: `win` (completes a line), `block` (takes a cell that would complete the opponent's line), `fork` (leaves two or more cells that would complete a line), `threat` (exactly one), `block_fork` (leaves the opponent no fork), `center`, `corner` or `edge`, and `opposite_corner` (a corner opposite the opponent's mark). The variants read these with their own lines, and add: `lose` (makes a line that loses: misère, Notakto's last live board), `avoid` (steps around a cell that would complete the mover's own line), `opposite` (the cell across the center holds the opponent's mark), `squeeze` (whatever the opponent plays makes a line that loses, or lets the mover win), `gift` (wild: leaves a line the opponent completes at once), `kill` (Notakto: a line on a board while another stays live), `hand_over` (a kill that leaves one live board) and `live` (no line: the board stays live). `GET /v1/variants` lists each variant's tags.",
            title="Tactics",
        ),
    ]


BoardCells3x3 = TypeAliasType(
    "BoardCells3x3",
    Annotated[
        list[Cell],
        Field(description="The 9 cells of a 3×3 board in row-major order.", max_length=9, min_length=9),
    ],
)
"""
The 9 cells of a 3×3 board in row-major order.
"""


BoardCells4x4 = TypeAliasType(
    "BoardCells4x4",
    Annotated[
        list[Cell],
        Field(description="The 16 cells of a 4×4 board in row-major order.", max_length=16, min_length=16),
    ],
)
"""
The 16 cells of a 4×4 board in row-major order.
"""


BoardRows3x3Item = TypeAliasType("BoardRows3x3Item", Annotated[list[Cell], Field(max_length=3, min_length=3)])


BoardRows3x3 = TypeAliasType(
    "BoardRows3x3",
    Annotated[
        list[BoardRows3x3Item],
        Field(description="The 3 rows of 3 cells of a 3×3 board, top row first.", max_length=3, min_length=3),
    ],
)
"""
The 3 rows of 3 cells of a 3×3 board, top row first.
"""


BoardRows4x4Item = TypeAliasType("BoardRows4x4Item", Annotated[list[Cell], Field(max_length=4, min_length=4)])


BoardRows4x4 = TypeAliasType(
    "BoardRows4x4",
    Annotated[
        list[BoardRows4x4Item],
        Field(description="The 4 rows of 4 cells of a 4×4 board, top row first.", max_length=4, min_length=4),
    ],
)
"""
The 4 rows of 4 cells of a 4×4 board, top row first.
"""


class HealthResponse(BaseModel):
    """
    The service is up and every variant's table is ready.
    """

    positions: Annotated[
        int,
        Field(description="Legal boards of the standard game, finished or not (8,533).", title="Positions"),
    ]
    status: Annotated[Literal["ok"], Field(title="Status")]
    variants: Annotated[
        list[Variant],
        Field(description="The variants whose exact values are ready: all of them.", title="Variants"),
    ]
    version: Annotated[str, Field(title="Version")]


class Problem(BaseModel):
    """
    An error, as ``application/problem+json`` (RFC 9457).
    """

    detail: Annotated[str, Field(description="What went wrong with this request.", title="Detail")]
    errors: Annotated[
        list[ErrorDetail] | None,
        Field(description="For invalid input: each problem and where it is (the first 10).", title="Errors"),
    ] = None
    errors_omitted: Annotated[
        int | None,
        Field(
            description="For invalid input with more than 10 problems: how many are not listed.",
            title="Errors Omitted",
        ),
    ] = None
    game_status: Annotated[
        Status | None,
        Field(
            description="For a best-move request on a finished board: the board's status.",
            title="Game Status",
        ),
    ] = None
    instance: Annotated[str | None, Field(description="The path of the request.", title="Instance")] = None
    status: Annotated[int, Field(description="The HTTP status code.", title="Status")]
    title: Annotated[str, Field(description="A short summary of the kind of problem.", title="Title")]
    type: Annotated[str, Field(description="A URI reference naming the kind of problem.", title="Type")]


class Puzzle(BaseModel):
    """
    A position where exactly one move keeps a win or a draw, posed on its canonical board.
    """

    board: Annotated[
        str,
        Field(
            description="The canonical board: the smallest, as text, of the alike boards (the 8 rotations and reflections of the square; in Notakto those of each board, and any order of the boards), which are the same puzzle.",
            examples=["X...O...."],
            pattern="^[XO.]{9}(?:[XO.]{7}|[X.]{9}|[X.]{18})?$",
            title="Board",
        ),
    ]
    grid: Annotated[
        Grid | None,
        Field(
            description="In Notakto: the board the cell is on, from 0. Absent in other variants.",
            title="Grid",
        ),
    ] = None
    id: Annotated[
        str,
        Field(
            description="The canonical board followed by the side to move in the standard game; elsewhere the variant, a colon, the canonical board, and the side to move where the sides are X and O.",
            examples=[".....OOXXX", "misere:....X..O.O"],
            pattern="^(?:[XO.]{9}[XO]|misere:[XO.]{9}[XO]|wild:[XO.]{9}|notakto:[X.]{9}|notakto-2:[X.]{18}|notakto-3:[X.]{27}|4x4:[XO.]{16}[XO]|4x4-3:[XO.]{16}[XO])$",
            title="Id",
        ),
    ]
    mark: Annotated[
        Mark | None,
        Field(description="In `wild`: the mark the move places. Absent in other variants.", title="Mark"),
    ] = None
    outcome: Annotated[Literal["win", "draw"], Field(description="What the solution keeps.", title="Outcome")]
    player: Annotated[
        Player,
        Field(
            description="The side to move, who solves the puzzle: `X` or `O`, or `first` or `second` in `wild` and Notakto."
        ),
    ]
    plies_to_end: Annotated[
        int,
        Field(
            description="Moves the game still lasts under perfect play, the next one included; the winner hurries, the loser delays.",
            ge=1,
            le=27,
            title="Plies To End",
        ),
    ]
    rating: Annotated[
        int,
        Field(
            description="The calibrated rating of the weakest player who plays the solution at least half of the time.",
            ge=0,
            title="Rating",
        ),
    ]
    reason: Annotated[str, Field(description="The sentence that explains the solution.", title="Reason")]
    solution: Annotated[
        int,
        Field(description="The only move that keeps the outcome: its cell.", ge=0, le=26, title="Solution"),
    ]
    solve_rates: Annotated[
        dict[
            Literal["random", "beginner", "easy", "medium", "hard", "perfect"], SolveRatesAdditionalProperty
        ],
        Field(
            description="The probability that each calibrated player plays the solution, to 4 decimals.",
            title="Solve Rates",
        ),
    ]
    themes: Annotated[
        list[
            Literal[
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
        ],
        Field(description="The solution's tactics, without where it is on the board.", title="Themes"),
    ]
    variant: Annotated[Variant, Field(description="The variant the puzzle is posed in.")]


class PuzzlePage(BaseModel):
    """
    A page of the puzzles that match a query, in order of rating, then id.
    """

    next: Annotated[
        str | None,
        Field(description="The `cursor` of the following page; null on the last page.", title="Next"),
    ]
    puzzles: Annotated[list[Puzzle], Field(title="Puzzles")]
    total: Annotated[int, Field(description="How many puzzles match, on every page.", ge=0, title="Total")]


class ReviewResponse(BaseModel):
    """
    A game reviewed move by move, and each side's strength.
    """

    board: Annotated[
        str,
        Field(
            description="The starting board.",
            examples=["X...O...."],
            pattern="^[XO.]{9}(?:[XO.]{7}|[X.]{9}|[X.]{18})?$",
            title="Board",
        ),
    ]
    player: Annotated[Player, Field(description="The side that played the first move.")]
    players: Annotated[
        Sides | TurnSides,
        Field(
            description="Each side: `X` and `O`, or `first` and `second` in `wild` and Notakto.",
            title="Players",
        ),
    ]
    plies: Annotated[list[PlyReview], Field(description="Every move, in order.", title="Plies")]
    status: Annotated[Status, Field(description="The status of the final board.")]
    winner: Annotated[
        Player | None,
        Field(description="The side that won the game on the final board, if any.", title="Winner"),
    ]


class VariantInfo(BaseModel):
    """
    One rule variant: its rules, its board, and its value from the empty board.
    """

    boards: Annotated[
        int, Field(description="Boards played at once (Notakto: 1 to 3).", ge=1, le=3, title="Boards")
    ]
    columns: Annotated[int, Field(description="Columns of each board.", ge=3, le=4, title="Columns")]
    id: Annotated[Variant, Field(description="The value of `variant` that names it.")]
    levels: Annotated[
        VariantLevels,
        Field(description="What each level stands for in this variant, from its own calibration."),
    ]
    line: Annotated[int, Field(description="Cells in a row that make a line.", ge=3, le=4, title="Line")]
    marks: Annotated[
        Literal["own", "either", "x_only"],
        Field(
            description="What a move places: `own` its side's mark (X or O), `either` X or O as the side chooses, `x_only` X.",
            title="Marks",
        ),
    ]
    misere: Annotated[
        bool, Field(description="Whether the side that makes the (last) line loses.", title="Misere")
    ]
    name: Annotated[str, Field(title="Name")]
    positions: Annotated[
        int,
        Field(
            description="Unfinished positions (a board and its side to move), either side starting where that applies: each has an exact value.",
            title="Positions",
        ),
    ]
    puzzles: Annotated[
        int,
        Field(
            description="How many puzzles the variant's book holds (`GET /v1/puzzles`).",
            ge=0,
            title="Puzzles",
        ),
    ]
    puzzles_complete: Annotated[
        bool,
        Field(
            description="Whether the book holds every puzzle of the variant, rather than a selection spread over its ratings and themes.",
            title="Puzzles Complete",
        ),
    ]
    rated: Annotated[
        bool,
        Field(description="Whether `rating` applies: the variant's levels are calibrated.", title="Rated"),
    ]
    rating_max: Annotated[
        RatingMax | None,
        Field(
            description="The highest `rating` (perfect play's) on this variant's scale; null where the variant is not rated.",
            title="Rating Max",
        ),
    ]
    rows: Annotated[int, Field(description="Rows of each board.", ge=3, le=4, title="Rows")]
    rules: Annotated[str, Field(description="The rules in one sentence.", title="Rules")]
    start: VariantStart
    tactics: Annotated[
        list[str],
        Field(description="The tactic tags moves carry in this variant, in their order.", title="Tactics"),
    ]


class VariantList(BaseModel):
    """
    Every rule variant the service solves, the standard game first.
    """

    variants: Annotated[list[VariantInfo], Field(title="Variants")]


class BatchResponse(BaseModel):
    """
    The answers to a batch, in the order of its items.
    """

    results: Annotated[list[BestMoveResponse], Field(title="Results")]


BoardCells = TypeAliasType(
    "BoardCells",
    Annotated[
        BoardCells3x3 | BoardCells4x4,
        Field(
            description="The cells in row-major order: 9 on a 3×3 board, 16 on a 4×4 board.",
            examples=[["X", None, "O", None, None, None, "X", None, None]],
        ),
    ],
)


BoardRows = TypeAliasType(
    "BoardRows",
    Annotated[
        BoardRows3x3 | BoardRows4x4,
        Field(
            description="The rows of cells, top row first: 3 rows of 3 on a 3×3 board, 4 rows of 4 on a 4×4 board.",
            examples=[[["X", "", "O"], ["", "", ""], ["X", "", ""]]],
        ),
    ],
)


Board = TypeAliasType(
    "Board",
    Annotated[
        BoardString | BoardCells | BoardRows,
        Field(
            description="A board in one of three forms: a string, an array of cells, or an array of rows, of the size of the request's variant (Notakto's boards as a string only). Cells are numbered in row-major order: on a board of c columns (3, or 4 in `4x4` and `4x4-3`), cell i is at row i // c, column i % c; Notakto's boards are written one after another, board j holding cells 9j to 9j + 8."
        ),
    ],
)


class ReviewRequest(BaseModel):
    """
    Body of ``POST /v1/review``: a game, as the moves played from a starting board.
    """

    model_config = ConfigDict(
        extra="forbid",
    )
    board: Annotated[
        Board | None,
        Field(
            description="The board the game starts from, in any of the forms of its variant; its empty board when absent or null.",
            title="Board",
        ),
    ] = None
    lang: Annotated[
        str | None,
        Field(
            description="The language of the answer's sentences for people, as a BCP 47 tag: `en`, `es`, `fr`, `de`, `pt` are offered (`GET /v1/languages`), and a tag that names a region or script of one (`pt-BR`) gets it. When absent, `Accept-Language` chooses; English when no language offered matches, never an error. A malformed tag is a `422`.",
            examples=["es"],
            title="Lang",
        ),
    ] = None
    moves: Annotated[
        list[Moves | MarkedMove],
        Field(
            description="The moves played, in order, the side to move first: each a cell of the board string (0 to 8 in the standard game, row * 3 + column), or in `wild` an object with the cell (`position`) and the `mark` placed. Each must be legal when it is played: a move off the board, on a taken cell or a dead Notakto board, in the wrong form for the variant, or after the game is over, is a `422` located at its index.",
            max_length=27,
            min_length=1,
            title="Moves",
        ),
    ]
    player: Annotated[
        Player | None,
        Field(
            description="The side to move. Needed only when both sides have as many marks (X by default); otherwise the counts decide, and a player that contradicts them is an error. In `wild` and Notakto the sides are `first` and `second`, and the number of marks decides (even: `first`).",
            title="Player",
        ),
    ] = None
    variant: Annotated[
        Variant | None,
        Field(
            description="The rule variant (`standard` by default): see `GET /v1/variants` for each one's rules, board and sides."
        ),
    ] = None


class AnalysisRequest(BaseModel):
    """
    Body of ``POST /v1/analysis``: any legal board, finished or not.
    """

    model_config = ConfigDict(
        extra="forbid",
    )
    board: Board
    lang: Annotated[
        str | None,
        Field(
            description="The language of the answer's sentences for people, as a BCP 47 tag: `en`, `es`, `fr`, `de`, `pt` are offered (`GET /v1/languages`), and a tag that names a region or script of one (`pt-BR`) gets it. When absent, `Accept-Language` chooses; English when no language offered matches, never an error. A malformed tag is a `422`.",
            examples=["es"],
            title="Lang",
        ),
    ] = None
    player: Annotated[
        Player | None,
        Field(
            description="The side to move. Needed only when both sides have as many marks (X by default); otherwise the counts decide, and a player that contradicts them is an error. In `wild` and Notakto the sides are `first` and `second`, and the number of marks decides (even: `first`).",
            title="Player",
        ),
    ] = None
    variant: Annotated[
        Variant | None,
        Field(
            description="The rule variant (`standard` by default): see `GET /v1/variants` for each one's rules, board and sides."
        ),
    ] = None


class BestMoveItem(BaseModel):
    """
    A best-move request in a batch: a legal board on which the game is not over, and options (its
    language is the batch's).
    """

    model_config = ConfigDict(
        extra="forbid",
    )
    board: Board
    depth: Annotated[Depth | None, Field(title="Depth")] = None
    level: Level | None = None
    player: Annotated[
        Player | None,
        Field(
            description="The side to move. Needed only when both sides have as many marks (X by default); otherwise the counts decide, and a player that contradicts them is an error. In `wild` and Notakto the sides are `first` and `second`, and the number of marks decides (even: `first`).",
            title="Player",
        ),
    ] = None
    random: Annotated[
        bool | None,
        Field(
            description="Break the ties left after the best score and the fastest win (or slowest loss) uniformly at random, instead of by traps and then the lowest cell (default false).",
            title="Random",
        ),
    ] = None
    rating: Annotated[Rating | None, Field(title="Rating")] = None
    seed: Annotated[Seed | None, Field(title="Seed")] = None
    skill: Annotated[
        float | None,
        Field(
            description="Difficulty from 0 to 1 (default 1): with probability `skill` the move is chosen as usual, otherwise uniformly from all legal moves. 1 is perfect play, 0 a random player.",
            ge=0.0,
            le=1.0,
            title="Skill",
        ),
    ] = None
    variant: Annotated[
        Variant | None,
        Field(
            description="The rule variant (`standard` by default): see `GET /v1/variants` for each one's rules, board and sides."
        ),
    ] = None


class BestMoveRequest(BaseModel):
    """
    Body of ``POST /v1/best-move``: a legal board on which the game is not over, options, and the
    language of the answer.
    """

    model_config = ConfigDict(
        extra="forbid",
    )
    board: Board
    depth: Annotated[Depth | None, Field(title="Depth")] = None
    lang: Annotated[
        str | None,
        Field(
            description="The language of the answer's sentences for people, as a BCP 47 tag: `en`, `es`, `fr`, `de`, `pt` are offered (`GET /v1/languages`), and a tag that names a region or script of one (`pt-BR`) gets it. When absent, `Accept-Language` chooses; English when no language offered matches, never an error. A malformed tag is a `422`.",
            examples=["es"],
            title="Lang",
        ),
    ] = None
    level: Level | None = None
    player: Annotated[
        Player | None,
        Field(
            description="The side to move. Needed only when both sides have as many marks (X by default); otherwise the counts decide, and a player that contradicts them is an error. In `wild` and Notakto the sides are `first` and `second`, and the number of marks decides (even: `first`).",
            title="Player",
        ),
    ] = None
    random: Annotated[
        bool | None,
        Field(
            description="Break the ties left after the best score and the fastest win (or slowest loss) uniformly at random, instead of by traps and then the lowest cell (default false).",
            title="Random",
        ),
    ] = None
    rating: Annotated[Rating | None, Field(title="Rating")] = None
    seed: Annotated[Seed | None, Field(title="Seed")] = None
    skill: Annotated[
        float | None,
        Field(
            description="Difficulty from 0 to 1 (default 1): with probability `skill` the move is chosen as usual, otherwise uniformly from all legal moves. 1 is perfect play, 0 a random player.",
            ge=0.0,
            le=1.0,
            title="Skill",
        ),
    ] = None
    variant: Annotated[
        Variant | None,
        Field(
            description="The rule variant (`standard` by default): see `GET /v1/variants` for each one's rules, board and sides."
        ),
    ] = None


class BatchRequest(BaseModel):
    """
    Body of ``POST /v1/best-move/batch``: 1 to 1,000 best-move requests, and their language.
    """

    model_config = ConfigDict(
        extra="forbid",
    )
    items: Annotated[
        list[BestMoveItem],
        Field(
            description="Best-move requests, answered in order.", max_length=1000, min_length=1, title="Items"
        ),
    ]
    lang: Annotated[
        str | None,
        Field(
            description="The language of the answer's sentences for people, as a BCP 47 tag: `en`, `es`, `fr`, `de`, `pt` are offered (`GET /v1/languages`), and a tag that names a region or script of one (`pt-BR`) gets it. When absent, `Accept-Language` chooses; English when no language offered matches, never an error. A malformed tag is a `422`.",
            examples=["es"],
            title="Lang",
        ),
    ] = None
