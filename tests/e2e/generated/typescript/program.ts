// What a TypeScript front end writes with openapi-typescript's types and openapi-fetch, both with
// their default options: every operation, the three board forms, paging with a cursor, 422 and 404
// problems and 304s, and the variants: a 4x4 best move in the three forms, Notakto on two boards, a
// review of wild with marked moves, an analysis of each status. openapi-typescript makes no
// constants by default: a variant is its string ("4x4"), checked against the Variant union.
// Compiled with tsc --strict and run with Node by tests/e2e/test_generated_clients.py.
import createClient, { type Client } from "openapi-fetch";

import type { components, paths } from "./generated/api.js";

type Board = components["schemas"]["Board"];
type MarkedMove = components["schemas"]["MarkedMove"];
type Status = components["schemas"]["Status"];
type Variant = components["schemas"]["Variant"];
declare const process: { argv: string[] }; // Node's, without its type package

function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(`failed: ${what}`);
}

// A board of each status, in a variant that has it: a status the union lacks, or one it has and
// this lacks, fails to compile.
const STATUSES: Record<Status, { variant: Variant; board: string }> = {
  in_progress: { variant: "standard", board: "........." },
  x_won: { variant: "standard", board: "XXXOO...." },
  o_won: { variant: "standard", board: "OOOXX.X.." },
  draw: { variant: "standard", board: "XOXXOOOXX" },
  first_won: { variant: "wild", board: "XXX......" },
  second_won: { variant: "notakto", board: "XXX......" },
};

async function variants(client: Client<paths>): Promise<void> {
  const boards: Board[] = [
    "X...............",
    ["X", ...Array<null>(15).fill(null)],
    [["X", "", "", ""], ["", "", "", ""], ["", "", "", ""], ["", "", "", ""]],
  ];
  for (const board of boards) {
    const { data } = await client.POST("/v1/best-move", { body: { variant: "4x4", board } });
    check(
      data?.position === 1 && data.player === "O" && data.board === "X..............." && data.status_after === "in_progress",
      `4x4 best move on ${JSON.stringify(board)}`,
    );
  }
  const cached = await client.GET("/v1/best-move", { params: { query: { variant: "4x4", board: "X..............." } } });
  check(cached.data?.board_after === "XO..............", "4x4 by GET");

  const twoBoards = await client.POST("/v1/best-move", { body: { variant: "notakto-2", board: "X........X........" } });
  check(twoBoards.data?.position === 8 && twoBoards.data.grid === 0 && twoBoards.data.player === "first", "notakto-2 best move");
  const notakto = await client.GET("/v1/positions/{board}", {
    params: { path: { board: "X........X........" }, query: { variant: "notakto-2" } },
  });
  check(notakto.data?.best_moves.join() === "8,17" && notakto.data.score === 1, "notakto-2 analysis");

  const moves: MarkedMove[] = [
    { position: 4, mark: "X" },
    { position: 0, mark: "O" },
    { position: 8, mark: "O" },
  ];
  const review = await client.POST("/v1/review", { body: { variant: "wild", moves } });
  const players = review.data?.players;
  check(review.data?.status === "in_progress" && review.data.winner === null && review.data.player === "first", "wild review");
  check(players !== undefined && "first" in players && players.first.moves === 2 && players.second.moves === 1, "wild's sides");
  check(review.data?.plies[1]?.judgement === "inaccuracy" && review.data.plies[2]?.mark === "O", "wild review: the plies");
  const finished = [...moves, { position: 1, mark: "X" }, { position: 7, mark: "X" }];
  const won = await client.POST("/v1/review", { body: { variant: "wild", moves: finished } });
  check(won.data?.status === "first_won" && won.data.winner === "first", "a won game of wild");

  for (const [status, body] of Object.entries(STATUSES)) {
    const { data } = await client.POST("/v1/analysis", { body });
    check(data?.status === status, `analysis: ${status}`);
  }
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

  await variants(client);

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
