// The built package (dist/esm, imported by its own name) against a live service at TICTACTOE_URL.
import assert from "node:assert/strict";
import { createServer } from "node:net";
import { after, before, test } from "node:test";

import {
  AbortError,
  createClient,
  isClientError,
  NetworkError,
  ProblemError,
  TicTacToeError,
  TimeoutError,
} from "tictactoe-client";

const baseUrl = process.env.TICTACTOE_URL;
if (!baseUrl) throw new Error("set TICTACTOE_URL to a running service, such as http://127.0.0.1:8000");
const client = createClient({ baseUrl, timeoutMs: 5000, headers: { "X-Request-ID": "ts-client-test" } });

// A server on 127.0.0.1 that takes connections and never answers, and an address nobody listens at.
const silentSockets = new Set();
const silentServer = createServer((socket) => silentSockets.add(socket));
let silentUrl = "";
let refusedUrl = "";
before(async () => {
  await new Promise((resolve) => silentServer.listen(0, "127.0.0.1", resolve));
  silentUrl = `http://127.0.0.1:${silentServer.address().port}`;
  const closed = createServer();
  await new Promise((resolve) => closed.listen(0, "127.0.0.1", resolve));
  refusedUrl = `http://127.0.0.1:${closed.address().port}`;
  await new Promise((resolve) => closed.close(resolve));
});
after(() => {
  for (const socket of silentSockets) socket.destroy(); // fetch may keep a spare connection open
  silentServer.close();
});

/** Checks that `call` rejects with an error of `kind`, an instance of `type`, and returns the error. */
async function rejection(call, kind, type) {
  const error = await call.then(
    () => assert.fail("the call succeeded"),
    (caught) => caught,
  );
  assert.ok(error instanceof type, `${error}`);
  assert.ok(error instanceof TicTacToeError && isClientError(error));
  assert.equal(error.kind, kind);
  return error;
}

test("the best move, with the board in each of its three forms", async () => {
  const asString = await client.bestMove("X........");
  assert.equal(asString.position, 4);
  assert.equal(asString.outcome, "draw");
  const asCells = await client.bestMove(["X", null, "O", null, null, null, "X", null, null], { player: "O" });
  assert.equal(asCells.position, 3);
  assert.equal(asCells.board, "X.O...X..");
  const asRows = await client.bestMove([["", "", ""], ["", "", ""], ["", "", ""]], { player: "O" });
  assert.equal(asRows.player, "O");
});

test("options: a weaker, reproducible engine", async () => {
  const first = await client.bestMove("XX.OO....", { skill: 0.25, seed: 7 });
  const again = await client.bestMove("XX.OO....", { skill: 0.25, seed: 7 });
  assert.deepEqual(again, first);
});

test("options: a difficulty level blocks at medium, and a level with skill is refused", async () => {
  const medium = await client.bestMove("XX..O....", { level: "medium", seed: 3 });
  assert.equal(medium.position, 2);
  assert.equal(medium.tactics[0], "block");
  const error = await rejection(client.bestMove("XX..O....", { level: "easy", skill: 0.5 }), "problem", ProblemError);
  assert.equal(error.status, 422);
  assert.deepEqual(error.problem.errors?.[0]?.loc, ["body", "skill"]);
});

test("the cacheable best move: an ETag, then 304 for it", async () => {
  const first = await client.getBestMove("X.O...X..", "O");
  assert.equal(first.notModified, false);
  assert.equal(first.value.position, 3);
  assert.match(first.etag, /^"[^"]+"$/);
  const again = await client.getBestMove("X.O...X..", "O", { ifNoneMatch: first.etag });
  assert.deepEqual(again, { notModified: true, etag: first.etag });
});

test("a position by path: an ETag, then 304 for it, and a 404 problem for a board with a slash", async () => {
  const first = await client.getPosition("XX.OO....");
  assert.equal(first.notModified, false);
  assert.deepEqual(first.value.best_moves, [2]);
  const again = await client.getPosition("XX.OO....", undefined, { ifNoneMatch: first.etag });
  assert.equal(again.notModified, true);
  const missing = await rejection(client.getPosition("X..../...."), "problem", ProblemError);
  assert.equal(missing.status, 404);
});

test("analysis of a finished board", async () => {
  const analysis = await client.analyze("XXXOO.O..");
  assert.equal(analysis.status, "x_won");
  assert.deepEqual(analysis.winning_lines, [[0, 1, 2]]);
  assert.equal(analysis.player, null);
});

test("a batch, answered in order", async () => {
  const moves = await client.batch([{ board: "X........" }, { board: "XX.OO....", player: "X" }]);
  assert.deepEqual(moves.map((move) => move.position), [4, 2]);
});

test("health and metrics", async () => {
  const health = await client.health();
  assert.equal(health.status, "ok");
  assert.equal(health.positions, 8533);
  assert.match(await client.metrics(), /^tictactoe_http_requests_total\{/m);
});

test("an error answer is a ProblemError with the problem details", async () => {
  const error = await rejection(client.bestMove("XXXOO...."), "problem", ProblemError);
  assert.equal(error.status, 422);
  assert.equal(error.problem.type, "/problems/game-over");
  assert.equal(error.problem.game_status, "x_won");
});

test("a server that never answers: a TimeoutError, by the call's timeout or the client's", async () => {
  const perCall = await rejection(createClient({ baseUrl: silentUrl }).health({ timeoutMs: 100 }), "timeout", TimeoutError);
  assert.equal(perCall.timeoutMs, 100);
  const perClient = await rejection(createClient({ baseUrl: silentUrl, timeoutMs: 150 }).health(), "timeout", TimeoutError);
  assert.equal(perClient.timeoutMs, 150);
});

test("a fetch that ignores its signal still times out", async () => {
  const deaf = () => new Promise(() => {});
  await rejection(createClient({ baseUrl, timeoutMs: 50, fetch: deaf }).health(), "timeout", TimeoutError);
});

test("the caller's signal: an AbortError with its reason, before or during the request", async () => {
  const controller = new AbortController();
  setTimeout(() => controller.abort("the player left"), 50);
  const silent = createClient({ baseUrl: silentUrl, timeoutMs: 60_000 });
  const during = await rejection(silent.health({ signal: controller.signal }), "aborted", AbortError);
  assert.equal(during.reason, "the player left");
  const before = await rejection(client.health({ signal: AbortSignal.abort("gone") }), "aborted", AbortError);
  assert.equal(before.reason, "gone");
});

test("a refused connection is a NetworkError with its cause", async () => {
  const error = await rejection(createClient({ baseUrl: refusedUrl }).health(), "network", NetworkError);
  assert.ok(error.cause instanceof Error);
});

test("a call option among the options of a move is refused before anything is sent", async () => {
  await assert.rejects(client.bestMove("X........", { signal: AbortSignal.abort() }), TypeError);
});
