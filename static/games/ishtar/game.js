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
import { el, esc, playerName } from "../../js/dom.js";
import * as art from "./art.js";
import { editionCatalogue } from "./edition.js";
import * as hex from "./hex.js";
import { attachInput } from "./input.js";
import * as panels from "./panels.js";
import * as shapes from "./shapes.js";
import { BoardRenderer, HEX } from "./render.js";
import { cardButton, tileCard, tokenCard } from "./tilecard.js";
import * as tips from "./tips.js";
import { bloomCells, bloomEntry, indexLegal, placeKey } from "./turn.js";
import { tm } from "../../js/i18n.js";
import { WhyCache, sentence } from "../../js/why.js";
import { around, travel } from "../../js/travel.js";
import { skillName, skillText, t, tHtml, tileWords, tokenWords, treeName } from "./words.js";

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
    this.room = room;
    this.presence = presence;
    if (this.view) this.renderAll();
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

  /**
   * "Place here": on touch always in the bar of a board step (greyed until a spot is
   * tapped), so the bar does not grow under the finger; elsewhere only once a spot is chosen.
   */
  placeHere(onClick, ready) {
    if (!ready && !COARSE) return null;
    const b = this.button(t("ishtar.ui.place.here"), onClick, "place-here", { kbd: t("ishtar.ui.key.enter"), primary: true });
    b.disabled = !ready;
    return b;
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

  /** The bar over the board: what to do now and the buttons for it. */
  renderActionBar() {
    const bar0 = this.bar.element;
    const hadFocus = bar0.contains(document.activeElement) || document.activeElement === document.body;
    this.fillActionBar();
    // keyboard players keep their place: focus moves to the new step's main button
    if (this.keyboardUser && hadFocus) {
      const onBoard = this.placing() || this.candidates().length > 0;
      const next = onBoard ? $("board") : bar0.querySelector(".btn.primary, .choice");
      if (next) next.focus({ preventScroll: true });
    }
  }

  fillActionBar() {
    const v = this.view;
    const bar = this.bar;
    bar.begin();
    const choices = { append: (...nodes) => bar.add(...nodes) };
    $("rotate-btn").hidden = !this.placing();
    $("board").classList.toggle("placing", !!this.placing());
    const say = (p, s = "") => bar.say(p, s);
    if (v.phase === "over") {
      bar.over(() => this.ctx.showScores());
      return;
    }
    if (this.sending) {
      bar.sending();
      return;
    }
    if (!this.ix.count) {
      bar.element.classList.add("idle");
      const who = v.current !== null ? this.name(v.current) : "";
      const spectator = v.viewer === null || v.viewer === undefined;
      say(t("ishtar.ui.doing", { name: who, phase: v.phase }), t(spectator ? "ishtar.ui.watching" : "ishtar.ui.waiting"));
      if (v.phase === "place" && v.hand) choices.append(this.handTile(v.hand, 0, t("ishtar.ui.hand.placed")));
      return;
    }
    bar.element.classList.add("mine");
    const handler = {
      choose: () => this.barChoose(say, choices),
      place: () => this.barPlace(say, choices),
      special: () => this.barSpecial(say, choices),
      bloom: () => this.barBloom(say, choices),
      reserve: () => this.barReserve(say, choices),
      plant: () => this.barPlant(say, choices),
    }[v.phase];
    if (handler) handler();
    else {
      say(t("ishtar.ui.yourmove"));
      for (const e of this.legal) choices.append(this.button(e.action.type, () => this.send(e)));
    }
    if (this.ix.undo) choices.append(this.undoButton());
  }

  /** Take back the last step of this turn (offered by the server while nothing was revealed). */
  undoButton() {
    const b = this.button(t("ishtar.ui.undo"), () => this.send(this.ix.undo), "undo", { kbd: "U" });
    const preview = this.ix.undo.preview || {};
    // the engine's own line for the step (its message, else its English text)
    const what = tm(preview.message, preview.text || "");
    b.title = what ? t("ishtar.ui.undo.what", { what }) : t("ishtar.ui.undo.last");
    return b;
  }

  /**
   * The tile in hand (or about to be taken) in the action bar: drawn large enough to read,
   * and its card (tips.js) on hover or tap with every space in words.
   */
  handTile(tile, rotation, title) {
    const box = el("span", "hand-tile");
    box.tabIndex = 0;
    box.dataset.act = "hand";
    const big = COARSE ? [72, 56] : [92, 68];
    box.append(art.tileCanvas(tile, tile.shape, big[0], big[1], rotation));
    box.setAttribute("aria-label", t("ishtar.ui.hand.label", { title, tile: tileWords(tile) }));
    tips.tip(box, () => tileCard({ tile, shape: tile.shape, title, rotation }));
    return box;
  }

  button(label, onClick, act, options) {
    return this.bar.button(label, onClick, act, options);
  }

  barChoose(say, choices) {
    const first = this.view.carpet.can === null || this.view.carpet.can === undefined;
    if (this.ui.pile === null) {
      const no = this.ui.pileWhy;
      const why = no && (no.text ? t("ishtar.ui.pile.why", { n: no.pile + 1, why: no.text }) : t("ishtar.ui.tip.checking"));
      say(t("ishtar.ui.choose"), why || t(first ? "ishtar.ui.choose.first" : "ishtar.ui.choose.hint"));
      return;
    }
    const options = this.ix.choose.get(this.ui.pile);
    const chosen = options[this.ui.pay];
    const n = chosen.action.pay.length;
    say(t("ishtar.ui.choose.pay", { pile: this.ui.pile + 1, n }), t(options.length > 1 ? "ishtar.ui.choose.ways" : "ishtar.ui.choose.take"));
    const tile = chosen.preview?.tile;
    if (tile) choices.append(this.handTile(tile, 0, t("ishtar.ui.hand.top", { pile: this.ui.pile + 1 })));
    choices.append(el("span", "choice-label", esc(t("ishtar.ui.pay"))));
    if (options.length > 1) {
      options.forEach((o, i) => {
        const lab = el("span", "", art.gemRow(o.action.pay));
        choices.append(this.button(lab, () => { this.ui.pay = i; this.renderActionBar(); }, `pay-${i}`, { pressed: i === this.ui.pay }));
      });
    } else {
      choices.append(el("span", "paying", art.gemRow(chosen.action.pay)));
    }
    choices.append(this.button(t("ishtar.ui.choose.confirm"), () => this.send(chosen), "confirm", { kbd: t("ishtar.ui.key.enter"), primary: true }));
    choices.append(this.button(t("ishtar.ui.cancel"), () => { this.ui.pile = null; this.renderAll(); }, "cancel", { kbd: t("ishtar.ui.key.esc") }));
  }

  barPlace(say, choices) {
    const hand = this.view.hand;
    if (!this.ix.placeList.length && this.ix.discard) {
      say(t("ishtar.ui.place.nowhere"), t("ishtar.ui.place.nowhere.sub"));
      choices.append(this.button(t("ishtar.ui.place.discard.tile"), () => this.send(this.ix.discard), "discard", { primary: true, kbd: "D" }));
      return;
    }
    const here = this.ix.placeList.filter((e) => e.action.rotation === this.ui.rotation).length;
    const chosen = this.chosenPlacement();
    say(
      t(chosen ? "ishtar.ui.place.confirm" : here ? "ishtar.ui.place" : "ishtar.ui.place.none"),
      t(here ? (COARSE ? "ishtar.ui.place.hint.tap" : "ishtar.ui.place.hint.click") : "ishtar.ui.place.none.sub"),
    );
    if (hand) choices.append(this.handTile(hand, this.ui.rotation, t("ishtar.ui.hand")));
    const confirm = this.placeHere(() => this.send(chosen), !!chosen);
    if (confirm) choices.append(confirm);
    choices.append(this.button(t("ishtar.ui.rotate"), () => this.rotate(1), "rotate", { kbd: "R" }));
    choices.append(this.button(t("ishtar.ui.place.next"), () => this.nextPlacement(), "next", { kbd: "N" }));
    if (this.ix.discard) choices.append(this.button(t("ishtar.ui.place.discard"), () => this.send(this.ix.discard), "discard", { kbd: "D" }));
  }

  barSpecial(say, choices) {
    const icon = this.iconSpace()?.icon;
    if (this.ui.skill) {
      const options = this.ix.skills.get(this.ui.skill);
      const chosen = options[this.ui.skillPay];
      say(t("ishtar.ui.special.unlock", { letter: this.ui.skill }), this.skillText(this.ui.skill));
      if (options.length > 1) {
        choices.append(el("span", "choice-label", esc(t("ishtar.ui.pay"))));
        options.forEach((o, i) => {
          const lab = el("span", "", art.gemRow(o.action.pay));
          choices.append(this.button(lab, () => { this.ui.skillPay = i; this.renderActionBar(); }, `pay-${i}`, { pressed: i === this.ui.skillPay }));
        });
      }
      choices.append(this.button(t("ishtar.ui.special.confirm"), () => this.send(chosen), "confirm", { kbd: t("ishtar.ui.key.enter"), primary: true }));
      choices.append(this.button(t("ishtar.ui.back"), () => { this.ui.skill = null; this.renderAll(); }, "cancel", { kbd: t("ishtar.ui.key.esc") }));
      return;
    }
    // the price of a skill is the server's: the gems of its cheapest legal payment
    const price = Math.min(...[...this.ix.skills.values()].map((o) => o[0].action.pay.length));
    say(t("ishtar.ui.special", { icon: icon || "none" }), this.ix.skills.size ? t("ishtar.ui.special.sub", { n: price }) : t("ishtar.ui.special.sub.pass"));
    if (this.ix.assistant) choices.append(this.button(t("ishtar.ui.special.assistant"), () => this.send(this.ix.assistant), "assistant", { kbd: "A" }));
    for (const letter of this.ix.skills.keys()) {
      const b = this.button(t("ishtar.ui.special.skill", { letter, name: skillName(letter) }), () => this.pickSkill(letter), `skill-${letter}`);
      b.setAttribute("aria-description", this.skillText(letter));
      choices.append(b);
    }
    if (this.ix.pass) choices.append(this.button(t("ishtar.ui.special.pass"), () => this.send(this.ix.pass), "pass", { kbd: "P" }));
  }

  barBloom(say, choices) {
    if (!this.ui.token) {
      say(t("ishtar.ui.bloom"), t("ishtar.ui.bloom.sub"));
      [...this.ix.bloom.keys()].forEach((token, i) => {
        const b = this.button(art.tokenCanvas(token, 26), () => this.pickToken(token), `token-${token}`, { kbd: String(i + 1) });
        b.setAttribute("aria-label", tokenWords(token));
        tips.tip(b, () => tokenCard(token, null, cardButton(t("ishtar.ui.bloom.lay"), () => { tips.close(); this.pickToken(token); }, `lay-${token}`)), { onTap: () => this.pickToken(token) });
        choices.append(b);
      });
      return;
    }
    const entries = this.ix.bloom.get(this.ui.token);
    const double = entries[0].action.cells.length > 1;
    const step = this.ui.bloomPicked.length;
    const how = COARSE ? "tap" : "click";
    say(tokenWords(this.ui.token), t(double && step === 1 ? `ishtar.ui.bloom.second.${how}` : `ishtar.ui.bloom.space.${how}`));
    const last = !double || step === 1;
    const here = last ? this.placeHere(() => this.confirmPending(), !!this.ui.pending) : null;
    if (here) choices.append(here);
    choices.append(this.button(t("ishtar.ui.back"), () => { this.ui.token = null; this.ui.bloomPicked = []; this.ui.pending = null; this.renderAll(); }, "cancel", { kbd: t("ishtar.ui.key.esc") }));
  }

  /**
   * The warning before a step that can never be taken back (the engine's `final` in its
   * preview: a new tree card is turned face up), as a line in the bar.
   */
  finalNote(entries, key) {
    if (!entries.some((e) => e?.preview?.final)) return null;
    const note = el("span", "final-note");
    note.dataset.final = key;
    note.setAttribute("role", "note");
    note.textContent = key === "plant" ? t("ishtar.ui.final.plant") : t("ishtar.ui.final.reserve");
    return note;
  }

  barReserve(say, choices) {
    say(t("ishtar.ui.reserve"), t("ishtar.ui.reserve.sub"));
    [...this.ix.reserve].forEach(([card, entry], i) => {
      const c = this.view.market.find((m) => m.card === card);
      const b = this.button(c ? treeName(c) : `#${card}`, () => this.send(entry), `reserve-${card}`, { kbd: String(i + 1) });
      if (entry.preview?.final) b.setAttribute("aria-description", t("ishtar.ui.final.reserve"));
      choices.append(b);
    });
    const note = this.finalNote([...this.ix.reserve.values()], "reserve");
    if (note) choices.append(note);
  }

  barPlant(say, choices) {
    if (this.ui.card !== null) {
      const c = this.cardInfo(this.ui.card);
      say(c ? t("ishtar.ui.plant.card", { name: treeName(c) }) : t("ishtar.ui.plant.tree"), t(COARSE ? "ishtar.ui.plant.sub.tap" : "ishtar.ui.plant.sub.click"));
      const here = this.placeHere(() => this.confirmPending(), !!this.ui.pending);
      if (here) choices.append(here);
      choices.append(this.button(t("ishtar.ui.back"), () => { this.ui.card = null; this.ui.pending = null; this.renderAll(); }, "cancel", { kbd: t("ishtar.ui.key.esc") }));
      choices.append(this.button(t("ishtar.ui.end"), () => this.send(this.ix.end), "end", { kbd: "E" }));
      const note = this.finalNote(this.ix.plant.get(this.ui.card) || [], "plant");
      if (note) choices.append(note);
      return;
    }
    say(
      t(this.ix.plant.size ? "ishtar.ui.plant" : "ishtar.ui.plant.end"),
      t(this.ix.plant.size ? "ishtar.ui.plant.sub" : "ishtar.ui.plant.end.sub"),
    );
    [...this.ix.plant.keys()].forEach((card, i) => {
      const c = this.cardInfo(card);
      const lab = el("span", "", esc(t("ishtar.ui.plant.button", { name: c ? treeName(c) : `#${card}`, vp: c ? c.vp : "?" })));
      const b = this.button(lab, () => this.pickCard(card), `plant-${card}`, { kbd: String(i + 1) });
      if ((this.ix.plant.get(card) || []).some((e) => e.preview?.final)) b.setAttribute("aria-description", t("ishtar.ui.final.plant"));
      choices.append(b);
    });
    if (this.ix.end) choices.append(this.button(t("ishtar.ui.end"), () => this.send(this.ix.end), "end", { kbd: "E", primary: true }));
  }

  cardInfo(id) {
    const inMarket = this.view.market.find((m) => m.card === id);
    if (inMarket) return inMarket;
    return (editionCatalogue(this.catalogue, this.view)?.tree_cards || []).find((c) => c.card === id) || null;
  }

  skillText(letter) {
    const s = (editionCatalogue(this.catalogue, this.view)?.skills || []).find((x) => x.skill === letter);
    return skillText(letter, s ? s.text : "", s ? s.params : {});
  }

  /** The space of the view with the icon of the tile just placed (the special step's), or null. */
  iconSpace() {
    const tiles = this.view.tiles || [];
    const last = tiles[tiles.length - 1];
    if (!last) return null;
    return (this.view.spaces || []).find((s) => s.tile === last.tile && s.icon) || null;
  }

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
      // where the assistant the server offers would stand
      const space = this.iconSpace();
      if (space) o.marks = [[space.q, space.r]];
    } else if (this.mine() && v.phase === "plant" && this.ui.card !== null) {
      o.marks = (this.ix.plant.get(this.ui.card) || []).map((e) => e.action.at);
      o.selected = this.ui.pending ? [this.ui.pending] : [];
      o.cursor = this.ui.cursor;
    }
    this.renderer.setOverlay(o);
    this.updateTooltip(o.ghost);
  }

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
  }

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
  }

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
  }

  /** The engine's reason a placement is illegal, asked of the server (cached, debounced). */
  reasonFor(at, rotation) {
    return this.why.reason(this.version, placeKey(at, rotation), { type: "place", at, rotation }, {
      answered: () => this.renderOverlay(),
    });
  }

  /** Light up what another player just changed. */
  flash(old, view, event) {
    const oldSpaces = new Map((old.spaces || []).map((s) => [hex.key(s.q, s.r), s]));
    const changed = [];
    for (const s of view.spaces || []) {
      const o = oldSpaces.get(hex.key(s.q, s.r));
      if (!o || o.tree !== s.tree || o.assistant !== s.assistant || o.token !== s.token) changed.push([s.q, s.r]);
    }
    this.renderer.highlight(changed);
    if (event.action?.type === "choose") {
      requestAnimationFrame(() => {
        const pile = document.querySelector(`.pile[data-pile="${event.action.pile}"]`);
        if (pile) pile.classList.add("flash");
      });
    }
  }

  // ---- pieces travelling (another player's move) -------------------------------------------

  /** Where the pieces of `event` set off from, read before the page is redrawn. */
  startsOf(event) {
    const a = event.action || {};
    const rect = (sel) => document.querySelector(sel)?.getBoundingClientRect() || null;
    return {
      hand: rect("#choices [data-act='hand']"),
      pile: a.type === "choose" ? rect(`.pile[data-pile="${a.pile}"]`) : null,
      card: a.card !== undefined ? rect(`#market [data-card="${a.card}"]`) : null,
      token: a.type === "bloom" ? rect(`#carpet [data-token="${a.token}"]`) : null,
    };
  }

  /**
   * Another player's (or a bot's) move, shown travelling (js/travel.js; nothing under reduced
   * motion): the tile from its pile to the hand, the hand's tile onto the board, the gems it
   * collected to that player's panel, a tree from the market (or their panel) to its space, a
   * reserved card to their panel, a blooming token from the carpet.
   */
  travelFor(old, view, event, from) {
    const a = event.action || {};
    const rect = (sel) => document.querySelector(sel)?.getBoundingClientRect() || null;
    const panelOf = (seat) => rect(`#players [data-seat="${seat}"] .gems, #me [data-seat="${seat}"] .gems`) || rect(`[data-seat="${seat}"]`);
    const cellsRect = (cells) => {
      const pts = cells.map((c) => this.renderer.hexToClient(c));
      const size = this.renderer.cam.k * 54;
      const xs = pts.map((p) => p[0]);
      const ys = pts.map((p) => p[1]);
      const left = Math.min(...xs) - size / 2;
      const top = Math.min(...ys) - size / 2;
      return { left, top, width: Math.max(...xs) - left + size / 2, height: Math.max(...ys) - top + size / 2 };
    };
    if (a.type === "choose") {
      const pile = old.carpet?.piles?.[a.pile];
      if (pile?.top) travel(art.tileCanvas(pile.top, pile.cup, 78, 78), from.pile, rect("#choices [data-act='hand']") || panelOf(event.seat), { kind: "tile" });
    } else if (a.type === "place" && old.hand) {
      const cells = shapes.tileCells(old.hand.shape, a.at, a.rotation);
      const to = cellsRect(cells);
      const start = from.hand || rect(`.pile[data-pile="${old.carpet?.can}"]`);
      travel(art.tileCanvas(old.hand, old.hand.shape, 92, 68, a.rotation), start, to, { kind: "tile" });
      const before = old.players.find((p) => p.seat === event.seat)?.gems || {};
      const after = view.players.find((p) => p.seat === event.seat)?.gems || {};
      let k = 0;
      for (const colour of ["purple", "red", "white"]) {
        for (let n = before[colour] || 0; n < (after[colour] || 0); n += 1) {
          const [x, y] = this.renderer.hexToClient(cells[k % cells.length]);
          travel(el("span", "travel-gem", art.gemIcon(colour)), around(x, y, 26), panelOf(event.seat), { delay: 380 + 120 * k, kind: "gem" });
          k += 1;
        }
      }
    } else if (a.type === "plant") {
      const [x, y] = this.renderer.hexToClient(a.at);
      travel(art.treeCanvas(30), from.card || panelOf(event.seat), around(x, y, this.renderer.cam.k * 40), { kind: "tree" });
    } else if (a.type === "reserve") {
      const c = old.market.find((m) => m.card === a.card);
      if (c) travel(art.treeCanvas(30), from.card, rect(`[data-seat="${event.seat}"]`), { kind: "tree" });
    } else if (a.type === "bloom") {
      const to = cellsRect(a.cells || []);
      travel(art.tokenCanvas(a.token, 26), from.token || rect("#carpet"), to, { kind: "token" });
    }
  }

  // ---- input -----------------------------------------------------------------------------

  onHover(cell, ev) {
    this.ui.pointer = ev ? [ev.clientX, ev.clientY] : null;
    if (ev && ev.pointerType === "mouse") this.touchPreview = false;
    const same = (a, b) => (a && b ? a[0] === b[0] && a[1] === b[1] : a === b);
    if (same(cell, this.ui.hover)) return;
    this.ui.hover = cell;
    if (this.placing()) this.renderOverlay();
  }

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
  }

  /** The legal placement the player tapped once (touch) or put the keyboard cursor on. */
  chosenPlacement() {
    if (!this.placing()) return null;
    const cell = this.shownSpot();
    if (!cell) return null;
    const g = this.ghostAt(cell);
    return g.legal ? g.entry : null;
  }

  /**
   * The spot "Place here" would place on. On touch it is the preview the board shows,
   * however it got there (a tap, "Next spot", or kept over an Undo): green there means the
   * button is live. With a mouse, the spot tapped or the keyboard cursor.
   */
  shownSpot() {
    if (COARSE || this.touchPreview) return this.ui.pending || this.ui.hover || this.ui.cursor;
    return this.ui.pending || (this.keyboardUser ? this.ui.cursor : null);
  }

  /** "Place here": the spot tapped once in the bloom or plant step. */
  confirmPending() {
    const cell = this.ui.pending;
    if (!cell) return;
    if (this.view.phase === "bloom") return this.pickBloomCell(cell, true);
    if (this.view.phase === "plant") return this.plantAt(cell);
  }

  rotate(d) {
    if (!this.placing()) return;
    this.ui.rotation = (((this.ui.rotation + d) % 6) + 6) % 6;
    this.renderActionBar();
    this.renderOverlay();
  }

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
  }

  pickPile(i) {
    if (!this.mine()) return;
    const options = this.ix.choose.get(i);
    if (!options) return this.explainPile(i);
    this.ui.pileWhy = null;
    if (options.length === 1 && options[0].action.pay.length === 0) return this.send(options[0]);
    this.ui.pile = i;
    this.ui.pay = 0;
    this.renderAll();
  }

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
  }

  /** The engine's reason pile `i` cannot be taken (a Promise of text; null: it can). */
  pileReason(i) {
    return this.why.ask(this.version, `pile ${i}`, { type: "choose", pile: i, pay: [] }, t("ishtar.ui.pile.cannot"));
  }

  pickSkill(letter) {
    if (!this.mine() || !this.ix.skills.has(letter)) return;
    this.ui.skill = letter;
    this.ui.skillPay = 0;
    this.renderAll();
  }

  pickToken(token) {
    this.ui.token = token;
    this.ui.bloomPicked = [];
    this.renderAll();
  }

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
  }

  pickCard(card) {
    if (!this.mine()) return;
    if (this.view.phase === "reserve") return this.send(this.ix.reserve.get(card));
    if (!this.ix.plant.has(card)) return;
    this.ui.card = card;
    this.ui.cursor = null;
    this.renderAll();
  }

  plantAt(cell) {
    const entry = (this.ix.plant.get(this.ui.card) || []).find((e) => e.action.at[0] === cell[0] && e.action.at[1] === cell[1]);
    if (entry) this.send(entry);
  }

  /** Candidate cells for keyboard stepping in the current step. */
  candidates() {
    if (this.view.phase === "bloom" && this.ui.token) return bloomCells(this.ix.bloom.get(this.ui.token), this.ui.bloomPicked);
    if (this.view.phase === "plant" && this.ui.card !== null) return (this.ix.plant.get(this.ui.card) || []).map((e) => e.action.at);
    return [];
  }

  onKey(ev) {
    if (!this.view || ev.ctrlKey || ev.metaKey) return;
    const target = ev.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT" || target.isContentEditable)) return;
    if (target && target.tagName === "BUTTON" && (ev.key === "Enter" || ev.key === " ")) return; // the button acts
    const k = ev.key;
    if (k === "+" || k === "=") return this.zoom(1.25);
    if (k === "-" || k === "_") return this.zoom(0.8);
    if (k === "0") return this.renderer.fit();
    if (!this.mine()) return;
    const phase = this.view.phase;
    const consume = () => ev.preventDefault();
    if ((k === "u" || k === "U") && this.ix.undo) { consume(); return this.send(this.ix.undo); }
    if (phase === "choose") {
      if (/^[1-6]$/.test(k)) { consume(); return this.pickPile(Number(k) - 1); }
      if (k === "Enter" && this.ui.pile !== null) { consume(); return this.send(this.ix.choose.get(this.ui.pile)[this.ui.pay]); }
      if (k === "Escape") { this.ui.pile = null; return this.renderAll(); }
    }
    // the numbered choices of a step: a blooming token, a tree card to reserve or to plant
    const numbered = phase === "bloom" && !this.ui.token ? [...this.ix.bloom.keys()]
      : phase === "reserve" ? [...this.ix.reserve.keys()]
        : phase === "plant" && this.ui.card === null ? [...this.ix.plant.keys()] : [];
    if (/^[1-9]$/.test(k) && numbered[Number(k) - 1] !== undefined) {
      consume();
      const pick = numbered[Number(k) - 1];
      if (phase === "bloom") return this.pickToken(pick);
      if (phase === "reserve") return this.send(this.ix.reserve.get(pick));
      return this.pickCard(pick);
    }
    if (phase === "place") {
      if ((k === "d" || k === "D") && this.ix.discard) { consume(); return this.send(this.ix.discard); }
      if (k === "r" || k === "R") { consume(); return this.rotate(ev.shiftKey ? -1 : 1); }
      if (k === "n" || k === "N") { consume(); return this.nextPlacement(); }
      if (this.moveCursor(k)) { consume(); this.ui.hover = null; return this.renderOverlay(); }
      if (k === "Enter" && (this.ui.pending || this.ui.cursor || this.ui.hover)) {
        consume();
        const g = this.ghostAt(this.ui.pending || this.ui.cursor || this.ui.hover);
        if (g.legal) return this.send(g.entry);
      }
    }
    if (phase === "special") {
      if (k === "a" || k === "A") return this.send(this.ix.assistant);
      if (k === "p" || k === "P") return this.send(this.ix.pass);
      if (this.ui.skill && k === "Enter") { consume(); return this.send(this.ix.skills.get(this.ui.skill)[this.ui.skillPay]); }
      if (k === "Escape") { this.ui.skill = null; return this.renderAll(); }
      const letter = k.toUpperCase();
      if (/^[B-J]$/.test(letter) && this.ix.skills.has(letter)) return this.pickSkill(letter);
    }
    if (phase === "plant" && (k === "e" || k === "E")) return this.send(this.ix.end);
    if (phase === "bloom" || phase === "plant") {
      const cands = this.candidates();
      if ((k === "n" || k === "N") && cands.length) {
        consume();
        const i = this.ui.cursor ? cands.findIndex((c) => c[0] === this.ui.cursor[0] && c[1] === this.ui.cursor[1]) : -1;
        this.ui.cursor = cands[(i + 1) % cands.length];
        return this.renderOverlay();
      }
      if (this.moveCursor(k)) { consume(); return this.renderOverlay(); }
      if (k === "Enter" && (this.ui.pending || this.ui.cursor)) {
        consume();
        if (this.ui.pending) return this.confirmPending();
        return phase === "bloom" ? this.pickBloomCell(this.ui.cursor) : this.plantAt(this.ui.cursor);
      }
      if (k === "Escape") { this.ui.token = null; this.ui.card = null; this.ui.bloomPicked = []; this.ui.pending = null; return this.renderAll(); }
    }
  }

  moveCursor(k) {
    const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0] }[k];
    let d = step;
    const cur = this.ui.cursor || this.ui.hover || this.defaultCursor();
    if (!cur) return false;
    if (k === "ArrowUp") d = cur[1] % 2 === 0 ? [0, -1] : [1, -1];
    if (k === "ArrowDown") d = cur[1] % 2 === 0 ? [-1, 1] : [0, 1];
    if (!d) return false;
    const next = [cur[0] + d[0], cur[1] + d[1]];
    this.ui.cursor = this.renderer.isOnBoard(next) ? next : cur;
    return true;
  }

  defaultCursor() {
    const fountain = this.view.cells.find((c) => c.terrain === "fountain");
    return fountain ? [fountain.q, fountain.r] : null;
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
