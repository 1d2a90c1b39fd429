/**
 * Babylon Gardens' final scores table (the shell's dialog asks for it): per player the fill,
 * colour and line points (each line on its own row), the winks, the total; the team totals in
 * team mode; the winner and the tie-break sentence from the engine.
 */

import { playerColour } from "../../js/colours.js";
import { esc, playerName } from "../../js/dom.js";
import { lineName } from "./scoreboard.js";

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
  row("Fill <span class=\"muted small\">1 per wink</span>", (p) => p.categories?.fill);
  row("Colour <span class=\"muted small\">5 per border matched</span>", (p) => p.categories?.colour);
  row("Lines", (p) => p.categories?.lines);
  const lines = [];
  for (const p of players) for (const d of p.score?.lines_detail || []) if (!lines.includes(d.line)) lines.push(d.line);
  for (const line of lines) {
    row(`<span class="bg-subrow">${esc(lineName(line))}</span>`, (p) => (p.score?.lines_detail || []).find((d) => d.line === line)?.points, "bg-line-row");
  }
  row("Winks", (p) => p.winks);
  html += `<tr class="total"><th scope="row">Total</th>${players.map((p) => cell(p.total, winners.has(p.seat) ? "win" : "")).join("")}</tr>`;
  for (const team of s.teams || []) {
    const names = team.seats.map((seat) => playerName(room, seat)).join(" + ");
    html += `<tr class="bg-team"><th scope="row">Team ${esc(names)}</th><td colspan="${players.length}">${esc(team.total)} points · ${esc(team.winks)} winks</td></tr>`;
  }
  html += "</tbody>";
  table.innerHTML = html;
  const names = [...winners].map((w) => playerName(room, w));
  const best = players.find((p) => winners.has(p.seat));
  if (s.teams && names.length === 2) winnerBox.textContent = `${names.join(" and ")} win as a team`;
  else if (names.length > 1) winnerBox.textContent = `${names.join(" and ")} share the victory with ${best?.total} points`;
  else winnerBox.textContent = names.length ? `${names[0]} wins with ${best?.total} points` : "";
  tieBox.textContent = s.tiebreak || "";
  tieBox.hidden = !s.tiebreak;
}
