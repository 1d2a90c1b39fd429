/**
 * The HTTP calls of play between sessions (docs/async-play.md): "your games", leaving,
 * handing a seat on, seat history and the seat's turn webhook.
 */

import { request } from "./api.js";
import { t } from "./i18n.js";

const call = request;

const room = (id) => `/api/rooms/${encodeURIComponent(id)}`;

/** [{room_id, token}] -> [{room_id, status, turn, your_turn, last_move_at, ...} | {room_id, error}] */
export const myGames = (held) => call("POST", "/api/my-games", { body: { rooms: held } }).then((r) => r.games);
export const leave = (id, token) => call("POST", `${room(id)}/leave`, { token });
export const handToPerson = (id, seat, name, hostToken) =>
  call("POST", `${room(id)}/seats/${seat}/person`, { body: { name }, token: hostToken });
export const handToBot = (id, seat, level, hostToken) =>
  call("POST", `${room(id)}/seats/${seat}/bot`, { body: { level }, token: hostToken });
export const seatHistory = (id) => call("GET", `${room(id)}/seat-history`);
export const getWebhook = (id, token) => call("GET", `${room(id)}/webhook`, { token });
export const setWebhook = (id, url, token) => call("PUT", `${room(id)}/webhook`, { body: { url }, token });
export const removeWebhook = (id, token) => call("DELETE", `${room(id)}/webhook`, { token });

// ---- time --------------------------------------------------------------------------------

/** "3 h", "2 d", "45 s" (in the page's language): a duration in the largest unit that fits. */
export function span(seconds) {
  const s = Math.max(0, Math.round(seconds));
  if (s >= 86400) return t("time.days", { n: Math.round(s / 86400) });
  if (s >= 3600) return t("time.hours", { n: Math.round(s / 3600) });
  if (s >= 60) return t("time.minutes", { n: Math.round(s / 60) });
  return t("time.seconds", { n: s });
}

/** "5 min ago" for an ISO time. */
export function ago(iso) {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return "";
  const s = (Date.now() - at) / 1000;
  return s < 45 ? t("time.just_now") : t("time.ago", { span: span(s) });
}

/** The last version this browser showed of a room's game (localStorage ishtar.seen.<room>). */
export function lastSeen(roomId) {
  try {
    const v = Number.parseInt(window.localStorage.getItem(`ishtar.seen.${roomId}`) || "", 10);
    return Number.isFinite(v) ? v : null;
  } catch {
    return null;
  }
}

export function saveSeen(roomId, version) {
  try {
    window.localStorage.setItem(`ishtar.seen.${roomId}`, String(version));
  } catch {
    /* private mode: nothing remembered */
  }
}
