/**
 * The room before the start: seats with names and colours, who is connected, taking a seat,
 * the invitation link and the host's start button.
 */

import * as api from "./api.js";
import * as art from "../games/ishtar/art.js";
import { el, esc } from "../games/ishtar/panels.js";

const $ = (id) => document.getElementById(id);

export class Lobby {
  constructor({ roomId, onSeated }) {
    this.roomId = roomId;
    this.onSeated = onSeated;
    this.room = null;
    this.you = null;
    this.presence = null;
    $("copy-link").addEventListener("click", () => this.copyLink());
    $("join").addEventListener("submit", (ev) => {
      ev.preventDefault();
      this.join();
    });
    $("start-btn").addEventListener("click", () => this.start());
    $("join-name").value = api.preferredName();
  }

  update(room, you, presence) {
    this.room = room;
    if (you !== undefined) this.you = you;
    if (presence) this.presence = presence;
    this.render();
  }

  render() {
    const room = this.room;
    if (!room) return;
    const connected = new Set(this.presence?.connected_seats || room.seats.filter((s) => s.connected).map((s) => s.seat));
    const mySeat = this.you && this.you.role === "player" ? this.you.seat : null;
    const free = room.seats.filter((s) => !s.taken).length;
    $("lobby-sub").textContent = free
      ? `${room.players} players · ${room.layout === "random" ? "random" : "classic"} layout · ${free} seat${free > 1 ? "s" : ""} free. Share the link to invite.`
      : `${room.players} players · everyone is seated.`;
    const list = $("seats");
    list.innerHTML = "";
    for (const s of room.seats) {
      const li = el("li", `seat${s.taken ? "" : " free"}`);
      li.dataset.seat = String(s.seat);
      const pawn = art.pawnCanvas(s.colour || "#bbb", 26, 26);
      pawn.classList.add("pawn");
      li.append(pawn);
      li.append(el("span", "name", s.taken ? esc(s.name) : "Free seat"));
      if (s.seat === mySeat) li.append(el("span", "badge you", "you"));
      if (s.is_host) li.append(el("span", "badge", "host"));
      if (s.bot) li.append(el("span", "badge", `bot · ${esc(s.bot)}`));
      if (!s.taken && this.isHost() && room.status === "open") li.append(this.botPicker(s.seat));
      if (s.taken) {
        const on = connected.has(s.seat) || s.connected;
        const dot = el("span", `dot${on ? " on" : ""}`);
        dot.title = on ? "connected" : "not connected";
        li.append(dot);
      }
      list.append(li);
    }
    const canJoin = mySeat === null && free > 0 && room.status === "open";
    $("join").hidden = !canJoin;
    const isHost = this.isHost();
    const start = $("start-btn");
    start.hidden = !isHost;
    start.disabled = free > 0;
    start.title = free > 0 ? "Waiting for every seat to be taken" : "Start the game";
    const n = this.presence?.spectators ?? room.spectators ?? 0;
    $("spectators").textContent = n ? `${n} watching` : "";
  }

  isHost() {
    return !!api.hostToken(this.roomId) || !!this.you?.is_host;
  }

  /** The host may seat a bot on a free seat. */
  botPicker(seat) {
    const box = el("span", "bot-picker");
    const select = el("select");
    select.setAttribute("aria-label", `Bot level for seat ${seat + 1}`);
    for (const [value, label] of [["easy", "Easy bot"], ["medium", "Medium bot"], ["hard", "Hard bot"]]) {
      const o = el("option", "", label);
      o.value = value;
      if (value === "medium") o.selected = true;
      select.append(o);
    }
    const b = el("button", "btn small-btn", "Seat a bot");
    b.type = "button";
    b.dataset.act = `bot-${seat}`;
    b.addEventListener("click", async () => {
      b.disabled = true;
      this.error("");
      try {
        const res = await api.addBot(this.roomId, seat, select.value, api.hostToken(this.roomId) || api.seatToken(this.roomId));
        if (res?.room) this.update(res.room);
      } catch (err) {
        this.error(err.message);
        b.disabled = false;
      }
    });
    box.append(select, b);
    return box;
  }

  error(msg) {
    const box = $("lobby-error");
    box.textContent = msg || "";
    box.hidden = !msg;
  }

  async join() {
    const name = $("join-name").value.trim();
    if (!name) return;
    $("join-btn").disabled = true;
    this.error("");
    try {
      const res = await api.takeSeat(this.roomId, name, api.hostToken(this.roomId));
      api.savePreferredName(name);
      api.saveSeat(this.roomId, res.token, { name, players: this.room?.players });
      this.onSeated(res);
    } catch (err) {
      this.error(err.message);
    } finally {
      $("join-btn").disabled = false;
    }
  }

  async start() {
    const token = api.hostToken(this.roomId) || api.seatToken(this.roomId);
    $("start-btn").disabled = true;
    this.error("");
    try {
      await api.startGame(this.roomId, token);
    } catch (err) {
      this.error(err.message);
      $("start-btn").disabled = false;
    }
  }

  async copyLink() {
    const url = `${location.origin}/r/${this.roomId}`;
    const btn = $("copy-link");
    try {
      await navigator.clipboard.writeText(url);
      btn.textContent = "Link copied ✓";
    } catch {
      window.prompt("Copy this link:", url);
    }
    setTimeout(() => { btn.textContent = "Copy invitation link"; }, 2000);
  }
}
