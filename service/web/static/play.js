// Tic-tac-toe against the engine: plain JavaScript, no build step, no external assets.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const statusEl = $("status");
  const errorEl = $("error");
  const levelEl = $("level");
  const ratingEl = $("rating");
  const byRatingEl = $("by-rating");
  const reasonsEl = $("reasons");
  const engineMoveEl = $("engine-move");
  const levelNoteEl = $("level-note");

  const game = {
    board: ".........",
    person: "X",
    engine: "O",
    first: "X", // who played the game's first move
    toMove: "X",
    moves: [], // the cells played, in order, from the empty board
    started: false,
    over: true,
    // What the page is waiting for: "idle", "checking" (has the person's move ended the game?),
    // "thinking" (the engine's move), "finishing" (the winning lines of a finished game) or
    // "reviewing" (the review of a finished game).
    stage: "idle",
    strength: { level: "perfect" }, // what the engine's moves are asked with: a level or a rating
    result: null, // "person", "engine" or "draw" once the game is over
    lines: [],
  };

  // --- requests: a new step supersedes what is in flight ---------------------------------------------
  //
  // The game and the puzzles each have a channel. Each step that asks the service holds a ticket:
  // the channel's generation it belongs to and the signal of its AbortController. Starting another
  // step on a channel aborts its fetch in flight and moves its generation on, and every answer is
  // checked against the generation before it is used, so a late answer of an earlier game, level or
  // puzzle can never land on the page.

  class Superseded extends Error {}

  class ServiceError extends Error {
    constructor(message, status) {
      super(message);
      this.status = status; // the HTTP status, or 0 when the service could not be reached
    }
  }

  // What a button reads now, for the messages that say to press it: they name it as it reads, from
  // the button itself (the page's markup has the labels, and Get a puzzle becomes Next puzzle once
  // a puzzle is shown).
  function label(button) {
    return button.textContent.replace(/\s+/g, " ").trim();
  }

  class Channel {
    constructor(retry, fail) {
      this.retry = retry; // the button that tries again, named by the message of a failed request
      this.fail = fail;
      this.generation = 0;
      this.controller = null;
    }

    begin() {
      if (this.controller) this.controller.abort();
      this.controller = new AbortController();
      this.generation += 1;
      return { channel: this, generation: this.generation, signal: this.controller.signal };
    }

    isCurrent(ticket) {
      return ticket.generation === this.generation && !ticket.signal.aborted;
    }

    // Runs one step with a new ticket; a superseded step stops quietly, a failed one says why.
    async run(step) {
      const ticket = this.begin();
      try {
        await step(ticket);
      } catch (error) {
        if (error instanceof Superseded || ticket.generation !== this.generation) return;
        this.fail(error);
      }
    }
  }

  function ensureCurrent(ticket) {
    if (!ticket.channel.isCurrent(ticket)) throw new Superseded();
  }

  // Asks the service: a POST of `body`, or a GET without one.
  async function call(path, body, ticket) {
    const init = { headers: { Accept: "application/json" }, signal: ticket.signal };
    if (body !== undefined) {
      init.method = "POST";
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(path, init);
    } catch (error) {
      ensureCurrent(ticket); // an aborted request was superseded: that is no failure
      throw new ServiceError(
        `Cannot reach the service. Check the connection and press ${label(ticket.channel.retry)} to try again.`, 0);
    }
    ensureCurrent(ticket);
    let data = null;
    try {
      data = await response.json();
    } catch (error) {
      data = null;
    }
    ensureCurrent(ticket);
    if (!response.ok) {
      const detail = data && data.detail ? data.detail : `HTTP ${response.status}`;
      throw new ServiceError(`The service answered with an error: ${detail}`, response.status);
    }
    return data;
  }

  const gameChannel = new Channel($("new-game"), stop);

  // --- words ---------------------------------------------------------------------------------------

  function other(mark) {
    return mark === "X" ? "O" : "X";
  }

  function capital(text) {
    return text.charAt(0).toUpperCase() + text.slice(1);
  }

  function levelName(value) {
    const option = Array.from(levelEl.options).find((o) => o.value === value);
    return option ? option.textContent.trim() : value;
  }

  function cellList(cellsOf) {
    return cellsOf.map((c) => c + 1).join(", ");
  }

  // The calibrated players and their ratings, weakest first, as the slider's marks give them.
  const calibrated = Array.from($("rating-marks").options).map((o) => ({ name: o.label, rating: Number(o.value) }));

  // A rating in words: the calibrated player it is, or the two it lies between.
  function ratingWords(value) {
    const exact = calibrated.find((p) => p.rating === value);
    if (exact) return `${value}: ${exact.name}`;
    const lower = calibrated.filter((p) => p.rating < value).pop();
    const upper = calibrated.find((p) => p.rating > value);
    return `${value}: between ${lower.name} (${lower.rating}) and ${upper.name} (${upper.rating})`;
  }

  // The same, short, inside a sentence.
  function ratingPhrase(value) {
    const exact = calibrated.find((p) => p.rating === value);
    if (exact) return `${value} (${exact.name})`;
    const lower = calibrated.filter((p) => p.rating < value).pop();
    const upper = calibrated.find((p) => p.rating > value);
    return `${value} (between ${lower.name} and ${upper.name})`;
  }

  function playedLike(side) {
    return side.level === null ? "no move" : `${side.level} (≈ ${side.rating})`;
  }

  // --- the board as a grid: one tab stop, arrow keys, Home and End --------------------------------

  function grid(element, onPlay) {
    const cells = Array.from(element.querySelectorAll(".cell"));
    let active = 0;

    function setActive(index, focus) {
      active = index;
      cells.forEach((cell, i) => cell.setAttribute("tabindex", i === index ? "0" : "-1"));
      if (focus) cells[index].focus();
    }

    element.addEventListener("focusin", (event) => {
      const index = cells.indexOf(event.target);
      if (index >= 0 && index !== active) setActive(index, false);
    });

    element.addEventListener("keydown", (event) => {
      const index = cells.indexOf(event.target);
      if (index < 0 || event.altKey || event.metaKey) return;
      const row = Math.floor(index / 3);
      const column = index % 3;
      let next = null;
      if (event.key === "ArrowLeft") next = row * 3 + Math.max(column - 1, 0);
      else if (event.key === "ArrowRight") next = row * 3 + Math.min(column + 1, 2);
      else if (event.key === "ArrowUp") next = Math.max(row - 1, 0) * 3 + column;
      else if (event.key === "ArrowDown") next = Math.min(row + 1, 2) * 3 + column;
      else if (event.key === "Home") next = event.ctrlKey ? 0 : row * 3;
      else if (event.key === "End") next = event.ctrlKey ? 8 : row * 3 + 2;
      if (next === null) return;
      event.preventDefault();
      setActive(next, true);
    });

    cells.forEach((cell, index) => cell.addEventListener("click", () => onPlay(index)));

    return {
      element,
      cells,
      setActive,
      focus() {
        setActive(active, true);
      },
    };
  }

  // A tag beside a cell's button (not in it: the button's label says the same in full).
  function tagCell(cell, text) {
    const holder = cell.parentElement;
    for (const tag of holder.querySelectorAll(".line-tag")) tag.remove();
    if (!text) return;
    const tag = document.createElement("span");
    tag.className = "line-tag";
    tag.setAttribute("aria-hidden", "true");
    tag.textContent = text;
    holder.appendChild(tag);
  }

  // --- what the game shows -------------------------------------------------------------------------

  const board = grid($("board"), play);

  function setStatus(text) {
    if (statusEl.textContent !== text) statusEl.textContent = text;
  }

  function showError(text) {
    errorEl.textContent = text;
  }

  function noteLevel(text) {
    levelNoteEl.textContent = text;
  }

  function showEngineMove(move) {
    engineMoveEl.textContent = move ? `The engine played cell ${move.position + 1}: ${move.reason}` : "";
  }

  function clearHints() {
    for (const cell of board.cells) {
      cell.classList.remove("hint-win", "hint-draw", "hint-loss", "hint-best");
      cell.removeAttribute("title");
      const hint = cell.querySelector(".hint");
      if (hint) hint.remove();
    }
    reasonsEl.replaceChildren();
    reasonsEl.hidden = true;
  }

  function playable(index) {
    return game.started && !game.over && game.stage === "idle" && game.toMove === game.person &&
      game.board[index] === ".";
  }

  function render() {
    const winning = new Set(game.lines.flat());
    const owner = game.result === "person" ? "your" : "the engine's";
    board.cells.forEach((cell, index) => {
      const mark = game.board[index];
      const onLine = winning.has(index);
      cell.textContent = mark === "." ? "" : mark;
      cell.classList.toggle("x", mark === "X");
      cell.classList.toggle("o", mark === "O");
      cell.classList.toggle("winning", onLine);
      cell.classList.toggle("won-by-person", onLine && game.result === "person");
      cell.classList.toggle("won-by-engine", onLine && game.result === "engine");
      tagCell(cell, onLine ? (game.result === "person" ? "your line" : "engine's line") : "");
      // aria-disabled, not disabled: a cell that cannot be played keeps the focus it has.
      cell.setAttribute("aria-disabled", String(!playable(index)));
      const state = mark === "." ? "empty" : mark;
      cell.setAttribute("aria-label", `cell ${index + 1}, ${state}${onLine ? `, ${owner} winning line` : ""}`);
    });
    board.element.setAttribute("aria-busy", String(game.stage === "thinking" || game.stage === "checking"));
    statusEl.dataset.result = game.result || "";
    $("hint").disabled = !game.started || game.over || game.stage !== "idle" || game.toMove !== game.person;
  }

  // --- the engine's strength: a level or a rating ---------------------------------------------------

  function chosenStrength() {
    return byRatingEl.checked ? { rating: Number(ratingEl.value) } : { level: levelEl.value };
  }

  function showRating() {
    const words = ratingWords(Number(ratingEl.value));
    $("rating-value").textContent = words;
    ratingEl.setAttribute("aria-valuetext", words);
  }

  // The control of the way not chosen is disabled: a level and a rating never both apply.
  function showStrengthChoice() {
    levelEl.disabled = byRatingEl.checked;
    ratingEl.disabled = !byRatingEl.checked;
  }

  // A strength changed during a game applies from the engine's next move. If the engine is already
  // choosing one, that request is aborted and asked again at the new strength.
  function changeStrength() {
    const strength = chosenStrength();
    const byLevel = strength.rating === undefined;
    const unit = byLevel ? "level" : "rating";
    const what = byLevel ? levelName(strength.level) : ratingPhrase(strength.rating);
    const changed = `${capital(unit)} changed to ${what}`;
    if (!game.started || game.over) {
      if (game.started) noteLevel(`${capital(unit)} ${what} applies from the next game.`);
      return;
    }
    game.strength = strength;
    if (game.stage === "thinking") {
      noteLevel(`${changed}: the engine is choosing its move again at this ${unit}.`);
      gameChannel.run(engineTurn);
    } else if (game.stage === "checking") {
      noteLevel(`${changed}: it applies to the engine's coming move.`);
      gameChannel.run(afterYourMove);
    } else {
      noteLevel(`${changed}: it applies from the engine's next move.`);
    }
  }

  // --- the game ------------------------------------------------------------------------------------

  function stop(error) {
    game.over = true;
    game.stage = "idle";
    render();
    setStatus("Game stopped.");
    showError(error.message);
  }

  // The game is over: the service's analysis of the board gives the winner and the lines.
  function finish(analysis) {
    game.over = true;
    game.stage = "idle";
    game.lines = analysis.winning_lines;
    let text = "Draw.";
    game.result = "draw";
    if (analysis.winner === game.person) {
      text = `You win with ${game.person}!`;
      game.result = "person";
    } else if (analysis.winner) {
      text = `The engine wins with ${game.engine}.`;
      game.result = "engine";
    }
    const lines = game.lines.map((line) => line.map((cell) => cell + 1).join("-")).join(", ");
    render();
    setStatus(lines ? `${text} Winning line: ${lines}.` : text);
  }

  // The game is over and its result said: the service reviews it move by move.
  async function review(ticket) {
    game.stage = "reviewing";
    $("review-waiting").textContent = "Reviewing the game…";
    let answer;
    try {
      answer = await call("/v1/review", { moves: game.moves, player: game.first }, ticket);
    } catch (error) {
      if (error instanceof Superseded) throw error;
      game.stage = "idle";
      $("review-waiting").textContent = "This game has no review.";
      showError(`The review of the game is not available. ${error.message}`);
      return;
    }
    game.stage = "idle";
    showReview(answer);
  }

  async function finishAndReview(analysis, ticket) {
    finish(analysis);
    await review(ticket);
  }

  function yourTurn() {
    game.stage = "idle";
    render();
    setStatus(`Your turn: you are ${game.person}.`);
  }

  // The engine's turn: its move at the strength chosen now, then the end of the game or your turn.
  async function engineTurn(ticket) {
    game.stage = "thinking";
    render();
    setStatus("The engine is thinking…");
    const request = { board: game.board, player: game.engine, ...game.strength };
    const move = await call("/v1/best-move", request, ticket);
    game.board = move.board_after;
    game.moves.push(move.position);
    game.toMove = game.person;
    showEngineMove(move);
    showError("");
    if (move.status_after === "in_progress") {
      yourTurn();
      return;
    }
    // Over: the strength no longer matters, only the winning lines and the review are to come.
    game.over = true;
    game.stage = "finishing";
    render();
    await finishAndReview(await call("/v1/analysis", { board: game.board }, ticket), ticket);
  }

  // After your move: the service, not the page, knows the rules, and says whether it ended the game.
  async function afterYourMove(ticket) {
    game.stage = "checking";
    render();
    setStatus("The engine is thinking…");
    const analysis = await call("/v1/analysis", { board: game.board, player: game.engine }, ticket);
    if (analysis.status !== "in_progress") {
      await finishAndReview(analysis, ticket);
      return;
    }
    await engineTurn(ticket);
  }

  function play(index) {
    if (!(index >= 0 && index < 9) || !playable(index)) return;
    clearHints();
    board.setActive(index, true); // the focus stays on the board, on the cell just played
    game.board = game.board.slice(0, index) + game.person + game.board.slice(index + 1);
    game.moves.push(index);
    game.toMove = game.engine;
    gameChannel.run(afterYourMove);
  }

  function newGame() {
    gameChannel.begin(); // aborts whatever the last game still waits for
    clearHints();
    clearReview();
    showError("");
    showEngineMove(null);
    noteLevel("");
    game.person = $("side").value;
    game.engine = other(game.person);
    game.first = $("first").value;
    game.toMove = game.first;
    game.strength = chosenStrength();
    game.board = ".........";
    game.moves = [];
    game.started = true;
    game.over = false;
    game.result = null;
    game.lines = [];
    game.stage = "idle";
    board.focus();
    if (game.toMove === game.engine) {
      gameChannel.run(engineTurn);
    } else {
      yourTurn();
    }
  }

  function describe(move) {
    if (move.outcome === "draw") return "draw";
    return `${move.outcome} ${move.plies_to_end}`;
  }

  function hint() {
    if (!game.started || game.over || game.stage !== "idle" || game.toMove !== game.person) return;
    clearHints();
    gameChannel.run(async (ticket) => {
      let analysis;
      try {
        analysis = await call("/v1/analysis", { board: game.board, player: game.person }, ticket);
      } catch (error) {
        if (!(error instanceof Superseded)) showError(error.message);
        return;
      }
      const best = new Set(analysis.best_moves);
      for (const move of analysis.moves) {
        const cell = board.cells[move.position];
        const label = document.createElement("span");
        label.className = "hint";
        label.textContent = describe(move);
        cell.appendChild(label);
        cell.classList.add(`hint-${move.outcome}`);
        if (best.has(move.position)) cell.classList.add("hint-best");
        cell.setAttribute("aria-label", `cell ${move.position + 1}, empty, ${describe(move)}`);
        cell.title = move.reason;
        const item = document.createElement("li");
        item.dataset.cell = String(move.position);
        item.className = `reason-${move.outcome}`;
        item.textContent = `Cell ${move.position + 1}${best.has(move.position) ? " (best)" : ""}: ${move.reason}`;
        reasonsEl.appendChild(item);
      }
      reasonsEl.hidden = false;
      setStatus(`Hint: you can ${analysis.outcome === "loss" ? "at best lose" : analysis.outcome}` +
        ` with perfect play; best cells: ${cellList(analysis.best_moves)}.`);
      showError("");
    });
  }

  // --- the review of a game ------------------------------------------------------------------------

  // Each judgement in words, with the sign annotators write beside a move.
  const JUDGEMENTS = {
    best: "Best",
    inaccuracy: "Inaccuracy (?!)",
    mistake: "Mistake (?)",
    blunder: "Blunder (??)",
  };

  function element(tag, className, text) {
    const made = document.createElement(tag);
    if (className) made.className = className;
    if (text !== undefined) made.textContent = text;
    return made;
  }

  function clearReview() {
    $("review-status").textContent = "";
    $("review-waiting").textContent = "When this game ends, every move of it is judged here.";
    $("review-waiting").hidden = false;
    $("review-body").hidden = true;
    $("review-players").replaceChildren();
    $("review-moves").replaceChildren();
  }

  function who(mark) {
    return mark === game.person ? "you" : "the engine";
  }

  const PLURALS = { inaccuracy: "inaccuracies" };

  function counted(count, word) {
    return `${count} ${count === 1 ? word : PLURALS[word] || `${word}s`}`;
  }

  function sideItem(mark, side) {
    const item = element("li", "side");
    item.dataset.side = mark;
    const verb = side.level === null ? "made" : "played like:";
    item.append(`${capital(who(mark))} (${mark}) ${verb} `, element("strong", "", playedLike(side)));
    if (side.moves > 0) {
      const faults = ["inaccuracy", "mistake", "blunder"]
        .filter((name) => side.judgements[name] > 0)
        .map((name) => counted(side.judgements[name], name));
      const best = `${side.judgements.best} of ${counted(side.moves, "move")} best (accuracy ${side.accuracy}%)`;
      const only = side.only_moves ? `, ${counted(side.only_moves, "only move")} found` : "";
      item.append(` — ${[best, ...faults].join(", ")}${only}.`);
    }
    return item;
  }

  // A small board: the position before a move, the move played and the better one, with its text.
  function miniBoard(ply) {
    const figure = element("div", "mini-board");
    figure.setAttribute("role", "img");
    const marks = (mark) => Array.from(ply.board_before).flatMap((m, i) => (m === mark ? [i] : []));
    const on = (mark) => (marks(mark).length ? `${mark} on ${cellList(marks(mark))}` : `no ${mark}`);
    figure.setAttribute("aria-label",
      `Before move ${ply.ply}: ${on("X")}; ${on("O")}. Played: cell ${ply.position + 1}, dashed.` +
      ` Better: cell ${ply.better.position + 1}, marked with a star.`);
    Array.from(ply.board_before).forEach((mark, index) => {
      const cell = element("span", "mini-cell", mark === "." ? "" : mark);
      if (index === ply.position) {
        cell.classList.add("played");
        cell.textContent = ply.player;
      }
      if (index === ply.better.position) {
        cell.classList.add("better");
        cell.textContent = "★";
      }
      cell.dataset.cell = String(index);
      figure.appendChild(cell);
    });
    return figure;
  }

  function plyItem(ply) {
    const item = element("li", `ply judgement-${ply.judgement}`);
    item.dataset.ply = String(ply.ply);
    item.dataset.judgement = ply.judgement;
    const line = element("p", "ply-line");
    line.append(`Move ${ply.ply}, ${who(ply.player)} (${ply.player}): cell ${ply.position + 1} — `,
      element("span", `judgement judgement-${ply.judgement}`, JUDGEMENTS[ply.judgement]));
    if (ply.only_move) line.append(" ", element("span", "only-move", "only move"));
    item.append(line, element("p", "ply-reason", ply.reason));
    if (ply.better) {
      const id = `better-${ply.ply}`;
      const button = element("button", "show-better", "Show the better move");
      button.type = "button";
      button.setAttribute("aria-expanded", "false");
      button.setAttribute("aria-controls", id);
      button.setAttribute("aria-label", `Show the better move for move ${ply.ply}`);
      const shown = element("div", "better-move");
      shown.id = id;
      shown.hidden = true;
      shown.append(
        miniBoard(ply),
        element("p", "better-text", `Better: cell ${ply.better.position + 1}. ${ply.better.reason}`),
        element("p", "legend", `On the small board: ★ the better move; dashed, the move played.`),
      );
      button.addEventListener("click", () => {
        const open = shown.hidden;
        shown.hidden = !open;
        button.setAttribute("aria-expanded", String(open));
        button.textContent = open ? "Hide the better move" : "Show the better move";
        button.setAttribute("aria-label", `${open ? "Hide" : "Show"} the better move for move ${ply.ply}`);
      });
      item.append(button, shown);
    }
    return item;
  }

  function showReview(answer) {
    const marks = [game.person, game.engine];
    $("review-players").replaceChildren(...marks.map((mark) => sideItem(mark, answer.players[mark])));
    $("review-moves").replaceChildren(...answer.plies.map(plyItem));
    $("review-waiting").hidden = true;
    $("review-body").hidden = false;
    const you = answer.players[game.person];
    const engine = answer.players[game.engine];
    $("review-status").textContent = `Review: you played like: ${playedLike(you)}; ` +
      `the engine played like: ${playedLike(engine)}. Every move is judged below.`;
  }

  // --- puzzles -------------------------------------------------------------------------------------

  const puzzleStatusEl = $("puzzle-status");
  const puzzleErrorEl = $("puzzle-error");
  const puzzleButton = $("next-puzzle");
  const puzzle = {
    current: null, // the puzzle on the board, once its answer is in
    answer: null, // the cell the person chose, once they have
  };
  const puzzleChannel = new Channel(puzzleButton, (error) => noPuzzle(error.message));
  const puzzleBoard = grid($("puzzle-board"), answerPuzzle);

  // No puzzle to show: the board goes, and the reason is said.
  function noPuzzle(message) {
    $("puzzle-board").hidden = true;
    $("puzzle-board").removeAttribute("aria-busy");
    puzzleStatusEl.textContent = "";
    puzzleErrorEl.textContent = message;
  }

  function renderPuzzle() {
    const shown = puzzle.current;
    const solution = shown ? shown.solution : -1;
    puzzleBoard.cells.forEach((cell, index) => {
      let mark = shown ? shown.board[index] : ".";
      let said = "";
      let tag = "";
      if (shown && puzzle.answer === index) mark = shown.player;
      const answered = shown && puzzle.answer !== null;
      cell.classList.remove("answer-right", "answer-wrong", "solution");
      if (answered && index === puzzle.answer) {
        const right = index === solution;
        cell.classList.add(right ? "answer-right" : "answer-wrong");
        said = right ? ", your answer, right" : ", your answer, wrong";
        tag = right ? "right" : "wrong";
      } else if (answered && index === solution) {
        cell.classList.add("solution");
        said = ", the solution";
        tag = "solution";
      }
      cell.textContent = mark === "." ? "" : mark;
      cell.classList.toggle("x", mark === "X");
      cell.classList.toggle("o", mark === "O");
      tagCell(cell, tag);
      const open = shown && !answered && shown.board[index] === ".";
      cell.setAttribute("aria-disabled", String(!open));
      cell.setAttribute("aria-label", `cell ${index + 1}, ${mark === "." ? "empty" : mark}${said}`);
    });
    puzzleStatusEl.dataset.result = !shown || puzzle.answer === null ? "" :
      (puzzle.answer === solution ? "right" : "wrong");
  }

  // The themes (the solution's tactics) in words.
  const THEMES = { win: "win", block: "block", fork: "fork", threat: "threat", block_fork: "stop a fork" };

  function themeName(value) {
    return THEMES[value] || value;
  }

  // The filters as the form has them, or the field that is wrong and why.
  function puzzleFilters() {
    const top = calibrated[calibrated.length - 1].rating;
    const fields = [["puzzle-min", "The lowest rating"], ["puzzle-max", "The highest rating"]];
    const values = [];
    for (const [id, name] of fields) {
      const field = $(id);
      const text = field.value.trim();
      const value = Number(text);
      field.removeAttribute("aria-invalid");
      if (text === "" || !Number.isInteger(value) || value < 0 || value > top) {
        return { field, message: `${name} must be a whole number from 0 to ${top}.` };
      }
      values.push(value);
    }
    if (values[0] > values[1]) {
      return { field: $("puzzle-min"), message: `The lowest rating (${values[0]}) is above the highest (${values[1]}).` };
    }
    return { theme: $("puzzle-theme").value, min: values[0], max: values[1] };
  }

  function nextPuzzle() {
    const filters = puzzleFilters();
    puzzleChannel.begin(); // whatever was asked before is no longer wanted
    puzzle.current = null;
    puzzle.answer = null;
    puzzleErrorEl.textContent = "";
    if (filters.message) {
      filters.field.setAttribute("aria-invalid", "true");
      noPuzzle(filters.message);
      filters.field.focus();
      return;
    }
    const query = new URLSearchParams();
    if (filters.theme) query.set("theme", filters.theme);
    query.set("min_rating", String(filters.min));
    query.set("max_rating", String(filters.max));
    const wanted = `${filters.theme ? `theme ${themeName(filters.theme)}` : "any theme"}, ` +
      `rating ${filters.min} to ${filters.max}`;
    renderPuzzle();
    $("puzzle-board").setAttribute("aria-busy", "true");
    puzzleStatusEl.textContent = "Looking for a puzzle…";
    puzzleChannel.run(async (ticket) => {
      let found;
      try {
        found = await call(`/v1/puzzles/random?${query}`, undefined, ticket);
      } catch (error) {
        if (!(error instanceof ServiceError) || error.status !== 404) throw error;
        noPuzzle(`No puzzle matches these filters (${wanted}). ` +
          `Widen the rating range or choose another theme, then press ${label(puzzleButton)}.`);
        return;
      }
      $("puzzle-board").removeAttribute("aria-busy");
      puzzle.current = found;
      puzzle.answer = null;
      puzzleButton.textContent = "Next puzzle";
      $("puzzle-board").hidden = false;
      renderPuzzle();
      const goal = found.outcome === "win" ? "wins" : "holds the draw";
      puzzleStatusEl.textContent = `Puzzle (rating ${found.rating}): ${found.player} to play. ` +
        `Find the only move that ${goal}.`;
      // The board takes the focus, unless the person has gone somewhere else meanwhile.
      const focused = document.activeElement;
      if (!focused || focused === document.body || $("puzzles").contains(focused)) {
        const first = Array.from(found.board).indexOf(".");
        puzzleBoard.setActive(first, true);
      }
    });
  }

  function answerPuzzle(index) {
    const shown = puzzle.current;
    if (!shown || puzzle.answer !== null || !(index >= 0 && index < 9) || shown.board[index] !== ".") return;
    puzzle.answer = index;
    puzzleBoard.setActive(index, true);
    renderPuzzle();
    const themes = shown.themes.length ? ` Themes: ${shown.themes.map(themeName).join(", ")}.` : "";
    if (index === shown.solution) {
      puzzleStatusEl.textContent = `Right: cell ${index + 1}. ${shown.reason}${themes}`;
    } else {
      puzzleStatusEl.textContent = `Wrong: cell ${index + 1} is not it. The solution is cell ` +
        `${shown.solution + 1}: ${shown.reason}${themes}`;
    }
  }

  // --- events --------------------------------------------------------------------------------------

  $("settings").addEventListener("submit", (event) => {
    event.preventDefault();
    newGame();
  });
  levelEl.addEventListener("change", changeStrength);
  ratingEl.addEventListener("input", showRating);
  ratingEl.addEventListener("change", changeStrength);
  for (const radio of document.querySelectorAll("input[name=strength]")) {
    radio.addEventListener("change", () => {
      showStrengthChoice();
      changeStrength();
    });
  }
  $("hint").addEventListener("click", hint);
  $("puzzle-settings").addEventListener("submit", (event) => {
    event.preventDefault();
    nextPuzzle();
  });
  document.addEventListener("keydown", (event) => {
    const target = event.target;
    if (target instanceof HTMLSelectElement || target instanceof HTMLInputElement) return;
    if (event.ctrlKey || event.altKey || event.metaKey) return;
    // Keys act on the puzzles when the focus is among them, otherwise on the game.
    const puzzles = target instanceof Element && $("puzzles").contains(target);
    if (event.key >= "1" && event.key <= "9" && event.key.length === 1) {
      if (puzzles) answerPuzzle(Number(event.key) - 1);
      else play(Number(event.key) - 1);
    } else if (event.key === "n" || event.key === "N") {
      if (puzzles) nextPuzzle();
      else newGame();
    } else if ((event.key === "h" || event.key === "H") && !puzzles) {
      hint();
    }
  });

  showStrengthChoice();
  showRating();
  render();
})();
