/**
 * The action bar of Ishtar's game screen (game.js): what to do at each step of the turn and
 * the buttons for it (a pile and its payment, the tile in hand with "Place here", Rotate and
 * "Next spot", the skills and the assistant, the blooming tokens, the tree cards to reserve or
 * plant, Undo). Every button is one of the legal actions the server sent.
 */

import { COARSE } from "../../js/canvas.js";
import { el, esc } from "../../js/dom.js";
import * as art from "./art.js";
import { editionCatalogue } from "./edition.js";
import { cardButton, tileCard, tokenCard } from "./tilecard.js";
import * as tips from "./tips.js";
import { tm } from "../../js/i18n.js";
import { skillName, skillText, t, tileWords, tokenWords, treeName } from "./words.js";

const $ = (id) => document.getElementById(id);

/** Methods of GameScreen (game.js), mixed into its prototype. */
export const actionBar = {
  /**
   * "Place here": on touch always in the bar of a board step (greyed until a spot is
   * tapped), so the bar does not grow under the finger; elsewhere only once a spot is chosen.
   */
  placeHere(onClick, ready) {
    if (!ready && !COARSE) return null;
    const b = this.button(t("ishtar.ui.place.here"), onClick, "place-here", { kbd: t("ishtar.ui.key.enter"), primary: true });
    b.disabled = !ready;
    return b;
  },

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
  },

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
  },

  /** Take back the last step of this turn (offered by the server while nothing was revealed). */
  undoButton() {
    const b = this.button(t("ishtar.ui.undo"), () => this.send(this.ix.undo), "undo", { kbd: "U" });
    const preview = this.ix.undo.preview || {};
    // the engine's own line for the step (its message, else its English text)
    const what = tm(preview.message, preview.text || "");
    b.title = what ? t("ishtar.ui.undo.what", { what }) : t("ishtar.ui.undo.last");
    return b;
  },

  /**
   * The tile in hand (or about to be taken) in the action bar: drawn large enough to read,
   * and its card (tips.js) on hover or tap with every space in words.
   */
  handTile(tile, rotation, title) {
    const box = el("span", "hand-tile");
    box.tabIndex = 0;
    box.dataset.act = "hand";
    const big = COARSE ? [72, 56] : [92, 68];
    box.append(art.tilePicture(tile, tile.shape, big[0], big[1], rotation));
    box.setAttribute("aria-label", t("ishtar.ui.hand.label", { title, tile: tileWords(tile) }));
    tips.tip(box, () => tileCard({ tile, shape: tile.shape, title, rotation }));
    return box;
  },

  button(label, onClick, act, options) {
    return this.bar.button(label, onClick, act, options);
  },

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
  },

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
  },

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
  },

  barBloom(say, choices) {
    if (!this.ui.token) {
      say(t("ishtar.ui.bloom"), t("ishtar.ui.bloom.sub"));
      [...this.ix.bloom.keys()].forEach((token, i) => {
        const b = this.button(art.tokenPicture(token, 26), () => this.pickToken(token), `token-${token}`, { kbd: String(i + 1) });
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
  },

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
  },

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
  },

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
  },

  cardInfo(id) {
    const inMarket = this.view.market.find((m) => m.card === id);
    if (inMarket) return inMarket;
    return (editionCatalogue(this.catalogue, this.view)?.tree_cards || []).find((c) => c.card === id) || null;
  },

  skillText(letter) {
    const s = (editionCatalogue(this.catalogue, this.view)?.skills || []).find((x) => x.skill === letter);
    return skillText(letter, s ? s.text : "", s ? s.params : {});
  },

  /**
   * The space of the view with the icon of the tile just placed (the special step's), or
   * null: the bar names its icon. Where an assistant would stand is the server's word (the
   * assistant's preview, `at`).
   */
  iconSpace() {
    const tiles = this.view.tiles || [];
    const last = tiles[tiles.length - 1];
    if (!last) return null;
    return (this.view.spaces || []).find((s) => s.tile === last.tile && s.icon) || null;
  },
};
