// Tic-tac-toe against the engine: plain JavaScript, no build step, no external assets.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);

  // --- the page's words: its language's, from the page itself --------------------------------------
  //
  // The server renders the page in its language and puts the script's own sentences in it as data
  // (#page-words, JSON: service/web/page_words.py): each a template whose {name} placeholders say()
  // fills, a plural message as its forms in the catalogue's order (the language's CLDR plural
  // categories, in CLDR's order), or a family of templates by the id of what they name. Every
  // request to the service names the language, so that its sentences come in it too.

  const PAGE = JSON.parse($("page-words").textContent);
  const LANG = PAGE.lang;
  const WORDS = PAGE.words;
  const PLURAL_ORDER = ["zero", "one", "two", "few", "many", "other"];
  const pluralRules = new Intl.PluralRules(LANG);
  const pluralCategories = PLURAL_ORDER.filter((c) => pluralRules.resolvedOptions().pluralCategories.includes(c));

  // Numbers as the language writes them (66,7 in French), without grouping (ratings, cells, counts).
  const NUMBER = new Intl.NumberFormat(LANG, { maximumFractionDigits: 3, useGrouping: false });

  function fill(template, values = {}) {
    const shown = (value) => (typeof value === "number" ? NUMBER.format(value) : String(value));
    return template.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? shown(values[name]) : whole));
  }

  // The sentence `key` with its placeholders filled.
  function say(key, values) {
    return fill(WORDS[key], values);
  }

  // The sentence `key` in the form for `count` (its placeholder {count}), its other placeholders filled.
  function sayCount(key, count, values = {}) {
    const forms = WORDS[key];
    const form = Math.max(0, Math.min(pluralCategories.indexOf(pluralRules.select(count)), forms.length - 1));
    return fill(forms[form], { ...values, count });
  }

  // The sentence of the family `family` for `id` (a level, a theme, a side...), or `fallback`.
  function named(family, id, values, fallback = id) {
    const template = WORDS[family][id];
    return template === undefined ? fallback : fill(template, values);
  }

  // The sentence `key` as the pieces to append to an element: its text, and the elements that
  // some values are (a level in bold, a judgement styled), where the language puts them.
  function sayParts(key, values) {
    const text = WORDS[key];
    const parts = [];
    let last = 0;
    text.replace(/\{(\w+)\}/g, (whole, name, at) => {
      parts.push(text.slice(last, at), name in values ? values[name] : whole);
      last = at + whole.length;
      return whole;
    });
    parts.push(text.slice(last));
    return parts.map((part) => (part instanceof Node ? part : String(part))).filter((part) => part !== "");
  }

  // A list without a conjunction ("1, 5, 9"), and one with "and" ("A, B and C").
  function list(items) {
    return items.length ? items.reduce((first, next) => say("list", { first, next })) : "";
  }

  function joined(items) {
    if (items.length < 2) return items.join("");
    if (items.length === 2) return say("list-two", { first: items[0], second: items[1] });
    let text = say("list-start", { first: items[0], second: items[1] });
    for (const item of items.slice(2, -1)) text = say("list-middle", { first: text, second: item });
    return say("list-end", { first: text, last: items[items.length - 1] });
  }

  // Sentences one after the other, as one text (those that are empty left out).
  function sentences(...said) {
    const kept = said.filter((text) => text !== "");
    return kept.length ? kept.reduce((first, next) => say("sentences", { first, next })) : "";
  }

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

  // Each variant's rules in one sentence, in the page's language, as GET /v1/variants gives them.
  function rules(variant) {
    return named("rules", variant.id, {}, "");
  }

  // Notakto's boards drawn side by side, from the left: the page names each cell, line and state by
  // the board's place.
  const BOARD_PLACES = { 2: ["left", "right"], 3: ["left", "middle", "right"] };

  function boardPlace(variant, index) {
    return BOARD_PLACES[variant.boards][Math.floor(index / (variant.rows * variant.columns))];
  }

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

  // A path of the service with the page's language in its query, for a GET.
  function inLanguage(path) {
    const url = new URL(path, window.location.href);
    url.searchParams.set("lang", LANG);
    return `${url.pathname}${url.search}`;
  }

  // Asks the service: a POST of `body`, or a GET without one, in the page's language either way.
  async function call(path, body, ticket) {
    const init = { headers: { Accept: "application/json" }, signal: ticket.signal };
    if (body !== undefined) {
      init.method = "POST";
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify({ ...body, lang: LANG });
    }
    let response;
    try {
      response = await fetch(body === undefined ? inLanguage(path) : path, init);
    } catch (error) {
      ensureCurrent(ticket); // an aborted request was superseded: that is no failure
      throw new ServiceError(say("error-unreachable", { button: label(ticket.channel.retry) }), 0);
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
      const detail = data && data.detail ? data.detail : say("error-http", { status: response.status });
      const errors = data && Array.isArray(data.errors) ? data.errors : [];
      const fields = errors.map((e) => (Array.isArray(e.loc) ? e.loc.join(".") : ""));
      throw new ServiceError(say("error-answered", { detail }), response.status, fields);
    }
    return data;
  }

  const gameChannel = new Channel($("new-game"), stop);

  // --- words ---------------------------------------------------------------------------------------

  function other(mark) {
    return mark === "X" ? "O" : "X";
  }

  function levelName(value) {
    const option = Array.from(levelEl.options).find((o) => o.value === value);
    return option ? option.textContent.trim() : value;
  }

  function cellList(cellsOf) {
    return list(cellsOf.map((c) => String(c + 1)));
  }

  // A cell of the game's board (or of another board of `variant`) in words: its number from 1, and
  // on several boards, which board; at the start of a sentence when `start`.
  function cellName(index, variant = game.variant, start = false) {
    const number = (index % (variant.rows * variant.columns)) + 1;
    if (variant.boards === 1) return say(start ? "cell-start" : "cell", { number });
    return named(start ? "cell-on-board-start" : "cell-on-board", boardPlace(variant, index), { number });
  }

  function cellNames(cellsOf) {
    return game.variant.boards === 1 ? cellList(cellsOf) : list(cellsOf.map((cell) => cellName(cell)));
  }

  // A line as the status says it: its cells, and on several boards, its board.
  function lineName(line) {
    const variant = game.variant;
    const size = variant.rows * variant.columns;
    const cells = line.map((cell) => (cell % size) + 1).join("-");
    if (variant.boards === 1) return cells;
    return named("line-on-board", boardPlace(variant, line[0]), { cells });
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

  // A level (or the random player) by its id, in running text: "easy".
  function levelWord(id) {
    return named("level", id, {});
  }

  // The calibrated players and their ratings on the slider's scale, weakest first, as its marks give
  // them: the standard game's in the page's markup, then the chosen variant's (see showScale). Each
  // is named by its id: "random" or a level.
  let calibrated = Array.from($("rating-marks").options)
    .map((o) => ({ name: o.dataset.level, rating: Number(o.value) }));

  // A rating in words: the calibrated player it is, or the two it lies between.
  function ratingWords(value) {
    const exact = calibrated.find((p) => p.rating === value);
    if (exact) return say("rating-exact", { rating: value, level: levelWord(exact.name) });
    const lower = calibrated.filter((p) => p.rating < value).pop();
    const upper = calibrated.find((p) => p.rating > value);
    return say("rating-between", {
      rating: value,
      lower: levelWord(lower.name),
      lower_rating: lower.rating,
      upper: levelWord(upper.name),
      upper_rating: upper.rating,
    });
  }

  // The same, short, inside a sentence.
  function ratingPhrase(value) {
    const exact = calibrated.find((p) => p.rating === value);
    if (exact) return say("rating-phrase-exact", { rating: value, level: levelWord(exact.name) });
    const lower = calibrated.filter((p) => p.rating < value).pop();
    const upper = calibrated.find((p) => p.rating > value);
    return say("rating-phrase-between", { rating: value, lower: levelWord(lower.name), upper: levelWord(upper.name) });
  }

  // The level a side of a review played like, with its rating where the variant is calibrated.
  function playedLike(side) {
    if (side.level === null) return say("no-move");
    const level = levelWord(side.level);
    return side.rating === null ? level : say("played-like", { level, rating: side.rating });
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
    if (!move) {
      engineMoveEl.textContent = "";
      return;
    }
    const said = { cell: cellName(move.position), reason: move.reason, mark: move.mark };
    // Wild: the mark it placed.
    engineMoveEl.textContent = say(move.mark ? "engine-played-mark" : "engine-played", said);
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
  function personMadeLines() {
    return (game.result === "person") !== game.variant.misere;
  }

  // The label of a cell of the lines at the end, `said` its name and mark.
  function lineLabel(said) {
    const person = personMadeLines();
    if (game.variant.misere) return say(person ? "cell-your-losing-line" : "cell-engine-losing-line", said);
    return say(person ? "cell-your-winning-line" : "cell-engine-winning-line", said);
  }

  // The label of a cell of a board: its name, its mark or that it is empty, and whether its board is
  // dead (Notakto).
  function cellLabel(name, mark, dead = false) {
    const said = { cell: name, mark };
    if (mark === ".") return say(dead ? "cell-empty-dead" : "cell-empty", said);
    return say(dead ? "cell-mark-dead" : "cell-mark", said);
  }

  // Notakto: which boards are live and which dead, in words beside the board.
  function showBoardsState(dead) {
    const state = $("boards-state");
    state.hidden = game.variant.marks !== "x_only";
    if (state.hidden) return;
    const places = BOARD_PLACES[game.variant.boards] || ["only"];
    const parts = places.map((place, b) => named("board-state", `${place}-${dead.has(b) ? "dead" : "live"}`, {}));
    state.textContent = say("board-states-end", {
      states: parts.reduce((first, next) => say("board-states", { first, next })),
    });
  }

  function render() {
    const notakto = game.variant.marks === "x_only";
    // Notakto: every line on the board kills its board, whoever made it; elsewhere the final lines.
    const lines = notakto ? notaktoLines() : game.lines;
    const winning = new Set(lines.flat());
    const dead = deadBoards();
    const lineTag = say(personMadeLines() ? "tag-your-line" : "tag-engine-line");
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
      tagCell(cell, onLine ? (notakto ? say("tag-line") : lineTag) : "");
      // aria-disabled, not disabled: a cell that cannot be played keeps the focus it has.
      cell.setAttribute("aria-disabled", String(!playable(index, dead)));
      const said = { cell: cellName(index), mark };
      let label = cellLabel(said.cell, mark, onDead);
      if (onLine) label = notakto ? say("cell-notakto-line", said) : lineLabel(said);
      cell.setAttribute("aria-label", label);
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

  // Why a rating cannot be chosen in `variant`, or "" where it can.
  function ratingUnavailable(variant) {
    if (ratings.state === "loading") return say("ratings-checking");
    if (ratings.state === "failed") return say("ratings-failed");
    const name = ratingName(variant.id);
    if (ratings.refused.has(variant.id)) return say("ratings-refused", { variant: name });
    if (ratings.rated.includes(variant.id)) return "";
    if (!ratings.rated.length) return say("ratings-none", { variant: name });
    return say("ratings-calibrated-for", { variant: name, variants: joined(ratings.rated.map(ratingName)) });
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
      option.label = levelWord(player.name);
      option.dataset.level = player.name;
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
      noteLevel(say("ratings-clamped", { variant: ratingName(game.variant.id), max: ratingEl.max, was: clampedFrom }));
    }
    showStrengthChoice();
    return fellBack;
  }

  // What the page says when a variant is chosen: nothing where a rating can be chosen, the reason
  // where it cannot, and that the engine plays by level if a rating was chosen.
  function sayRatingChoice(wasAvailable, fellBack) {
    const why = ratingUnavailable(game.variant);
    if (why === "" || (!wasAvailable && !fellBack)) return;
    noteLevel(fellBack ? say("level-instead", { reason: why, level: levelName(levelEl.value) }) : why);
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
      const response = await fetch(inLanguage("/v1/variants"), { headers: { Accept: "application/json" } });
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
    const said = byLevel ? { level: levelName(strength.level) } : { rating: ratingPhrase(strength.rating) };
    if (!game.started || game.over) {
      if (game.started) noteLevel(say(byLevel ? "level-next-game" : "rating-next-game", said));
      return;
    }
    game.strength = strength;
    if (game.stage === "thinking") {
      noteLevel(say(byLevel ? "level-again" : "rating-again", said));
      gameChannel.run(engineTurn);
    } else if (game.stage === "checking") {
      noteLevel(say(byLevel ? "level-coming" : "rating-coming", said));
      gameChannel.run(afterYourMove);
    } else {
      noteLevel(say(byLevel ? "level-next-move" : "rating-next-move", said));
    }
  }

  // --- the game ------------------------------------------------------------------------------------

  function stop(error) {
    game.over = true;
    game.stage = "idle";
    render();
    setStatus(say("game-stopped"));
    showError(error.message);
  }

  // The game is over: the service's analysis of the board gives the winner and the lines.
  function finish(analysis) {
    game.over = true;
    game.stage = "idle";
    game.lines = analysis.winning_lines;
    let text = say("draw");
    game.result = "draw";
    const sides = bySides(game.variant);
    if (analysis.winner === game.person) {
      text = sides ? named("you-win-moving", game.person, {}) : say("you-win-with", { mark: game.person });
      game.result = "person";
    } else if (analysis.winner) {
      text = sides ? named("engine-wins-moving", game.engine, {}) : say("engine-wins-with", { mark: game.engine });
      game.result = "engine";
    }
    const lines = game.lines.length ? list(game.lines.map(lineName)) : "";
    let which = lines ? say("winning-lines", { lines }) : "";
    if (game.variant.marks === "x_only") {
      text = sentences(text, say(game.result === "person" ? "engine-made-last-line" : "you-made-last-line"));
      which = lines ? say("notakto-lines", { lines }) : "";
    } else if (game.variant.misere && lines) {
      which = say("losing-lines", { lines });
    }
    render();
    setStatus(sentences(text, which));
  }

  // The game is over and its result said: the service reviews it move by move.
  async function review(ticket) {
    game.stage = "reviewing";
    $("review-waiting").textContent = say("reviewing");
    let answer;
    try {
      const body = { ...variantField(), moves: game.moves, player: game.first };
      answer = await call("/v1/review", body, ticket);
    } catch (error) {
      if (error instanceof Superseded) throw error;
      game.stage = "idle";
      $("review-waiting").textContent = say("no-review");
      showError(say("review-unavailable", { error: error.message }));
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
    let text = say("your-turn", { mark: game.person });
    if (marks === "either") text = named("your-turn-wild", game.person, { mark: chosenMark() });
    if (marks === "x_only") text = named("your-turn-notakto", game.person, {});
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
    setStatus(say("thinking"));
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
    setStatus(say("thinking"));
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

  // A move's value as a hint shows it: drawn, or won or lost in so many moves.
  function describe(move) {
    if (move.outcome === "draw") return say("hint-draw");
    return say(move.outcome === "win" ? "hint-win" : "hint-loss", { plies: move.plies_to_end });
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
        const value = describe(move);
        const isBest = best.has(move.position) && move.score === analysis.score;
        if (!said.has(move.position)) {
          const label = document.createElement("span");
          label.className = "hint";
          label.textContent = move.mark ? say("hint-mark", { mark: move.mark, value }) : value;
          cell.appendChild(label);
          cell.classList.add(`hint-${move.outcome}`);
          if (isBest) cell.classList.add("hint-best");
          cell.title = move.reason;
          said.set(move.position, []);
        }
        said.get(move.position).push(move.mark ? say("hint-mark-said", { mark: move.mark, value }) : value);
        const values = said.get(move.position).reduce((first, next) => say("hint-values", { first, next }));
        cell.setAttribute("aria-label", say("hint-cell", { cell: cellName(move.position), values }));
        const item = document.createElement("li");
        item.dataset.cell = String(move.position);
        item.className = `reason-${move.outcome}`;
        const reason = { cell: cellName(move.position, game.variant, true), mark: move.mark, reason: move.reason };
        if (move.mark) item.textContent = say(isBest ? "reason-mark-best" : "reason-mark", reason);
        else item.textContent = say(isBest ? "reason-best" : "reason", reason);
        reasonsEl.appendChild(item);
      }
      reasonsEl.hidden = false;
      setStatus(named("hint-status", analysis.outcome, { cells: cellNames(analysis.best_moves) }));
      showError("");
    });
  }

  // --- the review of a game ------------------------------------------------------------------------

  function element(tag, className, text) {
    const made = document.createElement(tag);
    if (className) made.className = className;
    if (text !== undefined) made.textContent = text;
    return made;
  }

  function clearReview() {
    $("review-status").textContent = "";
    $("review-waiting").textContent = say("review-waiting");
    $("review-waiting").hidden = false;
    $("review-body").hidden = true;
    $("review-players").replaceChildren();
    $("review-moves").replaceChildren();
  }

  // A side of the game as the variant names it: by its mark (X, O) or, in wild and Notakto, as the
  // side moving first or second. Who it is ("you" or "the engine") is in each sentence's words.
  function sideName(side) {
    return bySides(game.variant) ? named("moving", side, {}) : side;
  }

  // A move of a review (or its better move) as the page names it: its cell, and in wild the mark.
  function moveName(move) {
    const cell = cellName(move.position);
    return move.mark ? say("move-mark", { mark: move.mark, cell }) : cell;
  }

  // A side's line of the review: the level it played like, in bold, and the summary of its moves:
  // how many were best, its faults, the only moves it found.
  function sideItem(mark, side) {
    const item = element("li", "side");
    item.dataset.side = mark;
    const you = mark === game.person;
    const said = { side: sideName(mark), level: element("strong", "", playedLike(side)) };
    if (side.level === null) {
      item.append(...sayParts(you ? "side-you-none" : "side-engine-none", { ...said, nothing: said.level }));
      return item;
    }
    const summary = [
      sayCount("moves-best", side.moves, { best: side.judgements.best, accuracy: side.accuracy }),
    ];
    const j = side.judgements;
    if (j.inaccuracy > 0) summary.push(sayCount("inaccuracies", j.inaccuracy));
    if (j.mistake > 0) summary.push(sayCount("mistakes", j.mistake));
    if (j.blunder > 0) summary.push(sayCount("blunders", j.blunder));
    if (side.only_moves) summary.push(sayCount("only-moves-found", side.only_moves));
    item.append(...sayParts(you ? "side-you" : "side-engine", { ...said, summary: list(summary) }));
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
    const on = (mark) => (marks(mark).length ?
      say("marks-on", { mark, cells: cellNames(marks(mark)) }) : say("no-marks", { mark }));
    const before = variant.marks === "x_only" ? on("X") : say("position", { x: on("X"), o: on("O") });
    figure.setAttribute("aria-label", say("mini-board", {
      ply: ply.ply,
      position: before,
      played: moveName(ply),
      better: moveName(ply.better),
    }));
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
    const said = {
      ply: ply.ply,
      side: sideName(ply.player),
      move: moveName(ply),
      judgement: element("span", `judgement judgement-${ply.judgement}`, named("judgement", ply.judgement, {})),
      only_move: element("span", "only-move", say("only-move")),
    };
    const you = ply.player === game.person;
    if (ply.only_move) line.append(...sayParts(you ? "ply-you-only" : "ply-engine-only", said));
    else line.append(...sayParts(you ? "ply-you" : "ply-engine", said));
    item.append(line, element("p", "ply-reason", ply.reason));
    if (ply.better) {
      const id = `better-${ply.ply}`;
      const button = element("button", "show-better", say("show-better"));
      button.type = "button";
      button.setAttribute("aria-expanded", "false");
      button.setAttribute("aria-controls", id);
      button.setAttribute("aria-label", say("show-better-for", { ply: ply.ply }));
      const shown = element("div", "better-move");
      shown.id = id;
      shown.hidden = true;
      shown.append(
        miniBoard(ply),
        element("p", "better-text", say("better", { move: moveName(ply.better), reason: ply.better.reason })),
        element("p", "legend", say("mini-legend")),
      );
      button.addEventListener("click", () => {
        const open = shown.hidden;
        shown.hidden = !open;
        button.setAttribute("aria-expanded", String(open));
        button.textContent = say(open ? "hide-better" : "show-better");
        button.setAttribute("aria-label", say(open ? "hide-better-for" : "show-better-for", { ply: ply.ply }));
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
    $("review-status").textContent = say("review-summary", { you: playedLike(you), engine: playedLike(engine) });
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
    if (books.state === "loading") return say("puzzles-checking");
    if (books.state === "failed") return say("puzzles-failed");
    const book = books.byId.get(variant.id);
    if (!book || book.puzzles <= 0) return say("puzzles-none", { variant: ratingName(variant.id) });
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
    const cell = cellName(index, puzzle.variant);
    return puzzle.variant.marks === "either" ? say("move-mark", { mark, cell }) : cell;
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
      if (answered && index === puzzle.answer) mark = puzzle.mark;
      const onDead = dead.has(Math.floor(index / 9));
      const said = { cell: cellName(index, variant), mark, solution: wanted };
      let label = cellLabel(said.cell, mark, onDead);
      let tag = "";
      cell.classList.remove("answer-right", "answer-wrong", "solution");
      if (answered && index === puzzle.answer) {
        cell.classList.add(right ? "answer-right" : "answer-wrong");
        label = say(right ? "answer-right" : "answer-wrong", said);
        if (!right && index === solution) label = say("answer-wrong-here", said);
        tag = say(right ? "tag-right" : "tag-wrong");
      } else if (answered && index === solution) {
        cell.classList.add("solution");
        label = wanted ? say("solution-mark", { ...said, mark: wanted }) : say("solution", said);
        tag = wanted ? say("tag-solution-mark", { mark: wanted }) : say("tag-solution");
      }
      cell.textContent = mark === "." ? "" : mark;
      cell.classList.toggle("x", mark === "X");
      cell.classList.toggle("o", mark === "O");
      cell.classList.toggle("dead", onDead);
      tagCell(cell, tag);
      const open = shown && !answered && shown.board[index] === "." && !onDead;
      cell.setAttribute("aria-disabled", String(!open));
      cell.setAttribute("aria-label", label);
    });
    puzzleStatusEl.dataset.result = !answered ? "" : (right ? "right" : "wrong");
  }

  // The themes (the solution's tactics) in words ("stop a fork"), and as the theme selector offers
  // them ("Stop a fork"); a theme the page has no words for is said by its tag.
  function themeName(tag) {
    return named("theme", tag, {}, tag.replace(/_/g, " "));
  }

  function themeOption(tag) {
    return named("theme-option", tag, {}, tag.replace(/_/g, " "));
  }

  // The filters as the form has them, or the field that is wrong and why.
  function puzzleFilters() {
    const top = Number($("puzzle-max").max);
    const values = [];
    for (const id of ["puzzle-min", "puzzle-max"]) {
      const field = $(id);
      const text = field.value.trim();
      const value = Number(text);
      field.removeAttribute("aria-invalid");
      if (text === "" || !Number.isInteger(value) || value < 0 || value > top) {
        return { field, message: say(id === "puzzle-min" ? "low-invalid" : "high-invalid", { max: top }) };
      }
      values.push(value);
    }
    if (values[0] > values[1]) {
      return { field: $("puzzle-min"), message: say("low-above-high", { low: values[0], high: values[1] }) };
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
    const any = new Option(say("theme-any"), "");
    theme.replaceChildren(any, ...book.themes.map((tag) => new Option(themeOption(tag), tag)));
    theme.value = book.themes.includes(chosen) ? chosen : "";
    // The ratings: 0 to the variant's top; a bound at the old top (or above the new) is the new top.
    const low = $("puzzle-min");
    const high = $("puzzle-max");
    const oldTop = Number(high.max);
    for (const field of [low, high]) field.max = String(book.max);
    const highValue = Number(high.value);
    if (high.value.trim() === "" || highValue === oldTop || highValue > book.max) high.value = String(book.max);
    if (Number(low.value) > book.max) low.value = "0";
    const scale = [say("scale-random", { rating: 0 }), ...book.marks.map((player) => (player.name === "perfect" ?
      say("scale-perfect", { rating: player.rating }) :
      say("scale-level", { rating: player.rating, level: levelWord(player.name) })))];
    $("puzzle-scale").textContent = say("puzzle-scale", {
      variant: ratingName(variant.id),
      max: book.max,
      scale: joined(scale),
    });
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
    const range = { min: filters.min, max: filters.max };
    const wanted = filters.theme ?
      say("filters-theme", { ...range, theme: themeName(filters.theme) }) : say("filters-any", range);
    renderPuzzle();
    $("puzzle-board").setAttribute("aria-busy", "true");
    puzzleStatusEl.textContent = say("looking");
    puzzleChannel.run(async (ticket) => {
      let found;
      try {
        found = await call(`/v1/puzzles/random?${query}`, undefined, ticket);
      } catch (error) {
        if (!(error instanceof ServiceError) || error.status !== 404) throw error;
        noPuzzle(say("no-match", { filters: wanted, button: label(puzzleButton) }));
        return;
      }
      $("puzzle-board").removeAttribute("aria-busy");
      puzzle.current = found;
      puzzle.answer = null;
      puzzle.mark = null;
      puzzleButton.textContent = say("next-puzzle");
      $("puzzle-board").hidden = false;
      renderPuzzle();
      const shown = { rating: found.rating, mark: found.player };
      const who = bySides(variant) ? named("puzzle-moving", found.player, shown) : say("puzzle-mark", shown);
      const goal = say(found.outcome === "win" ? "puzzle-win" : "puzzle-draw");
      let how = "";
      if (variant.marks === "either") how = say("puzzle-how-wild");
      if (variant.marks === "x_only") how = say("puzzle-how-notakto");
      puzzleStatusEl.textContent = sentences(who, goal, how);
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
    const themes = shown.themes.length ?
      say("themes", { themes: list(shown.themes.map((tag) => themeName(tag))) }) : "";
    const said = { move: puzzleMove(index, puzzle.mark), reason: shown.reason };
    if (index === shown.solution && (!shown.mark || puzzle.mark === shown.mark)) {
      puzzleStatusEl.textContent = sentences(say("puzzle-right", said), themes);
    } else {
      const solution = puzzleMove(shown.solution, shown.mark);
      puzzleStatusEl.textContent = sentences(say("puzzle-wrong", { ...said, solution }), themes);
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
    $("variant-rules").textContent = rules(variant);
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
      setStatus(sentences(
        say("variant-chosen", { variant: variant.name, rules: rules(variant) }),
        say("press-new-game", { button: label($("new-game")) }),
      ));
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
