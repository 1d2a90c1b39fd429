/**
 * The legal actions of a Babylon Gardens step, indexed for the screen: the tiles one may
 * step onto (by position, and in the server's order for the number keys), the harvest, the
 * undo and the scoreboard sides. Every move the screen makes is one of these entries, sent
 * exactly as the server listed it; a square not indexed here is illegal.
 */

export const atKey = (at) => `${at[0]},${at[1]}`;

/** The arrow keys as grid steps `[dr, dc]`. */
const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

export function indexLegal(legal) {
  const ix = { count: legal.length, irrigate: new Map(), irrigateList: [], harvest: null, undo: null, sides: [] };
  for (const entry of legal) {
    const a = entry.action;
    if (a.type === "irrigate") {
      ix.irrigate.set(atKey(a.at), entry);
      ix.irrigateList.push(entry);
    } else if (a.type === "harvest") ix.harvest = entry;
    else if (a.type === "undo") ix.undo = entry;
    else if (a.type === "scoreboard") ix.sides.push(entry);
  }
  return ix;
}

/** Where the path goes on from: its last tile, or the well before the first step. */
export function pathEnd(view) {
  const path = view.path || [];
  return path.length ? path[path.length - 1] : view.floor?.well || null;
}

/** The square one arrow key away from the path's end (legal or not, maybe off the grid). */
export function arrowTarget(view, k) {
  const d = ARROWS[k];
  const end = pathEnd(view);
  if (!d || !end) return null;
  return [end[0] + d[0], end[1] + d[1]];
}
