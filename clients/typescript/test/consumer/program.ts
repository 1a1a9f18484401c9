// A program of a project that installed the package: every operation of the client, the 304
// path, paging with the cursor, reviews in the variants, the languages (a client's, a call's, a
// batch's), and each of its four errors. `npm run typecheck` checks it against dist/ (the package
// imports itself by name). tests/e2e/test_typescript_client.py installs the packed package in a
// fresh project, compiles this file there with tsc --strict twice, as program.mts (an ES module)
// and as program.cts (CommonJS, which require()s the package), and runs both against a live
// server: `node program.mjs SERVICE SILENT REFUSED` prints what it saw as JSON, which the test checks.
// SILENT is an address that accepts connections and never answers; nothing listens at REFUSED.
import {
  AbortError,
  type Board,
  type BestMoveItem,
  type ClientError,
  createClient,
  isClientError,
  type LanguageInfo,
  type LanguageList,
  type Mark,
  type MoveOptions,
  NetworkError,
  ProblemError,
  type Puzzle,
  type PuzzleQuery,
  type RandomPuzzleQuery,
  type TurnSides,
  type Review,
  type ReviewMove,
  type SideReview,
  type Sides,
  type Status,
  TicTacToeError,
  TimeoutError,
  type Turn,
  type Variant,
} from "tictactoe-client";

declare const process: { argv: string[]; exitCode?: number }; // Node's, without its type package

/** The error a call ends with (and an error of its own if it succeeds). */
async function failure(call: Promise<unknown>): Promise<ClientError> {
  try {
    await call;
  } catch (error) {
    if (isClientError(error)) return error;
    throw error;
  }
  throw new Error("the call succeeded");
}

function described(error: ClientError): Record<string, unknown> {
  const seen = { kind: error.kind, name: error.name, base: error instanceof TicTacToeError, url: error.request.url };
  switch (error.kind) {
    case "problem":
      return {
        ...seen,
        instance: error instanceof ProblemError,
        status: error.status,
        type: error.problem.type,
        game_status: error.problem.game_status ?? null,
        loc: error.problem.errors?.[0]?.loc ?? null,
      };
    case "network":
      return { ...seen, instance: error instanceof NetworkError, cause: error.cause instanceof Error };
    case "timeout":
      return { ...seen, instance: error instanceof TimeoutError, timeoutMs: error.timeoutMs };
    case "aborted":
      return { ...seen, instance: error instanceof AbortError, reason: String(error.reason) };
  }
}

function side(review: SideReview): Record<string, unknown> {
  const { moves, judgements, accuracy, only_moves, level, rating } = review;
  return { moves, judgements, accuracy, only_moves, level, rating };
}

/** The sides of a review annotated `Review`, a variant not known statically: narrowed from `Sides | TurnSides`. */
function marked(players: Sides | TurnSides): Sides {
  if ("X" in players) return players;
  throw new Error("a review of the standard game has the sides X and O");
}

async function main(baseUrl: string, silentUrl: string, refusedUrl: string): Promise<void> {
  const client = createClient({ baseUrl, headers: { "X-Request-ID": "ts-consumer" } });
  const cellsFromState: string[] = ["X", "", "", "", "", "", "", "", ""];
  const forms: Board[] = ["X........", cellsFromState, [["X", null, null], [null, null, null], [null, null, null]]];
  const positions: number[] = [];
  for (const board of forms) positions.push((await client.bestMove(board)).position);
  const medium = await client.bestMove("XX..O....", { level: "medium", seed: 3 });
  const batch = await client.batch([{ board: "X........" }, { board: "XX.OO....", player: "X" }]);

  const cached = await client.getBestMove("X.O...X..", "O");
  if (cached.notModified) throw new Error("a first GET cannot be 304");
  const cachedAgain = await client.getBestMove("X.O...X..", "O", { ifNoneMatch: cached.etag ?? "" });
  const position = await client.getPosition("XX.OO....");
  if (position.notModified) throw new Error("a first GET cannot be 304");
  const positionAgain = await client.getPosition("XX.OO....", undefined, { ifNoneMatch: position.etag ?? "" });
  const otherEtag = await client.getPosition("XX.OO....", undefined, { ifNoneMatch: '"not-the-etag"' });
  const finished = await client.analyze([["X", "X", "X"], ["O", "O", ""], ["O", "", ""]]);
  const finishedStatus: Status = finished.status;
  const wonByTurn: Status = (await client.analyze("XO.X.OX..", { variant: "wild" })).status; // six values
  const health = await client.health();
  const metrics = await client.metrics();
  const variants = await client.variants();
  if (variants.notModified) throw new Error("a first GET cannot be 304");
  const wild = await client.getBestMove("X...O....", { variant: "wild" });
  if (wild.notModified) throw new Error("a first GET cannot be 304");
  const notakto = await client.analyze("X...X....", { variant: "notakto", player: "first" });
  const fourByFour = await client.getPosition("X....O..........", { variant: "4x4", player: "X" });
  if (fourByFour.notModified) throw new Error("a first GET cannot be 304");
  const hard = await client.bestMove(".".repeat(18), { variant: "notakto-2", level: "hard", seed: 2 });

  const rated = await client.bestMove("XX..O....", { rating: 493, seed: 1 });
  const ratedBatch = await client.batch([
    { board: "XX..O....", rating: 493, seed: 1 },
    { board: "X...O....", rating: 200, seed: 11 },
  ]);
  const ratedAgain = await client.bestMove("X...O....", { rating: 200, seed: 11 });
  const review: Review = await client.review([0, 4, 8, 2, 6, 3, 1]); // an annotation of before the variants
  // The standard game's review as its program reads it: its sides are X and O, no narrowing needed.
  const fromRows = await client.review([2], { board: [["X", "X", ""], ["O", "O", ""], ["", "", ""]], player: "X" });
  const movers: Mark[] = fromRows.plies.map((ply) => ply.player);
  const firstMover: Mark = fromRows.player;
  // Reviews in the variants: wild's moves with their marks, Notakto on two boards, 4x4.
  const wildMoves: ReviewMove[] = [{ position: 4, mark: "X" }, { position: 0, mark: "O" }, { position: 8, mark: "X" }];
  const wildGame = await client.review(wildMoves, { variant: "wild" });
  const wildFromBoard = await client.review([{ position: 8, mark: "O" }], { variant: "wild", board: "X...O....", player: "first" });
  const notaktoGame = await client.review([4, 13, 0, 9], { variant: "notakto-2" });
  const fourGame = await client.review([0, 5, 1, 6, 2, 7, 3], { variant: "4x4" });
  const turnsPlayed: Turn[] = wildGame.plies.map((ply) => ply.player);
  // A variant known only at run time (4x4, the seventh listed): its review has either sides.
  const listedVariant: Variant = variants.value.variants[6]?.id ?? "standard";
  const listedGame = await client.review([0, 5], { variant: listedVariant });

  const forks: PuzzleQuery = { theme: "fork", limit: 5 };
  const page = await client.puzzles(forks);
  if (page.notModified) throw new Error("a first GET cannot be 304");
  const pageAgain = await client.puzzles(forks, { ifNoneMatch: page.etag ?? "" });
  const byCursor: string[] = [];
  let cursor: string | null = null;
  let total = 0;
  do {
    const next = await client.puzzles({ limit: 100, cursor });
    if (next.notModified) throw new Error("a GET without If-None-Match cannot be 304");
    total = next.value.total;
    byCursor.push(...next.value.puzzles.map((puzzle) => puzzle.id));
    cursor = next.value.next;
  } while (cursor !== null);
  const byPages: string[][] = [];
  for await (const each of client.puzzlePages({ limit: 100 })) byPages.push(each.puzzles.map((puzzle) => puzzle.id));
  const listed: Puzzle | undefined = page.value.puzzles[0];
  if (listed === undefined) throw new Error("no puzzle with a fork");
  const one = await client.puzzle(listed.id);
  if (one.notModified) throw new Error("a first GET cannot be 304");
  const oneAgain = await client.puzzle(listed.id, { ifNoneMatch: one.etag ?? "" });
  const random = await client.randomPuzzle({ seed: 5, theme: "block", min_rating: 181 });
  if (random.notModified) throw new Error("a first GET cannot be 304");
  const randomAgain = await client.randomPuzzle({ seed: 5, theme: "block", min_rating: 181 }, { ifNoneMatch: random.etag ?? "" });
  const unseeded = await client.randomPuzzle({ theme: "fork" });
  // Puzzles of the variants: a book by `variant`, a theme of its own, a rating on its own scale.
  const misereQuery: PuzzleQuery = { variant: "misere", theme: "squeeze", limit: 3 };
  const miserePage = await client.puzzles(misereQuery);
  if (miserePage.notModified) throw new Error("a first GET cannot be 304");
  const miserePageAgain = await client.puzzles(misereQuery, { ifNoneMatch: miserePage.etag ?? "" });
  const notaktoIds: string[] = [];
  for await (const each of client.puzzlePages({ variant: "notakto", limit: 100 })) {
    notaktoIds.push(...each.puzzles.map((puzzle) => puzzle.id));
  }
  const wildQuery: RandomPuzzleQuery = { variant: "wild", seed: 3, theme: "squeeze" };
  const wildPuzzle = await client.randomPuzzle(wildQuery);
  if (wildPuzzle.notModified) throw new Error("a first GET cannot be 304");
  const wildPuzzleAgain = await client.randomPuzzle(wildQuery, { ifNoneMatch: wildPuzzle.etag ?? "" });
  const wildMark: Mark | null | undefined = wildPuzzle.value.mark;
  const notakto2 = await client.randomPuzzle({ variant: "notakto-2", seed: 8 });
  if (notakto2.notModified) throw new Error("a first GET cannot be 304");
  const notakto2ById = await client.puzzle(notakto2.value.id);
  if (notakto2ById.notModified) throw new Error("a first GET cannot be 304");
  const puzzleVariant: Variant = notakto2ById.value.variant;

  // Languages: the client's for every call, a call's over it, a batch's (never an item's), the list.
  const spanish = createClient({ baseUrl, lang: "es" });
  const english = await client.bestMove("XX..O....", { level: "medium", seed: 3 });
  const inSpanish = await spanish.bestMove("XX..O....", { level: "medium", seed: 3 });
  const inFrench = await spanish.bestMove("XX..O....", { level: "medium", seed: 3 }, { lang: "fr" });
  const spanishGet = await spanish.getBestMove("X.O...X..", "O");
  if (spanishGet.notModified) throw new Error("a first GET cannot be 304");
  const englishGet = await spanish.getBestMove("X.O...X..", "O", { lang: "en" });
  if (englishGet.notModified) throw new Error("a first GET cannot be 304");
  const spanishPosition = await spanish.getPosition("XX.OO....");
  if (spanishPosition.notModified) throw new Error("a first GET cannot be 304");
  const spanishAnalysis = await spanish.analyze("XX.OO....");
  const spanishReview = await spanish.review([0, 4, 8, 2, 6, 3, 1]);
  const spanishVariants = await spanish.variants();
  if (spanishVariants.notModified) throw new Error("a first GET cannot be 304");
  const spanishPuzzle = await spanish.randomPuzzle({ seed: 5, theme: "block", min_rating: 181 });
  if (spanishPuzzle.notModified) throw new Error("a first GET cannot be 304");
  const germanPuzzle = await spanish.puzzle(spanishPuzzle.value.id, { lang: "de" });
  if (germanPuzzle.notModified) throw new Error("a first GET cannot be 304");
  const spanishPage = await spanish.puzzles(forks);
  if (spanishPage.notModified) throw new Error("a first GET cannot be 304");
  const items: BestMoveItem[] = [{ board: "XX..O....", level: "medium", seed: 3 }, { board: "XX.OO....", player: "X" }];
  const germanBatch = await client.batch(items, { lang: "de" });
  const spanishBatch = await spanish.batch(items);
  const listedLanguages = await spanish.languages();
  if (listedLanguages.notModified) throw new Error("a first GET cannot be 304");
  const languageList: LanguageList = listedLanguages.value;
  const firstLanguage: LanguageInfo | undefined = languageList.languages[0];

  const silent = createClient({ baseUrl: silentUrl, timeoutMs: 60_000 });
  const controller = new AbortController();
  setTimeout(() => controller.abort("the player left"), 100);
  const misplaced = { signal: controller.signal } as unknown as MoveOptions;
  const report = {
    bestMove: { positions, medium: { position: medium.position, tactics: medium.tactics, reason: medium.reason } },
    batch: batch.map((move) => move.position),
    getBestMove: {
      position: cached.value.position,
      board: cached.value.board,
      etag: cached.etag,
      again: { notModified: cachedAgain.notModified, etag: cachedAgain.etag },
    },
    getPosition: {
      best_moves: position.value.best_moves,
      player: position.value.player,
      etag: position.etag,
      again: { notModified: positionAgain.notModified },
      otherEtag: { notModified: otherEtag.notModified, etag: otherEtag.etag },
    },
    analyze: { status: finishedStatus, winner: finished.winner, winning_lines: finished.winning_lines, wonByTurn },
    health: { status: health.status, positions: health.positions },
    variants: {
      ids: variants.value.variants.map((variant) => variant.id),
      wild: { player: wild.value.player, mark: wild.value.mark ?? null },
      notakto: { player: notakto.player, moves: notakto.moves.length, grid: notakto.moves[0]?.grid ?? null },
      fourByFour: { player: fourByFour.value.player, moves: fourByFour.value.moves.length },
      hard: { board: hard.board, player: hard.player },
    },
    metrics: metrics.includes("tictactoe_http_requests_total"),
    rating: {
      position: rated.position,
      optimal: rated.optimal,
      batch: ratedBatch.map((move) => move.position),
      sameForTheSeed: ratedBatch[1]?.position === ratedAgain.position,
    },
    review: {
      judgements: review.plies.map((ply) => ply.judgement),
      better: review.plies.map((ply) => ply.better?.position ?? null),
      X: side(marked(review.players).X),
      O: side(marked(review.players).O),
      fromRows: {
        board: fromRows.board,
        status: fromRows.status,
        winner: fromRows.winner,
        O: side(fromRows.players.O),
        movers: [firstMover, ...movers],
      },
    },
    variantReviews: {
      wild: wildGame,
      wildFromBoard,
      notakto: notaktoGame,
      fourByFour: fourGame,
      marks: wildGame.plies.map((ply) => ply.mark ?? null),
      betterMarks: wildGame.plies.map((ply) => ply.better?.mark ?? null),
      grids: notaktoGame.plies.map((ply) => ply.grid ?? null),
      turns: [side(wildGame.players.first), side(wildGame.players.second)],
      turnsPlayed,
      notaktoTurns: notaktoGame.players.second.moves,
      fourSides: [fourGame.players.X.moves, fourGame.players.O.moves],
      listed: "X" in listedGame.players ? { variant: listedVariant, X: listedGame.players.X.moves } : null,
    },
    puzzles: {
      ids: page.value.puzzles.map((puzzle) => puzzle.id),
      total: page.value.total,
      next: page.value.next,
      etag: page.etag,
      again: { notModified: pageAgain.notModified },
    },
    paging: { total, byCursor, byPages },
    puzzle: { value: one.value, etag: one.etag, again: { notModified: oneAgain.notModified, etag: oneAgain.etag } },
    randomPuzzle: {
      value: random.value,
      etag: random.etag,
      again: { notModified: randomAgain.notModified },
      unseeded: { etag: unseeded.etag, themes: unseeded.notModified ? null : unseeded.value.themes },
    },
    variantPuzzles: {
      misere: {
        ids: miserePage.value.puzzles.map((puzzle) => puzzle.id),
        variants: miserePage.value.puzzles.map((puzzle) => puzzle.variant),
        total: miserePage.value.total,
        again: { notModified: miserePageAgain.notModified },
      },
      notaktoIds,
      wild: { value: wildPuzzle.value, mark: wildMark ?? null, again: { notModified: wildPuzzleAgain.notModified } },
      notakto2: { value: notakto2.value, grid: notakto2.value.grid ?? null, byId: notakto2ById.value, variant: puzzleVariant },
    },
    errors: {
      problem: described(await failure(client.bestMove("XXXOO...."))),
      notFound: described(await failure(client.getPosition("X..../...."))),
      illegalMove: described(await failure(client.review([4, 0, 4]))),
      wildCellAlone: described(await failure(client.review([{ position: 4, mark: "X" }, 0], { variant: "wild" }))),
      deadBoard: described(await failure(client.review([0, 1, 2, 3], { variant: "notakto-2" }))),
      offTheBoard: described(await failure(client.review([0, 16], { variant: "4x4" }))),
      ratingWithLevel: described(await failure(client.bestMove("X........", { rating: 200, level: "easy" }))),
      unknownPuzzle: described(await failure(client.puzzle("XXXXXXXXXX"))),
      noRandomPuzzle: described(await failure(client.randomPuzzle({ min_rating: 494 }))),
      noVariantPuzzle: described(await failure(client.randomPuzzle({ variant: "misere", theme: "fork" }))),
      timeout: described(await failure(silent.health({ timeoutMs: 300 }))),
      clientTimeout: described(await failure(createClient({ baseUrl: silentUrl, timeoutMs: 200 }).bestMove("X........"))),
      aborted: described(await failure(silent.getBestMove("X........", undefined, { signal: controller.signal }))),
      abortedBefore: described(await failure(client.health({ signal: AbortSignal.abort("never sent") }))),
      network: described(await failure(createClient({ baseUrl: refusedUrl }).health())),
    },
    languages: {
      tags: languageList.languages.map((language) => language.tag),
      names: languageList.languages.map((language) => language.name),
      default: languageList.default,
      first: firstLanguage?.tag ?? null,
      clientLang: [client.lang ?? null, spanish.lang ?? null],
      moves: [english, inSpanish, inFrench].map((move) => ({
        position: move.position,
        tactics: move.tactics,
        reason: move.reason,
      })),
      get: { reason: spanishGet.value.reason, language: spanishGet.language },
      getEnglish: { reason: englishGet.value.reason, language: englishGet.language },
      position: { reasons: spanishPosition.value.moves.map((move) => move.reason), language: spanishPosition.language },
      analysis: spanishAnalysis.moves.map((move) => move.reason),
      review: spanishReview.plies.map((ply) => [ply.reason, ply.better?.reason ?? null]),
      variants: spanishVariants.value.variants.map((variant) => [variant.id, variant.name, variant.rules]),
      puzzle: { id: spanishPuzzle.value.id, reason: spanishPuzzle.value.reason, language: spanishPuzzle.language },
      puzzleGerman: { reason: germanPuzzle.value.reason, language: germanPuzzle.language },
      page: spanishPage.value.puzzles.map((puzzle) => puzzle.reason),
      batchGerman: germanBatch.map((move) => move.reason),
      batchSpanish: spanishBatch.map((move) => move.reason),
      malformed: described(await failure(client.bestMove("X........", {}, { lang: "not a tag!" }))),
      malformedGet: described(await failure(spanish.getPosition("X........", undefined, { lang: "not a tag!" }))),
      malformedBatch: described(await failure(client.batch(items, { lang: "not a tag!" }))),
      malformedClient: described(await failure(createClient({ baseUrl, lang: "not a tag!" }).variants())),
      misplaced: await spanish.bestMove("X........", { lang: "fr" } as unknown as MoveOptions).then(
        () => "sent",
        (error: unknown) => (error instanceof TypeError ? error.message : String(error)),
      ),
    },
    misplacedSignal: await client.bestMove("X........", misplaced).then(
      () => "sent",
      (error: unknown) => (error instanceof TypeError ? error.message : String(error)),
    ),
  };
  console.log(JSON.stringify(report));
}

const [service, silent, refused] = process.argv.slice(2);
if (service === undefined || silent === undefined || refused === undefined) {
  throw new Error("usage: node program.mjs SERVICE SILENT REFUSED (three base URLs)");
}
main(service, silent, refused).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
