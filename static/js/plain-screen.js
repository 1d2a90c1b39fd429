/**
 * The plain screen: the screen of a game that has no screen module of its own yet (its
 * descriptor names none, or the toy game of the tests). It shows the view as text — each
 * seat's entries, then the rest — and offers the legal actions as buttons of the action bar,
 * labelled with their fields. Enough to play any game that honours the contract, and to try
 * a new engine in the browser before its board is drawn. Implements docs/client.md's "The
 * screen interface" like any game's module.
 */

import { playerColour } from "./colours.js";
import { el, esc, playerName } from "./dom.js";
import { t } from "./i18n.js";

/** "play · card 5": an action's type, then its other fields. */
function actionLabel(action) {
  const rest = Object.entries(action)
    .filter(([k]) => k !== "type")
    .map(([k, v]) => `${k} ${Array.isArray(v) ? v.join(" ") : JSON.stringify(v)}`);
  return [action.type, ...rest].join(" · ");
}

function text(value) {
  if (value === null || value === undefined) return "—";
  if (Array.isArray(value)) return value.length ? value.map(text).join(", ") : t("plain.none");
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

const SHOWN_ELSEWHERE = new Set(["players", "scores", "viewer", "game", "format"]);

export function mount(ctx) {
  return new PlainScreen(ctx);
}

class PlainScreen {
  constructor(ctx) {
    this.ctx = ctx;
    this.view = null;
    this.legal = [];
    this.room = null;
    this.sending = false;
    this.box = el("div", "plain-screen");
    this.box.dataset.screen = "plain";
    ctx.stage.replaceChildren(this.box);
    ctx.panels.replaceChildren();
  }

  update({ view, legal, room }) {
    this.view = view;
    this.legal = legal || [];
    this.room = room;
    this.sending = false;
    this.render();
  }

  refresh({ room }) {
    this.room = room;
    if (this.view) this.render();
  }

  moveFailed() {
    this.sending = false;
    this.render();
  }

  destroy() {
    this.box.remove();
  }

  render() {
    const v = this.view;
    const seats = el("ol", "plain-seats");
    for (const p of v.players || []) {
      const li = el("li", "plain-seat");
      li.dataset.seat = String(p.seat);
      li.style.setProperty("--pc", playerColour(p.colour));
      if (p.seat === v.current) li.classList.add("current");
      const name = playerName(this.room, p.seat);
      const shown = p.seat === v.viewer ? t("plain.you", { name }) : name;
      const facts = Object.entries(p)
        .filter(([k]) => k !== "seat" && k !== "colour")
        .map(([k, value]) => `<span><b>${esc(k.replace(/_/g, " "))}</b> ${esc(text(value))}</span>`)
        .join("");
      li.innerHTML = `<strong>${esc(shown)}</strong>${facts}`;
      seats.append(li);
    }
    const rest = el("dl", "plain-facts");
    for (const [k, value] of Object.entries(v)) {
      if (SHOWN_ELSEWHERE.has(k)) continue;
      rest.append(el("dt", "", esc(k.replace(/_/g, " "))), el("dd", "", esc(text(value))));
    }
    this.box.replaceChildren(seats, rest);
    if (this.ctx.bar) this.renderBar();
  }

  renderBar() {
    const v = this.view;
    const bar = this.ctx.bar;
    bar.begin();
    if (v.phase === "over") return bar.over(() => this.ctx.showScores());
    if (this.sending) return bar.sending();
    if (!this.legal.length) {
      bar.begin("idle");
      const spectator = v.viewer === null || v.viewer === undefined;
      const who = v.current !== null && v.current !== undefined ? this.ctx.name(v.current) : "";
      return bar.say(t("plain.playing", { name: who }), t(spectator ? "plain.watching" : "plain.waiting"));
    }
    bar.begin("mine");
    bar.say(t("plain.your_move"), t("plain.pick"));
    this.legal.forEach((entry, i) => {
      bar.add(bar.button(actionLabel(entry.action), () => this.send(entry), `legal-${i}`));
    });
  }

  send(entry) {
    if (this.sending) return;
    this.sending = true;
    this.ctx.send(entry.action);
    this.render();
  }
}
