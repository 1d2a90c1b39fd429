/**
 * The room websocket (docs/protocol.md): hello with {token, since}, keep-alive pings,
 * automatic reconnect with backoff, and gap detection — an update whose version is not the
 * last one + 1 triggers a fresh hello with `since`, so the server sends what was missed.
 *
 * An update carries only the entries of the view that changed (`changes`); the socket keeps
 * the view of its version and hands every welcome, sync and update on with a complete `view`.
 *
 * Emits to `handlers`: status(state), welcome/sync/update/ack/error/presence/room(msg).
 */

const PING_MS = 25000;

export class RoomSocket {
  constructor(roomId, { token, handlers }) {
    this.roomId = roomId;
    this.token = token || null;
    this.handlers = handlers;
    this.version = null; // last version seen
    this.view = null; // the view at that version
    this.ws = null;
    this.attempt = 0;
    this.closed = false;
    this.timer = null;
    this.ping = null;
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    return `${proto}//${location.host}/ws/rooms/${encodeURIComponent(this.roomId)}`;
  }

  connect() {
    if (this.closed) return;
    this.emit("status", this.attempt ? "reconnecting" : "connecting");
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch {
      this.retry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      ws.send(JSON.stringify({ type: "hello", token: this.token, since: this.version }));
    };
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      this.receive(msg);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      clearInterval(this.ping);
      this.ws = null;
      if (ev.code === 4401) {
        // our token is unknown here: carry on as a spectator
        this.token = null;
        this.emit("badToken", ev);
      }
      if (ev.code === 4404) {
        this.closed = true;
        this.emit("status", "gone");
        this.emit("gone", ev);
        return;
      }
      this.retry();
    };
    ws.onerror = () => {};
  }

  retry() {
    if (this.closed) return;
    this.emit("status", "offline");
    let delay = Math.min(8000, 400 * 2 ** this.attempt) * (0.75 + Math.random() * 0.5);
    delay = Math.max(delay, (this.pausedUntil || 0) - Date.now());
    this.attempt += 1;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  receive(msg) {
    const v = msg.version;
    if (msg.type === "welcome" || msg.type === "sync") {
      this.attempt = 0;
      if (typeof v === "number") this.version = v;
      this.view = msg.view || null;
      if (msg.type === "welcome") {
        this.emit("status", "online");
        clearInterval(this.ping);
        this.ping = setInterval(() => this.send({ type: "ping" }), PING_MS);
      }
    } else if (msg.type === "update") {
      if (this.version !== null && v <= this.version) return; // already seen
      if (this.version === null || v !== this.version + 1 || !this.view) {
        this.resync(); // a gap, or nothing to apply the changes to
        return;
      }
      this.version = v;
      this.view = msg.view = { ...this.view, ...msg.changes };
    }
    this.emit(msg.type, msg);
  }

  /** Ask again for everything since our version (a gap, or a suspicion of one). */
  resync() {
    this.send({ type: "hello", token: this.token, since: this.version });
  }

  send(frame) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(frame));
      return true;
    }
    return false; // the caller keeps its move and sends it again after the next welcome
  }

  /** Drop the connection and reconnect at once (e.g. coming back online). */
  kick() {
    if (this.ws) this.ws.close();
    else {
      clearTimeout(this.timer);
      this.connect();
    }
  }

  /** Drop the connection and stay away for `ms` (tests of the reconnect path). */
  pause(ms) {
    this.pausedUntil = Date.now() + ms;
    if (this.ws) this.ws.close();
  }

  emit(name, payload) {
    const fn = this.handlers[name];
    if (fn) fn(payload);
  }
}
