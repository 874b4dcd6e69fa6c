// The game-night page of `scrawl serve`: a start screen (#/) and one game (#/game/ID).
// Plain JavaScript, no build step, no outside resources: the phones may have no internet.
"use strict";

const POLL_MS = 4000;                 // how often an open game is fetched again when change events do not arrive
const POLL_WITH_EVENTS_MS = 30000;    // ... and when they do (a safety net only)
const UNDO_MS = 8000;                 // how long "Undo" stays offered after a removal or a retake
const MAX_SIDE = 3000;                // photos are shrunk in the phone to this longest side before they are sent
const JPEG_QUALITY = 0.9;
const SIDES = "NESW";
const DECKS = { "doodles": "Dungeon deck", "traps": "Trap deck", "monsters-reference": "Monster reference" };
const PAPERS = { "a4": "A4", "letter": "US Letter" };
const KIND_TITLES = { "monster": "Monster battle", "maker": "Dungeon Maker" };

// ---------------------------------------------------------------- small helpers

const $ = (root, ref) => root.querySelector(`[data-ref="${ref}"]`);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function fromTemplate(id) { return document.getElementById(id).content.cloneNode(true); }

function signed(n) { return n > 0 ? `+${n}` : n < 0 ? `\u2212${-n}` : "0"; }

function plural(n, one, many) { return `${n} ${n === 1 ? one : many}`; }

function when(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso || "";
  const today = new Date();
  const time = date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  if (date.toDateString() === today.toDateString()) return `today ${time}`;
  return `${date.toLocaleDateString([], { day: "numeric", month: "short" })} ${time}`;
}

let toastTimer = 0;
function toast(text, kind = "") {
  const box = document.getElementById("toast");
  box.textContent = text;
  box.className = `toast ${kind}`;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.hidden = true; }, 2600);
}

/** The sign that the server cannot be reached, shown until it answers again. */
function setOnline(online) {
  document.getElementById("offline").hidden = online;
  document.body.classList.toggle("offline-now", !online);
}

/** An in-page question (never the browser's own dialog): resolves to the chosen button's value, or null. */
function ask(text, choices) {
  const back = document.getElementById("dialog");
  return new Promise((resolve) => {
    const done = (value) => { back.hidden = true; document.removeEventListener("keydown", onKey); resolve(value); };
    const onKey = (event) => { if (event.key === "Escape") done(null); };
    $(back, "text").textContent = text;
    $(back, "buttons").replaceChildren(...choices.map(([value, label, kind]) =>
      el("button", { type: "button", class: `btn ${kind || "btn-quiet"}`, text: label, onclick: () => done(value) })));
    back.onclick = (event) => { if (event.target === back) done(null); };
    document.addEventListener("keydown", onKey);
    back.hidden = false;
    back.querySelector(".dialog-buttons button").focus();
  });
}

let undoTimer = 0;
/** "Photo removed. Undo" for UNDO_MS: the undo button calls `undo` once. */
function offerUndo(text, undo) {
  const bar = document.getElementById("snackbar");
  $(bar, "text").textContent = text;
  const button = $(bar, "undo");
  button.disabled = false;
  button.onclick = async () => {
    button.disabled = true;
    clearTimeout(undoTimer);
    try { await undo(); bar.hidden = true; } catch (err) { bar.hidden = true; toast(err.message, "bad"); }
  };
  bar.hidden = false;
  clearTimeout(undoTimer);
  undoTimer = setTimeout(() => { bar.hidden = true; }, UNDO_MS);
}

// ---------------------------------------------------------------- the HTTP API

class ApiError extends Error {
  constructor(status, message) { super(message); this.status = status; }
}

/** A person-readable line from an error response (FastAPI's list-shaped 422 details included). */
function detailText(status, body) {
  const detail = body && body.detail;
  if (typeof detail === "string" && detail) return detail;
  if (Array.isArray(detail) && detail.length) {
    return detail.map((d) => {
      const where = (d.loc || []).filter((part) => part !== "body").join(" ");
      return where ? `${where}: ${d.msg}` : d.msg;
    }).join("; ");
  }
  if (status === 413) return "The photo is too big (over 25 MB): take it again at a lower resolution.";
  if (status === 415) return "That file is not a photo: send a JPEG, PNG, WebP, HEIC or PDF.";
  if (status === 0) return "No answer from the server: check that this phone is on the same Wi-Fi, then try again.";
  return `The server could not do that (HTTP ${status}).`;
}

async function api(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
    });
  } catch (err) {
    setOnline(false);
    throw new ApiError(0, detailText(0, null));
  }
  setOnline(true);
  let data = null;
  try { data = await response.json(); } catch (err) { data = null; }
  if (response.status === 401) showLocked();
  if (!response.ok) throw new ApiError(response.status, detailText(response.status, data));
  return data;
}

/** The server asks for the game night's join code and this phone has none: say how to get in, and show
 *  nothing that would not work. */
function showLocked() {
  document.getElementById("locked").hidden = false;
  document.body.classList.add("locked-now");
}

/** Upload one photo; XMLHttpRequest rather than fetch, for the upload progress on slow Wi-Fi. */
const MAX_PHOTO_BYTES = 25 * 1024 * 1024;   // the server refuses more (413); say so before sending it

/** A photo over MAX_SIDE pixels on its longest side, redrawn to that size as a JPEG (the phone's camera makes
 *  12-50 MP photos; the scanner needs no more, and the Wi-Fi at the table is slow). Anything the browser
 *  cannot draw (HEIC in most browsers, PDF, a broken file) is sent as it is, and the server says what it is. */
async function shrinkPhoto(file) {
  if (!window.createImageBitmap || !/^image\/(jpeg|png|webp)$/.test(file.type || "")) return file;
  let bitmap;
  try { bitmap = await createImageBitmap(file, { imageOrientation: "from-image" }); } catch (err) { return file; }
  const side = Math.max(bitmap.width, bitmap.height);
  if (side <= MAX_SIDE) { bitmap.close(); return file; }
  const scale = MAX_SIDE / side;
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(bitmap.width * scale);
  canvas.height = Math.round(bitmap.height * scale);
  canvas.getContext("2d").drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", JPEG_QUALITY));
  if (!blob || blob.size >= file.size) return file;
  const name = (file.name || "photo").replace(/\.[^.]*$/, "") + ".jpg";
  return new File([blob], name, { type: "image/jpeg" });
}

function uploadPhoto(gameId, file, onProgress, params = {}) {
  return new Promise((resolve, reject) => {
    if (file.size > MAX_PHOTO_BYTES) { reject(new ApiError(413, detailText(413, null))); return; }
    const xhr = new XMLHttpRequest();
    const query = new URLSearchParams(params).toString();
    xhr.open("POST", `/api/games/${encodeURIComponent(gameId)}/photos${query ? `?${query}` : ""}`);
    xhr.responseType = "json";
    xhr.upload.onprogress = (event) => { if (event.lengthComputable) onProgress(event.loaded / event.total); };
    xhr.upload.onload = () => onProgress(1);
    xhr.onload = () => {
      setOnline(true);
      if (xhr.status >= 200 && xhr.status < 300) resolve(xhr.response);
      else reject(new ApiError(xhr.status, detailText(xhr.status, xhr.response)));
    };
    xhr.onerror = () => { setOnline(false); reject(new ApiError(0, detailText(0, null))); };
    const form = new FormData();
    form.append("photo", file, file.name || "photo.jpg");
    xhr.send(form);
  });
}

let mapsCache = null;
async function maps() {
  if (!mapsCache) {
    try { mapsCache = await api("GET", "/api/maps"); }
    catch (err) { mapsCache = null; return { maps: [{ id: "classic", name: "Classic map" }, { id: "random", name: "A random map" }], papers: ["a4", "letter"] }; }
  }
  return mapsCache;
}

function mapName(map, known) {
  if (!map) return "";
  if (map.id === "random") return `Random map, seed ${map.seed}`;
  const found = (known || []).find((m) => m.id === map.id);
  return found ? found.name : map.id;
}

/** Print links: the game's sheets (none when `sheetsHref` is null), and the decks a game of `kind` uses. */
function printLinks(container, sheetsHref, sheetsLabel, paper, kind = "map") {
  const decks = kind === "maker" ? [] : Object.entries(DECKS).filter(([name]) => (kind === "monster") === (name === "monsters-reference"));
  const title = { "monster": "Monster sheets", "maker": "Dungeon Maker sheets" }[kind] || "Map sheets";
  container.replaceChildren(
    sheetsHref ? el("a", { class: "btn btn-quiet print", href: sheetsHref, target: "_blank", rel: "noopener" },
      el("strong", { text: title }), el("small", { text: sheetsLabel })) : null,
    ...decks.map(([name, label]) =>
      el("a", { class: "btn btn-quiet print", href: `/print/deck/${name}.pdf?paper=${paper}`, target: "_blank", rel: "noopener" },
        el("strong", { text: label }), el("small", { text: `${PAPERS[paper] || paper} PDF` }))),
  );
}

// ---------------------------------------------------------------- reading glyphs

/** The reading a room holds, as its `options` spell it: "" empty, sides in NESW order, or "X". */
function readingOf(room) {
  if (!room) return "";
  if (room.trap) return "X";
  return SIDES.split("").filter((side) => (room.exits || "").includes(side)).join("");
}

function readingWords(reading) {
  if (reading === "") return "empty";
  if (reading === "X") return "Trap";
  if (reading.length === 1) return `dead end ${reading}`;
  return reading.split("").join("\u2009");
}

const SVG_NS = "http://www.w3.org/2000/svg";
function glyph(reading) {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", "glyph");
  svg.setAttribute("aria-hidden", "true");
  const add = (tag, attrs) => {
    const node = document.createElementNS(SVG_NS, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    svg.append(node);
  };
  add("rect", { x: 1, y: 1, width: 22, height: 22, rx: 2, class: "glyph-room" });
  const ends = { N: [12, 1], E: [23, 12], S: [12, 23], W: [1, 12] };
  if (reading === "X") {
    add("path", { d: "M6 6L18 18M18 6L6 18", class: "glyph-trap" });
  } else {
    for (const side of reading) add("line", { x1: 12, y1: 12, x2: ends[side][0], y2: ends[side][1], class: "glyph-path" });
    if (reading.length === 1) add("circle", { cx: 12, cy: 12, r: 3, class: "glyph-dot" });
  }
  return svg;
}

// ---------------------------------------------------------------- routing

let current = null;   // the view on screen: { leave() }

function route() {
  if (current) current.leave();
  const match = location.hash.match(/^#\/game\/([A-Za-z0-9_-]+)/);
  window.scrollTo(0, 0);
  current = match ? new GameView(decodeURIComponent(match[1])) : new StartView();
}

window.addEventListener("hashchange", route);
window.addEventListener("DOMContentLoaded", route);

// ---------------------------------------------------------------- the start screen

class StartView {
  constructor() {
    this.left = false;
    const view = document.getElementById("view");
    view.replaceChildren(fromTemplate("tpl-start"));
    this.root = view;
    document.getElementById("topbar-note").textContent = "game night";
    document.title = "Dungeon Scrawl: game night";
    this.form = $(view, "form");
    this.playerList = $(view, "players");
    const remembered = JSON.parse(localStorage.getItem("scrawl.players") || "null");
    for (const name of (Array.isArray(remembered) && remembered.length ? remembered : ["", ""])) this.addPlayer(name);
    $(view, "add").addEventListener("click", () => { this.addPlayer(""); this.playerInputs().at(-1).focus(); });
    $(view, "reroll").addEventListener("click", () => { $(view, "seed").value = randomSeed(); this.updatePrint(); });
    $(view, "seed").addEventListener("input", () => this.updatePrint());
    this.form.addEventListener("submit", (event) => { event.preventDefault(); this.start(); });
    this.load();
  }

  leave() { this.left = true; }

  async load() {
    const [server, known, games] = await Promise.all([
      api("GET", "/api/server").catch(() => null), maps(), api("GET", "/api/games").catch(() => ({ games: [] })),
    ]);
    if (this.left) return;
    this.known = known.maps;
    if (server) {
      showAddress($(this.root, "url"), server.url);
      const svg = safeSvg(server.qr_svg);
      if (svg) $(this.root, "qr").replaceChildren(svg);
    } else {
      showAddress($(this.root, "url"), location.origin + "/");
    }
    this.choices($(this.root, "kinds"), "kind", [["map", "Dungeon map", "draw paths, score sheets"],
      ["monster", "Monster battle", "two players' monster sheets fight"],
      ["maker", "Dungeon Maker", "build a dungeon, heroes walk it"]], localStorage.getItem("scrawl.kind") || "map");
    this.choices($(this.root, "maps"), "map", known.maps.map((m) => [m.id, m.id === "random" ? "Random map" : m.name,
      m.note || (m.id === "random" ? "new every seed" : "")]), "classic");
    this.choices($(this.root, "papers"), "paper", (known.papers || ["a4", "letter"]).map((p) => [p, PAPERS[p] || p, ""]),
      localStorage.getItem("scrawl.paper") || "a4");
    this.form.addEventListener("change", () => this.updatePrint());
    this.updatePrint();
    this.showGames(games.games || []);
  }

  choices(container, name, items, chosen) {
    if (!items.some(([id]) => id === chosen)) chosen = items[0] && items[0][0];
    container.replaceChildren(...items.map(([id, label, note]) =>
      el("label", { class: "choice-item" },
        el("input", { type: "radio", name, value: id, checked: id === chosen }),
        el("span", {}, el("strong", { text: label }), note ? el("small", { text: note }) : null))));
  }

  value(name) {
    const checked = this.form.querySelector(`input[name="${name}"]:checked`);
    return checked ? checked.value : null;
  }

  playerInputs() { return [...this.playerList.querySelectorAll("input")]; }

  addPlayer(name) {
    const row = el("li", { class: "player-row" },
      el("span", { class: "badge", "aria-hidden": "true" }),
      el("input", { type: "text", maxlength: 24, value: name, autocomplete: "off", autocapitalize: "words",
        enterkeyhint: "next", "aria-label": "Player name" }),
      el("button", { type: "button", class: "btn btn-quiet remove", "aria-label": "Remove this player", text: "\u00d7",
        onclick: () => { row.remove(); this.renumber(); } }));
    // Enter goes to the next name (a phone keyboard's "next"); on the last name it starts the game.
    row.querySelector("input").addEventListener("keydown", (event) => {
      if (event.key !== "Enter") return;
      const inputs = this.playerInputs();
      const next = inputs[inputs.indexOf(event.target) + 1];
      if (next) { event.preventDefault(); next.focus(); }
    });
    this.playerList.append(row);
    this.renumber();
  }

  renumber() {
    const rows = [...this.playerList.children];
    rows.forEach((row, index) => {
      row.querySelector(".badge").textContent = index + 1;
      row.querySelector("input").placeholder = `Player ${index + 1}`;
      row.querySelector(".remove").disabled = rows.length <= 1;
    });
    $(this.root, "add").disabled = rows.length >= 6;
    this.updatePrint();
  }

  updatePrint() {
    const battle = this.value("kind") === "monster";
    const maker = this.value("kind") === "maker";
    $(this.root, "map-set").hidden = battle || maker;
    $(this.root, "printed").hidden = battle;
    for (const ref of ["code-row", "code-hint"]) $(this.root, ref).hidden = maker;
    for (const ref of ["loot-row", "loot-hint"]) $(this.root, ref).hidden = !maker;
    if (maker) {
      $(this.root, "print-hint").textContent = "Start the game to print its Dungeon Maker sheets: page 1 for player 1, and so on, each with its own loot. Print at 100%.";
      printLinks($(this.root, "print"), null, "", this.value("paper") || "a4", "maker");
      return;
    }
    if (battle) {
      const paper = this.value("paper") || "a4";
      $(this.root, "print-hint").textContent = "Start the game to print its two monster record sheets (Player 1 and Player 2). Print at 100%.";
      printLinks($(this.root, "print"), null, "", paper, "monster");
      return;
    }
    const map = this.value("map") || "classic";
    const seedRow = $(this.root, "seed-row");
    const seedInput = $(this.root, "seed");
    seedRow.hidden = map !== "random";
    if (map === "random" && seedInput.value === "") seedInput.value = randomSeed();
    const paper = this.value("paper") || "a4";
    const players = this.playerInputs().length;
    const seed = map === "random" ? seedInput.value : "";
    const href = `/print/sheets.pdf?map=${map}&seed=${encodeURIComponent(seed)}&players=${players}&paper=${paper}`;
    const name = map === "random" ? `random map ${seed}` : mapName({ id: map }, this.known);
    $(this.root, "print-hint").textContent = "Start the game first to print each sheet with its player's name and the game's code. " +
      "These sheets are numbered only: give sheet 1 to the first name. Print at 100%.";
    printLinks($(this.root, "print"), href, `${name}, ${plural(players, "player", "players")}, ${PAPERS[paper] || paper}`, paper);
  }

  async start() {
    const error = $(this.root, "error");
    const names = this.playerInputs().map((input) => input.value.trim());
    const blank = names.findIndex((name) => !name);
    if (blank >= 0) {
      error.textContent = `Give player ${blank + 1} a name, or remove that row.`;
      error.hidden = false;
      this.playerInputs()[blank].focus();
      return;
    }
    const kind = this.value("kind") || "map";
    if (kind === "monster" && names.length !== 2) {
      error.textContent = `A monster battle is between two players: give two names (${names.length} now).`;
      error.hidden = false;
      return;
    }
    if (kind === "maker" && names.length < 2) {
      error.textContent = "A Dungeon Maker game has 2 to 6 players: add another name.";
      error.hidden = false;
      return;
    }
    const map = this.value("map") || "classic";
    const seedText = $(this.root, "seed").value.trim();
    if (map === "random" && seedText !== "" && !/^\d{1,15}$/.test(seedText)) {
      error.textContent = "The seed is a whole number, like 1234 (or leave it empty for a new map).";
      error.hidden = false;
      return;
    }
    const lootText = $(this.root, "loot").value.trim();
    if (kind === "maker" && lootText !== "" && !/^\d{1,15}$/.test(lootText)) {
      error.textContent = "The loot seed is a whole number, like 1234 (or leave it empty for new sheets).";
      error.hidden = false;
      return;
    }
    const seed = kind === "maker" ? (lootText !== "" ? Number(lootText) : null)
      : map === "random" && seedText !== "" ? Number(seedText) : null;
    const body = { players: names, map, seed,
      paper: this.value("paper") || "a4", code: kind === "map" ? $(this.root, "code").value.trim() || null : null, kind };
    const submit = $(this.root, "submit");
    submit.disabled = true;
    error.hidden = true;
    try {
      const game = await api("POST", "/api/games", body);
      localStorage.setItem("scrawl.players", JSON.stringify(names));
      localStorage.setItem("scrawl.paper", body.paper);
      localStorage.setItem("scrawl.kind", kind);
      location.hash = `#/game/${game.id}`;
    } catch (err) {
      error.textContent = err.message;
      error.hidden = false;
      submit.disabled = false;
    }
  }

  showGames(games) {
    const list = $(this.root, "recent");
    if (!games.length) return;
    list.replaceChildren(...games.slice(0, 12).map((game) =>
      el("li", {}, el("a", { class: "recent-game", href: `#/game/${encodeURIComponent(game.id)}` },
        el("strong", { text: game.players.join(", ") }),
        el("small", { text: `${KIND_TITLES[game.kind] || mapName(game.map, this.known)} · ${plural(game.sheets, "sheet", "sheets")} · ${when(game.created)}` })))));
  }
}

/** The address, allowed to break only between the host and the port. */
function showAddress(node, url) {
  const match = url.match(/^(\w+:\/\/[^:/]+)(.*)$/);
  node.replaceChildren(...(match ? [match[1], el("wbr"), match[2]] : [url]));
}

function randomSeed() { return String(1 + Math.floor(Math.random() * 9999)); }

// ---------------------------------------------------------------- a game

class GameView {
  constructor(id) {
    this.id = id;
    this.left = false;
    this.doc = null;
    this.text = "";
    this.cards = new Map();      // player number -> CardView
    this.busy = 0;               // uploads and corrections under way: refreshing waits for them
    this.me = Number(localStorage.getItem(`scrawl.me.${id}`)) || 0;   // "this is my phone": that player's card first
    const view = document.getElementById("view");
    view.replaceChildren(fromTemplate("tpl-game"));
    this.root = view;
    document.getElementById("topbar-note").textContent = "";
    const base = `/api/games/${encodeURIComponent(id)}`;
    $(view, "export").href = `${base}/export`;
    $(view, "csv").href = `${base}/results.csv`;
    $(view, "png").href = `${base}/results.png`;
    $(view, "battle-csv").href = `${base}/results.csv`;
    $(view, "finish").addEventListener("click", () => this.showEnd(true));
    $(view, "end-close").addEventListener("click", () => this.showEnd(false));
    $(view, "roll").addEventListener("click", () => this.roll("POST", `${base}/rolls`));
    $(view, "unroll").addEventListener("click", () => this.roll("DELETE", `${base}/rolls/last`));
    $(view, "again").addEventListener("click", () => this.roll("POST", `${base}/battle`));
    this.onVisible = () => { if (document.visibilityState === "visible") this.refresh(); };
    document.addEventListener("visibilitychange", this.onVisible);
    this.listen();
    this.refresh(true);
    this.showJoin();
  }

  leave() {
    this.left = true;
    clearTimeout(this.timer);
    if (this.events) this.events.close();
    document.removeEventListener("visibilitychange", this.onVisible);
  }

  /** Server-sent events say when the game changed; polling stays as a slower safety net, and takes over
   *  (every POLL_MS) while the events do not come through. */
  listen() {
    const poll = () => {
      if (this.left) return;
      if (document.visibilityState === "visible") this.refresh();
      this.timer = setTimeout(poll, this.live ? POLL_WITH_EVENTS_MS : POLL_MS);
    };
    this.timer = setTimeout(poll, POLL_MS);
    if (!window.EventSource) return;
    this.events = new EventSource(`/api/games/${encodeURIComponent(this.id)}/events`);
    // On (re)connecting, fetch the game once: a change made after the page loaded it, but before the stream
    // was open, would otherwise wait for the slow poll.
    this.events.addEventListener("hello", () => { this.live = true; setOnline(true); this.refresh(); });
    this.events.addEventListener("change", () => { this.live = true; this.refresh(); });
    this.events.onerror = () => {
      this.live = false;
      if (this.events.readyState === EventSource.CLOSED) this.events = null;
    };
  }

  async refresh(first = false) {
    if (this.busy || this.fetching) { this.again = true; return; }
    this.fetching = true;
    this.again = false;
    try {
      const doc = await api("GET", `/api/games/${encodeURIComponent(this.id)}`);
      if (!this.left && !this.busy) this.show(doc);
    } catch (err) {
      if (this.left) return;
      if (err.status === 404) {
        this.leave();
        this.root.replaceChildren(el("section", { class: "panel" }, el("h2", { text: "No such game" }),
          el("p", { text: "It may have been made on another server." }), el("a", { class: "btn btn-main", href: "#/", text: "All games" })));
      } else if (first) {
        toast(err.message, "bad");
      }
    } finally {
      this.fetching = false;
      if (this.again && !this.left && !this.busy) setTimeout(() => this.refresh(), 50);
    }
  }

  /** Runs `work` (a promise-returning function whose answer is the game document) with refreshing paused. */
  async change(work) {
    this.busy += 1;
    try {
      const doc = await work();
      if (doc && !this.left) this.show(doc, true);
      return doc;
    } finally {
      this.busy -= 1;
      if (!this.busy && this.again) this.refresh();
    }
  }

  /** Undo a removal or a retake (the token the server gave). */
  undo(token) {
    return this.change(() => api("POST", `/api/games/${encodeURIComponent(this.id)}/undo/${encodeURIComponent(token)}`));
  }

  async show(doc, force = false) {
    const text = JSON.stringify(doc, (key, value) => (key === "added" || key === "undo" ? undefined : value));
    if (!force && text === this.text) return;
    this.text = text;
    this.doc = doc;
    const known = (await maps()).maps;
    if (this.left) return;
    const battle = doc.kind === "monster";
    const maker = doc.kind === "maker";
    const title = KIND_TITLES[doc.kind] || mapName(doc.map, known);
    this.root.classList.toggle("is-battle", battle);
    this.root.classList.toggle("is-maker", maker);
    $(this.root, "board").hidden = battle;
    $(this.root, "finish").hidden = battle;
    $(this.root, "export").textContent = battle ? "Export the rosters (JSON)" : maker ? "Export the dungeons (JSON)" : "Export the scores (JSON)";
    $(this.root, "title").textContent = doc.players.join(", ");
    document.title = `${doc.players.join(", ")}: Dungeon Scrawl`;
    $(this.root, "meta").replaceChildren(el("strong", { class: "code", text: `Game ${doc.code}` }),
      ` \u00b7 ${title} \u00b7 ${PAPERS[doc.paper] || doc.paper} \u00b7 started ${when(doc.created)}`);
    document.getElementById("topbar-note").textContent = title;
    this.showStatus(doc);
    this.showStandings(doc);
    this.showMe(doc);
    this.showDie(doc);
    this.showBattle(doc);
    this.showCards(doc);
    this.showUnread(doc);
    if (!$(this.root, "end").hidden) this.showEnd(true, false);
    if (doc.print) {
      const label = battle ? `${doc.players.join(" and ")}, ${PAPERS[doc.paper] || doc.paper}`
        : maker ? `${plural(doc.players.length, "page", "pages")}, loot seed ${doc.seed}, ${PAPERS[doc.paper] || doc.paper}`
          : `${title}, ${plural(doc.players.length, "player", "players")}, game ${doc.code}`;
      $(this.root, "first-print-hint").textContent = maker
        ? "Page 1 is player 1's sheet, page 2 player 2's, and so on: each page has its own loot. Print at 100%."
        : "Each sheet carries its player's name and this game's code, so a sheet of another table is never scored here. Print at 100%.";
      printLinks($(this.root, "print"), doc.print.sheets, label, doc.paper || "a4", doc.kind);
      // Before any photo, printing is what the table does next: the links are on top.
      $(this.root, "first-print").hidden = doc.photos.length > 0;
      if (!doc.photos.length) printLinks($(this.root, "first-print-links"), doc.print.sheets, label, doc.paper || "a4", doc.kind);
    }
  }

  showStatus(doc) {
    const read = new Set(doc.sheets.map((s) => s.player));
    const waiting = doc.players.filter((_, i) => !read.has(i + 1)).length;
    const status = [];
    const done = doc.players.length - waiting;
    if (!done) status.push("Photograph each sheet to score it");
    else status.push(waiting ? `${done} of ${plural(doc.players.length, "sheet", "sheets")} read` : "Every sheet is read");
    if (doc.needs_review) status.push(`${plural(doc.needs_review, "sheet needs", "sheets need")} a look`);
    if (doc.kind === "monster" && doc.battle && doc.battle.ready) status.push(doc.battle.winner ? `${doc.battle.winner} wins` : "a draw");
    if (doc.kind === "maker" && doc.winner && doc.sheets.length) status.push(doc.winner.line);
    const line = $(this.root, "status");
    line.textContent = status.join(" \u00b7 ");
    line.className = `game-status${doc.needs_review ? " warn" : waiting ? "" : " good"}`;
  }

  showStandings(doc) {
    const list = $(this.root, "standings");
    const items = doc.scoreboard.map((row) => {
      const sheet = doc.sheets.find((s) => s.id === row.sheet);
      const review = sheet && sheet.needs_review && sheet.needs_review.length;
      return el("li", { class: `stand${row.place === 1 ? " lead" : ""}` },
        el("button", { type: "button", onclick: () => this.cardFor(row.player)?.focus() },
          el("span", { class: "who" }, el("span", { class: "place", text: row.place }), row.name),
          el("span", { class: `pts${row.final === false ? " so-far" : ""}`, text: row.total, "data-total": row.player,
            title: row.final === false ? "so far: the heroes have not come yet" : null }),
          review ? el("span", { class: "dot", title: "needs a look", "aria-label": "needs a look" }) : null));
    });
    const seen = new Set(doc.scoreboard.map((row) => row.player));
    doc.players.forEach((name, index) => {
      if (seen.has(index + 1)) return;
      items.push(el("li", { class: "stand waiting" },
        el("button", { type: "button", onclick: () => this.cardFor(index + 1)?.focus() },
          el("span", { class: "who" }, el("span", { class: "place", text: "\u2013" }), name),
          el("span", { class: "pts", text: "no photo" }))));
    });
    list.classList.toggle("many", items.length > 4);
    list.replaceChildren(...items);
  }

  cardFor(player) { return this.cards.get(player); }

  sheetView(id) {
    for (const card of this.cards.values()) if (card.sheets.has(id)) return card.sheets.get(id);
    return null;
  }

  showCards(doc) {
    const container = $(this.root, "cards");
    const numbers = doc.players.map((_, i) => i + 1);
    for (const sheet of doc.sheets) if (!numbers.includes(sheet.player)) numbers.push(sheet.player);
    if (numbers.includes(this.me)) numbers.sort((a, b) => (b === this.me) - (a === this.me));
    for (const [number, card] of this.cards) {
      if (!numbers.includes(number)) { card.root.remove(); this.cards.delete(number); }
    }
    numbers.forEach((number, index) => {
      let card = this.cards.get(number);
      if (!card) {
        card = new CardView(this, number);
        this.cards.set(number, card);
      }
      // Moved only when out of place: a card under a finger stays where it is.
      if (container.children[index] !== card.root) container.insertBefore(card.root, container.children[index] || null);
      card.root.classList.toggle("mine", number === this.me);
      card.update(doc);
    });
  }

  async showJoin() {
    let join;
    try { join = await api("GET", `/api/games/${encodeURIComponent(this.id)}/join`); } catch (err) { return; }
    if (this.left) return;
    showAddress($(this.root, "join-url"), join.url);
    const svg = safeSvg(join.qr_svg);
    if (svg) $(this.root, "join-qr").replaceChildren(svg);
  }

  showMe(doc) {
    const box = $(this.root, "me");
    const choose = (number) => {
      this.me = this.me === number ? 0 : number;
      if (this.me) localStorage.setItem(`scrawl.me.${this.id}`, String(this.me));
      else localStorage.removeItem(`scrawl.me.${this.id}`);
      this.showMe(this.doc);
      this.showCards(this.doc);
      if (this.me) this.cardFor(this.me)?.focus();
    };
    box.replaceChildren(...doc.players.map((name, index) => el("button", {
      type: "button", class: `chip me-chip${this.me === index + 1 ? " chosen" : ""}`, "aria-pressed": this.me === index + 1 ? "true" : "false",
      onclick: () => choose(index + 1) }, el("strong", { text: index + 1 }), ` ${name}`)));
    const mine = this.me && doc.players[this.me - 1];
    $(this.root, "me-note").textContent = mine ? `this phone: ${mine}` : "";
  }

  showDie(doc) {
    const panel = $(this.root, "die");
    const die = doc.die;
    panel.hidden = !die;
    if (!die) return;
    const rolls = die.rolls;
    const last = rolls[rolls.length - 1];
    $(this.root, "die-round").textContent = rolls.length >= die.rounds ? `all ${die.rounds} rounds rolled`
      : `round ${rolls.length + 1} of ${die.rounds}`;
    $(this.root, "roll").disabled = rolls.length >= die.rounds;
    $(this.root, "roll").textContent = rolls.length ? `Roll for round ${Math.min(rolls.length + 1, die.rounds)}` : "Roll the die";
    $(this.root, "unroll").hidden = !rolls.length;
    $(this.root, "die-now").replaceChildren(...(last ? [
      el("div", { class: `die-face icon-${last.icon}`, "aria-label": `Rolled ${last.roll}, ${last.icon}` },
        el("strong", { text: last.roll }), el("small", { text: last.icon })),
      el("div", { class: "die-lines" }, el("strong", { text: `Round ${last.round}` }),
        el("ul", {}, last.lines.map((line) => el("li", { text: line })))),
    ] : [el("p", { class: "hint", text: "After the cards of a round are revealed, roll the die here: every phone sees the roll and what it does." })]));
    $(this.root, "die-rounds").replaceChildren(...rolls.slice(0, -1).reverse().map((r) =>
      el("li", {}, el("strong", { text: `Round ${r.round}: ${r.roll} (${r.icon})` }), ` ${r.lines.join(" \u00b7 ")}`)));
  }

  /** A monster battle: who wins with these dice, each side's odds, the rounds, and new dice. */
  showBattle(doc) {
    const panel = $(this.root, "battle");
    const battle = doc.kind === "monster" ? doc.battle : null;
    panel.hidden = !battle;
    if (!battle) return;
    $(this.root, "battle-seed").textContent = battle.seed != null ? `dice ${battle.seed}` : "";
    $(this.root, "battle-waiting").hidden = battle.ready;
    $(this.root, "battle-waiting").textContent = battle.waiting || "";
    $(this.root, "battle-result").hidden = !battle.ready;
    if (!battle.ready) return;
    $(this.root, "battle-winner").textContent = battle.outcome;
    $(this.root, "battle-winner").classList.toggle("draw", !battle.winner);
    const [first, second] = battle.odds.chances;
    const draws = Math.round(100 * battle.odds.draws / battle.odds.trials);
    $(this.root, "odds").replaceChildren(
      el("div", { class: "odds-names" }, el("strong", { text: `${first.name} ${first.percent}%` }),
        draws ? el("span", { class: "hint", text: `draw ${draws}%` }) : null, el("strong", { text: `${second.percent}% ${second.name}` })),
      el("div", { class: "odds-bar" }, el("span", { class: "odds-one", style: `width:${first.percent}%` }),
        el("span", { class: "odds-draw", style: `width:${draws}%` }), el("span", { class: "odds-two" })));
    $(this.root, "odds-note").textContent = `Each side's chance to win, over ${battle.odds.trials} battles of these rosters.`;
    $(this.root, "battle-png").href = `/api/games/${encodeURIComponent(this.id)}/results.png?v=${battle.seed}-${this.text.length}`;
    $(this.root, "rounds-title").textContent = `Round by round (${plural(battle.rounds.length, "round", "rounds")})`;
    $(this.root, "rounds").replaceChildren(...battle.rounds.map((round, index) =>
      el("li", {}, el("details", { open: index === battle.rounds.length - 1 },
        el("summary", { text: `Round ${round.round}` }),
        el("ul", {}, round.lines.map((line) => el("li", { class: line.startsWith("\u2003") ? "sub" : "", text: line.trim() })))))));
  }

  async roll(method, path) {
    try { await this.change(() => api(method, path)); } catch (err) { toast(err.message, "bad"); }
  }

  /** The end of the game: the winners (ties named together), the standings, the results to keep or share. */
  showEnd(open, scroll = true) {
    const panel = $(this.root, "end");
    panel.hidden = !open;
    if (!open || !this.doc) return;
    const board = this.doc.scoreboard;
    const winners = board.filter((row) => row.place === 1);
    const missing = this.doc.players.filter((_, i) => !board.some((row) => row.player === i + 1)).length;
    const maker = this.doc.kind === "maker";
    $(this.root, "winner").textContent = !winners.length ? "No sheet is scored yet." : maker ? this.doc.winner.line
      : winners.length === 1 ? `${winners[0].name} wins with ${plural(winners[0].total, "point", "points")}!`
        : `A tie: ${winners.slice(0, -1).map((row) => row.name).join(", ")} and ${winners.at(-1).name} share first place with ${plural(winners[0].total, "point", "points")}.`;
    $(this.root, "end-list").replaceChildren(...board.map((row) => el("li", { class: row.place === 1 ? "first" : "" },
      el("span", { class: "place", text: row.place }), el("span", { class: "who", text: row.name }),
      el("span", { class: "pts", text: row.total }))));
    const review = this.doc.needs_review;
    $(this.root, "end-note").textContent = [missing ? `${plural(missing, "sheet is", "sheets are")} not photographed yet.` : "",
      review ? `${plural(review, "sheet still needs", "sheets still need")} a look.` : ""].filter(Boolean).join(" ");
    $(this.root, "png").href = `/api/games/${encodeURIComponent(this.id)}/results.png?v=${encodeURIComponent(this.text.length)}`;
    if (scroll) panel.scrollIntoView({ behavior: "smooth", block: "start" });
  }

  showUnread(doc) {
    const failed = doc.photos.filter((photo) => photo.error);
    $(this.root, "unread").hidden = !failed.length;
    $(this.root, "unread-list").replaceChildren(...failed.map((photo) =>
      el("li", {}, el("p", {}, el("strong", { text: photo.name || "a photo" }), ` (${when(photo.uploaded)}): ${photo.error}`),
        el("button", { type: "button", class: "btn btn-quiet btn-small", text: "Dismiss",
          onclick: () => this.dismiss(photo) }))));
  }

  async dismiss(photo) {
    try {
      const doc = await this.change(() => api("DELETE", `/api/games/${encodeURIComponent(this.id)}/photos/${encodeURIComponent(photo.id)}`));
      if (doc && doc.undo) offerUndo(`${photo.name} dismissed.`, () => this.undo(doc.undo));
    } catch (err) { toast(err.message, "bad"); }
  }
}

/** A QR code SVG from the server (squares only), parsed as an image document, never run as HTML. */
function safeSvg(text) {
  const parsed = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
  if (!parsed || parsed.nodeName.toLowerCase() !== "svg") return null;
  parsed.querySelectorAll("script, foreignObject").forEach((n) => n.remove());
  parsed.removeAttribute("width");
  parsed.removeAttribute("height");
  return document.importNode(parsed, true);
}

// ---------------------------------------------------------------- one player's card

class CardView {
  constructor(game, number) {
    this.game = game;
    this.number = number;
    this.sheets = new Map();   // sheet id -> SheetView
    const fragment = fromTemplate("tpl-card");
    this.root = fragment.firstElementChild;
    this.root.id = `player-${number}`;
    this.root.dataset.player = number;
    $(this.root, "number").textContent = number;
    $(this.root, "file").addEventListener("change", (event) => {
      const file = event.target.files && event.target.files[0];
      event.target.value = "";
      if (file) this.upload(file);
    });
  }

  focus() {
    this.root.scrollIntoView({ behavior: "smooth", block: "start" });
  }

  update(doc) {
    this.doc = doc;
    const name = doc.players[this.number - 1] || `Player ${this.number}`;
    $(this.root, "name").textContent = name;
    const mine = doc.sheets.filter((sheet) => sheet.player === this.number);
    const total = $(this.root, "total");
    total.textContent = mine.length === 1 ? (mine[0].kind === "monster" ? this.monsterCount(mine[0]) : `${mine[0].total}`) : "";
    total.hidden = mine.length !== 1;
    total.classList.toggle("count", mine.length === 1 && mine[0].kind === "monster");
    this.root.classList.toggle("has-sheet", mine.length > 0);
    this.root.classList.toggle("needs-look", mine.some((s) => s.needs_review && s.needs_review.length));

    for (const [id, view] of this.sheets) {
      if (!mine.some((sheet) => sheet.id === id)) { view.root.remove(); this.sheets.delete(id); }
    }
    const body = $(this.root, "sheets");
    mine.forEach((sheet) => {
      let view = this.sheets.get(sheet.id);
      if (!view) {
        view = sheet.kind === "monster" ? new MonsterSheetView(this, sheet)
          : sheet.kind === "maker" ? new MakerSheetView(this, sheet) : new SheetView(this, sheet);
        this.sheets.set(sheet.id, view);
      }
      body.append(view.root);
      view.update(sheet, doc);
    });
    if (mine.length > 1) {
      this.setNote(`${mine.length} photos of this sheet: only the first counts. Remove the one that is wrong.`, "warn");
    } else if (this.noteKind === "warn") {
      this.setNote("");
    }
    $(this.root, "file-label").textContent = mine.length ? "Retake photo" : "Photograph sheet";
    $(this.root, "upload").classList.toggle("again", mine.length > 0);
    $(this.root, "upload-hint").hidden = mine.length > 0;
  }

  monsterCount(sheet) {
    const roster = (this.doc.rosters || []).find((r) => r.player === sheet.player);
    return roster ? plural(roster.monsters.length, "monster", "monsters") : "";
  }

  setNote(text, kind = "") {
    const note = $(this.root, "note");
    note.textContent = text;
    note.hidden = !text;
    note.className = `card-note ${kind}`;
    this.noteKind = text ? kind : "";
  }

  setError(text) {
    const box = $(this.root, "error");
    box.replaceChildren();
    box.hidden = !text;
    if (text) {
      box.append(el("strong", { text: "That photo could not be used." }), text.charAt(0).toUpperCase() + text.slice(1),
        el("button", { type: "button", class: "close", "aria-label": "Close", text: "\u00d7", onclick: () => this.setError("") }));
    }
  }

  /** The sheet this card shows now (the first, when a second photo of it waits to be sorted out). */
  current() {
    return (this.game.doc ? this.game.doc.sheets : []).find((s) => s.player === this.number) || null;
  }

  async upload(original) {
    const game = this.game;
    const busy = $(this.root, "busy");
    const busyText = $(this.root, "busy-text");
    const old = this.current();
    const params = {};
    if (old) {
      // A retake replaces this sheet (with Undo); its hand corrections are never dropped without asking.
      params.replaces = old.id;
      if (old.corrections) {
        const choice = await ask(`${old.name}'s sheet has ${plural(old.corrections, "hand correction", "hand corrections")}. ` +
          "Keep them on the new photo (where it still reads otherwise), or drop them?",
          [["keep", "Keep corrections", "btn-main"], ["drop", "Drop them"], [null, "Cancel"]]);
        if (!choice) return;
        params.corrections = choice;
      }
    }
    this.setError("");
    this.setNote("");
    busy.hidden = false;
    this.root.classList.add("uploading");
    busyText.textContent = "Preparing the photo…";
    try {
      const file = await shrinkPhoto(original);
      busyText.textContent = "Sending the photo…";
      const doc = await game.change(() => uploadPhoto(game.id, file, (part) => {
        busyText.textContent = part < 1 ? `Sending the photo… ${Math.round(part * 100)}%` : "Reading the sheet…";
      }, params));
      const added = doc.sheets.filter((s) => (doc.added || []).includes(s.id));
      const others = added.filter((s) => s.player !== this.number);
      if (others.length) {
        const names = others.map((s) => `${s.name} (player ${s.player})`).join(", ");
        this.setNote(`That photo was the sheet of ${names}: it is on their card.`);
      }
      const mine = game.doc.sheets.find((s) => s.player === this.number);
      const said = mine && (mine.kind === "monster" ? this.monsterCount(mine) + " read" : `${mine.total} points`);
      if (doc.undo) offerUndo(`${mine ? mine.name : "The"} sheet retaken${mine ? `: ${said}` : ""}.`, () => game.undo(doc.undo));
      else if (mine && added.some((s) => s.id === mine.id)) toast(`${mine.name}: ${said}`, "good");
    } catch (err) {
      this.setError(err.message);
      game.refresh();   // a photo that could not be read is still listed by the server
    } finally {
      busy.hidden = true;
      this.root.classList.remove("uploading");
    }
  }
}

// ---------------------------------------------------------------- one scanned sheet

class SheetView {
  constructor(card, sheet) {
    this.card = card;
    this.id = sheet.id;
    this.mode = "map";            // "map": the dungeon fills the width; "sheet": the whole page
    this.selected = null;         // the room whose options show under the picture
    this.pending = new Map();     // room -> reading sent but not answered yet
    this.pendingMarks = new Map();   // mark -> marked, sent but not answered yet
    this.pendingRound = null;     // { room, round } sent but not answered yet
    this.chain = Promise.resolve();
    const fragment = fromTemplate("tpl-sheet");
    this.root = fragment.firstElementChild;
    this.img = $(this.root, "img");
    this.wrap = $(this.root, "wrap");
    this.stage = $(this.root, "stage");
    this.img.addEventListener("load", () => this.layout());
    this.wrap.addEventListener("click", (event) => this.tap(event));
    $(this.root, "zoom").addEventListener("click", () => {
      this.mode = this.mode === "map" ? "sheet" : "map";
      $(this.root, "zoom").textContent = this.mode === "map" ? "Whole sheet" : "Map only";
      this.layout();
    });
    $(this.root, "minus").addEventListener("click", () => this.stepTally(-1));
    $(this.root, "plus").addEventListener("click", () => this.stepTally(1));
    $(this.root, "tally").addEventListener("change", () => this.sendTally());
    $(this.root, "remove").addEventListener("click", () => this.removePhoto());
    if (window.ResizeObserver) new ResizeObserver(() => this.layout()).observe(this.wrap);
  }

  get game() { return this.card.game; }

  update(sheet, doc) {
    this.sheet = sheet;
    this.doc = doc;
    const geometry = sheet.geometry;
    this.rooms = new Map(geometry.rooms.map((r) => [r.room, r]));
    if (this.src !== sheet.overlay) {
      this.src = sheet.overlay;
      if (!this.img.getAttribute("src")) {
        this.img.src = sheet.overlay;
      } else {
        // Swap when the new picture is in, so the old one stays on screen meanwhile.
        const next = new Image();
        next.onload = () => { if (this.src === sheet.overlay) this.img.src = sheet.overlay; };
        next.src = sheet.overlay;
      }
    }
    this.layout();
    this.showMarks();
    this.showCorrected();
    this.showReview();
    this.showBreakdown();
    this.showTally();
    this.showTraps();
    this.showRoomPanel();
    this.showMarksPanel();
    const photo = doc.photos.find((p) => p.id === sheet.photo_id);
    $(this.root, "photo-name").textContent = photo ? `${photo.name} · ${when(photo.uploaded)}` : "";
  }

  // -- the picture: which part shows, and where a tap lands

  crop() {
    const g = this.sheet.geometry;
    const k = g.px_per_mm;
    if (this.mode === "sheet") {
      return { x: 0, y: 0, w: this.img.naturalWidth || g.width, h: this.img.naturalHeight || g.height };
    }
    const rooms = g.rooms;
    const left = Math.min(...rooms.map((r) => r.x)) - 11, top = Math.min(...rooms.map((r) => r.y)) - 11;
    const right = Math.max(...rooms.map((r) => r.x + r.w)) + 9, bottom = Math.max(...rooms.map((r) => r.y + r.h)) + 9;
    const x = Math.max(0, left * k), y = Math.max(0, top * k);
    return { x, y, w: Math.min(g.width, right * k) - x, h: Math.min(g.height, bottom * k) - y };
  }

  layout() {
    if (!this.sheet) return;
    const box = this.crop();
    const width = this.wrap.clientWidth || 1;
    const scale = width / box.w;
    this.scale = scale;
    this.box = box;
    this.wrap.style.height = `${Math.round(box.h * scale)}px`;
    this.stage.style.width = `${this.sheet.geometry.width}px`;
    this.stage.style.transform = `scale(${scale}) translate(${-box.x}px, ${-box.y}px)`;
    this.stage.style.setProperty("--s", scale);
  }

  roomAt(clientX, clientY) {
    const rect = this.wrap.getBoundingClientRect();
    const k = this.sheet.geometry.px_per_mm;
    const xmm = ((clientX - rect.left) / this.scale + this.box.x) / k;
    const ymm = ((clientY - rect.top) / this.scale + this.box.y) / k;
    return this.sheet.geometry.rooms.find((r) => xmm >= r.x && xmm < r.x + r.w && ymm >= r.y && ymm < r.y + r.h) || null;
  }

  reading(name) {
    if (this.pending.has(name)) return this.pending.get(name);
    return readingOf(this.sheet.rooms[name]);
  }

  tap(event) {
    const room = this.roomAt(event.clientX, event.clientY);
    if (!room) return;
    const options = room.options || [];
    if (!options.length) return;
    const now = this.reading(room.room);
    const at = options.indexOf(now);
    const next = options[(at + 1) % options.length];
    this.selected = room.room;
    this.setReading(room.room, next);
  }

  /** Sends one room's new reading; taps in a row are sent in order, each from the one before. */
  setReading(name, reading, reset = false) {
    if (reset) this.pending.delete(name);
    else this.pending.set(name, reading);
    this.showMarks();
    this.showRoomPanel();
    const game = this.game;
    const path = `/api/games/${encodeURIComponent(game.id)}/sheets/${encodeURIComponent(this.id)}/rooms/${encodeURIComponent(name)}`;
    const send = () => game.change(() => (reset ? api("DELETE", path) : api("PUT", path, { reading })));
    this.chain = this.chain.then(send).then(() => {
      if (this.pending.get(name) === reading || reset) this.pending.delete(name);
      this.showMarks();
      this.showRoomPanel();
    }).catch((err) => {
      this.pending.delete(name);
      toast(`${name}: ${err.message}`, "bad");
      game.refresh();
    });
    return this.chain;
  }

  showMarks() {
    const k = this.sheet.geometry.px_per_mm;
    const marks = [];
    for (const room of this.sheet.geometry.rooms) {
      const info = this.sheet.rooms[room.room];
      const corrected = (info && info.corrected) || this.pending.has(room.room);
      const selected = this.selected === room.room;
      if (!corrected && !selected) continue;
      marks.push(el("div", {
        class: `mark${corrected ? " corrected" : ""}${selected ? " selected" : ""}${this.pending.has(room.room) ? " sending" : ""}`,
        style: `left:${room.x * k}px;top:${room.y * k}px;width:${room.w * k}px;height:${room.h * k}px`,
        "data-room": room.room,
      }));
    }
    $(this.root, "marks").replaceChildren(...marks);
  }

  showRoomPanel() {
    const panel = $(this.root, "room-panel");
    const room = this.selected && this.rooms.get(this.selected);
    if (!room) { panel.hidden = true; return; }
    const now = this.reading(room.room);
    const info = this.sheet.rooms[room.room];
    const corrected = (info && info.corrected) || this.pending.has(room.room);
    panel.hidden = false;
    panel.replaceChildren(
      el("div", { class: "room-head" },
        el("strong", { text: `Room ${room.room}` }),
        el("span", { class: "room-now", text: `${readingWords(now)}${corrected ? " (corrected)" : ""}` }),
        // Always there (hidden until a correction), so nothing under a finger moves when it appears.
        el("button", { type: "button", class: `btn btn-quiet btn-small${corrected ? "" : " unseen"}`, text: "Reset",
          "aria-hidden": corrected ? null : "true", tabindex: corrected ? null : "-1",
          onclick: () => this.setReading(room.room, null, true) }),
        el("button", { type: "button", class: "close", "aria-label": "Close", text: "\u00d7",
          onclick: () => { this.selected = null; this.showMarks(); this.showRoomPanel(); } })),
      el("div", { class: "options", role: "group", "aria-label": `Readings for ${room.room}` },
        (room.options || []).map((option) => el("button", {
          type: "button", class: `option${option === now ? " chosen" : ""}`, title: readingWords(option),
          "aria-label": readingWords(option), "aria-pressed": option === now ? "true" : "false",
          onclick: () => { if (option !== this.reading(room.room)) this.setReading(room.room, option); },
        }, glyph(option), el("small", { text: option === "" ? "empty" : option === "X" ? "trap" : option })))),
      ...[this.roundRow(room.room, now)].filter(Boolean));
  }

  /** The round number written in a room, as buttons: none, 1-7 (a room with something drawn only). */
  roundRow(name, reading) {
    const info = this.sheet.rooms[name];
    if (!reading || !info) return null;
    const now = this.pendingRound && this.pendingRound.room === name ? this.pendingRound.round : info.round;
    const choices = [null, 1, 2, 3, 4, 5, 6, 7];
    return el("div", { class: "round-row" },
      el("span", { class: "round-label", text: "Round" }),
      el("div", { class: "rounds", role: "group", "aria-label": `Round number in ${name}` },
        choices.map((n) => el("button", { type: "button", class: `round${n === now ? " chosen" : ""}`,
          "aria-pressed": n === now ? "true" : "false", "aria-label": n === null ? "no round number" : `round ${n}`,
          text: n === null ? "\u2013" : n, onclick: () => { if (n !== now) this.setRound(name, n); } }))),
      info.round_corrected ? el("button", { type: "button", class: "btn btn-quiet btn-small", text: "Reset round",
        onclick: () => this.setRound(name, null, true) }) : null);
  }

  async setRound(name, round, reset = false) {
    this.pendingRound = reset ? null : { room: name, round };
    this.showRoomPanel();
    const path = `/api/games/${encodeURIComponent(this.game.id)}/sheets/${encodeURIComponent(this.id)}/rounds/${encodeURIComponent(name)}`;
    try { await this.game.change(() => (reset ? api("DELETE", path) : api("PUT", path, { round }))); }
    catch (err) { toast(`${name}: ${err.message}`, "bad"); }
    finally { this.pendingRound = null; this.showRoomPanel(); }
  }

  /** The expansion marks, each a button that says what was read and changes it: Diamonds and Emeralds
   *  crossed out, the Curse Track's halves, the Rune Gates. */
  showMarksPanel() {
    const panel = $(this.root, "marks-panel");
    const marks = this.sheet.marks || [];
    panel.hidden = !marks.length;
    if (!marks.length) return;
    const groups = [["diamond", "Diamonds crossed out"], ["emerald", "Emeralds crossed out"],
      ["curse_top", "Curse Track, top halves"], ["curse_bottom", "Curse Track, bottom halves"], ["gate", "Rune Gates filled in"]];
    const corrected = marks.filter((m) => m.corrected);
    panel.replaceChildren(el("h3", { text: "Marks" }),
      el("p", { class: "hint", text: "Tap a mark to change what was read." }),
      ...groups.filter(([kind]) => marks.some((m) => m.kind === kind)).map(([kind, title]) =>
        el("div", { class: "mark-group" }, el("span", { class: "mark-title", text: title }),
          el("div", { class: "mark-buttons" }, marks.filter((m) => m.kind === kind).map((m) => this.markButton(m))))),
      ...(corrected.length ? [el("button", { type: "button", class: "btn btn-quiet btn-small", text: "Reset marks",
        onclick: () => corrected.forEach((m) => this.setMark(m, null)) })] : []));
  }

  markButton(mark) {
    const marked = this.pendingMarks.has(mark.mark) ? this.pendingMarks.get(mark.mark) : mark.marked;
    const short = mark.kind === "gate" ? mark.where : mark.label.replace(/^(Diamond|Emerald|Curse) /, "").replace(/ (top|bottom)$/, "");
    return el("button", {
      type: "button", class: `mark-toggle kind-${mark.kind}${marked ? " on" : ""}${mark.corrected ? " fixed" : ""}`,
      "aria-pressed": marked ? "true" : "false", "data-mark": mark.mark,
      "aria-label": `${mark.label}: ${marked ? "marked" : "not marked"}${mark.corrected ? " (corrected)" : ""}`,
      title: mark.room ? `${mark.label}, room ${mark.room}` : mark.label,
      onclick: () => this.setMark(mark, !marked),
    }, el("span", { text: short }));
  }

  async setMark(mark, marked) {
    if (marked === null) this.pendingMarks.delete(mark.mark);
    else this.pendingMarks.set(mark.mark, marked);
    this.showMarksPanel();
    const path = `/api/games/${encodeURIComponent(this.game.id)}/sheets/${encodeURIComponent(this.id)}/marks/${encodeURIComponent(mark.mark)}`;
    this.chain = this.chain.then(() => this.game.change(() => (marked === null ? api("DELETE", path) : api("PUT", path, { marked }))))
      .catch((err) => toast(`${mark.label}: ${err.message}`, "bad"))
      .finally(() => { if (this.pendingMarks.get(mark.mark) === marked) this.pendingMarks.delete(mark.mark); this.showMarksPanel(); });
    return this.chain;
  }

  showCorrected() {
    const box = $(this.root, "corrected");
    const names = Object.entries(this.sheet.rooms).filter(([, r]) => r.corrected).map(([name]) => name).sort();
    box.hidden = !names.length;
    if (!names.length) return;
    box.replaceChildren(
      el("span", { class: "corrected-title", text: "Corrected by hand:" }),
      ...names.map((name) => el("button", { type: "button", class: "chip", title: `Put back what was read in ${name}`,
        onclick: () => this.setReading(name, null, true) },
        el("strong", { text: name }), ` ${readingWords(readingOf(this.sheet.rooms[name]))} `, el("span", { class: "x", text: "\u00d7" }))),
      ...(names.length > 1 ? [el("button", { type: "button", class: "btn btn-quiet btn-small", text: "Reset all",
        onclick: () => names.forEach((name) => this.setReading(name, null, true)) })] : []));
  }

  showReview() {
    const box = $(this.root, "review");
    const review = this.sheet.needs_review || [];
    box.hidden = !review.length;
    if (!review.length) return;
    box.replaceChildren(
      el("h3", { text: `Needs a look (${review.length})` }),
      el("p", { class: "hint", text: "Numbered as ringed on the picture. Tap a place to open it." }),
      el("ol", {}, review.map((entry, index) => {
        const elsewhere = Boolean(entry.sheet) && entry.sheet !== this.id;
        const opens = elsewhere || this.rooms.has(entry.where);
        // Another sheet's entry names its player (or "the other photo" of this player's sheet), and opens it.
        const whose = entry.player_name === this.sheet.name ? "the other photo" : entry.player_name;
        const place = entry.where && entry.where !== "sheet" ? entry.where : "";
        const label = elsewhere ? [whose, place].filter(Boolean).join(": ") : entry.where || "";
        const open = () => {
          const target = elsewhere ? this.game.sheetView(entry.sheet) : this;
          if (target) target.open(entry.where);
        };
        return el("li", { value: index + 1 },
          opens ? el("button", { type: "button", class: "where", text: label, "data-sheet": entry.sheet || this.id,
            onclick: open }) : el("span", { class: "where", text: label }),
          el("span", { text: ` ${entry.why || ""}` }));
      })));
  }

  /** Show this sheet, with `where` (a room of it) selected when it is one. */
  open(where) {
    if (this.rooms.has(where)) {
      this.selected = where;
      this.showMarks();
      this.showRoomPanel();
    }
    this.wrap.scrollIntoView({ behavior: "smooth", block: "center" });
  }

  showBreakdown() {
    const table = $(this.root, "breakdown");
    const score = this.sheet.score || { lines: [], total: this.sheet.total };
    table.replaceChildren(
      el("caption", { text: "Score" }),
      el("tbody", {}, score.lines.map((line) => el("tr", { class: line.points < 0 ? "minus" : line.points > 0 ? "plus" : "zero" },
        el("td", { class: "n" }, el("span", { text: line.item })),
        el("td", { class: "what" }, el("span", { text: line.label }),
          line.rooms.length || line.note ? el("small", { text: [line.rooms.join(" "), line.note].filter(Boolean).join(" · ") }) : null),
        el("td", { class: "count", text: `\u00d7${line.count}` }),
        el("td", { class: "pts", text: signed(line.points) })))),
      el("tfoot", {}, el("tr", {}, el("td", {}), el("th", { scope: "row", text: "Total" }), el("td", {}),
        el("td", { class: "pts total", "data-total": this.sheet.player, text: this.sheet.total }))));
  }

  showTally() {
    const input = $(this.root, "tally");
    if (document.activeElement !== input && this.tallyTimer === undefined) input.value = this.sheet.unusable;
    const note = $(this.root, "tally-note");
    note.hidden = !this.sheet.unusable_corrected;
    note.replaceChildren("Tally corrected by hand. ",
      el("button", { type: "button", class: "btn btn-quiet btn-small", text: "Reset", onclick: () => this.resetTally() }));
  }

  async resetTally() {
    const path = `/api/games/${encodeURIComponent(this.game.id)}/sheets/${encodeURIComponent(this.id)}/tally`;
    try { await this.game.change(() => api("DELETE", path)); }
    catch (err) { toast(err.message, "bad"); }
  }

  stepTally(delta) {
    const input = $(this.root, "tally");
    const value = Math.max(0, Math.min(40, (parseInt(input.value, 10) || 0) + delta));
    input.value = value;
    clearTimeout(this.tallyTimer);
    this.tallyTimer = setTimeout(() => this.sendTally(), 500);
  }

  async sendTally() {
    clearTimeout(this.tallyTimer);
    this.tallyTimer = undefined;
    const input = $(this.root, "tally");
    const count = parseInt(input.value, 10);
    if (!(count >= 0 && count <= 40)) {
      toast("The tally is a whole number from 0 to 40.", "bad");
      input.value = this.sheet.unusable;
      return;
    }
    if (count === this.sheet.unusable) return;
    const path = `/api/games/${encodeURIComponent(this.game.id)}/sheets/${encodeURIComponent(this.id)}/tally`;
    try { await this.game.change(() => api("PUT", path, { count })); }
    catch (err) { toast(err.message, "bad"); input.value = this.sheet.unusable; }
  }

  showTraps() {
    const list = $(this.root, "traps");
    const hits = this.sheet.trap_hits || [];
    list.hidden = !hits.length;
    list.replaceChildren(...hits.map((hit) => el("li", {},
      el("span", { class: "trap-x", "aria-hidden": "true", text: "\u2715" }),
      hit.shared ? `Trap in ${hit.room}: another player drew one there too, so it caught its owner.`
        : `Trap in ${hit.room}: laid by ${this.ownerName(hit.by)}.`)));
  }

  ownerName(source) {
    const doc = this.doc;
    const sheet = doc.sheets.find((s) => s.source === source || s.id === source);
    if (sheet) return sheet.name;
    const photo = doc.photos.find((p) => p.name === source || p.id === source);
    const owner = photo && doc.sheets.find((s) => s.photo_id === photo.id);
    return owner ? owner.name : source;
  }

  async removePhoto() {
    const sheet = this.sheet;
    const fixes = sheet.corrections ? ` Its ${plural(sheet.corrections, "hand correction goes", "hand corrections go")} with it.` : "";
    const choice = await ask(`Remove this photo of ${sheet.name}'s sheet?${fixes} You can undo it for a few seconds.`,
      [["remove", "Remove photo", "btn-danger"], [null, "Keep it"]]);
    if (!choice) return;
    const game = this.game;
    const path = `/api/games/${encodeURIComponent(game.id)}/photos/${encodeURIComponent(sheet.photo_id)}`;
    try {
      const doc = await game.change(() => api("DELETE", path));
      offerUndo(`Photo of ${sheet.name}'s sheet removed.`, () => game.undo(doc.undo));
    } catch (err) { toast(err.message, "bad"); }
  }
}

// ---------------------------------------------------------------- one monster record sheet

const SIZES = ["d4", "d6", "d8", "d10", "d12", "d20"];
const COLOURS = ["red", "blue", "green", "yellow", "black", "white", "brown", "gray", "colourless", "purple", "orange", "pink"];
const PART_TYPES = ["weapon", "shield", "combo", "nullifier"];

/** A die as a chip with its colour's swatch: "d8 red". */
function dieChip(die) {
  if (!die) return el("span", { class: "die-chip none", text: "no die" });
  const [size, colour] = die.split(" ");
  return el("span", { class: "die-chip" }, el("i", { class: `swatch c-${colour}`, "aria-hidden": "true" }), `${size} ${colour}`);
}

class MonsterSheetView {
  constructor(card, sheet) {
    this.card = card;
    this.id = sheet.id;
    this.editing = null;          // the row (or pool) whose editor is open
    const fragment = fromTemplate("tpl-monster-sheet");
    this.root = fragment.firstElementChild;
    this.img = $(this.root, "img");
    $(this.root, "remove").addEventListener("click", () => SheetView.prototype.removePhoto.call(this));
  }

  get game() { return this.card.game; }

  base() { return `/api/games/${encodeURIComponent(this.game.id)}/sheets/${encodeURIComponent(this.id)}`; }

  update(sheet, doc) {
    this.sheet = sheet;
    this.doc = doc;
    if (this.img.getAttribute("src") !== sheet.overlay) {
      const next = new Image();
      next.onload = () => { if (this.sheet.overlay === sheet.overlay) this.img.src = sheet.overlay; };
      next.src = sheet.overlay;
      if (!this.img.getAttribute("src")) this.img.src = sheet.overlay;
    }
    $(this.root, "picture").href = sheet.overlay;
    $(this.root, "photo-name").textContent = `${sheet.source} \u00b7 sheet ${sheet.page}`;
    this.showReview();
    this.showCards();
    this.showPools();
  }

  open() { this.root.scrollIntoView({ behavior: "smooth", block: "start" }); }

  showReview() {
    const box = $(this.root, "review");
    const review = this.sheet.needs_review || [];
    box.hidden = !review.length;
    if (!review.length) return;
    box.replaceChildren(el("h3", { text: `Needs a look (${review.length})` }),
      el("p", { class: "hint", text: "Numbered as ringed on the picture: correct the row below, and it leaves this list." }),
      el("ol", {}, review.map((entry, index) => el("li", { value: index + 1 },
        el("span", { class: "where", text: entry.where || "" }), el("span", { text: ` ${entry.why || ""}` })))));
  }

  showCards() {
    const cards = this.sheet.cards.map((card) => {
      const read = card.rows.filter((row) => row.size || row.colour || row.type);
      const rows = read.length ? card.rows : card.rows.slice(0, 1);
      return el("section", { class: `monster-card${read.length ? "" : " empty"}` },
        el("h3", { text: `Monster ${card.number}` }, read.length ? null : el("small", { text: " nothing marked" })),
        el("ul", { class: "part-rows" }, rows.map((row) => this.rowItem(row))));
    });
    $(this.root, "cards").replaceChildren(...cards);
  }

  rowItem(row) {
    const empty = !(row.size || row.colour || row.type);
    const open = this.editing === row.key;
    const die = row.size && row.colour ? `${row.size} ${row.colour}` : null;
    const button = el("button", { type: "button", class: `part-row${row.left ? " left" : ""}${row.corrected ? " fixed" : ""}${empty ? " blank" : ""}`,
      "aria-expanded": open ? "true" : "false", onclick: () => { this.editing = open ? null : row.key; this.showCards(); } },
      el("span", { class: "part-label", text: row.label }),
      empty ? el("span", { class: "hint", text: row.part ? "empty" : "no core: tap to add" }) : dieChip(die),
      row.type ? el("span", { class: "part-type", text: row.type }) : null,
      empty ? null : el("span", { class: "part-damage", text: row.left ? "left play" : row.damage ? `${row.damage} dmg` : "" }),
      row.corrected ? el("span", { class: "pen-mark", text: "corrected" }) : null);
    return el("li", {}, button, open ? this.rowEditor(row) : null);
  }

  rowEditor(row) {
    const pick = (name, values, chosen, label) => el("label", { class: "field" }, el("span", { text: label }),
      el("select", { "data-field": name }, (chosen ? [] : [el("option", { value: "", text: "choose…" })])
        .concat(values.map((v) => el("option", { value: v, text: v, selected: v === chosen })))));
    const form = el("div", { class: "part-editor" },
      el("div", { class: "fields" }, pick("size", SIZES, row.size, "Die"), pick("colour", COLOURS, row.colour, "Colour"),
        row.part ? pick("type", PART_TYPES, row.type, "Type") : null,
        el("label", { class: "field" }, el("span", { text: "Damage" }),
          el("input", { type: "number", inputmode: "numeric", min: 0, max: 20, value: row.damage || 0, "data-field": "damage" }))),
      el("p", { class: "form-error", hidden: true }),
      el("div", { class: "editor-buttons" },
        el("button", { type: "button", class: "btn btn-main btn-small", text: "Save", onclick: () => this.saveRow(row, form) }),
        el("button", { type: "button", class: "btn btn-quiet btn-small", text: row.part ? "No part here" : "No monster here",
          onclick: () => this.send("PUT", `/parts/${row.key}`, { die: null }) }),
        row.corrected ? el("button", { type: "button", class: "btn btn-quiet btn-small", text: "Reset",
          onclick: () => this.send("DELETE", `/parts/${row.key}`) }) : null));
    return form;
  }

  saveRow(row, form) {
    const value = (name) => { const f = form.querySelector(`[data-field="${name}"]`); return f ? f.value : ""; };
    const error = form.querySelector(".form-error");
    const missing = ["size", "colour"].concat(row.part ? ["type"] : []).filter((name) => !value(name));
    if (missing.length) {
      error.textContent = `Choose the ${missing.join(" and ")} first.`;
      error.hidden = false;
      return;
    }
    this.send("PUT", `/parts/${row.key}`, { die: `${value("size")} ${value("colour")}`, type: row.part ? value("type") : null,
      damage: Number(value("damage")) || 0 });
  }

  showPools() {
    const pools = ["reserve", "active"].map((pool) => {
      const dice = this.sheet[pool];
      const open = this.editing === pool;
      const title = pool === "reserve" ? "Reserve dice" : "Active dice";
      return el("section", { class: "pool" },
        el("button", { type: "button", class: `part-row pool-row${this.sheet.pools_corrected[pool] ? " fixed" : ""}`,
          "aria-expanded": open ? "true" : "false", onclick: () => { this.editing = open ? null : pool; this.showPools(); } },
          el("span", { class: "part-label", text: title }),
          el("span", { class: "pool-dice" }, dice.length ? dice.map(dieChip) : [el("span", { class: "hint", text: "none" })])),
        open ? this.poolEditor(pool, dice) : null);
    });
    $(this.root, "pools").replaceChildren(...pools);
  }

  poolEditor(pool, dice) {
    const input = el("input", { type: "text", value: dice.join(", "), autocomplete: "off", spellcheck: "false",
      "aria-label": "The dice, like d6 red, d8 blue" });
    return el("div", { class: "part-editor" },
      el("label", { class: "field wide" }, el("span", { text: "The dice, like d6 red, d8 blue" }), input),
      el("div", { class: "editor-buttons" },
        el("button", { type: "button", class: "btn btn-main btn-small", text: "Save",
          onclick: () => this.send("PUT", `/pools/${pool}`, { dice: input.value.split(",").map((d) => d.trim()).filter(Boolean) }) }),
        this.sheet.pools_corrected[pool] ? el("button", { type: "button", class: "btn btn-quiet btn-small", text: "Reset",
          onclick: () => this.send("DELETE", `/pools/${pool}`) }) : null));
  }

  async send(method, path, body) {
    try {
      await this.game.change(() => api(method, this.base() + path, body));
      this.editing = null;
      if (this.sheet) { this.showCards(); this.showPools(); }
    } catch (err) { toast(err.message, "bad"); }
  }
}

// ---------------------------------------------------------------- one Dungeon Maker sheet

const TILE_LETTERS = { "gate": "Gt", "spikes": "T", "slime": "S", "skeleton": "SK", "ghost": "GH", "giant-bat": "GB",
  "boss-slime": "BS", "golem": "G" };
const RECORD_COUNTS = [["gems", "Gems collected"], ["potions", "Potions collected"], ["rounds", "Rounds crossed off"],
  ["souls", "Souls (heroes who died)"], ["hearts", "Dungeon hearts crossed"]];
const ENTRANCES = ["A1:N", "A1:W", "F1:N", "F1:E", "A6:S", "A6:W", "F6:S", "F6:E"];

/** The nodes given, without the nulls of parts left out (replaceChildren would write "null"). */
function present(...nodes) { return nodes.filter((node) => node !== null && node !== undefined && node !== false); }

/** A tile as a small drawing: its path (a bridge dashed), a pond, the entrance, the stairs, what is there. */
function tileGlyph(tile) {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", "tile-glyph");
  svg.setAttribute("aria-hidden", "true");
  const add = (tag, attrs, text) => {
    const node = document.createElementNS(SVG_NS, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text) node.textContent = text;
    svg.append(node);
  };
  if (tile.acid) add("rect", { x: 2, y: 2, width: 20, height: 20, rx: 6, class: "g-acid" });
  const ends = { N: [12, 0], E: [24, 12], S: [12, 24], W: [0, 12] };
  for (const side of tile.path) {
    add("line", { x1: 12, y1: 12, x2: ends[side][0], y2: ends[side][1],
      class: `g-path${tile.bridge ? " bridge" : ""}${tile.entrance === side ? " in" : ""}` });
  }
  if (tile.path.length === 1 && !tile.stairs) add("circle", { cx: 12, cy: 12, r: 2.6, class: "g-dot" });
  const word = TILE_LETTERS[tile.room] || TILE_LETTERS[tile.on];
  if (word) add("text", { x: 12, y: 15.5, class: `g-word${tile.room ? " room" : ""}` }, word);
  if (tile.stairs) add("path", { d: "M14 21h2.5v-2.5h2.5v-2.5h2.5v-2.5", class: "g-stairs" });
  if (tile.loot) add("circle", { cx: 4.5, cy: 4.5, r: 3, class: "g-loot" });
  return svg;
}

function tileWords(tile, market) {
  const name = (id, list) => (list.find((item) => item.id === id) || { name: id }).name;
  const words = [];
  if (tile.path) words.push(`${tile.bridge ? "bridge" : "path"} ${tile.path.split("").join("\u2009")}`);
  if (tile.acid) words.push("Acid Pond");
  if (tile.room) words.push(name(tile.room, market.rooms));
  if (tile.on) words.push(name(tile.on, market.on_path));
  if (tile.stairs) words.push("Exit stairs");
  if (tile.entrance) words.push(`entrance ${tile.entrance}`);
  if (tile.loot) words.push(`${tile.loot} not collected`);
  return words.length ? words.join(", ") : "empty";
}

class MakerSheetView {
  constructor(card, sheet) {
    this.card = card;
    this.id = sheet.id;
    this.selected = null;         // the tile whose editor is open
    const fragment = fromTemplate("tpl-maker-sheet");
    this.root = fragment.firstElementChild;
    this.img = $(this.root, "img");
    $(this.root, "remove").addEventListener("click", () => SheetView.prototype.removePhoto.call(this));
  }

  get game() { return this.card.game; }

  base() { return `/api/games/${encodeURIComponent(this.game.id)}/sheets/${encodeURIComponent(this.id)}`; }

  update(sheet, doc) {
    this.sheet = sheet;
    this.doc = doc;
    this.market = doc.market;
    if (this.img.getAttribute("src") !== sheet.overlay) {
      const next = new Image();
      next.onload = () => { if (this.sheet.overlay === sheet.overlay) this.img.src = sheet.overlay; };
      next.src = sheet.overlay;
      if (!this.img.getAttribute("src")) this.img.src = sheet.overlay;
    }
    $(this.root, "picture").href = sheet.overlay;
    $(this.root, "photo-name").textContent = `${sheet.source} \u00b7 page ${sheet.player}`;
    MonsterSheetView.prototype.showReview.call(this);
    const hint = this.root.querySelector(".review .hint");
    if (hint) hint.textContent = "Numbered as ringed on the picture: correct the tile or the count, and it leaves this list.";
    this.showHeroes();
    this.showBreakdown();
    this.showGrid();
    this.showTilePanel();
    this.showPlaces();
    this.showRecord();
  }

  open() { this.root.scrollIntoView({ behavior: "smooth", block: "start" }); }

  showHeroes() {
    const heroes = this.sheet.heroes;
    const box = $(this.root, "heroes");
    box.className = `heroes state-${heroes.state}`;
    const play = (seed) => this.send("POST", "/heroes", seed === undefined ? undefined : { seed });
    // The table may score a sheet as it is: a dungeon the heroes cannot walk, or a night out of time.
    const skip = el("button", { type: "button", class: "btn btn-quiet btn-small", text: "Score without heroes",
      title: "Count the building score as final: no Souls, no dungeon HP lost", onclick: () => this.send("POST", "/heroes/skip") });
    const undo = el("button", { type: "button", class: "btn btn-quiet btn-small", text: "Undo: wait for the heroes", onclick: () => this.send("DELETE", "/heroes") });
    if (heroes.state !== "played") {
      box.replaceChildren(...present(el("h3", { text: heroes.state === "skipped" ? "No heroes" : "The heroes" }), el("p", { class: "hint", text: heroes.why }),
        heroes.state === "ready" ? el("button", { type: "button", class: "btn btn-main", text: "Play the heroes", onclick: () => play() }) : null,
        heroes.state === "ready" || heroes.state === "blocked" ? skip : heroes.state === "skipped" ? undo : null));
      return;
    }
    const died = heroes.heroes.filter((h) => h.fate === "died").length;
    box.replaceChildren(
      el("div", { class: "battle-head" }, el("h3", { text: "The heroes came" }), el("span", { class: "hint", text: `dice ${heroes.seed}` })),
      el("p", { class: "heroes-line" }, el("strong", { text: `${plural(died, "hero died", "heroes died")}, ${heroes.heroes.length - died} escaped` }),
        heroes.fallen ? " \u00b7 the dungeon fell" : "", ` \u00b7 route ${heroes.route.join(" ")}`),
      el("ol", { class: "hero-list" }, heroes.heroes.map((hero) => el("li", { class: hero.fate },
        el("details", {}, el("summary", {}, el("span", { class: "hero-fate", text: hero.fate === "died" ? "died" : "escaped" }), ` ${hero.title}`),
          el("ul", {}, hero.steps.map((line) => el("li", { text: line })), el("li", { class: "end", text: hero.end })))))),
      el("div", { class: "editor-buttons" },
        el("button", { type: "button", class: "btn btn-main btn-small", text: "Again with new dice", onclick: () => play() }),
        el("label", { class: "seed replay" }, el("span", { text: "Dice" }),
          el("input", { type: "number", inputmode: "numeric", min: 0, value: heroes.seed, "aria-label": "The dice of a hero phase to replay" }),
          el("button", { type: "button", class: "btn btn-quiet btn-small", text: "Replay", onclick: (event) => {
            const text = event.currentTarget.parentNode.querySelector("input").value.trim();
            if (/^\d{1,15}$/.test(text)) play(Number(text)); else toast("The dice are a whole number, like 1234.", "bad");
          } }))));
  }

  showBreakdown() {
    const score = this.sheet.score;
    const heroes = this.sheet.heroes;
    const final = heroes.state === "played" ? heroes.final : score;
    const row = (what, count, points) => el("tr", { class: points < 0 ? "minus" : points > 0 ? "plus" : "zero" },
      el("td", { class: "what" }, el("span", { text: what })), el("td", { class: "count", text: `\u00d7${count}` }),
      el("td", { class: "pts", text: signed(points) }));
    const rows = score.lines.map((line) => row(line.what, line.count, line.points));
    if (heroes.state === "played" || score.heroes_played) {
      rows.push(row("Souls (+3 each)", final.souls, final.souls_points), row("Dungeon HP lost (\u22122 each)", final.hp_lost, final.hp_points));
    }
    $(this.root, "breakdown").replaceChildren(el("caption", { text: "Scoring chart" }), el("tbody", {}, rows),
      el("tfoot", {}, el("tr", {}, el("th", { scope: "row", text: this.sheet.final ? "Total" : "So far" }), el("td", {}),
        el("td", { class: "pts total", "data-total": this.sheet.player, text: this.sheet.total }))));
  }

  showGrid() {
    const cells = [];
    for (const [index, tile] of this.sheet.tiles.entries()) {
      if (index % 6 === 0) cells.push(el("span", { class: "axis", text: tile.tile.slice(1) }));
      cells.push(el("button", { type: "button", role: "gridcell", "data-tile": tile.tile,
        class: `tile${tile.corrected ? " fixed" : ""}${tile.review.length ? " doubt" : ""}${this.selected === tile.tile ? " selected" : ""}`,
        "aria-label": `${tile.tile}: ${tileWords(tile, this.market)}`, onclick: () => this.select(tile.tile) },
        tileGlyph(tile), tile.review.length ? el("span", { class: "tile-doubt", text: tile.review.join(",") }) : null));
    }
    const head = [el("span", { class: "axis" }), ..."ABCDEF".split("").map((c) => el("span", { class: "axis", text: c }))];
    $(this.root, "grid").replaceChildren(...head, ...cells);
  }

  select(name) {
    this.selected = this.selected === name ? null : name;
    this.showGrid();
    this.showTilePanel();
  }

  showTilePanel() {
    const panel = $(this.root, "tile-panel");
    const tile = this.selected && this.sheet.tiles.find((t) => t.tile === this.selected);
    panel.hidden = !tile;
    if (!tile) { panel.replaceChildren(); return; }
    const sides = new Set(tile.path.split(""));
    const sideButtons = SIDES.split("").map((side) => el("button", { type: "button", class: `side-toggle${sides.has(side) ? " on" : ""}`,
      "aria-pressed": sides.has(side) ? "true" : "false", text: side, onclick: (event) => {
        const on = event.currentTarget.classList.toggle("on");
        event.currentTarget.setAttribute("aria-pressed", on ? "true" : "false");
      } }));
    const check = (name, label, on) => el("label", { class: "check" }, el("input", { type: "checkbox", "data-field": name, checked: on }), label);
    const pick = (name, label, items, chosen) => el("label", { class: "field" }, el("span", { text: label }),
      el("select", { "data-field": name }, [el("option", { value: "", text: "none" })].concat(items.map((item) =>
        el("option", { value: item.id, text: item.name, selected: item.id === chosen })))));
    const doubts = this.sheet.needs_review.filter((entry) => tile.review.includes(entry.number));
    panel.replaceChildren(...present(
      el("div", { class: "room-head" }, el("strong", { text: tile.tile }), el("span", { class: "room-now", text: tileWords(tile, this.market) }),
        tile.corrected ? el("span", { class: "pen-mark", text: "corrected" }) : null),
      doubts.length ? el("ul", { class: "tile-doubts" }, doubts.map((entry) => el("li", { text: `${entry.number}. ${entry.why}` }))) : null,
      el("div", { class: "part-editor" },
        el("div", { class: "field wide" }, el("span", { text: "Path through the sides" }), el("div", { class: "side-toggles" }, sideButtons)),
        el("div", { class: "checks" }, check("bridge", "Bridge path", tile.bridge), check("acid", "Acid Pond", tile.acid)),
        el("div", { class: "fields" }, pick("room", "Monster room", this.market.rooms, tile.room),
          pick("on", "On the path", this.market.on_path, tile.on)),
        el("div", { class: "editor-buttons" },
          el("button", { type: "button", class: "btn btn-main btn-small", text: "Save", onclick: () => this.saveTile(tile.tile, panel) }),
          el("button", { type: "button", class: "btn btn-quiet btn-small", text: "Empty tile", onclick: () => this.send("PUT", `/tiles/${tile.tile}`, {}) }),
          tile.corrected ? el("button", { type: "button", class: "btn btn-quiet btn-small", text: "Reset", onclick: () => this.send("DELETE", `/tiles/${tile.tile}`) }) : null,
          el("button", { type: "button", class: "btn btn-quiet btn-small", text: "Close", onclick: () => this.select(tile.tile) })))));
  }

  saveTile(name, panel) {
    const field = (key) => panel.querySelector(`[data-field="${key}"]`);
    const path = [...panel.querySelectorAll(".side-toggle.on")].map((b) => b.textContent).join("");
    this.send("PUT", `/tiles/${name}`, { path, bridge: field("bridge").checked, acid: field("acid").checked,
      room: field("room").value || null, on: field("on").value || null });
  }

  showPlaces() {
    const place = (key, label, options, now) => {
      const corrected = this.sheet.places_corrected.includes(key);
      const select = el("select", { "aria-label": label, onchange: (event) => this.send("PUT", `/places/${key}`, { at: event.target.value || null }) },
        [el("option", { value: "", text: "none", selected: !now })].concat(options.map((o) => el("option", { value: o, text: o, selected: o === now }))));
      return el("label", { class: `field place${corrected ? " fixed" : ""}` }, el("span", {}, label, corrected ? el("span", { class: "pen-mark", text: "corrected" }) : null), select,
        corrected ? el("button", { type: "button", class: "btn btn-quiet btn-small", text: "Reset", onclick: () => this.send("DELETE", `/places/${key}`) }) : null);
    };
    $(this.root, "places").replaceChildren(place("entrance", "Entrance", ENTRANCES, this.sheet.entrance),
      place("stairs", "Exit stairs", this.sheet.tiles.map((t) => t.tile), this.sheet.stairs));
  }

  showRecord() {
    const record = this.sheet.record;
    const limits = this.market.limits;
    const fixed = this.sheet.record_corrected;
    $(this.root, "record-title").replaceChildren(...present(el("span", { text: "Loot, spells, Souls, hearts" }),
      el("small", { text: `${plural(record.gems, "gem", "gems")} \u00b7 ${plural(record.potions, "potion", "potions")} \u00b7 ` +
        `${plural(record.souls, "Soul", "Souls")} \u00b7 ${plural(record.hearts, "heart", "hearts")}` }),
      fixed.length ? el("span", { class: "pen-mark", text: "corrected" }) : null));
    const counts = RECORD_COUNTS.map(([key, label]) => el("label", { class: `field${fixed.includes(key) ? " fixed" : ""}` }, el("span", { text: label }),
      el("input", { type: "number", inputmode: "numeric", min: 0, max: limits[key], value: record[key], "data-count": key })));
    const spells = ["spells_got", "spells_cast"].map((key) => el("fieldset", { class: "spells" },
      el("legend", { text: key === "spells_got" ? "Spells got (circled)" : "Spells cast" }),
      this.market.spells.map((spell) => el("label", { class: "check" }, el("input", { type: "checkbox", "data-spell": key, value: spell.id,
        checked: record[key].includes(spell.id) }), spell.name))));
    const box = $(this.root, "record");
    box.replaceChildren(el("div", { class: "part-editor" }, el("div", { class: "fields" }, counts), spells,
      el("div", { class: "editor-buttons" },
        el("button", { type: "button", class: "btn btn-main btn-small", text: "Save the record", onclick: () => this.saveRecord(box) }),
        fixed.length ? el("button", { type: "button", class: "btn btn-quiet btn-small", text: "Reset to what was read", onclick: () => this.send("DELETE", "/record") }) : null)));
  }

  saveRecord(box) {
    const body = {};
    for (const input of box.querySelectorAll("[data-count]")) body[input.dataset.count] = Number(input.value) || 0;
    for (const key of ["spells_got", "spells_cast"]) {
      body[key] = [...box.querySelectorAll(`[data-spell="${key}"]:checked`)].map((input) => input.value);
    }
    this.send("PUT", "/record", body);
  }

  async send(method, path, body) {
    try {
      await this.game.change(() => api(method, this.base() + path, body));
      if (path.startsWith("/tiles/")) { this.selected = null; if (this.sheet) { this.showGrid(); this.showTilePanel(); } }
    } catch (err) { toast(err.message, "bad"); }
  }
}
