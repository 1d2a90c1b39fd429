/**
 * The player's choices on Ishtar's game screen (game.js) by pointer: hovering and tapping the
 * board (a tile's spot, a blooming token's spaces, a tree's space; on touch two taps), the
 * rotation and "Next spot", a pile, a skill, a token, a tree card. Each leads to one of the
 * legal actions the server sent, or to the engine's reason it is not one.
 */

import { COARSE } from "../../js/canvas.js";
import * as shapes from "./shapes.js";
import { bloomCells, bloomEntry, placeKey } from "./turn.js";
import { t } from "./words.js";

/** Methods of GameScreen (game.js), mixed into its prototype. */
export const picks = {
  // ---- input -----------------------------------------------------------------------------

  onHover(cell, ev) {
    this.ui.pointer = ev ? [ev.clientX, ev.clientY] : null;
    if (ev && ev.pointerType === "mouse") this.touchPreview = false;
    const same = (a, b) => (a && b ? a[0] === b[0] && a[1] === b[1] : a === b);
    if (same(cell, this.ui.hover)) return;
    this.ui.hover = cell;
    if (this.placing()) this.renderOverlay();
  },

  /**
   * A click or tap on the board. With a mouse a click acts at once (the hover showed what it
   * would do). On touch every move on the board takes two taps, the same for a tile, a
   * blooming token or a tree: the first tap previews the spot (and "Place here" appears in
   * the bar), a second tap on it or that button makes the move.
   */
  onTap(cell, ev) {
    if (!this.mine()) return;
    const phase = this.view.phase;
    const touch = !!ev && ev.pointerType === "touch";
    this.touchPreview = touch;
    const same = (a, b) => !!a && !!b && a[0] === b[0] && a[1] === b[1];
    const prev = touch ? this.shownSpot() : this.ui.pending;
    // the finger chose: the keyboard cursor's dashed outline does not stay behind
    if (touch) this.ui.cursor = null;
    if (phase === "place" && this.placing()) {
      this.ui.hover = cell;
      const g = this.ghostAt(cell);
      if (touch && !same(prev, cell)) {
        this.ui.pending = cell;
        return this.renderAll();
      }
      if (g.legal) return this.send(g.entry);
      this.renderOverlay();
    } else if (phase === "bloom" && this.ui.token) {
      this.pickBloomCell(cell, !touch || same(this.ui.pending, cell));
    } else if (phase === "plant" && this.ui.card !== null) {
      if (!touch || same(this.ui.pending, cell)) return this.plantAt(cell);
      if (!(this.ix.plant.get(this.ui.card) || []).some((e) => same(e.action.at, cell))) return;
      this.ui.pending = cell;
      this.renderAll();
    }
  },

  /** The legal placement the player tapped once (touch) or put the keyboard cursor on. */
  chosenPlacement() {
    if (!this.placing()) return null;
    const cell = this.shownSpot();
    if (!cell) return null;
    const g = this.ghostAt(cell);
    return g.legal ? g.entry : null;
  },

  /**
   * The spot "Place here" would place on. On touch it is the preview the board shows,
   * however it got there (a tap, "Next spot", or kept over an Undo): green there means the
   * button is live. With a mouse, the spot tapped or the keyboard cursor.
   */
  shownSpot() {
    if (COARSE || this.touchPreview) return this.ui.pending || this.ui.hover || this.ui.cursor;
    return this.ui.pending || (this.keyboardUser ? this.ui.cursor : null);
  },

  /** "Place here": the spot tapped once in the bloom or plant step. */
  confirmPending() {
    const cell = this.ui.pending;
    if (!cell) return;
    if (this.view.phase === "bloom") return this.pickBloomCell(cell, true);
    if (this.view.phase === "plant") return this.plantAt(cell);
  },

  rotate(d) {
    if (!this.placing()) return;
    this.ui.rotation = (((this.ui.rotation + d) % 6) + 6) % 6;
    this.renderActionBar();
    this.renderOverlay();
  },

  nextPlacement() {
    const list = this.ix.placeList;
    if (!list.length) return;
    const hand = this.view.hand;
    const grip = shapes.grip(hand.shape);
    const cur = this.ui.cursor || this.ui.hover;
    let idx = -1;
    if (cur) {
      const at = shapes.anchorFor(hand.shape, cur, this.ui.rotation);
      idx = list.findIndex((e) => placeKey(e.action.at, e.action.rotation) === placeKey(at, this.ui.rotation));
    }
    const next = list[(idx + 1) % list.length].action;
    this.ui.rotation = next.rotation;
    this.ui.cursor = shapes.tileCells(hand.shape, next.at, next.rotation)[grip];
    this.ui.hover = null;
    this.ui.pending = null;
    // on a touch screen the spot shown is a preview like a tap's: its tip sits by it and
    // says a tap (or "Place here") places it
    if (COARSE) this.touchPreview = true;
    // zoomed in, the next spot may lie outside the view: bring it into sight
    this.renderer.reveal(shapes.tileCells(hand.shape, next.at, next.rotation));
    this.renderActionBar();
    this.renderOverlay();
  },

  pickPile(i) {
    if (!this.mine()) return;
    const options = this.ix.choose.get(i);
    if (!options) return this.explainPile(i);
    this.ui.pileWhy = null;
    if (options.length === 1 && options[0].action.pay.length === 0) return this.send(options[0]);
    this.ui.pile = i;
    this.ui.pay = 0;
    this.renderAll();
  },

  /**
   * A pile that cannot be taken now (too dear, empty, the watering can's own): the engine's
   * reason, asked once per version (`POST /why` with the cheapest payment, none), said in
   * the bar under the prompt and on the pile's card.
   */
  explainPile(i) {
    if (this.view.phase !== "choose") return;
    this.ui.pile = null;
    this.ui.pileWhy = { pile: i, text: null };
    this.pileReason(i).then((text) => {
      if (this.ui.pileWhy?.pile !== i) return;
      this.ui.pileWhy.text = text;
      this.renderActionBar();
    });
    this.renderAll();
  },

  /** The engine's reason pile `i` cannot be taken (a Promise of text; null: it can). */
  pileReason(i) {
    return this.why.ask(this.version, `pile ${i}`, { type: "choose", pile: i, pay: [] }, t("ishtar.ui.pile.cannot"));
  },

  pickSkill(letter) {
    if (!this.mine() || !this.ix.skills.has(letter)) return;
    this.ui.skill = letter;
    this.ui.skillPay = 0;
    this.renderAll();
  },

  pickToken(token) {
    this.ui.token = token;
    this.ui.bloomPicked = [];
    this.renderAll();
  },

  /** A grass space for the token; the one that completes it is laid only when `confirm`. */
  pickBloomCell(cell, confirm = true) {
    const entries = this.ix.bloom.get(this.ui.token);
    const ok = bloomCells(entries, this.ui.bloomPicked).some((c) => c[0] === cell[0] && c[1] === cell[1]);
    if (!ok) return;
    const picked = [...this.ui.bloomPicked, cell];
    const done = bloomEntry(entries, picked);
    if (done && confirm) return this.send(done);
    if (done) {
      this.ui.pending = cell;
      return this.renderAll();
    }
    this.ui.pending = null;
    this.ui.bloomPicked = picked;
    this.renderAll();
  },

  pickCard(card) {
    if (!this.mine()) return;
    if (this.view.phase === "reserve") return this.send(this.ix.reserve.get(card));
    if (!this.ix.plant.has(card)) return;
    this.ui.card = card;
    this.ui.cursor = null;
    this.renderAll();
  },

  plantAt(cell) {
    const entry = (this.ix.plant.get(this.ui.card) || []).find((e) => e.action.at[0] === cell[0] && e.action.at[1] === cell[1]);
    if (entry) this.send(entry);
  },

  /** Candidate cells for keyboard stepping in the current step. */
  candidates() {
    if (this.view.phase === "bloom" && this.ui.token) return bloomCells(this.ix.bloom.get(this.ui.token), this.ui.bloomPicked);
    if (this.view.phase === "plant" && this.ui.card !== null) return (this.ix.plant.get(this.ui.card) || []).map((e) => e.action.at);
    return [];
  },
};
