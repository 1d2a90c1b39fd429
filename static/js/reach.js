/**
 * Reaching a player with the site closed (docs/async-play.md): the service worker, Web Push
 * subscriptions per seat, the e-mail digest's address and "away". The server says what it
 * offers (GET /api/reach: the push key, whether it sends mail, the away allowance).
 */

import { request } from "./api.js";
import { lang } from "./i18n.js";

const room = (id) => `/api/rooms/${encodeURIComponent(id)}`;
let offer = null;

/** What this server offers: {push: {public_key} | null, mail: bool, away: {most_days, days_per_year}}. */
export async function offered() {
  if (!offer) offer = request("GET", "/api/reach").catch(() => ({ push: null, mail: false, away: null }));
  return offer;
}

export const seatReach = (id, token) => request("GET", `${room(id)}/reach`, { token });
export const setEmail = (id, address, token) => request("PUT", `${room(id)}/email`, { body: { address, lang }, token });
export const removeEmail = (id, token) => request("DELETE", `${room(id)}/email`, { token });
export const setAway = (id, until, token) => request("PUT", `${room(id)}/away`, { body: { until }, token });
export const comeBack = (id, token) => request("DELETE", `${room(id)}/away`, { token });

// ---- the service worker and push --------------------------------------------------------------

/** Register the service worker (the installable app, offline "your games", pushes). */
export async function registerWorker() {
  if (!("serviceWorker" in navigator)) return null;
  try {
    return await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  } catch {
    return null;
  }
}

/** An iPhone or iPad browser tab: Web Push needs the site on the Home Screen there. */
function needsHomeScreen() {
  const apple = /iPhone|iPad|iPod/.test(navigator.userAgent) || (navigator.platform === "MacIntel" && navigator.maxTouchPoints > 1);
  const standalone = window.matchMedia?.("(display-mode: standalone)").matches || navigator.standalone === true;
  return apple && !standalone;
}

/** "unsupported", "home-screen" (iPhone, not installed), "denied", or "ready". */
export function pushState() {
  if (needsHomeScreen()) return "home-screen";
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) return "unsupported";
  if (window.Notification.permission === "denied") return "denied";
  return "ready";
}

function keyBytes(base64url) {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

/** This browser's push subscription (made if `create`), or null. */
async function subscription(create) {
  const info = await offered();
  if (!info.push || pushState() !== "ready") return null;
  const registration = (await registerWorker()) && (await navigator.serviceWorker.ready);
  if (!registration) return null;
  const found = await registration.pushManager.getSubscription();
  if (found || !create) return found;
  if (window.Notification.permission !== "granted") {
    if ((await window.Notification.requestPermission()) !== "granted") return null;
  }
  return registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(info.push.public_key) });
}

function wire(sub) {
  const json = sub.toJSON();
  return { endpoint: json.endpoint, keys: { p256dh: json.keys.p256dh, auth: json.keys.auth }, lang };
}

/** Push this seat's turns to this browser. */
export async function pushOn(id, token) {
  const sub = await subscription(true);
  if (!sub) return false;
  await request("PUT", `${room(id)}/push`, { body: wire(sub), token });
  return true;
}

export async function pushOff(id, token) {
  const sub = await subscription(false);
  if (sub) await request("DELETE", `${room(id)}/push`, { body: { endpoint: sub.endpoint }, token });
}

/** Whether this seat's turns are pushed to this browser. */
export async function pushIsOn(id, token) {
  const sub = await subscription(false);
  if (!sub) return false;
  try {
    return (await request("POST", `${room(id)}/push/check`, { body: { endpoint: sub.endpoint }, token })).subscribed;
  } catch {
    return false;
  }
}

/** Push the turns of every seat this browser holds ([{room_id, token}]); how many took. */
export async function pushAll(held) {
  const sub = await subscription(true);
  if (!sub) return 0;
  let done = 0;
  for (const { room_id: id, token } of held) {
    try {
      await request("PUT", `${room(id)}/push`, { body: wire(sub), token });
      done += 1;
    } catch {
      /* a seat no longer held, a finished game: the others still count */
    }
  }
  return done;
}

// ---- dates -----------------------------------------------------------------------------------

/** "Fri 12 Dec" in the page's language. */
export function day(iso) {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return "";
  return new Intl.DateTimeFormat(lang, { weekday: "short", day: "numeric", month: "short" }).format(at);
}

/** The end of a local day picked in an <input type="date"> ("2026-12-12"), as ISO with offset. */
export function endOfDay(value) {
  const [y, m, d] = value.split("-").map((n) => Number.parseInt(n, 10));
  const at = new Date(y, m - 1, d, 23, 59, 0);
  return at.toISOString();
}

/** "2026-12-12" for a Date, local. */
export function dateValue(at) {
  const pad = (n) => String(n).padStart(2, "0");
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}

/** Whether an away time is still to come. */
export function stillAway(iso) {
  return !!iso && Date.parse(iso) > Date.now();
}
