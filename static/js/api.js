/**
 * The HTTP JSON API of docs/protocol.md, and the seat/host tokens this browser keeps in
 * localStorage (keys `ishtar.seat.<room>` and `ishtar.host.<room>`, as the protocol fixes).
 */

import { failureText } from "./errors.js";
import { manifest } from "./games.js";

/** A refused request: `message` is its text in the page's language (errors.js), `reason`
 * the server's English, `code` its stable code. */
class ApiError extends Error {
  constructor(status, body) {
    const err = (body && body.error) || {};
    super(failureText(status, body));
    this.reason = err.reason || "";
    this.status = status;
    this.code = err.code || "http_" + status;
    this.body = body;
  }
}

/** One JSON request: resolves to the body, or throws ApiError with the server's code and reason. */
export async function request(method, path, { body, token } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) throw new ApiError(res.status, data);
  return data;
}

export const createRoom = (spec) => request("POST", "/api/rooms", { body: spec });
export const takeSeat = (id, name, hostToken) =>
  request("POST", `/api/rooms/${encodeURIComponent(id)}/seats`, { body: { name }, token: hostToken });
export const startGame = (id, token) => request("POST", `/api/rooms/${encodeURIComponent(id)}/start`, { token });
export const addBot = (id, seat, level, token) =>
  request("POST", `/api/rooms/${encodeURIComponent(id)}/bots`, { body: { level, seat }, token });
export const getMovesBefore = (id, before, limit = 100) =>
  request("GET", `/api/rooms/${encodeURIComponent(id)}/moves?before=${before}&limit=${limit}`);
/**
 * A game's static component data (`/api/catalogue` is Ishtar's, from before games): under the
 * versioned URL the page's manifest names, which the browser keeps for a year, when it names
 * one for that game.
 */
export const getCatalogue = (game) =>
  request(
    "GET",
    manifest().games.find((g) => g.id === game)?.catalogue ||
      (game ? `/api/games/${encodeURIComponent(game)}/catalogue` : "/api/catalogue"),
  );
export const whyIllegal = (id, move, token) =>
  request("POST", `/api/rooms/${encodeURIComponent(id)}/why`, { body: { move }, token });

// ---- tokens kept by this browser -------------------------------------------------------

const SEAT = "ishtar.seat.";
const HOST = "ishtar.host.";
const META = "ishtar.meta.";

function storage() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export function seatToken(room) {
  return storage()?.getItem(SEAT + room) || null;
}

export function hostToken(room) {
  return storage()?.getItem(HOST + room) || null;
}

export function saveSeat(room, token, meta = {}) {
  const s = storage();
  if (!s) return;
  s.setItem(SEAT + room, token);
  rememberRoom(room, meta);
}

export function saveHost(room, token) {
  storage()?.setItem(HOST + room, token);
}

export function forgetSeat(room) {
  storage()?.removeItem(SEAT + room);
}

/** Small facts shown on the home page ("your games"): name, when joined. */
export function rememberRoom(room, meta) {
  const s = storage();
  if (!s) return;
  const old = JSON.parse(s.getItem(META + room) || "{}");
  s.setItem(META + room, JSON.stringify({ ...old, ...meta, seen: Date.now() }));
}

/** Rooms this browser holds a seat (or the host token) in, most recent first. */
export function myRooms() {
  const s = storage();
  if (!s) return [];
  const rooms = new Set();
  for (let i = 0; i < s.length; i += 1) {
    const k = s.key(i);
    if (k.startsWith(SEAT)) rooms.add(k.slice(SEAT.length));
    else if (k.startsWith(HOST)) rooms.add(k.slice(HOST.length));
  }
  return [...rooms]
    .map((room) => ({ room, ...JSON.parse(s.getItem(META + room) || "{}") }))
    .sort((a, b) => (b.seen || 0) - (a.seen || 0));
}

export function preferredName() {
  return storage()?.getItem("ishtar.name") || "";
}

export function savePreferredName(name) {
  storage()?.setItem("ishtar.name", name);
}

export function newMoveId() {
  if (window.crypto?.randomUUID) return window.crypto.randomUUID();
  return `m-${Date.now()}-${Math.random().toString(36).slice(2)}`;
}
