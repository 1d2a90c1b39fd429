/**
 * The little garden on the home page: a few hexes around a fountain, painted with the same
 * primitives as the board (decoration only).
 */

import { sharpContext } from "../../js/canvas.js";
import { toPixel } from "./hex.js";
import * as paint from "./paint.js";

const GARDEN = [
  [[0, 0], "fountain", "white"],
  [[1, 0], "veg", { kind: "flower", flowers: 3, icon: null }],
  [[1, -1], "veg", { kind: "flower", flowers: 2, icon: "a" }],
  [[0, -1], "veg", { kind: "grass" }],
  [[-1, 0], "veg", { kind: "flower", flowers: 1, icon: "s" }],
  [[-1, 1], "veg", { kind: "grass" }],
  [[0, 1], "veg", { kind: "flower", flowers: 4, icon: null }],
  [[2, -1], "rock", "purple"],
  [[2, 0], "sand"],
  [[-2, 1], "rock", "red"],
  [[-2, 0], "tablet"],
  [[1, 1], "rock", "white"],
  [[-1, -1], "sand"],
  [[3, -1], "veg", { kind: "grass" }],
  [[3, 0], "veg", { kind: "flower", flowers: 2, icon: "w" }],
  [[-3, 0], "sand"],
  [[-3, 1], "veg", { kind: "grass" }],
  [[2, 1], "sand"],
  [[-2, -1], "rock", "purple"],
  [[4, -1], "sand"],
  [[4, 0], "rock", "red"],
  [[-4, 1], "sand"],
];

export function drawVignette(canvas) {
  const w = 520;
  const h = 190;
  const ctx = sharpContext(canvas, w, h);
  const s = 30;
  ctx.translate(w / 2 - s * 0.9, h / 2);
  ctx.save();
  ctx.shadowColor = "rgba(0,0,0,0.45)";
  ctx.shadowBlur = 16;
  ctx.shadowOffsetY = 5;
  for (const [cell] of GARDEN) {
    const [x, y] = toPixel(cell, s);
    paint.hexPath(ctx, x, y, s + 0.5);
    ctx.fillStyle = paint.PALETTE.sandDark;
    ctx.fill();
  }
  ctx.restore();
  for (const [cell, kind, arg] of GARDEN) {
    const [x, y] = toPixel(cell, s);
    const [q, r] = cell;
    if (kind === "fountain") paint.fountain(ctx, x, y, s, arg, q, r);
    else if (kind === "rock") paint.rock(ctx, x, y, s, arg, true, q, r);
    else if (kind === "tablet") paint.tablet(ctx, x, y, s, q, r);
    else if (kind === "sand") paint.sand(ctx, x, y, s, q, r);
    else paint.vegetation(ctx, x, y, s, arg, q, r);
    paint.hexPath(ctx, x, y, s);
    ctx.lineWidth = 1;
    ctx.strokeStyle = kind === "veg" ? "rgba(20,45,15,0.6)" : "rgba(140,100,50,0.4)";
    ctx.stroke();
  }
  const [tx, ty] = toPixel([0, -1], s);
  paint.tree(ctx, tx, ty, s);
  const [mx, my] = toPixel([1, -1], s);
  paint.assistantCounter(ctx, mx, my, s, paint.playerColour("blue"));
  const [kx, ky] = toPixel([-3, 1], s);
  paint.tree(ctx, kx, ky, s);
}
