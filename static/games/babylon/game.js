/**
 * Babylon Gardens' live screen: holds the latest view and legal actions and turns the
 * player's clicks, taps and keys into moves. A turn is built one step at a time: each
 * highlighted tile next to the path's end is an `irrigate` action, "End path and harvest" the
 * `harvest` action, "Undo step" the `undo` action, each sent exactly as the server listed it.
 * Hovering a legal tile shows what the step does (from its preview); hovering any other
 * square shows the engine's reason (`ctx.why`). Implements docs/client.md's "The screen
 * interface" with screen.js.
 */

import { COARSE } from "../../js/canvas.js";
import { el, esc } from "../../js/dom.js";
import { ofName } from "../../js/initials.js";
import { markIcon } from "../../js/marks.js";
import { picture } from "../../js/pictures.js";
import { around, travel } from "../../js/travel.js";
import * as paint from "./paint.js";
import { attachInput } from "./input.js";
import * as panels from "./panels.js";
import { BoardRenderer } from "./render.js";
import { scoreboardSvg } from "./scoreboard.js";
import { arrowTarget, atKey, indexLegal, pathEnd } from "./steps.js";
import { WhyCache, sentence } from "../../js/why.js";
import { colourName, harvestGlow, list, t, tileWords } from "./words.js";

const $ = (id) => document.getElementById(id);

// The room kept for the action bar over the board, the same at every step, so the board never
// moves as the bar grows or shrinks: the tallest bar of a turn (a path with its "End path and
// harvest" button and Undo), measured at 1400×900 and 390×844 in the three languages, is
// 93 px wide and 140 px on a phone (the buttons in two rows). Before, the board was fitted
// below the bar and moved down by 16-100 px at the first step of a path, under a second tap.
const BAR_ROOM = COARSE ? 144 : 100;
const WHY_DELAY_MS = 90;

/** How many winks from a full scoreboard the end is announced. */
const NEAR_FULL = 6;

export class GameScreen {
  constructor(ctx) {
    this.ctx = ctx;
    this.bar = ctx.bar;
    this.view = null;
    this.legal = [];
    this.ix = indexLegal([]);
    this.room = null;
    this.presence = null;
    this.version = null;
    this.catalogue = null;
    this.sending = false;
    this.hover = null; // [r, c] under the pointer (or picked by a key or a tap)
    this.why = new WhyCache(ctx.why, { delayMs: WHY_DELAY_MS, illegal: { key: "babylon.ui.tip.illegal" } });
    this.glowKey = null;
    this.renderer = new BoardRenderer($("board"));
    // the board is fitted once below the bar's room (BAR_ROOM), never below the bar itself
    this.renderer.setInsets(BAR_ROOM + 14);
    attachInput($("board"), this.renderer, {
      hover: (at) => this.onHover(at),
      tap: (at, ev) => this.onTap(at, ev),
    });
    this.onKeyDown = (ev) => this.onKey(ev);
    document.addEventListener("keydown", this.onKeyDown);
    ctx.catalogue.then(
      (c) => {
        this.catalogue = c;
        if (this.view) this.renderAll();
      },
      () => {},
    );
  }

  // ---- data in ----------------------------------------------------------------------------

  update({ view, legal, version, room, presence, event = null }) {
    const old = this.view;
    this.view = view;
    this.legal = legal || [];
    this.ix = indexLegal(this.legal);
    this.version = version;
    this.room = room;
    this.presence = presence;
    this.sending = false;
    this.renderer.setView(view);
    const glow = harvestGlow(view);
    const harvest = glow.key !== this.glowKey;
    if (harvest) {
      this.glowKey = glow.key;
      this.renderer.glow(glow.cells);
    }
    this.renderAll();
    const theirs = event && (view.viewer === null || view.viewer === undefined || event.seat !== view.viewer);
    if (theirs && harvest) this.travelWinks(view.harvested || []);
    if (theirs && old && event.action?.type === "irrigate") this.travelWater(pathEnd(old), event.action.at);
  }

  /** Another player's step: a water gem flows from the path's end (or the well) to the tile. */
  travelWater(from, to) {
    if (!from || !to) return;
    const size = this.renderer.cam.k * 100 * 0.3;
    const px = 28;
    const c = picture("water", px, px, (g) => paint.waterGem(g, px / 2, px / 2, px * 0.4));
    const [x0, y0] = this.renderer.tileToClient(from);
    const [x1, y1] = this.renderer.tileToClient(to);
    travel(c, around(x0, y0, size), around(x1, y1, size), { kind: "water" });
  }

  /**
   * Another player's harvest, travelling (js/travel.js; nothing under reduced motion): a wink
   * of each harvested tile's colour flies from the tile to its slot on their scoreboard.
   */
  travelWinks(harvested) {
    const size = this.renderer.cam.k * 100 * 0.5;
    harvested.forEach((h, i) => {
      const [x, y] = this.renderer.tileToClient(h.at);
      const px = 40;
      const c = picture(`wink ${h.colour}`, px, px, (g) => paint.wink(g, px / 2, px / 2, px * 0.42, h.colour));
      const slot = document.querySelector(`#bg-players [data-seat="${h.seat}"] .wink[data-slot="${h.slot}"]`);
      const to = (slot || document.querySelector(`#bg-players [data-seat="${h.seat}"]`))?.getBoundingClientRect();
      travel(c, around(x, y, size), to, { delay: 140 * i, kind: "wink" });
    });
  }

  /** The end announced before it comes: the game ends the moment a scoreboard is full
   * (R-11), so the fullest one is named once it is a few winks from full (a harvest can
   * bring several). */
  endNotice(view) {
    if (view.phase === "over" || view.phase === "scoreboard") return null;
    const slots = this.catalogue?.spiral?.length || 25;
    const fullest = [...(view.players || [])].sort((a, b) => (b.winks || []).length - (a.winks || []).length)[0];
    const n = (fullest?.winks || []).length;
    if (!fullest || slots - n > NEAR_FULL) return null;
    const mine = view.viewer === fullest.seat;
    return t("babylon.ui.end.near", { of_name: ofName(this.ctx.name(fullest.seat)), mine: mine ? "yes" : "no", n, slots, left: slots - n });
  }

  refresh({ room, presence }) {
    this.room = room;
    this.presence = presence;
    if (this.view) this.renderPanels();
  }

  moveFailed() {
    this.sending = false;
    this.renderAll();
  }

  destroy() {
    document.removeEventListener("keydown", this.onKeyDown);
    this.renderer.destroy();
  }

  // ---- helpers ----------------------------------------------------------------------------

  mine() {
    return this.ix.count > 0 && !this.sending;
  }

  send(entry) {
    if (!entry || this.sending) return;
    this.sending = true;
    // the square just stepped onto is on the path now: say nothing of it until the pointer
    // moves on (else its tip would turn to "already on the path" under the click)
    this.hover = null;
    this.tooltip(null);
    this.ctx.send(entry.action);
    this.renderAll();
  }

  // ---- rendering --------------------------------------------------------------------------

  renderAll() {
    if (!this.view) return;
    this.renderPanels();
    this.renderBar();
    this.renderChooser();
    this.renderOverlay();
  }

  renderPanels() {
    const connected = new Set(this.presence?.connected_seats || []);
    for (const seat of this.room?.seats || []) if (seat.bot) connected.add(seat.seat);
    const ui = {
      catalogue: this.catalogue,
      name: (seat) => this.ctx.name(seat),
      connected,
      seats: this.room?.seats || [],
      ghost: this.mine() ? this.ix.harvest?.preview?.winks || [] : [],
    };
    panels.renderPlayers($("bg-players"), this.view, ui);
    panels.renderGarden($("bg-garden"), $("bg-floor"), this.view, ui);
  }

  renderBar() {
    const v = this.view;
    const bar = this.bar;
    const hadFocus = bar.element.contains(document.activeElement);
    bar.begin();
    if (v.phase === "over") return bar.over(() => this.ctx.showScores());
    if (this.sending) return bar.sending();
    if (!this.mine()) {
      bar.begin("idle");
      const who = v.current !== null && v.current !== undefined ? this.ctx.name(v.current) : "";
      const spectator = v.viewer === null || v.viewer === undefined;
      const n = (v.path || []).length;
      const doing = v.phase === "scoreboard" ? "scoreboard" : n ? "path" : "start";
      return bar.say(t("babylon.ui.doing", { name: who, doing, n }), t(spectator ? "babylon.ui.watching" : "babylon.ui.waiting"));
    }
    bar.begin("mine");
    if (v.phase === "scoreboard") {
      return bar.say(t("babylon.ui.chooser"), t("babylon.ui.chooser.sub"));
    }
    const n = (v.path || []).length;
    const steps = this.ix.irrigateList.length;
    const how = COARSE ? "tap" : "click";
    if (!n) bar.say(t("babylon.ui.path.start"), t(`babylon.ui.path.start.${how}`, { keys: steps }));
    else if (steps) bar.say(t("babylon.ui.path", { n }), t(`babylon.ui.path.more.${how}`, { keys: steps }));
    else bar.say(t("babylon.ui.path", { n }), t("babylon.ui.path.end"));
    if (this.ix.harvest) bar.add(this.harvestButton(this.ix.harvest));
    if (this.ix.undo) {
      const b = bar.button(t("babylon.ui.undo"), () => this.send(this.ix.undo), "undo", { kbd: "U" });
      const at = this.ix.undo.preview?.at;
      b.title = at ? t("babylon.ui.undo.at", { row: at[0] + 1, column: at[1] + 1 }) : t("babylon.ui.undo.last");
      bar.add(b);
    }
    if (hadFocus) bar.element.querySelector(".btn.primary, .choice")?.focus({ preventScroll: true });
  }

  /** "End path and harvest", with what the harvest gives: winks, points, "ends the game". */
  harvestButton(entry) {
    const p = entry.preview || {};
    const label = el("span", "bg-harvest");
    label.append(el("span", "", esc(t("babylon.ui.harvest"))));
    const winks = p.winks || [];
    const what = el("span", "bg-harvest-what");
    if (winks.length) {
      const dots = el("span", "bg-wink-row");
      for (const w of winks) {
        const d = el("span", `bg-wink ${w.colour}`, markIcon(w.colour));
        d.title = t("babylon.ui.wink.slot", { colour: w.colour, slot: w.slot });
        dots.append(d);
      }
      what.append(dots, el("span", "", esc(t("babylon.ui.harvest.points", { n: p.points ?? 0 }))));
    } else {
      what.append(el("span", "", esc(t("babylon.ui.harvest.nothing"))));
    }
    if (p.ends) what.append(el("span", "bg-ends", esc(t("babylon.ui.harvest.ends"))));
    label.append(what);
    const b = this.bar.button(label, () => this.send(entry), "harvest", { kbd: t("babylon.ui.key.enter"), primary: true });
    const words = winks.length
      ? t("babylon.ui.harvest.words", {
        n: winks.length,
        colours: list(winks.map((w) => colourName(w.colour))),
        points: p.points ?? 0,
        ends: p.ends ? "yes" : "no",
      })
      : t("babylon.ui.harvest.none");
    b.title = t("babylon.ui.harvest.title", { words });
    b.setAttribute("aria-label", t("babylon.ui.harvest.label", { words }));
    return b;
  }

  /** Phase `scoreboard`: the sides one may take, each drawn as a small board, over the board. */
  renderChooser() {
    const box = $("bg-chooser");
    const sides = this.mine() && this.view.phase === "scoreboard" ? this.ix.sides : [];
    box.hidden = !sides.length;
    box.replaceChildren();
    if (!sides.length) return;
    box.append(el("h2", "", esc(t("babylon.ui.chooser"))));
    const grid = el("div", "bg-sides");
    sides.forEach((entry, i) => {
      const side = entry.action.side;
      const b = el("button", "bg-side");
      b.type = "button";
      b.dataset.act = `side-${side}`;
      if (this.catalogue) b.append(scoreboardSvg({ catalogue: this.catalogue, side, compact: true, label: t("babylon.ui.side", { side }) }));
      b.append(el("span", "", `${esc(side)}${i < 9 ? ` <kbd>${i + 1}</kbd>` : ""}`));
      const borders = this.catalogue?.sides?.[side]?.borders || [];
      const on = list(borders.map((x) => t("babylon.ui.border", { slot: x.slot, colour: x.colour })));
      b.title = t("babylon.ui.side.borders", { side, borders: on });
      b.addEventListener("click", () => this.send(entry));
      grid.append(b);
    });
    box.append(grid);
  }

  renderOverlay() {
    const v = this.view;
    const marks = [];
    if (this.mine() && v.phase === "irrigate") {
      this.ix.irrigateList.forEach((e, i) => {
        marks.push({ at: e.action.at, label: COARSE ? "" : String(i + 1), fills: !!e.preview?.fills });
      });
    }
    let hover = null;
    if (this.hover && this.mine() && v.phase === "irrigate") {
      hover = { at: this.hover, legal: this.ix.irrigate.has(atKey(this.hover)) };
    }
    this.renderer.setOverlay({ marks, hover });
    this.updateTooltip();
  }

  updateTooltip() {
    const at = this.hover;
    const v = this.view;
    if (!at) return this.tooltip(null);
    const onGrid = at[0] >= 0 && at[1] >= 0 && at[0] < v.floor.rows && at[1] < v.floor.cols;
    // a square off the grid (an arrow key past the edge): the tip stands by the path's end
    const [x, y] = this.renderer.tileToCanvas(onGrid ? at : pathEnd(v));
    const entry = this.ix.irrigate.get(atKey(at));
    if (this.mine() && v.phase === "irrigate") {
      if (entry) {
        const p = entry.preview || {};
        const text = t(p.fills ? "babylon.ui.tip.fills" : "babylon.ui.tip.water", { gems: p.gems, n: p.flowers, colour: p.colour || "none" });
        return this.tooltip(esc(text), x, y, "ok");
      }
      const reason = this.reasonFor(at);
      const text = reason ? sentence(reason) : t("babylon.ui.tip.checking");
      return this.tooltip(esc(text), x, y, "bad");
    }
    const tile = this.renderer.tileAt(at);
    if (tile) return this.tooltip(esc(tileWords(tile)), x, y, "");
    return this.tooltip(null);
  }

  tooltip(html, x, y, kind = "") {
    const tip = $("bg-tooltip");
    if (!html) {
      tip.hidden = true;
      return;
    }
    tip.innerHTML = html;
    tip.className = `tooltip ${kind}`;
    tip.hidden = false;
    const wrap = this.ctx.stage.getBoundingClientRect();
    const left = Math.min(Math.max(8, x + 24), wrap.width - tip.offsetWidth - 8);
    const top = Math.min(Math.max(8, y + 22), wrap.height - tip.offsetHeight - 8);
    tip.style.left = `${left}px`;
    tip.style.top = `${top}px`;
  }

  /**
   * The engine's reason a step onto `at` is illegal: asked once per version and square, and
   * only when the pointer rests there a moment (a sweep across the board asks nothing).
   */
  reasonFor(at) {
    const still = () => this.hover && atKey(this.hover) === atKey(at);
    return this.why.reason(this.version, atKey(at), { type: "irrigate", at }, {
      wanted: still,
      answered: () => still() && this.updateTooltip(),
    });
  }

  // ---- input ------------------------------------------------------------------------------

  onHover(at) {
    const same = (a, b) => (a && b ? a[0] === b[0] && a[1] === b[1] : a === b);
    if (same(at, this.hover)) return;
    this.hover = at;
    this.renderOverlay();
  }

  onTap(at) {
    const entry = this.ix.irrigate.get(atKey(at));
    if (this.mine() && entry) return this.send(entry);
    // not a step: say why (on a phone there is no hover to tell it)
    this.hover = at;
    this.renderOverlay();
  }

  onKey(ev) {
    if (!this.view || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const target = ev.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT" || target.isContentEditable)) return;
    if (target && target.tagName === "BUTTON" && (ev.key === "Enter" || ev.key === " ")) return; // the button acts
    if (!this.mine()) return;
    const k = ev.key;
    const v = this.view;
    if (v.phase === "scoreboard") {
      const i = Number(k) - 1;
      if (/^[1-9]$/.test(k) && this.ix.sides[i]) {
        ev.preventDefault();
        this.send(this.ix.sides[i]);
      }
      return;
    }
    if (v.phase !== "irrigate") return;
    if ((k === "u" || k === "U" || k === "Backspace") && this.ix.undo) {
      ev.preventDefault();
      return this.send(this.ix.undo);
    }
    if (k === "Enter" && this.ix.harvest) {
      ev.preventDefault();
      return this.send(this.ix.harvest);
    }
    if (/^[1-9]$/.test(k)) {
      const entry = this.ix.irrigateList[Number(k) - 1];
      if (entry) {
        ev.preventDefault();
        this.send(entry);
      }
      return;
    }
    const square = arrowTarget(v, k);
    if (square) {
      ev.preventDefault();
      const entry = this.ix.irrigate.get(atKey(square));
      if (entry) return this.send(entry);
      this.hover = square; // show the engine's reason there
      this.renderOverlay();
    }
  }

  // ---- test hook --------------------------------------------------------------------------

  get hook() {
    return {
      tileToClient: (at) => this.renderer.tileToClient(at),
      fit: () => this.renderer.fit(),
    };
  }
}
