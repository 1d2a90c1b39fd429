/**
 * The seat menu in the room's top bar, for play between sessions: how to be told it is your
 * turn (browser notifications, a webhook URL), leaving the game, and — for the host — handing
 * the seat of someone who left to a new person (a fresh seat link) or to a bot. Also the
 * clock chip: time per move, time left, and who is late.
 */

import * as api from "./api.js";
import { getWebhook, handToBot, handToPerson, leave, removeWebhook, setWebhook, span } from "./asyncapi.js";
import { redraw } from "./dom.js";
import { defaultBot, gameInfo } from "./games.js";
import { t } from "./i18n.js";
import { ofName } from "./initials.js";
import { botLevel } from "./lobby.js";
import { comeBack, dateValue, day, endOfDay, offered, pushIsOn, pushOff, pushOn, pushState, removeEmail, seatReach, setAway, setEmail, stillAway } from "./reach.js";

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

function button(text, onClick, cls = "btn small") {
  const b = el("button", cls, text);
  b.type = "button";
  b.addEventListener("click", onClick);
  return b;
}

export class SeatMenu {
  constructor(roomId, { alert, getToken, onLeft, onLeaving }) {
    this.roomId = roomId;
    this.onLeaving = onLeaving || (() => {});
    this.alert = alert;
    this.getToken = getToken;
    this.onLeft = onLeft;
    this.room = null;
    this.you = null;
    this.hook = undefined; // the webhook URL once read (null: none)
    this.reach = undefined; // {email, away_until, left_days, push} once read
    this.offer = null; // what the server offers (GET /api/reach)
    this.handed = new Map(); // seat -> rejoin link just made
    this.note = "";
    this.reading = 0; // reads under way for the open menu
    const status = document.getElementById("status");
    this.clock = el("span", "clock");
    this.clock.id = "clock";
    this.clock.hidden = true;
    this.menu = el("details", "seat-menu");
    this.menu.id = "seat-menu";
    const summary = el("summary", "", "☰");
    summary.title = t("seatmenu.title");
    summary.setAttribute("aria-label", t("seatmenu.label"));
    this.body = el("div", "seat-menu-body card");
    this.menu.append(summary, this.body);
    this.menu.hidden = true;
    this.menu.addEventListener("toggle", () => {
      if (this.menu.open) this.opened();
    });
    // a menu closes as menus do: on Esc (focus back on its button) and on a click outside
    document.addEventListener("keydown", (ev) => {
      if (ev.key !== "Escape" || !this.menu.open) return;
      const inside = this.menu.contains(document.activeElement);
      this.menu.open = false;
      if (inside) summary.focus();
    });
    document.addEventListener("pointerdown", (ev) => {
      if (this.menu.open && !this.menu.contains(ev.target)) this.menu.open = false;
    });
    if (status) status.prepend(this.clock, this.menu);
    this.timer = setInterval(() => this.tick(), 30000);
  }

  hostToken() {
    return api.hostToken(this.roomId) || (this.you?.is_host ? this.getToken() : null);
  }

  update(room, you) {
    if (room) this.room = room;
    if (you) this.you = you;
    const player = this.you?.role === "player";
    this.menu.hidden = !(player || this.hostToken()) || !this.room;
    if (this.menu.open) this.refresh();
    this.tick();
  }

  /** Draws the menu again, unless the host is answering a question in it (a bot's level, a
   * new person's name): news, and a read the menu started when opened that lands late,
   * never redraw a question away. */
  refresh() {
    if (!this.body.querySelector(".handover-confirm, .handover-name")) this.render();
  }

  /** The menu reads what it shows the first time it opens; the body is `aria-busy` while
   * reads are under way (a menu opened twice quickly has two). */
  async opened() {
    this.reading += 1;
    this.body.setAttribute("aria-busy", "true");
    try {
      if (this.you?.role === "player" && this.hook === undefined) {
        try {
          this.hook = (await getWebhook(this.roomId, this.getToken())).url;
        } catch {
          this.hook = null;
        }
      }
      if (this.you?.role === "player" && this.reach === undefined) await this.readReach();
    } finally {
      this.reading -= 1;
      if (!this.reading) this.body.removeAttribute("aria-busy");
    }
    this.refresh();
  }

  async readReach() {
    this.offer = await offered();
    try {
      this.reach = await seatReach(this.roomId, this.getToken());
      this.reach.push = await pushIsOn(this.roomId, this.getToken());
    } catch {
      this.reach = null;
    }
  }

  /** Draws the menu from what it knows (`redraw`: the nodes stay when it would look the
   * same, as it does when it opens and at most updates of the room). */
  render() {
    const body = document.createDocumentFragment();
    if (this.you?.role === "player") {
      body.append(el("h3", "", t("seatmenu.your_turn")), this.pushRow(), this.notifyRow());
      if (this.offer?.mail && this.reach) body.append(this.mailRow());
      body.append(this.hookRow());
      if (this.reach && this.offer?.away && this.room?.status !== "finished") body.append(this.awayRow());
    }
    const host = this.hostToken();
    if (host && this.room && this.room.status !== "finished") body.append(this.seatsRow(host));
    if (this.you?.role === "player") body.append(this.leaveRow());
    if (this.note) body.append(el("p", "muted small menu-note", this.note));
    redraw(this.body, ...body.children);
  }

  notifyRow() {
    const row = el("div", "menu-row");
    const state = this.alert.state();
    row.append(el("p", "small", t(`seatmenu.notify.${state}`)));
    if (state === "granted") {
      row.append(button(t("seatmenu.notify.turn_off"), () => { this.alert.disable(); this.render(); }));
    } else if (state === "default" || state === "off") {
      const on = button(t("seatmenu.notify.on"), async () => { await this.alert.enable(); this.render(); }, "btn small primary");
      on.id = "notify-btn";
      row.append(on);
    }
    return row;
  }

  /** Web Push: the turns of this seat reach this browser with every tab closed. */
  pushRow() {
    const row = el("div", "menu-row push");
    row.id = "push-row";
    if (!this.offer?.push || !this.reach) return row;
    const state = pushState();
    if (this.reach.push) {
      row.append(el("p", "small", t("reach.push.on")));
      row.append(button(t("seatmenu.notify.turn_off"), () => this.changePush(false)));
    } else if (state === "home-screen") {
      row.append(el("p", "small home-screen-hint", t("reach.push.home_screen")));
    } else if (state === "ready") {
      row.append(el("p", "small", t("reach.push.offer")));
      const on = button(t("reach.push.turn_on"), () => this.changePush(true), "btn small primary");
      on.id = "push-btn";
      row.append(on);
    } else {
      row.append(el("p", "small", t(state === "denied" ? "seatmenu.notify.denied" : "reach.push.unsupported")));
    }
    return row;
  }

  async changePush(on) {
    try {
      if (on) {
        const done = await pushOn(this.roomId, this.getToken());
        this.note = t(done ? "reach.push.done" : "reach.push.refused");
        this.reach.push = done;
      } else {
        await pushOff(this.roomId, this.getToken());
        this.reach.push = false;
        this.note = t("reach.push.off");
      }
    } catch (err) {
      this.note = err.message;
    }
    this.render();
  }

  /** The e-mail digest: at most one mail a day listing the games waiting on you. */
  mailRow() {
    const row = el("form", "menu-row email");
    row.id = "email-form";
    const email = this.reach.email;
    const state = !email ? t("reach.mail.offer") : email.confirmed ? t("reach.mail.confirmed", { address: email.address }) : t("reach.mail.pending", { of_address: ofName(email.address) });
    row.append(el("label", "small", state));
    const input = el("input");
    input.type = "email";
    input.id = "email-address";
    input.placeholder = t("reach.mail.placeholder");
    input.maxLength = 254;
    input.autocomplete = "email";
    const save = el("button", "btn small", t("seatmenu.save"));
    save.type = "submit";
    row.append(input, save);
    if (email) row.append(button(t("seatmenu.remove"), () => this.saveEmail(null)));
    row.addEventListener("submit", (ev) => {
      ev.preventDefault();
      this.saveEmail(input.value.trim() || null);
    });
    return row;
  }

  async saveEmail(address) {
    try {
      if (address) {
        const answer = await setEmail(this.roomId, address, this.getToken());
        this.reach.email = { address: answer.address, confirmed: answer.confirmed };
        this.note = t(answer.confirmed ? "reach.mail.saved" : "reach.mail.sent", { address: answer.address });
      } else {
        await removeEmail(this.roomId, this.getToken());
        this.reach.email = null;
        this.note = t("reach.mail.removed");
      }
    } catch (err) {
      this.note = err.message;
    }
    this.render();
  }

  /** Away: the clock stops and nothing is sent until the date. */
  awayRow() {
    const row = el("form", "menu-row away");
    row.id = "away-form";
    const limits = this.offer.away;
    if (stillAway(this.reach.away_until)) {
      row.append(el("p", "small", t("reach.away.you_are", { date: day(this.reach.away_until) })));
      const back = button(t("reach.away.back"), () => this.saveAway(null), "btn small primary");
      back.id = "away-back";
      row.append(back);
      return row;
    }
    row.append(el("label", "small", t("reach.away.offer", { most: limits.most_days, year: limits.days_per_year, left: this.reach.left_days })));
    const input = el("input");
    input.type = "date";
    input.id = "away-until";
    const today = new Date();
    input.min = dateValue(today);
    input.max = dateValue(new Date(today.getTime() + (limits.most_days - 1) * 86400000));
    input.required = true;
    const go = el("button", "btn small", t("reach.away.set"));
    go.type = "submit";
    row.append(input, go);
    row.addEventListener("submit", (ev) => {
      ev.preventDefault();
      if (input.value) this.saveAway(input.value);
    });
    return row;
  }

  async saveAway(value) {
    try {
      const answer = value ? await setAway(this.roomId, endOfDay(value), this.getToken()) : await comeBack(this.roomId, this.getToken());
      Object.assign(this.reach, answer);
      this.note = value ? t("reach.away.done", { date: day(answer.away_until) }) : t("reach.away.welcome");
    } catch (err) {
      this.note = err.message;
    }
    this.render();
  }

  hookRow() {
    const row = el("form", "menu-row webhook");
    row.id = "webhook-form";
    row.append(el("label", "small", t("seatmenu.webhook")));
    const input = el("input");
    input.type = "url";
    input.id = "webhook-url";
    input.placeholder = "https://…";
    input.maxLength = 2048;
    input.value = this.hook || "";
    const save = el("button", "btn small", t("seatmenu.save"));
    save.type = "submit";
    row.append(input, save);
    if (this.hook) row.append(button(t("seatmenu.remove"), () => this.saveHook(null)));
    row.addEventListener("submit", (ev) => {
      ev.preventDefault();
      this.saveHook(input.value.trim() || null);
    });
    return row;
  }

  async saveHook(url) {
    try {
      const answer = url ? await setWebhook(this.roomId, url, this.getToken()) : await removeWebhook(this.roomId, this.getToken());
      this.hook = answer.url;
      this.note = t(url ? "seatmenu.webhook_saved" : "seatmenu.webhook_removed");
    } catch (err) {
      this.note = err.message;
    }
    this.render();
  }

  seatsRow(host) {
    const box = el("div", "menu-row seats-handover");
    box.append(el("h3", "", t("seatmenu.seats")));
    for (const seat of this.room.seats) {
      if (!seat.taken || seat.seat === this.you?.seat) continue;
      const line = el("div", "handover");
      line.dataset.seat = String(seat.seat);
      const state = seat.left
        ? t("seatmenu.seat_left", { name: seat.name })
        : seat.bot
          ? t("seatmenu.seat_bot", { name: seat.name, level: seat.bot })
          : seat.name;
      line.append(el("span", "small", state));
      line.append(button(t("seatmenu.to_person"), () => this.askName(line, seat, host)));
      if (!seat.bot && this.room.status === "playing" && this.botLevel()) {
        const toBot = button(t("seatmenu.to_bot"), () => this.confirmBot(line, toBot, seat, host));
        toBot.classList.add("to-bot");
        line.append(toBot);
      }
      const link = this.handed.get(seat.seat);
      if (link) {
        const out = el("input", "handover-link");
        out.readOnly = true;
        out.value = link;
        line.append(out, button(t("seatmenu.copy"), () => navigator.clipboard?.writeText(link)));
      }
      box.append(line);
    }
    box.append(el("p", "muted small", t("seatmenu.handover_note")));
    return box;
  }

  askName(line, seat, host) {
    const form = el("form", "handover-name");
    const input = el("input");
    input.name = "name";
    input.required = true;
    input.maxLength = 24;
    input.placeholder = t("seatmenu.their_name");
    const go = el("button", "btn small primary", t("seatmenu.hand_over"));
    go.type = "submit";
    form.append(input, go);
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      try {
        const res = await handToPerson(this.roomId, seat.seat, input.value.trim(), host);
        this.handed.set(seat.seat, location.origin + res.rejoin_url);
        this.note = t("seatmenu.handed_person", { name: input.value.trim(), of_old: ofName(seat.name) });
        this.room = res.room;
      } catch (err) {
        this.note = err.message;
      }
      this.render();
    });
    line.append(form);
    input.focus();
  }

  /** The level offered first for a bot taking over a seat: the game's middle one (none: no bots). */
  botLevel() {
    return defaultBot(gameInfo(this.room?.game));
  }

  /** Handing a seat to a bot takes two clicks: the host picks the bot's level, and the
   * question says what will happen. */
  confirmBot(line, toBot, seat, host) {
    const levels = gameInfo(this.room?.game)?.bots || [];
    let level = this.botLevel();
    const ask = el("div", "handover-confirm");
    const question = el("p", "small");
    const yes = button("", () => this.toBot(seat, host, level), "btn small primary");
    yes.classList.add("to-bot-confirm");
    const say = () => {
      question.textContent = t("seatmenu.bot_ask", { name: seat.name, of_name: ofName(seat.name), level });
      yes.textContent = t("seatmenu.bot_yes", { level });
    };
    const pick = el("div", "bot-levels");
    pick.setAttribute("role", "group");
    pick.setAttribute("aria-label", t("seatmenu.bot_level"));
    for (const value of levels) {
      const b = button(botLevel(this.room.game, value), () => {
        level = value;
        for (const other of pick.children) other.setAttribute("aria-pressed", String(other === b));
        say();
      }, "btn small level");
      b.dataset.level = value;
      b.setAttribute("aria-pressed", String(value === level));
      pick.append(b);
    }
    say();
    const no = button(t("seatmenu.cancel"), () => ask.replaceWith(toBot));
    ask.append(question, pick, yes, no);
    toBot.replaceWith(ask);
    yes.focus();
  }

  async toBot(seat, host, level) {
    try {
      const res = await handToBot(this.roomId, seat.seat, level, host);
      this.room = res.room;
      this.note = t("seatmenu.bot_done", { name: seat.name, of_name: ofName(seat.name), level });
    } catch (err) {
      this.note = err.message;
    }
    this.render();
  }

  leaveRow() {
    const row = el("div", "menu-row leave");
    const first = button(t("seatmenu.leave"), () => {
      first.replaceWith(el("span", "small", `${t("seatmenu.leave_warning")} `), sure);
    });
    first.id = "leave-btn";
    const sure = button(t("seatmenu.leave_yes"), async () => {
      try {
        this.onLeaving(); // the server's word that the link stopped is then no news
        await leave(this.roomId, this.getToken());
        api.forgetSeat(this.roomId);
        this.note = t("seatmenu.left");
        this.onLeft();
      } catch (err) {
        this.note = err.message;
      }
      this.render();
    }, "btn small danger");
    sure.id = "leave-confirm";
    row.append(first);
    return row;
  }

  /** "Björn is away until Fri 12 Dec" in the top bar, for every seat away. */
  showAway(room) {
    if (!this.awayChip) {
      this.awayChip = el("span", "away-chip");
      this.awayChip.id = "away-chip";
      this.clock.after(this.awayChip);
    }
    const away = (room?.status === "playing" ? room.seats : []).filter((s) => stillAway(s.away_until));
    // the clock says it of the seat to act
    const shown = away.filter((s) => !(room.time_control && room.clock?.seat === s.seat));
    this.awayChip.hidden = !shown.length;
    this.awayChip.textContent = this.awayChip.title = shown.map((s) => (s.seat === this.you?.seat ? t("reach.away.you_are", { date: day(s.away_until) }) : t("reach.away.seat", { name: s.name, date: day(s.away_until) }))).join(" · ");
    const players = document.getElementById("game-panels");
    if (players) players.dataset.away = away.map((s) => s.seat).join(" ");
  }

  // ---- the clock ---------------------------------------------------------------------------

  /** A move was made: the next deadline runs from it (the server does the same). */
  moved(event, view) {
    const control = this.room?.time_control;
    if (!control || !event) return;
    this.room.clock = view.current === null || view.current === undefined
      ? null
      : { seat: view.current, version: event.seq, due_at: new Date(Date.parse(event.at) + control.per_move_s * 1000).toISOString(), overdue: false };
    for (const s of this.room.seats) s.overdue = false;
    this.tick();
  }

  tick() {
    const room = this.room;
    const control = room?.time_control;
    this.showAway(room);
    // on the game's panels: each game shows its late and left seats its own way
    const players = document.getElementById("game-panels");
    if (players && room) {
      players.dataset.overdue = room.clock?.overdue ? String(room.clock.seat) : "";
      players.dataset.left = room.seats.filter((s) => s.left).map((s) => s.seat).join(" ");
    }
    if (!control) {
      this.clock.hidden = true;
      return;
    }
    this.clock.hidden = false;
    const per = t("clock.per_move", { span: span(control.per_move_s) });
    const clock = room.status === "playing" ? room.clock : null;
    this.clock.classList.toggle("late", !!clock?.overdue);
    if (!clock) {
      this.clock.textContent = per;
      return;
    }
    const seat = room.seats.find((s) => s.seat === clock.seat);
    const mine = clock.seat === this.you?.seat;
    const name = seat?.name || t("seat.number", { n: clock.seat + 1 });
    if (stillAway(seat?.away_until)) {
      this.clock.textContent = mine ? t("reach.away.you_are", { date: day(seat.away_until) }) : t("reach.away.seat", { name, date: day(seat.away_until) });
    } else if (clock.overdue) {
      this.clock.textContent = mine ? t("clock.you_late") : t("clock.late", { name });
    } else {
      const left = span((Date.parse(clock.due_at) - Date.now()) / 1000);
      this.clock.textContent = mine ? t("clock.you_left", { left }) : t("clock.left", { name, left });
    }
    this.clock.title = t(control.policy === "bot" ? "clock.title_bot" : "clock.title_wait", { span: span(control.per_move_s) });
  }
}
