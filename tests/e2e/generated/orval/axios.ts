// What a TypeScript front end writes with the client orval generates with its default options
// (orval.config.ts, project "axios": orval's default client, axios-functions, which calls the
// default axios instance): best moves in the standard game (the three board forms), on a 4×4 board
// (the three forms) and on two Notakto boards, a review of a game of wild with marked moves,
// analyses whose status is compared with the generated Status constants (all six of them), and a
// 422 problem, which axios throws. The variants are named by the generated constants
// (Variant.FOUR_BY_FOUR), so a document whose names degrade stops this from compiling.
// Compiled with tsc --strict and run with Node by tests/e2e/test_generated_clients.py.
import axios from "axios";

import {
  type Board,
  type MarkedMove,
  getBestMove,
  getPosition,
  Player,
  postAnalysis,
  postBestMove,
  postReview,
  type Problem,
  Status,
  Variant,
} from "./generated/axios/api.js";

declare const process: { argv: string[] }; // Node's, without its type package

function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(`failed: ${what}`);
}

// The statuses, each with a board of a variant that has it. A Record over the generated Status
// with its constants as keys: a constant missing, or a value the type lacks, fails to compile.
const STATUSES: Record<Status, { variant: Variant; board: string }> = {
  [Status.in_progress]: { variant: Variant.STANDARD, board: "........." },
  [Status.x_won]: { variant: Variant.STANDARD, board: "XXXOO...." },
  [Status.o_won]: { variant: Variant.STANDARD, board: "OOOXX.X.." },
  [Status.draw]: { variant: Variant.STANDARD, board: "XOXXOOOXX" },
  [Status.first_won]: { variant: Variant.WILD, board: "XXX......" },
  [Status.second_won]: { variant: Variant.NOTAKTO, board: "XXX......" },
};

async function main(baseUrl: string): Promise<void> {
  axios.defaults.baseURL = baseUrl; // the generated functions call the default instance

  const standard: Board[] = ["X........", ["X", "", "", "", "", "", "", "", ""], [["X", null, null], [null, null, null], [null, null, null]]];
  for (const board of standard) {
    const { data } = await postBestMove({ board });
    check(data.position === 4 && data.board === "X........", `best move on ${JSON.stringify(board)}`);
  }

  const fourByFour: Board[] = [
    "X...............",
    ["X", ...Array<null>(15).fill(null)],
    [["X", "", "", ""], ["", "", "", ""], ["", "", "", ""], ["", "", "", ""]],
  ];
  for (const board of fourByFour) {
    const { data } = await postBestMove({ variant: Variant.FOUR_BY_FOUR, board });
    check(
      data.position === 1 &&
        data.player === Player.O &&
        data.board === "X..............." &&
        data.status_after === Status.in_progress &&
        data.plies_to_end === 15,
      `4x4 best move on ${JSON.stringify(board)}`,
    );
  }
  const cached = await getBestMove({ variant: Variant.FOUR_BY_FOUR, board: "X..............." });
  check(cached.data.position === 1 && cached.data.board_after === "XO..............", "4x4 by GET");

  const twoBoards = await postBestMove({ variant: Variant.NOTAKTO_2, board: "X........X........" });
  check(twoBoards.data.position === 8 && twoBoards.data.grid === 0 && twoBoards.data.player === Player.first, "notakto-2 best move");
  const notakto = await getPosition("X........X........", { variant: Variant.NOTAKTO_2 });
  check(
    notakto.data.best_moves.join() === "8,17" && notakto.data.status === Status.in_progress && notakto.data.score === 1,
    "notakto-2 analysis",
  );

  const moves: MarkedMove[] = [
    { position: 4, mark: "X" },
    { position: 0, mark: "O" },
    { position: 8, mark: "O" },
  ];
  const review = await postReview({ variant: Variant.WILD, moves });
  const { players, plies } = review.data;
  check(review.data.status === Status.in_progress && review.data.winner === null && review.data.player === Player.first, "wild review: status");
  check("first" in players && players.first.moves === 2 && players.second.moves === 1, "wild review: the sides by turn");
  check(plies[1]?.judgement === "inaccuracy" && plies[2]?.mark === "O" && plies[2].only_move, "wild review: the plies");
  const won = await postReview({ variant: Variant.WILD, moves: [...moves, { position: 1, mark: "X" }, { position: 7, mark: "X" }] });
  check(won.data.status === Status.first_won && won.data.winner === Player.first, "a won game of wild");

  check(Object.values(Status).sort().join() === "draw,first_won,in_progress,o_won,second_won,x_won", "the six statuses");
  for (const status of Object.values(Status)) {
    const { data } = await postAnalysis(STATUSES[status]);
    check(data.status === status, `analysis: ${status}`);
  }

  try {
    await postBestMove({ variant: Variant.FOUR_BY_FOUR, board: "X........" });
    check(false, "a 3×3 board in 4x4 is refused");
  } catch (error) {
    if (!axios.isAxiosError<Problem>(error)) throw error;
    const problem = error.response?.data;
    check(error.response?.status === 422 && problem?.errors?.[0]?.type === "board_length", "a 3×3 board in 4x4: 422");
  }
  console.log("ok");
}

await main(process.argv[2] ?? "http://127.0.0.1:8000");
