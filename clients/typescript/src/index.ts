/**
 * A typed client of the tic-tac-toe best-move service, for web pages and Node.
 *
 * It needs nothing but `fetch`. Its types come from the service's committed OpenAPI document
 * (`npm run generate` writes `src/api.d.ts` from it), so they change when the API does.
 *
 *     import { createClient } from "tictactoe-client";
 *     const client = createClient({ baseUrl: "http://127.0.0.1:8000" });
 *     const move = await client.bestMove("X........");   // move.position === 4
 */

import type { components } from "./api.js";

type Schemas = components["schemas"];

/** A board in one of its three forms: 9 characters, 9 cells, or 3 rows of 3 cells. */
export type Board = Schemas["Board"];
/** One cell of a board in array form: a mark (either case) or an empty cell. */
export type Cell = Schemas["Cell"];
export type Mark = "X" | "O";
/** The body of one best-move request, as the batch takes them. */
export type BestMoveRequest = Schemas["BestMoveRequest"];
export type BestMove = Schemas["BestMoveResponse"];
export type Analysis = Schemas["AnalysisResponse"];
export type MoveInfo = Schemas["MoveInfo"];
export type Health = Schemas["HealthResponse"];
/** An error answer of the service (RFC 9457 problem details). */
export type Problem = Schemas["Problem"];
/** A difficulty level, weakest first: "beginner", "easy", "medium", "hard" or "perfect". */
export type Level = Schemas["Level"];

/** Options of a best move: who is to move when the counts are equal, and how well to play. */
export interface MoveOptions {
  /** The side to move; needed only when both sides have as many marks (X by default). */
  player?: Mark;
  /** From 0 (a random player) to 1 (perfect play, the default). */
  skill?: number;
  /** Break ties between optimal moves at random. */
  random?: boolean;
  /** Look only this many moves ahead, 1 to 9: 1 takes a win, 2 also blocks, 3 also forks. */
  depth?: number;
  /** A calibrated difficulty level; not together with `skill` or `depth`. */
  level?: Level;
  /** Makes the random choices reproducible. */
  seed?: number;
}

export interface ClientOptions {
  /** Where the service is; by default the page's own origin (in Node, give one). */
  baseUrl?: string;
  /** How long to wait for each answer, in milliseconds (default 5,000). */
  timeoutMs?: number;
  /** Headers sent with every request, such as an `X-Request-ID`. */
  headers?: Record<string, string>;
  /** The `fetch` to use (default: the global one). */
  fetch?: typeof fetch;
}

/** The service answered with an error: `status` and the problem details say what was wrong. */
export class ProblemError extends Error {
  readonly status: number;
  readonly problem: Problem;

  constructor(status: number, problem: Problem) {
    super(`${status} ${problem.title}: ${problem.detail}`);
    this.name = "ProblemError";
    this.status = status;
    this.problem = problem;
  }
}

/** A client of the service; see {@link createClient}. */
export class TicTacToeClient {
  readonly #baseUrl: string;
  readonly #timeoutMs: number;
  readonly #headers: Record<string, string>;
  readonly #fetch: typeof fetch;

  constructor(options: ClientOptions = {}) {
    this.#baseUrl = (options.baseUrl ?? "").replace(/\/+$/, "");
    this.#timeoutMs = options.timeoutMs ?? 5000;
    this.#headers = { Accept: "application/json", ...options.headers };
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  /** The move to play on `board`, its value, and the board after it (`POST /v1/best-move`). */
  bestMove(board: Board, options: MoveOptions = {}): Promise<BestMove> {
    return this.#post<BestMove>("/v1/best-move", { board, ...options });
  }

  /** Everything about a position: status, every move's value, the rest of the game (`POST /v1/analysis`). */
  analyze(board: Board, player?: Mark): Promise<Analysis> {
    return this.#post<Analysis>("/v1/analysis", player === undefined ? { board } : { board, player });
  }

  /** Up to 1,000 best moves in one round trip, answered in order (`POST /v1/best-move/batch`). */
  async batch(items: BestMoveRequest[]): Promise<BestMove[]> {
    const answer = await this.#post<Schemas["BatchResponse"]>("/v1/best-move/batch", { items });
    return answer.results;
  }

  /** Whether the service is up, its version and the size of its table (`GET /health`). */
  health(): Promise<Health> {
    return this.#request<Health>("/health", { method: "GET" });
  }

  #post<T>(path: string, body: unknown): Promise<T> {
    return this.#request<T>(path, {
      method: "POST",
      body: JSON.stringify(body),
      headers: { "Content-Type": "application/json" },
    });
  }

  async #request<T>(path: string, init: { method: string; body?: string; headers?: Record<string, string> }): Promise<T> {
    const response = await this.#fetch(this.#baseUrl + path, {
      method: init.method,
      headers: { ...this.#headers, ...init.headers },
      signal: AbortSignal.timeout(this.#timeoutMs),
      ...(init.body === undefined ? {} : { body: init.body }),
    });
    const text = await response.text();
    if (!response.ok) {
      throw new ProblemError(response.status, problemOf(response, text));
    }
    return JSON.parse(text) as T;
  }
}

/** A client of the service at `options.baseUrl` (by default, the page's own origin). */
export function createClient(options: ClientOptions = {}): TicTacToeClient {
  return new TicTacToeClient(options);
}

function problemOf(response: Response, text: string): Problem {
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === "object" && parsed !== null && "type" in parsed && "status" in parsed) {
      return parsed as Problem;
    }
  } catch {
    // not JSON: a proxy's page, say; described below
  }
  return {
    type: "about:blank",
    title: response.statusText || "Error",
    status: response.status,
    detail: text.slice(0, 500),
  };
}
