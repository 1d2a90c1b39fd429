/**
 * Another player's (or a bot's) move as Ishtar's game screen (game.js) shows it: the cells it
 * changed light up, the chosen pile flashes, and its pieces travel (js/travel.js).
 */

import { el } from "../../js/dom.js";
import * as art from "./art.js";
import * as hex from "./hex.js";
import * as shapes from "./shapes.js";
import { around, travel } from "../../js/travel.js";

/** Methods of GameScreen (game.js), mixed into its prototype. */
export const motion = {
  /** Light up what another player just changed. */
  flash(old, view, event) {
    const oldSpaces = new Map((old.spaces || []).map((s) => [hex.key(s.q, s.r), s]));
    const changed = [];
    for (const s of view.spaces || []) {
      const o = oldSpaces.get(hex.key(s.q, s.r));
      if (!o || o.tree !== s.tree || o.assistant !== s.assistant || o.token !== s.token) changed.push([s.q, s.r]);
    }
    this.renderer.highlight(changed);
    if (event.action?.type === "choose") {
      requestAnimationFrame(() => {
        const pile = document.querySelector(`.pile[data-pile="${event.action.pile}"]`);
        if (pile) pile.classList.add("flash");
      });
    }
  },

  // ---- pieces travelling (another player's move) -------------------------------------------

  /** Where the pieces of `event` set off from, read before the page is redrawn. */
  startsOf(event) {
    const a = event.action || {};
    const rect = (sel) => document.querySelector(sel)?.getBoundingClientRect() || null;
    return {
      hand: rect("#choices [data-act='hand']"),
      pile: a.type === "choose" ? rect(`.pile[data-pile="${a.pile}"]`) : null,
      card: a.card !== undefined ? rect(`#market [data-card="${a.card}"]`) : null,
      token: a.type === "bloom" ? rect(`#carpet [data-token="${a.token}"]`) : null,
    };
  },

  /**
   * Another player's (or a bot's) move, shown travelling (js/travel.js; nothing under reduced
   * motion): the tile from its pile to the hand, the hand's tile onto the board, the gems it
   * collected to that player's panel, a tree from the market (or their panel) to its space, a
   * reserved card to their panel, a blooming token from the carpet.
   */
  travelFor(old, view, event, from) {
    const a = event.action || {};
    const rect = (sel) => document.querySelector(sel)?.getBoundingClientRect() || null;
    const panelOf = (seat) => rect(`#players [data-seat="${seat}"] .gems, #me [data-seat="${seat}"] .gems`) || rect(`[data-seat="${seat}"]`);
    const cellsRect = (cells) => {
      const pts = cells.map((c) => this.renderer.hexToClient(c));
      const size = this.renderer.cam.k * 54;
      const xs = pts.map((p) => p[0]);
      const ys = pts.map((p) => p[1]);
      const left = Math.min(...xs) - size / 2;
      const top = Math.min(...ys) - size / 2;
      return { left, top, width: Math.max(...xs) - left + size / 2, height: Math.max(...ys) - top + size / 2 };
    };
    if (a.type === "choose") {
      const pile = old.carpet?.piles?.[a.pile];
      if (pile?.top) travel(art.tilePicture(pile.top, pile.cup, 78, 78), from.pile, rect("#choices [data-act='hand']") || panelOf(event.seat), { kind: "tile" });
    } else if (a.type === "place" && old.hand) {
      const cells = shapes.tileCells(old.hand.shape, a.at, a.rotation);
      const to = cellsRect(cells);
      const start = from.hand || rect(`.pile[data-pile="${old.carpet?.can}"]`);
      travel(art.tilePicture(old.hand, old.hand.shape, 92, 68, a.rotation), start, to, { kind: "tile" });
      const before = old.players.find((p) => p.seat === event.seat)?.gems || {};
      const after = view.players.find((p) => p.seat === event.seat)?.gems || {};
      let k = 0;
      for (const colour of ["purple", "red", "white"]) {
        for (let n = before[colour] || 0; n < (after[colour] || 0); n += 1) {
          const [x, y] = this.renderer.hexToClient(cells[k % cells.length]);
          travel(el("span", "travel-gem", art.gemIcon(colour)), around(x, y, 26), panelOf(event.seat), { delay: 380 + 120 * k, kind: "gem" });
          k += 1;
        }
      }
    } else if (a.type === "plant") {
      const [x, y] = this.renderer.hexToClient(a.at);
      travel(art.treePicture(30), from.card || panelOf(event.seat), around(x, y, this.renderer.cam.k * 40), { kind: "tree" });
    } else if (a.type === "reserve") {
      const c = old.market.find((m) => m.card === a.card);
      if (c) travel(art.treePicture(30), from.card, rect(`[data-seat="${event.seat}"]`), { kind: "tree" });
    } else if (a.type === "bloom") {
      const to = cellsRect(a.cells || []);
      travel(art.tokenPicture(a.token, 26), from.token || rect("#carpet"), to, { kind: "token" });
    }
  },
};
