/**
 * Ishtar's pieces in words, for the cards of tips.js, the tooltips and the labels: a tile and
 * its spaces ("2 flowers with the assistant icon"), a blooming token, a price in gems. Only
 * what the view and the legal actions say; no rule is decided here.
 */

const ICON = {
  a: "the assistant icon: place an assistant on it",
  s: "the skill icon: unlock a skill",
  w: "the wild icon: an assistant or a skill",
};

const ICON_SHORT = { a: "assistant icon", s: "skill icon", w: "wild icon" };

export const SHAPE = { line: "Line", chevron: "Chevron", triangle: "Triangle" };

export function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

/** One space of a tile: "grass", "2 flowers", "1 flower with the skill icon". */
export function spaceWords(space, { short = false } = {}) {
  if (space.kind !== "flower") return short ? "grass" : "grass (a tree may grow here)";
  const flowers = plural(space.flowers || 1, "flower");
  if (!space.icon) return flowers;
  return `${flowers} with ${short ? `the ${ICON_SHORT[space.icon]}` : ICON[space.icon]}`;
}

/** "Chevron tile: 2 flowers with the assistant icon, 1 flower, grass". */
export function tileWords(tile) {
  const head = `${SHAPE[tile.shape] || tile.shape} tile${tile.start ? " (a starting tile)" : ""}`;
  return `${head}: ${tile.spaces.map((s) => spaceWords(s, { short: true })).join(", ")}`;
}

/** The flowers of a tile in all. */
export function tileFlowers(tile) {
  return tile.spaces.reduce((n, s) => n + (s.kind === "flower" ? s.flowers || 1 : 0), 0);
}

/** A blooming token: "F1F2" → "1 flower and 2 flowers, on two spaces side by side". */
export function tokenWords(token) {
  const counts = (token.match(/F(\d)/g) || []).map((f) => Number(f.slice(1)));
  const parts = counts.map((n) => plural(n, "flower"));
  if (counts.length === 1) return `A blooming token of ${parts[0]} on one grass space`;
  return `A blooming token of ${parts.join(" and ")}, on two grass spaces side by side`;
}

/** A payment in words: ["purple","red"] → "1 purple and 1 red gem"; [] → "free". */
export function payWords(pay) {
  if (!pay || !pay.length) return "free";
  const counts = {};
  for (const c of pay) counts[c] = (counts[c] || 0) + 1;
  const parts = ["purple", "red", "white"].filter((c) => counts[c]).map((c) => `${counts[c]} ${c}`);
  const last = parts.pop();
  return `${parts.length ? `${parts.join(", ")} and ${last}` : last} gem${pay.length > 1 ? "s" : ""}`;
}
