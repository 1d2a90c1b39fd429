/**
 * Ishtar's pieces in words, for the cards of tips.js, the tooltips and the labels: a tile and
 * its spaces ("2 flowers with the assistant icon"), a blooming token, a price in gems. Every
 * word comes from this game's catalogue (`ishtar.ui.*`, static/games/ishtar/i18n/), so the
 * same piece reads in English, French or Dutch; no sentence is put together here from
 * English fragments. Only what the view and the legal actions say; no rule is decided here.
 */

import { esc } from "../../js/dom.js";
import { has, list, t } from "../../js/i18n.js";

export { t };

const COLOURS = ["purple", "red", "white"];

/** A shape's name as a message param ("Line", "Ligne", "Lijn"). */
export function shapeName(shape) {
  const key = `ishtar.ui.shape.${shape}`;
  return has(key) ? t(key) : String(shape);
}

/** One space of a tile: "grass", "2 flowers", "1 flower with the skill icon". */
export function spaceWords(space, { short = false } = {}) {
  if (space.kind !== "flower") return t(short ? "ishtar.ui.space.grass" : "ishtar.ui.space.grass.long");
  const n = space.flowers || 1;
  if (!space.icon) return t("ishtar.ui.space.flowers", { n });
  return t(short ? "ishtar.ui.space.icon" : "ishtar.ui.space.icon.long", { n, icon: space.icon });
}

/** "Chevron tile: 2 flowers with the assistant icon, 1 flower, grass". */
export function tileWords(tile) {
  const spaces = tile.spaces.map((s) => spaceWords(s, { short: true })).join(", ");
  return t(tile.start ? "ishtar.ui.tile.words.start" : "ishtar.ui.tile.words", { shape: tile.shape, spaces });
}

/** The flowers of a tile in all. */
export function tileFlowers(tile) {
  return tile.spaces.reduce((n, s) => n + (s.kind === "flower" ? s.flowers || 1 : 0), 0);
}

/** A blooming token: "F1F2" → "A blooming token of 1 flower and 2 flowers, on two …". */
export function tokenWords(token) {
  const counts = (token.match(/F(\d)/g) || []).map((f) => Number(f.slice(1)));
  if (counts.length === 1) return t("ishtar.ui.token.single", { n: counts[0] });
  return t("ishtar.ui.token.double", { a: counts[0], b: counts[1] });
}

/** A payment in words: ["purple","red"] → "1 purple gem and 1 red gem"; [] → `none`. */
export function payWords(pay, none = "ishtar.ui.pay.free") {
  if (!pay || !pay.length) return t(none);
  const counts = {};
  for (const c of pay) counts[c] = (counts[c] || 0) + 1;
  return list(COLOURS.filter((c) => counts[c]).map((c) => t(`ishtar.ui.gems.${c}`, { n: counts[c] })));
}

/** A tree card's cost ({purple: 1, red: 2}) in words, "nothing" when free. */
export function costWords(cost) {
  const pay = [];
  for (const c of COLOURS) for (let k = 0; k < (cost?.[c] || 0); k += 1) pay.push(c);
  return payWords(pay, "ishtar.ui.pay.nothing");
}

/** A tree card's name: the catalogue's, by card number, else the engine's English name. */
export function treeName(card) {
  const key = `ishtar.ui.tree.${card.card}`;
  return has(key) ? t(key) : card.name;
}

/** A skill's short title ("Gems") and its description, with the game's numbers as params. */
/**
 * A skill's short name ("Recall", "Terugroepen"). The catalogue marks where a long name may
 * break with soft hyphens (U+00AD: "Te\u00adrug\u00adroe\u00adpen"), for the narrow cells of
 * the skill board (`breakable`); everywhere else (buttons, cards, labels) the plain word.
 */
export function skillName(letter, { breakable = false } = {}) {
  const key = `ishtar.ui.skill.${letter}.name`;
  if (!has(key)) return letter;
  return breakable ? t(key) : t(key).replaceAll("\u00ad", "");
}

export function skillText(letter, fallback = "", params = {}) {
  const key = `ishtar.ui.skill.${letter}.text`;
  return has(key) ? t(key, params) : fallback;
}

// Private-use characters around an HTML param's name: they survive the formatter and
// `esc`, then the param's markup takes their place.
const OPEN = "\uE000";
const CLOSE = "\uE001";

/**
 * Catalogue `key` as HTML: `params` are text (escaped), `markup` are trusted HTML fragments
 * (gem icons, bold) put in the pattern's `{name}` places. The sentence stays the catalogue's.
 */
export function tHtml(key, params = {}, markup = {}) {
  const slots = Object.fromEntries(Object.keys(markup).map((k) => [k, `${OPEN}${k}${CLOSE}`]));
  const text = esc(t(key, { ...params, ...slots }));
  return text.replace(new RegExp(`${OPEN}([^${CLOSE}]*)${CLOSE}`, "g"), (_, k) => markup[k] ?? "");
}
