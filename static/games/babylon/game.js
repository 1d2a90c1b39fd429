/**
 * Babylon Gardens' live screen: holds the latest view and legal actions and turns the
 * player's clicks, taps and keys into moves. A turn is built one step at a time: each
 * highlighted tile next to the path's end is an `irrigate` action, "End path and harvest" the
 * `harvest` action, "Undo step" the `undo` action, each sent exactly as the server listed it.
 * Hovering a legal tile shows what the step does (from its preview); hovering any other
 * square shows the engine's reason (`ctx.why`). Implements docs/client.md's "The screen
 * interface" with screen.js.
 */

import { el, esc } from "../../js/dom.js";
import { attachInput } from "./input.js";
import * as panels from "./panels.js";
import { BoardRenderer } from "./render.js";
import { scoreboardSvg } from "./scoreboard.js";
import { arrowTarget, atKey, indexLegal, pathEnd } from "./steps.js";
import { harvestGlow, tileWords } from "./words.js";

const $ = (id) => document.getElementById(id);
const COARSE = window.matchMedia?.("(pointer: coarse)").matches;
const WHY_DELAY_MS = 90;

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
    this.why = new Map(); // "version|r,c" -> reason | true (asked)
    this.glowKey = null;
    this.renderer = new BoardRenderer($("board"));
    this.renderer.followBar(this.bar.element);
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

  update({ view, legal, version, room, presence }) {
    this.view = view;
    this.legal = legal || [];
    this.ix = indexLegal(this.legal);
    this.version = version;
    this.room = room;
    this.presence = presence;
    this.sending = false;
    this.renderer.setView(view);
    const glow = harvestGlow(view);
    if (glow.key !== this.glowKey) {
      this.glowKey = glow.key;
      this.renderer.glow(glow.cells);
    }
    this.renderAll();
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
      const doing = v.phase === "scoreboard"
        ? "is choosing a scoreboard"
        : n ? `is watering a path of ${n} tile${n === 1 ? "" : "s"}` : "is starting a path";
      return bar.say(`${who} ${doing}`, spectator ? "You are watching this game." : "Waiting for their move.");
    }
    bar.begin("mine");
    if (v.phase === "scoreboard") {
      return bar.say("Choose your scoreboard", "Pick a side of a board nobody holds; its coloured borders score 5 per matching wink.");
    }
    const n = (v.path || []).length;
    const keys = this.ix.irrigateList.length > 1 ? `1–${this.ix.irrigateList.length}` : "1";
    const how = COARSE ? "Tap a highlighted tile to water it." : `Click a highlighted tile, or press an arrow key or ${keys}.`;
    if (!n) bar.say("Start your path at the well", `${how} Each step puts a water gem on the tile.`);
    else if (this.ix.irrigateList.length) bar.say(`Your path: ${n} tile${n === 1 ? "" : "s"}`, `${how} A tile with as many gems as flowers is harvested when the path ends.`);
    else bar.say(`Your path: ${n} tile${n === 1 ? "" : "s"}`, "The path cannot go further: end it to harvest.");
    if (this.ix.harvest) bar.add(this.harvestButton(this.ix.harvest));
    if (this.ix.undo) {
      const b = bar.button("↶ Undo step", () => this.send(this.ix.undo), "undo", { kbd: "U" });
      const at = this.ix.undo.preview?.at;
      b.title = at ? `Take back the step onto row ${at[0] + 1}, column ${at[1] + 1}` : "Take back the last step";
      bar.add(b);
    }
    if (hadFocus) bar.element.querySelector(".btn.primary, .choice")?.focus({ preventScroll: true });
  }

  /** "End path and harvest", with what the harvest gives: winks, points, "ends the game". */
  harvestButton(entry) {
    const p = entry.preview || {};
    const label = el("span", "bg-harvest");
    label.append(el("span", "", "End path and harvest"));
    const winks = p.winks || [];
    const what = el("span", "bg-harvest-what");
    if (winks.length) {
      const dots = el("span", "bg-wink-row");
      for (const w of winks) {
        const d = el("span", `bg-wink ${w.colour}`);
        d.title = `${w.colour} wink in slot ${w.slot}`;
        dots.append(d);
      }
      what.append(dots, el("span", "", `+${p.points ?? 0} pts`));
    } else {
      what.append(el("span", "", "nothing filled"));
    }
    if (p.ends) what.append(el("span", "bg-ends", "ends the game"));
    label.append(what);
    const b = this.bar.button(label, () => this.send(entry), "harvest", { kbd: "Enter", primary: true });
    const words = winks.length
      ? `${winks.length} wink${winks.length === 1 ? "" : "s"} (${winks.map((w) => w.colour).join(", ")}), ${p.points ?? 0} points${p.ends ? "; this ends the game" : ""}`
      : "no tile is filled: no harvest";
    b.title = `End the path: ${words}`;
    b.setAttribute("aria-label", `End path and harvest: ${words}`);
    return b;
  }

  /** Phase `scoreboard`: the sides one may take, each drawn as a small board, over the board. */
  renderChooser() {
    const box = $("bg-chooser");
    const sides = this.mine() && this.view.phase === "scoreboard" ? this.ix.sides : [];
    box.hidden = !sides.length;
    box.replaceChildren();
    if (!sides.length) return;
    box.append(el("h2", "", "Choose your scoreboard"));
    const grid = el("div", "bg-sides");
    sides.forEach((entry, i) => {
      const side = entry.action.side;
      const b = el("button", "bg-side");
      b.type = "button";
      b.dataset.act = `side-${side}`;
      if (this.catalogue) b.append(scoreboardSvg({ catalogue: this.catalogue, side, compact: true, label: `Side ${side}` }));
      b.append(el("span", "", `${esc(side)}${i < 9 ? ` <kbd>${i + 1}</kbd>` : ""}`));
      const borders = this.catalogue?.sides?.[side]?.borders || [];
      b.title = `Side ${side}: borders on ${borders.map((x) => `${x.slot} ${x.colour}`).join(", ")}`;
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
        const text = `Water it: ${p.gems}/${p.flowers} gems${p.fills ? " · fills — a " + esc(p.colour || "") + " wink at the harvest" : ""}`;
        return this.tooltip(text, x, y, "ok");
      }
      const reason = this.reasonFor(at);
      const text = reason ? reason.charAt(0).toUpperCase() + reason.slice(1) : "Checking…";
      return this.tooltip(esc(text), x, y, "bad");
    }
    const t = this.renderer.tileAt(at);
    if (t) return this.tooltip(esc(tileWords(t)), x, y, "");
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
    const k = `${this.version}|${atKey(at)}`;
    const known = this.why.get(k);
    if (typeof known === "string") return known;
    if (known) return null;
    clearTimeout(this.whyTimer);
    this.whyTimer = setTimeout(() => {
      if (this.why.has(k) || !this.hover || atKey(this.hover) !== atKey(at)) return;
      if (this.why.size > 200) this.why.clear(); // one game's worth; never grows without bound
      this.why.set(k, true);
      const settle = (reason) => {
        this.why.set(k, reason || "Not a step you can take now.");
        if (this.hover && atKey(this.hover) === atKey(at)) this.updateTooltip();
      };
      this.ctx.why({ type: "irrigate", at }).then(settle, () => settle(null));
    }, WHY_DELAY_MS);
    return null;
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
    const target = arrowTarget(v, k);
    if (target) {
      ev.preventDefault();
      const entry = this.ix.irrigate.get(atKey(target));
      if (entry) return this.send(entry);
      this.hover = target; // show the engine's reason there
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
