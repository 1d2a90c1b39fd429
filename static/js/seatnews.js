/**
 * Seats changing hands, told to everyone in the room: a line in the game log and a notice
 * for each leave and hand-over. Live, from the room statuses the socket brings (a seat that
 * turns `left`, a bot or another person); after a reload, from the seat history
 * (`GET /api/rooms/{id}/seat-history`), placed after the move where it happened. The host
 * is told what to do about a seat left empty: hand it on from the seat menu, or when the
 * server hands it to a bot by itself (`left_seat_bot_s` of the status, docs/async-play.md).
 */

import { seatHistory, span } from "./asyncapi.js";
import { markSeat } from "./lognews.js";
import { t } from "./i18n.js";
import { ofName } from "./initials.js";
import { toast } from "./toasts.js";

const $ = (id) => document.getElementById(id);

export class SeatNews {
  constructor(roomId) {
    this.roomId = roomId;
    this.before = null; // the seats of the last status: {seat: {name, bot, left, taken}}
    this.mine = null; // this page's seat (kept after leaving: our own leave is no news)
    this.backfilled = false;
    this.lobbyRevision = null; // the revision of the last status of the open room
  }

  /**
   * A room status: tell what changed since the last one of the game in play. The lobby's
   * seats are no baseline: the start draws the seat order (app/play/seats.py), and people
   * changing places is no hand-over. Nor is a status with the lobby's revision: the page's
   * own stand-in for the start's (main.js, when the first view comes before it) still holds
   * the lobby's seats. The start bumps the revision, so its status is the first baseline.
   */
  update(room, you, isHost) {
    if (you?.role === "player") this.mine = you.seat;
    if (room.status === "open") {
      this.lobbyRevision = room.revision;
      this.before = null;
      return;
    }
    if (room.revision === this.lobbyRevision) return;
    const now = new Map(room.seats.map((s) => [s.seat, { ...s }]));
    const before = this.before;
    this.before = now;
    if (!before) return;
    for (const [n, seat] of now) {
      const was = before.get(n);
      if (!was || !was.taken || n === this.mine) continue;
      if (seat.left && !was.left) this.left(room, seat, isHost);
      else if (seat.bot && !was.bot) this.handed(seat.name, was.name, true);
      else if (seat.taken && !seat.bot && seat.name !== was.name) this.handed(seat.name, was.name, false);
    }
  }

  left(room, seat, isHost) {
    const text = t("news.left", { name: seat.name });
    markSeat($("log"), text);
    if (!isHost) return toast(text, { kind: "seat" });
    const auto = room.left_seat_bot_s;
    const hint = room.time_control
      ? t("news.left_host_clock")
      : auto
        ? t("news.left_host_auto", { span: span(auto) })
        : t("news.left_host");
    const menu = $("seat-menu");
    return toast(`${text} ${hint}`, {
      kind: "seat",
      ttl: 0,
      action: menu ? { label: t("news.hand_on"), onClick: () => { menu.open = true; } } : null,
    });
  }

  handed(name, old, bot) {
    const text = t(bot ? "news.to_bot" : "news.to_person", { name, of_old: ofName(old) });
    markSeat($("log"), text);
    toast(text, { kind: "seat" });
  }

  /** After the first moves are drawn: the seat history's changes, in the log, once. */
  async backfill(room) {
    if (this.backfilled || !room || room.status === "open") return;
    this.backfilled = true;
    let holders;
    try {
      holders = (await seatHistory(this.roomId)).holders || [];
    } catch {
      return; // the live lines still come
    }
    const box = $("log");
    const bySeat = new Map();
    for (const h of holders) {
      if (!bySeat.has(h.seat)) bySeat.set(h.seat, []);
      bySeat.get(h.seat).push(h);
    }
    for (const rows of bySeat.values()) {
      rows.forEach((h, i) => {
        if (!h.ended || h.until_version === null) return;
        const next = rows[i + 1];
        if (h.ended === "left") {
          markSeat(box, t("news.left", { name: h.name }), h.until_version);
          // the next holder took the seat later; shown right after the leaving
          if (next?.name) markSeat(box, t(next.bot ? "news.to_bot" : "news.to_person", { name: next.name, of_old: ofName(h.name) }), h.until_version);
        } else if (next?.name) {
          markSeat(box, t(h.ended === "bot" ? "news.to_bot" : "news.to_person", { name: next.name, of_old: ofName(h.name) }), h.until_version);
        }
      });
    }
  }
}
