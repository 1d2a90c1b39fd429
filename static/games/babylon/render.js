/**
 * Babylon Gardens' board canvas: the floor's square grid on its terrace, each tile (colour,
 * flowers, water gems), the well, the path being built, and the overlay the screen asks for
 * (the tiles one may step onto with their key and "fills" mark, the hovered tile, the tiles
 * the last harvest took, which glow for a moment). The board always fits its canvas below the
 * action bar. Redraws are batched with requestAnimationFrame (`invalidate()`). No rules here.
 */

import { BoardCanvas } from "../../js/canvas.js";
import { t } from "../../js/i18n.js";
import * as paint from "./paint.js";
import { SpriteCache } from "./sprites.js";

const TILE = 100; // world units per grid square
const HARVEST_MS = 2600;

const key = (at) => `${at[0]},${at[1]}`;

export class BoardRenderer extends BoardCanvas {
  constructor(canvas) {
    super(canvas);
    this.view = null;
    this.fillsLabel = t("babylon.ui.fills"); // the badge on a step that fills its tile
    this.tiles = new Map(); // "r,c" -> tile of the view
    this.overlay = {
      marks: [], // [{at, label, fills}] tiles one may step onto
      hover: null, // {at, legal}
    };
    this.glows = []; // {cells: [{at, colour}], t0}
    // The floor, its tiles and the path change only with a new view or size: they are
    // painted once into this layer, and each frame (the pulsing marks, the glows) copies it.
    this.base = document.createElement("canvas");
    this.baseDirty = true;
    this.terrace = document.createElement("canvas"); // the terrace alone, per size
    this.terraceKey = "";
    this.sprites = new SpriteCache();
    this.resize();
  }

  setView(view) {
    this.view = view;
    this.tiles = new Map((view.tiles || []).map((t) => [key(t.at), t]));
    this.baseDirty = true;
    this.fit();
  }

  setOverlay(patch) {
    Object.assign(this.overlay, patch);
    this.invalidate();
  }

  /** Make tiles glow for a moment (the tiles a harvest took: `[{at, colour}]`). */
  glow(cells) {
    if (!cells.length) return;
    this.glows.push({ cells, t0: performance.now() });
    this.invalidate();
  }

  // ---- geometry ---------------------------------------------------------------------------

  grid() {
    const f = this.view?.floor;
    return { rows: f?.rows || 3, cols: f?.cols || 3 };
  }

  /** Scale and centre the whole floor (with its hedge) in the canvas below the inset. */
  fit() {
    const { rows, cols } = this.grid();
    const { w } = this.size;
    const top = Math.min(this.insetTop, this.size.h * 0.45);
    const h = this.size.h - top;
    const margin = TILE * 0.3;
    const bw = cols * TILE + 2 * margin;
    const bh = rows * TILE + 2 * margin;
    const k = Math.max(0.05, Math.min(w / bw, h / bh));
    this.cam = { k, x: (w - cols * TILE * k) / 2, y: top + (h - rows * TILE * k) / 2 };
    this.baseDirty = true;
    this.invalidate();
  }

  /** Canvas-local pixel of a tile's centre. */
  tileToCanvas(at) {
    const { k, x, y } = this.cam;
    return [x + (at[1] + 0.5) * TILE * k, y + (at[0] + 0.5) * TILE * k];
  }

  /** Page-viewport pixel of a tile's centre (tooltips, tests). */
  tileToClient(at) {
    return this.toClient(this.tileToCanvas(at));
  }

  /** The grid square under a canvas-local pixel, or null off the grid. */
  canvasToTile(cx, cy) {
    const { k, x, y } = this.cam;
    const c = Math.floor((cx - x) / (TILE * k));
    const r = Math.floor((cy - y) / (TILE * k));
    const { rows, cols } = this.grid();
    if (r < 0 || c < 0 || r >= rows || c >= cols) return null;
    return [r, c];
  }

  /** What stands on a square: "well", "tile" or null (no tile on the floor there). */
  kindAt(at) {
    const wellAt = this.view?.floor?.well;
    if (wellAt && wellAt[0] === at[0] && wellAt[1] === at[1]) return "well";
    return this.tiles.has(key(at)) ? "tile" : null;
  }

  tileAt(at) {
    return this.tiles.get(key(at)) || null;
  }

  // ---- drawing ----------------------------------------------------------------------------

  draw() {
    const { ctx } = this;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, this.canvas.width, this.canvas.height);
    if (!this.view) return;
    if (this.baseDirty) this.drawBase();
    ctx.drawImage(this.base, 0, 0);
    this.toWorld();
    this.drawGlows();
    this.drawMarks();
    this.drawHover();
  }

  /** The layer that changes only with the view or the size: terrace, tiles, well, path. */
  drawBase() {
    const base = this.base;
    const ctx = this.layerContext(base);
    const { dpr } = this.size;
    const { k, x, y } = this.cam;
    const { rows, cols } = this.grid();
    const tkey = `${base.width}x${base.height}|${rows}x${cols}|${k}|${x}|${y}`;
    if (tkey !== this.terraceKey) {
      const t = this.terrace;
      t.width = base.width;
      t.height = base.height;
      const tc = t.getContext("2d");
      this.toWorld(tc);
      paint.terrace(tc, 0, 0, cols * TILE, rows * TILE, TILE);
      this.terraceKey = tkey;
    }
    ctx.drawImage(this.terrace, 0, 0);
    // each square from its sprite, at whole device pixels
    const px = Math.max(1, Math.round(TILE * k * dpr));
    const unit = px / TILE;
    for (let r = 0; r < rows; r += 1) {
      for (let c = 0; c < cols; c += 1) {
        const at = [r, c];
        const kind = this.kindAt(at);
        const t = kind === "tile" ? this.tileAt(at) : null;
        const skey = t ? `${t.kind}|${t.colour}|${t.flowers}|${t.gems}` : kind || "hole";
        const sprite = this.sprites.get(skey, px, (sc) => {
          sc.setTransform(unit, 0, 0, unit, 0, 0);
          if (kind === "well") paint.well(sc, 0, 0, TILE);
          else if (t) paint.tile(sc, 0, 0, TILE, t);
          else paint.hole(sc, 0, 0, TILE);
        });
        ctx.drawImage(sprite, Math.round(dpr * (x + c * TILE * k)), Math.round(dpr * (y + r * TILE * k)));
      }
    }
    this.toWorld(ctx);
    const path = this.view.path || [];
    if (path.length && this.view.floor?.well) {
      paint.path(ctx, [this.view.floor.well, ...path].map((at) => this.centre(at)), TILE);
    }
    this.baseDirty = false;
  }

  centre(at) {
    return [(at[1] + 0.5) * TILE, (at[0] + 0.5) * TILE];
  }

  /** The tiles one may step onto: a pulsing golden frame, the key, and "fills" when it does. */
  drawMarks() {
    const { ctx } = this;
    if (!this.overlay.marks.length) return;
    const pulse = this.pulse(260);
    for (const m of this.overlay.marks) {
      const x = m.at[1] * TILE;
      const y = m.at[0] * TILE;
      paint.roundRect(ctx, x + TILE * 0.03, y + TILE * 0.03, TILE * 0.94, TILE * 0.94, TILE * 0.1);
      ctx.fillStyle = `rgba(255,244,184,${0.12 + 0.16 * pulse})`;
      ctx.fill();
      ctx.lineWidth = TILE * 0.05;
      ctx.strokeStyle = "#fff4b8";
      ctx.stroke();
      ctx.lineWidth = TILE * 0.022;
      ctx.strokeStyle = "#b07a12";
      ctx.stroke();
      // the gem this step would add, faint in its socket
      const t = this.tileAt(m.at);
      const spot = t && paint.socketSpots(t.flowers)[t.gems];
      if (spot) {
        ctx.save();
        ctx.globalAlpha = 0.35 + 0.45 * pulse;
        paint.waterGem(ctx, x + spot[0] * TILE, y + spot[1] * TILE, spot[2] * TILE);
        ctx.restore();
      }
      if (m.label) {
        // the number key that takes this step, as a key cap
        const kx = x + TILE * 0.77;
        const ky = y + TILE * 0.06;
        paint.roundRect(ctx, kx, ky + TILE * 0.015, TILE * 0.17, TILE * 0.16, TILE * 0.035);
        ctx.fillStyle = "#8a7a5c";
        ctx.fill();
        paint.roundRect(ctx, kx, ky, TILE * 0.17, TILE * 0.15, TILE * 0.035);
        ctx.fillStyle = "#fffdf6";
        ctx.fill();
        ctx.lineWidth = TILE * 0.01;
        ctx.strokeStyle = "#6a5a48";
        ctx.stroke();
        ctx.fillStyle = "#2b2118";
        ctx.font = `700 ${TILE * 0.1}px system-ui, sans-serif`;
        ctx.textAlign = "center";
        ctx.textBaseline = "middle";
        ctx.fillText(m.label, kx + TILE * 0.085, ky + TILE * 0.08);
      }
      if (m.fills) {
        // the badge grows with its word ("fills", "remplit", "vult"), up to half the tile
        ctx.font = `700 ${TILE * 0.095}px system-ui, sans-serif`;
        const w = Math.min(TILE * 0.5, Math.max(TILE * 0.34, ctx.measureText(this.fillsLabel).width + TILE * 0.08));
        paint.roundRect(ctx, x + TILE * 0.08, y + TILE * 0.06, w, TILE * 0.14, TILE * 0.07);
        ctx.fillStyle = "#1f9d4a";
        ctx.fill();
        ctx.fillStyle = "#fff";
        ctx.textAlign = "center";
        ctx.textBaseline = "middle";
        ctx.fillText(this.fillsLabel, x + TILE * 0.08 + w / 2, y + TILE * 0.135, w - TILE * 0.04);
      }
    }
  }

  drawHover() {
    const hv = this.overlay.hover;
    if (!hv) return;
    const { ctx } = this;
    const x = hv.at[1] * TILE;
    const y = hv.at[0] * TILE;
    paint.roundRect(ctx, x + TILE * 0.02, y + TILE * 0.02, TILE * 0.96, TILE * 0.96, TILE * 0.1);
    ctx.lineWidth = TILE * 0.045;
    ctx.strokeStyle = hv.legal ? "#1f9d4a" : "#d62828";
    ctx.stroke();
    if (!hv.legal) {
      ctx.fillStyle = "rgba(214,40,40,0.16)";
      ctx.fill();
    }
  }

  /** The harvested tiles glow in their nectar's colour, fading out in steps (`fade`). */
  drawGlows() {
    const { ctx } = this;
    const lit = [];
    for (const g of this.glows) {
      const a = this.fade(g.t0, HARVEST_MS);
      if (a === null) continue;
      lit.push(g);
      for (const cell of g.cells) {
        const x = cell.at[1] * TILE;
        const y = cell.at[0] * TILE;
        const fill = paint.NECTAR[cell.colour]?.fill || "#ffd640";
        ctx.save();
        ctx.globalAlpha = a;
        ctx.shadowColor = fill;
        ctx.shadowBlur = TILE * 0.25;
        paint.roundRect(ctx, x + TILE * 0.02, y + TILE * 0.02, TILE * 0.96, TILE * 0.96, TILE * 0.1);
        ctx.lineWidth = TILE * 0.06;
        ctx.strokeStyle = "#ffe27a";
        ctx.stroke();
        ctx.fillStyle = "rgba(255,240,170,0.3)";
        ctx.fill();
        ctx.restore();
      }
    }
    this.glows = lit;
  }
}
