/**
 * The replay page: step through a game move by move — a room's game (finished, or in
 * progress up to its current move) or an imported record — with the board as it was after
 * each move. Views come from the server (`/api/.../replay?move=N`): the public view, so a
 * replay hides what a spectator could not see, and the browser computes no rule. The board
 * and the panels are the record's game's screen module, mounted in replay mode (games.js;
 * docs/client.md): this page only steps through the moves.
 *
 * Controls: the slider, « ◀ ▶ », the arrow keys (Home/End, PageUp/PageDown by ten), a click
 * on a line of the move list; the address bar always links to the move shown (`?move=N`).
 */

import { getCatalogue } from "./api.js";
import { playerColour } from "./colours.js";
import { el, playerName, seatName } from "./dom.js";
import { failureText } from "./errors.js";
import { list, setSeatNamer, t } from "./i18n.js";
import { entryText } from "./log.js";
import { loadScreen } from "./games.js";
import { attachImport } from "./record-import.js";
import { AnalysisPanel } from "./analysis.js";

const $ = (id) => document.getElementById(id);
const root = $("replay");
const source = root.dataset.source; // "room" | "record"
const id = root.dataset.id;
const base = source === "room" ? `/api/rooms/${encodeURIComponent(id)}` : `/api/records/${encodeURIComponent(id)}`;
const recordUrl = source === "room" ? `${base}/record` : base;
const pageUrl = source === "room" ? `/r/${encodeURIComponent(id)}/replay` : `/records/${encodeURIComponent(id)}`;
const POLL_MS = 8000;
const askAnalysis = new URLSearchParams(location.search).get("analysis") === "1"; // from the final table

let record = null;
let room = null; // {seats: [{seat, name, bot}]} for the panels' names
let screen = null; // the game's screen, mounted in replay mode
let version = 0;
let move = 0;
let shown = -1;
let notice = "";
let analysis = null; // the analysis panel (a room's finished game)
let messages = []; // the moves' messages, in the page's language (…/replay/log); index seq - 1
const views = new Map(); // move -> view
const loading = new Map(); // move -> Promise<view>

async function getJSON(url) {
  const res = await fetch(url, { headers: { Accept: "application/json" } });
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new Error(failureText(res.status, data));
  return data;
}

function viewAt(n) {
  if (views.has(n)) return Promise.resolve(views.get(n));
  if (!loading.has(n)) {
    const p = getJSON(`${base}/replay?move=${n}`).then(
      (answer) => {
        views.set(n, answer.view);
        loading.delete(n);
        return answer.view;
      },
      (err) => {
        loading.delete(n);
        throw err;
      },
    );
    loading.set(n, p);
  }
  return loading.get(n);
}

// ---- showing a move ----------------------------------------------------------------------

async function show(n) {
  const target = Math.max(0, Math.min(version, n));
  move = target;
  renderControls();
  let view;
  try {
    view = await viewAt(target);
  } catch (err) {
    notice = err.message;
    renderControls();
    return;
  }
  if (target !== move) return; // a later step was asked meanwhile
  if (shown !== target) draw(view);
  for (const near of [target + 1, target - 1]) if (near >= 0 && near <= version) viewAt(near).catch(() => {});
}

function draw(view) {
  const forward = shown === move - 1;
  shown = move;
  $("replay").dataset.better = "";
  // stepping forward, the screen may light up what the move changed
  screen.update({ view, legal: [], version: move, event: forward ? record.moves[move - 1] : null, room, presence: null });
  renderControls(view);
}

function renderControls(view = views.get(move)) {
  $("slider").max = String(version);
  $("slider").value = String(move);
  $("first-btn").disabled = $("prev-btn").disabled = move <= 0;
  $("next-btn").disabled = $("last-btn").disabled = move >= version;
  $("replay-move").textContent = t(move === 0 ? "replay.setup_of" : "replay.move_of", { move, version });
  const event = move > 0 ? record.moves[move - 1] : null;
  let text = event ? entryText(worded(event)) : t("replay.setup_text");
  if (view && view.phase === "over" && view.scores) {
    const best = view.scores.players.filter((p) => view.scores.winners.includes(p.seat));
    const names = list(best.map((p) => playerName(room, p.seat)));
    text = t("replay.final", { text, names, count: best.length, points: best[0]?.total ?? 0 });
  }
  $("replay-text").textContent = notice ? `${notice} ${text}` : text;
  const href = `${pageUrl}?move=${move}`;
  $("move-link").href = href;
  if (`${location.pathname}${location.search}` !== href) history.replaceState(null, "", href);
  for (const li of $("log").children) {
    const seq = Number(li.dataset.seq);
    li.classList.toggle("current", seq === move);
    li.classList.toggle("future", seq > move);
  }
  scrollLogTo($("log").querySelector("li.current"));
  analysis?.moved();
}

/** The analysis's better move at the move shown, on the board: the view after it. */
function showBetter(entry) {
  const n = entry.move;
  if (n !== move) return;
  shown = -1; // the next step draws the game again
  $("replay").dataset.better = String(n);
  const event = { seq: n, seat: entry.seat, action: entry.better.action, message: entry.better.message };
  screen.update({ view: entry.better.view, legal: [], version: n, event, room, presence: null });
  $("replay-text").textContent = t("analysis.showing_better", { text: entryText(event) });
}

/** Keep the current line of the move list in sight, scrolling the list only. */
function scrollLogTo(li) {
  if (!li) return;
  const box = $("log");
  const top = li.offsetTop;
  if (top < box.scrollTop) box.scrollTop = top;
  else if (top + li.offsetHeight > box.scrollTop + box.clientHeight) box.scrollTop = top + li.offsetHeight - box.clientHeight;
}

// ---- the record --------------------------------------------------------------------------

/** A move of the record with its message, when the server has one (records keep English). */
function worded(m) {
  const message = messages[m.seq - 1];
  return message ? { ...m, message } : m;
}

/** The moves' messages, fetched again when the record grows; without them, the English text. */
async function loadMessages() {
  try {
    const answer = await getJSON(`${base}/replay/log`);
    messages = Array.isArray(answer.messages) ? answer.messages : [];
  } catch {
    messages = [];
  }
}

function renderLog() {
  const box = $("log");
  box.innerHTML = "";
  const first = el("li");
  first.dataset.seq = "0";
  first.textContent = t("replay.setup");
  box.append(first);
  const colours = new Map((record.players || []).map((p) => [p.seat, p.colour]));
  for (const m of record.moves) {
    const li = el("li");
    li.dataset.seq = String(m.seq);
    li.dataset.seat = String(m.seat);
    li.textContent = t("replay.line", { seq: m.seq, text: entryText(worded(m)) });
    const c = colours.get(m.seat);
    if (c) li.style.setProperty("--pc", playerColour(c));
    box.append(li);
  }
}

async function renderRecordPanel() {
  const players = (record.players || []).map((p) => (p.bot && seatName(p) === p.name ? t("replay.player_bot", { name: p.name, level: t("bot.level", { level: p.bot }) }) : seatName(p))).join(", ");
  $("record-players").textContent = players;
  const finished = record.status === "finished";
  $("record-status").textContent = t(finished ? "replay.finished" : "replay.in_progress");
  $("seed-sha").textContent = record.seed_sha256 || "—";
  $("replay-title").textContent = t(finished ? "replay.title" : "replay.title_playing");
  const exportBtn = $("export-btn");
  exportBtn.href = source === "room" ? `${recordUrl}?download=1` : recordUrl;
  exportBtn.setAttribute("download", `ishtar-${record.room_id || id}-${record.version}.json`);
  if (record.seed !== null && record.seed !== undefined) {
    $("seed-line").hidden = false;
    $("seed").textContent = String(record.seed);
    const check = $("seed-check");
    const digest = await sha256(String(record.seed));
    if (digest !== null) {
      const ok = digest === record.seed_sha256;
      check.textContent = t(ok ? "replay.seed_ok" : "replay.seed_bad");
      check.className = ok ? "seed-ok" : "seed-bad";
    }
  }
}

async function sha256(text) {
  if (!window.crypto?.subtle) return null; // only in secure contexts
  const bytes = await window.crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function setRecord(next) {
  record = next;
  version = record.version;
  room = { seats: (record.players || []).map((p) => ({ seat: p.seat, name: p.name, bot: p.bot })) };
  setSeatNamer((seat) => playerName(room, seat)); // a seat in a move's message reads as its name
  renderLog();
  renderRecordPanel();
  if (analysis?.analysis) analysis.markLog(analysis.analysis);
}

/** A game in progress grows: fetch its record again now and then, following the latest move. */
async function poll() {
  if (!record || record.status !== "playing") return;
  try {
    const next = await getJSON(recordUrl);
    if (next.version !== version || next.status !== record.status) {
      const atEnd = move === version;
      const ended = next.status !== record.status;
      await loadMessages();
      setRecord(next);
      if (ended) analysis?.start(false).catch(() => {});
      if (atEnd) show(version);
      else renderControls();
    }
  } catch {
    // offline for a moment: try again later
  }
}

// ---- input -------------------------------------------------------------------------------

function step(d) {
  notice = "";
  show(move + d);
}

$("first-btn").addEventListener("click", () => show(0));
$("prev-btn").addEventListener("click", () => step(-1));
$("next-btn").addEventListener("click", () => step(1));
$("last-btn").addEventListener("click", () => show(version));
$("slider").addEventListener("input", () => show(Number($("slider").value)));
$("log").addEventListener("click", (ev) => {
  const li = ev.target.closest("li[data-seq]");
  if (li) show(Number(li.dataset.seq));
});
$("move-link").addEventListener("click", (ev) => {
  const url = new URL($("move-link").getAttribute("href"), location.href).href;
  if (navigator.clipboard?.writeText) {
    ev.preventDefault();
    navigator.clipboard.writeText(url).then(
      () => { $("move-link").textContent = t("replay.copied"); setTimeout(() => { $("move-link").textContent = t("replay.link"); }, 1500); },
      () => location.assign(url),
    );
  }
});
document.addEventListener("keydown", (ev) => {
  if (!record || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const t = ev.target;
  if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.isContentEditable)) return;
  const keys = {
    ArrowLeft: () => step(-1),
    ArrowRight: () => step(1),
    PageUp: () => step(-10),
    PageDown: () => step(10),
    Home: () => show(0),
    End: () => show(version),
  }; // the board's own keys (zoom) are the screen's
  const act = keys[ev.key];
  if (act) {
    ev.preventDefault();
    act();
  }
});

attachImport($("import-file"), $("import-error"));

// ---- start -------------------------------------------------------------------------------

/** `window.__replay`: what the page shows, for browser tests (public data only). */
window.__replay = {
  get move() { return move; },
  get shown() { return shown; },
  get version() { return version; },
  get status() { return record?.status ?? null; },
  view: () => views.get(shown) ?? null,
};

async function start() {
  try {
    const [rec] = await Promise.all([getJSON(recordUrl), loadMessages()]);
    if (messages.length < rec.version) await loadMessages(); // a move came in between
    const module = await loadScreen(rec.game);
    screen = await module.mount({
      mode: "replay",
      stage: $("stage"),
      panels: $("game-panels"),
      catalogue: getCatalogue(rec.game).catch(() => null),
      name: (seat) => playerName(room, seat),
    });
    setRecord(rec);
  } catch (err) {
    $("loading").textContent = err.message;
    root.dataset.state = "gone";
    return;
  }
  $("loading").hidden = true;
  $("game").hidden = false;
  root.dataset.state = "replay";
  const asked = new URLSearchParams(location.search).get("move");
  let first = asked === null ? 0 : Number.parseInt(asked, 10);
  if (!Number.isFinite(first) || first < 0) first = 0;
  if (first > version) {
    notice = t("replay.not_yet", { move: first });
    first = version;
  }
  await show(first);
  setInterval(poll, POLL_MS);
  if (source === "room" && $("analysis")) {
    analysis = new AnalysisPanel({
      base,
      page: {
        get record() { return record; },
        get room() { return room; },
        get move() { return move; },
        show: (n) => { notice = ""; show(n); },
        showBetter,
      },
    });
    window.__replay.analysis = () => analysis.job;
    window.__replay.renderAnalysis = () => analysis.render(); // as a poll's answer would
    analysis.start(askAnalysis).catch((err) => {
      $("analysis-error").textContent = err.message;
      $("analysis-error").hidden = false;
    });
  }
}

start();
