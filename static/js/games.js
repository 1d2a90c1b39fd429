/**
 * The games of this server, as the page carries them: a `<script type="application/json"
 * id="games">` that app/web/routes/pages.py fills with what `GET /api/games` answers — each game's
 * id, title, player range, options schema, bot levels and the versioned URL of its screen
 * module (`client`). The shell never names a game: it looks the room's (or record's) `game`
 * up here and `import()`s that module (docs/client.md, "The screen interface").
 */

import { has, t } from "./i18n.js";

let parsed = null;
const loaded = new Map(); // client URL -> Promise<module>

/** `{default, games: [...]}` of this page (empty when the page carries none). */
export function manifest() {
  if (parsed) return parsed;
  const node = document.getElementById("games");
  try {
    parsed = JSON.parse(node?.textContent || "null") || { default: null, games: [] };
  } catch {
    parsed = { default: null, games: [] };
  }
  return parsed;
}

/** The game `id` (or the server's default game when `id` is missing or unknown). */
export function gameInfo(id) {
  const { games, default: fallback } = manifest();
  return games.find((g) => g.id === id) || games.find((g) => g.id === fallback) || games[0] || null;
}

/** The first word of a game's catalogue keys: its id ("ishtar.ui.title"), or the id's first
 * word when the game's screen keys its words so ("babylon-gardens" → "babylon.ui.title"). */
export function wordsOf(id) {
  const id_ = String(id || "");
  if (has(`${id_}.ui.title`)) return id_;
  const first = id_.split("-")[0];
  return has(`${first}.ui.title`) ? first : id_;
}

/** The bot level offered first: the middle one (Ishtar: "medium"), null without bots. */
export function defaultBot(info) {
  const levels = info?.bots || [];
  return levels.length ? levels[Math.floor((levels.length - 1) / 2)] : null;
}

/** The screen module of game `id`, imported once per page. */
export function loadScreen(id) {
  const info = gameInfo(id);
  if (!info) return Promise.reject(new Error(t("games.none")));
  if (!loaded.has(info.client)) loaded.set(info.client, import(info.client));
  return loaded.get(info.client);
}
