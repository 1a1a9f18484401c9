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
  const variantEl = $("variant");

  // --- variants: the rules the service plays by; the page only draws their boards ------------------

  // Each variant's rules in one sentence, as GET /v1/variants gives them.
  const RULES = {
    standard: "Each side places its own mark; three in a row wins.",
    misere: "Each side places its own mark; the side that makes three in a row loses.",
    wild: "Each move places X or O, as the side to move chooses; the side that makes three in a row of either mark wins.",
    notakto: "Both sides place X on a board without three in a row; the side that makes three in a row loses.",
    "notakto-2": "Both sides place X on a board without three in a row; a board with three in a row is dead, and the side that makes the last line loses.",
    "notakto-3": "Both sides place X on a board without three in a row; a board with three in a row is dead, and the side that makes the last line loses.",
    "4x4": "Each side places its own mark on a 4 × 4 board; four in a row wins.",
    "4x4-3": "Each side places its own mark on a 4 × 4 board; three in a row wins.",
  };

  // Notakto's boards, as the service's explanations name them.
  const BOARD_NAMES = { 2: ["left", "right"], 3: ["left", "middle", "right"] };

  // The lines of a 3 × 3 board, which make a Notakto board dead.
  const LINES = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

  function variantOf(option) {
    return {
      id: option.value,
      name: option.textContent.trim(),
      rows: Number(option.dataset.rows),
      columns: Number(option.dataset.columns),
      boards: Number(option.dataset.boards),
      marks: option.dataset.marks, // "own", "either" (wild) or "x_only" (Notakto)
      misere: option.dataset.misere === "true",
    };
  }

  function chosenVariant() {
    return variantOf(variantEl.selectedOptions[0]);
  }

  // In wild and Notakto the sides are "first" and "second"; elsewhere they are the marks X and O.
  function bySides(variant) {
    return variant.marks !== "own";
  }

  function cellCount(variant) {
    return variant.rows * variant.columns * variant.boards;
  }

  // The body field that names the variant, sent with every request of the game.
  function variantField() {
    return { variant: game.variant.id };
  }

  const game = {
    variant: variantOf(variantEl.options[0]),
    board: ".........",
    person: "X", // the person's side: a mark, or "first" or "second" in wild and Notakto
    engine: "O",
    first: "X", // who played the game's first move
    toMove: "X",
    // The moves played, in order, from the empty board, as a review takes them: cells, and in
    // wild {position, mark}, the cell and the mark placed.
    moves: [],
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
    constructor(message, status, fields = []) {
      super(message);
      this.status = status; // the HTTP status, or 0 when the service could not be reached
      this.fields = fields; // the request's fields a 422 names, such as "body.rating"
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
      const errors = data && Array.isArray(data.errors) ? data.errors : [];
      const fields = errors.map((e) => (Array.isArray(e.loc) ? e.loc.join(".") : ""));
      throw new ServiceError(`The service answered with an error: ${detail}`, response.status, fields);
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

  // A cell of the game's board (or of another board of `variant`) in words: its number from 1, and
  // on several boards, which board.
  function cellName(index, variant = game.variant) {
    if (variant.boards === 1) return `cell ${index + 1}`;
    const size = variant.rows * variant.columns;
    return `cell ${(index % size) + 1} of the ${BOARD_NAMES[variant.boards][Math.floor(index / size)]} board`;
  }

  function cellNames(cellsOf) {
    return game.variant.boards === 1 ? cellList(cellsOf) : cellsOf.map((cell) => cellName(cell)).join(", ");
  }

  // A line as the status says it: its cells, and on several boards, its board.
  function lineName(line) {
    const variant = game.variant;
    const size = variant.rows * variant.columns;
    const cells = line.map((cell) => (cell % size) + 1).join("-");
    if (variant.boards === 1) return cells;
    return `${cells} of the ${BOARD_NAMES[variant.boards][Math.floor(line[0] / size)]} board`;
  }

  // Notakto's lines on the board now, each making its board dead. The service still judges every
  // move and says when the game is over; the page only draws the dead boards.
  function notaktoLines(variant = game.variant, cellsOf = game.board) {
    if (variant.marks !== "x_only") return [];
    const found = [];
    for (let b = 0; b < variant.boards; b += 1) {
      for (const line of LINES) {
        const cells = line.map((cell) => 9 * b + cell);
        if (cells.every((cell) => cellsOf[cell] === "X")) found.push(cells);
      }
    }
    return found;
  }

  function deadBoards(variant = game.variant, cellsOf = game.board) {
    return new Set(notaktoLines(variant, cellsOf).map((line) => Math.floor(line[0] / 9)));
  }

  // The calibrated players and their ratings on the slider's scale, weakest first, as its marks give
  // them: the standard game's in the page's markup, then the chosen variant's (see showScale).
  let calibrated = Array.from($("rating-marks").options).map((o) => ({ name: o.label, rating: Number(o.value) }));

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

  // The level a side of a review played like, with its rating where the variant is calibrated.
  function playedLike(side) {
    if (side.level === null) return "no move";
    return side.rating === null ? side.level : `${side.level} (≈ ${side.rating})`;
  }

  // --- the board as a grid: one tab stop, arrow keys, Home and End --------------------------------

  // The cells are in the order they are drawn, row by row across every board (data-rows and
  // data-across give the shape); each one's data-cell is its index in the board string.
  function grid(element, onPlay) {
    let cells = [];
    let active = 0; // where the one tab stop is, in the order drawn

    function load() {
      cells = Array.from(element.querySelectorAll(".cell"));
      active = 0;
    }

    function setPlace(place, focus) {
      active = place;
      cells.forEach((cell, i) => cell.setAttribute("tabindex", i === place ? "0" : "-1"));
      if (focus) cells[place].focus();
    }

    function placeOf(index) {
      return cells.findIndex((cell) => Number(cell.dataset.cell) === index);
    }

    element.addEventListener("focusin", (event) => {
      const place = cells.indexOf(event.target);
      if (place >= 0 && place !== active) setPlace(place, false);
    });

    element.addEventListener("keydown", (event) => {
      const place = cells.indexOf(event.target);
      if (place < 0 || event.altKey || event.metaKey) return;
      const across = Number(element.dataset.across);
      const rows = Number(element.dataset.rows);
      const row = Math.floor(place / across);
      const column = place % across;
      let next = null;
      if (event.key === "ArrowLeft") next = row * across + Math.max(column - 1, 0);
      else if (event.key === "ArrowRight") next = row * across + Math.min(column + 1, across - 1);
      else if (event.key === "ArrowUp") next = Math.max(row - 1, 0) * across + column;
      else if (event.key === "ArrowDown") next = Math.min(row + 1, rows - 1) * across + column;
      else if (event.key === "Home") next = event.ctrlKey ? 0 : row * across;
      else if (event.key === "End") next = event.ctrlKey ? cells.length - 1 : row * across + across - 1;
      if (next === null) return;
      event.preventDefault();
      setPlace(next, true);
    });

    element.addEventListener("click", (event) => {
      const cell = event.target instanceof Element ? event.target.closest(".cell") : null;
      if (cell && element.contains(cell)) onPlay(Number(cell.dataset.cell));
    });

    load();
    return {
      element,
      get cells() {
        return cells;
      },
      load,
      cell(index) {
        return cells[placeOf(index)];
      },
      setActive(index, focus) {
        setPlace(placeOf(index), focus);
      },
      focus() {
        setPlace(active, true);
      },
    };
  }

  // Draws a board of a variant (the game's, or the puzzles' as `shown`): its rows, each across every
  // board, the boards side by side.
  function buildBoard(variant, shown = board) {
    const size = variant.rows * variant.columns;
    const columns = Array.from({ length: variant.boards }, () => `repeat(${variant.columns}, 1fr)`);
    const rows = [];
    for (let r = 0; r < variant.rows; r += 1) {
      const row = element("div", "row");
      row.setAttribute("role", "row");
      for (let b = 0; b < variant.boards; b += 1) {
        for (let c = 0; c < variant.columns; c += 1) {
          const holder = element("div", "gridcell");
          holder.setAttribute("role", "gridcell");
          // A narrow empty column of the row's grid parts one board from the next.
          if (c === 0 && b > 0) holder.style.gridColumnStart = String(b * (variant.columns + 1) + 1);
          const cell = element("button", "cell");
          cell.type = "button";
          cell.dataset.cell = String(b * size + r * variant.columns + c);
          cell.dataset.grid = String(b);
          holder.appendChild(cell);
          row.appendChild(holder);
        }
      }
      rows.push(row);
    }
    const drawn = shown.element;
    drawn.replaceChildren(...rows);
    drawn.dataset.rows = String(variant.rows);
    drawn.dataset.across = String(variant.columns * variant.boards);
    drawn.dataset.boards = String(variant.boards);
    drawn.style.setProperty("--rows", String(variant.rows));
    drawn.style.setProperty("--across", String(variant.columns * variant.boards));
    drawn.style.setProperty("--columns", columns.join(" 0.6rem "));
    shown.load();
    shown.setActive(0, false);
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
    const mark = move && move.mark ? `${move.mark} in ` : ""; // wild: the mark it placed
    engineMoveEl.textContent = move ? `The engine played ${mark}${cellName(move.position)}: ${move.reason}` : "";
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

  function playable(index, dead = deadBoards()) {
    return game.started && !game.over && game.stage === "idle" && game.toMove === game.person &&
      game.board[index] === "." && !dead.has(Math.floor(index / 9));
  }

  // Who made the lines on the board at the end: the winner, or in misère the loser.
  function lineWords() {
    const personMade = (game.result === "person") !== game.variant.misere;
    return {
      tag: personMade ? "your line" : "engine's line",
      said: `${personMade ? "your" : "the engine's"} ${game.variant.misere ? "losing" : "winning"} line`,
    };
  }

  // Notakto: which boards are live and which dead, in words beside the board.
  function showBoardsState(dead) {
    const state = $("boards-state");
    state.hidden = game.variant.marks !== "x_only";
    if (state.hidden) return;
    const names = BOARD_NAMES[game.variant.boards] || ["only"];
    const parts = names.map((name, b) => `${name} board: ${dead.has(b) ? "dead" : "live"}`);
    state.textContent = `${capital(parts.join("; "))}.`;
  }

  function render() {
    const notakto = game.variant.marks === "x_only";
    // Notakto: every line on the board kills its board, whoever made it; elsewhere the final lines.
    const lines = notakto ? notaktoLines() : game.lines;
    const winning = new Set(lines.flat());
    const dead = deadBoards();
    const words = lineWords();
    board.cells.forEach((cell) => {
      const index = Number(cell.dataset.cell);
      const mark = game.board[index];
      const onLine = winning.has(index);
      const onDead = dead.has(Math.floor(index / 9));
      cell.textContent = mark === "." ? "" : mark;
      cell.classList.toggle("x", mark === "X");
      cell.classList.toggle("o", mark === "O");
      cell.classList.toggle("winning", onLine);
      cell.classList.toggle("dead", onDead);
      cell.classList.toggle("won-by-person", onLine && !notakto && game.result === "person");
      cell.classList.toggle("won-by-engine", onLine && !notakto && game.result === "engine");
      tagCell(cell, onLine ? (notakto ? "line" : words.tag) : "");
      // aria-disabled, not disabled: a cell that cannot be played keeps the focus it has.
      cell.setAttribute("aria-disabled", String(!playable(index, dead)));
      const state = mark === "." ? "empty" : mark;
      let said = "";
      if (onLine) said = notakto ? ", on a line: its board is dead" : `, ${words.said}`;
      else if (onDead) said = ", dead board";
      cell.setAttribute("aria-label", `${cellName(index)}, ${state}${said}`);
    });
    showBoardsState(dead);
    board.element.setAttribute("aria-busy", String(game.stage === "thinking" || game.stage === "checking"));
    statusEl.dataset.result = game.result || "";
    $("hint").disabled = !game.started || game.over || game.stage !== "idle" || game.toMove !== game.person;
  }

  // --- the engine's strength: a level or a rating ---------------------------------------------------
  //
  // A level plays in every variant. A rating only in the variants GET /v1/variants marks `rated`:
  // the page asks which when it loads, and until it knows, or where a variant is not rated, "By
  // rating" is off and #rating-note says why. Each rated variant has a scale of its own: the
  // slider runs from 0 to its `rating_max`, and its marks are its levels' ratings (random is 0),
  // the scale the service reads that variant's `rating` on.

  const ratings = {
    state: "loading", // "known" once GET /v1/variants has answered, "failed" if it could not
    rated: [], // the ids of the rated variants, in the service's order
    scales: new Map(), // each rated variant's scale: { max, marks: [{ name, rating }], weakest first }
    refused: new Set(), // rated variants whose rating the service nevertheless refused (a 422)
  };

  // A variant as the sentences about ratings name it: its name in the picker.
  function ratingName(id) {
    const option = Array.from(variantEl.options).find((o) => o.value === id);
    return option ? option.textContent.trim() : id;
  }

  function joined(names) {
    if (names.length < 2) return names.join("");
    return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
  }

  // Why a rating cannot be chosen in `variant`, or "" where it can.
  function ratingUnavailable(variant) {
    if (ratings.state === "loading") return "Checking which variants ratings are calibrated for…";
    if (ratings.state === "failed") {
      return "Ratings are off: the service's list of variants could not be loaded. Levels play in every variant.";
    }
    if (ratings.refused.has(variant.id)) {
      return `Ratings are off in ${ratingName(variant.id)}: the service did not accept one there.`;
    }
    if (ratings.rated.includes(variant.id)) return "";
    const where = ratings.rated.length ?
      `calibrated for ${joined(ratings.rated.map(ratingName))} only` : "not calibrated for any variant yet";
    return `Ratings are off in ${ratingName(variant.id)}: ratings are ${where}.`;
  }

  function chosenStrength() {
    return byRatingEl.checked ? { rating: Number(ratingEl.value) } : { level: levelEl.value };
  }

  // The slider on the scale of a rated `variant`: its range, its marks and the names said beside
  // its value. A value above the variant's top comes down to it: the value it had then, else null.
  function showScale(variant) {
    const scale = ratings.scales.get(variant.id);
    if (!scale) return null;
    const was = Number(ratingEl.value);
    const marks = scale.marks.map((player) => {
      const option = document.createElement("option");
      option.value = String(player.rating);
      option.label = player.name;
      return option;
    });
    $("rating-marks").replaceChildren(...marks);
    calibrated = scale.marks;
    ratingEl.max = String(scale.max);
    ratingEl.value = String(Math.min(was, scale.max));
    showRating();
    return was > scale.max ? was : null;
  }

  // "By rating" on or off for the variant, with the reason beside it where it is off, and the
  // slider on the variant's own scale where it is on (a rating chosen above that scale's top comes
  // down to it, and the page says so). Off while it was chosen, the engine falls back to the level:
  // true when it did.
  function showRatingChoice() {
    const why = ratingUnavailable(game.variant);
    const noteEl = $("rating-note");
    noteEl.textContent = why;
    noteEl.hidden = why === "";
    byRatingEl.disabled = why !== "";
    const fellBack = why !== "" && byRatingEl.checked;
    if (fellBack) $("by-level").checked = true;
    const clampedFrom = why === "" ? showScale(game.variant) : null;
    if (clampedFrom !== null && byRatingEl.checked) {
      noteLevel(`Ratings in ${ratingName(game.variant.id)} go up to ${ratingEl.max} (perfect play): ` +
        `the rating is now ${ratingEl.max} instead of ${clampedFrom}.`);
    }
    showStrengthChoice();
    return fellBack;
  }

  // What the page says when a variant is chosen: nothing where a rating can be chosen, the reason
  // where it cannot, and that the engine plays by level if a rating was chosen.
  function sayRatingChoice(wasAvailable, fellBack) {
    const why = ratingUnavailable(game.variant);
    if (why === "" || (!wasAvailable && !fellBack)) return;
    noteLevel(fellBack ? `${why} The engine plays by level instead: ${levelName(levelEl.value)}.` : why);
  }

  // A variant's scale as GET /v1/variants gives it: 0 (random) to its rating_max, its levels'
  // ratings between, weakest first; null where it has none.
  function scaleOf(listed) {
    const levels = Object.entries(listed.levels || {}).map(([name, level]) => ({ name, rating: level.rating }));
    if (!Number.isFinite(listed.rating_max) || !levels.length || !levels.every((l) => Number.isFinite(l.rating))) {
      return null;
    }
    return { max: listed.rating_max, marks: [{ name: "random", rating: 0 }, ...levels] };
  }

  // GET /v1/variants, once: which variants are rated and on what scale, and which have puzzles.
  async function loadVariants() {
    try {
      const response = await fetch("/v1/variants", { headers: { Accept: "application/json" } });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const listed = await response.json();
      const rated = listed.variants.filter((v) => v.rated === true && scaleOf(v) !== null);
      ratings.rated = rated.map((v) => v.id);
      ratings.scales = new Map(rated.map((v) => [v.id, scaleOf(v)]));
      ratings.state = "known";
      books.byId = new Map(listed.variants.map((v) => [v.id, bookOf(v)]));
      books.state = "known";
    } catch (error) {
      ratings.state = "failed";
      books.state = "failed";
    }
    showRatingChoice();
    showPuzzleChoice(true);
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
    const sides = bySides(game.variant);
    if (analysis.winner === game.person) {
      text = sides ? `You win, moving ${game.person}!` : `You win with ${game.person}!`;
      game.result = "person";
    } else if (analysis.winner) {
      text = sides ? `The engine wins, moving ${game.engine}.` : `The engine wins with ${game.engine}.`;
      game.result = "engine";
    }
    const lines = game.lines.map(lineName).join(", ");
    let which = "Winning line";
    if (game.variant.marks === "x_only") {
      text += game.result === "person" ? " The engine made the last line." : " You made the last line.";
      which = "Lines";
    } else if (game.variant.misere) {
      which = "Losing line";
    }
    render();
    setStatus(lines ? `${text} ${which}: ${lines}.` : text);
  }

  // The game is over and its result said: the service reviews it move by move.
  async function review(ticket) {
    game.stage = "reviewing";
    $("review-waiting").textContent = "Reviewing the game…";
    let answer;
    try {
      const body = { ...variantField(), moves: game.moves, player: game.first };
      answer = await call("/v1/review", body, ticket);
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
    const marks = game.variant.marks;
    let text = `Your turn: you are ${game.person}.`;
    if (marks === "either") text = `Your turn: you move ${game.person}; place X or O (now ${chosenMark()}).`;
    if (marks === "x_only") text = `Your turn: you move ${game.person}; place an X on a live board.`;
    setStatus(text);
  }

  // A move as a review takes it: in wild the cell and the mark placed, elsewhere the cell.
  function moveOf(position, mark) {
    return game.variant.marks === "either" ? { position, mark } : position;
  }

  // The mark the person's next move places: their own, the one chosen in wild, or X in Notakto.
  function chosenMark() {
    if (game.variant.marks === "x_only") return "X";
    if (game.variant.marks === "either") return document.querySelector("input[name=mark]:checked").value;
    return game.person;
  }

  // The engine's turn: its move at the strength chosen now, then the end of the game or your turn.
  async function engineTurn(ticket) {
    game.stage = "thinking";
    render();
    setStatus("The engine is thinking…");
    const request = { ...variantField(), board: game.board, player: game.engine, ...game.strength };
    let move;
    try {
      move = await call("/v1/best-move", request, ticket);
    } catch (error) {
      // A rating the service refuses in this variant: ratings are off here, the level plays.
      const refused = error instanceof ServiceError && error.status === 422 && error.fields.includes("body.rating");
      if (!refused || game.strength.rating === undefined) throw error;
      ratings.refused.add(game.variant.id);
      showRatingChoice();
      game.strength = chosenStrength();
      sayRatingChoice(true, true);
      await engineTurn(ticket);
      return;
    }
    game.board = move.board_after;
    game.moves.push(moveOf(move.position, move.mark));
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
    await finishAndReview(await call("/v1/analysis", { ...variantField(), board: game.board }, ticket), ticket);
  }

  // After your move: the service, not the page, knows the rules, and says whether it ended the game.
  async function afterYourMove(ticket) {
    game.stage = "checking";
    render();
    setStatus("The engine is thinking…");
    const body = { ...variantField(), board: game.board, player: game.engine };
    const analysis = await call("/v1/analysis", body, ticket);
    if (analysis.status !== "in_progress") {
      await finishAndReview(analysis, ticket);
      return;
    }
    await engineTurn(ticket);
  }

  function play(index) {
    if (!(index >= 0 && index < game.board.length) || !playable(index)) return;
    clearHints();
    board.setActive(index, true); // the focus stays on the board, on the cell just played
    const mark = chosenMark();
    game.board = game.board.slice(0, index) + mark + game.board.slice(index + 1);
    game.moves.push(moveOf(index, mark));
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
    if (game.variant.id !== chosenVariant().id) showVariant();
    if (bySides(game.variant)) {
      game.person = $("order").value;
      game.engine = game.person === "first" ? "second" : "first";
      game.first = "first";
    } else {
      game.person = $("side").value;
      game.engine = other(game.person);
      game.first = $("first").value;
    }
    game.toMove = game.first;
    game.strength = chosenStrength();
    game.board = ".".repeat(cellCount(game.variant));
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
        const body = { ...variantField(), board: game.board, player: game.person };
        analysis = await call("/v1/analysis", body, ticket);
      } catch (error) {
        if (!(error instanceof Superseded)) showError(error.message);
        return;
      }
      const best = new Set(analysis.best_moves);
      // In wild a cell has a move per mark, best first: the cell shows its best, its label both.
      const said = new Map();
      for (const move of analysis.moves) {
        const cell = board.cell(move.position);
        const mark = move.mark ? `${move.mark} ` : "";
        const isBest = best.has(move.position) && move.score === analysis.score;
        if (!said.has(move.position)) {
          const label = document.createElement("span");
          label.className = "hint";
          label.textContent = `${mark}${describe(move)}`;
          cell.appendChild(label);
          cell.classList.add(`hint-${move.outcome}`);
          if (isBest) cell.classList.add("hint-best");
          cell.title = move.reason;
          said.set(move.position, []);
        }
        said.get(move.position).push(move.mark ? `${move.mark}: ${describe(move)}` : describe(move));
        cell.setAttribute("aria-label", `${cellName(move.position)}, empty, ${said.get(move.position).join("; ")}`);
        const item = document.createElement("li");
        item.dataset.cell = String(move.position);
        item.className = `reason-${move.outcome}`;
        item.textContent = `${capital(cellName(move.position))}${move.mark ? `, ${move.mark}` : ""}` +
          `${isBest ? " (best)" : ""}: ${move.reason}`;
        reasonsEl.appendChild(item);
      }
      reasonsEl.hidden = false;
      setStatus(`Hint: you can ${analysis.outcome === "loss" ? "at best lose" : analysis.outcome}` +
        ` with perfect play; best cells: ${cellNames(analysis.best_moves)}.`);
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

  // A side of the game: "you" or "the engine", and as the variant names it, by its mark (X, O) or,
  // in wild and Notakto, as the side moving first or second.
  function who(side) {
    return side === game.person ? "you" : "the engine";
  }

  function sideName(side) {
    return bySides(game.variant) ? `moving ${side}` : side;
  }

  // A move of a review (or its better move) as the page names it: its cell, and in wild the mark.
  function moveName(move) {
    return move.mark ? `${move.mark} in ${cellName(move.position)}` : cellName(move.position);
  }

  const PLURALS = { inaccuracy: "inaccuracies" };

  function counted(count, word) {
    return `${count} ${count === 1 ? word : PLURALS[word] || `${word}s`}`;
  }

  function sideItem(mark, side) {
    const item = element("li", "side");
    item.dataset.side = mark;
    const verb = side.level === null ? "made" : "played like:";
    item.append(`${capital(who(mark))} (${sideName(mark)}) ${verb} `, element("strong", "", playedLike(side)));
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
  // It has the game's shape: 3 × 3, 4 × 4, or Notakto's boards side by side.
  function miniBoard(ply) {
    const variant = game.variant;
    const size = variant.rows * variant.columns;
    const figure = element("div", "mini-board");
    figure.setAttribute("role", "img");
    const marks = (mark) => Array.from(ply.board_before).flatMap((m, i) => (m === mark ? [i] : []));
    const on = (mark) => (marks(mark).length ? `${mark} on ${cellNames(marks(mark))}` : `no ${mark}`);
    const before = variant.marks === "x_only" ? on("X") : `${on("X")}; ${on("O")}`;
    figure.setAttribute("aria-label",
      `Before move ${ply.ply}: ${before}. Played: ${moveName(ply)}, dashed.` +
      ` Better: ${moveName(ply.better)}, marked with a star.`);
    const columns = Array.from({ length: variant.boards }, () => `repeat(${variant.columns}, var(--mini-cell))`);
    figure.style.setProperty("--mini-columns", columns.join(" 0.3rem "));
    figure.style.setProperty("--mini-rows", String(variant.rows));
    if (variant.boards > 1) figure.classList.add("several");
    for (let r = 0; r < variant.rows; r += 1) {
      for (let b = 0; b < variant.boards; b += 1) {
        for (let c = 0; c < variant.columns; c += 1) {
          const index = b * size + r * variant.columns + c;
          const mark = ply.board_before[index];
          const cell = element("span", "mini-cell", mark === "." ? "" : mark);
          // A narrow empty column parts one board from the next, as on the game's board.
          if (c === 0 && b > 0) cell.style.gridColumnStart = String(b * (variant.columns + 1) + 1);
          if (index === ply.position) {
            cell.classList.add("played");
            cell.textContent = ply.board_after[index]; // the mark the move placed
          }
          if (index === ply.better.position) {
            cell.classList.add("better");
            cell.textContent = "★";
          }
          cell.dataset.cell = String(index);
          figure.appendChild(cell);
        }
      }
    }
    return figure;
  }

  function plyItem(ply) {
    const item = element("li", `ply judgement-${ply.judgement}`);
    item.dataset.ply = String(ply.ply);
    item.dataset.judgement = ply.judgement;
    const line = element("p", "ply-line");
    line.append(`Move ${ply.ply}, ${who(ply.player)} (${sideName(ply.player)}): ${moveName(ply)} — `,
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
        element("p", "better-text", `Better: ${moveName(ply.better)}. ${ply.better.reason}`),
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
  //
  // Puzzles are posed in the chosen variant wherever GET /v1/variants lists a book for it (`puzzles`
  // above 0): its board (Notakto's side by side), its themes (its `tactics` but those of places), and
  // ratings on its own scale, 0 to its `rating_max`. In wild the answer is a cell and a mark, as a
  // move of wild play is. Until the list is known, or where a variant has no book, puzzles are off
  // and #puzzle-note says why.

  const puzzleStatusEl = $("puzzle-status");
  const puzzleErrorEl = $("puzzle-error");
  const puzzleButton = $("next-puzzle");
  const puzzle = {
    current: null, // the puzzle on the board, once its answer is in
    answer: null, // the cell the person chose, once they have
    mark: null, // the mark their answer placed
    variant: null, // the variant the puzzle board is drawn for
  };
  const puzzleChannel = new Channel(puzzleButton, (error) => noPuzzle(error.message));
  const puzzleBoard = grid($("puzzle-board"), answerPuzzle);

  // The tags of where a move is, which are no puzzle's themes.
  const PLACES = new Set(["center", "corner", "edge", "opposite_corner", "opposite"]);

  const books = {
    state: "loading", // "known" once GET /v1/variants has answered, "failed" if it could not
    byId: new Map(), // each variant's book: { puzzles, themes, max, marks: [{ name, rating }] }
  };

  // A variant's book as GET /v1/variants gives it: how many puzzles, its themes, its rating scale.
  function bookOf(listed) {
    const levels = Object.entries(listed.levels || {})
      .filter(([, level]) => Number.isFinite(level.rating))
      .map(([name, level]) => ({ name, rating: level.rating }));
    return {
      puzzles: Number(listed.puzzles) || 0,
      themes: (listed.tactics || []).filter((tag) => !PLACES.has(tag)),
      max: Number.isFinite(listed.rating_max) ? listed.rating_max : Math.max(0, ...levels.map((l) => l.rating)),
      marks: levels,
    };
  }

  // Why there are no puzzles in `variant`, or "" where there are.
  function puzzlesUnavailable(variant) {
    if (books.state === "loading") return "Checking which variants have puzzles…";
    if (books.state === "failed") return "Puzzles are off: the service's list of variants could not be loaded.";
    const book = books.byId.get(variant.id);
    if (!book || book.puzzles <= 0) return `There are no puzzles of ${ratingName(variant.id)} yet.`;
    return "";
  }

  // No puzzle to show: the board goes, and the reason is said.
  function noPuzzle(message) {
    $("puzzle-board").hidden = true;
    $("puzzle-board").removeAttribute("aria-busy");
    puzzleStatusEl.textContent = "";
    puzzleErrorEl.textContent = message;
  }

  // The mark a puzzle's answer places: the one chosen in wild, X in Notakto, else the side's own.
  function puzzleMark(shown) {
    if (puzzle.variant.marks === "x_only") return "X";
    if (puzzle.variant.marks === "either") return document.querySelector("input[name=puzzle-mark]:checked").value;
    return shown.player;
  }

  // A move of a puzzle in words: its cell (and board), and in wild the mark placed.
  function puzzleMove(index, mark) {
    const where = cellName(index, puzzle.variant);
    return puzzle.variant.marks === "either" ? `${mark} in ${where}` : where;
  }

  function renderPuzzle() {
    const shown = puzzle.current;
    const variant = puzzle.variant;
    const solution = shown ? shown.solution : -1;
    const wanted = shown ? shown.mark || null : null; // wild: the mark of the solution
    const dead = shown ? deadBoards(variant, shown.board) : new Set();
    const answered = shown && puzzle.answer !== null;
    const right = answered && puzzle.answer === solution && (wanted === null || puzzle.mark === wanted);
    puzzleBoard.cells.forEach((cell) => {
      const index = Number(cell.dataset.cell);
      let mark = shown ? shown.board[index] : ".";
      let said = "";
      let tag = "";
      if (answered && index === puzzle.answer) mark = puzzle.mark;
      cell.classList.remove("answer-right", "answer-wrong", "solution");
      if (answered && index === puzzle.answer) {
        cell.classList.add(right ? "answer-right" : "answer-wrong");
        said = right ? ", your answer, right" : ", your answer, wrong";
        if (!right && index === solution) said += `: the solution is ${wanted} here`;
        tag = right ? "right" : "wrong";
      } else if (answered && index === solution) {
        cell.classList.add("solution");
        said = wanted ? `, the solution: ${wanted}` : ", the solution";
        tag = wanted ? `solution: ${wanted}` : "solution";
      }
      const onDead = dead.has(Math.floor(index / 9));
      if (onDead && !said) said = ", dead board";
      cell.textContent = mark === "." ? "" : mark;
      cell.classList.toggle("x", mark === "X");
      cell.classList.toggle("o", mark === "O");
      cell.classList.toggle("dead", onDead);
      tagCell(cell, tag);
      const open = shown && !answered && shown.board[index] === "." && !onDead;
      cell.setAttribute("aria-disabled", String(!open));
      cell.setAttribute("aria-label", `${cellName(index, variant)}, ${mark === "." ? "empty" : mark}${said}`);
    });
    puzzleStatusEl.dataset.result = !answered ? "" : (right ? "right" : "wrong");
  }

  // The themes (the solution's tactics) in words, and as the theme selector offers them.
  const THEMES = {
    win: "win",
    block: "block",
    fork: "fork",
    threat: "threat",
    block_fork: "stop a fork",
    lose: "lose",
    squeeze: "squeeze",
    avoid: "avoid a line",
    gift: "gift a line",
    live: "keep a board live",
    kill: "kill a board",
    hand_over: "hand over the last board",
  };
  const THEME_LABELS = {
    win: "Win: complete a line",
    block: "Block a line",
    fork: "Fork: two threats",
    threat: "Threat",
    block_fork: "Stop a fork",
    lose: "Lose: complete the last line",
    squeeze: "Squeeze: leave only losing moves",
    avoid: "Avoid a line",
    gift: "Gift: leave a line to complete",
    live: "Keep a board live",
    kill: "Kill a board",
    hand_over: "Hand over the last live board",
  };

  function themeName(value) {
    return THEMES[value] || value.replace(/_/g, " ");
  }

  // The filters as the form has them, or the field that is wrong and why.
  function puzzleFilters() {
    const top = Number($("puzzle-max").max);
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

  // The puzzles' controls for the chosen variant: on where it has a book, with its themes, its
  // rating scale and its board; off elsewhere, with the reason. A puzzle of another variant goes.
  function showPuzzleChoice(loaded = false) {
    const variant = game.variant;
    const why = puzzlesUnavailable(variant);
    $("puzzle-note").textContent = why;
    $("puzzle-note").hidden = why === "";
    for (const id of ["puzzle-theme", "puzzle-min", "puzzle-max", "next-puzzle"]) $(id).disabled = why !== "";
    $("puzzle-mark-choice").hidden = why !== "" || variant.marks !== "either";
    if (puzzle.variant === null || puzzle.variant.id !== variant.id) {
      puzzleChannel.begin(); // a puzzle of the variant before is no longer wanted
      puzzle.current = null;
      puzzle.answer = null;
      if (puzzle.variant !== null) noPuzzle("");
      puzzle.variant = variant;
      buildBoard(variant, puzzleBoard);
      renderPuzzle();
    } else if (!loaded) {
      return;
    }
    const book = books.byId.get(variant.id);
    if (why !== "" || !book) return;
    // The theme selector: the variant's themes, the one chosen kept where the variant has it too.
    const theme = $("puzzle-theme");
    const chosen = theme.value;
    const any = new Option("Any", "");
    theme.replaceChildren(any, ...book.themes.map((tag) => new Option(THEME_LABELS[tag] || capital(themeName(tag)), tag)));
    theme.value = book.themes.includes(chosen) ? chosen : "";
    // The ratings: 0 to the variant's top; a bound at the old top (or above the new) is the new top.
    const low = $("puzzle-min");
    const high = $("puzzle-max");
    const oldTop = Number(high.max);
    for (const field of [low, high]) field.max = String(book.max);
    const highValue = Number(high.value);
    if (high.value.trim() === "" || highValue === oldTop || highValue > book.max) high.value = String(book.max);
    if (Number(low.value) > book.max) low.value = "0";
    const scale = [{ name: "even a random player", rating: 0 }, ...book.marks]
      .map((player) => `${player.rating} (${player.name === "perfect" ? "only perfect play" : player.name})`);
    $("puzzle-scale").textContent = `In ${ratingName(variant.id)}, from 0 to ${book.max}: ${joined(scale)}.`;
  }

  function nextPuzzle() {
    if (puzzlesUnavailable(game.variant) !== "") return;
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
    const variant = game.variant;
    const query = new URLSearchParams();
    query.set("variant", variant.id);
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
      puzzle.mark = null;
      puzzleButton.textContent = "Next puzzle";
      $("puzzle-board").hidden = false;
      renderPuzzle();
      const goal = found.outcome === "win" ? "wins" : "holds the draw";
      const who = bySides(variant) ? `you move ${found.player}` : `${found.player} to play`;
      let how = "";
      if (variant.marks === "either") how = " Choose the mark, X or O, then the cell.";
      if (variant.marks === "x_only") how = " Place an X on a live board.";
      puzzleStatusEl.textContent = `Puzzle (rating ${found.rating}): ${who}. ` +
        `Find the only move that ${goal}.${how}`;
      // The board takes the focus, unless the person has gone somewhere else meanwhile.
      const focused = document.activeElement;
      if (!focused || focused === document.body || $("puzzles").contains(focused)) {
        const dead = deadBoards(variant, found.board);
        const first = Array.from(found.board).findIndex((m, i) => m === "." && !dead.has(Math.floor(i / 9)));
        puzzleBoard.setActive(first, true);
      }
    });
  }

  function answerPuzzle(index) {
    const shown = puzzle.current;
    if (!shown || puzzle.answer !== null || !(index >= 0 && index < shown.board.length)) return;
    if (shown.board[index] !== "." || deadBoards(puzzle.variant, shown.board).has(Math.floor(index / 9))) return;
    puzzle.answer = index;
    puzzle.mark = puzzleMark(shown);
    puzzleBoard.setActive(index, true);
    renderPuzzle();
    const themes = shown.themes.length ? ` Themes: ${shown.themes.map(themeName).join(", ")}.` : "";
    const played = puzzleMove(index, puzzle.mark);
    if (index === shown.solution && (!shown.mark || puzzle.mark === shown.mark)) {
      puzzleStatusEl.textContent = `Right: ${played}. ${shown.reason}${themes}`;
    } else {
      puzzleStatusEl.textContent = `Wrong: ${played} is not it. The solution is ` +
        `${puzzleMove(shown.solution, shown.mark)}: ${shown.reason}${themes}`;
    }
  }

  // Wild: the mark a puzzle's answer places, by its radio buttons or the keys X and O.
  function choosePuzzleMark(mark) {
    if (puzzle.variant === null || puzzle.variant.marks !== "either") return;
    $(mark === "X" ? "puzzle-mark-x" : "puzzle-mark-o").checked = true;
  }

  // --- the variant chosen -------------------------------------------------------------------------

  // A variant chosen: its board, drawn empty, and the controls that apply to it. A game in progress
  // stops. Levels play in every variant, a rating only in a rated one, and every variant's games
  // are reviewed. Puzzles are posed in the variant where it has a book: its board, themes and scale.
  function showVariant(announce) {
    const variant = chosenVariant();
    const sides = bySides(variant);
    const ratingWas = !byRatingEl.disabled;
    gameChannel.begin(); // whatever the last game still waits for is no longer wanted
    game.variant = variant;
    game.board = ".".repeat(cellCount(variant));
    game.moves = [];
    game.started = false;
    game.over = true;
    game.result = null;
    game.lines = [];
    game.stage = "idle";
    $("variant-rules").textContent = RULES[variant.id];
    $("side-field").hidden = sides;
    $("first-field").hidden = sides;
    $("order-field").hidden = !sides;
    $("mark-choice").hidden = variant.marks !== "either";
    showPuzzleChoice();
    buildBoard(variant);
    clearHints();
    clearReview();
    showEngineMove(null);
    noteLevel("");
    showError("");
    const fellBack = showRatingChoice();
    render();
    if (announce) {
      setStatus(`${variant.name}: ${RULES[variant.id]} Press New game to start.`);
      sayRatingChoice(ratingWas, fellBack);
    }
  }

  function chooseMark(mark) {
    if (game.variant.marks !== "either") return;
    $(mark === "X" ? "mark-x" : "mark-o").checked = true;
    if (game.started && !game.over && game.stage === "idle" && game.toMove === game.person) yourTurn();
  }

  // --- events --------------------------------------------------------------------------------------

  $("settings").addEventListener("submit", (event) => {
    event.preventDefault();
    newGame();
  });
  variantEl.addEventListener("change", () => showVariant(true));
  for (const radio of document.querySelectorAll("input[name=mark]")) {
    radio.addEventListener("change", () => chooseMark(radio.value));
  }
  for (const radio of document.querySelectorAll("input[name=puzzle-mark]")) {
    radio.addEventListener("change", () => choosePuzzleMark(radio.value));
  }
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
      // Keys 1–9 on one 3 × 3 board, the puzzle's or the game's.
      if (puzzles) {
        if (puzzle.variant && cellCount(puzzle.variant) === 9) answerPuzzle(Number(event.key) - 1);
      } else if (cellCount(game.variant) === 9) play(Number(event.key) - 1);
    } else if (event.key === "x" || event.key === "X" || event.key === "o" || event.key === "O") {
      if (puzzles) choosePuzzleMark(event.key.toUpperCase());
      else chooseMark(event.key.toUpperCase());
    } else if (event.key === "n" || event.key === "N") {
      if (puzzles) nextPuzzle();
      else newGame();
    } else if ((event.key === "h" || event.key === "H") && !puzzles) {
      hint();
    }
  });

  showRatingChoice();
  showRating();
  if (chosenVariant().id === game.variant.id) {
    showPuzzleChoice();
    board.setActive(0, false);
    render();
  } else {
    showVariant(false); // a variant the browser kept from before a reload
  }
  loadVariants();
})();
