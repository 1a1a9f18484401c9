// The service's types, by name: each one is the schema of the same name in the OpenAPI document
// (src/api.ts is generated from it by `npm run generate`), so they change when the API does.
import type { components, operations } from "./api.js";

type Schemas = components["schemas"];

/** A board in one of its three forms: 9 characters, 9 cells, or 3 rows of 3 cells. */
export type Board = Schemas["Board"];
/** A board as 9 characters: `X`/`O` (either case) for a mark, `.`, `-`, `_` or a space for an empty cell. */
export type BoardString = Schemas["BoardString"];
/** One cell of a board in array form: a mark (either case) or an empty cell. */
export type Cell = Schemas["Cell"];
/** A side of the games whose sides are marks: `X` or `O`. */
export type Mark = "X" | "O";
/** A side of `wild` and Notakto, named by its turn, not by a mark: `first` or `second`. */
export type Turn = "first" | "second";
/**
 * A side as requests and answers name it: a mark, or `first` or `second` in `wild` and Notakto. An
 * answer's `player` and `winner` are a `Player` in every variant (a review's, typed by its variant,
 * excepted: see {@link Review}).
 */
export type Player = NonNullable<Schemas["BestMoveRequest"]["player"]>;
/** A rule variant: `standard`, `misere`, `wild`, `notakto`, `notakto-2`, `notakto-3`, `4x4` or `4x4-3`. */
export type Variant = NonNullable<Schemas["BestMoveRequest"]["variant"]>;
/** The variants whose sides are the marks X and O (`marks` is `"own"` in `GET /v1/variants`). */
export type MarkVariant = "standard" | "misere" | "4x4" | "4x4-3";
/** The variants whose sides are `first` and `second`: both sides place any mark (`wild`) or only X (Notakto). */
export type TurnVariant = "wild" | "notakto" | "notakto-2" | "notakto-3";
/** Holds only a type that is `never`: a type argument that is not fails to compile. */
type Never<T extends never> = T;
/**
 * Compiles only while every variant of the document is in exactly one of the two groups (a test
 * checks the groups against `GET /v1/variants`).
 */
type VariantsPlaced = [
  Never<Exclude<Variant, MarkVariant | TurnVariant>>,
  Never<Exclude<MarkVariant | TurnVariant, Variant>>,
  Never<MarkVariant & TurnVariant>,
];
/** The side to move and the rule variant of a board, both optional (X by default when both sides have as many marks; `standard` by default). */
export interface PositionOptions {
  player?: Player;
  variant?: Variant;
}
/** One rule variant: its rules, board, value from the empty board, positions and tactic tags. */
export type VariantInfo = Schemas["VariantInfo"];
/** Every rule variant the service solves, the standard game first. */
export type VariantList = Schemas["VariantList"];
/** The body of `POST /v1/best-move`: a board, its options and the language of the answer (`lang`). */
export type BestMoveRequest = Schemas["BestMoveRequest"];
/** One best-move request of a batch: the body of `POST /v1/best-move` but its `lang`, which is the batch's. */
export type BestMoveItem = Schemas["BestMoveItem"];
/**
 * The options of a best move beside its board: `variant`, `player`, `level`, `depth`, `skill`,
 * `rating`, `random`, `seed`. Its language is an option of the call (`CallOptions.lang`), as for
 * every method.
 */
export type MoveOptions = Omit<BestMoveRequest, "board" | "lang">;
/** The move chosen, its value, why, and the board after it. */
export type BestMove = Schemas["BestMoveResponse"];
/** Everything about a position: status, every move's value, the rest of the game. */
export type Analysis = Schemas["AnalysisResponse"];
/** One legal move of an analysis, with its value. */
export type MoveInfo = Schemas["MoveInfo"];
/**
 * Where a game stands on a board: `in_progress`, `draw`, and `x_won` or `o_won`, or in `wild` and
 * Notakto, whose sides are named by their turn, `first_won` or `second_won`.
 */
export type Status = Schemas["Status"];
/** Where a game whose sides are marks stands: `in_progress`, `x_won`, `o_won` or `draw`. */
export type MarkStatus = Extract<Status, "in_progress" | "x_won" | "o_won" | "draw">;
/** Where a game of `wild` or Notakto stands: `in_progress`, `first_won`, `second_won` or `draw`. */
export type TurnStatus = Extract<Status, "in_progress" | "first_won" | "second_won" | "draw">;
/** Whether the service is ready, its version, and the size of its table. */
export type Health = Schemas["HealthResponse"];
/** An error answer of the service (RFC 9457 problem details). */
export type Problem = Schemas["Problem"];
/** The location and message of one input error, in a problem's `errors`. */
export type ErrorDetail = Schemas["ErrorDetail"];
/** A difficulty level, weakest first: `beginner`, `easy`, `medium`, `hard` or `perfect`. */
export type Level = Schemas["Level"];
/** The body of a review: `moves` (the moves played, in order), the `variant`, the starting `board` and `player`, and `lang`. */
export type ReviewRequest = Schemas["ReviewRequest"];
/**
 * The options of a review beside its moves: the rule `variant` (`standard` by default), the starting
 * `board` (the variant's empty board by default) and `player`. `V` is the variant, when it is known.
 * Its language is an option of the call (`CallOptions.lang`).
 */
export type ReviewOptions<V extends Variant = Variant> = Omit<ReviewRequest, "moves" | "variant" | "lang"> & {
  variant?: V;
};
/** A move of `wild`: the cell (`position`, 0 to 8) and the `mark` placed, `X` or `O` (either case). */
export type MarkedMove = Omit<Schemas["MarkedMove"], "mark"> & { mark: Mark | Lowercase<Mark> };
/**
 * A move of a review: a cell (0 to the board's cells - 1, as the board string indexes them), or in
 * `wild` a {@link MarkedMove}, `{ position, mark }`.
 */
export type ReviewMove = Exclude<ReviewRequest["moves"][number], Schemas["MarkedMove"]> | MarkedMove;
type ReviewResponse = Schemas["ReviewResponse"];
/**
 * A game reviewed move by move (`plies`), and each side's strength (`players`), in the variant `V`:
 * a {@link MarkReview} in the games whose sides are marks ({@link MarkVariant}: the standard game,
 * `misere`, `4x4`, `4x4-3`), a {@link TurnReview} in `wild` and Notakto ({@link TurnVariant}).
 * `review()` gives the review of the variant of its options (`standard` without one). `Review`
 * alone, a variant not known before run time, is the document's `ReviewResponse`, with either
 * sides (`players` is `Sides | TurnSides`: `"X" in review.players` tells them apart).
 */
export type Review<V extends Variant = Variant> = [Variant] extends [V]
  ? ReviewResponse
  : V extends MarkVariant
    ? MarkReview
    : TurnReview;
/** A review of a game whose sides are the marks X and O: `players` is {@link Sides}, and its sides are marks. */
export interface MarkReview extends ReviewResponse {
  /** The side that played the first move. */
  player: Mark;
  /** Each side: `X` and `O`. */
  players: Sides;
  /** Every move, in order. */
  plies: MarkPlyReview[];
  /** The status of the final board. */
  status: MarkStatus;
  /** The mark that won the game on the final board, if any. */
  winner: Mark | null;
}
/** A review of a game of `wild` or Notakto: `players` is {@link TurnSides}, and its sides are `first` and `second`. */
export interface TurnReview extends ReviewResponse {
  /** The side that played the first move. */
  player: Turn;
  /** Each side: `first` and `second`. */
  players: TurnSides;
  /** Every move, in order. */
  plies: TurnPlyReview[];
  /** The status of the final board. */
  status: TurnStatus;
  /** The side that won the game on the final board, if any. */
  winner: Turn | null;
}
/** Each side's part of a reviewed game whose sides are marks: `X` and `O`. */
export type Sides = Schemas["Sides"];
/** Each side's part of a reviewed game of `wild` or Notakto, whose sides are named by their turn: `first` and `second`. */
export type TurnSides = Schemas["TurnSides"];
/** One move of a reviewed game: its value, its `judgement`, and the `better` move when it was not best. */
export type PlyReview = Schemas["PlyReview"];
/** One move of a reviewed game whose sides are marks: its `player` is `X` or `O`. */
export interface MarkPlyReview extends PlyReview {
  /** The side that played the move. */
  player: Mark;
}
/** One move of a reviewed game of `wild` or Notakto: its `player` is `first` or `second`. */
export interface TurnPlyReview extends PlyReview {
  /** The side that played the move. */
  player: Turn;
}
/** One side's part of a reviewed game: its judgements, accuracy, and the level and rating it played at. */
export type SideReview = Schemas["SideReview"];
/** How good a move was: `best`, `inaccuracy`, `mistake` or `blunder`. */
export type Judgement = Schemas["Judgement"];
/** How many of a side's moves got each judgement. */
export type Judgements = Schemas["Judgements"];
/** A move with its value, tactics and reason: the `better` move of a review. */
export type Move = Schemas["Move"];
/**
 * A position of a `variant` where exactly one move, the `solution`, keeps a win or a draw, with its
 * themes and its rating on the variant's scale; in wild the solution's `mark`, in Notakto its `grid`.
 */
export type Puzzle = Schemas["Puzzle"];
/** A page of puzzles: `puzzles`, `total` (how many match) and `next` (the cursor of the following page, or null). */
export type PuzzlePage = Schemas["PuzzlePage"];
/** A theme of a puzzle, in any variant (the standard game's are `win`, `block`, `fork`, `threat` and `block_fork`). */
export type Theme = Puzzle["themes"][number];
/**
 * The book of a list of puzzles (`variant`), its filters (`theme`, `outcome`, `min_rating`,
 * `max_rating`) and its page (`limit`, `cursor`); its language is an option of the call (`CallOptions.lang`).
 */
export type PuzzleQuery = Omit<NonNullable<operations["listPuzzles"]["parameters"]["query"]>, "lang">;
/**
 * The book of a random puzzle (`variant`), its filters (`theme`, `min_rating`, `max_rating`) and the
 * `seed` that makes the draw reproducible; its language is an option of the call (`CallOptions.lang`).
 */
export type RandomPuzzleQuery = Omit<NonNullable<operations["getRandomPuzzle"]["parameters"]["query"]>, "lang">;
/** A language the service speaks: its BCP 47 `tag` (the `lang` to ask for) and its `name`, in itself (`Español`). */
export type LanguageInfo = Schemas["LanguageInfo"];
/** The languages the service speaks (`languages`, English first), and the `default` one, of an answer when none offered is asked for. */
export type LanguageList = Schemas["LanguageList"];
