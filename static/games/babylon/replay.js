/**
 * Babylon Gardens in replay mode: the board and the scoreboards at the move shown, nothing to
 * play. Stepping forward over a harvest lights the tiles it took.
 */

import * as panels from "./panels.js";
import { BoardRenderer } from "./render.js";
import { harvestGlow, tileWords } from "./words.js";
import { attachInput } from "./input.js";
import { esc } from "../../js/dom.js";

const $ = (id) => document.getElementById(id);

export class ReplayScreen {
  constructor(ctx) {
    this.ctx = ctx;
    this.view = null;
    this.room = null;
    this.catalogue = null;
    this.renderer = new BoardRenderer($("board"));
    // the replay's bar floats over the top of the stage, as the action bar does in a room
    this.renderer.followBar(ctx.stage.parentElement?.querySelector(".actionbar"));
    attachInput($("board"), this.renderer, { hover: (at) => this.onHover(at), tap: (at) => this.onHover(at) });
    ctx.catalogue.then(
      (c) => {
        this.catalogue = c;
        if (this.view) this.renderPanels();
      },
      () => {},
    );
  }

  update({ view, event = null, room }) {
    this.view = view;
    this.room = room;
    this.renderer.setView(view);
    if (event?.action?.type === "harvest") this.renderer.glow(harvestGlow(view).cells);
    this.renderPanels();
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
    const ui = { catalogue: this.catalogue, name: (seat) => this.ctx.name(seat), connected: new Set(), ghost: [] };
    panels.renderPlayers($("bg-players"), this.view, ui);
    panels.renderGarden($("bg-garden"), $("bg-floor"), this.view, ui);
  }

  onHover(at) {
    const tip = $("bg-tooltip");
    const tile = at && this.renderer.tileAt(at);
    if (!tile) {
      tip.hidden = true;
      return;
    }
    const [x, y] = this.renderer.tileToCanvas(at);
    tip.innerHTML = esc(tileWords(tile));
    tip.className = "tooltip";
    tip.hidden = false;
    tip.style.left = `${x + 24}px`;
    tip.style.top = `${y + 22}px`;
  }

  get hook() {
    return { tileToClient: (at) => this.renderer.tileToClient(at), fit: () => this.renderer.fit() };
  }
}
