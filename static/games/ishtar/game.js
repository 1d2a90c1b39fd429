/**
 * Ishtar's game screen: holds the latest view and legal actions, the player's in-progress
 * choices (pile and payment, tile rotation and hovered spot, skill, blooming token, tree
 * card) and turns them into moves. Every option offered is one of the legal actions the
 * server sent; what is not in that list is shown as illegal with the engine's reason.
 *
 * Mounted by the shell through screen.js (docs/client.md, "The screen interface"): the board
 * and side panels are this game's, the action bar, log, banner and scores are the shell's.
 */

import { el, esc, playerName } from "../../js/dom.js";
import * as art from "./art.js";
import { editionCatalogue } from "./edition.js";
import * as hex from "./hex.js";
import { attachInput } from "./input.js";
import * as panels from "./panels.js";
import { BoardRenderer } from "./render.js";
import { cardButton, tileCard, tokenCard } from "./tilecard.js";
import * as tips from "./tips.js";
import { bloomCells, bloomEntry, indexLegal, placeKey } from "./turn.js";
import { tm } from "../../js/i18n.js";
import { skillName, skillText, t, tHtml, tileWords, tokenWords, treeName } from "./words.js";

const $ = (id) => document.getElementById(id);

const COARSE = window.matchMedia?.("(pointer: coarse)").matches;

/**
 * The engine's reason as the server gave it: a message ({key, params}, with its English
 * `text` or `reason` beside it), or plain English text from an older server.
 */
function reasonText(reason) {
  if (typeof reason === "string") return reason;
  return tm(reason.message || reason, reason.reason || reason.text || "");
}

// Which tile cell sits under the pointer: the middle one for lines and chevrons.
const GRIP = { line: 1, chevron: 1, triangle: 0 };

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
    this.why = new Map(); // "version|q,r@rot" -> reason | Promise
    this.whyTimer = null;
    this.ui = this.freshUi();
    this.renderer = new BoardRenderer($("board"));
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
    if (old && event && (view.viewer === null || event.seat !== view.viewer)) this.flash(old, view, event);
    this.renderAll();
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
    this.renderer.destroy?.();
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
    // between a touch preview and its confirmation the board keeps still, whatever the bar
    // does, so that the second tap lands on the spot of the first
    if (!this.ui.pending) this.renderer.setInsets(this.bar.element.offsetHeight + 12);
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
      say(t("ishtar.ui.choose"), t(first ? "ishtar.ui.choose.first" : "ishtar.ui.choose.hint"));
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
      choices.append(this.button(t("ishtar.ui.place.discard.tile"), () => this.send(this.ix.discard), "discard", { primary: true }));
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
    if (this.ix.discard) choices.append(this.button(t("ishtar.ui.place.discard"), () => this.send(this.ix.discard), "discard"));
  }

  barSpecial(say, choices) {
    const icon = this.iconOfPlacedTile();
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
      for (const token of this.ix.bloom.keys()) {
        const b = this.button(art.tokenCanvas(token, 26), () => this.pickToken(token), `token-${token}`);
        b.setAttribute("aria-label", tokenWords(token));
        tips.tip(b, () => tokenCard(token, null, cardButton(t("ishtar.ui.bloom.lay"), () => { tips.close(); this.pickToken(token); }, `lay-${token}`)), { onTap: () => this.pickToken(token) });
        choices.append(b);
      }
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

  barReserve(say, choices) {
    say(t("ishtar.ui.reserve"), t("ishtar.ui.reserve.sub"));
    for (const [card, entry] of this.ix.reserve) {
      const c = this.view.market.find((m) => m.card === card);
      choices.append(this.button(c ? treeName(c) : `#${card}`, () => this.send(entry), `reserve-${card}`));
    }
  }

  barPlant(say, choices) {
    if (this.ui.card !== null) {
      const c = this.cardInfo(this.ui.card);
      say(c ? t("ishtar.ui.plant.card", { name: treeName(c) }) : t("ishtar.ui.plant.tree"), t(COARSE ? "ishtar.ui.plant.sub.tap" : "ishtar.ui.plant.sub.click"));
      const here = this.placeHere(() => this.confirmPending(), !!this.ui.pending);
      if (here) choices.append(here);
      choices.append(this.button(t("ishtar.ui.back"), () => { this.ui.card = null; this.ui.pending = null; this.renderAll(); }, "cancel", { kbd: t("ishtar.ui.key.esc") }));
      choices.append(this.button(t("ishtar.ui.end"), () => this.send(this.ix.end), "end", { kbd: "E" }));
      return;
    }
    say(
      t(this.ix.plant.size ? "ishtar.ui.plant" : "ishtar.ui.plant.end"),
      t(this.ix.plant.size ? "ishtar.ui.plant.sub" : "ishtar.ui.plant.end.sub"),
    );
    for (const card of this.ix.plant.keys()) {
      const c = this.cardInfo(card);
      const lab = el("span", "", esc(t("ishtar.ui.plant.button", { name: c ? treeName(c) : `#${card}`, vp: c ? c.vp : "?" })));
      choices.append(this.button(lab, () => this.pickCard(card), `plant-${card}`));
    }
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

  iconOfPlacedTile() {
    const tiles = this.view.tiles || [];
    const last = tiles[tiles.length - 1];
    if (!last) return null;
    const spaces = (this.view.spaces || []).filter((s) => s.tile === last.tile);
    const withIcon = spaces.find((s) => s.icon);
    return withIcon ? withIcon.icon : null;
  }

  // ---- board overlay ---------------------------------------------------------------------

  renderOverlay() {
    const o = { ghost: null, marks: [], hints: [], selected: [], cursor: null };
    const v = this.view;
    if (this.placing()) {
      const shape = v.hand.shape;
      const grip = GRIP[shape] ?? 0;
      for (const e of this.ix.placeList) {
        if (e.action.rotation !== this.ui.rotation) continue;
        o.hints.push(hex.tileCells(shape, e.action.at, e.action.rotation)[grip]);
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
      // where an assistant would stand: the icon space of the tile just placed
      const tiles = v.tiles || [];
      const last = tiles[tiles.length - 1];
      const icon = last && (v.spaces || []).find((s) => s.tile === last.tile && s.icon);
      if (icon) o.marks = [[icon.q, icon.r]];
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
    const at = hex.anchorFor(hand.shape, cell, this.ui.rotation, GRIP[hand.shape] ?? 0);
    const entry = this.ix.place.get(placeKey(at, this.ui.rotation));
    const cells = hex.tileCells(hand.shape, at, this.ui.rotation);
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
      return this.tooltip(html, x, y, preview.no_assistant ? "ok warn" : "ok");
    }
    const reason = this.reasonFor(ghost.at, ghost.rotation);
    const text = reason ? reason.charAt(0).toUpperCase() + reason.slice(1) : t("ishtar.ui.tip.checking");
    return this.tooltip(esc(text), x, y, "bad");
  }

  tooltip(html, x, y, kind = "") {
    const tip = $("tooltip");
    if (!html) {
      tip.hidden = true;
      return;
    }
    tip.innerHTML = html;
    tip.className = `tooltip ${kind}`;
    tip.hidden = false;
    const wrap = this.stage.getBoundingClientRect();
    const w = tip.offsetWidth;
    const h = tip.offsetHeight;
    let left = Math.min(Math.max(8, x + 24), wrap.width - w - 8);
    let top = Math.min(Math.max(8, y + 22), wrap.height - h - 8);
    if (this.touchPreview) {
      // Under a finger nothing can be read, and a tip left there covers the board's tools
      // (rotate): on touch it docks in the half of the stage away from the tap, clear of
      // the bar at the top and of the tools' column on the right.
      const tools = this.stage.querySelector(".board-tools")?.getBoundingClientRect();
      const clearRight = tools ? wrap.right - tools.left + 8 : 60;
      const barBottom = this.bar.element.getBoundingClientRect().bottom - wrap.top;
      left = 8;
      tip.style.maxWidth = `${Math.max(160, wrap.width - clearRight - 16)}px`;
      top = y > wrap.height / 2 ? Math.max(8, barBottom + 8) : wrap.height - tip.offsetHeight - 8;
    } else {
      tip.style.maxWidth = "";
    }
    tip.style.left = `${left}px`;
    tip.style.top = `${top}px`;
  }

  /** The engine's reason a placement is illegal, asked of the server (cached, debounced). */
  reasonFor(at, rotation) {
    const k = `${this.version}|${placeKey(at, rotation)}`;
    const known = this.why.get(k);
    if (known && known !== true) return reasonText(known);
    if (known) return null;
    const onBoard = hex.tileCells(this.view.hand.shape, at, rotation).every((c) => this.renderer.isOnBoard(c));
    if (!onBoard) return t("ishtar.ui.tip.offboard");
    clearTimeout(this.whyTimer);
    this.whyTimer = setTimeout(() => {
      if (this.why.has(k)) return;
      const move = { type: "place", at, rotation };
      this.why.set(k, true);
      this.ctx.why(move).then(
        (reason) => {
          this.why.set(k, reason || { key: "ishtar.ui.tip.illegal" });
          this.renderOverlay();
        },
        () => {
          this.why.set(k, { key: "ishtar.ui.tip.illegal" });
          this.renderOverlay();
        },
      );
    }, 110);
    return null;
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
    if (phase === "place" && this.placing()) {
      const prev = this.ui.pending;
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
    const cell = this.ui.pending || (this.keyboardUser ? this.ui.cursor : null);
    if (!cell) return null;
    const g = this.ghostAt(cell);
    return g.legal ? g.entry : null;
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
    const grip = GRIP[hand.shape] ?? 0;
    const cur = this.ui.cursor || this.ui.hover;
    let idx = -1;
    if (cur) {
      const at = hex.anchorFor(hand.shape, cur, this.ui.rotation, grip);
      idx = list.findIndex((e) => placeKey(e.action.at, e.action.rotation) === placeKey(at, this.ui.rotation));
    }
    const next = list[(idx + 1) % list.length].action;
    this.ui.rotation = next.rotation;
    this.ui.cursor = hex.tileCells(hand.shape, next.at, next.rotation)[grip];
    this.ui.hover = null;
    this.ui.pending = null;
    // zoomed in, the next spot may lie outside the view: bring it into sight
    this.renderer.reveal(hex.tileCells(hand.shape, next.at, next.rotation));
    this.renderActionBar();
    this.renderOverlay();
  }

  pickPile(i) {
    if (!this.mine()) return;
    const options = this.ix.choose.get(i);
    if (!options) return;
    if (options.length === 1 && options[0].action.pay.length === 0) return this.send(options[0]);
    this.ui.pile = i;
    this.ui.pay = 0;
    this.renderAll();
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
    if (phase === "place") {
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
        const cell = hex.tileCells(shape, action.at, action.rotation)[GRIP[shape] ?? 0];
        return self.renderer.hexToClient(cell);
      },
      fit: () => self.renderer.fit(),
    };
  }
}
