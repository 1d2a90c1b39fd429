/**
 * Babylon Gardens' side panels, drawn from a view and the catalogue: each player's
 * scoreboard (name and seat colour, side, winks, lines and their points, the running total),
 * and the garden (the floor, the piles' sizes, the discard piles face up, the first-player
 * draws). Only draws; the scoreboard chooser's clicks are reported to `onSide`.
 */

import { playerColour } from "../../js/colours.js";
import { el, esc } from "../../js/dom.js";
import { NECTAR } from "./paint.js";
import { lineName, scoreboardSvg } from "./scoreboard.js";

export const PANELS = `
<section class="panel bg-players-panel">
  <h2>Scoreboards</h2>
  <div class="bg-players" id="bg-players"></div>
</section>
<section class="panel bg-garden-panel">
  <h2>Garden <span class="muted small" id="bg-floor"></span></h2>
  <div class="bg-garden" id="bg-garden"></div>
</section>`;

/** A tile id's colour and flowers: from the catalogue, else read from the id ("M-p5-1"). */
export function tileInfo(id, catalogue) {
  const known = catalogue?.tiles?.[id];
  if (known) return known;
  const m = /^([SM])-([rgyp])(\d)/.exec(id || "");
  if (!m) return { kind: "single", colour: null, flowers: 1 };
  const colour = { r: "red", g: "green", y: "yellow", p: "purple" }[m[2]];
  return { kind: m[1] === "S" ? "single" : "multi", colour, flowers: m[1] === "S" ? 1 : Number(m[3]) };
}

/** A small chip for a tile: its colour and its flower count. */
export function tileChip(id, catalogue) {
  const t = tileInfo(id, catalogue);
  const chip = el("span", `bg-chip ${t.colour || ""}`);
  chip.dataset.tile = id;
  chip.append(el("span", "bg-chip-dot"), el("span", "", `${t.flowers}`));
  chip.title = `${t.colour || "?"} tile, ${t.flowers} flower${t.flowers === 1 ? "" : "s"} (${id})`;
  chip.querySelector(".bg-chip-dot").style.background = NECTAR[t.colour]?.fill || "#999";
  return chip;
}

/** The seat's round mark in its colour (blue, orange, white, black). */
export function seatMark(colour) {
  const m = el("span", `bg-seat ${colour || ""}`);
  m.style.background = playerColour(colour);
  return m;
}

/**
 * The players' scoreboards. `ui`: {catalogue, name(seat), connected: Set, ghost: [{colour,
 * slot}] (the viewer's harvest preview), teams}.
 */
export function renderPlayers(box, view, ui) {
  box.replaceChildren();
  const cat = ui.catalogue;
  const finals = view.scores ? new Map(view.scores.players.map((p) => [p.seat, p])) : null;
  const winners = new Set(view.scores?.winners || []);
  for (const p of view.players || []) {
    const mine = view.viewer === p.seat;
    const current = view.current === p.seat && view.phase !== "over";
    const art = el("article", `bg-player${current ? " current" : ""}${mine ? " mine" : ""}`);
    art.dataset.seat = String(p.seat);
    art.style.setProperty("--pc", playerColour(p.colour));
    const head = el("header");
    const dot = el("span", `dot${ui.connected?.has(p.seat) ? " on" : ""}`);
    dot.title = ui.connected?.has(p.seat) ? "connected" : "not connected";
    const name = el("span", "pname", esc(ui.name(p.seat)) + (mine ? ' <span class="muted small">(you)</span>' : ""));
    head.append(seatMark(p.colour), name, dot);
    if (current) head.append(el("span", "turnmark", "to play"));
    if (winners.has(p.seat)) head.append(el("span", "turnmark win", "★ wins"));
    const total = el("span", "bg-total", `${p.score?.total ?? 0}<small> pts</small>`);
    total.title = "Points so far";
    head.append(total);
    art.append(head);

    const body = el("div", "bg-player-body");
    if (cat && p.side) {
      body.append(scoreboardSvg({
        catalogue: cat,
        side: p.side,
        winks: p.winks,
        score: p.score,
        ghost: mine && current ? ui.ghost : [],
        next: current,
        label: `${ui.name(p.seat)}'s scoreboard, side ${p.side}: ${(p.winks || []).length} winks, ${p.score?.total ?? 0} points`,
      }));
    } else {
      body.append(el("div", "bg-noboard muted small", p.side ? "…" : view.phase === "scoreboard" ? "Choosing a scoreboard…" : "No scoreboard yet"));
    }
    const facts = el("dl", "bg-facts");
    const fact = (term, value, title) => {
      const dt = el("dt", "", term);
      const dd = el("dd", "", value);
      if (title) dt.title = title;
      facts.append(dt, dd);
    };
    const s = p.score || {};
    fact("Side", esc(p.side || "–"));
    fact("Winks", `${(p.winks || []).length}<small>/25</small>`);
    fact("Fill", String(s.fill ?? 0), "1 point per wink");
    fact("Colour", String(s.colour ?? 0), "5 points per wink on a border of its colour");
    const lines = (s.lines_detail || []).map((d) => `${lineName(d.line)}: ${d.points}`).join(", ");
    fact("Lines", String(s.lines ?? 0), lines || "Runs of one colour along the 4 lines: 5 per wink, 10 on a full line");
    const final = finals?.get(p.seat);
    if (final && final.total !== s.total) fact("Final", String(final.total));
    body.append(facts);
    art.append(body);
    const notes = [];
    if (view.teams) {
      const team = view.teams.find((t) => t.includes(p.seat));
      const mate = team?.find((x) => x !== p.seat);
      if (mate !== undefined) notes.push(`team with ${esc(ui.name(mate))}`);
    }
    if (view.first_player === p.seat) notes.push("first player");
    if (notes.length) art.append(el("div", "bg-meta muted small", notes.join(" · ")));
    box.append(art);
  }
}

/** The floor's name, the piles (sizes only), the discard piles (newest first), the draws. */
export function renderGarden(box, floorBox, view, ui) {
  const cat = ui.catalogue;
  floorBox.textContent = view.floor?.name || (cat?.floors || []).find((f) => f.id === view.floor?.id)?.name || "";
  box.replaceChildren();
  const piles = el("div", "bg-piles");
  for (const kind of ["single", "multi"]) {
    const pile = el("div", `bg-pile ${kind}`);
    pile.dataset.pile = kind;
    const n = view.piles?.[kind] ?? 0;
    const back = el("span", "bg-back", `<b>${n}</b>`);
    back.title = `${n} ${kind}-flower tile${n === 1 ? "" : "s"} face down`;
    pile.append(back, el("span", "bg-pile-name", kind === "single" ? "Single flower" : "Multi flower"));
    const discards = (view.discards?.[kind] || []).slice().reverse();
    const list = el("div", "bg-discards");
    list.dataset.discards = kind;
    if (!discards.length) list.append(el("span", "muted small", "no discards"));
    for (const id of discards.slice(0, 12)) list.append(tileChip(id, cat));
    if (discards.length > 12) list.append(el("span", "muted small", `+${discards.length - 12}`));
    list.title = `Discard pile, face up, newest first (${discards.length})`;
    pile.append(list);
    piles.append(pile);
  }
  box.append(piles);
  if ((view.draws || []).length) {
    const draws = el("div", "bg-draws small");
    draws.append(el("span", "muted", "First player draw: "));
    for (const d of view.draws) {
      const t = tileInfo(d.tile, cat);
      const item = el("span", "bg-draw", `${esc(ui.name(d.seat))} ${t.flowers}`);
      item.title = `${ui.name(d.seat)} drew ${d.tile} (${t.flowers} flowers)${d.round > 1 ? `, round ${d.round}` : ""}`;
      draws.append(item);
    }
    box.append(draws);
  }
}
