/**
 * The board canvas: draws a view (terrain boards, vegetation tiles, tokens, trees, assistants)
 * plus the interaction overlay the controller asks for (hovered tile, candidate cells, recent
 * move highlights, keyboard cursor). Owns the camera (pan/zoom/fit). Redraws are batched
 * with requestAnimationFrame: callers say `invalidate()`, never draw directly. No rules here.
 */

import { BoardCanvas, reducedMotion } from "../../js/canvas.js";
import * as hex from "./hex.js";
import * as paint from "./paint.js";

export const HEX = 32; // world units per hex size

const HIGHLIGHT_MS = 2200;

/** How long a new tile, tree, assistant or blooming token takes to settle on the board. */
const APPEAR_MS = 420;

/** 0 → 1 with a little overshoot ("ease out back"), for pieces popping onto the board. */
function settle(t) {
  const u = Math.min(1, Math.max(0, t)) - 1;
  return 1 + 2.2 * u ** 3 + 1.2 * u ** 2;
}

export class BoardRenderer extends BoardCanvas {
  constructor(canvas) {
    super(canvas);
    this.view = null;
    this.cells = new Map(); // key -> terrain cell
    this.spaces = new Map(); // key -> vegetation space
    this.tileOf = new Map(); // key -> tile id
    this.userMoved = false;
    this.overlay = {
      ghost: null, // {shape, cells:[[q,r]x3], spaces, legal, gems:[[q,r]...]}
      marks: [], // [[q,r]] candidate cells
      hints: [], // [[q,r]] faint dots
      cursor: null, // [q,r]
      selected: [], // [[q,r]] chosen cells (e.g. first cell of a double token)
    };
    this.highlights = []; // {cells, t0}
    this.appearing = new Map(); // "q,r" -> {t0, tile, tree, assistant, token}: pieces just laid
    this.colours = [];
    // What changes only with the view, the camera or the size (the terrain, the tiles, the
    // pieces) is painted once into this layer (`drawBase`); each frame copies it.
    this.base = document.createElement("canvas");
    this.baseView = null;
    this.baseKey = "";
    this.resize();
  }

  setView(view) {
    const first = !this.view;
    if (!first) this.noteArrivals(this.view, view);
    this.view = view;
    this.colours = (view.players || []).map((p) => paint.playerColour(p.colour));
    this.cells = new Map(view.cells.map((c) => [hex.key(c.q, c.r), c]));
    this.spaces = new Map((view.spaces || []).map((s) => [hex.key(s.q, s.r), s]));
    this.tileOf = new Map();
    for (const t of view.tiles || []) for (const c of t.cells) this.tileOf.set(hex.keyOf(c), t.tile);
    // who holds each fountain now (the engine's projection, or the final scores)
    this.holders = new Map();
    for (const p of (view.scores || view.standing)?.players || []) {
      for (const f of p.fountains || []) {
        const k = hex.keyOf(f.at);
        this.holders.set(k, [...(this.holders.get(k) || []), p.seat]);
      }
    }
    if (first || !this.userMoved) this.fit();
    this.invalidate();
  }

  /**
   * Pieces that are in `view` and were not in `old` pop onto the board (APPEAR_MS), unless
   * the player asked for less motion (prefers-reduced-motion): then they are simply there.
   */
  noteArrivals(old, view) {
    if (reducedMotion()) return;
    const before = new Map((old.spaces || []).map((s) => [hex.key(s.q, s.r), s]));
    const t0 = performance.now();
    for (const s of view.spaces || []) {
      const k = hex.key(s.q, s.r);
      const o = before.get(k);
      const mark = {
        t0,
        tile: !o,
        tree: s.tree != null && (!o || o.tree == null),
        assistant: s.assistant != null && (!o || o.assistant == null),
        token: !!s.token && (!o || !o.token),
      };
      if (mark.tile || mark.tree || mark.assistant || mark.token) this.appearing.set(k, mark);
    }
  }

  /** How far the piece of kind `what` at key `k` has settled (0 → 1), or null if not new. */
  arrival(k, what) {
    const a = this.appearing.get(k);
    if (!a || !a[what]) return null;
    const t = (performance.now() - a.t0) / APPEAR_MS;
    return t >= 1 ? null : settle(t);
  }

  /** Scale the drawing about (px, py) by how far the piece has settled; true if it did. */
  popIn(k, what, px, py) {
    const f = this.arrival(k, what);
    if (f === null) return false;
    const { ctx } = this;
    ctx.save();
    ctx.globalAlpha *= Math.min(1, 0.25 + f);
    const g = 0.45 + 0.55 * f;
    ctx.translate(px, py);
    ctx.scale(g, g);
    ctx.translate(-px, -py);
    return true;
  }

  /** Pan (at this zoom) so that `cells` are in sight below the bar, when they are not. */
  reveal(cells) {
    if (!cells.length) return;
    const { w, h } = this.size;
    const top = Math.min(this.insetTop, h * 0.4);
    const margin = HEX * this.cam.k * 1.2;
    const pts = cells.map((c) => this.hexToCanvas(c));
    const inside = pts.every(([x, y]) => x >= margin && x <= w - margin && y >= top + margin && y <= h - margin);
    if (inside) return;
    const cx = pts.reduce((a, p) => a + p[0], 0) / pts.length;
    const cy = pts.reduce((a, p) => a + p[1], 0) / pts.length;
    this.cam.x += w / 2 - cx;
    this.cam.y += top + (h - top) / 2 - cy;
    this.userMoved = true;
    this.invalidate();
  }

  setOverlay(patch) {
    Object.assign(this.overlay, patch);
    this.invalidate();
  }

  /** Flash cells that just changed (another player's move). */
  highlight(cells) {
    if (!cells.length) return;
    this.highlights.push({ cells, t0: performance.now() });
    this.invalidate();
  }

  /** A new size or room above the board: fitted again, unless the player moved it. */
  refit() {
    if (!this.userMoved) this.fit();
    this.invalidate();
  }

  // ---- camera ---------------------------------------------------------------------------

  worldBounds() {
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    for (const c of this.cells.values()) {
      const [x, y] = hex.toPixel([c.q, c.r], HEX);
      minX = Math.min(minX, x - HEX);
      maxX = Math.max(maxX, x + HEX);
      minY = Math.min(minY, y - HEX);
      maxY = Math.max(maxY, y + HEX);
    }
    if (minX === Infinity) return { minX: -100, minY: -100, maxX: 100, maxY: 100 };
    return { minX, minY, maxX, maxY };
  }

  fit() {
    const b = this.worldBounds();
    const { w } = this.size;
    const top = Math.min(this.insetTop, this.size.h * 0.4);
    const h = this.size.h - top;
    const pad = Math.min(20, Math.min(w, h) * 0.03);
    const k = Math.min((w - 2 * pad) / (b.maxX - b.minX), (h - 2 * pad) / (b.maxY - b.minY));
    this.cam.k = Math.max(0.05, k);
    this.cam.x = w / 2 - ((b.minX + b.maxX) / 2) * this.cam.k;
    this.cam.y = top + h / 2 - ((b.minY + b.maxY) / 2) * this.cam.k;
    this.userMoved = false;
    this.invalidate();
  }

  panBy(dx, dy) {
    this.cam.x += dx;
    this.cam.y += dy;
    this.userMoved = true;
    this.invalidate();
  }

  /** Zoom by `factor` keeping canvas point (cx, cy) fixed. */
  zoomAt(cx, cy, factor) {
    const base = this.fitScale();
    const k = Math.min(base * 6, Math.max(base * 0.5, this.cam.k * factor));
    const f = k / this.cam.k;
    this.cam.x = cx - (cx - this.cam.x) * f;
    this.cam.y = cy - (cy - this.cam.y) * f;
    this.cam.k = k;
    this.userMoved = true;
    this.invalidate();
  }

  fitScale() {
    const b = this.worldBounds();
    return Math.min(this.size.w / (b.maxX - b.minX), this.size.h / (b.maxY - b.minY));
  }

  /** Canvas-local pixel of a hex centre. */
  hexToCanvas(cell) {
    const [x, y] = hex.toPixel(cell, HEX);
    return [x * this.cam.k + this.cam.x, y * this.cam.k + this.cam.y];
  }

  /** Client (page viewport) pixel of a hex centre, for tests and tooltips. */
  hexToClient(cell) {
    return this.toClient(this.hexToCanvas(cell));
  }

  canvasToHex(cx, cy) {
    return hex.fromPixel((cx - this.cam.x) / this.cam.k, (cy - this.cam.y) / this.cam.k, HEX);
  }

  isOnBoard(cell) {
    return this.cells.has(hex.keyOf(cell));
  }

  // ---- drawing --------------------------------------------------------------------------

  draw() {
    const { ctx } = this;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, this.canvas.width, this.canvas.height);
    if (!this.view) return;
    const now = performance.now();
    for (const [k, a] of this.appearing) if (now - a.t0 >= APPEAR_MS) this.appearing.delete(k);
    this.drawBase();
    ctx.drawImage(this.base, 0, 0);
    this.toWorld();
    if (this.appearing.size) {
      // the pieces still settling, over the layer painted without them
      const arriving = (k) => this.appearing.has(k);
      this.drawSpaces(arriving);
      this.drawPieces(arriving);
    }
    this.drawOverlay();
    this.drawHighlights();
    if (this.appearing.size) this.invalidate();
  }

  /**
   * Paint the layer of the board that changes only with the view, the camera, the size and
   * the pieces settling (those are left out of it and drawn over it at each frame), when one
   * of them changed: a frame of a pulse, a fade or a piece popping in then costs a copy of
   * it, not the whole board again (shadows, gems and flowers, some 20 ms in software).
   */
  drawBase() {
    const { base, canvas, cam } = this;
    const settling = [...this.appearing.keys()].join(" ");
    const key = `${canvas.width}x${canvas.height}|${cam.k}|${cam.x}|${cam.y}|${settling}`;
    if (this.baseView === this.view && this.baseKey === key) return;
    this.baseView = this.view;
    this.baseKey = key;
    const ctx = this.layerContext(base);
    this.toWorld(ctx);
    const screen = this.ctx;
    this.ctx = ctx; // the drawing methods draw on `this.ctx`
    try {
      const settled = (k) => !this.appearing.has(k);
      this.drawBoardShadow();
      this.drawTerrain();
      this.drawBoardEdges();
      this.drawHolders();
      this.drawSpaces(settled);
      this.drawSeams();
      this.drawPieces(settled);
    } finally {
      this.ctx = screen;
    }
  }

  each(map, fn) {
    for (const c of map.values()) {
      const [px, py] = hex.toPixel([c.q, c.r], HEX);
      fn(c, px, py);
    }
  }

  drawBoardShadow() {
    const { ctx } = this;
    ctx.save();
    ctx.shadowColor = "rgba(10,20,40,0.55)";
    ctx.shadowBlur = 18 * this.cam.k;
    ctx.shadowOffsetY = 4 * this.cam.k;
    ctx.fillStyle = paint.PALETTE.sandDark;
    this.each(this.cells, (c, px, py) => {
      paint.hexPath(ctx, px, py, HEX + 0.5);
      ctx.fill();
    });
    ctx.restore();
  }

  drawTerrain() {
    const { ctx } = this;
    this.each(this.cells, (c, px, py) => {
      if (this.spaces.has(hex.key(c.q, c.r))) return; // covered by vegetation
      if (c.terrain === "rock") paint.rock(ctx, px, py, HEX, c.rock, c.gem, c.q, c.r);
      else if (c.terrain === "tablet") paint.tablet(ctx, px, py, HEX, c.q, c.r);
      else if (c.terrain === "fountain") paint.fountain(ctx, px, py, HEX, c.fountain, c.q, c.r);
      else paint.sand(ctx, px, py, HEX, c.q, c.r);
      paint.hexPath(ctx, px, py, HEX);
      ctx.lineWidth = 0.8;
      ctx.strokeStyle = "rgba(140,100,50,0.35)";
      ctx.stroke();
    });
  }

  /** Outline every terrain board where it meets another board or the outside. */
  drawBoardEdges() {
    const { ctx } = this;
    ctx.beginPath();
    this.each(this.cells, (c, px, py) => {
      const pts = hex.corners(px, py, HEX);
      hex.DIRECTIONS.forEach(([dq, dr], d) => {
        const n = this.cells.get(hex.key(c.q + dq, c.r + dr));
        if (n && n.board === c.board) return;
        const [a, b] = hex.edgeCorners(d);
        ctx.moveTo(pts[a][0], pts[a][1]);
        ctx.lineTo(pts[b][0], pts[b][1]);
      });
    });
    ctx.lineWidth = 2.4;
    ctx.lineCap = "round";
    ctx.strokeStyle = paint.PALETTE.sandEdge;
    ctx.stroke();
  }

  /** A pawn of each holder's colour on the rim of the fountains they hold. */
  drawHolders() {
    const { ctx } = this;
    for (const [k, seats] of this.holders || []) {
      const cell = this.cells.get(k);
      if (!cell) continue;
      const [px, py] = hex.toPixel([cell.q, cell.r], HEX);
      seats.forEach((seat, i) => {
        const a = -Math.PI / 2 + (i - (seats.length - 1) / 2) * 0.75;
        const [x, y] = [px + Math.cos(a) * HEX * 0.78, py + Math.sin(a) * HEX * 0.78];
        ctx.beginPath();
        ctx.arc(x, y, HEX * 0.26, 0, Math.PI * 2);
        ctx.fillStyle = "#fffaf0";
        ctx.fill();
        ctx.lineWidth = 1.2;
        ctx.strokeStyle = "rgba(0,0,0,0.45)";
        ctx.stroke();
        paint.meeple(ctx, x, y + HEX * 0.02, HEX * 0.19, this.colours[seat] || "#888", false);
      });
    }
  }

  /** The vegetation tiles (and blooming tokens) of the spaces whose key `which` accepts. */
  drawSpaces(which) {
    const { ctx } = this;
    this.each(this.spaces, (s, px, py) => {
      const k = hex.key(s.q, s.r);
      if (!which(k)) return;
      const popped = this.popIn(k, "tile", px, py);
      paint.vegetation(ctx, px, py, HEX, s, s.q, s.r);
      if (s.token) {
        const ring = !popped && this.popIn(k, "token", px, py);
        paint.tokenRing(ctx, px, py, HEX);
        if (ring) ctx.restore();
      }
      if (popped) ctx.restore();
    });
  }

  /** Thin seams inside a tile, strong edges around it. */
  drawSeams() {
    const { ctx } = this;
    ctx.beginPath();
    const strong = new Path2D();
    this.each(this.spaces, (s, px, py) => {
      const pts = hex.corners(px, py, HEX);
      const mine = this.tileOf.get(hex.key(s.q, s.r));
      hex.DIRECTIONS.forEach(([dq, dr], d) => {
        const nk = hex.key(s.q + dq, s.r + dr);
        const [a, b] = hex.edgeCorners(d);
        if (this.spaces.has(nk) && this.tileOf.get(nk) === mine) {
          ctx.moveTo(pts[a][0], pts[a][1]);
          ctx.lineTo(pts[b][0], pts[b][1]);
        } else {
          strong.moveTo(pts[a][0], pts[a][1]);
          strong.lineTo(pts[b][0], pts[b][1]);
        }
      });
    });
    ctx.lineWidth = 0.8;
    ctx.strokeStyle = "rgba(20,45,15,0.35)";
    ctx.stroke();
    ctx.lineWidth = 2.2;
    ctx.lineJoin = "round";
    ctx.strokeStyle = paint.PALETTE.tileEdge;
    ctx.stroke(strong);
  }

  /** The trees and assistants on the spaces whose key `which` accepts. */
  drawPieces(which) {
    const { ctx } = this;
    this.each(this.spaces, (s, px, py) => {
      const k = hex.key(s.q, s.r);
      if (!which(k)) return;
      if (s.tree !== null && s.tree !== undefined) {
        const popped = this.popIn(k, "tree", px, py);
        paint.tree(ctx, px, py, HEX);
        if (popped) ctx.restore();
      }
      if (s.assistant !== null && s.assistant !== undefined) {
        // on the icon it was placed on, never over the flowers (docs/games/ishtar/rules.md)
        const [ix, iy] = paint.iconSpot(px, py, HEX);
        const popped = this.popIn(k, "assistant", ix, iy);
        paint.assistantCounter(ctx, px, py, HEX, this.colours[s.assistant] || "#888");
        if (popped) ctx.restore();
      }
    });
  }

  drawOverlay() {
    const { ctx } = this;
    const o = this.overlay;
    for (const c of o.hints) {
      const [px, py] = hex.toPixel(c, HEX);
      ctx.beginPath();
      ctx.arc(px, py, HEX * 0.13, 0, Math.PI * 2);
      ctx.fillStyle = "rgba(255,255,255,0.55)";
      ctx.fill();
      ctx.lineWidth = 1;
      ctx.strokeStyle = "rgba(30,90,40,0.7)";
      ctx.stroke();
    }
    if (o.marks.length) {
      const pulse = this.pulse(240);
      for (const c of o.marks) {
        const [px, py] = hex.toPixel(c, HEX);
        paint.hexPath(ctx, px, py, HEX * 0.8);
        ctx.fillStyle = `rgba(255,255,255,${0.25 + 0.3 * pulse})`;
        ctx.fill();
        ctx.lineWidth = 4;
        ctx.strokeStyle = "#fff4b8";
        ctx.stroke();
        ctx.lineWidth = 1.6;
        ctx.strokeStyle = "#9a6a12";
        ctx.stroke();
        ctx.beginPath();
        ctx.arc(px, py, HEX * (0.14 + 0.05 * pulse), 0, Math.PI * 2);
        ctx.fillStyle = "#d8a62b";
        ctx.fill();
      }
    }
    for (const c of o.selected) {
      const [px, py] = hex.toPixel(c, HEX);
      paint.hexPath(ctx, px, py, HEX * 0.86);
      ctx.lineWidth = 4;
      ctx.strokeStyle = "#fff3b0";
      ctx.stroke();
    }
    if (o.ghost) this.drawGhost(o.ghost);
    if (o.cursor) {
      const [px, py] = hex.toPixel(o.cursor, HEX);
      paint.hexPath(ctx, px, py, HEX * 0.95);
      ctx.setLineDash([5, 4]);
      ctx.lineWidth = 2.5;
      ctx.strokeStyle = "#1b2a4a";
      ctx.stroke();
      ctx.setLineDash([]);
    }
  }

  drawGhost(g) {
    const { ctx } = this;
    const ok = g.legal;
    ctx.save();
    ctx.globalAlpha = 0.92;
    g.cells.forEach((c, i) => {
      const [px, py] = hex.toPixel(c, HEX);
      if (g.spaces && g.spaces[i]) paint.vegetation(ctx, px, py, HEX, g.spaces[i], c[0], c[1]);
      else {
        paint.hexPath(ctx, px, py, HEX);
        ctx.fillStyle = paint.PALETTE.grass;
        ctx.fill();
      }
      paint.hexPath(ctx, px, py, HEX);
      ctx.fillStyle = ok ? "rgba(60,200,90,0.22)" : "rgba(220,40,40,0.42)";
      ctx.fill();
    });
    ctx.restore();
    // outline around the whole tile
    const inTile = new Set(g.cells.map((c) => hex.keyOf(c)));
    ctx.beginPath();
    for (const c of g.cells) {
      const [px, py] = hex.toPixel(c, HEX);
      const pts = hex.corners(px, py, HEX);
      hex.DIRECTIONS.forEach(([dq, dr], d) => {
        if (inTile.has(hex.key(c[0] + dq, c[1] + dr))) return;
        const [a, b] = hex.edgeCorners(d);
        ctx.moveTo(pts[a][0], pts[a][1]);
        ctx.lineTo(pts[b][0], pts[b][1]);
      });
    }
    ctx.lineWidth = 4;
    ctx.lineCap = "round";
    ctx.strokeStyle = ok ? "#1f9d4a" : "#d62828";
    ctx.stroke();
    // the engine says this spot gives no assistant: the icon is struck out on the ghost
    if (g.noAssistant) {
      g.cells.forEach((c, i) => {
        const sp = g.spaces?.[i];
        if (!sp || (sp.icon !== "a" && sp.icon !== "w")) return;
        const [px, py] = hex.toPixel(c, HEX);
        const [ix, iy] = paint.iconSpot(px, py, HEX);
        const r = HEX * (paint.ICON_SPOT.r + 0.06);
        ctx.beginPath();
        ctx.arc(ix, iy, r, 0, Math.PI * 2);
        ctx.moveTo(ix - r * 0.7, iy + r * 0.7);
        ctx.lineTo(ix + r * 0.7, iy - r * 0.7);
        ctx.lineWidth = HEX * 0.08;
        ctx.strokeStyle = "#d62828";
        ctx.stroke();
      });
    }
    // gems the placement collects, lifted above the tile
    for (const c of g.gems || []) {
      const cell = this.cells.get(hex.keyOf(c));
      if (!cell) continue;
      const [px, py] = hex.toPixel(c, HEX);
      ctx.beginPath();
      ctx.arc(px, py, HEX * 0.42, 0, Math.PI * 2);
      ctx.fillStyle = "rgba(255,250,225,0.9)";
      ctx.fill();
      paint.gem(ctx, px, py - HEX * 0.02, HEX * 0.3, cell.rock);
    }
  }

  /** The cells of another player's move, lit and fading out in steps (`fade`). */
  drawHighlights() {
    const { ctx } = this;
    const lit = [];
    for (const hl of this.highlights) {
      const a = this.fade(hl.t0, HIGHLIGHT_MS);
      if (a === null) continue;
      lit.push(hl);
      for (const c of hl.cells) {
        const [px, py] = hex.toPixel(c, HEX);
        paint.hexPath(ctx, px, py, HEX * 0.92);
        ctx.lineWidth = 5;
        ctx.strokeStyle = `rgba(255,214,64,${a})`;
        ctx.stroke();
        ctx.fillStyle = `rgba(255,240,160,${a * 0.35})`;
        ctx.fill();
      }
    }
    this.highlights = lit;
  }
}
