/**
 * What Ishtar's game screen (game.js) lays over the board: the tile in hand as a ghost where
 * the pointer is (green with the gems it collects, red with the engine's reason), the spots
 * a token or a tree may go, the keyboard cursor, and the tooltip beside them.
 */

import { esc } from "../../js/dom.js";
import * as art from "./art.js";
import * as hex from "./hex.js";
import * as shapes from "./shapes.js";
import { HEX } from "./render.js";
import { bloomCells, placeKey } from "./turn.js";
import { tm } from "../../js/i18n.js";
import { sentence } from "../../js/why.js";
import { t, tHtml } from "./words.js";

const $ = (id) => document.getElementById(id);

/** Methods of GameScreen (game.js), mixed into its prototype. */
export const overlay = {
  // ---- board overlay ---------------------------------------------------------------------

  renderOverlay() {
    const o = { ghost: null, marks: [], hints: [], selected: [], cursor: null };
    const v = this.view;
    if (this.placing()) {
      const shape = v.hand.shape;
      const grip = shapes.grip(shape);
      for (const e of this.ix.placeList) {
        if (e.action.rotation !== this.ui.rotation) continue;
        o.hints.push(shapes.tileCells(shape, e.action.at, e.action.rotation)[grip]);
      }
      const cell = this.ui.hover || this.ui.cursor;
      if (cell) o.ghost = this.ghostAt(cell);
      o.cursor = this.ui.cursor;
    } else if (this.mine() && v.phase === "bloom" && this.ui.token) {
      const entries = this.ix.bloom.get(this.ui.token);
      o.marks = bloomCells(entries, this.ui.bloomPicked);
      o.selected = this.ui.pending ? [...this.ui.bloomPicked, this.ui.pending] : this.ui.bloomPicked;
      o.cursor = this.ui.cursor;
    } else if (this.mine() && v.phase === "special" && this.ix.assistant) {
      // where the assistant the server offers would stand: its preview says
      const at = this.ix.assistant.preview?.at;
      if (at) o.marks = [at];
    } else if (this.mine() && v.phase === "plant" && this.ui.card !== null) {
      o.marks = (this.ix.plant.get(this.ui.card) || []).map((e) => e.action.at);
      o.selected = this.ui.pending ? [this.ui.pending] : [];
      o.cursor = this.ui.cursor;
    }
    this.renderer.setOverlay(o);
    this.updateTooltip(o.ghost);
  },

  /** The hand tile with its grip cell on `cell` in the current rotation. */
  ghostAt(cell) {
    const hand = this.view.hand;
    const at = shapes.anchorFor(hand.shape, cell, this.ui.rotation);
    const entry = this.ix.place.get(placeKey(at, this.ui.rotation));
    const cells = shapes.tileCells(hand.shape, at, this.ui.rotation);
    const gems = entry
      ? cells.filter((c) => {
          const cellAt = this.renderer.cells.get(hex.keyOf(c));
          return cellAt && cellAt.terrain === "rock" && cellAt.gem;
        })
      : [];
    const noAssistant = !!entry?.preview?.no_assistant;
    return { at, rotation: this.ui.rotation, cells, spaces: hand.spaces, legal: !!entry, entry, gems, anchorCell: cell, noAssistant };
  },

  updateTooltip(ghost) {
    if (!ghost) return this.tooltip(null);
    const cell = ghost.anchorCell;
    const [x, y] = this.renderer.hexToCanvas(cell);
    if (ghost.legal) {
      const preview = ghost.entry.preview || {};
      const gems = preview.gems || {};
      const total = Object.values(gems).reduce((a, b) => a + b, 0);
      let html = total ? tHtml("ishtar.ui.tip.collects", {}, { gems: art.gemsHtml(gems) }) : esc(t("ishtar.ui.tip.fits"));
      // the engine says when the tile's assistant icon would give nothing here: its message
      // in the page's language when it sends one, else its English words
      if (preview.no_assistant) {
        const why = tm(preview.no_assistant_message, preview.no_assistant);
        html += `<span class="tip-warn" data-warn="no-assistant">${esc(t("ishtar.ui.tip.noassistant", { why }))}</span>`;
      }
      if (this.touchPreview && this.chosenPlacement()) html += `<span class="tip-hint">${esc(t("ishtar.ui.tip.again"))}</span>`;
      return this.tooltip(html, x, y, preview.no_assistant ? "ok warn" : "ok", ghost.cells);
    }
    const reason = this.reasonFor(ghost.at, ghost.rotation);
    const text = reason ? sentence(reason) : t("ishtar.ui.tip.checking");
    return this.tooltip(esc(text), x, y, "bad", ghost.cells);
  },

  tooltip(html, x, y, kind = "", cells = null) {
    const tip = $("tooltip");
    if (!html) {
      tip.hidden = true;
      return;
    }
    tip.innerHTML = html;
    tip.className = `tooltip ${kind}`;
    tip.hidden = false;
    const wrap = this.stage.getBoundingClientRect();
    let left = Math.min(Math.max(8, x + 24), wrap.width - tip.offsetWidth - 8);
    let top = Math.min(Math.max(8, y + 22), wrap.height - tip.offsetHeight - 8);
    if (this.touchPreview) {
      // Under a finger nothing can be read, and a tip left there covers the board's tools
      // (rotate). On touch it sits right above the tile's spot (below it when the bar is in
      // the way), never over the finger nor the tools.
      const tools = this.stage.querySelector(".board-tools")?.getBoundingClientRect();
      const clearRight = tools ? wrap.right - tools.left + 8 : 60;
      tip.style.maxWidth = `${Math.max(160, Math.min(300, wrap.width - clearRight - 16))}px`;
      const w = tip.offsetWidth;
      const h = tip.offsetHeight;
      const barBottom = this.bar.element.getBoundingClientRect().bottom - wrap.top;
      const r = HEX * this.renderer.cam.k;
      const ys = (cells || [[0, 0]]).map((c) => (cells ? this.renderer.hexToCanvas(c)[1] : y));
      const above = Math.min(...ys) - r - h - 6;
      const below = Math.max(...ys) + r + 6;
      if (above >= Math.max(8, barBottom + 4)) top = above;
      else if (below + h <= wrap.height - 8) top = below;
      else top = y > wrap.height / 2 ? Math.max(8, barBottom + 8) : wrap.height - h - 8;
      left = Math.min(Math.max(8, x - w / 2), wrap.width - w - 8);
      if (tools) {
        const t0 = tools.top - wrap.top;
        const l0 = tools.left - wrap.left;
        const overTools = left + w > l0 - 4 && top + h > t0 - 4 && top < tools.bottom - wrap.top + 4;
        if (overTools) left = Math.max(8, l0 - w - 8);
      }
    } else {
      tip.style.maxWidth = "";
    }
    tip.style.left = `${left}px`;
    tip.style.top = `${top}px`;
  },

  /** The engine's reason a placement is illegal, asked of the server (cached, debounced). */
  reasonFor(at, rotation) {
    return this.why.reason(this.version, placeKey(at, rotation), { type: "place", at, rotation }, {
      answered: () => this.renderOverlay(),
    });
  },
};
