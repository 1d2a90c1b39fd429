/**
 * Real tooltips for the side panels and the action bar, in words: a card that floats next to
 * the element it explains (a pile, the tile in hand, a skill, a tree card, a token). It opens
 * on mouse hover and on keyboard focus, and on touch with a tap (a second tap elsewhere, or
 * Escape, closes it), so what a desktop player reads on hover a phone player reads on tap.
 * One card at a time, kept in `document.body` so no panel's overflow clips it.
 *
 * `tip(element, make, {onTap})`: `make()` returns the card's content (a Node) when it opens,
 * so it is always drawn from the latest view. `onTap(ev)` (optional) is what a tap or click
 * does besides; on touch the card opens first and the element's own action waits for a
 * button inside the card, so a tap never acts unseen. A click that acts closes the card, and a
 * card with no button in it lets the pointer through (`.passive`), so a card left beside the
 * side column never catches a click meant for the board under it.
 */

import { COARSE } from "../../js/canvas.js";

let card = null; // the floating element
let owner = null; // the element whose card is open
// Where a click acted, while the pointer has not moved since: the panel redrawn under a still
// pointer gets a new element and the browser "enters" it, which must not reopen the card.
// (A click's coordinates are whole pixels, a pointer event's are not: "still" is within 1 px.)
let still = null;
const isStill = (ev) => !!still && Math.abs(ev.clientX - still[0]) < 1 && Math.abs(ev.clientY - still[1]) < 1;
document.addEventListener("pointermove", (ev) => { if (!isStill(ev)) still = null; }, true);
// The last time the pointer really moved (to other coordinates): an element drawn under a
// pointer resting since then (the bar redrawn for the next player's or a bot's step, after
// "End turn") is "entered" by the browser without a move, and opens no card.
let moved = { at: 0, x: NaN, y: NaN };
const samePoint = (ev) => Math.abs(ev.clientX - moved.x) < 1 && Math.abs(ev.clientY - moved.y) < 1;
document.addEventListener("pointermove", (ev) => {
  if (!samePoint(ev)) moved = { at: performance.now(), x: ev.clientX, y: ev.clientY };
}, true);
// A card with nothing to press whose element left the page (the bar or a panel redrawn for
// the next move, a bot's turn) closes with it: it never stays over the board explaining what
// is gone. A card with a button (a token's "Lay", read on touch) waits for it or a tap away.
const gone = new MutationObserver(() => {
  if (owner && !owner.isConnected && card.classList.contains("passive")) close();
});

function ensureCard() {
  if (card) return card;
  card = document.createElement("div");
  card.className = "ish-tip";
  card.setAttribute("role", "tooltip");
  card.id = "ish-tip";
  card.hidden = true;
  document.body.append(card);
  gone.observe(document.body, { childList: true, subtree: true });
  document.addEventListener("keydown", (ev) => { if (ev.key === "Escape") close(); });
  card.addEventListener("pointerleave", (ev) => {
    if (ev.pointerType === "mouse" && owner && !owner.matches(":hover")) close();
  });
  document.addEventListener("pointerdown", (ev) => {
    if (!owner) return;
    if (card.contains(ev.target) || owner.contains(ev.target)) return;
    close();
  }, true);
  window.addEventListener("resize", () => close());
  return card;
}

/** Close the open card (if any). */
export function close() {
  if (!card || card.hidden) return;
  card.hidden = true;
  card.innerHTML = "";
  owner?.removeAttribute("aria-describedby");
  owner = null;
}

/** Whether `element`'s card is the one open. */
function isOpen(element) {
  return !!card && !card.hidden && owner === element;
}

/** Open `element`'s card with `content` (a Node), next to it. */
export function open(element, content) {
  const c = ensureCard();
  c.innerHTML = "";
  c.append(content);
  // a card with nothing to press lets the pointer through: over the board it never stands
  // between the player and the spot they click (and it closes as they leave its element)
  c.classList.toggle("passive", !c.querySelector("button, a[href], input, select"));
  c.hidden = false;
  owner = element;
  element.setAttribute("aria-describedby", c.id);
  place(c, element.getBoundingClientRect(), element.closest(".side")?.getBoundingClientRect());
}

/**
 * Beside the element: in the side column on the right of a wide screen, over the board just
 * left of that column (so the panels stay readable); else below the element (or above it).
 */
function place(c, r, side) {
  const vw = document.documentElement.clientWidth;
  const vh = document.documentElement.clientHeight;
  const w = c.offsetWidth;
  const h = c.offsetHeight;
  const edge = side && side.left > vw / 2 ? side.left : r.left;
  let left;
  let top;
  if (edge - w - 12 >= 8 && r.left > vw / 2) {
    left = edge - w - 12;
    top = r.top + r.height / 2 - h / 2;
  } else {
    left = r.left + r.width / 2 - w / 2;
    top = r.bottom + 10;
    if (top + h > vh - 8 && r.top - h - 10 >= 8) top = r.top - h - 10;
  }
  c.style.left = `${Math.round(Math.min(Math.max(8, left), vw - w - 8) + window.scrollX)}px`;
  c.style.top = `${Math.round(Math.min(Math.max(8, top), Math.max(8, vh - h - 8)) + window.scrollY)}px`;
}

/** Give `element` a card in words (see the module's docstring). */
export function tip(element, make, { onTap = null } = {}) {
  element.removeAttribute("title");
  let touched = false;
  const born = performance.now();
  let resting = false; // entered without a move: opens once the pointer moves over it
  element.addEventListener("pointerenter", (ev) => {
    if (ev.pointerType !== "mouse") return;
    resting = isStill(ev) || (samePoint(ev) && moved.at < born); // drawn under a resting pointer
    if (!resting) open(element, make());
  });
  element.addEventListener("pointermove", (ev) => {
    if (!resting || ev.pointerType !== "mouse" || moved.at < born || isStill(ev)) return;
    resting = false;
    open(element, make());
  });
  element.addEventListener("pointerleave", (ev) => {
    if (ev.pointerType !== "mouse" || !isOpen(element)) return;
    // a moment to reach the card's own button; leaving the card closes it
    setTimeout(() => { if (isOpen(element) && !card.matches(":hover") && !element.matches(":hover")) close(); }, 160);
  });
  // a keyboard's focus opens the card, not the focus a mouse click gives the element
  element.addEventListener("focus", () => {
    if (!touched && element.matches(":focus-visible")) open(element, make());
  });
  element.addEventListener("blur", () => { if (isOpen(element) && !card.matches(":hover")) close(); });
  element.addEventListener("pointerdown", (ev) => { touched = ev.pointerType !== "mouse"; });
  element.addEventListener("click", (ev) => {
    const touch = touched || ev.pointerType === "touch" || (COARSE && ev.pointerType === "pen");
    touched = false;
    if (touch) {
      // a tap reads first: the card opens, its own button (if any) acts
      if (isOpen(element)) close();
      else open(element, make());
      return;
    }
    if (onTap) {
      // the click acts: what the card explained is done, and it must not stay over the board
      close();
      still = [ev.clientX, ev.clientY];
      onTap(ev);
    }
  });
}

/** Close the card if its element is inside `box` (about to be redrawn). */
export function closeWithin(box) {
  if (owner && box.contains(owner)) close();
}
