/**
 * What Babylon Gardens' screen says in words and reads off a view: a tile ("red, 3 flowers,
 * 1 of 3 gems"), the room's options for the lobby, and which tiles the last harvest took
 * (for the board's brief glow).
 */

export const FLOOR_NAMES = {
  lower: "Lower Garden",
  middle: "Middle Garden",
  higher: "Higher Garden",
  roof: "Roof Garden",
  ishtar: "Ishtar's Garden",
  tammuz: "Tammuz's Garden",
};

/** "Red tile · 3 flowers · 1/3 gems". */
export function tileWords(t) {
  const colour = t.colour ? t.colour.charAt(0).toUpperCase() + t.colour.slice(1) : "A";
  return `${colour} tile · ${t.flowers} flower${t.flowers === 1 ? "" : "s"} · ${t.gems}/${t.flowers} gems`;
}

/** The options in the lobby's words: "Lower Garden · random scoreboards · teams". */
export function describeOptions(options = {}) {
  const parts = [FLOOR_NAMES[options.floor || "lower"] || String(options.floor)];
  parts.push(options.scoreboards === "choose" ? "scoreboards chosen" : "random scoreboards");
  if (options.teams) parts.push("teams");
  if (options.first_player !== null && options.first_player !== undefined) parts.push(`seat ${options.first_player + 1} starts`);
  return parts.join(" · ");
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
