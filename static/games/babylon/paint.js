/**
 * How Babylon Gardens' pieces look, drawn on a 2D canvas in the caller's coordinates: the
 * terrace the floor stands on, a flower tile (its nectar colour, its flowers, its sockets and
 * the clear water gems in them), the well, the path of water, a nectar wink. Used by the
 * board renderer, the home page's vignette and the lobby's seat icon, so a piece looks the
 * same everywhere. Pure drawing: it knows no rule.
 */

import { playerColour } from "../../js/colours.js";
import { drawMark } from "../../js/marks.js";

/** The four nectar colours: `fill` the flowers and the frame, `tint` the tile's face. */
export const NECTAR = {
  red: { fill: "#d2473a", light: "#f4a493", dark: "#7d1d16", tint: "#f7dcd2" },
  green: { fill: "#3f9a4a", light: "#9fd98f", dark: "#1d5426", tint: "#dcefd3" },
  yellow: { fill: "#e8b923", light: "#fde68a", dark: "#86610c", tint: "#fbf0c4" },
  purple: { fill: "#8a48b6", light: "#cfa5ea", dark: "#48206a", tint: "#ebdcf3" },
};

export const PALETTE = {
  sand: "#e9d3a3",
  sandDark: "#d2b47a",
  brick: "#c9a46a",
  brickLine: "rgba(120,80,40,0.28)",
  hedge: "#4f8a3c",
  hedgeDark: "#2f5e26",
  leaf: "#4c8f3e",
  leafDark: "#2c5e25",
  stone: "#b9ab93",
  stoneDark: "#7c6e58",
  water: "#4aa3d8",
  waterDeep: "#2a6fa8",
  ink: "#2b2118",
  gold: "#d8a62b",
};

export { playerColour };

function nectar(colour) {
  return NECTAR[colour] || NECTAR.red;
}

export function roundRect(ctx, x, y, w, h, r) {
  ctx.beginPath();
  ctx.moveTo(x + r, y);
  ctx.arcTo(x + w, y, x + w, y + h, r);
  ctx.arcTo(x + w, y + h, x, y + h, r);
  ctx.arcTo(x, y + h, x, y, r);
  ctx.arcTo(x, y, x + w, y, r);
  ctx.closePath();
}

/** A small deterministic pseudo-random number per place, for texture that does not flicker. */
export function grain(a, b, i = 0) {
  const n = Math.sin(a * 127.1 + b * 311.7 + i * 74.7) * 43758.5453;
  return n - Math.floor(n);
}

/**
 * The terrace of the floor: a sandstone platform of bricks under the whole grid, a hedge
 * around it (the gardens hang on the terraces of a ziggurat). `x, y, w, h`: its rectangle.
 */
export function terrace(ctx, x, y, w, h, unit) {
  const pad = unit * 0.16;
  ctx.save();
  ctx.shadowColor = "rgba(5,15,35,0.55)";
  ctx.shadowBlur = unit * 0.35;
  ctx.shadowOffsetY = unit * 0.08;
  roundRect(ctx, x - pad, y - pad, w + 2 * pad, h + 2 * pad, unit * 0.2);
  ctx.fillStyle = PALETTE.hedge;
  ctx.fill();
  ctx.restore();
  // the hedge's leaves
  ctx.save();
  roundRect(ctx, x - pad, y - pad, w + 2 * pad, h + 2 * pad, unit * 0.2);
  ctx.clip();
  ctx.fillStyle = PALETTE.hedgeDark;
  const step = unit * 0.09;
  for (let i = 0, px = x - pad; px < x + w + pad; px += step, i += 1) {
    for (const py of [y - pad * 0.5, y + h + pad * 0.5]) {
      ctx.beginPath();
      ctx.arc(px, py + (grain(i, py) - 0.5) * pad * 0.5, step * 0.45, 0, Math.PI * 2);
      ctx.fill();
    }
  }
  for (let i = 0, py = y - pad; py < y + h + pad; py += step, i += 1) {
    for (const px of [x - pad * 0.5, x + w + pad * 0.5]) {
      ctx.beginPath();
      ctx.arc(px + (grain(px, i) - 0.5) * pad * 0.5, py, step * 0.45, 0, Math.PI * 2);
      ctx.fill();
    }
  }
  ctx.restore();
  // sandstone bricks
  ctx.save();
  roundRect(ctx, x - pad * 0.35, y - pad * 0.35, w + pad * 0.7, h + pad * 0.7, unit * 0.12);
  ctx.fillStyle = PALETTE.sand;
  ctx.fill();
  ctx.clip();
  ctx.strokeStyle = PALETTE.brickLine;
  ctx.lineWidth = unit * 0.012;
  const bh = unit * 0.2;
  const bw = unit * 0.4;
  for (let row = 0, py = y - pad; py < y + h + pad; py += bh, row += 1) {
    ctx.beginPath();
    ctx.moveTo(x - pad, py);
    ctx.lineTo(x + w + pad, py);
    const off = row % 2 ? bw / 2 : 0;
    for (let px = x - pad + off; px < x + w + pad; px += bw) {
      ctx.moveTo(px, py);
      ctx.lineTo(px, py + bh);
    }
    ctx.stroke();
  }
  ctx.restore();
}

/** An empty spot of the grid (`.` on the floor plan): a darker recess of the terrace. */
export function hole(ctx, x, y, s) {
  roundRect(ctx, x + s * 0.08, y + s * 0.08, s * 0.84, s * 0.84, s * 0.08);
  ctx.fillStyle = "rgba(120,85,40,0.12)";
  ctx.fill();
}

// Where n flowers stand on a tile, as fractions of its size from its top-left corner (the
// lower strip is kept for the sockets of the water gems).
const FLOWER_SPOTS = {
  1: [[0.5, 0.4, 0.25]],
  2: [[0.32, 0.3, 0.17], [0.68, 0.5, 0.17]],
  3: [[0.29, 0.5, 0.15], [0.71, 0.5, 0.15], [0.5, 0.26, 0.15]],
  4: [[0.3, 0.26, 0.14], [0.7, 0.26, 0.14], [0.3, 0.56, 0.14], [0.7, 0.56, 0.14]],
  5: [[0.27, 0.24, 0.13], [0.73, 0.24, 0.13], [0.5, 0.41, 0.13], [0.27, 0.58, 0.13], [0.73, 0.58, 0.13]],
};

/** The gems' strip of a tile: its sockets' centres and radius, as fractions of its size. */
export function socketSpots(flowers) {
  const n = Math.max(1, flowers);
  const r = n > 4 ? 0.062 : 0.07;
  const gap = r * 2.5;
  const x0 = 0.5 - (gap * (n - 1)) / 2;
  return Array.from({ length: n }, (_, i) => [x0 + gap * i, 0.83, r]);
}

// Each colour's flower has its own shape too (petal count and form), so that the colours can
// be told apart without seeing colour.
const PETALS = { red: [5, 0.5, "round"], green: [6, 0.36, "pointed"], yellow: [10, 0.24, "narrow"], purple: [4, 0.58, "round"] };

/** One flower head of radius r in a nectar colour, with two leaves behind it. */
export function flower(ctx, x, y, r, colour) {
  const c = nectar(colour);
  ctx.fillStyle = colour === "green" ? "#2a6a2a" : PALETTE.leaf;
  for (const a of [Math.PI * 0.8, Math.PI * 0.2]) {
    ctx.beginPath();
    ctx.ellipse(x + Math.cos(a) * r * 0.95, y + Math.sin(a) * r * 0.95, r * 0.55, r * 0.24, a, 0, Math.PI * 2);
    ctx.fill();
  }
  const [n, size, form] = PETALS[colour] || PETALS.red;
  ctx.fillStyle = c.fill;
  ctx.strokeStyle = c.dark;
  ctx.lineWidth = Math.max(0.6, r * 0.07);
  for (let i = 0; i < n; i += 1) {
    const a = (Math.PI * 2 * i) / n - Math.PI / 2;
    ctx.beginPath();
    if (form === "round") {
      ctx.arc(x + Math.cos(a) * r * 0.55, y + Math.sin(a) * r * 0.55, r * size, 0, Math.PI * 2);
    } else {
      const len = form === "narrow" ? r * 1.0 : r * 0.98;
      ctx.ellipse(x + Math.cos(a) * len * 0.52, y + Math.sin(a) * len * 0.52, len * 0.5, r * size, a, 0, Math.PI * 2);
    }
    ctx.fill();
    ctx.stroke();
  }
  ctx.beginPath();
  ctx.arc(x, y, r * 0.3, 0, Math.PI * 2);
  ctx.fillStyle = colour === "yellow" ? "#9a4f12" : "#f6d25a";
  ctx.fill();
  ctx.lineWidth = Math.max(0.5, r * 0.05);
  ctx.strokeStyle = "rgba(80,40,10,0.6)";
  ctx.stroke();
}

/** A clear glass water gem (a flat-backed bead) of radius r. */
export function waterGem(ctx, x, y, r) {
  ctx.save();
  ctx.beginPath();
  ctx.arc(x + r * 0.12, y + r * 0.18, r, 0, Math.PI * 2);
  ctx.fillStyle = "rgba(20,50,80,0.28)";
  ctx.fill();
  ctx.beginPath();
  ctx.arc(x, y, r, 0, Math.PI * 2);
  const g = ctx.createRadialGradient(x - r * 0.35, y - r * 0.4, r * 0.05, x, y, r);
  g.addColorStop(0, "rgba(255,255,255,0.98)");
  g.addColorStop(0.45, "rgba(214,240,252,0.85)");
  g.addColorStop(1, "rgba(120,190,225,0.9)");
  ctx.fillStyle = g;
  ctx.fill();
  ctx.lineWidth = Math.max(0.8, r * 0.16);
  ctx.strokeStyle = "#3c7ea8";
  ctx.stroke();
  ctx.beginPath();
  ctx.ellipse(x - r * 0.32, y - r * 0.38, r * 0.32, r * 0.18, -0.7, 0, Math.PI * 2);
  ctx.fillStyle = "rgba(255,255,255,0.95)";
  ctx.fill();
  ctx.restore();
}

/** A socket for a gem still missing: a small carved ring. */
function socket(ctx, x, y, r, colour) {
  ctx.beginPath();
  ctx.arc(x, y, r * 0.82, 0, Math.PI * 2);
  ctx.fillStyle = "rgba(255,255,255,0.55)";
  ctx.fill();
  ctx.lineWidth = Math.max(0.7, r * 0.16);
  ctx.strokeStyle = nectar(colour).dark;
  ctx.globalAlpha *= 0.55;
  ctx.stroke();
  ctx.globalAlpha /= 0.55;
}

/**
 * A card's shadow on the terrace: two offset translucent layers, not a canvas blur (a blur
 * per tile costs tens of milliseconds a board without a GPU).
 */
function cardShadow(ctx, x, y, w, r) {
  for (const [d, a] of [[w * 0.045, 0.14], [w * 0.025, 0.2]]) {
    roundRect(ctx, x + d * 0.4, y + d, w, w, r);
    ctx.fillStyle = `rgba(60,35,10,${a})`;
    ctx.fill();
  }
}

/**
 * A flower tile with its top-left corner at (x, y), size s: the face tinted in its nectar
 * colour inside a frame of that colour, its flowers, and below them one socket per flower
 * holding the water gems it has (so "2 of 3" reads at a glance). `tile`: {colour, flowers,
 * gems, kind}.
 */
export function tile(ctx, x, y, s, t) {
  const c = nectar(t.colour);
  const m = s * 0.04;
  cardShadow(ctx, x + m, y + m, s - 2 * m, s * 0.09);
  roundRect(ctx, x + m, y + m, s - 2 * m, s - 2 * m, s * 0.09);
  ctx.fillStyle = c.fill;
  ctx.fill();
  const band = s * 0.07;
  roundRect(ctx, x + m + band, y + m + band, s - 2 * (m + band), s - 2 * (m + band), s * 0.05);
  const g = ctx.createLinearGradient(x, y, x, y + s);
  g.addColorStop(0, "#fffaf0");
  g.addColorStop(1, c.tint);
  ctx.fillStyle = g;
  ctx.fill();
  // a single-flower tile has a plain frame; a multi-flower tile a double line inside it
  if (t.kind === "multi") {
    roundRect(ctx, x + m + band * 1.45, y + m + band * 1.45, s - 2 * (m + band * 1.45), s - 2 * (m + band * 1.45), s * 0.04);
    ctx.lineWidth = s * 0.008;
    ctx.strokeStyle = c.fill;
    ctx.stroke();
  }
  const n = Math.max(1, Math.min(5, t.flowers || 1));
  for (const [fx, fy, fr] of FLOWER_SPOTS[n]) flower(ctx, x + fx * s, y + fy * s, fr * s, t.colour);
  const gems = t.gems || 0;
  socketSpots(n).forEach(([gx, gy, gr], i) => {
    if (i < gems) waterGem(ctx, x + gx * s, y + gy * s, gr * s);
    else socket(ctx, x + gx * s, y + gy * s, gr * s, t.colour);
  });
}

/** The central well on the square at (x, y) of size s: a ring of stones around the water. */
export function well(ctx, x, y, s) {
  const cx = x + s / 2;
  const cy = y + s / 2;
  cardShadow(ctx, x + s * 0.04, y + s * 0.04, s * 0.92, s * 0.09);
  roundRect(ctx, x + s * 0.04, y + s * 0.04, s * 0.92, s * 0.92, s * 0.09);
  ctx.fillStyle = "#cdb88f";
  ctx.fill();
  ctx.beginPath();
  ctx.arc(cx, cy, s * 0.4, 0, Math.PI * 2);
  ctx.fillStyle = PALETTE.stone;
  ctx.fill();
  ctx.lineWidth = s * 0.02;
  ctx.strokeStyle = PALETTE.stoneDark;
  ctx.stroke();
  // the stones of the ring
  const stones = 14;
  for (let i = 0; i < stones; i += 1) {
    const a0 = (Math.PI * 2 * i) / stones;
    const a1 = (Math.PI * 2 * (i + 1)) / stones;
    ctx.beginPath();
    ctx.arc(cx, cy, s * 0.4, a0 + 0.03, a1 - 0.03);
    ctx.arc(cx, cy, s * 0.29, a1 - 0.03, a0 + 0.03, true);
    ctx.closePath();
    ctx.fillStyle = grain(i, 3) > 0.5 ? "#c8bca6" : "#aa9c84";
    ctx.fill();
    ctx.lineWidth = s * 0.01;
    ctx.strokeStyle = PALETTE.stoneDark;
    ctx.stroke();
  }
  ctx.beginPath();
  ctx.arc(cx, cy, s * 0.28, 0, Math.PI * 2);
  const w = ctx.createRadialGradient(cx - s * 0.08, cy - s * 0.08, s * 0.02, cx, cy, s * 0.28);
  w.addColorStop(0, "#a9dcf5");
  w.addColorStop(1, PALETTE.waterDeep);
  ctx.fillStyle = w;
  ctx.fill();
  ctx.strokeStyle = "rgba(255,255,255,0.6)";
  ctx.lineWidth = s * 0.012;
  for (const rr of [0.08, 0.15]) {
    ctx.beginPath();
    ctx.arc(cx + s * 0.02, cy + s * 0.02, s * rr, 0.4, 2.4);
    ctx.stroke();
  }
}

/**
 * The path of water from the well through the centres of its tiles (`points` in order, the
 * well's centre first), ending in a drop; `s` is the tile size.
 */
export function path(ctx, points, s) {
  if (points.length < 2) return;
  ctx.save();
  ctx.lineCap = "round";
  ctx.lineJoin = "round";
  const trace = () => {
    ctx.beginPath();
    ctx.moveTo(points[0][0], points[0][1]);
    for (const [px, py] of points.slice(1)) ctx.lineTo(px, py);
  };
  trace();
  ctx.lineWidth = s * 0.15;
  ctx.strokeStyle = "rgba(255,255,255,0.85)";
  ctx.stroke();
  trace();
  ctx.lineWidth = s * 0.09;
  ctx.strokeStyle = "rgba(42,111,168,0.88)";
  ctx.stroke();
  trace();
  ctx.setLineDash([s * 0.06, s * 0.1]);
  ctx.lineWidth = s * 0.025;
  ctx.strokeStyle = "rgba(200,235,255,0.9)";
  ctx.stroke();
  ctx.setLineDash([]);
  // a bead of water on each tile watered, a larger drop where the path ends now
  points.slice(1).forEach(([px, py], i) => {
    const last = i === points.length - 2;
    ctx.beginPath();
    ctx.arc(px, py, s * (last ? 0.1 : 0.06), 0, Math.PI * 2);
    ctx.fillStyle = PALETTE.waterDeep;
    ctx.fill();
    ctx.lineWidth = s * 0.022;
    ctx.strokeStyle = "#fff";
    ctx.stroke();
  });
  ctx.restore();
}

/** A nectar wink (a glossy counter) of radius r; `colour` a nectar or a seat colour name. */
export function wink(ctx, x, y, r, colour) {
  const fill = NECTAR[colour]?.fill || playerColour(colour);
  ctx.save();
  ctx.beginPath();
  ctx.arc(x + r * 0.08, y + r * 0.14, r, 0, Math.PI * 2);
  ctx.fillStyle = "rgba(0,0,0,0.28)";
  ctx.fill();
  ctx.beginPath();
  ctx.arc(x, y, r, 0, Math.PI * 2);
  const g = ctx.createRadialGradient(x - r * 0.35, y - r * 0.4, r * 0.1, x, y, r);
  g.addColorStop(0, "rgba(255,255,255,0.85)");
  g.addColorStop(0.35, fill);
  g.addColorStop(1, fill);
  ctx.fillStyle = g;
  ctx.fill();
  ctx.lineWidth = Math.max(1, r * 0.14);
  ctx.strokeStyle = colour === "white" ? "#8c8676" : "rgba(0,0,0,0.45)";
  ctx.stroke();
  ctx.restore();
  // a nectar wink carries its colour's mark (js/marks.js); a seat's colour none
  if (NECTAR[colour]) drawMark(ctx, colour, x, y, r * 0.42);
}
