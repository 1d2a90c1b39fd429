/**
 * Babylon Gardens' final scores table (the shell's dialog asks for it): per player the fill,
 * colour and line points (each line on its own row), the winks, the total; the team totals in
 * team mode; the winner and the tie-break sentence from the engine.
 */

import { playerColour } from "../../js/colours.js";
import { esc, playerName } from "../../js/dom.js";
import { tm } from "../../js/i18n.js";
import { lineName } from "./scoreboard.js";
import { list, t } from "./words.js";

const note = (key) => ` <span class="muted small">${esc(t(key))}</span>`;

export function renderScores(table, winnerBox, tieBox, view, room) {
  const s = view.scores;
  const players = s.players || [];
  const winners = new Set(s.winners || []);
  const colour = (seat) => playerColour((view.players || []).find((p) => p.seat === seat)?.colour);
  const cell = (v, cls = "") => `<td${cls ? ` class="${cls}"` : ""}>${esc(v ?? 0)}</td>`;
  let html = "<thead><tr><th></th>";
  for (const p of players) {
    html += `<th scope="col"><span class="swatch" data-colour="${esc(colour(p.seat))}"></span>${esc(playerName(room, p.seat))}${winners.has(p.seat) ? " ★" : ""}</th>`;
  }
  html += "</tr></thead><tbody>";
  const row = (label, get, cls = "") => {
    html += `<tr class="${cls}"><th scope="row">${label}</th>${players.map((p) => cell(get(p))).join("")}</tr>`;
  };
  row(esc(t("babylon.ui.score.fill")) + note("babylon.ui.score.fill.note"), (p) => p.categories?.fill);
  row(esc(t("babylon.ui.score.colour")) + note("babylon.ui.score.colour.note"), (p) => p.categories?.colour);
  row(esc(t("babylon.ui.score.lines")), (p) => p.categories?.lines);
  const lines = [];
  for (const p of players) for (const d of p.score?.lines_detail || []) if (!lines.includes(d.line)) lines.push(d.line);
  for (const line of lines) {
    row(`<span class="bg-subrow">${esc(lineName(line))}</span>`, (p) => (p.score?.lines_detail || []).find((d) => d.line === line)?.points, "bg-line-row");
  }
  row(esc(t("babylon.ui.score.winks")), (p) => p.winks);
  html += `<tr class="total"><th scope="row">${esc(t("babylon.ui.score.total"))}</th>${players.map((p) => cell(p.total, winners.has(p.seat) ? "win" : "")).join("")}</tr>`;
  for (const team of s.teams || []) {
    const names = team.seats.map((seat) => playerName(room, seat)).join(" + ");
    html += `<tr class="bg-team"><th scope="row">${esc(t("babylon.ui.score.team", { names }))}</th><td colspan="${players.length}">${esc(t("babylon.ui.score.team.total", { points: team.total, winks: team.winks }))}</td></tr>`;
  }
  html += "</tbody>";
  table.innerHTML = html;
  const names = [...winners].map((w) => playerName(room, w));
  const best = players.find((p) => winners.has(p.seat));
  if (s.teams && names.length === 2) winnerBox.textContent = t("babylon.ui.score.team.win", { names: list(names) });
  else if (names.length > 1) winnerBox.textContent = t("babylon.ui.score.shared", { names: list(names), n: best?.total ?? 0 });
  else winnerBox.textContent = names.length ? t("babylon.ui.score.winner", { name: names[0], n: best?.total ?? 0 }) : "";
  // the engine's sentence: its message when it sends one, else its English text
  const tiebreak = tm(s.tiebreak_message, s.tiebreak || "");
  tieBox.textContent = tiebreak;
  tieBox.hidden = !tiebreak;
}
