/**
 * The room page's links to the replay and the game record, and the rematch button of the
 * finished screen (docs/protocol.md "Replays, records and rematch").
 *
 * Rematch: a player's click asks `POST /api/rooms/{id}/rematch` with their seat token; the
 * server creates the new room with the same players (once) and answers with this player's
 * seat token there, which is saved like any seat token before going to the new room. When
 * another player asked first, the room status says `rematch`: this browser then exchanges
 * its token the same way and the button leads to the new room.
 */

import * as api from "./api.js";
import { failureText } from "./errors.js";
import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

async function askRematch(roomId, token) {
  const res = await fetch(`/api/rooms/${encodeURIComponent(roomId)}/rematch`, {
    method: "POST",
    headers: { Accept: "application/json", Authorization: `Bearer ${token}` },
  });
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new Error(failureText(res.status, data, "rematch.failed"));
  return data;
}

/** A link to the rematch room `id`. */
function roomLink(id, elementId) {
  const a = document.createElement("a");
  a.id = elementId;
  a.href = `/r/${encodeURIComponent(id)}`;
  a.textContent = t("rematch.open");
  return a;
}

export class Rematch {
  constructor({ roomId, getToken }) {
    this.roomId = roomId;
    this.getToken = getToken;
    this.room = null;
    this.you = null;
    this.seat = null; // the answer of the rematch call: {room_id, url, seat, token}
    this.busy = false;
    const replay = `/r/${encodeURIComponent(roomId)}/replay`;
    for (const id of ["replay-link", "replay-open"]) if ($(id)) $(id).href = replay;
    // the analysis is read on the replay page, which asks for it when opened from here
    if ($("analysis-link")) $("analysis-link").href = `${replay}?move=0&analysis=1`;
    if ($("export-link")) $("export-link").href = `/api/rooms/${encodeURIComponent(roomId)}/record?download=1`;
    $("rematch-btn")?.addEventListener("click", () => this.go());
  }

  /** The room status changed (or who we are): show the button, pick up a rematch. */
  update(room, you) {
    this.room = room || this.room;
    this.you = you || this.you;
    const button = $("rematch-btn");
    if (!button || !this.room) return;
    const player = this.you?.role === "player" && !!this.getToken();
    const finished = this.room.status === "finished";
    button.hidden = !(finished && player);
    const ready = this.room.rematch;
    button.textContent = t(ready || this.seat ? "rematch.go" : "rematch.ask");
    if (ready && player && !this.seat && !this.busy) this.claim().catch(() => {});
    if (ready && $("rematch-note")) {
      const note = $("rematch-note");
      note.hidden = false;
      note.textContent = `${t(player ? "rematch.ready" : "rematch.started")} `;
      note.append(roomLink(ready, "rematch-room-link"));
    }
    // the old room leads to its rematch for everyone, dialog closed or not: a log line
    const log = $("log");
    if (ready && log && !log.querySelector(".log-rematch")) {
      const li = document.createElement("li");
      li.className = "log-news log-rematch";
      li.append(document.createTextNode(`${t("rematch.started")} `), roomLink(ready, "rematch-log-link"));
      log.append(li);
      log.scrollTop = log.scrollHeight;
    }
  }

  /** Exchange this seat's token for the seat in the rematch (created if need be). */
  async claim() {
    this.busy = true;
    try {
      const answer = await askRematch(this.roomId, this.getToken());
      this.seat = answer;
      api.saveSeat(answer.room_id, answer.token, {
        name: this.you?.name || undefined,
        players: answer.room?.players,
      });
      const button = $("rematch-btn");
      if (button) button.textContent = t("rematch.go");
      return answer;
    } finally {
      this.busy = false;
    }
  }

  async go() {
    const button = $("rematch-btn");
    button.disabled = true;
    try {
      const answer = this.seat || (await this.claim());
      window.location.assign(answer.url);
    } catch (err) {
      if ($("rematch-note")) {
        $("rematch-note").hidden = false;
        $("rematch-note").textContent = err.message;
      }
      button.disabled = false;
    }
  }
}
