// What a front end writes must type-check under --strict: the minimal bodies, and boards from UI
// state. `npm run typecheck` compiles this file; it is never run.
import { createClient, type Board, type BestMoveRequest, type Level, ProblemError } from "../src/index.js";

const client = createClient();
const cellsFromState: string[] = ["X", "", "", "", "", "", "", "", ""];
const rowsFromState: (string | null)[][] = [["X", null, null], [null, null, null], [null, null, null]];
const boards: Board[] = ["X........", cellsFromState, rowsFromState];
const minimal: BestMoveRequest = { board: "X........" };
const withOptions: BestMoveRequest = { board: cellsFromState, player: "O", skill: 0.5, seed: 1, random: true };
const chosenLevel: Level = "medium";
const withLevel: BestMoveRequest = { board: "X........", level: chosenLevel, seed: 2 };

export async function frontEnd(): Promise<number> {
  const move = await client.bestMove(boards[0] ?? "X........");
  const weaker = await client.bestMove(cellsFromState, { skill: 0.3 });
  const easy = await client.bestMove(cellsFromState, { level: "easy", seed: 1 });
  const shallow = await client.bestMove(cellsFromState, { depth: 2 });
  const moves = await client.batch([minimal, withOptions, withLevel]);
  const analysis = await client.analyze(rowsFromState, "X");
  try {
    await client.health();
  } catch (error) {
    if (error instanceof ProblemError) return error.problem.status;
  }
  return move.position + weaker.row + easy.column + shallow.score + moves.length + analysis.moves.length;
}
