// What a TypeScript front end writes with the SDK @hey-api/openapi-ts generates with its default
// options (its fetch client included): every operation, the three board forms, paging with a
// cursor, 422 and 404 problems and 304s, and the variants: a 4x4 best move in the three forms,
// Notakto on two boards, a review of wild with marked moves, an analysis of each status. With its
// defaults it makes no constants: a variant is its string ("4x4"), checked against the Variant
// union. Compiled with tsc --strict and run with Node by tests/e2e/test_generated_clients.py.
import { client } from "./generated/client.gen.js";
import {
  type Board,
  type BoardCells,
  type BoardCells4X4,
  type BoardRows4X4,
  getBestMove,
  getHealth,
  getMetrics,
  getPosition,
  getPuzzle,
  getRandomPuzzle,
  listPuzzles,
  type MarkedMove,
  type Problem,
  postAnalysis,
  postBestMove,
  postBestMoveBatch,
  postReview,
  type Status,
  type Variant,
} from "./generated/index.js";

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

async function variants(): Promise<void> {
  // A 4×4 board's cells and rows are tuples of 16 and of 4 × 4, as a 3×3 board's are of 9 and 3 × 3.
  const cells: BoardCells4X4 = ["X", null, null, null, null, null, null, null, null, null, null, null, null, null, null, null];
  const rows: BoardRows4X4 = [["X", "", "", ""], ["", "", "", ""], ["", "", "", ""], ["", "", "", ""]];
  for (const board of ["X...............", cells, rows] satisfies Board[]) {
    const { data } = await postBestMove({ body: { variant: "4x4", board } });
    check(
      data?.position === 1 && data.player === "O" && data.board === "X..............." && data.status_after === "in_progress",
      `4x4 best move on ${JSON.stringify(board)}`,
    );
  }
  const cached = await getBestMove({ query: { variant: "4x4", board: "X..............." } });
  check(cached.data?.board_after === "XO..............", "4x4 by GET");

  const twoBoards = await postBestMove({ body: { variant: "notakto-2", board: "X........X........" } });
  check(twoBoards.data?.position === 8 && twoBoards.data.grid === 0 && twoBoards.data.player === "first", "notakto-2 best move");
  const notakto = await getPosition({ path: { board: "X........X........" }, query: { variant: "notakto-2" } });
  check(notakto.data?.best_moves.join() === "8,17" && notakto.data.score === 1, "notakto-2 analysis");

  const moves: MarkedMove[] = [
    { position: 4, mark: "X" },
    { position: 0, mark: "O" },
    { position: 8, mark: "O" },
  ];
  const review = await postReview({ body: { variant: "wild", moves } });
  const players = review.data?.players;
  check(review.data?.status === "in_progress" && review.data.winner === null && review.data.player === "first", "wild review");
  check(players !== undefined && "first" in players && players.first.moves === 2 && players.second.moves === 1, "wild's sides");
  check(review.data?.plies[1]?.judgement === "inaccuracy" && review.data.plies[2]?.mark === "O", "wild review: the plies");
  const finished = [...moves, { position: 1, mark: "X" }, { position: 7, mark: "X" }];
  const won = await postReview({ body: { variant: "wild", moves: finished } });
  check(won.data?.status === "first_won" && won.data.winner === "first", "a won game of wild");

  for (const [status, body] of Object.entries(STATUSES)) {
    const { data } = await postAnalysis({ body });
    check(data?.status === status, `analysis: ${status}`);
  }
}

async function main(baseUrl: string): Promise<void> {
  client.setConfig({ baseUrl });
  // The generated types make a board of 9 cells a 9-tuple (the schema's minItems = maxItems), so
  // a front end's state needs that type: a plain string[] does not fit.
  const cellsFromState: BoardCells = ["X", "", "", "", "", "", "", "", ""];
  const boards: Board[] = ["X........", cellsFromState, [["X", null, null], [null, null, null], [null, null, null]]];
  for (const board of boards) {
    const { data } = await postBestMove({ body: { board } });
    check(data?.position === 4 && data.board === "X........", `best move on ${JSON.stringify(board)}`);
  }
  const medium = await postBestMove({ body: { board: "XX..O....", level: "medium", seed: 3 } });
  check(medium.data?.position === 2 && medium.data.tactics[0] === "block", "a level and a seed");

  const batch = await postBestMoveBatch({
    body: { items: [{ board: "X........" }, { board: "XX.OO....", skill: 1, seed: 3 }] },
  });
  check(batch.data?.results.map((move) => move.position).join() === "4,2", "batch");

  const cached = await getBestMove({ query: { board: "X.O...X..", player: "O" } });
  const etag = cached.response.headers.get("etag");
  check(cached.data?.position === 3 && etag !== null, "cacheable GET");
  const again = await getBestMove({
    query: { board: "X.O...X..", player: "O" },
    headers: { "if-none-match": etag },
  });
  check(again.response.status === 304 && again.data === undefined, "304 Not Modified");

  const position = await getPosition({ path: { board: "XX.OO...." } });
  check(position.data?.best_moves.join() === "2" && position.data.player === "X", "analysis by path");
  const unknown = await getPosition({ path: { board: "X..../...." } });
  check(unknown.response.status === 404 && unknown.error?.type === "/problems/not-found", "404 problem");
  const finished = await postAnalysis({ body: { board: "XXXOO.O.." } });
  check(finished.data?.winner === "X" && finished.data.moves.length === 0, "analysis of a finished board");

  const health = await getHealth();
  check(health.data?.status === "ok" && health.data.positions === 8533, "health");
  const metrics = await getMetrics();
  check(typeof metrics.data === "string" && metrics.data.includes("tictactoe_http_requests_total"), "metrics");

  const refused = await postBestMove({ body: { board: "XXXOO...." } });
  const problem: Problem | undefined = refused.error;
  check(refused.response.status === 422 && problem?.type === "/problems/game-over", "422 problem");

  const rated = await postBestMove({ body: { board: "XX..O....", rating: 493, seed: 1 } });
  check(rated.data?.position === 2, "a rating");
  const review = await postReview({ body: { moves: [0, 4, 8, 2, 6, 3, 1] } });
  check(review.data?.plies[3]?.judgement === "blunder" && "O" in review.data.players && review.data.players.O.moves === 3, "review");
  const illegal = await postReview({ body: { moves: [4, 0, 4] } });
  const illegalProblem: Problem | undefined = illegal.error;
  const where = illegalProblem?.errors?.[0]?.loc.join();
  check(illegal.response.status === 422 && where === "body,moves,2", "an illegal move, at its index");

  await variants();

  const pageAt = (cursor: string | null) => listPuzzles({ query: { limit: 100, cursor } });
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
  const [first = ""] = ids;
  const puzzle = await getPuzzle({ path: { puzzle_id: first } });
  const puzzleEtag = puzzle.response.headers.get("etag");
  check(puzzle.data?.id === first && puzzleEtag !== null, "one puzzle");
  const puzzleAgain = await getPuzzle({ path: { puzzle_id: first }, headers: { "if-none-match": puzzleEtag } });
  check(puzzleAgain.response.status === 304 && puzzleAgain.data === undefined, "304 for a puzzle");
  const unknownPuzzle = await getPuzzle({ path: { puzzle_id: "XXXXXXXXXX" } });
  const notFound = unknownPuzzle.error?.type === "/problems/not-found";
  check(unknownPuzzle.response.status === 404 && notFound, "404 for a puzzle");
  const random = await getRandomPuzzle({ query: { seed: 5, theme: "block" } });
  check(random.data?.themes.includes("block") === true, "a random puzzle");
  console.log("ok");
}

await main(process.argv[2] ?? "http://127.0.0.1:8000");
