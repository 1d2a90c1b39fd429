/**
 * Babylon Gardens' rules page (static/js/rules.js draws it): the sections in reading order
 * and their pictures, painted with the board's own primitives (paint.js) and the table's
 * scoreboard drawing (scoreboard.js), never copied from the rulebook. The words are the
 * catalogue's `babylon.ui.rules.<section>.*`.
 */

import * as api from "../../js/api.js";
import { figureContext } from "../../js/canvas.js";
import * as paint from "./paint.js";
import { scoreboardSvg } from "./scoreboard.js";
import { drawVignette } from "./vignette.js";

const GAME = "babylon-gardens";

const stage = figureContext;

/** A single-flower tile, a multi-flower tile two gems from full, and a full one. */
function tiles(canvas) {
  const ctx = stage(canvas, 420, 130);
  const s = 100;
  paint.tile(ctx, 20, 15, s, { colour: "yellow", flowers: 1, gems: 0, kind: "single" });
  paint.tile(ctx, 160, 15, s, { colour: "purple", flowers: 4, gems: 2, kind: "multi" });
  paint.tile(ctx, 300, 15, s, { colour: "red", flowers: 3, gems: 3, kind: "multi" });
}

/** A path of water from the well: straight steps only, no tile twice. */
function path(canvas) {
  const ctx = stage(canvas, 420, 190);
  const s = 56;
  ctx.translate((420 - 3 * s) / 2, (190 - 3 * s) / 2);
  paint.terrace(ctx, 0, 0, 3 * s, 3 * s, s);
  paint.well(ctx, s, s, s);
  const garden = [
    [[0, 0], { colour: "green", flowers: 2, gems: 0, kind: "multi" }],
    [[0, 1], { colour: "red", flowers: 1, gems: 1, kind: "single" }],
    [[0, 2], { colour: "purple", flowers: 3, gems: 2, kind: "multi" }],
    [[1, 0], { colour: "yellow", flowers: 1, gems: 0, kind: "single" }],
    [[1, 2], { colour: "yellow", flowers: 2, gems: 1, kind: "multi" }],
    [[2, 0], { colour: "red", flowers: 4, gems: 1, kind: "multi" }],
    [[2, 1], { colour: "green", flowers: 1, gems: 0, kind: "single" }],
    [[2, 2], { colour: "purple", flowers: 1, gems: 0, kind: "single" }],
  ];
  for (const [[r, c], t] of garden) paint.tile(ctx, c * s, r * s, s, t);
  const centre = ([r, c]) => [(c + 0.5) * s, (r + 0.5) * s];
  paint.path(ctx, [[1, 1], [1, 2], [0, 2], [0, 1]].map(centre), s);
}

/** Winks: the nectar harvested, one per tile filled. */
function winks(canvas) {
  const ctx = stage(canvas, 420, 70);
  ["red", "green", "yellow", "purple"].forEach((c, i) => paint.wink(ctx, 60 + i * 100, 35, 18, c));
}

/** A scoreboard half filled, drawn as at the table (its catalogue's spiral and side). */
async function scoreboard() {
  const cat = await api.getCatalogue(GAME);
  const side = Object.keys(cat.sides || {})[0];
  const board = scoreboardSvg({
    catalogue: cat,
    side,
    winks: ["red", "red", "purple", "yellow", "red", "green", "purple", "yellow", "red", "green", "green", "purple"],
  });
  board.classList.add("rules-scoreboard");
  return board;
}

/** Babylon Gardens' sections, in reading order. */
export const SECTIONS = [
  { id: "goal", picture: (c) => drawVignette(c) },
  { id: "tiles", picture: tiles },
  { id: "irrigate", picture: path },
  { id: "harvest", picture: winks },
  { id: "scoreboard", picture: scoreboard },
  { id: "end" },
  { id: "teams" },
  { id: "here" },
];
