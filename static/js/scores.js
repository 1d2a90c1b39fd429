/**
 * The final scores dialog of the room page (templates/_game.html): opened once when the game
 * ends, closed to look at the board and opened again from its button. The room's game may
 * draw the table itself (`screen.renderScores`); else the table lists each scoring category
 * of `view.scores` (docs/contract.md, "Scores") and the totals.
 */

import { playerColour } from "./colours.js";
import { esc, playerName } from "./dom.js";
import { wordsOf } from "./games.js";
import { has, list, number, t, tm } from "./i18n.js";

const $ = (id) => document.getElementById(id);

export class ScoresDialog {
  constructor() {
    $("scores-close").addEventListener("click", () => this.close());
    $("scores-open").addEventListener("click", () => this.open());
  }

  /** Draw the scores of `view` and open the dialog (nothing before the game has scores). */
  show(view, room, screen) {
    if (!view?.scores) return;
    const boxes = [$("score-table"), $("winner"), $("tiebreak")];
    if (screen?.renderScores) screen.renderScores(...boxes, view, room);
    else renderScores(...boxes, view, room);
    // colours go through the CSSOM: the page's CSP forbids style attributes in markup
    for (const sw of document.querySelectorAll("#score-table .swatch")) sw.style.background = sw.dataset.colour;
    this.open();
  }

  open() {
    $("scores").hidden = false;
    $("scores-open").hidden = true;
  }

  close() {
    $("scores").hidden = true;
    $("scores-open").hidden = false;
  }
}

/** A table of any game's scores: one row per category, then the total; winners starred. */
export function renderScores(table, winnerBox, tieBox, view, room) {
  const s = view.scores;
  const players = s.players || [];
  const cats = [];
  for (const p of players) for (const k of Object.keys(p.categories || {})) if (!cats.includes(k)) cats.push(k);
  const colour = (seat) => playerColour((view.players || []).find((p) => p.seat === seat)?.colour);
  const winners = new Set(s.winners || []);
  let html = "<thead><tr><th></th>";
  for (const p of players) {
    html += `<th scope="col"><span class="swatch" data-colour="${esc(colour(p.seat))}"></span>${esc(playerName(room, p.seat))}${winners.has(p.seat) ? " ★" : ""}</th>`;
  }
  html += "</tr></thead><tbody>";
  // a category's name: the game's word for it (`<game>.ui.score.<category>`), else its own
  const game = room?.game || view.game || "";
  const words = wordsOf(game);
  const category = (k) => (has(`${words}.ui.score.${k}`) ? t(`${words}.ui.score.${k}`) : k.replace(/_/g, " "));
  for (const k of cats) {
    html += `<tr><th scope="row">${esc(category(k))}</th>`;
    for (const p of players) html += `<td>${esc(number(p.categories?.[k] ?? 0))}</td>`;
    html += "</tr>";
  }
  html += `<tr class="total"><th scope="row">${esc(t("scores.total"))}</th>${players
    .map((p) => `<td class="${winners.has(p.seat) ? "win" : ""}">${esc(number(p.total))}</td>`)
    .join("")}</tr></tbody>`;
  table.innerHTML = html;
  const names = [...winners].map((w) => playerName(room, w));
  const best = players.find((p) => winners.has(p.seat));
  winnerBox.textContent = names.length
    ? t("scores.winner", { names: list(names), count: names.length, points: best?.total ?? 0 })
    : "";
  // the engine's sentence: its message in the page's language when it sends one (seats as
  // the players' names), else its English text (an engine without messages, an old view)
  const tiebreak = tm(s.tiebreak_message, s.tiebreak || "");
  tieBox.textContent = tiebreak;
  tieBox.hidden = !tiebreak;
}
