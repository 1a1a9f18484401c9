// The service's types, by name: each one is the schema of the same name in the OpenAPI document
// (src/api.ts is generated from it by `npm run generate`), so they change when the API does.
import type { components } from "./api.js";

type Schemas = components["schemas"];

/** A board in one of its three forms: 9 characters, 9 cells, or 3 rows of 3 cells. */
export type Board = Schemas["Board"];
/** A board as 9 characters: `X`/`O` (either case) for a mark, `.`, `-`, `_` or a space for an empty cell. */
export type BoardString = Schemas["BoardString"];
/** One cell of a board in array form: a mark (either case) or an empty cell. */
export type Cell = Schemas["Cell"];
/** A side: `X` or `O`. */
export type Mark = "X" | "O";
/** The body of one best-move request, as the batch takes them. */
export type BestMoveRequest = Schemas["BestMoveRequest"];
/** The options of a best move beside its board: `player`, `level`, `depth`, `skill`, `random`, `seed`. */
export type MoveOptions = Omit<BestMoveRequest, "board">;
/** The move chosen, its value, why, and the board after it. */
export type BestMove = Schemas["BestMoveResponse"];
/** Everything about a position: status, every move's value, the rest of the game. */
export type Analysis = Schemas["AnalysisResponse"];
/** One legal move of an analysis, with its value. */
export type MoveInfo = Schemas["MoveInfo"];
/** The status of a board: `in_progress`, `x_won`, `o_won` or `draw`. */
export type Status = Schemas["Status"];
/** Whether the service is ready, its version, and the size of its table. */
export type Health = Schemas["HealthResponse"];
/** An error answer of the service (RFC 9457 problem details). */
export type Problem = Schemas["Problem"];
/** The location and message of one input error, in a problem's `errors`. */
export type ErrorDetail = Schemas["ErrorDetail"];
/** A difficulty level, weakest first: `beginner`, `easy`, `medium`, `hard` or `perfect`. */
export type Level = Schemas["Level"];
