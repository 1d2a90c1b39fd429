/**
 * The action bar over the board: what to do now (a prompt and a line under it) and the
 * buttons for it. The shell owns it and the room's game fills it (the choices of each step
 * are the game's); a move the server refused shows its reason in place of the line under the
 * prompt until the next move is sent (`notice`).
 */

import { el } from "./dom.js";
import { t } from "./i18n.js";

export class ActionBar {
  constructor(element) {
    this.element = element;
    this.prompt = element.querySelector("#prompt");
    this.sub = element.querySelector("#subprompt");
    this.choices = element.querySelector("#choices");
    this.notice = "";
  }

  /** Empty the bar for a new step: `mode` "mine" (your move), "idle" (someone else's) or "". */
  begin(mode = "") {
    this.choices.innerHTML = "";
    this.element.classList.remove("mine", "idle");
    if (mode) this.element.classList.add(mode);
  }

  say(prompt, sub = "") {
    this.prompt.textContent = prompt;
    this.sub.textContent = this.notice || sub;
    this.sub.classList.toggle("notice", !!this.notice);
  }

  add(...nodes) {
    this.choices.append(...nodes);
  }

  /** A button of the bar: `act` names it for tests (`data-act`), `kbd` shows its key. */
  button(label, onClick, act, { kbd = null, pressed = null, primary = false } = {}) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = primary ? "btn primary" : "choice";
    if (typeof label === "string") b.textContent = label;
    else b.append(label);
    if (kbd) b.append(el("kbd", "", kbd));
    if (act) b.dataset.act = act;
    if (pressed !== null) b.setAttribute("aria-pressed", String(pressed));
    b.addEventListener("click", onClick);
    return b;
  }

  /** The game is over: say so, with the button that opens the final scores. */
  over(openScores) {
    this.begin("idle");
    this.say(t("bar.over"), t("bar.over_sub"));
    this.add(this.button(t("scores.title"), openScores, "scores"));
  }

  /** A move is on its way. */
  sending() {
    this.say("…", t("bar.sending"));
  }
}
