/**
 * Ishtar's rules page (static/js/rules.js draws it): the sections in reading order and their
 * pictures, each painted with the board's own primitives (paint.js, hex.js), never copied
 * from the rulebook. The words are the catalogue's `ishtar.ui.rules.<section>.*`.
 */

import { figureContext } from "../../js/canvas.js";
import { toPixel } from "./hex.js";
import * as paint from "./paint.js";
import { drawVignette } from "./vignette.js";

/** A canvas of w×h CSS pixels, scaled for the screen; its 2D context, origin at the centre. */
function stage(canvas, w, h) {
  const ctx = figureContext(canvas, w, h);
  ctx.translate(w / 2, h / 2);
  return ctx;
}

/** Hexes painted as on the board: [[q, r], kind, arg]; kinds as in the vignette. */
function hexes(ctx, cells, s, dx = 0) {
  for (const [[q, r], kind, arg] of cells) {
    const [x0, y] = toPixel([q, r], s);
    const x = x0 + dx;
    if (kind === "fountain") paint.fountain(ctx, x, y, s, arg, q, r);
    else if (kind === "rock") paint.rock(ctx, x, y, s, arg, true, q, r);
    else if (kind === "tablet") paint.tablet(ctx, x, y, s, q, r);
    else if (kind === "sand") paint.sand(ctx, x, y, s, q, r);
    else paint.vegetation(ctx, x, y, s, arg, q, r);
    paint.hexPath(ctx, x, y, s);
    ctx.lineWidth = kind === "veg" ? 1.4 : 1;
    ctx.strokeStyle = kind === "veg" ? paint.PALETTE.tileEdge : "rgba(140,100,50,0.4)";
    ctx.stroke();
  }
}

const flower = (n, icon = null) => ({ kind: "flower", flowers: n, icon });
const GRASS = { kind: "grass" };

/** The three shapes of tile, side by side. */
function tiles(canvas) {
  const ctx = stage(canvas, 480, 150);
  const s = 26;
  hexes(ctx, [[[0, 0], "veg", flower(2, "a")], [[1, 0], "veg", GRASS], [[2, 0], "veg", flower(1)]], s, -230);
  hexes(ctx, [[[0, 0], "veg", flower(3)], [[1, 0], "veg", flower(1, "s")], [[1, -1], "veg", GRASS]], s, -40);
  hexes(ctx, [[[0, 0], "veg", GRASS], [[1, 0], "veg", flower(4)], [[0, 1], "veg", flower(2, "w")]], s, 110);
}

/** A tile laid beside a fountain over two rocks: the gems it covers are collected. */
function placing(canvas) {
  const ctx = stage(canvas, 480, 190);
  const s = 28;
  hexes(ctx, [
    [[-3, 0], "fountain", "purple"], [[-2, 0], "veg", flower(2)], [[-2, 1], "veg", GRASS],
    [[-3, 1], "sand"], [[-1, -1], "sand"], [[-1, 0], "sand"], [[-2, -1], "tablet"],
    [[-4, 1], "rock", "red"], [[-3, -1], "sand"], [[-4, 0], "sand"],
    [[1, 0], "veg", flower(3, "a")], [[2, 0], "veg", flower(1)], [[1, 1], "veg", GRASS],
    [[0, 0], "fountain", "red"], [[2, -1], "sand"], [[0, 1], "sand"], [[3, -1], "tablet"],
  ], s, -20);
  const [gx, gy] = toPixel([3, 0], s);
  paint.gem(ctx, gx + 10, gy, 9, "white");
  paint.gem(ctx, gx + 34, gy, 9, "purple");
  ctx.strokeStyle = "rgba(40,30,10,0.7)";
  ctx.lineWidth = 2;
  ctx.beginPath();
  ctx.moveTo(gx - 14, gy);
  ctx.lineTo(gx - 2, gy);
  ctx.stroke();
}

/** The three special-action icons and an assistant on its flowerbed. */
function specials(canvas) {
  const ctx = stage(canvas, 480, 130);
  paint.icon(ctx, -190, 0, 22, "a");
  paint.icon(ctx, -120, 0, 22, "s");
  paint.icon(ctx, -50, 0, 22, "w");
  const s = 30;
  hexes(ctx, [[[0, 0], "veg", flower(3, "a")], [[1, 0], "veg", flower(2)], [[1, -1], "veg", flower(1)]], s, 60);
  const [x, y] = toPixel([0, 0], s);
  paint.assistantCounter(ctx, x + 60, y, s, paint.playerColour("blue"));
}

/** A tree on a grass space, and the three colours of gem from common to rare. */
function trees(canvas) {
  const ctx = stage(canvas, 480, 130);
  const s = 30;
  hexes(ctx, [[[0, 0], "veg", GRASS], [[1, 0], "veg", flower(2)], [[0, 1], "veg", flower(1)]], s, -150);
  const [x, y] = toPixel([0, 0], s);
  paint.tree(ctx, x - 150, y, s);
  ["purple", "red", "white"].forEach((c, i) => paint.gem(ctx, 40 + i * 60, 0, 16, c));
}

/** Two gardens on one fountain: the seat with more flower spaces holds it. */
function fountains(canvas) {
  const ctx = stage(canvas, 480, 200);
  const s = 28;
  hexes(ctx, [
    [[0, 0], "fountain", "white"],
    [[1, 0], "veg", flower(3, "a")], [[2, 0], "veg", flower(2)], [[1, 1], "veg", flower(1)],
    [[-1, 0], "veg", flower(2, "a")], [[-2, 1], "veg", GRASS], [[-1, 1], "veg", GRASS],
    [[0, -1], "sand"], [[1, -1], "sand"], [[-1, -1], "sand"], [[0, 1], "sand"], [[2, -1], "rock", "purple"],
  ], s);
  const [ax, ay] = toPixel([1, 0], s);
  paint.assistantCounter(ctx, ax, ay, s, paint.playerColour("yellow"));
  const [bx, by] = toPixel([-1, 0], s);
  paint.assistantCounter(ctx, bx, by, s, paint.playerColour("blue"));
}

/** Ishtar's sections, in reading order. */
export const SECTIONS = [
  { id: "goal", picture: (c) => drawVignette(c) },
  { id: "turn" },
  { id: "choose", picture: tiles },
  { id: "place", picture: placing },
  { id: "special", picture: specials },
  { id: "trees", picture: trees },
  { id: "gardens", picture: fountains },
  { id: "end" },
  { id: "scoring" },
  { id: "option-edition" },
  { id: "here" },
];
