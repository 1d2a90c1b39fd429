/**
 * The cards of tips.js for Ishtar's pieces: a vegetation tile drawn large with the board's own
 * paint (its flowers, its icon, its grass) and described space by space; a skill; a tree card;
 * a blooming token. Each returns a Node; the callers (panels.js, game.js) say what it would
 * cost and add the button a phone player taps to act.
 */

import { el, esc } from "../../js/dom.js";
import * as art from "./art.js";
import { shapeName, spaceWords, t, tileWords, tileFlowers, tokenWords } from "./words.js";

/** A button inside a card (the touch path: the card is read, then this acts). */
export function cardButton(label, onClick, act) {
  const b = el("button", "btn primary small-btn", esc(label));
  b.type = "button";
  if (act) b.dataset.act = act;
  b.addEventListener("click", (ev) => {
    ev.stopPropagation();
    onClick();
  });
  return b;
}

/**
 * A tile card: `tile` (null when face down), `shape` for the back, `title`, and `lines` of
 * facts (strings of HTML, already escaped), `button` an optional Node.
 */
export function tileCard({ tile, shape, title, lines = [], button = null, rotation = 0 }) {
  const box = el("div", "tip-card tile-tip");
  box.append(el("strong", "tip-title", esc(title)));
  const pic = art.tilePicture(tile, shape, 176, 128, rotation);
  pic.classList.add("tip-tile");
  pic.setAttribute("role", "img");
  pic.setAttribute("aria-label", tile ? tileWords(tile) : t("ishtar.ui.tile.facedown.label", { shape }));
  box.append(pic);
  if (tile) {
    const list = el("ul", "tip-spaces");
    tile.spaces.forEach((s) => {
      const li = el("li", s.kind === "flower" ? "flower" : "grass", esc(spaceWords(s)));
      list.append(li);
    });
    box.append(list);
    box.append(el("p", "tip-line muted", esc(t("ishtar.ui.tile.total", { shape: shapeName(tile.shape), n: tileFlowers(tile) }))));
  } else {
    box.append(el("p", "tip-line", esc(t("ishtar.ui.tile.facedown"))));
  }
  for (const line of lines) box.append(el("p", "tip-line", line));
  if (button) box.append(button);
  return box;
}

/** A plain card: a title, lines of HTML, an optional picture and button. */
export function infoCard({ title, lines = [], picture = null, button = null }) {
  const box = el("div", "tip-card");
  box.append(el("strong", "tip-title", esc(title)));
  if (picture) box.append(picture);
  for (const line of lines) box.append(el("p", "tip-line", line));
  if (button) box.append(button);
  return box;
}

/** A blooming token's card. */
export function tokenCard(token, count, button = null) {
  return infoCard({
    title: tokenWords(token),
    picture: art.tokenPicture(token, 44),
    lines: count === null ? [] : [esc(t("ishtar.ui.token.carpet", { n: count }))],
    button,
  });
}
