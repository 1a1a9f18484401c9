// Tic-tac-toe against the engine: plain JavaScript, no build step, no external assets.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const cells = Array.from(document.querySelectorAll(".cell"));
  const statusEl = $("status");
  const errorEl = $("error");
  const levelEl = $("level");
  const reasonsEl = $("reasons");
  const engineMoveEl = $("engine-move");

  const game = {
    board: ".........",
    person: "X",
    engine: "O",
    toMove: "X",
    over: true,
    busy: false,
    level: "perfect",
  };

  function other(mark) {
    return mark === "X" ? "O" : "X";
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

  function showEngineMove(move) {
    engineMoveEl.textContent = move ? `The engine played cell ${move.position + 1}: ${move.reason}` : "";
    engineMoveEl.hidden = !move;
  }

  function render(lines) {
    const winning = new Set((lines || []).flat());
    cells.forEach((cell, index) => {
      const mark = game.board[index];
      cell.textContent = mark === "." ? "" : mark;
      cell.classList.toggle("x", mark === "X");
      cell.classList.toggle("o", mark === "O");
      cell.classList.toggle("winning", winning.has(index));
      cell.disabled = game.over || game.busy || mark !== "." || game.toMove !== game.person;
      const state = mark === "." ? "empty" : mark;
      cell.setAttribute("aria-label", `cell ${index + 1}, ${state}`);
    });
    $("hint").disabled = game.over || game.busy || game.toMove !== game.person;
  }

  function setStatus(text) {
    statusEl.textContent = text;
  }

  function showError(text) {
    errorEl.textContent = text;
    errorEl.hidden = !text;
  }

  async function call(path, body) {
    let response;
    try {
      response = await fetch(path, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify(body),
      });
    } catch (error) {
      throw new Error("Cannot reach the service. Check the connection and press New game to try again.");
    }
    let data = null;
    try {
      data = await response.json();
    } catch (error) {
      data = null;
    }
    if (!response.ok) {
      const detail = data && data.detail ? data.detail : `HTTP ${response.status}`;
      throw new Error(`The service answered with an error: ${detail}`);
    }
    return data;
  }

  // The game is over when the service says so: its analysis gives the status, winner and lines.
  async function finish(status) {
    if (status === "in_progress") return false;
    const result = await call("/v1/analysis", { board: game.board });
    game.over = true;
    let text = "Draw.";
    if (result.winner === game.person) text = `You win with ${game.person}!`;
    else if (result.winner) text = `The engine wins with ${game.engine}.`;
    const lines = result.winning_lines.map((line) => line.map((cell) => cell + 1).join("-")).join(", ");
    setStatus(lines ? `${text} Winning line: ${lines}.` : text);
    render(result.winning_lines);
    return true;
  }

  async function engineMove() {
    game.busy = true;
    render();
    setStatus("The engine is thinking…");
    const request = { board: game.board, player: game.engine, level: game.level };
    try {
      const move = await call("/v1/best-move", request);
      showEngineMove(move);
      game.board = move.board_after;
      game.toMove = game.person;
      showError("");
      game.busy = false;
      if (!(await finish(move.status_after))) {
        setStatus(`Your turn: you are ${game.person}.`);
        render();
      }
    } catch (error) {
      stop(error);
    }
  }

  function stop(error) {
    game.busy = false;
    game.over = true;
    render();
    setStatus("Game stopped.");
    showError(error.message);
  }

  async function play(index) {
    if (game.over || game.busy || game.toMove !== game.person || game.board[index] !== ".") return;
    clearHints();
    game.board = game.board.slice(0, index) + game.person + game.board.slice(index + 1);
    game.toMove = game.engine;
    game.busy = true;
    render();
    setStatus("The engine is thinking…");
    let status;
    try {
      // The service, not the page, knows the rules: it says whether this move ended the game.
      status = (await call("/v1/analysis", { board: game.board, player: game.engine })).status;
    } catch (error) {
      stop(error);
      return;
    }
    game.busy = false;
    if (!(await finish(status))) await engineMove();
  }

  async function newGame() {
    clearHints();
    showError("");
    game.person = $("side").value;
    game.engine = other(game.person);
    game.toMove = $("first").value;
    game.level = levelEl.value;
    showEngineMove(null);
    game.board = ".........";
    game.over = false;
    game.busy = false;
    render();
    if (game.toMove === game.engine) {
      await engineMove();
    } else {
      setStatus(`Your turn: you are ${game.person}.`);
      render();
      cells[0].focus();
    }
  }

  function describe(move) {
    if (move.outcome === "draw") return "draw";
    return `${move.outcome} ${move.plies_to_end}`;
  }

  async function hint() {
    if (game.over || game.busy || game.toMove !== game.person) return;
    clearHints();
    try {
      const analysis = await call("/v1/analysis", { board: game.board, player: game.person });
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
    } catch (error) {
      showError(error.message);
    }
  }

  cells.forEach((cell, index) => cell.addEventListener("click", () => play(index)));
  $("settings").addEventListener("submit", (event) => {
    event.preventDefault();
    newGame();
  });
  $("hint").addEventListener("click", hint);
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLSelectElement || event.target instanceof HTMLInputElement) return;
    if (event.key >= "1" && event.key <= "9") {
      play(Number(event.key) - 1);
    } else if (event.key === "n" || event.key === "N") {
      newGame();
    } else if (event.key === "h" || event.key === "H") {
      hint();
    }
  });

  render();
})();
