// Mistakes the package's types must catch. tests/e2e/test_typescript_client.py compiles this file
// in a fresh project that installed the packed package, as an ES module and as CommonJS, with
// tsc --strict, and expects exactly the error marked at the end of each line, and no other.
import { createClient, type Mark, ProblemError, type Status, type Variant } from "tictactoe-client";

const client = createClient({ baseUrl: "http://127.0.0.1:8000" });

export async function mistakes(signal: AbortSignal, variant: Variant): Promise<string> {
  const move = await client.bestMove("X........");
  const wrong: string = move.position; // error TS2322
  await client.bestMove("X........", { level: "impossible" }); // error TS2322
  await client.bestMove("X........", { signal }); // error TS2353
  await client.bestMove("X........", {}, { signal, timeout: 100 }); // error TS2561
  await client.batch([{ board: "X........", skil: 0.5 }]); // error TS2561
  await client.analyze("X........", "Z"); // error TS2345
  await client.getPosition("X........", { variant: "chess" }); // error TS2322
  const cached = await client.getBestMove("X........");
  const position: number = cached.value.position; // error TS2339
  const health = await client.health();
  const version: number = health.version; // error TS2322
  createClient({ timeout: 100 }); // error TS2561
  await client.bestMove("X........", { rating: "easy" }); // error TS2322
  await client.review(["4"]); // error TS2322
  await client.review([4], { moves: [0] }); // error TS2353
  await client.review([4], {}, { ifNoneMatch: "x" }); // error TS2353
  await client.review([{ position: 4, mark: "Z" }], { variant: "wild" }); // error TS2322
  await client.review([{ cell: 4, mark: "X" }], { variant: "wild" }); // error TS2353
  await client.review([4], { variant: "5x5" }); // error TS2322
  const reviewed = await client.review([4], { variant: "wild" });
  const level = reviewed.players.O.level; // error TS2339
  const mover: Mark = reviewed.player; // error TS2322
  const standard = await client.review([4]);
  const first: number = standard.players.first.moves; // error TS2339
  const notakto = await client.review([4], { variant: "notakto-3" });
  const marks: Mark[] = notakto.plies.map((ply) => ply.player); // error TS2322
  const listed = await client.review([4], { variant });
  const o = listed.players.O; // error TS2339
  const lost: Status = "x_lost"; // error TS2322
  await client.puzzles({ minRating: 100 }); // error TS2561
  await client.randomPuzzle({ theme: "center" }); // error TS2322
  await client.puzzles({ variant: "chess" }); // error TS2322
  await client.randomPuzzle({ variant: "wild", seed: 1, mark: "X" }); // error TS2353
  const puzzle = await client.puzzle("X...O...XO");
  const solution: number = puzzle.value.solution; // error TS2339
  for await (const page of client.puzzlePages()) page.puzzles.push(page.next); // error TS2345
  await client.bestMove("X........", { lang: "es" }); // error TS2353
  await client.batch([{ board: "X........", lang: "es" }]); // error TS2353
  await client.puzzles({ theme: "fork", lang: "es" }); // error TS2353
  createClient({ baseUrl: "http://127.0.0.1:8000", lang: 5 }); // error TS2322
  const languages = await client.languages();
  const fallback: string = languages.value.default; // error TS2339
  try {
    await client.health();
  } catch (error) {
    const status: number = error.status; // error TS18046
    if (error instanceof ProblemError) return error.problem.title + wrong + position + version + status + solution + first;
  }
  return `${move.outcome} ${level} ${mover} ${marks.join()} ${o.moves} ${lost} ${fallback}`;
}
