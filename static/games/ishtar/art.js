/**
 * Small pictures for the side panels: a vegetation tile, a face-down tile, a pawn, a tree
 * marker, the watering can, blooming tokens (images painted once with paint.js, so they
 * match the board: js/pictures.js) and gem icons (inline SVG, for text).
 */

import { esc } from "../../js/dom.js";
import { t } from "../../js/i18n.js";
import { svgMark } from "../../js/marks.js";
import { picture } from "../../js/pictures.js";
import * as hex from "./hex.js";
import * as paint from "./paint.js";
import { tileCells } from "./shapes.js";

const GEM_SVG = {
  purple: ["#8a44b8", "#4d1f6e", "#c28be3"],
  red: ["#cc3636", "#7a1414", "#f08a7a"],
  white: ["#f4f1ea", "#8c8676", "#ffffff"],
};

/** An inline SVG gem for text, e.g. `${gemIcon("red")}`; `title` its name ("red gem"). */
export function gemIcon(colour, title = t(`ishtar.ui.gem.${colour}`)) {
  const [fill, dark, light] = GEM_SVG[colour] || GEM_SVG.purple;
  const name = esc(title);
  return `<svg class="gem-icon" viewBox="0 0 20 20" role="img" aria-label="${name}"><title>${name}</title>`
    + `<path d="M5 3h10l4 6-9 9-9-9z" fill="${fill}" stroke="${dark}" stroke-width="1.6" stroke-linejoin="round"/>`
    + `<path d="M1 9h18M5 3l3 6 2 9M15 3l-3 6-2 9" fill="none" stroke="${dark}" stroke-width="0.8"/>`
    + `<path d="M6 4h3.5l-1.8 4z" fill="${light}" opacity="0.85"/>${svgMark(colour, 10, 9.6, 4.4)}</svg>`;
}

/** "2 purple, 1 red" as gem icons with counts; `gems` is a {colour: n} dict or a list. */
export function gemsHtml(gems, { zeros = false } = {}) {
  const counts = Array.isArray(gems) ? countList(gems) : gems || {};
  const parts = [];
  for (const c of ["purple", "red", "white"]) {
    const n = counts[c] || 0;
    if (!n && !zeros) continue;
    parts.push(`<span class="gemcount${n ? "" : " zero"}">${gemIcon(c)}${n}</span>`);
  }
  return parts.join(" ");
}

/** Gem icons repeated (a price): ["purple","purple","red"] → ◆◆◆. */
export function gemRow(list) {
  return list.map((c) => gemIcon(c)).join("");
}

function countList(list) {
  const out = { purple: 0, red: 0, white: 0 };
  for (const c of list) out[c] = (out[c] || 0) + 1;
  return out;
}

/** A vegetation tile (or its back when `tile` is null) fitted in a w×h box. */
export function tilePicture(tile, shape, w, h, rotation = 0) {
  const key = `tile ${JSON.stringify(tile)} ${shape} ${rotation}`;
  return picture(key, w, h, (ctx) => paintTile(ctx, tile, shape, w, h, rotation), "tile-art");
}

function paintTile(ctx, tile, shape, w, h, rotation) {
  const sh = tile ? tile.shape : shape;
  const cells = tileCells(sh || "triangle", [0, 0], rotation);
  if (!cells.length) return false; // no catalogue yet, no shapes: not kept
  const pts = cells.map((cell) => hex.toPixel(cell, 1));
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => p[1]);
  const spanX = Math.max(...xs) - Math.min(...xs) + Math.sqrt(3);
  const spanY = Math.max(...ys) - Math.min(...ys) + 2;
  const s = Math.min((w * 0.9) / spanX, (h * 0.9) / spanY);
  const ox = w / 2 - ((Math.max(...xs) + Math.min(...xs)) / 2) * s;
  const oy = h / 2 - ((Math.max(...ys) + Math.min(...ys)) / 2) * s;
  cells.forEach((cell, i) => {
    const [x, y] = [pts[i][0] * s + ox, pts[i][1] * s + oy];
    if (tile) paint.vegetation(ctx, x, y, s, tile.spaces[i], cell[0] + 7, cell[1] + 3);
    else {
      paint.hexPath(ctx, x, y, s);
      ctx.fillStyle = "#c9a56a";
      ctx.fill();
      ctx.fillStyle = "rgba(120,80,30,0.35)";
      ctx.beginPath();
      ctx.arc(x, y, s * 0.28, 0, Math.PI * 2);
      ctx.fill();
    }
    paint.hexPath(ctx, x, y, s);
    ctx.lineWidth = Math.max(1, s * 0.07);
    ctx.strokeStyle = tile ? paint.PALETTE.tileEdge : "#7a5a2c";
    ctx.stroke();
  });
  if (tile && tile.start) {
    // the water drops of a starting tile
    ctx.fillStyle = "#5fb4de";
    ctx.strokeStyle = "#1d5f86";
    ctx.lineWidth = 1;
    const [x, y] = [pts[0][0] * s + ox - s * 0.45, pts[0][1] * s + oy - s * 0.45];
    ctx.beginPath();
    ctx.moveTo(x, y - s * 0.28);
    ctx.quadraticCurveTo(x + s * 0.22, y, x, y + s * 0.12);
    ctx.quadraticCurveTo(x - s * 0.22, y, x, y - s * 0.28);
    ctx.fill();
    ctx.stroke();
  }
}

export function pawnPicture(colour, w = 16, h = 18) {
  return picture(`pawn ${colour}`, w, h, (ctx) =>
    paint.meeple(ctx, w / 2, h / 2 + 1, h * 0.45, paint.playerColour(colour)),
  );
}

export function treePicture(size = 26) {
  return picture("tree", size, size, (ctx) =>
    paint.tree(ctx, size / 2, size / 2 + size * 0.06, size * 0.55), "marker");
}

export function canPicture(size = 34) {
  return picture("can", size, size, (ctx) => paintCan(ctx, size), "can");
}

function paintCan(ctx, size) {
  ctx.beginPath();
  ctx.arc(size / 2, size / 2, size / 2 - 1, 0, Math.PI * 2);
  ctx.fillStyle = "#fff6dc";
  ctx.fill();
  ctx.strokeStyle = "#1d3a66";
  ctx.lineWidth = 1.5;
  ctx.stroke();
  paint.wateringCan(ctx, size / 2 - size * 0.05, size / 2 + size * 0.06, size * 0.3);
}

/** A blooming token: one or two round spaces with their flowers. */
export function tokenPicture(token, h = 30) {
  const flowers = token.match(/F(\d)/g).map((f) => Number(f.slice(1)));
  const w = flowers.length * h;
  return picture(`token ${token}`, w, h, (ctx) => paintToken(ctx, flowers, h));
}

function paintToken(ctx, flowers, h) {
  flowers.forEach((n, i) => {
    const x = h / 2 + i * h;
    const y = h / 2;
    ctx.beginPath();
    ctx.arc(x, y, h / 2 - 1.5, 0, Math.PI * 2);
    ctx.fillStyle = paint.PALETTE.flower;
    ctx.fill();
    ctx.lineWidth = 2;
    ctx.strokeStyle = paint.PALETTE.gold;
    ctx.stroke();
    const spots = { 1: [[0, 0]], 2: [[-0.2, -0.1], [0.2, 0.12]], 3: [[-0.22, 0.08], [0.22, 0.08], [0, -0.22]] }[Math.min(n, 3)];
    for (const [dx, dy] of spots) paint.flowerHead(ctx, x + dx * h, y + dy * h, h * 0.13);
  });
}
