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

test("options: a rating, reproducible with a seed, on a best move and on batch items; with a level it is refused", async () => {
  const first = await client.bestMove("X...O....", { rating: 200, seed: 11 });
  assert.deepEqual(await client.bestMove("X...O....", { rating: 200, seed: 11 }), first);
  const perfect = await client.bestMove("XX..O....", { rating: 493, seed: 1 });
  assert.equal(perfect.position, 2);
  assert.equal(perfect.optimal, true);
  const moves = await client.batch([
    { board: "XX..O....", rating: 493, seed: 2 },
    { board: "X...O....", rating: 200, seed: 11 },
  ]);
  assert.deepEqual(moves[0], perfect);
  assert.deepEqual(moves[1], first);
  const error = await rejection(client.bestMove("X........", { rating: 200, level: "easy" }), "problem", ProblemError);
  assert.equal(error.status, 422);
  assert.deepEqual(error.problem.errors?.[0]?.loc, ["body", "rating"]);
  const tooStrong = await rejection(client.batch([{ board: "X........", rating: 494 }]), "problem", ProblemError);
  assert.deepEqual(tooStrong.problem.errors?.[0]?.loc, ["body", "items", 0, "rating"]);
});

test("a review judges every move and each side", async () => {
  const review = await client.review([0, 4, 8, 2, 6, 3, 1]);
  assert.equal(review.board, ".........");
  assert.equal(review.player, "X");
  assert.equal(review.status, "in_progress");
  assert.deepEqual(review.plies.map((ply) => ply.position), [0, 4, 8, 2, 6, 3, 1]);
  assert.deepEqual(review.plies.map((ply) => ply.player), ["X", "O", "X", "O", "X", "O", "X"]);
  // O's corner lets X fork; X's edge then lets O win: blunders, each with the better move.
  assert.equal(review.plies[3].judgement, "blunder");
  assert.equal(review.plies[3].better.position, 1);
  assert.equal(review.plies[6].judgement, "blunder");
  for (const ply of review.plies) {
    assert.equal(ply.judgement === "best", ply.best_moves.includes(ply.position));
    assert.equal(ply.better === null, ply.judgement === "best");
  }
  for (const [mark, side] of Object.entries(review.players)) {
    const own = review.plies.filter((ply) => ply.player === mark);
    assert.equal(side.moves, own.length);
    assert.equal(side.judgements.blunder, 1);
    assert.equal(side.judgements.best, own.filter((ply) => ply.judgement === "best").length);
    assert.equal(side.accuracy, Math.round((1000 * side.judgements.best) / side.moves) / 10);
    assert.ok(side.level !== null && side.level in side.level_likelihoods);
    assert.equal(typeof side.rating, "number");
  }
});

test("a review from a board in rows, with the side to move", async () => {
  const review = await client.review([2], { board: [["X", "X", ""], ["O", "O", ""], ["", "", ""]], player: "X" });
  assert.equal(review.board, "XX.OO....");
  assert.equal(review.status, "x_won");
  assert.equal(review.winner, "X");
  assert.equal(review.plies[0].judgement, "best");
  assert.deepEqual(review.players.O, {
    moves: 0,
    judgements: { best: 0, inaccuracy: 0, mistake: 0, blunder: 0 },
    accuracy: null,
    only_moves: 0,
    level_likelihoods: null,
    level: null,
    rating: null,
  });
});

test("an illegal move of a review is a 422 at its index in moves", async () => {
  const taken = await rejection(client.review([4, 0, 4]), "problem", ProblemError);
  assert.equal(taken.status, 422);
  assert.deepEqual(taken.problem.errors?.[0]?.loc, ["body", "moves", 2]);
  const afterTheEnd = await rejection(client.review([0, 3, 1, 4, 2, 5]), "problem", ProblemError);
  assert.deepEqual(afterTheEnd.problem.errors?.[0]?.loc, ["body", "moves", 5]);
  await assert.rejects(client.review([4], { signal: AbortSignal.abort() }), TypeError);
});

test("reviews in the variants: wild moves with their marks, Notakto's boards, a 4x4 board", async () => {
  const raw = async (body) => {
    const response = await fetch(`${baseUrl}/v1/review`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    assert.equal(response.status, 200);
    return response.json();
  };
  const moves = [{ position: 4, mark: "X" }, { position: 0, mark: "O" }, { position: 8, mark: "X" }];
  const wild = await client.review(moves, { variant: "wild" });
  assert.deepEqual(wild, await raw({ variant: "wild", moves }));
  assert.equal(wild.board, ".........");
  assert.equal(wild.player, "first");
  assert.deepEqual(wild.plies.map((ply) => [ply.player, ply.position, ply.mark]), [
    ["first", 4, "X"],
    ["second", 0, "O"],
    ["first", 8, "X"],
  ]);
  assert.deepEqual(Object.keys(wild.players).sort(), ["first", "second"]);
  assert.equal(wild.players.first.moves, 2);
  // A side's rating is on wild's own scale where its levels are calibrated (rated), else null.
  const wildListed = (await client.variants()).value.variants.find((variant) => variant.id === "wild");
  if (wildListed.rated) assert.ok(Number.isInteger(wild.players.first.rating) && wild.players.first.rating >= 0);
  else assert.equal(wild.players.first.rating, null);
  for (const ply of wild.plies) if (ply.better !== null) assert.ok(ply.better.mark === "X" || ply.better.mark === "O");

  const notakto = await client.review([4, 13, 0, 9], { variant: "notakto-2" });
  assert.deepEqual(notakto, await raw({ variant: "notakto-2", moves: [4, 13, 0, 9] }));
  assert.equal(notakto.board, ".".repeat(18));
  assert.deepEqual(notakto.plies.map((ply) => ply.grid), [0, 1, 0, 1]);
  assert.deepEqual(notakto.plies.map((ply) => ply.player), ["first", "second", "first", "second"]);
  assert.equal(notakto.plies[3].board_after, "X...X....X...X....");

  const four = await client.review([0, 5, 1, 6, 2, 7, 3], { variant: "4x4" });
  assert.deepEqual(four, await raw({ variant: "4x4", moves: [0, 5, 1, 6, 2, 7, 3] }));
  assert.equal(four.status, "x_won");
  assert.equal(four.winner, "X");
  assert.deepEqual(Object.keys(four.players).sort(), ["O", "X"]);
  assert.equal(four.players.X.moves, 4);

  const fromBoard = await client.review([{ position: 8, mark: "O" }], { variant: "wild", board: "X...O....", player: "first" });
  assert.equal(fromBoard.plies[0].judgement, "mistake");
  assert.equal(fromBoard.plies[0].better.mark, "X");
});

test("a move in the wrong form or place for its variant is a 422 at its index", async () => {
  const cellAlone = await rejection(client.review([{ position: 4, mark: "X" }, 0], { variant: "wild" }), "problem", ProblemError);
  assert.deepEqual(cellAlone.problem.errors?.[0]?.loc, ["body", "moves", 1]);
  const dead = await rejection(client.review([0, 1, 2, 3], { variant: "notakto-2" }), "problem", ProblemError);
  assert.deepEqual(dead.problem.errors?.[0]?.loc, ["body", "moves", 3]);
  const off = await rejection(client.review([0, 16], { variant: "4x4" }), "problem", ProblemError);
  assert.deepEqual(off.problem.errors?.[0]?.loc, ["body", "moves", 1]);
});

test("a page of puzzles, in order of rating and then id, cacheable", async () => {
  const first = await client.puzzles({ limit: 5 });
  assert.equal(first.notModified, false);
  const page = first.value;
  assert.equal(page.puzzles.length, 5);
  assert.equal(page.next, page.puzzles[4].id);
  const ordered = [...page.puzzles].sort((a, b) => a.rating - b.rating || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  assert.deepEqual(page.puzzles, ordered);
  // A page is over 1 KiB: it may come gzip-encoded, with a weak tag, which still matches.
  assert.match(first.etag, /^(W\/)?"[^"]+"$/);
  const again = await client.puzzles({ limit: 5 }, { ifNoneMatch: first.etag });
  assert.equal(again.notModified, true);
  assert.equal(again.etag?.replace(/^W\//, ""), first.etag.replace(/^W\//, ""));
  const following = await client.puzzles({ limit: 5, cursor: page.next });
  assert.equal(following.value.total, page.total);
  assert.ok(following.value.puzzles.every((puzzle) => !page.puzzles.some((seen) => seen.id === puzzle.id)));
});

test("paging with the cursor reaches every puzzle once: the union of ids is total", async () => {
  const ids = [];
  let cursor = null;
  let total;
  do {
    const answer = await client.puzzles({ limit: 100, cursor });
    assert.equal(answer.notModified, false);
    total ??= answer.value.total;
    assert.equal(answer.value.total, total);
    ids.push(...answer.value.puzzles.map((puzzle) => puzzle.id));
    cursor = answer.value.next;
  } while (cursor !== null);
  assert.ok(total > 100);
  assert.equal(new Set(ids).size, ids.length);
  assert.equal(ids.length, total);
  // The iterator follows the same cursors.
  const pages = [];
  for await (const page of client.puzzlePages({ limit: 100 })) pages.push(page);
  assert.equal(pages.length, Math.ceil(total / 100));
  assert.deepEqual(pages.flatMap((page) => page.puzzles.map((puzzle) => puzzle.id)), ids);
});

test("filters: every puzzle of every page matches them, and the iterator starts at a cursor", async () => {
  const query = { theme: "fork", outcome: "win", min_rating: 94, max_rating: 382, limit: 7 };
  const puzzles = [];
  let total;
  for await (const page of client.puzzlePages(query)) {
    total ??= page.total;
    puzzles.push(...page.puzzles);
  }
  assert.ok(total > 7);
  assert.equal(puzzles.length, total);
  for (const puzzle of puzzles) {
    assert.ok(puzzle.themes.includes("fork"), puzzle.id);
    assert.equal(puzzle.outcome, "win");
    assert.ok(puzzle.rating >= 94 && puzzle.rating <= 382, puzzle.id);
  }
  const rest = [];
  for await (const page of client.puzzlePages({ ...query, cursor: puzzles[6].id })) rest.push(...page.puzzles);
  assert.deepEqual(rest, puzzles.slice(7));
  const refused = await rejection(client.puzzles({ min_rating: 400, max_rating: 300 }), "problem", ProblemError);
  assert.deepEqual(refused.problem.errors?.[0]?.loc, ["query", "max_rating"]);
  await assert.rejects(client.puzzles({ ifNoneMatch: '"x"' }), TypeError);
});

test("the pages' iterator stops with an AbortError when the caller aborts", async () => {
  const controller = new AbortController();
  const seen = [];
  const iteration = (async () => {
    for await (const page of client.puzzlePages({ limit: 10 }, { signal: controller.signal })) {
      seen.push(page);
      if (seen.length === 2) controller.abort("enough");
    }
  })();
  const error = await rejection(iteration, "aborted", AbortError);
  assert.equal(error.reason, "enough");
  assert.equal(seen.length, 2);
});

test("one puzzle by id: an ETag, then 304 for it, and a 404 problem for an unknown id", async () => {
  const listed = (await client.puzzles({ theme: "block_fork", limit: 1 })).value.puzzles[0];
  const first = await client.puzzle(listed.id);
  assert.equal(first.notModified, false);
  assert.deepEqual(first.value, listed);
  assert.match(first.etag, /^"[^"]+"$/);
  const again = await client.puzzle(listed.id, { ifNoneMatch: first.etag });
  assert.deepEqual(again, { notModified: true, etag: first.etag });
  const other = await client.puzzle(listed.id, { ifNoneMatch: '"not-the-etag"' });
  assert.deepEqual(other, first);
  const missing = await rejection(client.puzzle("XXXXXXXXXX"), "problem", ProblemError);
  assert.equal(missing.status, 404);
  assert.equal(missing.problem.type, "/problems/not-found");
  assert.equal(missing.request.url, `${baseUrl}/v1/puzzles/XXXXXXXXXX`);
});

test("a random puzzle: reproducible and cacheable with a seed, drawn among the matches, a 404 for no match", async () => {
  const query = { seed: 5, theme: "block", min_rating: 181 };
  const first = await client.randomPuzzle(query);
  assert.equal(first.notModified, false);
  assert.ok(first.value.themes.includes("block") && first.value.rating >= 181);
  assert.deepEqual((await client.randomPuzzle(query)).value, first.value);
  assert.deepEqual((await client.puzzle(first.value.id)).value, first.value);
  assert.match(first.etag, /^"[^"]+"$/);
  const again = await client.randomPuzzle(query, { ifNoneMatch: first.etag });
  assert.deepEqual(again, { notModified: true, etag: first.etag });
  const unseeded = await client.randomPuzzle({ theme: "fork" });
  assert.equal(unseeded.etag, null);
  assert.ok(unseeded.value.themes.includes("fork"));
  const none = await rejection(client.randomPuzzle({ min_rating: 494 }), "problem", ProblemError);
  assert.equal(none.status, 404);
  assert.equal(none.problem.type, "/problems/not-found");
});

test("the puzzles of every variant: `variant` names the book, its ids, themes and scale its own", async () => {
  const { variants } = (await client.variants()).value;
  for (const listed of variants) {
    const page = await client.puzzles({ variant: listed.id, limit: 3 });
    assert.equal(page.value.total, listed.puzzles, listed.id);
    for (const puzzle of page.value.puzzles) {
      assert.equal(puzzle.variant, listed.id);
      assert.ok(listed.id === "standard" || puzzle.id.startsWith(`${listed.id}:`), puzzle.id);
      assert.ok(puzzle.themes.every((theme) => listed.tactics.includes(theme)), puzzle.id);
      assert.ok(puzzle.rating >= 0 && puzzle.rating <= (listed.rating_max ?? Infinity), puzzle.id);
      assert.equal(puzzle.board.length, listed.rows * listed.columns * listed.boards);
      assert.deepEqual((await client.puzzle(puzzle.id)).value, puzzle); // found by its id alone
    }
  }
  const wild = await client.randomPuzzle({ variant: "wild", seed: 2 });
  assert.ok(["X", "O"].includes(wild.value.mark) && ["first", "second"].includes(wild.value.player));
  assert.deepEqual((await client.randomPuzzle({ variant: "wild", seed: 2 })).value, wild.value);
  assert.deepEqual(await client.randomPuzzle({ variant: "wild", seed: 2 }, { ifNoneMatch: wild.etag }), {
    notModified: true,
    etag: wild.etag,
  });
  const notakto = (await client.randomPuzzle({ variant: "notakto-3", seed: 2 })).value;
  assert.equal(notakto.grid, Math.floor(notakto.solution / 9));
  const misere = [];
  for await (const page of client.puzzlePages({ variant: "misere", theme: "avoid", limit: 100 })) misere.push(...page.puzzles);
  assert.ok(misere.length > 0 && misere.every((puzzle) => puzzle.themes.includes("avoid") && puzzle.variant === "misere"));
  // A theme of another variant: a 422 naming the variant's own themes.
  const foreign = await rejection(client.randomPuzzle({ variant: "misere", theme: "fork" }), "problem", ProblemError);
  assert.equal(foreign.status, 422);
  assert.deepEqual(foreign.problem.errors[0].loc, ["query", "theme"]);
  const unknown = await rejection(client.puzzles({ variant: "chess" }), "problem", ProblemError);
  assert.equal(unknown.status, 422);
});

test("languages: a move's reason in Spanish, the same move and tactics as in English", async () => {
  const english = await client.bestMove("XX..O....", { level: "medium", seed: 3 });
  const spanish = await client.bestMove("XX..O....", { level: "medium", seed: 3 }, { lang: "es" });
  assert.notEqual(spanish.reason, english.reason);
  assert.deepEqual({ ...spanish, reason: english.reason }, english);
  const raw = await fetch(`${baseUrl}/v1/best-move?board=XX..O....&lang=es`);
  assert.equal(raw.headers.get("Content-Language"), "es");
  const cached = await client.getBestMove("XX..O....", undefined, { lang: "es" });
  assert.equal(cached.language, "es");
  assert.deepEqual(cached.value, await raw.json());
  assert.equal((await client.getBestMove("XX..O....")).language, "en");
});

test("languages: the client's lang goes with every call that answers sentences, a call's over it, as the API takes it", async () => {
  const sent = [];
  const recording = (url, init) => {
    sent.push({ url: url.slice(baseUrl.length), body: init.body === undefined ? null : JSON.parse(init.body) });
    return fetch(url, init);
  };
  const spanish = createClient({ baseUrl, lang: "es", fetch: recording });
  assert.equal(spanish.lang, "es");
  assert.equal(client.lang, undefined);
  const move = await spanish.bestMove("X........", { seed: 1 });
  const french = await spanish.bestMove("X........", { seed: 1 }, { lang: "fr" });
  const batch = await spanish.batch([{ board: "X........" }, { board: "XX.OO....", player: "X" }]);
  const german = await spanish.batch([{ board: "X........" }], { lang: "de" });
  await spanish.getBestMove("X........", { variant: "misere" });
  await spanish.getPosition("XX.OO....", "X");
  await spanish.analyze("XX.OO....", { player: "X" }, { lang: "pt" });
  await spanish.review([0, 4]);
  await spanish.variants();
  const page = await spanish.puzzles({ theme: "fork", limit: 2 });
  for await (const each of spanish.puzzlePages({ limit: 100, theme: "fork" }, { lang: "fr" })) assert.ok(each.puzzles.length);
  await spanish.puzzle(page.value.puzzles[0].id);
  await spanish.randomPuzzle({ seed: 3 });
  await spanish.languages();
  await spanish.health();
  const id = page.value.puzzles[0].id;
  assert.deepEqual(sent.slice(0, 14), [
    { url: "/v1/best-move", body: { seed: 1, board: "X........", lang: "es" } },
    { url: "/v1/best-move", body: { seed: 1, board: "X........", lang: "fr" } },
    { url: "/v1/best-move/batch", body: { items: [{ board: "X........" }, { board: "XX.OO....", player: "X" }], lang: "es" } },
    { url: "/v1/best-move/batch", body: { items: [{ board: "X........" }], lang: "de" } },
    { url: "/v1/best-move?board=X........&variant=misere&lang=es", body: null },
    { url: "/v1/positions/XX.OO....?player=X&lang=es", body: null },
    { url: "/v1/analysis", body: { board: "XX.OO....", player: "X", lang: "pt" } },
    { url: "/v1/review", body: { moves: [0, 4], lang: "es" } },
    { url: "/v1/variants?lang=es", body: null },
    { url: "/v1/puzzles?theme=fork&limit=2&lang=es", body: null },
    { url: "/v1/puzzles?theme=fork&limit=100&lang=fr", body: null },
    { url: `/v1/puzzles/${encodeURIComponent(id)}?lang=es`, body: null },
    { url: "/v1/puzzles/random?seed=3&lang=es", body: null },
    { url: "/v1/languages", body: null },
  ]);
  assert.deepEqual(sent.slice(14), [{ url: "/health", body: null }]);
  assert.match(move.reason, /^Ocupa el centro/);
  assert.match(french.reason, /^Prend le centre/);
  assert.equal(batch.length, 2);
  assert.equal(batch[0].reason, move.reason);
  assert.notEqual(german[0].reason, move.reason);
  assert.equal(german[0].position, move.position);
});

test("languages(): the five tags, English first and the default; a malformed lang is a 422 ProblemError", async () => {
  const listed = await client.languages();
  assert.equal(listed.notModified, false);
  assert.deepEqual(listed.value.languages.map((language) => language.tag), ["en", "es", "fr", "de", "pt"]);
  assert.equal(listed.value.default, "en");
  assert.equal((await client.languages({ ifNoneMatch: listed.etag })).notModified, true);
  const malformed = await rejection(client.bestMove("X........", {}, { lang: "not a tag!" }), "problem", ProblemError);
  assert.equal(malformed.status, 422);
  assert.deepEqual(malformed.problem.errors?.[0]?.loc, ["body", "lang"]);
  const ofTheClient = createClient({ baseUrl, lang: "not a tag!" });
  const query = await rejection(ofTheClient.getPosition("X........"), "problem", ProblemError);
  assert.deepEqual(query.problem.errors?.[0]?.loc, ["query", "lang"]);
  const batch = await rejection(ofTheClient.batch([{ board: "X........" }]), "problem", ProblemError);
  assert.deepEqual(batch.problem.errors?.[0]?.loc, ["body", "lang"]);
  // An offered language with a region gets that language; one not offered gets English.
  assert.equal((await client.getPosition("X........", undefined, { lang: "pt-BR" })).language, "pt");
  assert.equal((await client.getPosition("X........", undefined, { lang: "ja" })).language, "en");
  await assert.rejects(client.bestMove("X........", { lang: "es" }), TypeError);
  await assert.rejects(client.puzzles({ lang: "es" }), TypeError);
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

test("a baseUrl that cannot work is a TypeError of createClient, before anything is sent", async () => {
  // Node has no page to resolve a relative URL against: the base URL must be a whole http(s) address.
  const refused = {
    "no baseUrl, and no page whose origin to use instead": [undefined, {}, { baseUrl: "" }],
    'baseUrl "/api" is relative, and there is no page to resolve it against': [{ baseUrl: "/api" }],
    'baseUrl "localhost:8000" is not an http: or https: address': [{ baseUrl: "localhost:8000" }],
    'baseUrl "http://[::1" is not a URL': [{ baseUrl: "http://[::1" }],
  };
  for (const [reason, optionsOfEach] of Object.entries(refused)) {
    for (const options of optionsOfEach) {
      assert.throws(
        () => createClient(options),
        (error) => error instanceof TypeError && !isClientError(error) && error.message.startsWith(`createClient: ${reason}`),
      );
    }
  }
  // The trailing slash goes; a fetch of the caller's own may take relative URLs (a test double).
  assert.equal((await createClient({ baseUrl: `${baseUrl}/` }).health()).status, "ok");
  const asked = [];
  const double = async (url) => {
    asked.push(url);
    return new Response('{"status": "ok"}');
  };
  await createClient({ fetch: double }).health();
  await createClient({ baseUrl: "/api/", fetch: double }).health();
  assert.deepEqual(asked, ["/health", "/api/health"]);
  assert.throws(() => createClient({ baseUrl: "http://[::1", fetch: double }), TypeError);
});
