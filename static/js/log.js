/**
 * The game log of the room page: one line per move, in the server's words — its `message`
 * rendered in the page's language, a seat read as its player's name (main.js sets the
 * namer), else the English `text` of an older entry — edged with the colour of the seat
 * that moved (its mark), oldest first. The page starts with the latest
 * moves; earlier ones are put before them on demand (`prependLog`), so the whole game reads.
 * At most 2,000 lines are kept (a game of Ishtar has a few hundred moves).
 */

import { playerColour } from "./colours.js";
import { el } from "./dom.js";
import { tm } from "./i18n.js";

const KEPT = 2000;

function line(ev, colours, cls = "") {
  const li = el("li", cls);
  li.dataset.seq = String(ev.seq);
  if (ev.seat != null) li.dataset.seat = String(ev.seat);
  li.textContent = entryText(ev);
  if (ev.seat != null && colours[ev.seat]) li.style.setProperty("--pc", colours[ev.seat]);
  return li;
}

/** A log entry's words: its message in the page's language, else its English text. */
export function entryText(ev) {
  return tm(ev.message, ev.text || `${ev.action?.type}`);
}

const coloursOf = (view) => (view ? (view.players || []).map((p) => playerColour(p.colour)) : []);

/**
 * The live region that reads each new move out to a screen reader (`#log-live`, made once
 * beside the log): only the move just played, never the lines a page opens with.
 */
function liveRegion(box) {
  let live = document.getElementById("log-live");
  if (!live) {
    live = el("div", "visually-hidden");
    live.id = "log-live";
    live.setAttribute("role", "status");
    live.setAttribute("aria-live", "polite");
    live.setAttribute("aria-atomic", "true");
    box.after(live);
  }
  return live;
}

/** Add `events` not shown yet (by `seq`); `fresh` ones flash as just played and are read out. */
export function appendLog(box, events, view, { fresh = false } = {}) {
  const colours = coloursOf(view);
  const said = [];
  for (const ev of events) {
    if (box.querySelector(`li[data-seq="${ev.seq}"]`)) continue;
    const li = line(ev, colours, fresh ? "fresh" : "");
    box.append(li);
    if (fresh) said.push(li.textContent);
  }
  if (said.length) liveRegion(box).textContent = said.join(" ");
  while (box.children.length > KEPT) box.firstChild.remove();
  box.scrollTop = box.scrollHeight;
}

/** The lowest move number shown (null: none). */
export function firstShown(box) {
  const first = box.querySelector("li[data-seq]");
  return first ? Number(first.dataset.seq) : null;
}

/** Put earlier `events` (oldest first) before the lines shown, keeping what the reader
 * looks at in place. */
export function prependLog(box, events, view) {
  const colours = coloursOf(view);
  const anchor = box.querySelector("li[data-seq]");
  const before = box.scrollHeight;
  const start = firstShown(box) ?? Infinity;
  for (const ev of events) {
    if (ev.seq >= start || box.querySelector(`li[data-seq="${ev.seq}"]`)) continue;
    box.insertBefore(line(ev, colours), anchor);
  }
  box.scrollTop += box.scrollHeight - before;
}
