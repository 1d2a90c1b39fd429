/**
 * Small DOM helpers every page and every game's screen shares: build an element, escape text
 * for `innerHTML`, and the name shown for a seat.
 */

import { t } from "./i18n.js";

/** A new `<tag class=cls>`; `html` (trusted markup only: escape user text with `esc`). */
export function el(tag, cls, html) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (html !== undefined) e.innerHTML = html;
  return e;
}

const drawnIn = new WeakMap(); // a box → what `redraw` last drew in it

/**
 * Put `nodes` in `box` in place of what it holds, unless they show just what was last drawn
 * there: the same markup, and the same values in their fields (`input.value`, a `<select>`'s
 * choice: no attributes). Redrawing replaces every node, so one that lands between a
 * person's press and release (an update of the room, presence) takes away the button they
 * are pressing, and what they typed or chose; so those stay when nothing shown changed.
 * Whether it drew.
 */
export function redraw(box, ...nodes) {
  return redrawWith(box, nodes, null);
}

/** `redraw`, calling `before()` first when it does draw (to close what the old nodes opened). */
export function redrawWith(box, nodes, before) {
  const fields = [];
  const markup = nodes.map((node) => {
    if (node.querySelectorAll) {
      for (const f of node.querySelectorAll("input, select, textarea")) fields.push(`${f.value}|${f.checked}`);
    }
    return node.outerHTML ?? node.textContent;
  });
  const drawing = [...markup, ...fields].join("\n");
  if (box.firstChild && drawnIn.get(box) === drawing) return false;
  if (before) before();
  drawnIn.set(box, drawing);
  box.replaceChildren(...nodes);
  return true;
}

/** `text` safe inside markup (and attribute values). */
export function esc(text) {
  return String(text ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The name of the person (or bot) on `seat` of `room`, or "Seat N" (in the page's language). */
export function playerName(room, seat) {
  const s = room && room.seats && room.seats.find((x) => x.seat === seat);
  return (s && seatName(s)) || t("seat.number", { n: seat + 1 });
}

/** A seat's name in the page's language: a bot's name carries its level in English
 * ("Nabu (medium)", app/play/seats.py), shown with the level's own word ("Nabu (moyen)"). */
export function seatName(seat) {
  const name = seat?.name || "";
  const level = seat?.bot;
  if (!level || !name.endsWith(`(${level})`)) return name;
  return `${name.slice(0, -level.length - 2)}(${t("bot.level", { level })})`;
}

/**
 * The mark of a seat a bot plays (seated so, or handed to it when its person left), shown
 * by the games' panels in place of a person's presence dot: a small robot and "bot".
 */
export function botMark(seat) {
  const mark = el(
    "span",
    "botmark",
    '<svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true"><rect x="2" y="5" width="12" height="9" rx="2" fill="currentColor"/><rect x="7" y="1" width="2" height="4" fill="currentColor"/><circle cx="6" cy="9.5" r="1.4" fill="#fff"/><circle cx="10" cy="9.5" r="1.4" fill="#fff"/></svg>',
  );
  mark.append(document.createTextNode(t("lobby.bot")));
  mark.dataset.bot = seat.bot;
  mark.setAttribute("role", "img");
  mark.setAttribute("aria-label", t("seat.bot_label", { name: seat.name || "", level: seat.bot }));
  return mark;
}
