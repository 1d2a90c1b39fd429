/**
 * Ishtar's screen module: what the shell imports for a room or a record of this game
 * (app/games.py names this file as the game's `client`). It builds the board and the side
 * panels in the places the shell gives, loads this game's stylesheet, and returns the
 * screen for the live game (game.js) or for the replay (replay.js). The interface is
 * docs/client.md's "The screen interface".
 */

import { esc } from "../../js/dom.js";
import { has, t } from "../../js/i18n.js";
import * as art from "./art.js";
import { GameScreen } from "./game.js";
import { ReplayScreen } from "./replay.js";
import { useCatalogue } from "./shapes.js";
import { drawVignette } from "./vignette.js";

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
  return art.pawnPicture(colour, size, size);
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
