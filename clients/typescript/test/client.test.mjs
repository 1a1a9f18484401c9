// The built client (dist/) against a live service: TICTACTOE_URL names it.
import assert from "node:assert/strict";
import { test } from "node:test";

import { createClient, ProblemError } from "../dist/index.js";

const baseUrl = process.env.TICTACTOE_URL;
if (!baseUrl) throw new Error("set TICTACTOE_URL to a running service, such as http://127.0.0.1:8000");
const client = createClient({ baseUrl, timeoutMs: 5000, headers: { "X-Request-ID": "ts-client-test" } });

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
  await assert.rejects(client.bestMove("XX..O....", { level: "easy", skill: 0.5 }), (error) => {
    assert.ok(error instanceof ProblemError);
    assert.equal(error.status, 422);
    assert.deepEqual(error.problem.errors?.[0]?.loc, ["body", "skill"]);
    return true;
  });
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

test("health", async () => {
  const health = await client.health();
  assert.equal(health.status, "ok");
  assert.equal(health.positions, 8533);
});

test("an error is a ProblemError with the problem details", async () => {
  await assert.rejects(client.bestMove("XXXOO...."), (error) => {
    assert.ok(error instanceof ProblemError);
    assert.equal(error.status, 422);
    assert.equal(error.problem.type, "/problems/game-over");
    assert.equal(error.problem.game_status, "x_won");
    return true;
  });
});

test("a timeout stops waiting", async () => {
  // A fetch that would answer only after 2 s, unless its signal aborts first.
  const slow = (url, init) =>
    new Promise((resolve, reject) => {
      const late = setTimeout(() => resolve(new Response("{}")), 2000);
      init.signal.addEventListener("abort", () => {
        clearTimeout(late);
        reject(init.signal.reason);
      });
    });
  const stuck = createClient({ baseUrl, timeoutMs: 50, fetch: slow });
  await assert.rejects(stuck.health(), (error) => error.name === "TimeoutError");
});
