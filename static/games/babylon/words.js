/**
 * What Babylon Gardens' screen says in words and reads off a view: a tile ("red, 3 flowers,
 * 1 of 3 gems"), the room's options for the lobby, and which tiles the last harvest took
 * (for the board's brief glow). Every word comes from this game's catalogue (`babylon.ui.*`,
 * static/games/babylon/i18n/), so the screen reads in English, French or Dutch.
 */

import { has, list, t } from "../../js/i18n.js";

export { list, t };

/** A floor's name ("Lower Garden", "Jardin inférieur"), else the engine's English `fallback`. */
export function floorName(id, fallback = "") {
  const key = `babylon.ui.floor.${id}`;
  return has(key) ? t(key) : fallback || String(id ?? "");
}

/** A nectar colour's name, as an adjective of a wink ("red", "rouge", "rood"). */
export function colourName(colour) {
  const key = `babylon.ui.colour.${colour}`;
  return has(key) ? t(key) : String(colour ?? "?");
}

/** "Red tile · 3 flowers · 1/3 gems". */
export function tileWords(tile) {
  return t("babylon.ui.tile.words", { colour: tile.colour || "none", n: tile.flowers, gems: tile.gems });
}

/** The options in the lobby's words: "Lower Garden · random scoreboards · teams". */
export function describeOptions(options = {}) {
  const seat = options.first_player;
  return t("babylon.ui.options", {
    floor: floorName(options.floor || "lower"),
    scoreboards: options.scoreboards === "choose" ? "choose" : "random",
    teams: options.teams ? "yes" : "no",
    first: seat === null || seat === undefined ? "random" : "seat",
    seat: seat === null || seat === undefined ? 0 : seat + 1,
  });
}

/**
 * The tiles the previous turn harvested, `[{at, colour}]`, and a key that changes when
 * another harvest comes (so the board lights them once, not on every step of the next turn).
 */
export function harvestGlow(view) {
  const cells = (view.harvested || []).map((h) => ({ at: h.at, colour: h.colour }));
  const key = cells.length ? `${view.turn}|${JSON.stringify(view.harvested)}` : null;
  return { key, cells };
}
