/**
 * Home page: create a room — the game (when the server has more than one), the player count
 * within its range and its options, drawn from its options schema (optionsform.js), and the
 * time per move — and list "your games": the rooms this browser holds a seat or host token
 * in, with their status (mygames.js). The games come from the page's manifest (games.js).
 */

import * as api from "./api.js";
import { el, esc } from "./dom.js";
import { gameInfo, loadScreen, manifest, wordsOf } from "./games.js";
import { watchMyGames } from "./mygames.js";
import { has, lang, number, t } from "./i18n.js";
import { drawOptions } from "./optionsform.js";

const $ = (id) => document.getElementById(id);
const form = $("create");
const nameInput = $("name");
const errorBox = $("create-error");

let game = null; // the game picked (its entry of the manifest)
let readOptions = () => ({});

// This runs once the page's catalogue has come (i18n.js awaits it at the top level), which
// may be after the load event: a name typed meanwhile is kept, not replaced.
if (!nameInput.value) nameInput.value = api.preferredName();

function radio(name, value, label, checked) {
  const box = el("label");
  const input = el("input");
  input.type = "radio";
  input.name = name;
  input.value = String(value);
  input.checked = checked;
  box.append(input, el("span", "", esc(label)));
  return box;
}

/** A game's name in the page's language (its screen's `<game>.ui.title`, else its own). */
function gameTitle(info) {
  const key = `${wordsOf(info.id)}.ui.title`;
  return has(key) ? t(key) : info.title;
}

/** The game list, shown only when there is a choice. */
function drawGames() {
  const { games } = manifest();
  const first = gameInfo(null);
  $("game-field").hidden = games.length < 2;
  $("game-pick").replaceChildren(...games.map((g) => radio("game", g.id, gameTitle(g), g === first)));
  $("game-pick").addEventListener("change", () => pick(gameInfo(new FormData(form).get("game"))));
  pick(first);
}

/** Draw the fields of `info`: players in its range, its options, its bots. */
function pick(info) {
  game = info;
  if (!game) return;
  form.dataset.game = game.id;
  const rules = $("rules-link");
  rules.href = `/rules/${encodeURIComponent(game.id)}`;
  rules.textContent = t("rules.link_game", { game: gameTitle(game) });
  // the game's own summary is English: another page keeps its lede unless the game's
  // screen words the summary in the page's language
  const summary = `${wordsOf(game.id)}.ui.summary`;
  if (has(summary)) $("lede").textContent = t(summary);
  else if (game.summary && lang === "en") $("lede").textContent = game.summary;
  const { min, max } = game.players;
  const players = [];
  for (let n = min; n <= max; n += 1) players.push(radio("players", n, number(n), n === min));
  $("players-pick").replaceChildren(...players);
  readOptions = drawOptions($("options"), game.options, game.id);
  readOptions.fit?.(min);
  // a game without bots cannot hand a late turn to one
  const bots = game.bots || [];
  $("late-bot").hidden = !bots.length;
  if (!bots.length) form.querySelector("input[name=late][value=wait]").checked = true;
  drawVignette(game);
}

/** The picked game's picture at the top, if its screen module draws one. */
function drawVignette(info) {
  const canvas = $("vignette");
  loadScreen(info.id).then(
    (module) => {
      if (game !== info) return; // another game was picked meanwhile
      canvas.hidden = !module.vignette;
      if (module.vignette) module.vignette(canvas);
    },
    () => { canvas.hidden = true; },
  );
}

/** The time control chosen in the form: none, or seconds per move and what happens then. */
function timeControl(data) {
  const seconds = Number(data.get("per_move") || 0);
  if (!seconds) return {};
  const policy = String(data.get("late") || "wait");
  return { time_control: { per_move_s: seconds, policy, ...(policy === "bot" ? { bot: game.bots[0] } : {}) } };
}

form.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const data = new FormData(form);
  const name = String(data.get("name") || "").trim();
  if (!name) return nameInput.focus();
  const button = $("create-btn");
  button.disabled = true;
  errorBox.hidden = true;
  const players = Number(data.get("players"));
  try {
    const res = await api.createRoom({
      game: game.id,
      players,
      options: readOptions(form),
      name,
      ...timeControl(data),
    });
    api.savePreferredName(name);
    api.saveHost(res.room_id, res.host_token);
    if (res.token) api.saveSeat(res.room_id, res.token, { name, players });
    window.location.assign(res.url || `/r/${res.room_id}`);
  } catch (err) {
    errorBox.textContent = err.message;
    errorBox.hidden = false;
    button.disabled = false;
  }
});

// the options offered follow the player count (team mode with 4 only, seats up to the count)
$("players-pick").addEventListener("change", () => readOptions.fit?.(Number(new FormData(form).get("players"))));

drawGames();
// The button comes disabled: pressed before this module has run (it waits for the page's
// catalogue), the form would submit itself as a plain GET and reload the home page.
$("create-btn").disabled = false;
watchMyGames($("your-games"));
