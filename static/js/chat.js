/**
 * Table chat on the room page (docs/client.md "Chat", docs/protocol.md "Table chat"): the
 * panel under the game log (and under the lobby before the start), the same for every game.
 *
 * Two channels: `table` (the players write, everyone reads) and `spectators` (spectators
 * write and read; the players see it once the game is over). A spectator, or anyone after
 * the end, switches between them with two tabs. Messages come over the room's socket
 * (`chat` messages: `recent` replaces what is held, others add to it) and earlier ones over
 * HTTP. What the server refuses (`error` with `about: "chat"`) is said under the input.
 *
 * Every name and text is put in the page with `textContent`, each in its own `<bdi>`, so no
 * markup, and no right-to-left override, leaves the message it was written in. The browser
 * decides nothing: who may write where, and the host's switch, are the server's.
 *
 * "Since you last looked": the highest message number this browser showed is kept in
 * localStorage (`ishtar.chatseen.<room>`); newer messages are marked until the tab goes to
 * the background, and counted on the collapsed panel.
 *
 * Never unread: a message that comes while the chat is out of sight (folded, scrolled
 * away below the fold, or the tab in the background) is counted on the "Chat" button of
 * the top bar and in the tab's title, and pops up as a notice while the page is in front;
 * the button (or the notice's "Reply") brings the chat into sight, open, with the cursor
 * in its box. During the game a player is told that spectators are chatting (how many
 * messages: the server's count, never their words) and that it opens at the end.
 */

import { request } from "./api.js";
import { playerColour } from "./colours.js";
import { el } from "./dom.js";
import { errorText } from "./errors.js";
import { t } from "./i18n.js";
import { setUnread } from "./title.js";
import { toast } from "./toasts.js";

const KEPT = 500; // messages kept in the page
const MAX_TEXT = 500;
const SEEN = "ishtar.chatseen.";
const COLLAPSED = "ishtar.chat.collapsed";
const NAME = "ishtar.chat.name";

const visible = () => document.visibilityState === "visible";

function stored(key) {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function store(key, value) {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    /* private mode: nothing remembered */
  }
}

export class ChatPanel {
  /** `send(frame)` puts a frame on the room's socket (false when it is not connected). */
  constructor({ roomId, send, getToken }) {
    this.roomId = roomId;
    this.sendFrame = send;
    this.getToken = getToken;
    this.room = null;
    this.you = null;
    this.lines = []; // every message held, by number
    this.earlier = false;
    this.tab = "table";
    this.pendingText = null; // the text of our message on its way
    const seen = Number.parseInt(stored(SEEN + roomId) || "", 10);
    // The highest number seen in this browser (the panel open, the page in front); the
    // messages not seen when they came are news until the page goes to the background.
    this.seenUpTo = Number.isFinite(seen) ? seen : 0;
    this.looked = Number.isFinite(seen); // a first visit has no "since you last looked"
    this.news = new Set();
    this.tabSeen = { table: this.seenUpTo, spectators: this.seenUpTo };
    const phone = window.matchMedia?.("(max-width: 820px)").matches;
    const kept = stored(COLLAPSED);
    this.collapsed = kept === null ? !!phone : kept === "1";
    this.unread = 0; // messages that came while the chat was out of sight
    this.spectatorsHidden = 0; // the spectators' messages kept from this player until the end
    this.inView = false;
    this.build();
    document.addEventListener("visibilitychange", () => this.visibility());
    if ("IntersectionObserver" in window) {
      new IntersectionObserver((entries) => {
        this.inView = entries.some((e) => e.isIntersecting);
        if (this.watched()) this.readAll();
      }, { threshold: 0.35 }).observe(this.list);
    } else {
      this.inView = true;
    }
    window.__ishtarChat = this; // for the browser tests
  }

  // ---- the panel -----------------------------------------------------------------------

  build() {
    const root = (this.element = el("section", "panel chat-panel"));
    root.id = "chat";
    const head = el("h2", "chat-head");
    this.toggle = el("button", "chat-toggle");
    this.toggle.type = "button";
    this.toggle.append(document.createTextNode(t("chat.title")));
    this.badge = el("span", "chat-unread");
    this.badge.hidden = true;
    this.toggle.append(this.badge);
    this.toggle.addEventListener("click", () => this.setCollapsed(!this.collapsed));
    this.tabs = el("span", "chat-tabs");
    this.tabs.setAttribute("role", "tablist");
    this.tabButtons = {};
    for (const [channel, label] of [["table", t("chat.tab.table")], ["spectators", t("chat.tab.spectators")]]) {
      const b = el("button", "chat-tab");
      b.type = "button";
      b.dataset.channel = channel;
      b.setAttribute("role", "tab");
      b.append(document.createTextNode(label));
      const count = el("span", "chat-tab-unread");
      count.hidden = true;
      b.append(count);
      b.addEventListener("click", () => this.show(channel));
      this.tabButtons[channel] = b;
      this.tabs.append(b);
    }
    this.hostSwitch = el("label", "chat-host muted small");
    this.hostBox = document.createElement("input");
    this.hostBox.type = "checkbox";
    this.hostBox.addEventListener("change", () => {
      this.sendFrame({ type: "chat_settings", spectators: this.hostBox.checked });
    });
    this.hostSwitch.append(this.hostBox, document.createTextNode(` ${t("chat.spectators_may")}`));
    head.append(this.toggle, this.tabs, this.hostSwitch);
    this.buildJump();
    this.spectatorsNote = el("p", "chat-spectators-note small");
    this.spectatorsNote.hidden = true;

    this.body = el("div", "chat-body");
    this.more = el("button", "chat-earlier btn small");
    this.more.type = "button";
    this.more.textContent = t("chat.earlier");
    this.more.hidden = true;
    this.more.addEventListener("click", () => this.loadEarlier());
    this.list = el("ol", "chat-list");
    this.list.setAttribute("aria-live", "polite");
    this.form = el("form", "chat-form");
    this.form.autocomplete = "off";
    this.nameInput = document.createElement("input");
    this.nameInput.className = "chat-name";
    this.nameInput.maxLength = 24;
    this.nameInput.placeholder = t("chat.name_placeholder");
    this.nameInput.setAttribute("aria-label", t("chat.name_label"));
    this.nameInput.value = stored(NAME) || "";
    this.input = document.createElement("input");
    this.input.className = "chat-input";
    this.input.maxLength = MAX_TEXT;
    this.input.setAttribute("aria-label", t("chat.input_label"));
    this.button = el("button", "btn small chat-send");
    this.button.type = "submit";
    this.button.textContent = t("chat.send");
    this.form.append(this.nameInput, this.input, this.button);
    this.form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      this.submit();
    });
    this.note = el("p", "chat-note small");
    this.note.setAttribute("role", "status");
    this.body.append(this.more, this.list, this.form, this.note, this.spectatorsNote);
    root.append(head, this.body);
    this.setCollapsed(this.collapsed, { keep: false });
  }

  /** The "Chat" button of the top bar: how many messages wait, and a way to the chat. */
  buildJump() {
    const jump = (this.jump = el("button", "chat-jump"));
    jump.type = "button";
    jump.id = "chat-jump";
    jump.innerHTML =
      '<svg viewBox="0 0 20 18" width="18" height="16" aria-hidden="true"><path d="M3 1h14a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H8l-4 4v-4H3a2 2 0 0 1-2-2V3a2 2 0 0 1 2-2z" fill="currentColor"/></svg>';
    const label = el("span", "chat-jump-label");
    label.textContent = t("chat.title");
    this.jumpCount = el("span", "chat-unread chat-jump-count");
    this.jumpCount.hidden = true;
    jump.append(label, this.jumpCount);
    jump.addEventListener("click", () => this.bringIntoSight());
    const status = document.getElementById("status");
    if (status) status.prepend(jump);
  }

  /** Open the chat, scroll it into sight and put the cursor in its box. */
  bringIntoSight() {
    if (this.collapsed) this.setCollapsed(false);
    this.element.scrollIntoView({ block: "end", behavior: "smooth" });
    this.inView = true;
    this.readAll();
    if (!this.input.disabled) this.input.focus({ preventScroll: true });
  }

  /** The chat is read as it comes: open, in sight, the page in front. */
  watched() {
    return visible() && !this.collapsed && this.inView;
  }

  readAll() {
    if (this.unread) {
      this.unread = 0;
      this.renderCounts();
    }
  }

  /** Put the panel in `parent` (the lobby, or the game's side column). */
  place(parent) {
    if (parent && this.element.parentElement !== parent) parent.append(this.element);
  }

  setCollapsed(collapsed, { keep = true } = {}) {
    this.collapsed = collapsed;
    this.element.classList.toggle("collapsed", collapsed);
    this.toggle.setAttribute("aria-expanded", String(!collapsed));
    this.toggle.title = t(collapsed ? "chat.show" : "chat.hide");
    if (keep) store(COLLAPSED, collapsed ? "1" : "0");
    if (!collapsed) this.sawAll();
    if (this.watched()) this.unread = 0;
    this.renderCounts();
  }

  // ---- data in -------------------------------------------------------------------------

  setRoom(room, you) {
    if (room && this.room?.status === "open" && room.status !== "open") this.seatsDrawn(room);
    if (room) this.room = room;
    if (you !== undefined && you !== null) this.you = you;
    this.renderChrome();
  }

  /**
   * The game started and the seats were drawn: a line written in the lobby carries the seat
   * its author had there, so it is put on the seat they now play (the server stores it so
   * too, app/store/rooms.py), found by their name when only one seat has it; else the line
   * keeps no colour rather than another player's.
   */
  seatsDrawn(room) {
    const byName = new Map();
    for (const s of room.seats || []) if (s.name) byName.set(s.name, byName.has(s.name) ? null : s.seat);
    for (const line of this.lines) {
      if (line.seat === null || line.seat === undefined) continue;
      const seat = byName.get(line.name);
      if (seat === undefined || seat === null) line.uncoloured = true;
      else line.seat = seat;
    }
  }

  get spectator() {
    return !this.you || this.you.role !== "player";
  }

  get finished() {
    return this.room?.status === "finished";
  }

  /** The channels this reader sees (the server sends nothing else). */
  get channels() {
    return this.spectator || this.finished ? ["table", "spectators"] : ["table"];
  }

  /** A `chat` message from the socket. */
  receive(m) {
    if (m.recent) {
      this.lines = [];
      this.earlier = !!m.earlier;
    }
    const known = new Set(this.lines.map((line) => line.seq));
    // Watched live (the page in front, the panel open) is seen; the rest is news.
    const watched = (!m.recent && visible() && !this.collapsed) || (m.recent && !this.looked);
    this.looked = true;
    if (m.recent) this.spectatorsHidden = m.spectators_hidden || 0;
    else this.spectatorsHidden += m.spectators_hidden || 0;
    const missed = [];
    for (const line of m.messages || []) {
      if (known.has(line.seq)) continue;
      this.lines.push(line);
      if (line.seq > this.seenUpTo && !this.mine(line) && !watched) this.news.add(line.seq);
      if (this.mine(line)) this.pendingText = null; // ours arrived (the server may trim it)
      else if (!m.recent && !this.watched()) missed.push(line);
    }
    if (missed.length) this.missed(missed);
    this.lines.sort((a, b) => a.seq - b.seq);
    if (this.lines.length > KEPT) {
      this.lines = this.lines.slice(-KEPT);
      this.earlier = true;
    }
    this.render();
  }

  /** Messages that came out of sight: counted, and the last one pops up (page in front). */
  missed(lines) {
    this.unread += lines.length;
    if (!visible()) return;
    const last = lines[lines.length - 1];
    const seat = last.seat === null ? null : this.room?.seats?.find((s) => s.seat === last.seat);
    const text = last.text.length > 140 ? `${last.text.slice(0, 139)}…` : last.text;
    const who = last.seat === null ? t("chat.popup_spectator", { name: last.name }) : last.name;
    const note = toast(text, {
      kind: "chat",
      who,
      colour: seat ? playerColour(seat.colour) : null,
      action: { label: t("chat.reply"), onClick: () => this.bringIntoSight() },
    });
    note.dataset.seq = String(last.seq);
  }

  /** The server refused a chat frame (`error` with `about: "chat"`). */
  refused(m) {
    if (this.pendingText !== null && !this.input.value) this.input.value = this.pendingText;
    this.pendingText = null;
    this.say(errorText(m), true);
    this.hostBox.checked = this.room?.chat?.spectators !== false;
  }

  /** A message of this reader's seat (a spectator's own are not told apart from others'). */
  mine(line) {
    if (this.spectator) return false;
    return line.seat === this.you?.seat;
  }

  // ---- sending -------------------------------------------------------------------------

  submit() {
    const text = this.input.value.trim();
    if (!text) return;
    const frame = { type: "chat", channel: this.spectator ? "spectators" : "table", text };
    if (this.spectator) {
      const name = this.nameInput.value.trim();
      store(NAME, name);
      if (name) frame.name = name;
    }
    if (!this.sendFrame(frame)) {
      this.say(t("chat.not_connected"), true);
      return;
    }
    this.pendingText = text;
    this.input.value = "";
    this.say("");
    if (this.tab !== frame.channel) this.show(frame.channel); // where the message goes
  }

  async loadEarlier() {
    const first = this.lines[0]?.seq;
    if (!first) return;
    this.more.disabled = true;
    try {
      const page = await request(
        "GET",
        `/api/rooms/${encodeURIComponent(this.roomId)}/chat?before=${first}`,
        { token: this.getToken() },
      );
      const known = new Set(this.lines.map((line) => line.seq));
      const older = (page.messages || []).filter((line) => !known.has(line.seq));
      this.lines = [...older, ...this.lines].sort((a, b) => a.seq - b.seq);
      this.earlier = !!page.earlier;
      this.render({ keepScroll: true });
    } catch (err) {
      this.say(err.message || t("chat.earlier_failed"), true);
    } finally {
      this.more.disabled = false;
    }
  }

  // ---- showing -------------------------------------------------------------------------

  show(channel) {
    this.tab = channel;
    this.render();
  }

  say(text, bad = false) {
    this.note.textContent = text;
    this.note.classList.toggle("bad", bad);
  }

  /** The tabs, the host's switch and the input as the room and the reader's role say. */
  renderChrome() {
    const both = this.channels.length > 1;
    this.tabs.hidden = !both;
    if (!both) this.tab = "table";
    for (const [channel, button] of Object.entries(this.tabButtons)) {
      button.setAttribute("aria-selected", String(channel === this.tab));
    }
    const open = this.room?.chat?.spectators !== false;
    const host = !!this.you?.is_host;
    this.hostSwitch.hidden = !host;
    this.hostBox.checked = open;
    this.nameInput.hidden = !this.spectator;
    const closed = this.spectator && !open;
    this.input.disabled = this.button.disabled = closed;
    this.input.placeholder = t(closed ? "chat.closed" : this.spectator ? "chat.to_spectators" : "chat.to_table");
    this.input.title = t(this.spectator ? "chat.spectators_read" : "chat.everyone_reads");
    this.element.dataset.role = this.spectator ? "spectator" : "player";
    this.element.dataset.tab = this.tab;
    // a player during the game: the spectators' channel exists, and opens at the end
    const told = !this.spectator && !this.finished && this.room && this.room.status !== "open" && (open || this.spectatorsHidden > 0);
    this.spectatorsNote.hidden = !told;
    if (told) this.spectatorsNote.textContent = t("chat.spectators_hidden", { n: this.spectatorsHidden });
  }

  render({ keepScroll = false } = {}) {
    this.renderChrome();
    const list = this.list;
    const stick = list.scrollHeight - list.scrollTop - list.clientHeight < 24;
    const before = list.scrollHeight - list.scrollTop;
    list.replaceChildren();
    let marked = false;
    for (const line of this.lines) {
      if (line.channel !== this.tab) continue;
      const news = this.news.has(line.seq);
      if (news && !marked) {
        const since = el("li", "since-line");
        since.textContent = t("since.line");
        list.append(since);
        marked = true;
      }
      list.append(this.lineElement(line, news));
    }
    if (!list.children.length) {
      const empty = el("li", "chat-empty muted");
      empty.textContent = t(this.tab === "spectators" ? "chat.empty_spectators" : "chat.empty");
      list.append(empty);
    }
    this.more.hidden = !this.earlier;
    if (keepScroll) list.scrollTop = list.scrollHeight - before;
    else if (stick || marked) list.scrollTop = list.scrollHeight;
    if (!this.collapsed && visible()) this.sawAll();
    this.renderCounts();
  }

  lineElement(line, news) {
    const li = el("li", "chat-line");
    if (news) li.classList.add("unseen");
    li.dataset.seq = String(line.seq);
    li.dataset.channel = line.channel;
    const who = el("bdi", "chat-who");
    who.textContent = line.name;
    const seat = line.seat === null ? null : this.room?.seats?.find((s) => s.seat === line.seat);
    // in the lobby of a room whose seats are drawn at the start no one has a colour yet
    const undrawn = this.room?.status === "open" && this.room?.seat_order !== "fixed";
    if (seat && !undrawn && !line.uncoloured) li.style.setProperty("--pc", playerColour(seat.colour));
    li.append(who);
    if (line.seat === null) {
      const tag = el("span", "chat-tag");
      tag.textContent = t("chat.spectator");
      li.append(tag);
    }
    const text = el("bdi", "chat-text");
    text.setAttribute("dir", "auto");
    text.textContent = line.text;
    li.append(text);
    const at = new Date(line.at);
    if (!Number.isNaN(at.getTime())) li.title = at.toLocaleString();
    return li;
  }

  // ---- what is new ---------------------------------------------------------------------

  /** Everything shown has been seen (the panel is open and the page in front). */
  sawAll() {
    if (!this.lines.length) return;
    const last = this.lines[this.lines.length - 1].seq;
    if (last > this.seenUpTo) {
      this.seenUpTo = last;
      store(SEEN + this.roomId, String(last));
    }
    const shown = this.lines.filter((line) => line.channel === this.tab);
    if (shown.length) this.tabSeen[this.tab] = Math.max(this.tabSeen[this.tab], shown[shown.length - 1].seq);
  }

  /** How many messages are marked "since you last looked" (between.js counts them). */
  unseenCount() {
    return this.news.size;
  }

  renderCounts() {
    this.jumpCount.hidden = this.unread === 0;
    this.jumpCount.textContent = this.unread ? String(this.unread) : "";
    this.jump.classList.toggle("has-unread", this.unread > 0);
    this.jump.setAttribute("aria-label", this.unread ? t("chat.unread", { n: this.unread }) : t("chat.title"));
    setUnread(this.unread);
    const waiting = this.collapsed
      ? this.lines.filter((line) => line.seq > this.seenUpTo && !this.mine(line)).length
      : 0;
    this.badge.hidden = waiting === 0;
    this.badge.textContent = waiting ? String(waiting) : "";
    this.toggle.setAttribute("aria-label", waiting ? t("chat.unread", { n: waiting }) : t("chat.title"));
    for (const [channel, button] of Object.entries(this.tabButtons)) {
      const count = button.querySelector(".chat-tab-unread");
      const n =
        channel === this.tab
          ? 0
          : this.lines.filter((line) => line.channel === channel && line.seq > this.tabSeen[channel] && !this.mine(line))
              .length;
      count.hidden = n === 0;
      count.textContent = n ? String(n) : "";
    }
  }

  visibility() {
    if (visible()) {
      if (this.watched()) this.unread = 0;
      if (!this.collapsed) this.sawAll();
      this.renderCounts();
      return;
    }
    // Going away: what was marked and shown has been seen; what comes next is news.
    for (const seq of [...this.news]) if (seq <= this.seenUpTo) this.news.delete(seq);
    this.render();
  }
}
