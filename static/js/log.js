/**
 * The game log of the room page: one line per move, in the server's words (`event.text`),
 * edged with the colour of the seat that moved. At most 200 lines are kept.
 */

import { playerColour } from "./colours.js";
import { el } from "./dom.js";

const KEPT = 200;

/** Add `events` not shown yet (by `seq`); `fresh` ones flash as just played. */
export function appendLog(box, events, view, { fresh = false } = {}) {
  const colours = view ? (view.players || []).map((p) => playerColour(p.colour)) : [];
  for (const ev of events) {
    if (box.querySelector(`li[data-seq="${ev.seq}"]`)) continue;
    const li = el("li", fresh ? "fresh" : "");
    li.dataset.seq = String(ev.seq);
    if (ev.seat != null) li.dataset.seat = String(ev.seat);
    li.textContent = ev.text || `${ev.action?.type}`;
    if (ev.seat != null && colours[ev.seat]) li.style.setProperty("--pc", colours[ev.seat]);
    box.append(li);
  }
  while (box.children.length > KEPT) box.firstChild.remove();
  box.scrollTop = box.scrollHeight;
}
