// A program of a project that installed the package: every operation of the client, the 304
// path, and each of its four errors. `npm run typecheck` checks it against dist/ (the package
// imports itself by name). tests/e2e/test_typescript_client.py installs the packed package in a
// fresh project, compiles this file there with tsc --strict twice, as program.mts (an ES module)
// and as program.cts (CommonJS, which require()s the package), and runs both against a live
// server: `node program.mjs SERVICE SILENT REFUSED` prints what it saw as JSON, which the test checks.
// SILENT is an address that accepts connections and never answers; nothing listens at REFUSED.
import {
  AbortError,
  type Board,
  type ClientError,
  createClient,
  isClientError,
  type MoveOptions,
  NetworkError,
  ProblemError,
  TicTacToeError,
  TimeoutError,
} from "tictactoe-client";

declare const process: { argv: string[]; exitCode?: number }; // Node's, without its type package

/** The error a call ends with (and an error of its own if it succeeds). */
async function failure(call: Promise<unknown>): Promise<ClientError> {
  try {
    await call;
  } catch (error) {
    if (isClientError(error)) return error;
    throw error;
  }
  throw new Error("the call succeeded");
}

function described(error: ClientError): Record<string, unknown> {
  const seen = { kind: error.kind, name: error.name, base: error instanceof TicTacToeError, url: error.request.url };
  switch (error.kind) {
    case "problem":
      return {
        ...seen,
        instance: error instanceof ProblemError,
        status: error.status,
        type: error.problem.type,
        game_status: error.problem.game_status ?? null,
      };
    case "network":
      return { ...seen, instance: error instanceof NetworkError, cause: error.cause instanceof Error };
    case "timeout":
      return { ...seen, instance: error instanceof TimeoutError, timeoutMs: error.timeoutMs };
    case "aborted":
      return { ...seen, instance: error instanceof AbortError, reason: String(error.reason) };
  }
}

async function main(baseUrl: string, silentUrl: string, refusedUrl: string): Promise<void> {
  const client = createClient({ baseUrl, headers: { "X-Request-ID": "ts-consumer" } });
  const cellsFromState: string[] = ["X", "", "", "", "", "", "", "", ""];
  const forms: Board[] = ["X........", cellsFromState, [["X", null, null], [null, null, null], [null, null, null]]];
  const positions: number[] = [];
  for (const board of forms) positions.push((await client.bestMove(board)).position);
  const medium = await client.bestMove("XX..O....", { level: "medium", seed: 3 });
  const batch = await client.batch([{ board: "X........" }, { board: "XX.OO....", player: "X" }]);

  const cached = await client.getBestMove("X.O...X..", "O");
  if (cached.notModified) throw new Error("a first GET cannot be 304");
  const cachedAgain = await client.getBestMove("X.O...X..", "O", { ifNoneMatch: cached.etag ?? "" });
  const position = await client.getPosition("XX.OO....");
  if (position.notModified) throw new Error("a first GET cannot be 304");
  const positionAgain = await client.getPosition("XX.OO....", undefined, { ifNoneMatch: position.etag ?? "" });
  const otherEtag = await client.getPosition("XX.OO....", undefined, { ifNoneMatch: '"not-the-etag"' });
  const finished = await client.analyze([["X", "X", "X"], ["O", "O", ""], ["O", "", ""]]);
  const health = await client.health();
  const metrics = await client.metrics();

  const silent = createClient({ baseUrl: silentUrl, timeoutMs: 60_000 });
  const controller = new AbortController();
  setTimeout(() => controller.abort("the player left"), 100);
  const misplaced = { signal: controller.signal } as unknown as MoveOptions;
  const report = {
    bestMove: { positions, medium: { position: medium.position, tactics: medium.tactics, reason: medium.reason } },
    batch: batch.map((move) => move.position),
    getBestMove: {
      position: cached.value.position,
      board: cached.value.board,
      etag: cached.etag,
      again: { notModified: cachedAgain.notModified, etag: cachedAgain.etag },
    },
    getPosition: {
      best_moves: position.value.best_moves,
      player: position.value.player,
      etag: position.etag,
      again: { notModified: positionAgain.notModified },
      otherEtag: { notModified: otherEtag.notModified, etag: otherEtag.etag },
    },
    analyze: { status: finished.status, winner: finished.winner, winning_lines: finished.winning_lines },
    health: { status: health.status, positions: health.positions },
    metrics: metrics.includes("tictactoe_http_requests_total"),
    errors: {
      problem: described(await failure(client.bestMove("XXXOO...."))),
      notFound: described(await failure(client.getPosition("X..../...."))),
      timeout: described(await failure(silent.health({ timeoutMs: 300 }))),
      clientTimeout: described(await failure(createClient({ baseUrl: silentUrl, timeoutMs: 200 }).bestMove("X........"))),
      aborted: described(await failure(silent.getBestMove("X........", undefined, { signal: controller.signal }))),
      abortedBefore: described(await failure(client.health({ signal: AbortSignal.abort("never sent") }))),
      network: described(await failure(createClient({ baseUrl: refusedUrl }).health())),
    },
    misplacedSignal: await client.bestMove("X........", misplaced).then(
      () => "sent",
      (error: unknown) => (error instanceof TypeError ? error.message : String(error)),
    ),
  };
  console.log(JSON.stringify(report));
}

const [service, silent, refused] = process.argv.slice(2);
if (service === undefined || silent === undefined || refused === undefined) {
  throw new Error("usage: node program.mjs SERVICE SILENT REFUSED (three base URLs)");
}
main(service, silent, refused).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
