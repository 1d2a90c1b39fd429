/**
 * The shell around a game in progress on the room page: the action bar, the turn banner and
 * tab title, the game log, the final scores dialog and the test hook. The board and the side
 * panels are the room's game's screen (`mount`, docs/client.md "The screen interface"), which
 * gets from here the move sender, the engine's reasons (`why`) and the game's catalogue.
 */

import * as api from "./api.js";
import { ActionBar } from "./actionbar.js";
import { playerColour } from "./colours.js";
import { el, playerName } from "./dom.js";
import { t, tm } from "./i18n.js";
import { ofName } from "./initials.js";
import { appendLog, firstShown, prependLog } from "./log.js";
import { markStart, markWinner } from "./lognews.js";
import { ScoresDialog } from "./scores.js";
import { setTitle } from "./title.js";

const $ = (id) => document.getElementById(id);

export class GameFrame {
  /** `module`: the game's screen module; `send(action, version)` puts a move on the socket. */
  constructor({ roomId, game, module, send, getToken }) {
    this.roomId = roomId;
    this.game = game;
    this.module = module;
    this.sendMove = send;
    this.getToken = getToken;
    this.bar = new ActionBar($("actionbar"));
    this.scores = new ScoresDialog();
    this.screen = null;
    this.view = null;
    this.legal = [];
    this.version = null;
    this.room = null;
    this.you = null;
    this.presence = null;
    this.sending = false;
  }

  /** Mount the game's screen in the stage and the side column (once). */
  async mount() {
    this.screen = await this.module.mount({
      mode: "play",
      stage: $("stage"),
      panels: $("game-panels"),
      bar: this.bar,
      send: (action) => this.send(action),
      // the engine's reason, in the page's language when it sends it as a message
      why: (action) =>
        api.whyIllegal(this.roomId, action, this.getToken()).then((res) => (res?.reason == null ? null : tm(res.message, res.reason))),
      catalogue: api.getCatalogue(this.game),
      name: (seat) => playerName(this.room, seat),
      showScores: () => this.showScores(),
    });
    this.installHook();
    return this;
  }

  // ---- data in -----------------------------------------------------------------------------

  setRoom(room, you) {
    this.room = room;
    if (you) this.you = you;
    if (this.view) {
      this.screen.refresh({ room: this.room, presence: this.presence });
      this.renderBanner();
    }
  }

  setPresence(presence) {
    this.presence = presence;
    if (this.view) this.screen.refresh({ room: this.room, presence });
  }

  /** A new complete view (welcome, sync or update); `event` is the move that led to it. */
  setState({ view, legal, version, event = null, events = [] }) {
    const old = this.view;
    this.view = view;
    this.legal = legal || [];
    this.version = version;
    this.sending = false;
    this.screen.update({ view, legal: this.legal, version, event, room: this.room, presence: this.presence });
    const log = $("log");
    if (events.length) appendLog(log, events, view);
    if (event) appendLog(log, [event], view, { fresh: true });
    this.markLog();
    this.offerEarlier();
    this.renderBanner();
    if (view.phase === "over" && view.scores && (!old || old.phase !== "over")) this.showScores();
  }

  /** The log's lines that are not moves: the start above the first, the winner last. */
  markLog() {
    const log = $("log");
    markStart(log, this.version);
    const v = this.view;
    if (v?.phase === "over" && v.scores) markWinner(log, (v.scores.winners || []).map((w) => playerName(this.room, w)));
  }

  /** "Earlier moves" above the log while its first line is not the game's first move. */
  offerEarlier() {
    const button = $("log-earlier");
    if (!button) return;
    const first = firstShown($("log"));
    button.hidden = !(first > 1);
    if (button.dataset.wired) return;
    button.dataset.wired = "1";
    button.addEventListener("click", () => this.loadEarlier());
  }

  async loadEarlier() {
    const button = $("log-earlier");
    const first = firstShown($("log"));
    if (!(first > 1) || button.disabled) return;
    button.disabled = true;
    button.textContent = t("game.loading");
    try {
      const page = await api.getMovesBefore(this.roomId, first);
      prependLog($("log"), page.moves || [], this.view);
      markStart($("log"), this.version);
      button.textContent = t("game.earlier");
      button.hidden = !page.earlier;
    } catch (err) {
      button.textContent = t("game.earlier_failed", { reason: err.message });
    } finally {
      button.disabled = false;
    }
  }

  /** The server refused our move: the bar says why, and the player may try again. */
  moveFailed(reason) {
    this.sending = false;
    this.bar.notice = reason;
    this.screen.moveFailed(reason);
  }

  send(action) {
    if (this.sending) return false;
    this.sending = true;
    this.bar.notice = "";
    this.sendMove(action, this.version);
    return true;
  }

  showScores() {
    this.scores.show(this.view, this.room, this.screen);
  }

  // ---- the top bar -------------------------------------------------------------------------

  renderBanner() {
    const v = this.view;
    const banner = $("turn-banner");
    banner.innerHTML = "";
    banner.classList.remove("mine");
    let title = t("site.name");
    if (v.phase === "over") {
      banner.textContent = t("game.over");
      title = t("game.over_title");
    } else if (v.current !== null && v.current !== undefined) {
      const sw = el("span", "swatch");
      sw.style.background = playerColour(v.players?.[v.current]?.colour);
      const mine = v.viewer === v.current;
      banner.append(sw, document.createTextNode(mine ? t("game.your_turn") : t("game.turn_of", { of_name: ofName(playerName(this.room, v.current)) })));
      const note = this.screen.turnNote?.(v);
      if (note) banner.append(document.createTextNode(` · ${note}`));
      banner.classList.toggle("mine", mine);
      if (mine) title = t("game.your_turn_title");
    }
    setTitle(title);
    // the end announced before it comes, in the game's words (docs/client.md)
    const notice = $("end-notice");
    if (notice) {
      const text = this.screen.endNotice?.(v) || "";
      notice.hidden = !text;
      if (notice.textContent !== text) notice.textContent = text;
    }
  }

  // ---- test hook ---------------------------------------------------------------------------

  /** `window.__ishtar`: the state every game has, plus the screen's own (`screen.hook`). */
  installHook() {
    const self = this;
    const hook = {
      get phase() { return self.view?.phase ?? null; },
      get version() { return self.version; },
      get viewer() { return self.view?.viewer ?? null; },
      get current() { return self.view?.current ?? null; },
      get busy() { return self.sending; },
      get mine() { return self.legal.length > 0 && !self.sending; },
      get game() { return self.game; },
      legal: () => self.legal.map((e) => e.action),
      view: () => self.view,
    };
    // the screen's part: board geometry for tests that click where a person would
    Object.defineProperties(hook, Object.getOwnPropertyDescriptors(this.screen.hook || {}));
    window.__ishtar = hook;
  }
}
