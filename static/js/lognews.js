/**
 * Lines of the game log that are not moves: "The game started" above the first move,
 * "<name> wins" after the last, and the seats changing hands ("Björn left the game",
 * "Nabu (medium) now plays Björn's seat") where they happened. They carry no move number
 * (`data-seq`), so paging earlier moves (log.js) passes them by; each is text only.
 */

import { el } from "./dom.js";
import { list, t } from "./i18n.js";

function newsLine(text, kind) {
  const li = el("li", `log-news ${kind}`);
  li.textContent = text;
  return li;
}

/** "The game started" above the first move, once the log shows it (or no move yet). */
export function markStart(box, version) {
  if (box.querySelector(".log-start")) return;
  const first = box.querySelector("li[data-seq]");
  if (first ? first.dataset.seq === "1" : version === 0) box.prepend(newsLine(t("game.log_started"), "log-start"));
}

/** "<names> win(s)" after the last move, once. */
export function markWinner(box, names) {
  if (box.querySelector(".log-win") || !names.length) return;
  box.append(newsLine(t("game.log_wins", { names: list(names), count: names.length }), "log-win"));
  box.scrollTop = box.scrollHeight;
}

/** A seat changed hands: at the end of the log (live), or after move `after` (a reload). */
export function markSeat(box, text, after = null) {
  const li = newsLine(text, "log-seat");
  if (after === null) {
    const win = box.querySelector(".log-win");
    box.insertBefore(li, win);
    box.scrollTop = box.scrollHeight;
    return li;
  }
  const move = after === 0 ? null : box.querySelector(`li[data-seq="${after}"]`);
  if (after !== 0 && !move) return null; // before the moves shown: not placed
  const start = box.querySelector(".log-start");
  let at = move ? move.nextSibling : start ? start.nextSibling : box.firstChild;
  while (at && at.classList?.contains("log-seat")) at = at.nextSibling; // after the others there
  box.insertBefore(li, at);
  return li;
}
