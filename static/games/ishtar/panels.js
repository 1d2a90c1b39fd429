/**
 * Ishtar's side panels drawn from a view: the carpet (6 piles, the watering can, assistants
 * and blooming tokens in its centre), the tree market, each gardener's panel (gems,
 * assistants, skill board, tree cards) and the final score table. Which pile, card or skill
 * is clickable comes from the legal actions (`ix`, see turn.js); these functions only draw
 * and report clicks.
 */

import { botMark, el, esc, playerName, redrawWith } from "../../js/dom.js";
import { list, tm } from "../../js/i18n.js";
import * as art from "./art.js";
import { playerColour } from "./paint.js";
import { cardButton, infoCard, tileCard, tokenCard } from "./tilecard.js";
import * as tips from "./tips.js";
import { editionCatalogue } from "./edition.js";
import { costWords, payWords, shapeName, skillName, skillText, t, tHtml, tileWords, tokenWords, treeName } from "./words.js";

// The skill board: the short titles and descriptions are the catalogue's
// (`ishtar.ui.skill.<letter>.name` / `.text`).
const UPPER = ["A", "B", "C", "D", "E"];
const LOWER = ["F", "G", "H", "I", "J"];

// ---- carpet ------------------------------------------------------------------------------

/** Pile spots around the carpet, clockwise from the top left (percent of the box). */
const SPOTS = [[31, 19], [69, 19], [84, 50], [69, 81], [31, 81], [16, 50]];

/** The card of pile `i` (tips.js): its top tile drawn large, what taking it costs. */
function pileCard(view, i, options, onPile, pileReason = null) {
  const pile = view.carpet.piles[i];
  const lines = [esc(t("ishtar.ui.pile.left", { cup: pile.cup, n: pile.size }))];
  if (view.carpet.can === i) lines.push(esc(t("ishtar.ui.pile.can")));
  let button = null;
  if (options) {
    const cheapest = options[0].action.pay;
    const cost = cheapest.length
      ? `<b>${art.gemRow(cheapest)} ${esc(payWords(cheapest))}</b>`
      : `<b>${esc(t("ishtar.ui.pay.free"))}</b>`;
    lines.push(tHtml(options.length > 1 ? "ishtar.ui.pile.reach.ways" : "ishtar.ui.pile.reach", { n: options.length }, { cost }));
    button = cardButton(t(cheapest.length ? "ishtar.ui.pile.choose" : "ishtar.ui.pile.take"), () => { tips.close(); onPile(i); }, `take-${i}`);
  } else if (pile.size === 0) {
    lines.push(esc(t("ishtar.ui.pile.empty")));
  } else if (pileReason) {
    // why it cannot be taken now, in the engine's words (asked of the server, game.js)
    lines.push(`<span class="why" data-why-pile="${i}">${esc(t("ishtar.ui.tip.checking"))}</span>`);
  }
  const n = i + 1;
  const title = pile.top
    ? t("ishtar.ui.pile.title.shape", { n, shape: shapeName(pile.top.shape) })
    : t(pile.size ? "ishtar.ui.pile.title.down" : "ishtar.ui.pile.title", { n });
  if (!pile.size) return infoCard({ title, lines });
  const card = tileCard({ tile: pile.top, shape: pile.cup, title, lines, button });
  const why = card.querySelector?.(".why");
  if (why) pileReason(i).then((text) => { why.textContent = text ? text.charAt(0).toUpperCase() + text.slice(1) : ""; });
  return card;
}

export function renderCarpet(box, view, ui) {
  const { ix, selectedPile, onPile, pileReason } = ui;
  const nodes = [];
  const carpet = view.carpet;
  carpet.piles.forEach((pile, i) => {
    const options = ix.choose.get(i);
    const b = el("button", "pile");
    b.type = "button";
    b.dataset.pile = String(i);
    b.style.left = `${SPOTS[i][0]}%`;
    b.style.top = `${SPOTS[i][1]}%`;
    const size = 78;
    if (pile.size > 0) b.append(art.tilePicture(pile.top, pile.cup, size, size));
    else b.classList.add("empty");
    b.append(el("span", "size", String(pile.size)));
    const what = pile.size === 0 ? t("ishtar.ui.pile.what.empty") : pile.top ? tileWords(pile.top) : t("ishtar.ui.pile.what.down");
    const said = { n: i + 1, cup: pile.cup, size: pile.size, what, can: carpet.can === i ? "yes" : "no", cost: "none", price: "" };
    if (carpet.can === i) b.append(art.canPicture(30));
    if (options) {
      const cheapest = options[0];
      const cost = cheapest.action.pay.length;
      b.append(el("span", cost ? "cost" : "cost free", cost ? `${art.gemRow(cheapest.action.pay)}` : esc(t("ishtar.ui.pay.free"))));
      b.append(el("span", "key", String(i + 1)));
      b.classList.add("legal");
      said.cost = cost ? "paid" : "free";
      said.price = cost ? payWords(cheapest.action.pay) : "";
    } else {
      b.tabIndex = -1;
      // on one's turn a click says why it cannot be taken (game.js, explainPile)
      if (!pileReason) b.setAttribute("aria-disabled", "true");
    }
    if (selectedPile === i) b.classList.add("selected");
    b.setAttribute("aria-label", t("ishtar.ui.pile.label", said));
    tips.tip(b, () => pileCard(view, i, ix.choose.get(i), onPile, pileReason), { onTap: options || pileReason ? () => onPile(i) : null });
    nodes.push(b);
  });
  const centre = el("div", "carpet-centre");
  const pawns = el("div", "row");
  view.players.forEach((p) => {
    for (let k = 0; k < p.assistants_carpet; k += 1) pawns.append(art.pawnPicture(p.colour, 14, 16));
  });
  const tokens = el("div", "row tokens");
  for (const [tk, n] of Object.entries(carpet.blooming_tokens || {})) {
    if (!n) continue;
    const item = el("span", "token");
    item.tabIndex = 0;
    item.dataset.token = tk;
    item.append(art.tokenPicture(tk, 16), el("span", "", `×${n}`));
    item.setAttribute("aria-label", t("ishtar.ui.token.left", { token: tokenWords(tk), n }));
    tips.tip(item, () => tokenCard(tk, n));
    tokens.append(item);
  }
  centre.append(pawns, tokens);
  nodes.push(centre);
  // drawn again only when it shows something else (dom.js, redraw): a presence update
  // during a turn never takes away the pile being pressed
  redrawWith(box, nodes, () => tips.closeWithin(box));
}

// ---- tree market -------------------------------------------------------------------------

export function renderMarket(box, deckBox, view, ui) {
  const { ix, selectedCard, onCard } = ui;
  const cards = view.market.map((card) => treeCard(card, ix, selectedCard, onCard));
  redrawWith(box, cards, () => tips.closeWithin(box));
  deckBox.textContent = t("ishtar.ui.market.deck", { deck: view.deck_size, trees: view.trees_left });
}

function treeCard(card, ix, selectedCard, onCard) {
  const plant = ix.plant.get(card.card);
  const reserve = ix.reserve.get(card.card);
  const b = el("button", `tree-card${card.tree ? "" : " bare"}`);
  b.type = "button";
  b.dataset.card = String(card.card);
  b.append(art.treePicture(26));
  b.append(el("span", "vp", `${card.vp}<small> ${esc(t("ishtar.ui.vp"))}</small>`));
  const costList = [];
  for (const c of ["purple", "red", "white"]) for (let k = 0; k < (card.cost[c] || 0); k += 1) costList.push(c);
  b.append(el("span", "cost", art.gemRow(costList)));
  const name = treeName(card);
  b.append(el("span", "name", esc(name)));
  const can = plant ? "plant" : reserve ? "reserve" : "no";
  const label = t("ishtar.ui.card.label", { name, vp: card.vp, cost: costWords(card.cost), tree: card.tree ? "yes" : "no", can });
  const lines = [
    tHtml("ishtar.ui.card.vp", {}, { vp: `<b>${esc(t("ishtar.ui.vp.count", { n: card.vp }))}</b>` }),
    tHtml("ishtar.ui.card.costs", {}, { cost: `${art.gemRow(costList)} ${esc(payWords(costList))}` }),
  ];
  if (!card.tree) lines.push(esc(t("ishtar.ui.card.bare")));
  let button = null;
  if (plant || reserve) {
    b.classList.add("legal");
    b.append(el("span", "tag", esc(t(plant ? "ishtar.ui.card.tag.plant" : "ishtar.ui.card.tag.reserve"))));
    lines.push(esc(t(plant ? "ishtar.ui.card.can.plant" : "ishtar.ui.card.can.reserve")));
    button = cardButton(t(plant ? "ishtar.ui.card.plant" : "ishtar.ui.card.reserve"), () => { tips.close(); onCard(card.card); }, `card-${card.card}`);
  } else {
    b.tabIndex = ix.count ? -1 : 0;
  }
  if (selectedCard === card.card) b.classList.add("selected");
  b.setAttribute("aria-label", label);
  tips.tip(b, () => infoCard({ title: name, lines, picture: art.treePicture(40), button }), {
    onTap: plant || reserve ? () => onCard(card.card) : null,
  });
  return b;
}

// ---- players -----------------------------------------------------------------------------

/**
 * A panel per gardener. The viewer's own comes first, in `meBox` (above the carpet: gems,
 * assistants and skills in sight while choosing a tile); the others in `box`.
 */
export function renderPlayers(box, view, ui, meBox = null) {
  const { room, presence, ix, selectedSkill, onSkill, onCard, selectedCard } = ui;
  const catalogue = editionCatalogue(ui.catalogue, view);
  tips.closeWithin(box);
  box.innerHTML = "";
  if (meBox) {
    tips.closeWithin(meBox);
    meBox.innerHTML = "";
  }
  const skillTexts = new Map((catalogue?.skills || []).map((s) => [s.skill, skillText(s.skill, s.text, s.params)]));
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
    // a bot's seat (seated so, or handed to it) carries the bot mark, not a person's dot
    const botSeat = (room?.seats || []).find((s) => s.seat === p.seat && s.bot);
    const dot = botSeat ? botMark(botSeat) : el("span", `dot${connected.has(p.seat) ? " on" : ""}`);
    if (!botSeat) dot.setAttribute("aria-label", t(connected.has(p.seat) ? "ishtar.ui.connected" : "ishtar.ui.disconnected"));
    head.append(art.pawnPicture(p.colour, 18, 20), el("span", "pname", esc(playerName(room, p.seat)) + (mine ? ` <span class="muted small">${esc(t("ishtar.ui.you"))}</span>` : "")), dot);
    if (view.current === p.seat) head.append(el("span", "turnmark", esc(t("ishtar.ui.toplay"))));
    if (view.first_player === p.seat) head.append(el("span", "firstmark", esc(t("ishtar.ui.first"))));
    if (standing) {
      const points = standing.get(p.seat);
      const chip = el("span", "score-chip", esc(t("ishtar.ui.vp.short", { n: points })));
      chip.dataset.score = String(points);
      chip.setAttribute("aria-label", t(view.scores ? "ishtar.ui.points" : "ishtar.ui.points.now", { n: points }));
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
    sup.setAttribute("aria-label", t("ishtar.ui.assistants.label", { supply: p.assistants_supply, carpet: p.assistants_carpet }));
    sup.append(el("span", "label", esc(t("ishtar.ui.assistants.supply"))));
    for (let k = 0; k < p.assistants_supply; k += 1) sup.append(art.pawnPicture(p.colour));
    if (!p.assistants_supply) sup.append(el("span", "muted small", "–"));
    const car = el("span", "pawns");
    car.append(el("span", "label", esc(t("ishtar.ui.assistants.carpet"))));
    for (let k = 0; k < p.assistants_carpet; k += 1) car.append(art.pawnPicture(p.colour));
    if (!p.assistants_carpet) car.append(el("span", "muted small", "–"));
    row.append(sup, car);
    panel.append(row);

    panel.append(skillBoard(p, mine ? ix : null, skillTexts, selectedSkill, onSkill));

    const cardsRow = el("div", "row");
    const planted = p.tree_cards || [];
    const list = el("span", "cards");
    list.append(el("span", "label", esc(t("ishtar.ui.trees.label"))));
    if (!planted.length && p.reserved == null) list.append(el("span", "muted small", esc(t("ishtar.ui.trees.none"))));
    for (const id of planted) {
      const c = cards.get(id);
      const chip = el("span", "mini-card", c ? `${esc(treeName(c))} · ${c.vp}` : `#${id}`);
      chip.tabIndex = 0;
      // Face down on the physical table, but bought face up in view of everyone: the online
      // table shows it (docs/games/ishtar/rules.md, "Tree cards in front of the players").
      tips.tip(chip, () => infoCard({
        title: c ? treeName(c) : t("ishtar.ui.card.title", { n: id }),
        lines: [c ? esc(t("ishtar.ui.vp.count", { n: c.vp })) : "", esc(t("ishtar.ui.card.planted"))],
      }));
      list.append(chip);
    }
    if (p.reserved != null) {
      const c = cards.get(p.reserved);
      const plantable = mine && ix.plant.get(p.reserved);
      const chip = el(plantable ? "button" : "span", "mini-card reserved", esc(t("ishtar.ui.card.reserved", { card: c ? `${treeName(c)} · ${c.vp}` : `#${p.reserved}` })));
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
  row.append(el("span", "label", esc(t("ishtar.ui.fountains.label"))));
  const holders = new Map();
  for (const q of s.players) for (const f of q.fountains || []) holders.set(f.at.join(","), (holders.get(f.at.join(",")) || 0) + 1);
  const held = s.players.find((q) => q.seat === seat)?.fountains || [];
  if (!held.length) row.append(el("span", "muted small", esc(t("ishtar.ui.fountains.none"))));
  for (const f of held) {
    const shared = holders.get(f.at.join(",")) > 1 ? "yes" : "no";
    const said = { colour: f.colour, vp: f.vp, shared };
    const chip = el("span", `fountain-chip ${f.colour}`, `${art.gemIcon(f.colour, t("ishtar.ui.fountain.name", said))} ${esc(t("ishtar.ui.fountain.chip", said))}`);
    chip.setAttribute("aria-label", t("ishtar.ui.fountain.label", said));
    row.append(chip);
  }
  return row;
}

function skillBoard(p, ix, skillTexts, selectedSkill, onSkill) {
  const grid = el("div", "skills");
  grid.setAttribute("role", "group");
  grid.setAttribute("aria-label", t("ishtar.ui.skill.board"));
  const unlocked = p.skills || {};
  const cell = (letter, upper, below) => {
    const options = ix ? ix.skills.get(letter) : null;
    const isOn = Object.prototype.hasOwnProperty.call(unlocked, letter);
    const b = el(options ? "button" : "div", `skill${upper ? " upper" : ""}`);
    b.dataset.skill = letter;
    const name = skillName(letter);
    b.append(el("b", "", letter), el("span", "skill-name", esc(skillName(letter, { breakable: true }))));
    const text = skillTexts.get(letter) || skillText(letter, name);
    const lines = [esc(text)];
    let state = "none";
    if (isOn) {
      b.classList.add("unlocked");
      b.append(el("span", "paid", art.gemRow(unlocked[letter] || [])));
      state = "unlocked";
      lines.push(tHtml("ishtar.ui.skill.unlocked", {}, { gems: art.gemRow(unlocked[letter] || []) }));
    } else if (upper && below && !Object.prototype.hasOwnProperty.call(unlocked, below)) {
      b.classList.add("locked");
      state = "locked";
      lines.push(esc(t("ishtar.ui.skill.needs", { below })));
    }
    let button = null;
    if (options) {
      b.type = "button";
      b.classList.add("legal");
      state = "legal";
      // the price is the server's: the gems of the cheapest legal way to unlock it
      lines.push(esc(t("ishtar.ui.skill.can", { n: options[0].action.pay.length })));
      button = cardButton(t("ishtar.ui.skill.unlock"), () => { tips.close(); onSkill(letter); }, `unlock-${letter}`);
      if (selectedSkill === letter) b.classList.add("selected");
    } else {
      b.tabIndex = 0;
    }
    b.setAttribute("aria-label", t("ishtar.ui.skill.label", { letter, text, state, below: below || "" }));
    tips.tip(b, () => infoCard({ title: t("ishtar.ui.skill.title", { letter, name }), lines, button }), { onTap: options ? () => onSkill(letter) : null });
    return b;
  };
  UPPER.forEach((l, i) => grid.append(cell(l, true, LOWER[i])));
  LOWER.forEach((l) => grid.append(cell(l, false, null)));
  return grid;
}

// ---- final scores ------------------------------------------------------------------------

const CATEGORIES = ["trees", "flowers", "fountains"];

/** A category's name in the final table ("Trees", "Skill A · Gems"). */
function categoryName(k) {
  if (CATEGORIES.includes(k)) return t(`ishtar.ui.score.${k}`);
  const m = /^skill_([A-E])$/.exec(k);
  if (m) return t("ishtar.ui.skill.title", { letter: m[1], name: skillName(m[1]) });
  return k.replace(/_/g, " "); // a category this screen does not know yet: its id
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
  html += `</tr></thead><tbody class="points"><tr class="group"><th scope="rowgroup" colspan="${players.length + 1}">${esc(t("ishtar.ui.score.points"))}</th></tr>`;
  for (const k of cats) {
    html += `<tr><th scope="row">${esc(categoryName(k))}</th>`;
    for (const p of players) html += `<td>${p.categories?.[k] ?? 0}</td>`;
    html += "</tr>";
  }
  html += `<tr class="total"><th scope="row">${esc(t("ishtar.ui.score.total"))}</th>${players
    .map((p) => `<td class="${winners.has(p.seat) ? "win" : ""}">${p.total}</td>`)
    .join("")}</tr></tbody>`;
  html += `<tbody class="tiebreaks"><tr class="group"><th scope="rowgroup" colspan="${players.length + 1}">${esc(t("ishtar.ui.score.tiebreaks"))} <span class="muted small">${esc(t("ishtar.ui.score.tiebreaks.note"))}</span></th></tr>`;
  html += `<tr><th scope="row">${esc(t("ishtar.ui.score.planted"))}</th>${players.map((p) => `<td>${p.trees_planted ?? ""}</td>`).join("")}</tr>`;
  html += `<tr><th scope="row">${esc(t("ishtar.ui.score.gemsleft"))}</th>${players.map((p) => `<td>${p.gems_left ?? ""}</td>`).join("")}</tr></tbody>`;
  table.innerHTML = html;
  const names = [...winners].map((w) => playerName(room, w));
  const best = players.find((p) => winners.has(p.seat));
  winnerBox.textContent = names.length > 1
    ? t("ishtar.ui.score.shared", { names: list(names), n: best?.total ?? 0 })
    : names.length
      ? t("ishtar.ui.score.winner", { name: names[0], n: best?.total ?? 0 })
      : "";
  // the engine's sentence: its message when it sends one, else its English text
  const tiebreak = tm(s.tiebreak_message, s.tiebreak || "");
  tieBox.textContent = tiebreak;
  tieBox.hidden = !tiebreak;
}

