/**
 * Home page: create a room (player count, layout, time per move) and list "your games" — the
 * rooms this browser holds a seat or host token in, with their status (mygames.js).
 */

import * as api from "./api.js";
import { watchMyGames } from "./mygames.js";
import { drawVignette } from "../games/ishtar/vignette.js";

const form = document.getElementById("create");
const nameInput = document.getElementById("name");
const errorBox = document.getElementById("create-error");
const list = document.getElementById("your-games");

nameInput.value = api.preferredName();

/** The time control chosen in the form: none, or seconds per move and what happens then. */
function timeControl(data) {
  const seconds = Number(data.get("per_move") || 0);
  if (!seconds) return {};
  const policy = String(data.get("late") || "wait");
  return { time_control: { per_move_s: seconds, policy, ...(policy === "bot" ? { bot: "easy" } : {}) } };
}

form.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const data = new FormData(form);
  const name = String(data.get("name") || "").trim();
  if (!name) return nameInput.focus();
  const button = document.getElementById("create-btn");
  button.disabled = true;
  errorBox.hidden = true;
  try {
    const res = await api.createRoom({
      players: Number(data.get("players")),
      layout: String(data.get("layout")),
      name,
      ...timeControl(data),
    });
    api.savePreferredName(name);
    api.saveHost(res.room_id, res.host_token);
    if (res.token) api.saveSeat(res.room_id, res.token, { name, players: Number(data.get("players")) });
    window.location.assign(res.url || `/r/${res.room_id}`);
  } catch (err) {
    errorBox.textContent = err.message;
    errorBox.hidden = false;
    button.disabled = false;
  }
});

watchMyGames(list);
drawVignette(document.getElementById("vignette"));
