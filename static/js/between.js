/**
 * Play between sessions, on the room page: one object main.js feeds with what the socket
 * says (welcome, sync, update, room). It tells the player it is their turn (notify.js),
 * marks what happened since they last looked (seen.js), and holds the seat menu and clock
 * (seatmenu.js). The browser decides nothing here: turns, deadlines and seats come from the
 * server.
 */

import { t } from "./i18n.js";
import { TurnAlert } from "./notify.js";
import { SeatMenu } from "./seatmenu.js";
import { LastSeen } from "./seen.js";

export class Between {
  constructor(roomId, { getToken, onLeft, onLeaving }) {
    this.roomId = roomId;
    this.alert = new TurnAlert(roomId);
    this.seen = new LastSeen(roomId, document.getElementById("log"));
    this.menu = new SeatMenu(roomId, { alert: this.alert, getToken, onLeft, onLeaving });
    this.you = null;
    this.room = null;
    window.__ishtarBetween = this; // for the browser tests
  }

  /** The chat panel (chat.js): its messages count in "since you last looked". */
  watchChat(chat) {
    this.chat = chat;
  }

  /** What is new since the last visit: moves marked in the log, messages in the chat. */
  news() {
    return { moves: this.seen.count(), chat: this.chat ? this.chat.unseenCount() : 0 };
  }

  /** Before the first hello: ask for the moves since a little before the last one seen. */
  prime(socket) {
    const since = this.seen.since();
    if (since !== null && socket.version === null) socket.version = since;
  }

  setRoom(room, you) {
    if (you) this.you = you;
    if (room) this.room = room;
    this.menu.update(room, you);
  }

  /** A welcome, sync or update has been drawn. */
  state(message, you, room) {
    this.setRoom(room, you);
    if (message.event) this.menu.moved(message.event, message.view);
    if (!message.view) return;
    const view = message.view;
    const mine = (message.legal || []).length > 0 && view.phase !== "over";
    this.alert.see(mine, t("notify.body_room", { room: this.roomId }));
    this.seen.shown(message.version);
  }
}
