// What a TypeScript front end writes with openapi-typescript's types and openapi-fetch, both with
// their default options: every operation, the three board forms, paging with a cursor, 422 and 404
// problems and 304s.
// Compiled with tsc --strict and run with Node by tests/e2e/test_generated_clients.py.
import createClient from "openapi-fetch";

import type { components, paths } from "./generated/api.js";

type Board = components["schemas"]["Board"];
declare const process: { argv: string[] }; // Node's, without its type package

function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(`failed: ${what}`);
}

async function main(baseUrl: string): Promise<void> {
  const client = createClient<paths>({ baseUrl });
  const cellsFromState: string[] = ["X", "", "", "", "", "", "", "", ""];
  const boards: Board[] = ["X........", cellsFromState, [["X", null, null], [null, null, null], [null, null, null]]];
  for (const board of boards) {
    const { data } = await client.POST("/v1/best-move", { body: { board } });
    check(data?.position === 4, `best move on ${JSON.stringify(board)}`);
  }
  const minimal = await client.POST("/v1/best-move", { body: { board: "X........" } });
  check(minimal.data?.outcome === "draw", "the minimal body");

  const batch = await client.POST("/v1/best-move/batch", {
    body: { items: [{ board: "X........" }, { board: "XX.OO....", skill: 1, seed: 3 }] },
  });
  check(batch.data?.results.map((move) => move.position).join() === "4,2", "batch");

  const cached = await client.GET("/v1/best-move", { params: { query: { board: "X........" } } });
  const etag = cached.response.headers.get("etag");
  check(cached.data?.position === 4 && etag !== null, "cacheable GET");
  const again = await client.GET("/v1/best-move", {
    params: { query: { board: "X........" }, header: { "if-none-match": etag ?? "" } },
  });
  check(again.response.status === 304, "304 Not Modified");

  const position = await client.GET("/v1/positions/{board}", { params: { path: { board: "XX.OO...." } } });
  check(position.data?.best_moves.join() === "2", "analysis by path");
  const finished = await client.POST("/v1/analysis", { body: { board: "XXXOO.O.." } });
  check(finished.data?.winner === "X", "analysis of a finished board");

  const health = await client.GET("/health");
  check(health.data?.positions === 8533, "health");
  const metrics = await client.GET("/metrics", { parseAs: "text" });
  check((metrics.data ?? "").includes("tictactoe_http_requests_total"), "metrics");

  const refused = await client.POST("/v1/best-move", { body: { board: "XXXOO...." } });
  check(refused.response.status === 422 && refused.error?.type === "/problems/game-over", "422 problem");

  const rated = await client.POST("/v1/best-move", { body: { board: "XX..O....", rating: 493, seed: 1 } });
  check(rated.data?.position === 2, "a rating");
  const review = await client.POST("/v1/review", { body: { moves: [0, 4, 8, 2, 6, 3, 1] } });
  check(review.data?.plies[3]?.judgement === "blunder" && "X" in review.data.players && review.data.players.X.moves === 4, "review");
  const illegal = await client.POST("/v1/review", { body: { moves: [4, 0, 4] } });
  const where = illegal.error?.errors?.[0]?.loc.join();
  check(illegal.response.status === 422 && where === "body,moves,2", "an illegal move, at its index");

  const pageAt = (cursor: string | null) => client.GET("/v1/puzzles", { params: { query: { limit: 100, cursor } } });
  const ids = new Set<string>();
  let cursor: string | null = null;
  let total = -1;
  do {
    const page = await pageAt(cursor);
    for (const puzzle of page.data?.puzzles ?? []) ids.add(puzzle.id);
    total = page.data?.total ?? -1;
    cursor = page.data?.next ?? null;
  } while (cursor !== null);
  check(total > 100 && ids.size === total, "every puzzle once, by the cursor");
  const [first] = ids;
  const puzzle = await client.GET("/v1/puzzles/{puzzle_id}", { params: { path: { puzzle_id: first ?? "" } } });
  const puzzleEtag = puzzle.response.headers.get("etag");
  check(puzzle.data?.id === first && puzzleEtag !== null, "one puzzle");
  const puzzleAgain = await client.GET("/v1/puzzles/{puzzle_id}", {
    params: { path: { puzzle_id: first ?? "" }, header: { "if-none-match": puzzleEtag ?? "" } },
  });
  check(puzzleAgain.response.status === 304, "304 for a puzzle");
  const unknownPuzzle = await client.GET("/v1/puzzles/{puzzle_id}", {
    params: { path: { puzzle_id: "XXXXXXXXXX" } },
  });
  check(unknownPuzzle.response.status === 404 && unknownPuzzle.error?.type === "/problems/not-found", "404 problem");
  const random = await client.GET("/v1/puzzles/random", { params: { query: { seed: 5, theme: "block" } } });
  check(random.data?.themes.includes("block") === true, "a random puzzle");
  console.log("ok");
}

await main(process.argv[2] ?? "http://127.0.0.1:8000");
