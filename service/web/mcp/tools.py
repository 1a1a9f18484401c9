"""The tools, defined once with the official SDK (:class:`~mcp.server.mcpserver.MCPServer`).

Everything here needs the SDK, which takes about a second to import: the service loads this
module at the first call to its endpoint (:mod:`.endpoint`), and ``tictactoe-service mcp`` when it
starts. See the package's docstring for what the tools are and how they are served.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Iterable, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Annotated, Any, TypeVar

from mcp.server.lowlevel.helper_types import ReadResourceContents
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.transport_security import TransportSecuritySettings
from mcp.shared.exceptions import MCPError
from mcp.types import (
    INVALID_PARAMS,
    CallToolResult,
    GetPromptResult,
    InputRequiredResult,
    TextContent,
    Tool,
    ToolAnnotations,
)
from pydantic import AnyUrl, BaseModel, Field, ValidationError, WithJsonSchema, create_model
from starlette.types import ASGIApp

from ... import __version__, logs
from ...answers import Answers, Coach, PuzzleFilter
from ...game.review import IllegalMove
from ...game.words import Message, Said, Words, render
from ...language import chosen, well_formed, words
from ...schemas import (
    CELL_AT,
    AnalysisRequest,
    AnalysisResponse,
    BestMoveRequest,
    BestMoveResponse,
    LanguageQuery,
    Puzzle,
    PuzzlePage,
    PuzzleQuery,
    RandomPuzzleQuery,
    ReviewRequest,
    ReviewResponse,
)
from ...settings import Settings
from .. import work
from ..media import json_bytes
from ..problems import MAX_LISTED_ERRORS, Item, quoted, summary
from . import stdio
from .envelope import Envelope, refused

#: The server's name, as clients show it.
NAME = "tictactoe"

INSTRUCTIONS = (
    "Exact tic-tac-toe answers from the solved game: use these tools instead of working out moves. "
    f"Cell 0 is top left, and {CELL_AT}. A board is a string "
    "such as 'X.O...X..' ('X' and 'O' for marks, '.' for an empty cell), an array of cells, or an "
    "array of rows: 9 cells on a 3×3 board, 16 on the 4×4 board of `variant` '4x4' or '4x4-3'; "
    "Notakto's 2 or 3 boards as a string of 18 or 27. The side to move follows from the counts of "
    "marks; give `player` only when both sides have as many marks and O is to move. "
    "Values (`score`, `outcome`, `plies_to_end`) are for the side to move under perfect play. "
    "To choose a move use best_move (with `level` or `rating` for a weaker opponent), to say why "
    "explain_move, to weigh every move of a position analyze_position. To review a game that was "
    "played (which moves were best, inaccuracies, mistakes or blunders, what was better, and how "
    "strongly each side played) use review_game with the cells in the order played. For practice, "
    "random_puzzle draws a puzzle (a position where exactly one move keeps the win or the draw), "
    "get_puzzle gives one by its `id`, and list_puzzles lists them, easiest first. A puzzle comes "
    "with its `solution` and `reason`: show a person the board and the side to move, and keep "
    "those two until they have answered. Ratings are on each variant's own Elo scale, from 0 (random "
    "moves) to perfect play's rating there (`rating_max` in the variant list): a side's `rating` in a "
    "review, a puzzle's `rating` and the `rating` of best_move compare within a variant, e.g. to pick "
    "puzzles or an opponent near a player's strength."
)
READ_ONLY = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False)

# --- arguments: the API's request fields, validated by the API's request models ---------------------


def _field_schema(model: type[BaseModel], name: str) -> dict[str, Any]:
    """The JSON schema of the field ``name`` of ``model``, as the API documents it, references written out."""
    schema = model.model_json_schema()
    definitions: dict[str, Any] = schema.get("$defs", {})

    def resolve(value: Any) -> Any:  # noqa: ANN401 - any JSON value
        if isinstance(value, dict):
            ref = value.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                beside = {key: item for key, item in value.items() if key != "$ref"}
                return resolve({**definitions[ref.removeprefix("#/$defs/")], **beside})
            return {key: resolve(item) for key, item in value.items()}
        if isinstance(value, list):
            return [resolve(item) for item in value]
        return value

    resolved: dict[str, Any] = resolve(schema["properties"][name])
    return resolved


# Each argument is taken as the JSON value it is, and published with the schema of the API's field:
# the request model (below) validates it, with the API's rules and messages, in one place.
BoardArgument = Annotated[object, WithJsonSchema(_field_schema(AnalysisRequest, "board"))]
PlayerArgument = Annotated[object, WithJsonSchema(_field_schema(AnalysisRequest, "player"))]
VariantArgument = Annotated[object, WithJsonSchema(_field_schema(AnalysisRequest, "variant"))]
LevelArgument = Annotated[object, WithJsonSchema(_field_schema(BestMoveRequest, "level"))]
SeedArgument = Annotated[object, WithJsonSchema(_field_schema(BestMoveRequest, "seed"))]
RatingArgument = Annotated[object, WithJsonSchema(_field_schema(BestMoveRequest, "rating"))]
MovesArgument = Annotated[object, WithJsonSchema(_field_schema(ReviewRequest, "moves"))]
StartArgument = Annotated[object, WithJsonSchema(_field_schema(ReviewRequest, "board"))]
ThemeArgument = Annotated[object, WithJsonSchema(_field_schema(PuzzleQuery, "theme"))]
OutcomeArgument = Annotated[object, WithJsonSchema(_field_schema(PuzzleQuery, "outcome"))]
MinRatingArgument = Annotated[object, WithJsonSchema(_field_schema(PuzzleQuery, "min_rating"))]
MaxRatingArgument = Annotated[object, WithJsonSchema(_field_schema(PuzzleQuery, "max_rating"))]
LimitArgument = Annotated[object, WithJsonSchema(_field_schema(PuzzleQuery, "limit"))]
CursorArgument = Annotated[object, WithJsonSchema(_field_schema(PuzzleQuery, "cursor"))]
DrawSeedArgument = Annotated[object, WithJsonSchema(_field_schema(RandomPuzzleQuery, "seed"))]
#: The language of the answer's sentences for people: the ``lang`` of the REST operations.
LanguageArgument = Annotated[object, WithJsonSchema(_field_schema(AnalysisRequest, "lang"))]
PuzzleIdArgument = Annotated[
    str,
    Field(
        description="The puzzle's `id`, as a puzzle gives it: its canonical board followed by the side "
        "to move.",
        examples=[".....OOXXX"],
    ),
]

#: The empty board, where a reviewed game starts unless told otherwise (the API's default).
#: Puzzles on a page unless told otherwise (the API's default).
PAGE_LIMIT = PuzzleQuery.model_fields["limit"].default

RequestT = TypeVar("RequestT", bound=BaseModel)


def validated(model: type[RequestT], arguments: dict[str, object]) -> RequestT:
    """``arguments`` read by the API's request ``model``, or a tool error naming every problem, in the
    language its ``lang`` names when it is a well-formed tag."""
    try:
        return model.model_validate(arguments)
    except ValidationError as error:
        raise ToolError(problems(error, arguments.get("lang"))) from None


def problems(error: ValidationError, lang: object = None) -> str:
    """The problems of ``error`` as ``field: what is wrong``, separated by semicolons (the first 10),
    in the language ``lang`` names (English unless it is a well-formed tag)."""
    found = [Item.of(each) for each in error.errors(include_url=False, include_input=False)]
    return str(render(summary(found, len(found), MAX_LISTED_ERRORS), tool_words(lang)))


def tool_words(lang: object) -> Words:
    """The catalogue of the language a tool's ``language`` names, if it is a well-formed tag."""
    return words(spoken(lang if isinstance(lang, str) and well_formed(lang) else None))


# --- answers: the API's JSON, as text and as structured content ------------------------------------


def answer(body: bytes) -> CallToolResult:
    """A tool's result: the API's JSON answer as text for the model, and as structured content."""
    return CallToolResult(
        content=[TextContent(type="text", text=body.decode())], structured_content=json.loads(body)
    )


#: What ``explain_move`` tells of the engine's move: these fields of the best-move answer, as they are.
EXPLAINED = (
    "board",
    "player",
    "position",
    "row",
    "column",
    "mark",
    "grid",
    "score",
    "outcome",
    "plies_to_end",
    "tactics",
    "reason",
)
_explained_fields: dict[str, Any] = {
    name: (field.annotation, field)
    for name, field in BestMoveResponse.model_fields.items()
    if name in EXPLAINED
}
Explanation = create_model(
    "Explanation",
    __doc__="Why the engine plays its move: where it is, what it does (its tactics, and a sentence "
    "for a person) and what it is worth for the side to move under perfect play.",
    **_explained_fields,
)


def explanation(move: BestMoveResponse) -> CallToolResult:
    """The fields of :data:`EXPLAINED` of a best-move answer, as a tool's result."""
    told = move.model_dump(mode="json", include=set(EXPLAINED), exclude_unset=True)
    return CallToolResult(
        content=[TextContent(type="text", text=json_bytes(told).decode())], structured_content=told
    )


# --- the tools -------------------------------------------------------------------------------------


class StrictServer(MCPServer):
    """The SDK's server, with the names asked for checked first: tool, prompt, resource, and arguments.

    An unknown tool, prompt or resource is a protocol error, ``-32602`` (Invalid params), as the
    MCP specification says (the SDK makes an unknown tool a tool error and an unknown prompt an
    error of code ``0``); its message quotes the name cut to :data:`~service.web.problems.MAX_QUOTED`
    characters, with its full length, and lists the names there are (the server has tools only).

    The SDK drops an argument a tool does not declare, so a misspelt option would go unnoticed, and
    says that one is missing in the words of its own argument model. Here either is a tool error,
    as the API says it (``levle: Extra inputs are not permitted``), and the published schemas say
    that a tool takes no other arguments (``additionalProperties: false``).
    """

    #: Each tool's input schema by name, read at the first call (every tool is added before any call).
    input_schemas: dict[str, dict[str, Any]] | None = None

    async def list_tools(self) -> list[Tool]:
        return [
            tool.model_copy(update={"input_schema": {**tool.input_schema, "additionalProperties": False}})
            for tool in await super().list_tools()
        ]

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> CallToolResult | InputRequiredResult:
        if self.input_schemas is None:
            self.input_schemas = {tool.name: tool.input_schema for tool in await super().list_tools()}
        schema = self.input_schemas.get(name)
        if schema is None:
            raise unknown("tool", name, self.input_schemas)
        declared: dict[str, Any] = schema.get("properties", {})
        wrong = [
            *(
                {"loc": (key,), "msg": "Field required", "type": "missing"}
                for key in schema.get("required", ())
                if key not in arguments
            ),
            *(
                {"loc": (key,), "msg": "Extra inputs are not permitted", "type": "extra_forbidden"}
                for key in arguments
                if key not in declared
            ),
        ]
        if wrong:
            listed = [Item.of(error) for error in wrong[:MAX_LISTED_ERRORS]]
            said = render(
                summary(listed, len(wrong), MAX_LISTED_ERRORS), tool_words(arguments.get("language"))
            )
            raise ToolError(f"Error executing tool {name}: {said}")
        return await super().call_tool(name, arguments, context)

    async def get_prompt(
        self, name: str, arguments: dict[str, Any] | None = None, context: Context[Any, Any] | None = None
    ) -> GetPromptResult | InputRequiredResult:
        known = [prompt.name for prompt in await self.list_prompts()]
        if name not in known:
            raise unknown("prompt", name, known)
        return await super().get_prompt(name, arguments, context)

    async def read_resource(
        self, uri: AnyUrl | str, context: Context[Any, Any] | None = None
    ) -> Iterable[ReadResourceContents] | InputRequiredResult:
        if not await self.list_resources() and not await self.list_resource_templates():
            raise unknown("resource", str(uri), [])
        return await super().read_resource(uri, context)


def unknown(what: str, name: str, known: Iterable[str]) -> MCPError:
    """The protocol error (``-32602``) for a ``what`` (tool, prompt, resource) of no ``known`` name."""
    names = sorted(known)
    there = f"the {what}s are {', '.join(names)}" if names else f"this server has no {what}s"
    return MCPError(code=INVALID_PARAMS, message=f"Unknown {what}: {quoted(name)}; {there}")


def build_server(answers: Answers, coach: Coach) -> MCPServer:
    """The MCP server of the service: every tool, answered by ``answers`` and ``coach``."""
    with _root_logger_kept():
        server: MCPServer = StrictServer(
            NAME, title="Tic-tac-toe solver", version=__version__, instructions=INSTRUCTIONS
        )
    add_play_tools(server, answers)
    add_coach_tools(server, coach)
    return server


def add_play_tools(server: MCPServer, answers: Answers) -> None:
    """The tools about one position: the move to play, its explanation, and the full analysis."""

    @server.tool(title="Best move", annotations=READ_ONLY)
    async def best_move(
        board: BoardArgument,
        *,
        variant: VariantArgument = "standard",
        player: PlayerArgument = None,
        level: LevelArgument = None,
        rating: RatingArgument = None,
        seed: SeedArgument = None,
        language: LanguageArgument = None,
    ) -> Annotated[CallToolResult, BestMoveResponse]:
        """The move to play on a tic-tac-toe board on which the game is not over.

        Without `level` or `rating`, the move is always optimal (perfect play, deterministic). With
        a `level` below "perfect", or a `rating` below perfect's (an opponent of that Elo strength,
        e.g. a player's rating from review_game), the engine plays like a weaker opponent, at random:
        give a `seed` to make the answer reproducible. `level` and `rating` exclude each other. The
        answer gives the cell (`position`, `row`, `column`), its value for the side to move under
        perfect play afterwards (`score`, `outcome`, `plies_to_end`), whether it is `optimal`, what
        it does (`tactics`, `reason`), and the board after it. `variant` names a rule variant
        (misere, wild, notakto, notakto-2, notakto-3, 4x4, 4x4-3; standard by default); levels play in
        every variant, and a rating in a variant whose levels are calibrated, on that variant's own
        scale (`rated` in the variant list), up to its perfect play's rating.
        """
        arguments = {
            "board": board,
            "variant": variant,
            "player": player,
            "level": level,
            "rating": rating,
            "seed": seed,
            "lang": language,
        }
        request = validated(BestMoveRequest, arguments)
        return answer(await work.best_move(answers, request.position, request.options, spoken(request.lang)))

    @server.tool(title="Explain the best move", annotations=READ_ONLY)
    async def explain_move(
        board: BoardArgument,
        variant: VariantArgument = "standard",
        player: PlayerArgument = None,
        language: LanguageArgument = None,
    ) -> Annotated[CallToolResult, Explanation]:
        """Why the engine plays its move on a board on which the game is not over.

        The move is the one `best_move` chooses without a level. The answer gives the move, its
        `tactics` (win, block, fork, threat, block_fork, center, corner or edge, opposite_corner)
        and `reason`, one sentence naming the cells and lines on the board, and the move's value
        for the side to move under perfect play (`score`, `outcome`, `plies_to_end`).
        """
        given = {"board": board, "variant": variant, "player": player, "lang": language}
        request = validated(BestMoveRequest, given)
        return explanation(answers.chosen(request.position, spoken(request.lang)))

    @server.tool(title="Analyze a position", annotations=READ_ONLY)
    async def analyze_position(
        board: BoardArgument,
        variant: VariantArgument = "standard",
        player: PlayerArgument = None,
        language: LanguageArgument = None,
    ) -> Annotated[CallToolResult, AnalysisResponse]:
        """Everything about a tic-tac-toe position, finished or not.

        The answer gives the board's `status` (in_progress, x_won, o_won or draw), the `winner` and
        `winning_lines`, the side to move and the position's value for it under perfect play
        (`score`, `outcome`, `plies_to_end`), the optimal cells (`best_moves`), every legal move
        with its value, tactics and reason (`moves`, best first), and the rest of the game under
        perfect play (`principal_variation`).
        """
        given = {"board": board, "variant": variant, "player": player, "lang": language}
        request = validated(AnalysisRequest, given)
        return answer((await work.analysis(answers, request.position, spoken(request.lang))).body)


def add_coach_tools(server: MCPServer, coach: Coach) -> None:
    """The coach's tools: the review of a game, and the puzzles (drawn, by id, or listed)."""

    @server.tool(title="Review a game", annotations=READ_ONLY)
    async def review_game(
        moves: MovesArgument,
        board: StartArgument = None,
        player: PlayerArgument = None,
        *,
        variant: VariantArgument = "standard",
        language: LanguageArgument = None,
    ) -> Annotated[CallToolResult, ReviewResponse]:
        """Grade a tic-tac-toe game move by move, as a coach would, and tell how strongly each side played.

        `moves` are the cells played, in order (0 to 8 in the standard game), from `board` (the
        variant's empty board by default) with its side to move first; in wild each move is an
        object with its cell (`position`) and the `mark` placed. `variant` names a rule variant, as
        for best_move; there the sides may be `first` and `second`, and a side's `rating` is null
        where the variant's levels are not calibrated. Each entry of `plies` judges one move for the
        side that played it: `judgement` (best, inaccuracy: a slower win or a quicker loss, mistake:
        a win thrown to a draw, blunder: a win or a draw thrown to a loss), `only_move` (the one
        move that kept the outcome), the values before and after it, its `tactics` and `reason`, and
        `better`, the engine's move, when it was not best. `players` sums up each side: the count of
        each judgement, `accuracy` (per cent of best moves), and the strength it played at (`level`,
        `rating`, and `level_likelihoods`). A move that cannot be played is an error naming its
        index in `moves`.
        """
        given = {"moves": moves, "variant": variant, "player": player, "lang": language}
        request = validated(ReviewRequest, given if board is None else given | {"board": board})
        try:
            return answer(
                await work.off_loop(coach.review, request.start, request.moves, spoken(request.lang))
            )
        except IllegalMove as error:
            raise ToolError(f"moves.{error.index}: {error.said.to(tool_words(language))}") from None

    @server.tool(title="Draw a puzzle", annotations=READ_ONLY)
    async def random_puzzle(  # every argument by name, as a tool's always are
        *,
        variant: VariantArgument = "standard",
        theme: ThemeArgument = None,
        min_rating: MinRatingArgument = None,
        max_rating: MaxRatingArgument = None,
        seed: DrawSeedArgument = None,
        language: LanguageArgument = None,
    ) -> Annotated[CallToolResult, Puzzle]:
        """A tic-tac-toe puzzle drawn at random: a position where exactly one move keeps the win or the draw.

        `variant` names the rule variant whose book the puzzle comes from (the standard game by
        default; every variant has one). The filters keep puzzles whose solution has the `theme`
        (the variant's tactics but places: in the standard game win, block, fork, threat or
        block_fork) and whose `rating` (on the variant's scale) is within `min_rating` and
        `max_rating`; give a `seed` to draw the same puzzle again. The answer gives the puzzle's
        `id`, its `variant`, its `board` and the side to move (`player`), the `solution` (a cell of
        that board, with the `mark` to place in wild and the `grid` in Notakto) and its `reason`,
        what it keeps (`outcome`, `plies_to_end`), its `themes`, and how hard it is: `rating`, and
        `solve_rates`, the chance that each calibrated player finds it. Keep the solution from a
        person solving it.
        """
        arguments = {
            "variant": variant,
            "theme": theme,
            "min_rating": min_rating,
            "max_rating": max_rating,
            "seed": seed,
            "lang": language,
        }
        query = validated(RandomPuzzleQuery, arguments)
        wanted = PuzzleFilter(query.theme, None, query.min_rating, query.max_rating)
        drawn = coach.random(query.variant, wanted, query.seed, spoken(query.lang))
        if drawn is None:
            given = [f"{name} {value}" for name, value in wanted._asdict().items() if value is not None]
            nothing = Said.of(
                Message("error", "no puzzle matches these filters ({filters})"), filters=", ".join(given)
            )
            raise ToolError(nothing.to(tool_words(language)))
        return answer(drawn.body)

    @server.tool(title="Get a puzzle", annotations=READ_ONLY)
    async def get_puzzle(
        id: PuzzleIdArgument, language: LanguageArgument = None
    ) -> Annotated[CallToolResult, Puzzle]:
        """One tic-tac-toe puzzle by its `id` (as random_puzzle and list_puzzles give it), with its solution.

        The id names its variant. The answer is the puzzle as random_puzzle gives it. A board
        turned or mirrored is the same puzzle under the id of its canonical board, which the error
        names.
        """
        found = coach.puzzle(id, spoken(validated(LanguageQuery, {"lang": language}).lang))
        if found is None:
            raise ToolError(f"id: {coach.missing(id).to(tool_words(language))}")
        return answer(found.body)

    @server.tool(title="List puzzles", annotations=READ_ONLY)
    async def list_puzzles(  # every argument by name, as a tool's always are
        *,
        variant: VariantArgument = "standard",
        theme: ThemeArgument = None,
        outcome: OutcomeArgument = None,
        min_rating: MinRatingArgument = None,
        max_rating: MaxRatingArgument = None,
        limit: LimitArgument = PAGE_LIMIT,
        cursor: CursorArgument = None,
        language: LanguageArgument = None,
    ) -> Annotated[CallToolResult, PuzzlePage]:
        """The tic-tac-toe puzzles that match every filter given, a page at a time, easiest first.

        `variant` and the filters as for random_puzzle, and `outcome` (win or draw). Puzzles are in order of
        `rating`, then `id`; the answer gives a page of up to `limit` of them (each as
        random_puzzle gives it), `total` (how many match), and `next`: the `cursor` of the
        following page, null on the last one.
        """
        query = validated(
            PuzzleQuery,
            {
                "variant": variant,
                "theme": theme,
                "outcome": outcome,
                "min_rating": min_rating,
                "max_rating": max_rating,
                "limit": limit,
                "cursor": cursor,
                "lang": language,
            },
        )
        wrong = coach.cursor_error(query.variant, query.cursor)
        if wrong is not None:
            raise ToolError(f"cursor: {wrong.to(tool_words(language))}")
        wanted = PuzzleFilter(query.theme, query.outcome, query.min_rating, query.max_rating)
        page = coach.page(query.variant, wanted, query.limit, query.cursor, spoken(query.lang))
        return answer(page.body)


def spoken(lang: str | None) -> str:
    """The language of a tool's answer: the one its ``language`` names (a well-formed tag), by the
    lookup of RFC 4647, or English (a tool call has no ``Accept-Language``)."""
    return chosen(lang, None)[0]


# --- logging ---------------------------------------------------------------------------------------


@contextmanager
def _root_logger_kept() -> Iterator[None]:
    """Leave the root logger as it was.

    ``MCPServer()`` calls :func:`logging.basicConfig`, which gives the root logger a handler of
    its own (plain text on standard error) at level info when it has none. The service writes
    JSON lines through its own handlers and leaves the root logger alone (see :mod:`service.logs`).
    """
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        yield
    finally:
        for handler in [handler for handler in root.handlers if handler not in handlers]:
            root.removeHandler(handler)
            handler.close()
        root.setLevel(level)


def configure_logging(level: str) -> None:
    """The SDK's records (logger ``mcp``) as JSON lines like the service's, warnings and worse.

    At info the SDK logs every tool call refused for its arguments: the access log, and the
    answer, say enough of those.
    """
    logs.configure(max(level.upper(), "WARNING", key=logging.getLevelNamesMapping().__getitem__), "mcp")


# --- Streamable HTTP -------------------------------------------------------------------------------


@asynccontextmanager
async def serving(server: MCPServer, path: str, max_body_bytes: int) -> AsyncIterator[ASGIApp]:
    """The SDK's session manager of ``server`` at work for as long as the block runs, as an ASGI app.

    The app checks the JSON-RPC envelope of a body before the manager reads it
    (:class:`.envelope.Envelope`).

    Stateless, with JSON answers: every POST is complete in itself (no session id, no stream kept
    open), so any replica behind the proxy answers any request. The manager is made by the SDK's
    documented :meth:`MCPServer.streamable_http_app` (the Starlette app it returns is not used)
    and runs only once. The SDK's DNS rebinding protection (a check of ``Host`` and ``Origin``,
    which it turns on for a server on 127.0.0.1) is off: like the rest of the API, the tools are
    public, read only and without credentials, and are called from any origin, under any host
    name the proxy answers.
    """
    server.streamable_http_app(
        streamable_http_path=path,
        stateless_http=True,
        json_response=True,
        max_request_body_size=max_body_bytes,
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
    )
    manager = server.session_manager
    async with manager.run():
        yield Envelope(manager.handle_request)


# --- standard input and output ---------------------------------------------------------------------


def run_stdio() -> None:
    """Serve the tools over standard input and output until the client closes them: ``tictactoe-service mcp``.

    An assistant starts this as a subprocess. Standard output carries the protocol and nothing
    else; logs go to standard error as JSON lines, at ``TICTACTOE_LOG_LEVEL``. Each line read is
    checked as ``/mcp`` checks a body, and answered as it answers one that is no message
    (:mod:`.stdio`).
    """
    settings = Settings()
    logs.configure(settings.log_level)
    configure_logging(settings.log_level)
    server = build_server(Answers(), Coach())
    with stdio.checked(refused):
        server.run("stdio")
