/**
 * What happened since the player last looked. The last version this browser showed of a
 * room is kept in localStorage (`ishtar.seen.<room>`). On returning, the welcome asks for
 * the moves since a little before it (`since`), and the log marks the newer ones `unseen`
 * under a "since you last looked" line. Moves that arrive while the tab is in the background
 * are marked the same way; moves watched live are not.
 */

import { lastSeen, saveSeen } from "./asyncapi.js";
import { t } from "./i18n.js";

const CONTEXT = 12; // earlier moves shown above the new ones, for context

const visible = () => document.visibilityState === "visible";

export class LastSeen {
  constructor(roomId, logBox) {
    this.roomId = roomId;
    this.box = logBox;
    this.cut = lastSeen(roomId); // moves after this one are news
    this.version = null;
    this.first = true;
    document.addEventListener("visibilitychange", () => this.visibility());
  }

  /** The `since` of the first hello (null: the server's recent log). */
  since() {
    return this.cut === null ? null : Math.max(0, this.cut - CONTEXT);
  }

  /** The log now shows `version`: mark what is news, remember what was seen. */
  shown(version) {
    if (typeof version !== "number") return;
    this.version = version;
    if (this.first || !visible()) this.mark();
    this.first = false;
    if (visible()) saveSeen(this.roomId, version);
  }

  mark() {
    if (this.cut === null) return;
    let first = null;
    for (const li of this.box.querySelectorAll("li[data-seq]")) {
      if (Number(li.dataset.seq) <= this.cut) continue;
      li.classList.add("unseen");
      if (!first) first = li;
    }
    this.box.querySelector("li.since-line")?.remove();
    if (!first) return;
    const line = document.createElement("li");
    line.className = "since-line";
    line.textContent = t("since.line");
    first.before(line);
    first.scrollIntoView?.({ block: "nearest" });
  }

  visibility() {
    if (this.version === null) return;
    if (visible()) {
      saveSeen(this.roomId, this.version);
      return;
    }
    // Going away: what was marked has been seen; what comes next is news.
    for (const li of this.box.querySelectorAll("li.unseen")) li.classList.remove("unseen");
    this.box.querySelector("li.since-line")?.remove();
    this.cut = this.version;
  }

  /** How many moves of the log are marked as news. */
  count() {
    return this.box.querySelectorAll("li.unseen").length;
  }
}
