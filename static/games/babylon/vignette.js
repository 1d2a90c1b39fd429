/**
 * The little garden on the home page: the Lower Garden's nine squares around the well, with a
 * path of water and a few gems, painted with the board's own primitives (decoration only).
 */

import { sharpContext } from "../../js/canvas.js";
import * as paint from "./paint.js";

const GARDEN = [
  [[0, 0], { colour: "red", flowers: 3, gems: 1, kind: "multi" }],
  [[0, 1], { colour: "yellow", flowers: 1, gems: 0, kind: "single" }],
  [[0, 2], { colour: "purple", flowers: 4, gems: 2, kind: "multi" }],
  [[1, 0], { colour: "green", flowers: 1, gems: 0, kind: "single" }],
  [[1, 2], { colour: "red", flowers: 1, gems: 0, kind: "single" }],
  [[2, 0], { colour: "yellow", flowers: 5, gems: 3, kind: "multi" }],
  [[2, 1], { colour: "purple", flowers: 1, gems: 0, kind: "single" }],
  [[2, 2], { colour: "green", flowers: 2, gems: 1, kind: "multi" }],
];

export function drawVignette(canvas) {
  const w = 520;
  const h = 190;
  const ctx = sharpContext(canvas, w, h);
  const s = 52;
  const x0 = (w - 3 * s) / 2;
  const y0 = (h - 3 * s) / 2;
  ctx.translate(x0, y0);
  paint.terrace(ctx, 0, 0, 3 * s, 3 * s, s);
  paint.well(ctx, s, s, s);
  for (const [[r, c], t] of GARDEN) paint.tile(ctx, c * s, r * s, s, t);
  const centre = ([r, c]) => [(c + 0.5) * s, (r + 0.5) * s];
  paint.path(ctx, [[1, 1], [1, 2], [0, 2], [0, 1]].map(centre), s);
  // winks beside the garden: the nectar harvested
  const colours = ["red", "red", "purple", "yellow", "green"];
  colours.forEach((c, i) => paint.wink(ctx, -70 + (i % 2) * 24, 22 + i * 24, 9, c));
  ["purple", "yellow", "green"].forEach((c, i) => paint.wink(ctx, 3 * s + 46, 40 + i * 30, 9, c));
}
