/**
 * "Your games" on the home page: every room this browser holds a seat (or host) token for,
 * with its status, whose turn it is, the time of the last move and how many moves came since
 * this browser last looked. One request for all of them (POST /api/my-games); the answers
 * carry no token. Rooms whose token no longer works (the player left, the seat was handed
 * on) say so and can be forgotten.
 */

import * as api from "./api.js";
import { ago, lastSeen, myGames, span } from "./asyncapi.js";
import { redraw } from "./dom.js";
import { errorText } from "./errors.js";
import { list, t } from "./i18n.js";
import { ofName } from "./initials.js";
import { day, offered, pushAll, pushState, registerWorker, stillAway } from "./reach.js";

const REFRESH_MS = 30000;
const KEPT = "ishtar.mygames"; // the last answer and when it came: shown when offline

function keep(games) {
  try {
    window.localStorage.setItem(KEPT, JSON.stringify({ at: new Date().toISOString(), games }));
  } catch {
    /* private mode: nothing kept */
  }
}

function kept() {
  try {
    const found = JSON.parse(window.localStorage.getItem(KEPT) || "null");
    return found && Array.isArray(found.games) ? found : null;
  } catch {
    return null;
  }
}
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
  if (g.status === "open") return t("mygames.open");
  if (g.status === "finished") {
    const names = (g.winners || []).map((w) => w.name || t("seat.number", { n: w.seat + 1 }));
    return names.length ? t("mygames.won", { names: list(names), count: names.length }) : t("mygames.finished");
  }
  if (!g.turn) return t("mygames.in_play");
  if (g.your_turn) return t("mygames.your_turn");
  const name = g.turn.name || t("seat.number", { n: g.turn.seat + 1 });
  return t(g.clock && g.clock.overdue ? "mygames.turn_overdue" : "mygames.turn", { of_name: ofName(name) });
}

function whenText(g) {
  const parts = [];
  if (g.last_move_at) parts.push(t("mygames.last_move", { ago: ago(g.last_move_at) }));
  else parts.push(t("mygames.created", { ago: ago(g.created_at) }));
  const seen = lastSeen(g.room_id);
  if (g.status !== "open" && seen !== null && g.version > seen) parts.push(t("mygames.new", { n: g.version - seen }));
  const away = (g.seats || []).filter((s) => g.status === "playing" && stillAway(s.away_until));
  for (const s of away) parts.push(t("reach.away.seat", { name: s.name, date: day(s.away_until) }));
  if (g.clock && !g.clock.overdue && g.status === "playing" && !away.length) {
    const left = (Date.parse(g.clock.due_at) - Date.now()) / 1000;
    parts.push(t("mygames.left", { left: span(left) }));
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
    who.textContent = g.name ? t("mygames.seat_of", { of_name: ofName(g.name) }) : t("mygames.a_room");
    sub.textContent = errorText(g.error);
    tag.textContent = t(g.error.code === "unknown_room" ? "mygames.gone" : "mygames.no_seat");
    const drop = document.createElement("button");
    drop.type = "button";
    drop.className = "btn small forget";
    drop.textContent = t("mygames.forget");
    drop.addEventListener("click", () => {
      forget(g.room_id);
      li.remove();
    });
    li.append(drop);
    return li;
  }
  const names = g.seats.filter((s) => s.name).map((s) => (s.left ? t("mygames.left_seat", { name: s.name }) : s.name));
  // a roll of names, not a sentence: commas in every language
  who.textContent = names.join(", ") || t("mygames.no_one");
  sub.textContent = whenText(g);
  tag.textContent = turnText(g);
  li.dataset.status = g.status;
  if (g.your_turn) li.classList.add("your-turn");
  return li;
}

async function showMyGames(list) {
  const rooms = held();
  if (!rooms.length) return;
  let games;
  const offline = document.getElementById("games-offline");
  try {
    games = await myGames(rooms.map(({ room_id, token }) => ({ room_id, token })));
    keep(games);
    if (offline) offline.hidden = true;
  } catch {
    // offline (or the server is away): the games as last seen, and when that was
    const last = kept();
    if (!last || list.dataset.loaded === "1") return; // keep what is shown; the next refresh tries again
    games = last.games;
    if (offline) {
      offline.textContent = t("reach.offline", { ago: ago(last.at) });
      offline.hidden = false;
    }
  }
  const names = new Map(rooms.map((r) => [r.room_id, r.name]));
  games = games.map((g, i) => ({ ...g, name: g.name || names.get(g.room_id), order: i }));
  games.sort((a, b) => rank(a) - rank(b) || (b.last_move_at || "").localeCompare(a.last_move_at || "") || a.order - b.order);
  // The list refreshes every 30 s and as the page comes back in front: drawn anew only
  // where it changed, so a game pressed as a refresh lands is still opened (js/dom.js).
  redraw(list, ...games.map(item));
  list.dataset.loaded = "1";
  list.dataset.refreshes = String(Number(list.dataset.refreshes || 0) + 1);
  const mine = games.filter((g) => g.your_turn).length;
  document.title = mine ? t("mygames.page_title_turn", { n: mine }) : t("home.title");
}

/** "Tell me when it's my turn" for every seat this browser holds (Web Push). */
async function offerPushAll() {
  const box = document.getElementById("reach-all");
  if (!box) return;
  const offer = await offered();
  const seats = api.myRooms().map((r) => ({ room_id: r.room, token: api.seatToken(r.room) })).filter((r) => r.token);
  if (!offer.push || !seats.length) return;
  const state = pushState();
  const say = box.querySelector(".reach-all-text");
  const go = box.querySelector("button");
  box.hidden = false;
  if (state === "home-screen") {
    say.textContent = t("reach.push.home_screen");
    go.hidden = true;
    return;
  }
  if (state !== "ready") {
    box.hidden = true;
    return;
  }
  say.textContent = t("reach.push.all_offer");
  go.textContent = t("reach.push.turn_on");
  go.onclick = async () => {
    const done = await pushAll(seats).catch(() => 0);
    say.textContent = done ? t("reach.push.all_done", { n: done }) : t("reach.push.refused");
    go.hidden = !!done;
  };
}

export function watchMyGames(list) {
  registerWorker();
  offerPushAll();
  showMyGames(list);
  setInterval(() => {
    if (document.visibilityState === "visible") showMyGames(list);
  }, REFRESH_MS);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") showMyGames(list);
  });
}
