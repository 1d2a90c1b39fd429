/**
 * Paint primitives: how each piece of the game looks, drawn on a 2D canvas context in the
 * coordinates of the caller (one hex of size `s` centred at (x, y)). Used by the board
 * renderer and by the small canvases of the side panels, so a tile looks the same everywhere.
 * Pure drawing; knows no rules.
 */

import { playerColour } from "../../js/colours.js";
import { drawMark } from "../../js/marks.js";
import { corners } from "./hex.js";

export const PALETTE = {
  sand: "#e9d3a3",
  sandDark: "#d9bd84",
  sandEdge: "#b48a4e",
  rock: "#b3a48c",
  rockDark: "#857661",
  grass: "#a9cf6b",
  grassDark: "#8cb552",
  flower: "#3f7a3a",
  flowerDark: "#2f5e2c",
  tileEdge: "#23401f",
  tablet: "#c08a52",
  tabletDark: "#7a5230",
  water: "#5fb4de",
  gold: "#d8a62b",
  ink: "#2b2118",
};

const GEM = {
  purple: { fill: "#8a44b8", light: "#c28be3", dark: "#4d1f6e" },
  red: { fill: "#cc3636", light: "#f08a7a", dark: "#7a1414" },
  white: { fill: "#f4f1ea", light: "#ffffff", dark: "#9c968a" },
};

// The seats' colours are the platform's (static/js/colours.js): the same on every page.
export { playerColour };

export function hexPath(ctx, x, y, s) {
  const pts = corners(x, y, s);
  ctx.beginPath();
  ctx.moveTo(pts[0][0], pts[0][1]);
  for (let i = 1; i < 6; i += 1) ctx.lineTo(pts[i][0], pts[i][1]);
  ctx.closePath();
}

/** A small deterministic pseudo-random number per cell, for natural-looking texture. */
export function grain(q, r, i = 0) {
  const n = Math.sin(q * 127.1 + r * 311.7 + i * 74.7) * 43758.5453;
  return n - Math.floor(n);
}

export function sand(ctx, x, y, s, q = 0, r = 0) {
  hexPath(ctx, x, y, s);
  const shade = Math.round((grain(q, r) - 0.5) * 14);
  ctx.fillStyle = shadeHex(PALETTE.sand, shade);
  ctx.fill();
  ctx.fillStyle = "rgba(150,110,60,0.22)";
  for (let i = 0; i < 7; i += 1) {
    const a = grain(q, r, i + 1) * Math.PI * 2;
    const d = grain(q, r, i + 11) * s * 0.72;
    ctx.beginPath();
    ctx.arc(x + Math.cos(a) * d, y + Math.sin(a) * d, s * 0.035, 0, Math.PI * 2);
    ctx.fill();
  }
}

export function rock(ctx, x, y, s, colour, hasGem, q = 0, r = 0) {
  sand(ctx, x, y, s, q, r);
  // A low cluster of stones, the gem sitting on top of it.
  const stones = [[-0.32, 0.18, 0.34], [0.3, 0.2, 0.32], [0.02, -0.12, 0.42]];
  for (const [dx, dy, rr] of stones) {
    ctx.beginPath();
    ctx.ellipse(x + dx * s, y + dy * s, rr * s, rr * s * 0.78, grain(q, r, 3) * 0.6, 0, Math.PI * 2);
    ctx.fillStyle = PALETTE.rock;
    ctx.fill();
    ctx.lineWidth = s * 0.045;
    ctx.strokeStyle = PALETTE.rockDark;
    ctx.stroke();
  }
  if (hasGem) gem(ctx, x, y - s * 0.05, s * 0.36, colour);
  else socket(ctx, x, y - s * 0.05, s * 0.3, colour);
}

/** An empty rock: the colour of the gem it held, as a faint outline. */
function socket(ctx, x, y, r, colour) {
  const g = GEM[colour] || GEM.purple;
  gemPath(ctx, x, y, r);
  ctx.fillStyle = "rgba(80,60,40,0.28)";
  ctx.fill();
  ctx.setLineDash([r * 0.25, r * 0.2]);
  ctx.lineWidth = r * 0.14;
  ctx.strokeStyle = g.dark;
  ctx.stroke();
  ctx.setLineDash([]);
}

function gemPath(ctx, x, y, r) {
  ctx.beginPath();
  ctx.moveTo(x - r * 0.55, y - r * 0.75);
  ctx.lineTo(x + r * 0.55, y - r * 0.75);
  ctx.lineTo(x + r, y - r * 0.15);
  ctx.lineTo(x, y + r * 0.95);
  ctx.lineTo(x - r, y - r * 0.15);
  ctx.closePath();
}

/** A faceted gem of radius r. */
export function gem(ctx, x, y, r, colour) {
  const g = GEM[colour] || GEM.purple;
  gemPath(ctx, x, y, r);
  ctx.fillStyle = g.fill;
  ctx.fill();
  ctx.lineJoin = "round";
  ctx.lineWidth = Math.max(1, r * 0.12);
  ctx.strokeStyle = g.dark;
  ctx.stroke();
  // facets
  ctx.beginPath();
  ctx.moveTo(x - r, y - r * 0.15);
  ctx.lineTo(x + r, y - r * 0.15);
  ctx.moveTo(x - r * 0.55, y - r * 0.75);
  ctx.lineTo(x - r * 0.25, y - r * 0.15);
  ctx.lineTo(x, y + r * 0.95);
  ctx.moveTo(x + r * 0.55, y - r * 0.75);
  ctx.lineTo(x + r * 0.25, y - r * 0.15);
  ctx.lineTo(x, y + r * 0.95);
  ctx.lineWidth = Math.max(0.6, r * 0.06);
  ctx.stroke();
  ctx.beginPath();
  ctx.moveTo(x - r * 0.5, y - r * 0.68);
  ctx.lineTo(x - r * 0.05, y - r * 0.68);
  ctx.lineTo(x - r * 0.28, y - r * 0.2);
  ctx.closePath();
  ctx.fillStyle = g.light;
  ctx.globalAlpha *= 0.8;
  ctx.fill();
  ctx.globalAlpha /= 0.8;
  // its colour's mark (js/marks.js), for who cannot tell purple from red by colour
  drawMark(ctx, colour, x, y + r * 0.12, r * 0.36);
}

export function tablet(ctx, x, y, s, q = 0, r = 0) {
  sand(ctx, x, y, s, q, r);
  ctx.save();
  ctx.translate(x, y);
  ctx.rotate((grain(q, r, 5) - 0.5) * 0.5);
  const w = s * 0.78;
  const h = s * 1.0;
  roundRect(ctx, -w / 2, -h / 2, w, h, s * 0.14);
  ctx.fillStyle = PALETTE.tablet;
  ctx.fill();
  ctx.lineWidth = s * 0.06;
  ctx.strokeStyle = PALETTE.tabletDark;
  ctx.stroke();
  // cuneiform wedges in three lines
  ctx.fillStyle = PALETTE.tabletDark;
  for (let line = 0; line < 3; line += 1) {
    for (let k = 0; k < 3; k += 1) {
      const wx = -w * 0.3 + k * w * 0.28 + (line % 2) * w * 0.06;
      const wy = -h * 0.28 + line * h * 0.27;
      ctx.beginPath();
      ctx.moveTo(wx, wy);
      ctx.lineTo(wx + s * 0.16, wy - s * 0.05);
      ctx.lineTo(wx + s * 0.16, wy + s * 0.05);
      ctx.closePath();
      ctx.fill();
    }
  }
  ctx.restore();
}

export function fountain(ctx, x, y, s, colour, q = 0, r = 0) {
  sand(ctx, x, y, s, q, r);
  const g = GEM[colour] || GEM.purple;
  // basin in the fountain's colour, water inside
  ctx.beginPath();
  ctx.arc(x, y, s * 0.8, 0, Math.PI * 2);
  ctx.fillStyle = g.fill;
  ctx.fill();
  ctx.lineWidth = s * 0.08;
  ctx.strokeStyle = g.dark;
  ctx.stroke();
  ctx.beginPath();
  ctx.arc(x, y, s * 0.58, 0, Math.PI * 2);
  const grad = ctx.createRadialGradient(x - s * 0.15, y - s * 0.15, s * 0.05, x, y, s * 0.6);
  grad.addColorStop(0, "#bfe7f7");
  grad.addColorStop(1, PALETTE.water);
  ctx.fillStyle = grad;
  ctx.fill();
  ctx.lineWidth = s * 0.05;
  ctx.strokeStyle = g.dark;
  ctx.stroke();
  // the spout and a few droplets
  ctx.beginPath();
  ctx.arc(x, y, s * 0.16, 0, Math.PI * 2);
  ctx.fillStyle = g.light;
  ctx.fill();
  ctx.strokeStyle = g.dark;
  ctx.lineWidth = s * 0.04;
  ctx.stroke();
  ctx.fillStyle = "rgba(255,255,255,0.85)";
  for (let i = 0; i < 6; i += 1) {
    const a = (Math.PI / 3) * i + 0.3;
    ctx.beginPath();
    ctx.arc(x + Math.cos(a) * s * 0.36, y + Math.sin(a) * s * 0.36, s * 0.045, 0, Math.PI * 2);
    ctx.fill();
  }
}

/** Positions (as fractions of s) of n flowers on a flower space. */
const FLOWER_SPOTS = {
  1: [[0, -0.12]],
  2: [[-0.26, -0.2], [0.26, 0.02]],
  3: [[-0.3, -0.02], [0.3, -0.02], [0, -0.38]],
  4: [[-0.28, -0.3], [0.28, -0.3], [-0.28, 0.12], [0.28, 0.12]],
};

/** The spots of `n` flowers on a space, as fractions of the hex size (for tests and tips). */
export function flowerSpots(n) {
  return FLOWER_SPOTS[Math.max(1, Math.min(4, n))];
}

export function flowerHead(ctx, x, y, r, petal = "#f6d3e2") {
  ctx.fillStyle = petal;
  for (let i = 0; i < 5; i += 1) {
    const a = (Math.PI * 2 * i) / 5 - Math.PI / 2;
    ctx.beginPath();
    ctx.arc(x + Math.cos(a) * r * 0.55, y + Math.sin(a) * r * 0.55, r * 0.48, 0, Math.PI * 2);
    ctx.fill();
  }
  ctx.beginPath();
  ctx.arc(x, y, r * 0.38, 0, Math.PI * 2);
  ctx.fillStyle = "#f2b630";
  ctx.fill();
}

/**
 * One vegetation space: grass (light green) or a flower space (dark green) with its flowers
 * and icon. `space` = {kind, flowers, icon}.
 */
export function vegetation(ctx, x, y, s, space, q = 0, r = 0) {
  hexPath(ctx, x, y, s);
  const flower = space.kind === "flower";
  ctx.fillStyle = flower ? PALETTE.flower : PALETTE.grass;
  ctx.fill();
  // blades of grass for texture
  ctx.strokeStyle = flower ? "rgba(20,50,20,0.35)" : "rgba(70,110,30,0.45)";
  ctx.lineWidth = s * 0.035;
  ctx.lineCap = "round";
  for (let i = 0; i < 9; i += 1) {
    const bx = x + (grain(q, r, i + 20) - 0.5) * s * 1.2;
    const by = y + (grain(q, r, i + 40) - 0.5) * s * 1.1;
    ctx.beginPath();
    ctx.moveTo(bx, by);
    ctx.lineTo(bx + s * 0.05, by - s * 0.12);
    ctx.stroke();
  }
  if (flower) {
    const n = Math.max(1, Math.min(4, space.flowers || 1));
    const petal = ["#f6d3e2", "#fbf3d5", "#f3a7c0", "#ffe9a8"][(q * 7 + r * 3 + 20) % 4];
    for (const [fx, fy] of FLOWER_SPOTS[n]) flowerHead(ctx, x + fx * s, y + fy * s, s * 0.2, petal);
  }
  if (space.icon) icon(ctx, ...iconSpot(x, y, s), s * ICON_SPOT.r, space.icon);
}

/**
 * Where a vegetation space shows its special-action icon: below its flowers, which never
 * reach that spot (icons sit on spaces of 1 or 2 flowers). `dy` and `r` are × the hex size.
 */
export const ICON_SPOT = { dy: 0.5, r: 0.27 };

export function iconSpot(x, y, s) {
  return [x, y + s * ICON_SPOT.dy];
}

/**
 * An assistant on the space (x, y): a wooden pawn of the player's colour standing on the
 * tile's icon, as on the physical board. Its round base, a darker shade of the colour, is a
 * little wider than the icon's disc, so the icon is hidden entirely; the pawn rises no higher
 * than the icon spot's top, so the space's flowers stay in sight (they score: see
 * docs/games/ishtar/rules.md, "Visible flowers"). Nothing of it is cream or ink, the icons'
 * colours, so it never reads as an icon left showing.
 */
export function assistantCounter(ctx, x, y, s, colour) {
  const [cx, cy] = iconSpot(x, y, s);
  const r = s * (ICON_SPOT.r + 0.04);
  const base = /^#[0-9a-f]{6}$/i.test(colour) ? shadeHex(colour, -55) : "rgba(0,0,0,0.55)";
  ctx.beginPath();
  ctx.ellipse(cx + r * 0.12, cy + r * 0.2, r * 1.02, r * 0.86, 0, 0, Math.PI * 2);
  ctx.fillStyle = "rgba(0,0,0,0.32)";
  ctx.fill();
  ctx.beginPath();
  ctx.arc(cx, cy, r, 0, Math.PI * 2);
  ctx.fillStyle = base;
  ctx.fill();
  ctx.lineWidth = r * 0.1;
  ctx.strokeStyle = "rgba(0,0,0,0.45)";
  ctx.stroke();
  // the pawn: its colour, a dark outline and a light edge for the wood's shine
  const h = r * 0.92;
  meeple(ctx, cx, cy + h * 0.05, h, colour, false);
  ctx.lineWidth = h * 0.1;
  ctx.strokeStyle = "rgba(0,0,0,0.6)";
  ctx.stroke();
  ctx.beginPath();
  ctx.arc(cx - h * 0.1, cy - h * 0.5, h * 0.14, 0, Math.PI * 2);
  ctx.fillStyle = "rgba(255,255,255,0.45)";
  ctx.fill();
}

/** The special-action icon of a flower space: a Assistant, s Skill, w Wild. */
export function icon(ctx, x, y, r, kind) {
  ctx.beginPath();
  ctx.arc(x, y, r, 0, Math.PI * 2);
  ctx.fillStyle = "#f7ecd2";
  ctx.fill();
  ctx.lineWidth = r * 0.16;
  ctx.strokeStyle = PALETTE.ink;
  ctx.stroke();
  ctx.fillStyle = PALETTE.ink;
  ctx.strokeStyle = PALETTE.ink;
  if (kind === "a") {
    meeple(ctx, x, y + r * 0.05, r * 0.72, PALETTE.ink, false);
  } else if (kind === "s") {
    // an open book of knowledge
    ctx.lineWidth = r * 0.13;
    ctx.beginPath();
    ctx.moveTo(x, y - r * 0.35);
    ctx.quadraticCurveTo(x - r * 0.3, y - r * 0.55, x - r * 0.62, y - r * 0.38);
    ctx.lineTo(x - r * 0.62, y + r * 0.42);
    ctx.quadraticCurveTo(x - r * 0.3, y + r * 0.25, x, y + r * 0.45);
    ctx.quadraticCurveTo(x + r * 0.3, y + r * 0.25, x + r * 0.62, y + r * 0.42);
    ctx.lineTo(x + r * 0.62, y - r * 0.38);
    ctx.quadraticCurveTo(x + r * 0.3, y - r * 0.55, x, y - r * 0.35);
    ctx.lineTo(x, y + r * 0.45);
    ctx.stroke();
  } else {
    star(ctx, x, y + r * 0.04, r * 0.7);
    ctx.fill();
  }
}

export function star(ctx, x, y, r) {
  ctx.beginPath();
  for (let i = 0; i < 10; i += 1) {
    const a = (Math.PI * i) / 5 - Math.PI / 2;
    const rr = i % 2 ? r * 0.45 : r;
    ctx.lineTo(x + Math.cos(a) * rr, y + Math.sin(a) * rr);
  }
  ctx.closePath();
}

/** A round blooming token ring laid over a space. */
export function tokenRing(ctx, x, y, s) {
  ctx.beginPath();
  ctx.arc(x, y, s * 0.8, 0, Math.PI * 2);
  ctx.lineWidth = s * 0.1;
  ctx.strokeStyle = PALETTE.gold;
  ctx.stroke();
  ctx.beginPath();
  ctx.arc(x, y, s * 0.86, 0, Math.PI * 2);
  ctx.lineWidth = s * 0.03;
  ctx.strokeStyle = "#7a5a10";
  ctx.stroke();
}

/** An assistant pawn in a player's colour (r ≈ its half height). */
export function meeple(ctx, x, y, r, colour, outline = true) {
  ctx.beginPath();
  ctx.arc(x, y - r * 0.5, r * 0.36, 0, Math.PI * 2);
  ctx.moveTo(x - r * 0.75, y + r * 0.8);
  ctx.quadraticCurveTo(x - r * 0.7, y - r * 0.15, x, y - r * 0.15);
  ctx.quadraticCurveTo(x + r * 0.7, y - r * 0.15, x + r * 0.75, y + r * 0.8);
  ctx.closePath();
  ctx.fillStyle = colour;
  ctx.fill();
  if (outline) {
    ctx.lineWidth = r * 0.14;
    ctx.strokeStyle = "#fffaf0";
    ctx.stroke();
    ctx.lineWidth = r * 0.05;
    ctx.strokeStyle = "rgba(0,0,0,0.55)";
    ctx.stroke();
  }
}

/** A planted tree seen from above with its shadow. */
export function tree(ctx, x, y, s) {
  ctx.beginPath();
  ctx.ellipse(x + s * 0.12, y + s * 0.22, s * 0.55, s * 0.38, 0, 0, Math.PI * 2);
  ctx.fillStyle = "rgba(0,0,0,0.25)";
  ctx.fill();
  ctx.fillStyle = "#6b4226";
  ctx.fillRect(x - s * 0.07, y - s * 0.05, s * 0.14, s * 0.4);
  const blobs = [[0, -0.3, 0.36], [-0.26, -0.1, 0.28], [0.26, -0.1, 0.28], [0, -0.02, 0.3]];
  for (const [dx, dy, rr] of blobs) {
    ctx.beginPath();
    ctx.arc(x + dx * s, y + dy * s, rr * s, 0, Math.PI * 2);
    ctx.fillStyle = "#24652b";
    ctx.fill();
    ctx.lineWidth = s * 0.04;
    ctx.strokeStyle = "#123d18";
    ctx.stroke();
  }
  ctx.beginPath();
  ctx.arc(x - s * 0.1, y - s * 0.36, s * 0.12, 0, Math.PI * 2);
  ctx.fillStyle = "#4f9a48";
  ctx.fill();
}

/** The watering can, for the carpet. */
export function wateringCan(ctx, x, y, r) {
  ctx.save();
  ctx.translate(x, y);
  ctx.fillStyle = "#3a7fb8";
  ctx.strokeStyle = "#173b5a";
  ctx.lineWidth = r * 0.1;
  roundRect(ctx, -r * 0.55, -r * 0.35, r * 0.95, r * 0.8, r * 0.15);
  ctx.fill();
  ctx.stroke();
  ctx.beginPath();
  ctx.moveTo(r * 0.35, r * 0.1);
  ctx.lineTo(r * 0.95, -r * 0.45);
  ctx.lineTo(r * 1.0, -r * 0.3);
  ctx.lineTo(r * 0.4, r * 0.3);
  ctx.closePath();
  ctx.fill();
  ctx.stroke();
  ctx.beginPath();
  ctx.arc(-r * 0.08, -r * 0.45, r * 0.32, Math.PI, 0);
  ctx.lineWidth = r * 0.14;
  ctx.stroke();
  ctx.restore();
}

export function roundRect(ctx, x, y, w, h, rad) {
  ctx.beginPath();
  ctx.moveTo(x + rad, y);
  ctx.arcTo(x + w, y, x + w, y + h, rad);
  ctx.arcTo(x + w, y + h, x, y + h, rad);
  ctx.arcTo(x, y + h, x, y, rad);
  ctx.arcTo(x, y, x + w, y, rad);
  ctx.closePath();
}

function shadeHex(hex, amount) {
  const n = parseInt(hex.slice(1), 16);
  const c = (v) => Math.max(0, Math.min(255, v + amount));
  const r = c(n >> 16);
  const g = c((n >> 8) & 255);
  const b = c(n & 255);
  return `rgb(${r},${g},${b})`;
}
