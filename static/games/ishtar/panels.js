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

export function renderCarpet(box, view, ui) {
  const { ix, selectedPile, onPile } = ui;
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
    const what = pile.size === 0 ? "empty" : pile.top ? "top tile face up" : "top tile face down";
    let label = `Pile ${i + 1}: ${pile.cup}, ${pile.size} tile${pile.size === 1 ? "" : "s"}, ${what}`;
    if (carpet.can === i) {
      b.append(art.canCanvas(30));
      label += ", the watering can stands here";
    }
    if (options) {
      const cheapest = options[0];
      const cost = cheapest.action.pay.length;
      const tag = el("span", cost ? "cost" : "cost free", cost ? `${art.gemRow(cheapest.action.pay)}` : "free");
      if (cost) tag.title = `costs ${cost} gem${cost > 1 ? "s" : ""}`;
      b.append(tag);
      b.append(el("span", "key", String(i + 1)));
      b.classList.add("legal");
      label += cost ? `, costs ${cost} gem${cost > 1 ? "s" : ""}` : ", free";
      b.addEventListener("click", () => onPile(i));
    } else {
      b.tabIndex = -1;
      b.setAttribute("aria-disabled", "true");
    }
    if (selectedPile === i) b.classList.add("selected");
    b.setAttribute("aria-label", label);
    b.title = label;
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
    item.append(art.tokenCanvas(t, 16), el("span", "", `×${n}`));
    item.title = `${n} blooming token${n > 1 ? "s" : ""} ${t}`;
    tokens.append(item);
  }
  centre.append(pawns, tokens);
  centre.title = "Assistants waiting on the carpet and the blooming tokens left";
  box.append(centre);
}

// ---- tree market -------------------------------------------------------------------------

export function renderMarket(box, deckBox, view, ui) {
  const { ix, selectedCard, onCard } = ui;
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
  if (plant || reserve) {
    b.classList.add("legal");
    b.append(el("span", "tag", plant ? "Plant" : "Reserve"));
    label += plant ? " — you can plant it" : " — you can reserve it";
    b.addEventListener("click", () => onCard(card.card));
  } else {
    b.tabIndex = ix.count ? -1 : 0;
  }
  if (selectedCard === card.card) b.classList.add("selected");
  b.setAttribute("aria-label", label);
  b.title = label;
  return b;
}

export function describeCost(cost) {
  const parts = ["purple", "red", "white"].filter((c) => cost[c]).map((c) => `${cost[c]} ${c}`);
  return parts.join(", ") || "nothing";
}

// ---- players -----------------------------------------------------------------------------

export function renderPlayers(box, view, ui) {
  const { room, catalogue, presence, ix, selectedSkill, onSkill, onCard, selectedCard } = ui;
  box.innerHTML = "";
  const skillText = new Map((catalogue?.skills || []).map((s) => [s.skill, s.text]));
  const cards = new Map((catalogue?.tree_cards || []).map((c) => [c.card, c]));
  for (const cardInMarket of view.market) cards.set(cardInMarket.card, cardInMarket);
  const connected = new Set(presence?.connected_seats || []);
  for (const seat of room?.seats || []) if (seat.bot) connected.add(seat.seat);
  const scores = view.scores ? new Map(view.scores.players.map((p) => [p.seat, p.total])) : null;

  for (const p of view.players) {
    const mine = view.viewer === p.seat;
    const panel = el("article", "player");
    panel.dataset.seat = String(p.seat);
    panel.style.setProperty("--pc", playerColour(p.colour));
    if (view.current === p.seat) panel.classList.add("current");
    const head = el("header");
    const dot = el("span", `dot${connected.has(p.seat) ? " on" : ""}`);
    dot.title = connected.has(p.seat) ? "connected" : "not connected";
    head.append(art.pawnCanvas(p.colour, 18, 20), el("span", "pname", esc(playerName(room, p.seat)) + (mine ? " <span class=\"muted small\">(you)</span>" : "")), dot);
    if (view.current === p.seat) head.append(el("span", "turnmark", "to play"));
    if (view.first_player === p.seat) head.title = "First player";
    if (scores) head.append(el("span", "score-chip", `${scores.get(p.seat)} VP`));
    panel.append(head);

    const row = el("div", "row");
    row.append(el("span", "gems", art.gemsHtml(p.gems, { zeros: true })));
    const sup = el("span", "pawns");
    sup.title = `${p.assistants_supply} assistant(s) in supply, ${p.assistants_carpet} on the carpet`;
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
      // Face down on the physical table, but bought face up in view of everyone: the online
      // table shows it (docs/games/ishtar/rules.md, "Tree cards in front of the players").
      chip.title = `${c ? `${c.name}, ${c.vp} VP` : `card ${id}`}: planted, bought face up from the market`;
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
    box.append(panel);
  }
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
    let label = `Skill ${letter}: ${skillText.get(letter) || SKILL_TITLE[letter]}`;
    if (isOn) {
      b.classList.add("unlocked");
      b.append(el("span", "paid", art.gemRow(unlocked[letter] || [])));
      label += " — unlocked";
    } else if (upper && below && !Object.prototype.hasOwnProperty.call(unlocked, below)) {
      b.classList.add("locked");
      label += ` — needs ${below} first`;
    }
    if (options) {
      b.type = "button";
      b.classList.add("legal");
      label += " — you can unlock it now";
      b.addEventListener("click", () => onSkill(letter));
      if (selectedSkill === letter) b.classList.add("selected");
    }
    b.title = label;
    b.setAttribute("aria-label", label);
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
  html += "</tr></thead><tbody>";
  for (const k of cats) {
    html += `<tr><th scope="row">${esc(categoryName(k))}</th>`;
    for (const p of players) html += `<td>${p.categories?.[k] ?? 0}</td>`;
    html += "</tr>";
  }
  html += `<tr><th scope="row">Trees planted</th>${players.map((p) => `<td>${p.trees_planted ?? ""}</td>`).join("")}</tr>`;
  html += `<tr><th scope="row">Gems left</th>${players.map((p) => `<td>${p.gems_left ?? ""}</td>`).join("")}</tr>`;
  html += `<tr class="total"><th scope="row">Total</th>${players
    .map((p) => `<td class="${winners.has(p.seat) ? "win" : ""}">${p.total}</td>`)
    .join("")}</tr></tbody>`;
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

