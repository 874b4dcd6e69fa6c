// The game-night page of `scrawl serve`: a start screen (#/) and one game (#/game/ID).
// Plain JavaScript, no build step, no outside resources: the phones may have no internet.
"use strict";

const POLL_MS = 4000;                 // how often an open game is fetched again (other phones' uploads)
const SIDES = "NESW";
const DECKS = { "doodles": "Dungeon deck", "traps": "Trap deck", "monsters-reference": "Monster reference" };
const PAPERS = { "a4": "A4", "letter": "US Letter" };

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
    throw new ApiError(0, detailText(0, null));
  }
  let data = null;
  try { data = await response.json(); } catch (err) { data = null; }
  if (!response.ok) throw new ApiError(response.status, detailText(response.status, data));
  return data;
}

/** Upload one photo; XMLHttpRequest rather than fetch, for the upload progress on slow Wi-Fi. */
const MAX_PHOTO_BYTES = 25 * 1024 * 1024;   // the server refuses more (413); say so before sending it

function uploadPhoto(gameId, file, onProgress) {
  return new Promise((resolve, reject) => {
    if (file.size > MAX_PHOTO_BYTES) { reject(new ApiError(413, detailText(413, null))); return; }
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `/api/games/${encodeURIComponent(gameId)}/photos`);
    xhr.responseType = "json";
    xhr.upload.onprogress = (event) => { if (event.lengthComputable) onProgress(event.loaded / event.total); };
    xhr.upload.onload = () => onProgress(1);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) resolve(xhr.response);
      else reject(new ApiError(xhr.status, detailText(xhr.status, xhr.response)));
    };
    xhr.onerror = () => reject(new ApiError(0, detailText(0, null)));
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

function printLinks(container, sheetsHref, sheetsLabel, paper) {
  container.replaceChildren(
    el("a", { class: "btn btn-quiet print", href: sheetsHref, target: "_blank", rel: "noopener" },
      el("strong", { text: "Map sheets" }), el("small", { text: sheetsLabel })),
    ...Object.entries(DECKS).map(([name, label]) =>
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
      // The QR code is the server's own SVG (squares only); parsed as an image document, never run as HTML.
      const parsed = new DOMParser().parseFromString(server.qr_svg, "image/svg+xml").documentElement;
      if (parsed && parsed.nodeName.toLowerCase() === "svg") {
        parsed.querySelectorAll("script, foreignObject").forEach((n) => n.remove());
        parsed.removeAttribute("width");
        parsed.removeAttribute("height");
        $(this.root, "qr").replaceChildren(document.importNode(parsed, true));
      }
    } else {
      showAddress($(this.root, "url"), location.origin + "/");
    }
    this.choices($(this.root, "maps"), "map", known.maps.map((m) => [m.id, m.id === "random" ? "Random map" : m.name,
      m.id === "random" ? "new every seed" : "classic map"]), "classic");
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
    $(this.root, "print-hint").textContent = "One sheet per player, numbered: give sheet 1 to the first name. Print at 100%.";
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
    const map = this.value("map") || "classic";
    const seedText = $(this.root, "seed").value.trim();
    if (map === "random" && seedText !== "" && !/^\d{1,15}$/.test(seedText)) {
      error.textContent = "The seed is a whole number, like 1234 (or leave it empty for a new map).";
      error.hidden = false;
      return;
    }
    const body = { players: names, map, seed: map === "random" && seedText !== "" ? Number(seedText) : null,
      paper: this.value("paper") || "a4" };
    const submit = $(this.root, "submit");
    submit.disabled = true;
    error.hidden = true;
    try {
      const game = await api("POST", "/api/games", body);
      localStorage.setItem("scrawl.players", JSON.stringify(names));
      localStorage.setItem("scrawl.paper", body.paper);
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
        el("small", { text: `${mapName(game.map, this.known)} · ${plural(game.sheets, "sheet", "sheets")} · ${when(game.created)}` })))));
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
    this.busy = 0;               // uploads and corrections under way: polling waits for them
    const view = document.getElementById("view");
    view.replaceChildren(fromTemplate("tpl-game"));
    this.root = view;
    document.getElementById("topbar-note").textContent = "";
    $(view, "export").href = `/api/games/${encodeURIComponent(id)}/export`;
    this.onVisible = () => { if (document.visibilityState === "visible") this.refresh(); };
    document.addEventListener("visibilitychange", this.onVisible);
    this.timer = setInterval(() => { if (document.visibilityState === "visible") this.refresh(); }, POLL_MS);
    this.refresh(true);
  }

  leave() {
    this.left = true;
    clearInterval(this.timer);
    document.removeEventListener("visibilitychange", this.onVisible);
  }

  async refresh(first = false) {
    if (this.busy || this.fetching) return;
    this.fetching = true;
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
    }
  }

  /** Runs `work` (a promise-returning function whose answer is the game document) with polling paused. */
  async change(work) {
    this.busy += 1;
    try {
      const doc = await work();
      if (doc && !this.left) this.show(doc, true);
      return doc;
    } finally {
      this.busy -= 1;
    }
  }

  async show(doc, force = false) {
    const text = JSON.stringify(doc, (key, value) => (key === "added" ? undefined : value));
    if (!force && text === this.text) return;
    this.text = text;
    this.doc = doc;
    const known = (await maps()).maps;
    if (this.left) return;
    const title = mapName(doc.map, known);
    $(this.root, "title").textContent = doc.players.join(", ");
    document.title = `${doc.players.join(", ")}: Dungeon Scrawl`;
    $(this.root, "meta").textContent = `${title} · ${PAPERS[doc.paper] || doc.paper} · started ${when(doc.created)}`;
    document.getElementById("topbar-note").textContent = title;

    const read = new Set(doc.sheets.map((s) => s.player));
    const waiting = doc.players.filter((_, i) => !read.has(i + 1)).length;
    const status = [];
    const done = doc.players.length - waiting;
    if (!done) status.push("Photograph each sheet to score it");
    else status.push(waiting ? `${done} of ${plural(doc.players.length, "sheet", "sheets")} read` : "Every sheet is read");
    if (doc.needs_review) status.push(`${plural(doc.needs_review, "sheet needs", "sheets need")} a look`);
    const line = $(this.root, "status");
    line.textContent = status.join(" \u00b7 ");
    line.className = `game-status${doc.needs_review ? " warn" : waiting ? "" : " good"}`;

    this.showStandings(doc);
    this.showCards(doc);
    this.showUnread(doc);
    const paper = doc.paper || "a4";
    if (doc.print) {
      const sheetsHref = doc.print.sheets;
      printLinks($(this.root, "print"), sheetsHref, `${title}, ${plural(doc.players.length, "player", "players")}`, paper);
      if (doc.print.decks) {
        $(this.root, "print").querySelectorAll("a.print").forEach((link) => {
          const name = Object.keys(DECKS).find((deck) => link.href.includes(`/deck/${deck}.pdf`));
          if (name && doc.print.decks[name]) link.href = doc.print.decks[name];
        });
      }
    }
  }

  showStandings(doc) {
    const list = $(this.root, "standings");
    const items = doc.scoreboard.map((row) => {
      const sheet = doc.sheets.find((s) => s.id === row.sheet);
      const review = sheet && sheet.needs_review && sheet.needs_review.length;
      return el("li", { class: `stand${row.place === 1 ? " lead" : ""}` },
        el("button", { type: "button", onclick: () => this.cardFor(row.player)?.focus() },
          el("span", { class: "who" }, el("span", { class: "place", text: row.place }), row.name),
          el("span", { class: "pts", text: row.total, "data-total": row.player }),
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
    list.replaceChildren(...items);
  }

  cardFor(player) { return this.cards.get(player); }

  showCards(doc) {
    const container = $(this.root, "cards");
    const numbers = doc.players.map((_, i) => i + 1);
    for (const sheet of doc.sheets) if (!numbers.includes(sheet.player)) numbers.push(sheet.player);
    for (const [number, card] of this.cards) {
      if (!numbers.includes(number)) { card.root.remove(); this.cards.delete(number); }
    }
    numbers.forEach((number) => {
      let card = this.cards.get(number);
      if (!card) {
        card = new CardView(this, number);
        this.cards.set(number, card);
      }
      container.append(card.root);   // keeps the order; moving a node does not rebuild it
      card.update(doc);
    });
  }

  showUnread(doc) {
    const failed = doc.photos.filter((photo) => photo.error);
    $(this.root, "unread").hidden = !failed.length;
    $(this.root, "unread-list").replaceChildren(...failed.map((photo) =>
      el("li", {}, el("p", {}, el("strong", { text: photo.name || "a photo" }), ` (${when(photo.uploaded)}): ${photo.error}`),
        el("button", { type: "button", class: "btn btn-quiet btn-small", text: "Dismiss",
          onclick: () => this.change(() => api("DELETE", `/api/games/${this.id}/photos/${photo.id}`)).catch((err) => toast(err.message, "bad")) }))));
  }
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
    total.textContent = mine.length === 1 ? `${mine[0].total}` : "";
    total.hidden = mine.length !== 1;
    this.root.classList.toggle("has-sheet", mine.length > 0);
    this.root.classList.toggle("needs-look", mine.some((s) => s.needs_review && s.needs_review.length));

    for (const [id, view] of this.sheets) {
      if (!mine.some((sheet) => sheet.id === id)) { view.root.remove(); this.sheets.delete(id); }
    }
    const body = $(this.root, "sheets");
    mine.forEach((sheet) => {
      let view = this.sheets.get(sheet.id);
      if (!view) {
        view = new SheetView(this, sheet);
        this.sheets.set(sheet.id, view);
      }
      body.append(view.root);
      view.update(sheet, doc);
    });
    if (mine.length > 1) {
      this.setNote(`${mine.length} photos of this sheet are scored: remove the one that is wrong.`, "warn");
    } else if (this.noteKind === "warn") {
      this.setNote("");
    }
    $(this.root, "file-label").textContent = mine.length ? "Retake photo" : "Photograph sheet";
    $(this.root, "upload").classList.toggle("again", mine.length > 0);
    $(this.root, "upload-hint").hidden = mine.length > 0;
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

  async upload(file) {
    const game = this.game;
    const busy = $(this.root, "busy");
    const busyText = $(this.root, "busy-text");
    const before = (game.doc ? game.doc.sheets : []).filter((s) => s.player === this.number).map((s) => s.photo_id);
    this.setError("");
    this.setNote("");
    busy.hidden = false;
    this.root.classList.add("uploading");
    busyText.textContent = "Sending the photo…";
    try {
      await game.change(async () => {
        let doc = await uploadPhoto(game.id, file, (part) => {
          busyText.textContent = part < 1 ? `Sending the photo… ${Math.round(part * 100)}%` : "Reading the sheet…";
        });
        const added = doc.sheets.filter((s) => (doc.added || []).includes(s.id));
        const others = added.filter((s) => s.player !== this.number);
        if (added.some((s) => s.player === this.number)) {
          // A retake: the new photo replaces the earlier photos of this player's sheet.
          for (const photoId of new Set(before)) {
            const photo = doc.photos.find((p) => p.id === photoId);
            const onlyMine = photo && photo.sheets.every((sid) => {
              const s = doc.sheets.find((x) => x.id === sid);
              return !s || s.player === this.number;
            });
            if (onlyMine) doc = await api("DELETE", `/api/games/${game.id}/photos/${photoId}`);
          }
        }
        if (others.length) {
          const names = others.map((s) => `${s.name} (player ${s.player})`).join(", ");
          this.setNote(`That photo was the sheet of ${names}: it is on their card.`);
        }
        return doc;
      });
      const mine = game.doc.sheets.find((s) => s.player === this.number);
      if (mine) toast(`${mine.name}: ${mine.total} points`, "good");
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
        el("span", { text: `${readingWords(now)}${corrected ? " (corrected)" : ""}` }),
        corrected ? el("button", { type: "button", class: "btn btn-quiet btn-small", text: "Reset",
          onclick: () => this.setReading(room.room, null, true) }) : null,
        el("button", { type: "button", class: "close", "aria-label": "Close", text: "\u00d7",
          onclick: () => { this.selected = null; this.showMarks(); this.showRoomPanel(); } })),
      el("div", { class: "options", role: "group", "aria-label": `Readings for ${room.room}` },
        (room.options || []).map((option) => el("button", {
          type: "button", class: `option${option === now ? " chosen" : ""}`, title: readingWords(option),
          "aria-label": readingWords(option), "aria-pressed": option === now ? "true" : "false",
          onclick: () => { if (option !== this.reading(room.room)) this.setReading(room.room, option); },
        }, glyph(option), el("small", { text: option === "" ? "empty" : option === "X" ? "trap" : option })))));
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
      el("p", { class: "hint", text: "Numbered as ringed on the picture. Tap a room to fix its reading." }),
      el("ol", {}, review.map((entry, index) => {
        const isRoom = this.rooms.has(entry.where);
        return el("li", { value: index + 1 },
          isRoom ? el("button", { type: "button", class: "where", text: entry.where,
            onclick: () => { this.selected = entry.where; this.showMarks(); this.showRoomPanel();
              this.wrap.scrollIntoView({ behavior: "smooth", block: "center" }); } })
            : el("span", { class: "where", text: entry.where || "" }),
          el("span", { text: ` ${entry.why || ""}` }));
      })));
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
    if (!confirm(`Remove this photo of ${this.sheet.name}'s sheet? Corrections made on it go too.`)) return;
    const path = `/api/games/${encodeURIComponent(this.game.id)}/photos/${encodeURIComponent(this.sheet.photo_id)}`;
    try { await this.game.change(() => api("DELETE", path)); }
    catch (err) { toast(err.message, "bad"); }
  }
}
