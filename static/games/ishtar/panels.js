/**
 * Ishtar's side panels drawn from a view: the carpet (6 piles, the watering can, assistants
 * and blooming tokens in its centre), the tree market, each gardener's panel (gems,
 * assistants, skill board, tree cards) and the final score table. Which pile, card or skill
 * is clickable comes from the legal actions (`ix`, see turn.js); these functions only draw
 * and report clicks.
 */

import { el, esc, playerName } from "../../js/dom.js";
import * as art from "./art.js";
import { playerColour } from "./paint.js";
import { cardButton, infoCard, tileCard, tokenCard } from "./tilecard.js";
import * as tips from "./tips.js";
import { payWords, plural, SHAPE, tileWords, tokenWords } from "./words.js";

// Short titles for the skill board cells; the full text comes from the catalogue.
const SKILL_TITLE = {
  A: "Gems",
  B: "Tablets",
  C: "Fountains",
  D: "Trees",
  E: "Flowers",
  F: "Free step",
  G: "Bloom",
  H: "Recall",
  I: "Reserve",
  J: "Double bloom",
};
const UPPER = ["A", "B", "C", "D", "E"];
const LOWER = ["F", "G", "H", "I", "J"];

export const SKILL_TITLES = SKILL_TITLE;

// ---- carpet ------------------------------------------------------------------------------

/** Pile spots around the carpet, clockwise from the top left (percent of the box). */
const SPOTS = [[31, 19], [69, 19], [84, 50], [69, 81], [31, 81], [16, 50]];

/** The card of pile `i` (tips.js): its top tile drawn large, what taking it costs. */
function pileCard(view, i, options, onPile) {
  const pile = view.carpet.piles[i];
  const lines = [`${esc(pile.cup)} cup · ${plural(pile.size, "tile")} left`];
  if (view.carpet.can === i) lines.push("The watering can stands here.");
  let button = null;
  if (options) {
    const cheapest = options[0].action.pay;
    lines.push(cheapest.length
      ? `To reach it: <b>${art.gemRow(cheapest)} ${esc(payWords(cheapest))}</b>${options.length > 1 ? ` (${options.length} ways to pay)` : ""}`
      : "To reach it: <b>free</b>");
    button = cardButton(cheapest.length ? "Choose this pile" : "Take this tile", () => { tips.close(); onPile(i); }, `take-${i}`);
  } else if (pile.size === 0) {
    lines.push("Empty.");
  }
  const title = `Pile ${i + 1}${pile.top ? ` · ${SHAPE[pile.top.shape] || pile.top.shape}` : pile.size ? " · face down" : ""}`;
  if (!pile.size) return infoCard({ title, lines });
  return tileCard({ tile: pile.top, shape: pile.cup, title, lines, button });
}

export function renderCarpet(box, view, ui) {
  const { ix, selectedPile, onPile } = ui;
  tips.closeWithin(box);
  box.innerHTML = "";
  const carpet = view.carpet;
  carpet.piles.forEach((pile, i) => {
    const options = ix.choose.get(i);
    const b = el("button", "pile");
    b.type = "button";
    b.dataset.pile = String(i);
    b.style.left = `${SPOTS[i][0]}%`;
    b.style.top = `${SPOTS[i][1]}%`;
    const size = 78;
    if (pile.size > 0) b.append(art.tileCanvas(pile.top, pile.cup, size, size));
    else b.classList.add("empty");
    b.append(el("span", "size", String(pile.size)));
    const what = pile.size === 0 ? "empty" : pile.top ? tileWords(pile.top) : "top tile face down";
    let label = `Pile ${i + 1}: ${pile.cup}, ${plural(pile.size, "tile")}, ${what}`;
    if (carpet.can === i) {
      b.append(art.canCanvas(30));
      label += ", the watering can stands here";
    }
    if (options) {
      const cheapest = options[0];
      const cost = cheapest.action.pay.length;
      b.append(el("span", cost ? "cost" : "cost free", cost ? `${art.gemRow(cheapest.action.pay)}` : "free"));
      b.append(el("span", "key", String(i + 1)));
      b.classList.add("legal");
      label += cost ? `, costs ${payWords(cheapest.action.pay)}` : ", free";
    } else {
      b.tabIndex = -1;
      b.setAttribute("aria-disabled", "true");
    }
    if (selectedPile === i) b.classList.add("selected");
    b.setAttribute("aria-label", label);
    tips.tip(b, () => pileCard(view, i, ix.choose.get(i), onPile), { onTap: options ? () => onPile(i) : null });
    box.append(b);
  });
  const centre = el("div", "carpet-centre");
  const pawns = el("div", "row");
  view.players.forEach((p) => {
    for (let k = 0; k < p.assistants_carpet; k += 1) pawns.append(art.pawnCanvas(p.colour, 14, 16));
  });
  const tokens = el("div", "row tokens");
  for (const [t, n] of Object.entries(carpet.blooming_tokens || {})) {
    if (!n) continue;
    const item = el("span", "token");
    item.tabIndex = 0;
    item.dataset.token = t;
    item.append(art.tokenCanvas(t, 16), el("span", "", `×${n}`));
    item.setAttribute("aria-label", `${tokenWords(t)}: ${n} left`);
    tips.tip(item, () => tokenCard(t, n));
    tokens.append(item);
  }
  centre.append(pawns, tokens);
  box.append(centre);
}

// ---- tree market -------------------------------------------------------------------------

export function renderMarket(box, deckBox, view, ui) {
  const { ix, selectedCard, onCard } = ui;
  tips.closeWithin(box);
  box.innerHTML = "";
  for (const card of view.market) {
    box.append(treeCard(card, ix, selectedCard, onCard));
  }
  deckBox.textContent = `${view.deck_size} in deck · ${view.trees_left} trees left`;
}

function treeCard(card, ix, selectedCard, onCard) {
  const plant = ix.plant.get(card.card);
  const reserve = ix.reserve.get(card.card);
  const b = el("button", `tree-card${card.tree ? "" : " bare"}`);
  b.type = "button";
  b.dataset.card = String(card.card);
  b.append(art.treeCanvas(26));
  b.append(el("span", "vp", `${card.vp}<small> VP</small>`));
  const costList = [];
  for (const c of ["purple", "red", "white"]) for (let k = 0; k < (card.cost[c] || 0); k += 1) costList.push(c);
  b.append(el("span", "cost", art.gemRow(costList)));
  b.append(el("span", "name", esc(card.name)));
  let label = `${card.name}: ${card.vp} victory points, costs ${describeCost(card.cost)}${card.tree ? "" : ", no tree left on it"}`;
  const lines = [`<b>${card.vp} victory points</b> at the end`, `Costs ${art.gemRow(costList)} ${esc(payWords(costList))}`];
  if (!card.tree) lines.push("No tree left on it: it cannot be bought.");
  let button = null;
  if (plant || reserve) {
    b.classList.add("legal");
    b.append(el("span", "tag", plant ? "Plant" : "Reserve"));
    label += plant ? " — you can plant it" : " — you can reserve it";
    lines.push(plant ? "You can plant it now." : "You can reserve it now.");
    button = cardButton(plant ? "Plant it" : "Reserve it", () => { tips.close(); onCard(card.card); }, `card-${card.card}`);
  } else {
    b.tabIndex = ix.count ? -1 : 0;
  }
  if (selectedCard === card.card) b.classList.add("selected");
  b.setAttribute("aria-label", label);
  tips.tip(b, () => infoCard({ title: card.name, lines, picture: art.treeCanvas(40), button }), {
    onTap: plant || reserve ? () => onCard(card.card) : null,
  });
  return b;
}

export function describeCost(cost) {
  const parts = ["purple", "red", "white"].filter((c) => cost[c]).map((c) => `${cost[c]} ${c}`);
  return parts.join(", ") || "nothing";
}

// ---- players -----------------------------------------------------------------------------

/**
 * A panel per gardener. The viewer's own comes first, in `meBox` (above the carpet: gems,
 * assistants and skills in sight while choosing a tile); the others in `box`.
 */
export function renderPlayers(box, view, ui, meBox = null) {
  const { room, catalogue, presence, ix, selectedSkill, onSkill, onCard, selectedCard } = ui;
  tips.closeWithin(box);
  box.innerHTML = "";
  if (meBox) {
    tips.closeWithin(meBox);
    meBox.innerHTML = "";
  }
  const skillText = new Map((catalogue?.skills || []).map((s) => [s.skill, s.text]));
  const cards = new Map((catalogue?.tree_cards || []).map((c) => [c.card, c]));
  for (const cardInMarket of view.market) cards.set(cardInMarket.card, cardInMarket);
  const connected = new Set(presence?.connected_seats || []);
  for (const seat of room?.seats || []) if (seat.bot) connected.add(seat.seat);
  const standing = runningScores(view);
  const before = ui.previous ? new Map(ui.previous.players.map((p) => [p.seat, p])) : null;

  for (const p of view.players) {
    const mine = view.viewer === p.seat;
    const panel = el("article", `player${mine ? " me" : ""}`);
    panel.dataset.seat = String(p.seat);
    panel.style.setProperty("--pc", playerColour(p.colour));
    if (view.current === p.seat) panel.classList.add("current");
    const head = el("header");
    const dot = el("span", `dot${connected.has(p.seat) ? " on" : ""}`);
    dot.setAttribute("aria-label", connected.has(p.seat) ? "connected" : "not connected");
    head.append(art.pawnCanvas(p.colour, 18, 20), el("span", "pname", esc(playerName(room, p.seat)) + (mine ? " <span class=\"muted small\">(you)</span>" : "")), dot);
    if (view.current === p.seat) head.append(el("span", "turnmark", "to play"));
    if (view.first_player === p.seat) head.append(el("span", "firstmark", "1st"));
    if (standing) {
      const chip = el("span", "score-chip", `${standing.get(p.seat)} VP`);
      chip.dataset.score = String(standing.get(p.seat));
      chip.setAttribute("aria-label", view.scores ? `${standing.get(p.seat)} points` : `${standing.get(p.seat)} points if the game ended now`);
      head.append(chip);
    }
    panel.append(head);

    const row = el("div", "row");
    const gems = el("span", "gems", art.gemsHtml(p.gems, { zeros: true }));
    const old = before?.get(p.seat);
    if (old) {
      gems.querySelectorAll(".gemcount").forEach((g, k) => {
        const colour = ["purple", "red", "white"][k];
        if ((p.gems[colour] || 0) > (old.gems[colour] || 0)) g.classList.add("grew");
      });
    }
    row.append(gems);
    const sup = el("span", "pawns");
    sup.setAttribute("aria-label", `${plural(p.assistants_supply, "assistant")} in supply, ${p.assistants_carpet} on the carpet`);
    sup.append(el("span", "label", "supply"));
    for (let k = 0; k < p.assistants_supply; k += 1) sup.append(art.pawnCanvas(p.colour));
    if (!p.assistants_supply) sup.append(el("span", "muted small", "–"));
    const car = el("span", "pawns");
    car.append(el("span", "label", "carpet"));
    for (let k = 0; k < p.assistants_carpet; k += 1) car.append(art.pawnCanvas(p.colour));
    if (!p.assistants_carpet) car.append(el("span", "muted small", "–"));
    row.append(sup, car);
    panel.append(row);

    panel.append(skillBoard(p, mine ? ix : null, skillText, selectedSkill, onSkill));

    const cardsRow = el("div", "row");
    const planted = p.tree_cards || [];
    const list = el("span", "cards");
    list.append(el("span", "label", "trees"));
    if (!planted.length && p.reserved == null) list.append(el("span", "muted small", "none yet"));
    for (const id of planted) {
      const c = cards.get(id);
      const chip = el("span", "mini-card", c ? `${esc(c.name)} · ${c.vp}` : `#${id}`);
      chip.tabIndex = 0;
      // Face down on the physical table, but bought face up in view of everyone: the online
      // table shows it (docs/games/ishtar/rules.md, "Tree cards in front of the players").
      tips.tip(chip, () => infoCard({ title: c ? c.name : `Card ${id}`, lines: [c ? `${c.vp} victory points` : "", "Planted: bought face up from the market, in view of everyone."] }));
      list.append(chip);
    }
    if (p.reserved != null) {
      const c = cards.get(p.reserved);
      const plantable = mine && ix.plant.get(p.reserved);
      const chip = el(plantable ? "button" : "span", "mini-card reserved", `reserved: ${c ? `${esc(c.name)} · ${c.vp}` : `#${p.reserved}`}`);
      if (plantable) {
        chip.type = "button";
        chip.dataset.card = String(p.reserved);
        chip.classList.add("legal");
        if (selectedCard === p.reserved) chip.classList.add("selected");
        chip.addEventListener("click", () => onCard(p.reserved));
      }
      list.append(chip);
    }
    cardsRow.append(list);
    panel.append(cardsRow);
    if (standing) panel.append(fountainsRow(view, p.seat));
    (mine && meBox ? meBox : box).append(panel);
  }
}

/** Each seat's points: the final total once over, else the engine's projection if sent. */
function runningScores(view) {
  const s = view.scores || view.standing;
  return s ? new Map(s.players.map((p) => [p.seat, p.total])) : null;
}

/** The fountains `seat` holds now (shared ones marked), from the engine's projection. */
function fountainsRow(view, seat) {
  const s = view.scores || view.standing;
  const row = el("div", "row fountains");
  row.append(el("span", "label", "fountains"));
  const holders = new Map();
  for (const q of s.players) for (const f of q.fountains || []) holders.set(f.at.join(","), (holders.get(f.at.join(",")) || 0) + 1);
  const held = s.players.find((q) => q.seat === seat)?.fountains || [];
  if (!held.length) row.append(el("span", "muted small", "none held"));
  for (const f of held) {
    const shared = holders.get(f.at.join(",")) > 1;
    const chip = el("span", `fountain-chip ${f.colour}`, `${art.gemIcon(f.colour, `${f.colour} fountain`)} ${f.vp} VP${shared ? " · shared" : ""}`);
    chip.setAttribute("aria-label", `holds the ${f.colour} fountain, ${f.vp} points${shared ? " (shared)" : ""}`);
    row.append(chip);
  }
  return row;
}

function skillBoard(p, ix, skillText, selectedSkill, onSkill) {
  const grid = el("div", "skills");
  grid.setAttribute("role", "group");
  grid.setAttribute("aria-label", "Skill board");
  const unlocked = p.skills || {};
  const cell = (letter, upper, below) => {
    const options = ix ? ix.skills.get(letter) : null;
    const isOn = Object.prototype.hasOwnProperty.call(unlocked, letter);
    const b = el(options ? "button" : "div", `skill${upper ? " upper" : ""}`);
    b.dataset.skill = letter;
    b.append(el("b", "", letter), el("span", "", SKILL_TITLE[letter]));
    const text = skillText.get(letter) || SKILL_TITLE[letter];
    let label = `Skill ${letter}: ${text}`;
    const lines = [esc(text)];
    if (isOn) {
      b.classList.add("unlocked");
      b.append(el("span", "paid", art.gemRow(unlocked[letter] || [])));
      label += " — unlocked";
      lines.push(`Unlocked, with ${art.gemRow(unlocked[letter] || [])} on it.`);
    } else if (upper && below && !Object.prototype.hasOwnProperty.call(unlocked, below)) {
      b.classList.add("locked");
      label += ` — needs ${below} first`;
      lines.push(`Needs skill ${below} (below it) first.`);
    }
    let button = null;
    if (options) {
      b.type = "button";
      b.classList.add("legal");
      label += " — you can unlock it now";
      lines.push("You can unlock it now, for 2 gems.");
      button = cardButton("Unlock it", () => { tips.close(); onSkill(letter); }, `unlock-${letter}`);
      if (selectedSkill === letter) b.classList.add("selected");
    } else {
      b.tabIndex = 0;
    }
    b.setAttribute("aria-label", label);
    tips.tip(b, () => infoCard({ title: `Skill ${letter} · ${SKILL_TITLE[letter]}`, lines, button }), { onTap: options ? () => onSkill(letter) : null });
    return b;
  };
  UPPER.forEach((l, i) => grid.append(cell(l, true, LOWER[i])));
  LOWER.forEach((l) => grid.append(cell(l, false, null)));
  return grid;
}

// ---- final scores ------------------------------------------------------------------------

const CATEGORY = {
  trees: "Trees",
  flowers: "Flowers",
  fountains: "Fountains",
};

function categoryName(k) {
  if (CATEGORY[k]) return CATEGORY[k];
  const m = /^skill_([A-E])$/.exec(k);
  if (m) return `Skill ${m[1]} · ${SKILL_TITLE[m[1]]}`;
  return k.replace(/_/g, " ");
}

export function renderScores(table, winnerBox, tieBox, view, room) {
  const s = view.scores;
  const players = s.players;
  // the three main categories always; a skill row only when it scored for someone
  const cats = ["trees", "flowers", "fountains"];
  for (const p of players) {
    for (const [k, v] of Object.entries(p.categories || {})) if (!cats.includes(k) && v) cats.push(k);
  }
  const order = ["trees", "flowers", "fountains"];
  cats.sort((a, b) => {
    const ia = order.indexOf(a);
    const ib = order.indexOf(b);
    return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib) || a.localeCompare(b);
  });
  const colour = (seat) => playerColour(view.players.find((p) => p.seat === seat)?.colour);
  const winners = new Set(s.winners || []);
  let html = "<thead><tr><th></th>";
  for (const p of players) {
    html += `<th scope="col"><span class="swatch" data-colour="${colour(p.seat)}"></span>${esc(playerName(room, p.seat))}${winners.has(p.seat) ? " ★" : ""}</th>`;
  }
  // The categories that add up to the total, then, apart and labelled, the tie-break rows
  // (counts, not points: docs/games/ishtar/rules.md, the end of the game).
  html += `</tr></thead><tbody class="points"><tr class="group"><th scope="rowgroup" colspan="${players.length + 1}">Points</th></tr>`;
  for (const k of cats) {
    html += `<tr><th scope="row">${esc(categoryName(k))}</th>`;
    for (const p of players) html += `<td>${p.categories?.[k] ?? 0}</td>`;
    html += "</tr>";
  }
  html += `<tr class="total"><th scope="row">Total</th>${players
    .map((p) => `<td class="${winners.has(p.seat) ? "win" : ""}">${p.total}</td>`)
    .join("")}</tr></tbody>`;
  html += `<tbody class="tiebreaks"><tr class="group"><th scope="rowgroup" colspan="${players.length + 1}">Tie-breaks <span class="muted small">(not added to the total)</span></th></tr>`;
  html += `<tr><th scope="row">Trees planted</th>${players.map((p) => `<td>${p.trees_planted ?? ""}</td>`).join("")}</tr>`;
  html += `<tr><th scope="row">Gems left</th>${players.map((p) => `<td>${p.gems_left ?? ""}</td>`).join("")}</tr></tbody>`;
  table.innerHTML = html;
  const names = [...winners].map((w) => playerName(room, w));
  const best = players.find((p) => winners.has(p.seat));
  winnerBox.textContent = names.length > 1
    ? `${names.join(" and ")} share the victory with ${best?.total} points`
    : names.length
      ? `${names[0]} is the Gardener of the King with ${best?.total} points`
      : "";
  tieBox.textContent = s.tiebreak || "";
  tieBox.hidden = !s.tiebreak;
}

