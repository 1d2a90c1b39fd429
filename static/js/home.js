/**
 * Home page: create a room (player count, layout) and list "your games" — the rooms this
 * browser holds a seat or host token in, with their status from the server.
 */

import * as api from "./api.js";
import { drawVignette } from "./vignette.js";

const form = document.getElementById("create");
const nameInput = document.getElementById("name");
const errorBox = document.getElementById("create-error");
const list = document.getElementById("your-games");

nameInput.value = api.preferredName();

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

const STATUS = { open: "waiting for players", playing: "in play", finished: "finished" };

async function showGames() {
  const rooms = api.myRooms();
  if (!rooms.length) return;
  list.innerHTML = "";
  for (const r of rooms.slice(0, 12)) {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = `/r/${encodeURIComponent(r.room)}`;
    a.innerHTML = `<span><strong></strong> <span class="muted small"></span></span><span class="tag">…</span>`;
    a.querySelector("strong").textContent = r.players ? `${r.players}-player game` : "Game";
    a.querySelector(".muted").textContent = r.name ? `as ${r.name}` : "";
    li.append(a);
    list.append(li);
    const tag = a.querySelector(".tag");
    api.getRoom(r.room).then(
      async (room) => {
        const names = room.seats.filter((s) => s.taken).map((s) => s.name);
        a.querySelector("strong").textContent = `${room.players}-player game`;
        a.querySelector(".muted").textContent = names.length ? `with ${names.join(", ")}` : "";
        tag.textContent = STATUS[room.status] || room.status;
        const token = api.seatToken(r.room);
        if (room.status === "playing" && token) {
          const state = await api.getView(r.room, token).catch(() => null);
          if (state && state.legal && state.legal.length) {
            tag.textContent = "your turn";
            tag.classList.add("turn");
          }
        }
      },
      () => {
        tag.textContent = "no longer exists";
        li.classList.add("muted");
      },
    );
  }
}

showGames();
drawVignette(document.getElementById("vignette"));
