/**
 * A player's scoreboard as an SVG: the 5 × 5 slots (the catalogue's spiral gives each order
 * number its cell), the side's colour borders, the winks in slot order, the 4 lines through
 * the centre with the runs that score drawn along them and each line's points at its end,
 * the colour borders matched, and (on the player's own turn) the winks the harvest would add
 * as ghosts. The same drawing, without winks and labels, is the small board of the
 * scoreboard chooser. Draws what the view and the catalogue say; computes no score.
 */

import { markInk, markPath, markShape } from "../../js/marks.js";
import { NECTAR } from "./paint.js";
import { colourName, t } from "./words.js";

const NS = "http://www.w3.org/2000/svg";
const CELL = 20;

/** A wink's colour mark (js/marks.js) as an SVG path, or null for a colour without one. */
function mark(colour, cx, cy, r, attrs = {}) {
  const d = markPath(colour, cx, cy, r);
  if (!d) return null;
  const [ink, edge] = markInk(colour);
  return svg("path", { d, fill: ink, stroke: edge, "stroke-width": 0.7, "stroke-linejoin": "round", "paint-order": "stroke", class: "mark", "data-mark": markShape(colour), ...attrs });
}

function svg(tag, attrs = {}, text = null) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== null) e.textContent = text;
  return e;
}

const fill = (colour) => NECTAR[colour]?.fill || "#999";
const dark = (colour) => NECTAR[colour]?.dark || "#555";

/** The cell [row, col] of every slot (1-based order number → cell). */
function cellsOf(spiral) {
  const m = new Map();
  spiral.forEach((rc, i) => m.set(i + 1, rc));
  return m;
}

const LINES = ["row", "column", "diagonal-down", "diagonal-up"];

/** A line's name ("Row", "Diagonal ↘"), in the page's language. */
export function lineName(line) {
  return LINES.includes(line) ? t(`babylon.ui.line.${line}`) : line;
}

/**
 * The scoreboard element. `o`: {catalogue, side, winks: [colour…], score, ghost: [{colour,
 * slot}], next: bool (mark the next empty slot), compact: bool (the chooser's small board),
 * label: accessible name}.
 */
export function scoreboardSvg(o) {
  const cat = o.catalogue;
  const cells = cellsOf(cat.spiral || []);
  const borders = new Map((cat.sides?.[o.side]?.borders || []).map((b) => [b.slot, b.colour]));
  const winks = o.winks || [];
  const score = o.score || null;
  const matched = new Set(score?.colour_slots || []);
  const ghost = new Map((o.ghost || []).map((g) => [g.slot, g.colour]));
  const pad = o.compact ? 3 : CELL * 0.95;
  const size = CELL * 5;
  const root = svg("svg", {
    viewBox: `${-pad} ${-pad} ${size + 2 * pad} ${size + 2 * pad}`,
    class: `scoreboard${o.compact ? " compact" : ""}`,
    role: "img",
    "aria-label": o.label || t("babylon.ui.scoreboard", { side: o.side || "" }),
  });
  const centre = (slot) => {
    const rc = cells.get(slot);
    return rc ? [rc[1] * CELL + CELL / 2, rc[0] * CELL + CELL / 2] : [0, 0];
  };
  root.append(svg("rect", { x: -2, y: -2, width: size + 4, height: size + 4, rx: 5, fill: "#6b4a2a" }));
  root.append(svg("rect", { x: -0.5, y: -0.5, width: size + 1, height: size + 1, rx: 4, fill: "#e9d3a3" }));

  // the slots, their borders, and the order numbers of the empty ones
  for (const [slot, [r, c]] of cells) {
    const g = svg("g", { "data-slot": slot });
    const x = c * CELL;
    const y = r * CELL;
    g.append(svg("rect", { x: x + 1.2, y: y + 1.2, width: CELL - 2.4, height: CELL - 2.4, rx: 3, fill: "#fbf4e4", stroke: "#c9ad78", "stroke-width": 0.6 }));
    const b = borders.get(slot);
    if (b) {
      g.dataset.border = b;
      g.append(svg("rect", { x: x + 2.6, y: y + 2.6, width: CELL - 5.2, height: CELL - 5.2, rx: 2.5, fill: "none", stroke: fill(b), "stroke-width": 2.4 }));
    }
    if (!o.compact && slot > winks.length && !ghost.has(slot)) {
      g.append(svg("text", { x: x + CELL / 2, y: y + CELL / 2 + 2.4, "text-anchor": "middle", "font-size": 6.5, fill: "#a8926c", "font-family": "system-ui, sans-serif" }, String(slot)));
    }
    root.append(g);
  }
  if (o.compact) return root;

  // the 4 lines: a faint guide, and each run that scores drawn along it in its colour
  for (const line of cat.lines || []) {
    const [x1, y1] = centre(line.slots[0]);
    const [x2, y2] = centre(line.slots[line.slots.length - 1]);
    root.append(svg("line", { x1, y1, x2, y2, stroke: "rgba(107,74,42,0.22)", "stroke-width": 1.2, "stroke-dasharray": "2 2" }));
  }
  const details = new Map((score?.lines_detail || []).map((d) => [d.line, d]));
  for (const d of details.values()) {
    for (const run of d.runs || []) {
      const [x1, y1] = centre(run.slots[0]);
      const [x2, y2] = centre(run.slots[run.slots.length - 1]);
      root.append(svg("line", { x1, y1, x2, y2, stroke: fill(run.colour), "stroke-opacity": 0.55, "stroke-width": 6, "stroke-linecap": "round", class: "run", "data-line": d.line }));
    }
  }

  // the winks placed, then the harvest's ghosts
  winks.forEach((colour, i) => {
    const slot = i + 1;
    const [cx, cy] = centre(slot);
    const w = svg("g", { class: "wink", "data-slot": slot, "data-colour": colour });
    w.append(svg("circle", { cx: cx + 0.5, cy: cy + 0.8, r: 6.2, fill: "rgba(0,0,0,0.25)" }));
    w.append(svg("circle", { cx, cy, r: 6.2, fill: fill(colour), stroke: dark(colour), "stroke-width": 0.9 }));
    w.append(svg("ellipse", { cx: cx - 2, cy: cy - 2.4, rx: 2.4, ry: 1.4, fill: "#fff", "fill-opacity": 0.6, transform: `rotate(-30 ${cx - 2} ${cy - 2.4})` }));
    const m = mark(colour, cx, cy + 0.4, 3);
    if (m) w.append(m);
    w.append(svg("title", {}, t("babylon.ui.slot", { slot, colour: colourName(colour) })));
    root.append(w);
    if (matched.has(slot)) {
      const [sx, sy] = [cx + CELL * 0.36, cy - CELL * 0.36];
      const star = svg("g", { class: "matched", "data-slot": slot });
      star.append(svg("circle", { cx: sx, cy: sy, r: 3.4, fill: "#d8a62b", stroke: "#fff", "stroke-width": 0.8 }));
      star.append(svg("text", { x: sx, y: sy + 1.6, "text-anchor": "middle", "font-size": 4.2, "font-weight": 700, fill: "#fff", "font-family": "system-ui, sans-serif" }, "5"));
      star.append(svg("title", {}, t("babylon.ui.matched")));
      root.append(star);
    }
  });
  for (const [slot, colour] of ghost) {
    const [cx, cy] = centre(slot);
    const w = svg("g", { class: "ghost", "data-slot": slot, "data-colour": colour });
    w.append(svg("circle", { cx, cy, r: 6.2, fill: fill(colour), "fill-opacity": 0.45, stroke: dark(colour), "stroke-width": 0.9, "stroke-dasharray": "2 1.4" }));
    const m = mark(colour, cx, cy + 0.4, 3, { opacity: 0.7 });
    if (m) w.append(m);
    w.append(svg("title", {}, t("babylon.ui.slot.ghost", { slot, colour: colourName(colour) })));
    root.append(w);
  }
  if (o.next && winks.length < cells.size) {
    const [cx, cy] = centre(winks.length + 1 + ghost.size);
    if (winks.length + 1 + ghost.size <= cells.size) {
      root.append(svg("rect", { x: cx - CELL / 2 + 0.8, y: cy - CELL / 2 + 0.8, width: CELL - 1.6, height: CELL - 1.6, rx: 3.4, fill: "none", stroke: "#d8a62b", "stroke-width": 1.1, "stroke-dasharray": "2.2 1.4", class: "next" }));
    }
  }

  // each line's points, just past its end
  for (const line of cat.lines || []) {
    const n = line.slots.length;
    const [ex, ey] = centre(line.slots[n - 1]);
    const [px, py] = centre(line.slots[n - 2]);
    const lx = ex + ((ex - px) / CELL) * CELL * 0.78;
    const ly = ey + ((ey - py) / CELL) * CELL * 0.78;
    const pts = details.get(line.line)?.points ?? 0;
    const mark = svg("g", { class: `line-points${pts ? " scored" : ""}`, "data-line": line.line });
    mark.append(svg("circle", { cx: lx, cy: ly, r: 6.4, fill: pts ? "#1d3a66" : "#f3e7cb", stroke: pts ? "#d8a62b" : "#c9ad78", "stroke-width": 0.8 }));
    mark.append(svg("text", { x: lx, y: ly + 2.4, "text-anchor": "middle", "font-size": pts >= 100 ? 5 : 6.6, "font-weight": 700, fill: pts ? "#fff" : "#a8926c", "font-family": "system-ui, sans-serif" }, String(pts)));
    mark.append(svg("title", {}, t("babylon.ui.line.points", { line: lineName(line.line), n: pts })));
    root.append(mark);
  }
  return root;
}
