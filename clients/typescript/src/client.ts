// The client: one method per operation of the service, over one way of sending a request
// (#send: headers, timeout, the caller's signal, and which error a failure becomes).
import { AbortError, type FailedRequest, NetworkError, ProblemError, TimeoutError } from "./errors.js";
import type {
  Analysis,
  BestMove,
  BestMoveItem,
  Board,
  BoardString,
  Health,
  LanguageList,
  MoveOptions,
  Player,
  PositionOptions,
  Problem,
  Puzzle,
  PuzzlePage,
  PuzzleQuery,
  RandomPuzzleQuery,
  Review,
  ReviewMove,
  ReviewOptions,
  Variant,
  VariantList,
} from "./types.js";
import type { components } from "./api.js";

export interface ClientOptions {
  /**
   * Where the service is, such as `http://127.0.0.1:8000`; by default the page's own origin. In
   * Node, where there is no page to resolve a relative URL against, give a whole `http:` or
   * `https:` address: with the global `fetch`, `createClient` throws a `TypeError` otherwise
   * (see {@link createClient}).
   */
  baseUrl?: string | undefined;
  /** How long each call waits for its whole answer, in milliseconds (default 5,000; `Infinity` waits forever). */
  timeoutMs?: number | undefined;
  /** Headers sent with every request, such as an `X-Request-ID`. */
  headers?: Record<string, string> | undefined;
  /** The `fetch` to use (default: the global one, looked up at each call). */
  fetch?: typeof fetch | undefined;
  /**
   * The language of the answers' sentences for people (a move's or a puzzle's `reason`, a variant's
   * `name` and `rules`, a problem's `title`), a BCP 47 tag such as `"es"` or `"pt-BR"`: sent as `lang`
   * with every call that answers sentences, unless the call gives its own. Without it the service
   * chooses, by `Accept-Language` (a browser's own), else English.
   */
  lang?: string | undefined;
}

/** Options of one call, the last argument of every method. */
export interface CallOptions {
  /** Aborts the call: it then rejects with an `AbortError` that carries the signal's `reason`. */
  signal?: AbortSignal | undefined;
  /** How long this call waits for its whole answer, in milliseconds, instead of the client's `timeoutMs`. */
  timeoutMs?: number | undefined;
  /** Headers for this call only, over the client's. */
  headers?: Record<string, string> | undefined;
  /**
   * The language of this call's sentences for people, instead of the client's `lang`: a BCP 47 tag,
   * sent as the API takes it (the `lang` query parameter of a `GET`, the `lang` member of a `POST`
   * body; a batch's, not its items'). A language the service does not offer gets English; a
   * malformed tag is a 422 `ProblemError`. `health`, `metrics` and `languages` answer no sentences
   * and send none.
   */
  lang?: string | undefined;
}

/** Options of a call to a cacheable resource: a {@link CallOptions} and an entity tag held. */
export interface ConditionalCallOptions extends CallOptions {
  /** The `etag` of an earlier answer: while it is current, the answer is `{ notModified: true }`. */
  ifNoneMatch?: string | undefined;
}

/**
 * The answer of a cacheable resource: its `value`, `etag` and `language` (the language of its
 * sentences, as its `Content-Language` says, or null), or, when the `ifNoneMatch` of the call is
 * still current (`304 Not Modified`), `notModified: true` and no value.
 */
export type Conditional<T> =
  | { readonly notModified: false; readonly value: T; readonly etag: string | null; readonly language: string | null }
  | { readonly notModified: true; readonly etag: string | null };

type BatchResponse = components["schemas"]["BatchResponse"];

/** A base URL, for the messages of a `baseUrl` that cannot work. */
const EXAMPLE_BASE_URL = '"http://127.0.0.1:8000"';
/** The longest timeout `setTimeout` keeps (about 24.8 days); longer ones would fire at once. */
const LONGEST_TIMEOUT_MS = 2_147_483_647;
/**
 * The options of a call, refused among the options of a move or a query: the service would refuse
 * the first four, and `lang`, which the service takes there, is the call's, as in every method.
 */
const CALL_OPTIONS = ["signal", "timeoutMs", "headers", "ifNoneMatch", "lang"];
/** The query parameters of `GET /v1/puzzles` and of `GET /v1/puzzles/random`, in the order they are sent. */
const PUZZLE_PARAMETERS = ["variant", "theme", "outcome", "min_rating", "max_rating", "limit", "cursor", "lang"];
const RANDOM_PUZZLE_PARAMETERS = ["variant", "seed", "theme", "min_rating", "max_rating", "lang"];
/** The query parameters of `GET /v1/positions/{board}`, in the order they are sent. */
const POSITION_PARAMETERS = ["variant", "player", "lang"];

/** A client of the service; see {@link createClient}. Every method rejects with a {@link ClientError}. */
export class TicTacToeClient {
  readonly #baseUrl: string;
  readonly #timeoutMs: number;
  readonly #headers: Record<string, string>;
  readonly #fetch: typeof fetch;
  readonly #lang: string | undefined;

  constructor(options: ClientOptions = {}) {
    this.#baseUrl = checkedBaseUrl(options.baseUrl, options.fetch !== undefined);
    this.#timeoutMs = checkedTimeout(options.timeoutMs ?? 5000);
    this.#headers = { ...options.headers };
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#lang = options.lang ?? undefined;
  }

  /** The language the client asks for (its `lang` option), or undefined: the service chooses. */
  get lang(): string | undefined {
    return this.#lang;
  }

  // Moves

  /** The move to play on `board`, its value, why, and the board after it (`POST /v1/best-move`). */
  async bestMove(board: Board, options: MoveOptions = {}, call: CallOptions = {}): Promise<BestMove> {
    refuseCallOptions(options, "the third argument of bestMove");
    return this.#json<BestMove>("POST", "/v1/best-move", call, { ...options, board, ...this.#language(call) });
  }

  /**
   * The best move with default options, for a board string (`GET /v1/best-move`): cacheable, with
   * an `etag` to send back as `ifNoneMatch`. The second argument is the side to move, or the side
   * and the rule variant (`{ player, variant }`).
   */
  async getBestMove(
    board: BoardString,
    player?: Player | PositionOptions,
    call: ConditionalCallOptions = {},
  ): Promise<Conditional<BestMove>> {
    const query = new URLSearchParams({ board, ...positionOptions(player), ...this.#language(call) });
    return this.#conditional<BestMove>(`/v1/best-move?${query.toString()}`, call);
  }

  /**
   * Up to 1,000 best moves in one round trip, answered in order (`POST /v1/best-move/batch`). Their
   * language is the batch's, the call's `lang` (or the client's), never an item's.
   */
  async batch(items: BestMoveItem[], call: CallOptions = {}): Promise<BestMove[]> {
    const body = { items, ...this.#language(call) };
    const answer = await this.#json<BatchResponse>("POST", "/v1/best-move/batch", call, body);
    return answer.results;
  }

  // Positions

  /**
   * Everything about a board of 9 characters (`GET /v1/positions/{board}`): cacheable, with an
   * `etag` to send back as `ifNoneMatch`. A finished board gets its status, winner and lines.
   */
  async getPosition(
    board: BoardString,
    player?: Player | PositionOptions,
    call: ConditionalCallOptions = {},
  ): Promise<Conditional<Analysis>> {
    const query = queryString({ ...positionOptions(player), ...this.#language(call) }, POSITION_PARAMETERS);
    return this.#conditional<Analysis>(`/v1/positions/${encodeURIComponent(board)}${query}`, call);
  }

  /**
   * Everything about a board in any form: status, every move's value, the rest of the game
   * (`POST /v1/analysis`). The second argument is the side to move, or `{ player, variant }`.
   */
  async analyze(board: Board, player?: Player | PositionOptions, call: CallOptions = {}): Promise<Analysis> {
    const body = { board, ...positionOptions(player), ...this.#language(call) };
    return this.#json<Analysis>("POST", "/v1/analysis", call, body);
  }

  // Variants

  /**
   * Every rule variant the service solves, with its rules and value (`GET /v1/variants`): cacheable.
   * Each one's `name` and `rules` are in the language of the call's `lang` (or the client's).
   */
  async variants(call: ConditionalCallOptions = {}): Promise<Conditional<VariantList>> {
    return this.#conditional<VariantList>(`/v1/variants${queryString(this.#language(call), ["lang"])}`, call);
  }

  // Languages

  /**
   * The languages the service speaks (`GET /v1/languages`): cacheable. `languages`, English first,
   * each with its BCP 47 `tag` (the `lang` to ask for) and its `name` in itself, and the `default`
   * one (`"en"`). The same in every language: no `lang` is sent.
   */
  async languages(call: ConditionalCallOptions = {}): Promise<Conditional<LanguageList>> {
    return this.#conditional<LanguageList>("/v1/languages", call);
  }

  // Games

  /**
   * A game judged move by move from the solved values, and each side's strength (`POST /v1/review`):
   * `moves` are the cells played in order, from `options.board` (the empty board of
   * `options.variant` by default); in `wild` each move is `{ position, mark }`. The answer is the
   * review of that variant, `Review<V>`: without a variant, and in `misere`, `4x4` and `4x4-3`, a
   * `MarkReview`, whose `players` is `{ X, O }` (`Sides`) and whose sides are marks; in `wild` and
   * Notakto a `TurnReview`, with `{ first, second }` (`TurnSides`); for a variant known only as a
   * `Variant`, a `Review`, either. An illegal move, or one in the wrong form for the variant, is a
   * 422 `ProblemError` whose `problem.errors[0].loc` starts with `["body", "moves", N]`, N its index.
   */
  async review<V extends Variant = "standard">(
    moves: readonly ReviewMove[],
    options: ReviewOptions<V> = {},
    call: CallOptions = {},
  ): Promise<Review<V>> {
    refuseCallOptions(options, "the third argument of review");
    return this.#json<Review<V>>("POST", "/v1/review", call, { ...options, moves, ...this.#language(call) });
  }

  // Puzzles

  /**
   * A page of the puzzles that match every filter of `query`, by rating and then id
   * (`GET /v1/puzzles`): `limit` puzzles (20 by default) from `cursor` (the `next` of the page
   * before). `variant` names the book (the standard game's without it); `theme` is one of that
   * variant's themes, and `min_rating` and `max_rating` are on its own scale. Cacheable, with an
   * `etag` to send back as `ifNoneMatch`.
   */
  async puzzles(query: PuzzleQuery = {}, call: ConditionalCallOptions = {}): Promise<Conditional<PuzzlePage>> {
    refuseCallOptions(query, "the second argument of puzzles");
    const path = `/v1/puzzles${queryString({ ...query, ...this.#language(call) }, PUZZLE_PARAMETERS)}`;
    return this.#conditional<PuzzlePage>(path, call);
  }

  /**
   * Every page of the puzzles that match `query`, one request each, following `next` from
   * `query.cursor` (or the first page) to the last: `for await (const page of client.puzzlePages())`.
   * The call's options hold for each request; aborting its signal ends the iteration with an `AbortError`.
   */
  async *puzzlePages(query: PuzzleQuery = {}, call: CallOptions = {}): AsyncGenerator<PuzzlePage, void, undefined> {
    refuseCallOptions(query, "the second argument of puzzlePages");
    const each: CallOptions = { signal: call.signal, timeoutMs: call.timeoutMs, headers: call.headers };
    const language = this.#language(call);
    let cursor = query.cursor;
    do {
      const path = `/v1/puzzles${queryString({ ...query, cursor, ...language }, PUZZLE_PARAMETERS)}`;
      const page = await this.#json<PuzzlePage>("GET", path, each);
      yield page;
      cursor = page.next;
    } while (cursor !== null && cursor !== undefined);
  }

  /**
   * One puzzle of any variant by its `id` (`GET /v1/puzzles/{id}`): in the standard game the
   * canonical board followed by the side to move, elsewhere the variant, a colon and the same:
   * cacheable, with an `etag` to send back as `ifNoneMatch`. An unknown id is a 404 `ProblemError`.
   */
  async puzzle(id: string, call: ConditionalCallOptions = {}): Promise<Conditional<Puzzle>> {
    const query = queryString(this.#language(call), ["lang"]);
    return this.#conditional<Puzzle>(`/v1/puzzles/${encodeURIComponent(id)}${query}`, call);
  }

  /**
   * A puzzle drawn uniformly from those of `query.variant` (the standard game's without it) that
   * match the filters of `query` (`GET /v1/puzzles/random`). With a
   * `seed`, the draw is reproducible and cacheable (an `etag` to send back as `ifNoneMatch`);
   * without one, each call draws anew and `etag` is null. No match is a 404 `ProblemError`.
   */
  async randomPuzzle(query: RandomPuzzleQuery = {}, call: ConditionalCallOptions = {}): Promise<Conditional<Puzzle>> {
    refuseCallOptions(query, "the second argument of randomPuzzle");
    const parameters = queryString({ ...query, ...this.#language(call) }, RANDOM_PUZZLE_PARAMETERS);
    return this.#conditional<Puzzle>(`/v1/puzzles/random${parameters}`, call);
  }

  // The service

  /** Whether the service is ready, its version and the size of its table (`GET /health`). */
  async health(call: CallOptions = {}): Promise<Health> {
    return this.#json<Health>("GET", "/health", call);
  }

  /** The service's metrics in the Prometheus text format (`GET /metrics`). */
  async metrics(call: CallOptions = {}): Promise<string> {
    const { response, text, request } = await this.#send("GET", "/metrics", call, "text/plain");
    if (!response.ok) throw problemError(request, response, text);
    return text;
  }

  // How requests are sent

  /** The `lang` of a call, as a member of its query or body: the call's, else the client's; none without either. */
  #language(call: CallOptions): { lang?: string } {
    const lang = call.lang ?? this.#lang;
    return lang === undefined ? {} : { lang };
  }

  async #json<T>(method: string, path: string, call: CallOptions, body?: unknown): Promise<T> {
    const { response, text, request } = await this.#send(method, path, call, "application/json", body);
    if (!response.ok) throw problemError(request, response, text);
    return parsed<T>(request, text);
  }

  async #conditional<T>(path: string, call: ConditionalCallOptions): Promise<Conditional<T>> {
    const headers = call.ifNoneMatch === undefined ? {} : { "If-None-Match": call.ifNoneMatch };
    const { response, text, request } = await this.#send("GET", path, call, "application/json", undefined, headers);
    const etag = response.headers.get("ETag");
    if (response.status === 304) return { notModified: true, etag };
    if (!response.ok) throw problemError(request, response, text);
    const language = response.headers.get("Content-Language");
    return { notModified: false, value: parsed<T>(request, text), etag, language };
  }

  /**
   * Sends one request and reads its whole answer, within the timeout and until the caller's
   * signal aborts, whichever comes first: the first of them decides the error.
   */
  async #send(
    method: string,
    path: string,
    call: CallOptions,
    accept: string,
    body?: unknown,
    extraHeaders: Record<string, string> = {},
  ): Promise<{ response: Response; text: string; request: FailedRequest }> {
    const request: FailedRequest = { method, url: this.#baseUrl + path };
    const timeoutMs = checkedTimeout(call.timeoutMs ?? this.#timeoutMs);
    const signal = call.signal;
    if (signal?.aborted) throw new AbortError(request, signal.reason);

    const headers = new Headers({ Accept: accept });
    for (const more of [this.#headers, call.headers ?? {}, extraHeaders]) {
      for (const [name, value] of Object.entries(more)) headers.set(name, value);
    }
    if (body !== undefined) headers.set("Content-Type", "application/json");

    const controller = new AbortController();
    let stoppedBy: "timeout" | "caller" | undefined;
    const stop = (by: "timeout" | "caller", reason: unknown): void => {
      stoppedBy ??= by;
      controller.abort(reason);
    };
    const onAbort = (): void => stop("caller", signal?.reason);
    signal?.addEventListener("abort", onAbort, { once: true });
    const timer = Number.isFinite(timeoutMs)
      ? setTimeout(() => stop("timeout", new DOMException(`no answer within ${timeoutMs} ms`, "TimeoutError")), timeoutMs)
      : undefined;
    try {
      const init: RequestInit = { method, headers, signal: controller.signal };
      if (body !== undefined) init.body = JSON.stringify(body);
      const response = await untilAborted(this.#fetch(request.url, init), controller.signal);
      const text = await untilAborted(response.text(), controller.signal);
      return { response, text, request };
    } catch (error) {
      if (stoppedBy === "caller") throw new AbortError(request, signal?.reason);
      if (stoppedBy === "timeout") throw new TimeoutError(request, timeoutMs);
      throw new NetworkError(request, error instanceof Error ? error.message : String(error), error);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    }
  }
}

/**
 * A client of the service at `options.baseUrl` (by default, the page's own origin).
 *
 * @throws {TypeError} at once, before any request, when `baseUrl` cannot work: when it is not a
 * URL, even relative to the page; and, with the global `fetch` where there is no page (in Node),
 * when it is missing, relative, or neither `http:` nor `https:`.
 * @throws {RangeError} when `timeoutMs` is not from 1 to 2,147,483,647, or `Infinity`.
 */
export function createClient(options: ClientOptions = {}): TicTacToeClient {
  return new TicTacToeClient(options);
}

/** Throws a `TypeError` when `options` holds an option of the call, which belongs in `where`. */
function refuseCallOptions(options: object, where: string): void {
  const misplaced = CALL_OPTIONS.find((name) => name in options);
  if (misplaced !== undefined) throw new TypeError(`"${misplaced}" is an option of the call: give it in ${where}`);
}

/**
 * `baseUrl` without its trailing slashes, once it can lead somewhere; otherwise a `TypeError` that
 * says why. Requests go to `baseUrl + path`, which the `fetch` resolves: a browser's against the
 * page, Node's against nothing, so there it must be a whole `http:` or `https:` address. A `fetch`
 * of the caller's own may take relative URLs (a test double, say): then only a `baseUrl` that is
 * no URL at all is refused.
 */
function checkedBaseUrl(baseUrl: string | undefined, ownFetch: boolean): string {
  if (baseUrl === undefined || baseUrl === null || baseUrl === "") {
    if (ownFetch || pageAddress() !== undefined) return "";
    throw new TypeError(
      "createClient: no baseUrl, and no page whose origin to use instead (as in Node): " +
        `give the service's whole address, such as { baseUrl: ${EXAMPLE_BASE_URL} }`,
    );
  }
  if (typeof baseUrl !== "string") {
    throw new TypeError(`createClient: baseUrl must be a string, such as ${EXAMPLE_BASE_URL}, not ${typeof baseUrl}`);
  }
  const page = pageAddress();
  const shown = JSON.stringify(baseUrl);
  if (urlOf(baseUrl, page ?? "http://relative.invalid/") === undefined) {
    throw new TypeError(`createClient: baseUrl ${shown} is not a URL: give the service's address, such as ${EXAMPLE_BASE_URL}`);
  }
  if (page === undefined && !ownFetch) {
    const absolute = urlOf(baseUrl);
    if (absolute === undefined) {
      throw new TypeError(
        `createClient: baseUrl ${shown} is relative, and there is no page to resolve it against (as in Node): ` +
          `give the service's whole address, such as ${EXAMPLE_BASE_URL}`,
      );
    }
    if (absolute.protocol !== "http:" && absolute.protocol !== "https:") {
      throw new TypeError(
        `createClient: baseUrl ${shown} is not an http: or https: address (its scheme is ${JSON.stringify(absolute.protocol)}): ` +
          `give the service's whole address, such as ${EXAMPLE_BASE_URL}`,
      );
    }
  }
  return baseUrl.replace(/\/+$/, "");
}

/** The address of the page the client runs in, against which a browser resolves relative URLs; none in Node. */
function pageAddress(): string | undefined {
  try {
    const href: unknown = (globalThis as { location?: { href?: unknown } }).location?.href;
    return typeof href === "string" && urlOf(href) !== undefined ? href : undefined;
  } catch {
    return undefined; // a runtime whose `location` throws when it has none (Deno without --location)
  }
}

function urlOf(text: string, base?: string): URL | undefined {
  try {
    return new URL(text, base);
  } catch {
    return undefined;
  }
}

/**
 * `?` and the parameters of `query` that have a value (neither undefined nor null), those of
 * `order` first in that order (the same query is the same URL, for HTTP caches), then any other
 * (which the service refuses); or nothing when none has a value.
 */
function queryString(query: object, order: readonly string[]): string {
  const entries = Object.entries(query).filter(([, value]) => value !== undefined && value !== null);
  const rank = (name: string): number => (order.includes(name) ? order.indexOf(name) : order.length);
  entries.sort(([first], [second]) => rank(first) - rank(second));
  const text = new URLSearchParams(entries.map(([name, value]) => [name, String(value)])).toString();
  return text === "" ? "" : `?${text}`;
}

function checkedTimeout(timeoutMs: number): number {
  if (timeoutMs === Infinity || (Number.isFinite(timeoutMs) && timeoutMs > 0 && timeoutMs <= LONGEST_TIMEOUT_MS)) {
    return timeoutMs;
  }
  throw new RangeError(`timeoutMs must be a number of milliseconds from 1 to ${LONGEST_TIMEOUT_MS}, or Infinity`);
}

/** `promise`, or the signal's reason as soon as it aborts, even when what is awaited ignores the signal. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    if (signal.aborted) onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

function parsed<T>(request: FailedRequest, text: string): T {
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw new NetworkError(request, `the answer is not JSON: ${text.slice(0, 100)}`, error);
  }
}

function problemError(request: FailedRequest, response: Response, text: string): ProblemError {
  return new ProblemError(request, response.status, problemOf(response, text));
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
    title: response.statusText || `HTTP ${response.status}`,
    status: response.status,
    detail: text.slice(0, 500),
  };
}

/** The `player` and `variant` of a board, as given: a side alone, or both; those given, as strings. */
function positionOptions(given: Player | PositionOptions | undefined): Record<string, string> {
  const options: PositionOptions = typeof given === "string" ? { player: given } : (given ?? {});
  const found: Record<string, string> = {};
  if (options.variant !== undefined) found.variant = options.variant;
  if (options.player !== undefined) found.player = options.player;
  return found;
}
