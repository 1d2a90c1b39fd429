/**
 * Babylon Gardens' screen module: what the shell imports for a room or a record of this game
 * (the game's descriptor names this file as its `client`). It loads this game's stylesheet,
 * builds the board in `ctx.stage` and the scoreboards and the garden in `ctx.panels`, and
 * returns the live screen (game.js) or the replay screen (replay.js). The interface is
 * docs/client.md's "The screen interface"; this game's part is its section "Babylon
 * Gardens' screen".
 */

import { picture } from "../../js/pictures.js";
import { esc } from "../../js/dom.js";
import { t } from "../../js/i18n.js";
import { GameScreen } from "./game.js";
import * as paint from "./paint.js";
import { PANELS } from "./panels.js";
import { ReplayScreen } from "./replay.js";
import { renderScores as drawScores } from "./scores.js";
import { drawVignette } from "./vignette.js";
import { describeOptions as words } from "./words.js";

const STAGE = (label) => `
<canvas id="board" class="bg-board" tabindex="0" aria-label="${label}"></canvas>
<div class="tooltip" id="bg-tooltip" role="status" hidden></div>
<div class="bg-chooser" id="bg-chooser" hidden></div>`;

let styled = null;

/** This game's stylesheet, next to this module (so under the same version prefix). */
function stylesheet() {
  if (!styled) {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = new URL("./babylon.css", import.meta.url).href;
    styled = new Promise((resolve) => {
      link.addEventListener("load", resolve);
      link.addEventListener("error", resolve); // the board still draws, with plain panels
    });
    document.head.append(link);
  }
  return styled;
}

/** The screen of this game in `ctx.stage` and `ctx.panels` (docs/client.md). */
export async function mount(ctx) {
  await stylesheet();
  const replay = ctx.mode === "replay";
  ctx.stage.innerHTML = STAGE(esc(t(replay ? "babylon.ui.board.replay" : "babylon.ui.board.play")));
  ctx.panels.innerHTML = PANELS();
  const screen = replay ? new ReplayScreen(ctx) : new GameScreen(ctx);
  screen.renderScores = (table, winner, tiebreak, view, room) => drawScores(table, winner, tiebreak, view, room);
  return screen;
}

/** A seat's mark in the lobby: a glossy wink of the seat's colour. */
export function seatIcon(colour, size) {
  const draw = (g) => paint.wink(g, size / 2 - size * 0.03, size / 2 - size * 0.04, size * 0.4, colour);
  return picture(`seat ${colour}`, size, size, draw, "bg-seat-icon");
}

/** The room's options in the lobby's words: "Lower Garden · random scoreboards · teams". */
export function describeOptions(options) {
  return words(options);
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
