/**
 * Notices that come and go at the top of the room page: a player left, a seat was handed
 * on, a chat message came while the chat is out of sight. Each is text only (set with
 * `textContent`), read out by screen readers (`aria-live`), closes by itself after a while
 * or on its ×, and may carry one button (`action`). At most four at once, the oldest out
 * first.
 */

import { el } from "./dom.js";
import { t } from "./i18n.js";

const KEPT = 4;
let box = null;

function region() {
  if (box && box.isConnected) return box;
  box = el("div", "toasts");
  box.id = "toasts";
  box.setAttribute("aria-live", "polite");
  document.body.append(box);
  return box;
}

/**
 * Show `text` for `ttl` ms (0: until closed). `kind` styles it (`chat`, `seat`);
 * `action`: `{label, onClick}`; `who`: a name put first in bold, `colour` its seat's.
 */
export function toast(text, { kind = "", action = null, ttl = 9000, who = null, colour = null } = {}) {
  const root = region();
  const item = el("div", `toast ${kind}`.trim());
  item.setAttribute("role", "status");
  const words = el("p", "toast-text");
  if (who) {
    const name = el("bdi", "toast-who");
    name.textContent = who;
    if (colour) name.style.setProperty("--pc", colour);
    words.append(name, document.createTextNode(" "));
  }
  const body = el("bdi", "toast-body");
  body.textContent = text;
  words.append(body);
  item.append(words);
  const close = () => item.remove();
  if (action) {
    const b = el("button", "btn small toast-action");
    b.type = "button";
    b.textContent = action.label;
    b.addEventListener("click", () => {
      close();
      action.onClick();
    });
    item.append(b);
  }
  const x = el("button", "toast-close");
  x.type = "button";
  x.textContent = "×";
  x.setAttribute("aria-label", t("toast.close"));
  x.addEventListener("click", close);
  item.append(x);
  root.append(item);
  while (root.children.length > KEPT) root.firstChild.remove();
  if (ttl > 0) setTimeout(close, ttl);
  return item;
}
