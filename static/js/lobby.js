/**
 * The room before the start: seats with names and colours, who is connected, taking a seat,
 * the invitation link and the host's start button; the host may seat a bot of one of the
 * game's levels. The seats' icons and the line about the options come from the game's screen
 * module when it has them (`seatIcon`, `describeOptions`: docs/client.md), else plain ones.
 */

import * as api from "./api.js";
import { playerColour } from "./colours.js";
import { el, esc, redraw, seatName } from "./dom.js";
import { defaultBot, gameInfo, wordsOf } from "./games.js";
import { has, t } from "./i18n.js";

/** A bot level's word ("medium"): the game's own (`<game>.ui.bot.<level>`), else the shell's. */
export function botLevel(game, level) {
  const own = `${wordsOf(game)}.ui.bot.${level}`;
  return has(own) ? t(own) : t("bot.level", { level });
}

/** What a room's options say, when its game does not word them: "layout: random" (the
 * words of the options form's keys when the catalogue has them). */
function plainOptions(options, game) {
  return Object.entries(options || {})
    .filter(([, v]) => v !== null && v !== undefined)
    .map(([k, v]) => {
      const key = `${wordsOf(game)}.ui.option.${k}`;
      const name = has(key) ? t(key) : k.replace(/_/g, " ");
      const value = has(`${key}.${v}`) ? t(`${key}.${v}`) : String(v);
      return t("lobby.option", { name, value });
    })
    .join(" · ");
}

/** A seat's colour before the seats are drawn. */
const NEUTRAL = "#bdb29c";

function plainIcon(colour) {
  const dot = el("span", "seat-dot");
  dot.style.background = playerColour(colour);
  return dot;
}

const $ = (id) => document.getElementById(id);

export class Lobby {
  constructor({ roomId, onSeated }) {
    this.roomId = roomId;
    this.onSeated = onSeated;
    this.room = null;
    this.you = null;
    this.presence = null;
    this.screen = null; // the game's screen module
    $("copy-link").addEventListener("click", () => this.copyLink());
    $("join").addEventListener("submit", (ev) => {
      ev.preventDefault();
      this.join();
    });
    $("start-btn").addEventListener("click", () => this.start());
    $("join-name").value = api.preferredName();
  }

  /** The game's screen module, for its seat icons and its wording of the options. */
  setScreen(module) {
    this.screen = module;
    if (this.room) this.render();
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
    const options = this.screen?.describeOptions ? this.screen.describeOptions(room.options || {}) : plainOptions(room.options, room.game);
    const players = t("lobby.players", { n: room.players });
    $("lobby-sub").textContent = free
      ? t("lobby.sub_free", { details: [players, options].filter(Boolean).join(" · "), free })
      : t("lobby.sub_full", { players });
    const list = $("seats");
    const items = [];
    // Seats drawn at the start (random order) get their colours then: before, every seat is
    // shown in one neutral colour, so that no one sees yellow here and plays green.
    const drawn = room.status === "open" && room.seat_order !== "fixed";
    let note = $("seats-drawn");
    if (!note) {
      note = el("p", "muted small seats-drawn");
      note.id = "seats-drawn";
      list.after(note);
    }
    note.textContent = t("lobby.colours_drawn");
    note.hidden = !drawn;
    for (const s of room.seats) {
      const li = el("li", `seat${s.taken ? "" : " free"}`);
      li.dataset.seat = String(s.seat);
      const colour = drawn ? NEUTRAL : s.colour || NEUTRAL;
      li.dataset.colour = drawn ? "" : s.colour || "";
      const pawn = this.screen?.seatIcon ? this.screen.seatIcon(colour, 26) : plainIcon(colour);
      pawn.classList.add("pawn");
      li.append(pawn);
      li.append(el("span", "name", s.taken ? esc(seatName(s)) : esc(t("lobby.free_seat"))));
      if (s.seat === mySeat) li.append(el("span", "badge you", esc(t("lobby.you"))));
      if (s.is_host) li.append(el("span", "badge", esc(t("lobby.host"))));
      // a bot's own name carries its level ("Nabu (medium)"); older ones did not
      if (s.bot) {
        const badge = s.name?.endsWith(`(${s.bot})`) ? t("lobby.bot") : t("lobby.bot_level", { level: botLevel(room.game, s.bot) });
        li.append(el("span", "badge", esc(badge)));
      }
      const levels = gameInfo(room.game)?.bots || [];
      if (!s.taken && this.isHost() && room.status === "open" && levels.length) li.append(this.botPicker(s.seat, levels));
      if (s.taken) {
        const on = connected.has(s.seat) || s.connected;
        const dot = el("span", `dot${on ? " on" : ""}`);
        dot.title = t(on ? "lobby.connected" : "lobby.not_connected");
        li.append(dot);
      }
      items.push(li);
    }
    // the nodes stay when nothing shown changed: a bot's level chosen, a press under way
    redraw(list, ...items);
    const canJoin = mySeat === null && free > 0 && room.status === "open";
    $("join").hidden = !canJoin;
    const isHost = this.isHost();
    const start = $("start-btn");
    start.hidden = !isHost;
    start.disabled = free > 0;
    start.title = t(free > 0 ? "lobby.start_waiting" : "lobby.start");
    const n = this.presence?.spectators ?? room.spectators ?? 0;
    $("spectators").textContent = n ? t("lobby.watching", { n }) : "";
  }

  isHost() {
    return !!api.hostToken(this.roomId) || !!this.you?.is_host;
  }

  /** The host may seat a bot on a free seat. */
  botPicker(seat, levels) {
    const box = el("span", "bot-picker");
    const select = el("select");
    select.setAttribute("aria-label", t("lobby.bot_level_for", { n: seat + 1 }));
    const preset = defaultBot({ bots: levels });
    for (const value of levels) {
      const o = el("option", "", esc(t("lobby.bot_option", { level: value })));
      o.value = value;
      if (value === preset) o.selected = true;
      select.append(o);
    }
    const b = el("button", "btn small-btn", esc(t("lobby.seat_bot")));
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
      btn.textContent = t("lobby.copied");
    } catch {
      window.prompt(t("lobby.copy_prompt"), url);
    }
    setTimeout(() => { btn.textContent = t("lobby.copy_link"); }, 2000);
  }
}
