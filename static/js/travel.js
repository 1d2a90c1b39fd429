/**
 * Pieces that travel: a copy of a piece flies from where it was to where it lands (a tile
 * from the carpet to the board, gems to a player's panel, a tree card from the market), so
 * another player's or a bot's move can be followed with the eye. The copy floats above the
 * page (`.traveller`, position fixed), never catches the pointer, and is gone when it lands;
 * the real piece is already drawn where it lands.
 *
 * Under `prefers-reduced-motion: reduce` nothing travels. Each journey started is counted
 * in `document.documentElement.dataset.travels` (for the browser tests).
 */

import { reducedMotion } from "./canvas.js";

const MS = 620;

/** The centre and size of a client rect, or null for none or an empty one. */
function box(r) {
  if (!r || !(r.width >= 0) || !(r.height >= 0)) return null;
  return { x: r.left + r.width / 2, y: r.top + r.height / 2, w: r.width, h: r.height };
}

/**
 * Fly `node` (a picture: a canvas, an SVG, an element) from client rect `from` to client
 * rect `to` (each `{left, top, width, height}`), drawn at `from`'s size and scaled to `to`'s
 * on the way. `delay` ms before it sets off (several pieces of one move follow each other).
 * Returns the element flying, or null when nothing travels.
 */
export function travel(node, from, to, { delay = 0, kind = "" } = {}) {
  const a = box(from);
  const b = box(to);
  if (reducedMotion() || !a || !b || !node) return null;
  const fly = document.createElement("div");
  fly.className = "traveller";
  if (kind) fly.dataset.kind = kind;
  fly.setAttribute("aria-hidden", "true");
  fly.append(node);
  const w = Math.max(8, a.w);
  const h = Math.max(8, a.h);
  Object.assign(fly.style, { left: `${a.x - w / 2}px`, top: `${a.y - h / 2}px`, width: `${w}px`, height: `${h}px` });
  document.body.append(fly);
  const scale = Math.max(0.2, Math.min(4, Math.min(b.w / w, b.h / h) || 1));
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  // an arc: up a little halfway, as a hand carries a piece
  const lift = -Math.min(60, Math.hypot(dx, dy) * 0.18);
  const anim = fly.animate(
    [
      { transform: "translate(0, 0) scale(1)", opacity: 0.95 },
      { transform: `translate(${dx / 2}px, ${dy / 2 + lift}px) scale(${(1 + scale) / 2 + 0.08})`, opacity: 1, offset: 0.5 },
      { transform: `translate(${dx}px, ${dy}px) scale(${scale})`, opacity: 0.9 },
    ],
    { duration: MS, delay, easing: "ease-in-out", fill: "both" },
  );
  const root = document.documentElement;
  root.dataset.travels = String(Number(root.dataset.travels || 0) + 1);
  const done = () => fly.remove();
  anim.finished.then(done, done);
  return fly;
}

/** A client rect of size `size` centred on client point (x, y). */
export function around(x, y, size) {
  return { left: x - size / 2, top: y - size / 2, width: size, height: size };
}
