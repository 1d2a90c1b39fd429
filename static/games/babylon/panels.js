/**
 * Babylon Gardens' side panels, drawn from a view and the catalogue: each player's
 * scoreboard (name and seat colour, side, winks, lines and their points, the running total),
 * and the garden (the floor, the piles' sizes, the discard piles face up, the first-player
 * draws). Only draws; the scoreboard chooser's clicks are reported to `onSide`.
 */

import { playerColour } from "../../js/colours.js";
import { markIcon } from "../../js/marks.js";
import { botMark, el, esc } from "../../js/dom.js";
import { ofName } from "../../js/initials.js";
import { NECTAR } from "./paint.js";
import { lineName, scoreboardSvg } from "./scoreboard.js";
import { floorName, t } from "./words.js";

/** The side column's sections (built when the screen mounts, in the page's language). */
export const PANELS = () => `
<section class="panel bg-players-panel">
  <h2>${esc(t("babylon.ui.panel.scoreboards"))}</h2>
  <div class="bg-players" id="bg-players"></div>
</section>
<section class="panel bg-garden-panel">
  <h2>${esc(t("babylon.ui.panel.garden"))} <span class="muted small" id="bg-floor"></span></h2>
  <div class="bg-garden" id="bg-garden"></div>
</section>`;

/** A tile id's colour and flowers: from the catalogue, else read from the id ("M-p5-1"). */
function tileInfo(id, catalogue) {
  const known = catalogue?.tiles?.[id];
  if (known) return known;
  const m = /^([SM])-([rgyp])(\d)/.exec(id || "");
  if (!m) return { kind: "single", colour: null, flowers: 1 };
  const colour = { r: "red", g: "green", y: "yellow", p: "purple" }[m[2]];
  return { kind: m[1] === "S" ? "single" : "multi", colour, flowers: m[1] === "S" ? 1 : Number(m[3]) };
}

/** A small chip for a tile: its colour and its flower count. */
function tileChip(id, catalogue) {
  const info = tileInfo(id, catalogue);
  const chip = el("span", `bg-chip ${info.colour || ""}`);
  chip.dataset.tile = id;
  chip.append(el("span", "bg-chip-dot", markIcon(info.colour)), el("span", "", `${info.flowers}`));
  chip.title = t("babylon.ui.chip", { colour: info.colour || "none", n: info.flowers });
  chip.querySelector(".bg-chip-dot").style.background = NECTAR[info.colour]?.fill || "#999";
  return chip;
}

/** The seat's round mark in its colour (blue, orange, white, black). */
function seatMark(colour) {
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
    const botSeat = (ui.seats || []).find((s) => s.seat === p.seat && s.bot);
    const dot = botSeat ? botMark(botSeat) : el("span", `dot${ui.connected?.has(p.seat) ? " on" : ""}`);
    if (!botSeat) dot.title = t(ui.connected?.has(p.seat) ? "babylon.ui.connected" : "babylon.ui.disconnected");
    const name = el("span", "pname", esc(ui.name(p.seat)) + (mine ? ` <span class="muted small">${esc(t("babylon.ui.you"))}</span>` : ""));
    head.append(seatMark(p.colour), name, dot);
    if (current) head.append(el("span", "turnmark", esc(t("babylon.ui.toplay"))));
    if (winners.has(p.seat)) head.append(el("span", "turnmark win", esc(t("babylon.ui.wins"))));
    const total = el("span", "bg-total", `${p.score?.total ?? 0}<small> ${esc(t("babylon.ui.pts"))}</small>`);
    total.title = t("babylon.ui.total.title");
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
        label: t("babylon.ui.board.label", { of_name: ofName(ui.name(p.seat)), side: p.side, winks: (p.winks || []).length, points: p.score?.total ?? 0 }),
      }));
    } else {
      body.append(el("div", "bg-noboard muted small", p.side ? "…" : esc(t(view.phase === "scoreboard" ? "babylon.ui.board.choosing" : "babylon.ui.board.none"))));
    }
    const facts = el("dl", "bg-facts");
    const fact = (term, value, title) => {
      const dt = el("dt", "", term);
      const dd = el("dd", "", value);
      if (title) dt.title = title;
      facts.append(dt, dd);
    };
    const s = p.score || {};
    // the board's size and its lines are the catalogue's: a retuned board reads right
    const slots = cat?.spiral?.length || 25;
    // the game's own words, explained where they first appear (hover, or a long press)
    fact(esc(t("babylon.ui.fact.side")), esc(p.side || "–"), t("babylon.ui.fact.side.title"));
    fact(esc(t("babylon.ui.fact.winks")), `${(p.winks || []).length}<small>/${slots}</small>`, t("babylon.ui.fact.winks.title", { slots }));
    fact(esc(t("babylon.ui.fact.fill")), String(s.fill ?? 0), t("babylon.ui.fact.fill.title"));
    fact(esc(t("babylon.ui.fact.colour")), String(s.colour ?? 0), t("babylon.ui.fact.colour.title"));
    const lines = (s.lines_detail || []).map((d) => t("babylon.ui.fact.line", { line: lineName(d.line), n: d.points })).join(", ");
    fact(esc(t("babylon.ui.fact.lines")), String(s.lines ?? 0), lines || t("babylon.ui.fact.lines.title", { n: cat?.lines?.length || 4 }));
    const final = finals?.get(p.seat);
    if (final && final.total !== s.total) fact(esc(t("babylon.ui.fact.final")), String(final.total));
    body.append(facts);
    art.append(body);
    const notes = [];
    if (view.teams) {
      const team = view.teams.find((seats) => seats.includes(p.seat));
      const mate = team?.find((x) => x !== p.seat);
      if (mate !== undefined) notes.push(esc(t("babylon.ui.team.with", { name: ui.name(mate) })));
    }
    if (view.first_player === p.seat) notes.push(esc(t("babylon.ui.first")));
    if (notes.length) art.append(el("div", "bg-meta muted small", notes.join(" · ")));
    box.append(art);
  }
}

/** The floor's name, the piles (sizes only), the discard piles (newest first), the draws. */
export function renderGarden(box, floorBox, view, ui) {
  const cat = ui.catalogue;
  const english = view.floor?.name || (cat?.floors || []).find((f) => f.id === view.floor?.id)?.name || "";
  floorBox.textContent = view.floor?.id ? floorName(view.floor.id, english) : english;
  box.replaceChildren();
  const piles = el("div", "bg-piles");
  for (const kind of ["single", "multi"]) {
    const pile = el("div", `bg-pile ${kind}`);
    pile.dataset.pile = kind;
    const n = view.piles?.[kind] ?? 0;
    const back = el("span", "bg-back", `<b>${n}</b>`);
    back.title = t("babylon.ui.pile.back", { kind, n });
    pile.append(back, el("span", "bg-pile-name", esc(t(kind === "single" ? "babylon.ui.pile.single" : "babylon.ui.pile.multi"))));
    const discards = (view.discards?.[kind] || []).slice().reverse();
    const shown = el("div", "bg-discards");
    shown.dataset.discards = kind;
    if (!discards.length) shown.append(el("span", "muted small", esc(t("babylon.ui.discards.none"))));
    for (const id of discards.slice(0, 12)) shown.append(tileChip(id, cat));
    if (discards.length > 12) shown.append(el("span", "muted small", `+${discards.length - 12}`));
    shown.title = t("babylon.ui.discards.title", { n: discards.length });
    pile.append(shown);
    piles.append(pile);
  }
  box.append(piles);
  if ((view.draws || []).length) {
    const draws = el("div", "bg-draws small");
    draws.append(el("span", "muted", esc(t("babylon.ui.draws"))));
    for (const d of view.draws) {
      const info = tileInfo(d.tile, cat);
      const item = el("span", "bg-draw", `${esc(ui.name(d.seat))} ${info.flowers}`);
      item.title = t("babylon.ui.draw", { name: ui.name(d.seat), n: info.flowers, round: d.round || 1 });
      draws.append(item);
    }
    box.append(draws);
  }
}
