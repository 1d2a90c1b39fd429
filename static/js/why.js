/**
 * The engine's reasons a move is illegal, as a game's screen shows them: a spot that is not
 * among the legal moves the server sent is illegal, and why is asked of the server
 * (`ctx.why`, `POST /api/rooms/{id}/why`; docs/client.md), never worded here. Each reason is
 * asked once per version and spot, kept in a cache of bounded size, and asked only when the
 * pointer rests on a spot a moment (a sweep across the board asks nothing).
 */

import { tm } from "./i18n.js";

/** Spots remembered before the cache starts afresh: about one game's worth. */
const LIMIT = 200;

const ASKED = Symbol("asked");

/**
 * The engine's reason as the server gave it: a message ({key, params}, with its English
 * `text` or `reason` beside it), or plain English text from an older server.
 */
function reasonText(reason) {
  if (typeof reason === "string") return reason;
  return tm(reason.message || reason, reason.reason || reason.text || "");
}

/** A reason as the first words of a tooltip: with a capital. */
export function sentence(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export class WhyCache {
  /**
   * `why(action)`: the shell's `ctx.why` (a Promise of the reason, null when legal);
   * `delayMs`: how long the pointer rests before a spot is asked about; `illegal`: the
   * message ({key}) when the server gives no reason or cannot be reached.
   */
  constructor(why, { delayMs, illegal }) {
    this.why = why;
    this.delayMs = delayMs;
    this.illegal = illegal;
    this.known = new Map(); // "version|spot" -> reason | ASKED | Promise of text
    this.timer = null;
  }

  /**
   * The reason `action` (on `spot`) is illegal at `version`, as text; null while it is not
   * known yet. It is then asked after the delay, unless another spot is looked at meanwhile
   * or `wanted()` says the pointer left; `answered()` is called when the reason comes.
   */
  reason(version, spot, action, { wanted = () => true, answered = () => {} } = {}) {
    const k = `${version}|${spot}`;
    const known = this.known.get(k);
    if (known && known !== ASKED) return reasonText(known);
    if (known) return null;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      if (this.known.has(k) || !wanted()) return;
      this.keep(k, ASKED);
      const settle = (reason) => {
        this.known.set(k, reason || this.illegal);
        answered();
      };
      this.why(action).then(settle, () => settle(null));
    }, this.delayMs);
    return null;
  }

  /**
   * A Promise of the reason `action` is illegal at `version`, as text (null: it is legal),
   * asked at once (a click, not a hover) and once per version and spot; `failed` is the
   * text when the server cannot be reached.
   */
  ask(version, spot, action, failed) {
    const k = `${version}|${spot}`;
    if (!this.known.has(k)) {
      const asked = this.why(action).then((reason) => (reason ? reasonText(reason) : null), () => failed);
      this.keep(k, asked);
    }
    return this.known.get(k);
  }

  keep(k, value) {
    if (this.known.size > LIMIT) this.known.clear(); // never grows without bound
    this.known.set(k, value);
  }
}
