/**
 * A typed client of the tic-tac-toe best-move service, for web pages and Node.
 *
 * It needs nothing but `fetch`. Its types come from the service's OpenAPI document
 * (`npm run generate` writes `src/api.ts` from it), so they change when the API does.
 *
 *     import { createClient } from "tictactoe-client";
 *     const client = createClient({ baseUrl: "http://127.0.0.1:8000" });
 *     const move = await client.bestMove("X........");   // move.position === 4
 */

export {
  type CallOptions,
  type ClientOptions,
  type Conditional,
  type ConditionalCallOptions,
  createClient,
  TicTacToeClient,
} from "./client.js";
export {
  AbortError,
  type ClientError,
  type ErrorKind,
  type FailedRequest,
  isClientError,
  NetworkError,
  ProblemError,
  TicTacToeError,
  TimeoutError,
} from "./errors.js";
export type {
  Analysis,
  BestMove,
  BestMoveItem,
  BestMoveRequest,
  Board,
  BoardString,
  Cell,
  ErrorDetail,
  Health,
  Judgement,
  Judgements,
  LanguageInfo,
  LanguageList,
  Level,
  Mark,
  MarkedMove,
  MarkPlyReview,
  MarkReview,
  MarkStatus,
  MarkVariant,
  Move,
  MoveInfo,
  MoveOptions,
  Player,
  PlyReview,
  PositionOptions,
  Problem,
  Puzzle,
  PuzzlePage,
  PuzzleQuery,
  RandomPuzzleQuery,
  Review,
  ReviewMove,
  ReviewOptions,
  ReviewRequest,
  SideReview,
  Sides,
  Status,
  Theme,
  Turn,
  TurnPlyReview,
  TurnReview,
  TurnSides,
  TurnStatus,
  TurnVariant,
  Variant,
  VariantInfo,
  VariantList,
} from "./types.js";
/** Every type of the OpenAPI document, as openapi-typescript writes them: `paths`, `components`, `operations`. */
export type { components, operations, paths } from "./api.js";
