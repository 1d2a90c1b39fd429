/**
 * Ishtar in replay mode: the board and the panels at the move shown, nothing to play (zoom
 * and pan only). Stepping forward over a move lights the cells it changed.
 */

import { attachInput } from "./input.js";
import * as panels from "./panels.js";
import { BoardRenderer } from "./render.js";
import { indexLegal } from "./turn.js";

const $ = (id) => document.getElementById(id);

const NOTHING_LEGAL = indexLegal([]);

/** The cells a move changed, to light them up when stepping forward. */
function touched(event, view) {
  const a = event?.action || {};
  if (a.type === "place" && view.tiles?.length) return view.tiles[view.tiles.length - 1].cells;
  if (a.type === "plant") return [a.at];
  if (a.type === "bloom") return a.cells;
  return [];
}

/** The board and panels of a replay: nothing to play, zoom and pan only. */
export class ReplayScreen {
  constructor(ctx) {
    this.view = null;
    this.room = null;
    this.catalogue = null;
    this.renderer = new BoardRenderer($("board"));
    attachInput($("board"), this.renderer, { hover: () => {}, tap: () => {}, rotate: () => {}, wheelRotates: () => false });
    $("zoom-in").addEventListener("click", () => this.zoom(1.25));
    $("zoom-out").addEventListener("click", () => this.zoom(0.8));
    $("zoom-fit").addEventListener("click", () => this.renderer.fit());
    document.addEventListener("keydown", (ev) => this.onKey(ev));
    // The replay's bar floats over the top of the stage: the board is fitted below it.
    this.renderer.followBar(ctx.stage.parentElement?.querySelector(".actionbar"));
    ctx.catalogue.then((c) => {
      this.catalogue = c;
      if (this.view) this.renderPanels();
    }, () => {});
  }

  /** The board after a move; `event` is the move just stepped over (forward only). */
  update({ view, event = null, room }) {
    this.view = view;
    this.room = room;
    this.renderer.setView(view);
    this.renderPanels();
    if (event) this.renderer.highlight(touched(event, view));
  }

  refresh({ room }) {
    this.room = room;
    if (this.view) this.renderPanels();
  }

  moveFailed() {}

  destroy() {
    this.renderer.destroy();
  }

  renderPanels() {
    const ui = {
      ix: NOTHING_LEGAL,
      room: this.room,
      catalogue: this.catalogue,
      presence: { connected_seats: [], spectators: 0 },
      selectedPile: null,
      selectedCard: null,
      selectedSkill: null,
      onPile: () => {},
      onCard: () => {},
      onSkill: () => {},
    };
    panels.renderCarpet($("carpet"), this.view, ui);
    panels.renderMarket($("market"), $("deck"), this.view, ui);
    panels.renderPlayers($("players"), this.view, ui);
  }

  zoom(f) {
    const { w, h } = this.renderer.size;
    this.renderer.zoomAt(w / 2, h / 2, f);
  }

  onKey(ev) {
    if (!this.view || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const target = ev.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.isContentEditable)) return;
    const act = { "+": () => this.zoom(1.25), "-": () => this.zoom(0.8), 0: () => this.renderer.fit() }[ev.key];
    if (act) {
      ev.preventDefault();
      act();
    }
  }

  get hook() {
    return { hexToClient: (cell) => this.renderer.hexToClient(cell), fit: () => this.renderer.fit() };
  }
}
