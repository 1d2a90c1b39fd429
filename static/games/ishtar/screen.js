/**
 * Ishtar's screen module: what the shell imports for a room or a record of this game
 * (app/games.py names this file as the game's `client`). It builds the board and the side
 * panels in the places the shell gives, loads this game's stylesheet, and returns the
 * screen for the live game (game.js) or for the replay (below). The interface is
 * docs/client.md's "The screen interface".
 */

import { esc } from "../../js/dom.js";
import { has, t } from "../../js/i18n.js";
import { attachInput } from "./input.js";
import * as art from "./art.js";
import { GameScreen } from "./game.js";
import * as panels from "./panels.js";
import { BoardRenderer } from "./render.js";
import { useCatalogue } from "./shapes.js";
import { indexLegal } from "./turn.js";
import { drawVignette } from "./vignette.js";

const $ = (id) => document.getElementById(id);

const attr = (key) => esc(t(key));

const ZOOM_TOOLS = () => `
  <button class="tool" type="button" id="zoom-in" title="${attr("ishtar.ui.zoom.in")}">+</button>
  <button class="tool" type="button" id="zoom-out" title="${attr("ishtar.ui.zoom.out")}">−</button>
  <button class="tool" type="button" id="zoom-fit" title="${attr("ishtar.ui.zoom.fit")}">⤢</button>`;

const PLAY_STAGE = () => `
<canvas id="board" tabindex="0" aria-label="${attr("ishtar.ui.board.play")}"></canvas>
<div class="tooltip" id="tooltip" role="status" hidden></div>
<div class="board-tools" role="toolbar" aria-label="${attr("ishtar.ui.board.tools")}">
  <button class="tool" type="button" id="rotate-btn" title="${attr("ishtar.ui.rotate.title")}" hidden>⟳</button>${ZOOM_TOOLS()}
</div>`;

const REPLAY_STAGE = () => `
<canvas id="board" tabindex="0" aria-label="${attr("ishtar.ui.board.replay")}"></canvas>
<div class="board-tools" role="toolbar" aria-label="${attr("ishtar.ui.board.tools")}">${ZOOM_TOOLS()}
</div>`;

// The viewer's own panel (a seated player), the carpet, the tree market and the other
// gardeners: drawn by panels.js, live and in replay. The own panel comes first so that one's
// gems, assistants and skills are in sight while choosing a tile.
const PANELS = () => `
<section class="panel me-panel" id="me-panel" hidden>
  <h2>${attr("ishtar.ui.panel.me")}</h2>
  <div class="players" id="me"></div>
</section>
<section class="panel carpet-panel">
  <h2>${attr("ishtar.ui.panel.carpet")}</h2>
  <div class="carpet" id="carpet"></div>
</section>
<section class="panel">
  <h2>${attr("ishtar.ui.panel.market")} <span class="muted small" id="deck"></span></h2>
  <div class="market" id="market"></div>
</section>
<section class="panel">
  <h2 id="players-title">${attr("ishtar.ui.panel.gardeners")}</h2>
  <div class="players" id="players"></div>
</section>`;

let styled = null;

/** This game's stylesheet, next to this module (so under the same version prefix). */
function stylesheet() {
  if (!styled) {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = new URL("./ishtar.css", import.meta.url).href;
    styled = new Promise((resolve) => {
      link.addEventListener("load", resolve);
      link.addEventListener("error", resolve); // the board still works, unstyled panels
    });
    document.head.append(link);
  }
  return styled;
}

/** The screen of this game in `ctx.stage` and `ctx.panels` (docs/client.md). */
export async function mount(ctx) {
  // the tiles' shapes are the catalogue's: it is read before anything is drawn
  await Promise.all([stylesheet(), ctx.catalogue.then(useCatalogue, () => useCatalogue(null))]);
  const replay = ctx.mode === "replay";
  ctx.stage.innerHTML = replay ? REPLAY_STAGE() : PLAY_STAGE();
  ctx.panels.innerHTML = PANELS();
  return replay ? new ReplayScreen(ctx) : new GameScreen(ctx);
}

/** A seat's piece in the lobby: a gardener pawn of its colour. */
export function seatIcon(colour, size) {
  return art.pawnCanvas(colour, size, size);
}

/** The room's options in the lobby's words: "classic layout" or "random layout", and the
 * edition of the components when the room names one ("random layout · edition 2"). */
export function describeOptions(options) {
  const layout = t(options.layout === "random" ? "ishtar.ui.layout.random" : "ishtar.ui.layout.classic");
  if (!options.edition) return layout;
  // the edition in the form's words ("Recommended (balanced)"), else its name
  const named = `ishtar.ui.option.edition.${options.edition}`;
  return `${layout} · ${has(named) ? t(named) : t("ishtar.ui.edition", { name: options.edition })}`;
}

/** The little garden of the home page. */
export function vignette(canvas) {
  drawVignette(canvas);
}

/** The rules page's sections and pictures (static/js/rules.js). */
export async function rules() {
  const { SECTIONS } = await import("./rules.js");
  return { sections: SECTIONS };
}

// ---- the replay -------------------------------------------------------------------------

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
class ReplayScreen {
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
