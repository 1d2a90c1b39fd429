/**
 * The legal actions the server sent, indexed for the step of the turn being played
 * (choose, place, special, bloom, reserve, plant). The browser decides nothing: every
 * option shown comes from this list, and a spot missing from it is illegal.
 */

import { key } from "./hex.js";

// How precious a gem is, only to order payment options cheapest first for the default.
const WORTH = { purple: 1, red: 2, white: 3 };

export function price(pay) {
  return (pay || []).reduce((sum, c) => sum + 100 + (WORTH[c] || 0), 0);
}

export const placeKey = (at, rotation) => `${key(at[0], at[1])}@${rotation}`;

function push(map, k, v) {
  if (!map.has(k)) map.set(k, []);
  map.get(k).push(v);
}

function byPrice(a, b) {
  return price(a.action.pay) - price(b.action.pay);
}

/** Index `legal` ([{action, preview}]) by step and choice. */
export function indexLegal(legal) {
  const ix = {
    count: legal.length,
    choose: new Map(), // pile -> entries, cheapest first
    place: new Map(), // "q,r@rot" -> entry
    placeList: [],
    discard: null,
    assistant: null,
    skills: new Map(), // letter -> entries, cheapest first
    pass: null,
    bloom: new Map(), // token -> entries
    reserve: new Map(), // card -> entry
    plant: new Map(), // card -> entries
    end: null,
    undo: null, // take back the last step of this turn (when the server offers it)
    other: [],
  };
  for (const entry of legal) {
    const a = entry.action;
    switch (a.type) {
      case "choose":
        push(ix.choose, a.pile, entry);
        break;
      case "place":
        ix.place.set(placeKey(a.at, a.rotation), entry);
        ix.placeList.push(entry);
        break;
      case "discard":
        ix.discard = entry;
        break;
      case "assistant":
        ix.assistant = entry;
        break;
      case "skill":
        push(ix.skills, a.skill, entry);
        break;
      case "pass":
        ix.pass = entry;
        break;
      case "bloom":
        push(ix.bloom, a.token, entry);
        break;
      case "reserve":
        ix.reserve.set(a.card, entry);
        break;
      case "plant":
        push(ix.plant, a.card, entry);
        break;
      case "end":
        ix.end = entry;
        break;
      case "undo":
        ix.undo = entry;
        break;
      default:
        ix.other.push(entry);
    }
  }
  for (const list of ix.choose.values()) list.sort(byPrice);
  for (const list of ix.skills.values()) list.sort(byPrice);
  return ix;
}

/** Distinct cells at position `i` of the bloom entries whose earlier cells match `prefix`. */
export function bloomCells(entries, prefix) {
  const seen = new Map();
  for (const e of entries) {
    const cells = e.action.cells;
    if (!prefix.every((c, j) => key(...cells[j]) === key(...c))) continue;
    const c = cells[prefix.length];
    if (c) seen.set(key(...c), c);
  }
  return [...seen.values()];
}

/** The bloom entry whose cells are exactly `cells`. */
export function bloomEntry(entries, cells) {
  return entries.find(
    (e) => e.action.cells.length === cells.length && e.action.cells.every((c, j) => key(...c) === key(...cells[j])),
  );
}
