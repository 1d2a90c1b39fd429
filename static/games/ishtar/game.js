/**
 * Ishtar's game screen: holds the latest view and legal actions, the player's in-progress
 * choices (pile and payment, tile rotation and hovered spot, skill, blooming token, tree
 * card) and turns them into moves. Every option offered is one of the legal actions the
 * server sent; what is not in that list is shown as illegal with the engine's reason.
 *
 * Mounted by the shell through screen.js (docs/client.md, "The screen interface"): the board
 * and side panels are this game's, the action bar, log, banner and scores are the shell's.
 */

import { COARSE } from "../../js/canvas.js";
import { playerName } from "../../js/dom.js";
import { WhyCache } from "../../js/why.js";
import { actionBar } from "./bar.js";
import { attachInput } from "./input.js";
import { keys } from "./keys.js";
import { motion } from "./motion.js";
import { overlay } from "./overlay.js";
import * as panels from "./panels.js";
import { picks } from "./picks.js";
import { BoardRenderer } from "./render.js";
import * as shapes from "./shapes.js";
import { indexLegal } from "./turn.js";
import { t } from "./words.js";

const $ = (id) => document.getElementById(id);

// The room kept for the action bar over the board, the same at every step, so the board never
// moves as the bar grows or shrinks (a quick second tap lands where the first did). Measured
// at 1400×900 and 390×844 in the three languages: on a wide screen every step's bar fits (the
// tallest: the plant step with five tree cards, 149 px; a pile and its payments, 141 px); on a
// phone every step that taps the board fits (placing 151 px, a token 146 px, a tree with its
// warning 184 px in Dutch), and a taller bar of buttons only (which tree to plant or reserve,
// up to 230 px; a pile and its payments) floats over the top of the board, never pushing it.
const BAR_ROOM = COARSE ? 186 : 150;

// How long the pointer rests on a spot before the engine is asked why it is illegal.
const WHY_DELAY_MS = 110;

export class GameScreen {
  /** `ctx`: what the shell gives (mount in screen.js); the stage's DOM is already built. */
  constructor(ctx) {
    this.ctx = ctx;
    this.bar = ctx.bar;
    this.stage = ctx.stage;
    this.view = null;
    this.legal = [];
    this.ix = indexLegal([]);
    this.room = null;
    this.presence = null;
    this.catalogue = null;
    this.version = null;
    this.sending = false;
    this.why = new WhyCache(ctx.why, { delayMs: WHY_DELAY_MS, illegal: { key: "ishtar.ui.tip.illegal" } });
    this.ui = this.freshUi();
    this.renderer = new BoardRenderer($("board"));
    // the board is fitted once below the bar's room (BAR_ROOM), never below the bar itself
    this.renderer.setInsets(BAR_ROOM + 12);
    attachInput($("board"), this.renderer, {
      hover: (cell, ev) => this.onHover(cell, ev),
      tap: (cell, ev) => this.onTap(cell, ev),
      rotate: (d) => this.rotate(d),
      wheelRotates: () => this.placing() && !!this.ui.hover,
    });
    $("zoom-in").addEventListener("click", () => this.zoom(1.25));
    $("zoom-out").addEventListener("click", () => this.zoom(0.8));
    $("zoom-fit").addEventListener("click", () => this.renderer.fit());
    $("rotate-btn").addEventListener("click", () => this.rotate(1));
    ctx.catalogue.then((c) => this.setCatalogue(c), () => {});
    document.addEventListener("keydown", (ev) => {
      if (ev.key === "Tab" || ev.key === "Enter") this.keyboardUser = true;
      this.onKey(ev);
    });
    document.addEventListener("pointerdown", () => { this.keyboardUser = false; });
  }

  freshUi() {
    return {
      pile: null, pay: 0, rotation: 0, hover: null, cursor: null, pointer: null,
      skill: null, skillPay: 0, skillMode: false, token: null, bloomPicked: [], card: null,
      pending: null, // on touch: the board spot tapped once, waiting for a second tap or "Place here"
    };
  }

  // ---- data in ---------------------------------------------------------------------------

  setCatalogue(catalogue) {
    this.catalogue = catalogue;
    if (this.view) this.renderPanels();
  }

  /** The room status or who is connected changed (no new view). */
  refresh({ room, presence }) {
    const news = room !== this.room; // else only who is connected changed: the panels say it
    this.room = room;
    this.presence = presence;
    if (!this.view) return;
    if (news) this.renderAll();
    else this.renderPanels();
  }

  /** A new complete view (welcome, sync or update). `event` is the move that led to it. */
  update({ view, legal, version, event = null, room, presence }) {
    this.room = room;
    this.presence = presence;
    const old = this.view;
    this.previous = old;
    const samePhase = old && old.phase === view.phase && old.turn === view.turn && old.current === view.current;
    this.view = view;
    this.legal = legal || [];
    this.ix = indexLegal(this.legal);
    this.version = version;
    this.sending = false;
    const keep = this.ui;
    this.ui = this.freshUi();
    this.ui.pointer = keep.pointer;
    this.ui.hover = keep.hover;
    if (samePhase || (old && old.hand && view.hand && old.hand.tile === view.hand.tile)) {
      this.ui.rotation = keep.rotation;
      this.ui.cursor = keep.cursor;
    }
    this.renderer.setView(view);
    const theirs = old && event && (view.viewer === null || event.seat !== view.viewer);
    const from = theirs ? this.startsOf(event) : null;
    if (theirs) this.flash(old, view, event);
    this.renderAll();
    if (theirs) this.travelFor(old, view, event, from);
    this.previous = null; // what grew is shown once, not again on a later redraw
  }

  /** The server refused our move (the shell's bar says why): let the player try again. */
  moveFailed() {
    this.sending = false;
    this.renderAll();
  }

  /** The final scores table (the shell's dialog asks; docs/client.md). */
  renderScores(table, winnerBox, tieBox, view, room) {
    panels.renderScores(table, winnerBox, tieBox, view, room);
  }

  /** Said in the banner after whose turn it is. */
  turnNote(view) {
    return view.end_triggered ? t("ishtar.ui.lastround") : null;
  }

  /** The end announced before it comes (the view's `piles_to_end`, the engine's count):
   * one pile empty, then the last round. */
  endNotice(view) {
    if (view.phase === "over") return null;
    const left = view.end_triggered ? 0 : view.piles_to_end;
    if (left === 0) return t("ishtar.ui.end.last");
    if (left === 1) return t("ishtar.ui.end.near");
    return null;
  }

  destroy() {
    this.renderer.destroy();
  }

  // ---- helpers ---------------------------------------------------------------------------

  mine() {
    return this.ix.count > 0 && !this.sending;
  }

  placing() {
    return this.mine() && this.view.phase === "place" && this.ix.placeList.length > 0 && this.view.hand;
  }

  name(seat) {
    return playerName(this.room, seat);
  }

  send(entry) {
    if (!entry || this.sending) return;
    this.sending = true;
    this.tooltip(null);
    this.ctx.send(entry.action);
    this.renderAll();
  }

  zoom(f) {
    const { w, h } = this.renderer.size;
    this.renderer.zoomAt(w / 2, h / 2, f);
  }

  // ---- rendering -------------------------------------------------------------------------

  renderAll() {
    if (!this.view) return;
    this.renderPanels();
    this.renderActionBar();
    this.renderOverlay();
  }

  renderPanels() {
    const ui = {
      ix: this.mine() ? this.ix : indexLegal([]),
      room: this.room,
      catalogue: this.catalogue,
      presence: this.presence,
      selectedPile: this.ui.pile,
      selectedCard: this.ui.card,
      selectedSkill: this.ui.skill,
      onPile: (i) => this.pickPile(i),
      onCard: (c) => this.pickCard(c),
      onSkill: (l) => this.pickSkill(l),
      pileReason: this.mine() && this.view.phase === "choose" ? (i) => this.pileReason(i) : null,
      previous: this.previous,
    };
    panels.renderCarpet($("carpet"), this.view, ui);
    panels.renderMarket($("market"), $("deck"), this.view, ui);
    const seated = this.view.viewer !== null && this.view.viewer !== undefined;
    $("me-panel").hidden = !seated;
    $("players-title").textContent = t(seated ? "ishtar.ui.panel.others" : "ishtar.ui.panel.gardeners");
    panels.renderPlayers($("players"), this.view, ui, seated ? $("me") : null);
  }

  // ---- test hook -------------------------------------------------------------------------

  /** Added to the shell's `window.__ishtar`: board geometry for tests (no rules, no secrets). */
  get hook() {
    const self = this;
    return {
      get rotation() { return self.ui.rotation; },
      /** Client pixel of a hex centre. */
      hexToClient: (cell) => self.renderer.hexToClient(cell),
      /** Where to click to make a place action in its rotation (the grip cell). */
      placePoint: (action) => {
        const shape = self.view.hand.shape;
        const cell = shapes.tileCells(shape, action.at, action.rotation)[shapes.grip(shape)];
        return self.renderer.hexToClient(cell);
      },
      fit: () => self.renderer.fit(),
    };
  }
}

Object.assign(GameScreen.prototype, actionBar, overlay, motion, picks, keys);
