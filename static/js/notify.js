/**
 * Being told it's your turn (the tab title says so already: frame.js): a badge on the
 * favicon, and a browser notification when the turn becomes yours while this tab is in the
 * background — only if the player allowed it (the seat menu has the button) and has not
 * turned it off here (localStorage `ishtar.notify` = "off").
 */

import { t } from "./i18n.js";

const PREF = "ishtar.notify";
const SIZE = 64;

function store() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export class TurnAlert {
  constructor(roomId) {
    this.roomId = roomId;
    this.mine = null; // null until the first view: a page opened on your turn is no news
    this.link = document.querySelector("link[rel~='icon']");
    this.plain = this.link ? this.link.href : null;
    this.badged = null; // data: URL of the favicon with the badge, drawn once
    this.sent = 0; // notifications shown (tests read it)
  }

  supported() {
    return "Notification" in window;
  }

  /** "granted" and not turned off here, "default" (may ask), "denied", or "unsupported". */
  state() {
    if (!this.supported()) return "unsupported";
    const permission = window.Notification.permission;
    if (permission === "granted" && store()?.getItem(PREF) === "off") return "off";
    return permission;
  }

  async enable() {
    if (!this.supported()) return "unsupported";
    store()?.setItem(PREF, "on");
    if (window.Notification.permission === "default") await window.Notification.requestPermission();
    return this.state();
  }

  disable() {
    store()?.setItem(PREF, "off");
  }

  /** A new view: is it this browser's seat's turn? (`who` names the seat for the message.) */
  see(mine, text) {
    const was = this.mine;
    this.mine = mine;
    this.badge(mine);
    if (mine && was === false && document.visibilityState !== "visible" && this.state() === "granted") {
      this.notify(text);
    }
  }

  notify(text) {
    try {
      const note = new window.Notification(t("notify.title"), {
        body: text || t("notify.body"),
        tag: `ishtar-${this.roomId}`,
        icon: "/static/img/logo.svg",
      });
      note.onclick = () => {
        window.focus();
        note.close();
      };
      this.sent += 1;
    } catch {
      /* some browsers only notify from a service worker: the title and badge remain */
    }
  }

  async badge(on) {
    if (!this.link || !this.plain) return;
    if (!on) {
      if (this.link.href !== this.plain) this.link.href = this.plain;
      return;
    }
    if (!this.badged) this.badged = await this.draw();
    if (this.badged && this.mine) this.link.href = this.badged;
  }

  /** The favicon with a red dot in its corner, as a PNG data: URL (CSP img-src allows data:). */
  async draw() {
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = SIZE;
    const ctx = canvas.getContext("2d");
    try {
      const img = new Image();
      img.src = this.plain;
      await img.decode();
      ctx.drawImage(img, 0, 0, SIZE, SIZE);
    } catch {
      ctx.fillStyle = "#1d3a66";
      ctx.fillRect(0, 0, SIZE, SIZE);
    }
    ctx.beginPath();
    ctx.arc(SIZE * 0.74, SIZE * 0.26, SIZE * 0.22, 0, Math.PI * 2);
    ctx.fillStyle = "#e5484d";
    ctx.fill();
    ctx.lineWidth = SIZE * 0.06;
    ctx.strokeStyle = "#ffffff";
    ctx.stroke();
    return canvas.toDataURL("image/png");
  }
}
