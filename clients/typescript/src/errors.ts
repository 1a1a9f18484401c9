// What a call can fail with: one class per cause, each with a `kind` that names it.
import type { Problem } from "./types.js";

/** The `kind` of each error a call can end with. */
export type ErrorKind = "problem" | "network" | "timeout" | "aborted";

/** The request a call made, for messages and logs. */
export interface FailedRequest {
  readonly method: string;
  readonly url: string;
}

/** The base class of every error a call of the client ends with; `kind` says which one it is. */
export abstract class TicTacToeError extends Error {
  abstract readonly kind: ErrorKind;
  /** The request that failed: method and URL. */
  readonly request: FailedRequest;

  protected constructor(message: string, request: FailedRequest, options?: { cause?: unknown }) {
    super(`${request.method} ${request.url}: ${message}`, options);
    this.request = request;
  }
}

/** The service answered with an error status: `status`, and the RFC 9457 `problem` it sent. */
export class ProblemError extends TicTacToeError {
  readonly kind = "problem";
  /** The HTTP status: 422 for invalid input, 404, 413, 503, ... */
  readonly status: number;
  /**
   * The problem details: `type`, `title`, `status`, `detail`, and for input errors `errors`
   * (where and what). An answer that is not problem+json (a proxy's page) is described here
   * with type `about:blank`, its status text as title, and the start of its body as detail.
   */
  readonly problem: Problem;

  constructor(request: FailedRequest, status: number, problem: Problem) {
    super(`${status} ${problem.title}: ${problem.detail}`, request);
    this.name = "ProblemError";
    this.status = status;
    this.problem = problem;
  }
}

/**
 * No usable answer came back: the connection failed (refused, reset, a DNS or TLS error, a CORS
 * refusal in a browser), or a success answer was not JSON. `cause` holds the underlying error.
 */
export class NetworkError extends TicTacToeError {
  readonly kind = "network";

  constructor(request: FailedRequest, message: string, cause: unknown) {
    super(message, request, { cause });
    this.name = "NetworkError";
  }
}

/** No complete answer came within `timeoutMs` milliseconds; the request was aborted. */
export class TimeoutError extends TicTacToeError {
  readonly kind = "timeout";
  /** How long the call waited, in milliseconds. */
  readonly timeoutMs: number;

  constructor(request: FailedRequest, timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`, request);
    this.name = "TimeoutError";
    this.timeoutMs = timeoutMs;
  }
}

/** The caller aborted the call with its `signal`; `reason` is the signal's reason. */
export class AbortError extends TicTacToeError {
  readonly kind = "aborted";
  /** The reason given to `AbortController.abort()` (a DOMException named "AbortError" by default). */
  readonly reason: unknown;

  constructor(request: FailedRequest, reason: unknown) {
    super(`aborted by the caller${reasonText(reason)}`, request);
    this.name = "AbortError";
    this.reason = reason;
  }
}

/** Every error a call of the client ends with, told apart by `kind` (or by `instanceof`). */
export type ClientError = ProblemError | NetworkError | TimeoutError | AbortError;

/**
 * Whether `error` is one of the client's errors. Unlike `instanceof`, this also holds when a
 * program loads the package twice (its ES module and its CommonJS build are two copies of each class).
 */
export function isClientError(error: unknown): error is ClientError {
  if (typeof error !== "object" || error === null || !("kind" in error) || !("request" in error)) return false;
  const kind = (error as { kind: unknown }).kind;
  return kind === "problem" || kind === "network" || kind === "timeout" || kind === "aborted";
}

function reasonText(reason: unknown): string {
  if (reason instanceof Error) return `: ${reason.message}`;
  return typeof reason === "string" ? `: ${reason}` : "";
}
