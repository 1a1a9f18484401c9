// Tic-tac-toe against the engine: plain JavaScript, no build step, no external assets.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const boardEl = $("board");
  const cells = Array.from(boardEl.querySelectorAll(".cell"));
  const statusEl = $("status");
  const errorEl = $("error");
  const levelEl = $("level");
  const reasonsEl = $("reasons");
  const engineMoveEl = $("engine-move");
  const levelNoteEl = $("level-note");

  const game = {
    board: ".........",
    person: "X",
    engine: "O",
    toMove: "X",
    started: false,
    over: true,
    // What the page is waiting for: "idle", "checking" (has the person's move ended the game?),
    // "thinking" (the engine's move) or "finishing" (the winning lines of a finished game).
    stage: "idle",
    level: "perfect",
    result: null, // "person", "engine" or "draw" once the game is over
    lines: [],
  };

  // --- requests: a new game, a level change or a new move supersedes what is in flight ----------
  //
  // Each step that asks the service holds a ticket: the generation it belongs to and the signal of
  // its AbortController. Starting another step aborts the fetch in flight and moves the generation
  // on, and every answer is checked against the generation before it is used, so a late answer of
  // an earlier game or level can never land on the board.

  let generation = 0;
  let controller = null;

  class Superseded extends Error {}

  function begin() {
    if (controller) controller.abort();
    controller = new AbortController();
    generation += 1;
    return { generation, signal: controller.signal };
  }

  function ensureCurrent(ticket) {
    if (ticket.generation !== generation || ticket.signal.aborted) throw new Superseded();
  }

  async function call(path, body, ticket) {
    let response;
    try {
      response = await fetch(path, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify(body),
        signal: ticket.signal,
      });
    } catch (error) {
      ensureCurrent(ticket); // an aborted request was superseded: that is no failure
      throw new Error("Cannot reach the service. Check the connection and press New game to try again.");
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
      throw new Error(`The service answered with an error: ${detail}`);
    }
    return data;
  }

  // Runs one step with a new ticket; a superseded step stops quietly, a failed one stops the game.
  async function run(step) {
    const ticket = begin();
    try {
      await step(ticket);
    } catch (error) {
      if (error instanceof Superseded || ticket.generation !== generation) return;
      stop(error);
    }
  }

  // --- what the page shows -------------------------------------------------------------------------

  function other(mark) {
    return mark === "X" ? "O" : "X";
  }

  function levelName(value) {
    const option = Array.from(levelEl.options).find((o) => o.value === value);
    return option ? option.textContent.trim() : value;
  }

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
    for (const cell of cells) {
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
    cells.forEach((cell, index) => {
      const mark = game.board[index];
      const onLine = winning.has(index);
      cell.textContent = mark === "." ? "" : mark;
      cell.classList.toggle("x", mark === "X");
      cell.classList.toggle("o", mark === "O");
      cell.classList.toggle("winning", onLine);
      cell.classList.toggle("won-by-person", onLine && game.result === "person");
      cell.classList.toggle("won-by-engine", onLine && game.result === "engine");
      // The tag is beside the button, not in it: the button's label says the same in full.
      const holder = cell.parentElement;
      for (const tag of holder.querySelectorAll(".line-tag")) tag.remove();
      if (onLine) {
        const tag = document.createElement("span");
        tag.className = "line-tag";
        tag.setAttribute("aria-hidden", "true");
        tag.textContent = game.result === "person" ? "your line" : "engine's line";
        holder.appendChild(tag);
      }
      // aria-disabled, not disabled: a cell that cannot be played keeps the focus it has.
      cell.setAttribute("aria-disabled", String(!playable(index)));
      const state = mark === "." ? "empty" : mark;
      cell.setAttribute("aria-label", `cell ${index + 1}, ${state}${onLine ? `, ${owner} winning line` : ""}`);
    });
    boardEl.setAttribute("aria-busy", String(game.stage === "thinking" || game.stage === "checking"));
    statusEl.dataset.result = game.result || "";
    $("hint").disabled = !game.started || game.over || game.stage !== "idle" || game.toMove !== game.person;
  }

  // --- the board as a grid: one tab stop, arrow keys, Home and End --------------------------------

  let active = 0;

  function setActive(index, focus) {
    active = index;
    cells.forEach((cell, i) => cell.setAttribute("tabindex", i === index ? "0" : "-1"));
    if (focus) cells[index].focus();
  }

  function keepFocusOnBoard() {
    setActive(active, true);
  }

  boardEl.addEventListener("focusin", (event) => {
    const index = cells.indexOf(event.target);
    if (index >= 0 && index !== active) setActive(index, false);
  });

  boardEl.addEventListener("keydown", (event) => {
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

  function yourTurn() {
    game.stage = "idle";
    render();
    setStatus(`Your turn: you are ${game.person}.`);
  }

  // The engine's turn: its move at the level chosen now, then the end of the game or your turn.
  async function engineTurn(ticket) {
    game.stage = "thinking";
    render();
    setStatus("The engine is thinking…");
    const request = { board: game.board, player: game.engine, level: game.level };
    const move = await call("/v1/best-move", request, ticket);
    game.board = move.board_after;
    game.toMove = game.person;
    showEngineMove(move);
    showError("");
    if (move.status_after === "in_progress") {
      yourTurn();
      return;
    }
    // Over: the level no longer matters, only the winning lines are still to come.
    game.over = true;
    game.stage = "finishing";
    render();
    finish(await call("/v1/analysis", { board: game.board }, ticket));
  }

  // After your move: the service, not the page, knows the rules, and says whether it ended the game.
  async function afterYourMove(ticket) {
    game.stage = "checking";
    render();
    setStatus("The engine is thinking…");
    const analysis = await call("/v1/analysis", { board: game.board, player: game.engine }, ticket);
    if (analysis.status !== "in_progress") {
      finish(analysis);
      return;
    }
    await engineTurn(ticket);
  }

  function play(index) {
    if (!(index >= 0 && index < 9) || !playable(index)) return;
    clearHints();
    setActive(index, true); // the focus stays on the board, on the cell just played
    game.board = game.board.slice(0, index) + game.person + game.board.slice(index + 1);
    game.toMove = game.engine;
    run(afterYourMove);
  }

  function newGame() {
    begin(); // aborts whatever the last game still waits for
    clearHints();
    showError("");
    showEngineMove(null);
    noteLevel("");
    game.person = $("side").value;
    game.engine = other(game.person);
    game.toMove = $("first").value;
    game.level = levelEl.value;
    game.board = ".........";
    game.started = true;
    game.over = false;
    game.result = null;
    game.lines = [];
    game.stage = "idle";
    keepFocusOnBoard();
    if (game.toMove === game.engine) {
      run(engineTurn);
    } else {
      yourTurn();
    }
  }

  // A level changed during a game applies from the engine's next move. If the engine is already
  // choosing one, that request is aborted and asked again at the new level.
  function changeLevel() {
    const name = levelName(levelEl.value);
    if (!game.started || game.over) {
      if (game.started) noteLevel(`Level ${name} applies from the next game.`);
      return;
    }
    game.level = levelEl.value;
    if (game.stage === "thinking") {
      noteLevel(`Level changed to ${name}: the engine is choosing its move again at this level.`);
      run(engineTurn);
    } else if (game.stage === "checking") {
      noteLevel(`Level changed to ${name}: it applies to the engine's coming move.`);
      run(afterYourMove);
    } else {
      noteLevel(`Level changed to ${name}: it applies from the engine's next move.`);
    }
  }

  function describe(move) {
    if (move.outcome === "draw") return "draw";
    return `${move.outcome} ${move.plies_to_end}`;
  }

  function hint() {
    if (!game.started || game.over || game.stage !== "idle" || game.toMove !== game.person) return;
    clearHints();
    run(async (ticket) => {
      let analysis;
      try {
        analysis = await call("/v1/analysis", { board: game.board, player: game.person }, ticket);
      } catch (error) {
        if (!(error instanceof Superseded)) showError(error.message);
        return;
      }
      const best = new Set(analysis.best_moves);
      for (const move of analysis.moves) {
        const cell = cells[move.position];
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
        ` with perfect play; best cells: ${analysis.best_moves.map((c) => c + 1).join(", ")}.`);
      showError("");
    });
  }

  cells.forEach((cell, index) => cell.addEventListener("click", () => play(index)));
  $("settings").addEventListener("submit", (event) => {
    event.preventDefault();
    newGame();
  });
  levelEl.addEventListener("change", changeLevel);
  $("hint").addEventListener("click", hint);
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLSelectElement || event.target instanceof HTMLInputElement) return;
    if (event.ctrlKey || event.altKey || event.metaKey) return;
    if (event.key >= "1" && event.key <= "9" && event.key.length === 1) {
      play(Number(event.key) - 1);
    } else if (event.key === "n" || event.key === "N") {
      newGame();
    } else if (event.key === "h" || event.key === "H") {
      hint();
    }
  });

  render();
})();
