/**
 * "Your games" on the home page: every room this browser holds a seat (or host) token for,
 * with its status, whose turn it is, the time of the last move and how many moves came since
 * this browser last looked. One request for all of them (POST /api/my-games); the answers
 * carry no token. Rooms whose token no longer works (the player left, the seat was handed
 * on) say so and can be forgotten.
 */

import * as api from "./api.js";
import { ago, lastSeen, myGames, span } from "./asyncapi.js";

const REFRESH_MS = 30000;
const RANK = { mine: 0, playing: 1, open: 2, finished: 3, gone: 4 };

function held() {
  return api.myRooms().slice(0, 100).map((r) => ({
    room_id: r.room,
    token: api.seatToken(r.room) || api.hostToken(r.room),
    name: r.name,
  })).filter((r) => r.token);
}

function forget(roomId) {
  api.forgetSeat(roomId);
  try {
    for (const prefix of ["ishtar.host.", "ishtar.meta.", "ishtar.seen."]) window.localStorage.removeItem(prefix + roomId);
  } catch {
    /* nothing stored */
  }
}

function turnText(g) {
  if (g.status === "open") return "waiting for players";
  if (g.status === "finished") return "finished";
  if (!g.turn) return "in play";
  if (g.your_turn) return "your turn";
  const late = g.clock && g.clock.overdue ? " (overdue)" : "";
  return `${g.turn.name || `seat ${g.turn.seat}`}’s turn${late}`;
}

function whenText(g) {
  const parts = [];
  if (g.last_move_at) parts.push(`last move ${ago(g.last_move_at)}`);
  else parts.push(`created ${ago(g.created_at)}`);
  const seen = lastSeen(g.room_id);
  if (g.status !== "open" && seen !== null && g.version > seen) parts.push(`${g.version - seen} new`);
  if (g.clock && !g.clock.overdue && g.status === "playing") {
    const left = (Date.parse(g.clock.due_at) - Date.now()) / 1000;
    parts.push(`${span(left)} left to move`);
  }
  return parts.join(" · ");
}

function rank(g) {
  if (g.error) return RANK.gone;
  if (g.your_turn) return RANK.mine;
  return RANK[g.status] ?? RANK.gone;
}

function item(g) {
  const li = document.createElement("li");
  li.className = "my-game";
  li.dataset.room = g.room_id;
  const a = document.createElement("a");
  a.href = `/r/${encodeURIComponent(g.room_id)}`;
  const main = document.createElement("span");
  main.className = "g-main";
  const who = document.createElement("strong");
  const sub = document.createElement("span");
  sub.className = "muted small g-when";
  const tag = document.createElement("span");
  tag.className = "tag g-turn";
  main.append(who, document.createTextNode(" "), sub);
  a.append(main, tag);
  li.append(a);
  if (g.error) {
    li.classList.add("gone");
    who.textContent = g.name ? `${g.name}’s seat` : "A room";
    sub.textContent = g.error.reason;
    tag.textContent = g.error.code === "unknown_room" ? "no longer exists" : "no seat";
    const drop = document.createElement("button");
    drop.type = "button";
    drop.className = "btn small forget";
    drop.textContent = "Forget";
    drop.addEventListener("click", () => {
      forget(g.room_id);
      li.remove();
    });
    li.append(drop);
    return li;
  }
  const names = g.seats.filter((s) => s.name).map((s) => (s.left ? `${s.name} (left)` : s.name));
  who.textContent = names.join(", ") || "no one seated yet";
  sub.textContent = whenText(g);
  tag.textContent = turnText(g);
  li.dataset.status = g.status;
  if (g.your_turn) li.classList.add("your-turn");
  return li;
}

export async function showMyGames(list) {
  const rooms = held();
  if (!rooms.length) return;
  let games;
  try {
    games = await myGames(rooms.map(({ room_id, token }) => ({ room_id, token })));
  } catch {
    return; // keep what is shown; the next refresh tries again
  }
  const names = new Map(rooms.map((r) => [r.room_id, r.name]));
  games = games.map((g, i) => ({ ...g, name: g.name || names.get(g.room_id), order: i }));
  games.sort((a, b) => rank(a) - rank(b) || (b.last_move_at || "").localeCompare(a.last_move_at || "") || a.order - b.order);
  list.replaceChildren(...games.map(item));
  list.dataset.loaded = "1";
  const mine = games.filter((g) => g.your_turn).length;
  document.title = mine ? `(${mine}) Your turn · Ishtar Online` : "Ishtar Online — gardens of Babylon";
}

export function watchMyGames(list) {
  showMyGames(list);
  setInterval(() => {
    if (document.visibilityState === "visible") showMyGames(list);
  }, REFRESH_MS);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") showMyGames(list);
  });
}
