// The built package's CommonJS side (dist/cjs, required by its own name) against a live service at
// TICTACTOE_URL, and what loading both sides in one program means for errors.
const assert = require("node:assert/strict");
const { test } = require("node:test");

const { createClient, isClientError, ProblemError } = require("tictactoe-client");

const baseUrl = process.env.TICTACTOE_URL;
if (!baseUrl) throw new Error("set TICTACTOE_URL to a running service, such as http://127.0.0.1:8000");
const client = createClient({ baseUrl });

test("require() gives a working client", async () => {
  const move = await client.bestMove("X........");
  assert.equal(move.position, 4);
  const cached = await client.getBestMove("X........");
  assert.equal((await client.getBestMove("X........", undefined, { ifNoneMatch: cached.etag })).notModified, true);
  await assert.rejects(client.bestMove("XXXOO...."), (error) => error instanceof ProblemError && error.status === 422);
  const review = await client.review([4, 1, 0], { board: "........." });
  assert.deepEqual(review.plies.map((ply) => ply.judgement), ["best", "blunder", "best"]);
  const [first] = (await client.puzzles({ limit: 1 })).value.puzzles;
  assert.deepEqual((await client.puzzle(first.id)).value, first);
  await assert.rejects(client.puzzle("nothing"), (error) => error instanceof ProblemError && error.status === 404);
});

test("the ES module is another copy: instanceof differs across them, kind and isClientError do not", async () => {
  const esm = await import("tictactoe-client");
  assert.notEqual(esm.ProblemError, ProblemError);
  const error = await esm.createClient({ baseUrl }).bestMove("XXXOO....").catch((caught) => caught);
  assert.ok(error instanceof esm.ProblemError);
  assert.ok(!(error instanceof ProblemError));
  assert.ok(isClientError(error) && error.kind === "problem");
});
