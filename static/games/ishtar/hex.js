/**
 * Hex geometry for the board: axial coordinates, pointy-top layout (Red Blob Games
 * conventions), exactly as fixed in docs/games/ishtar/contract.md. Pure functions, no rules.
 *
 *   centre of (q, r) for size s:  x = s·√3·(q + r/2),  y = s·3/2·r
 *   one rotation step = 60° clockwise:  (q, r) → (-r, q + r)
 */

const SQRT3 = Math.sqrt(3);

/** Clockwise from east, as in the contract. */
export const DIRECTIONS = [[1, 0], [0, 1], [-1, 1], [-1, 0], [0, -1], [1, -1]];

export const key = (q, r) => `${q},${r}`;
export const keyOf = (cell) => (Array.isArray(cell) ? key(cell[0], cell[1]) : key(cell.q, cell.r));

function add(a, b) {
  return [a[0] + b[0], a[1] + b[1]];
}

/** Rotate an offset `steps` × 60° clockwise around the origin. */
export function rotate([q, r], steps) {
  let p = [q, r];
  for (let i = 0; i < ((steps % 6) + 6) % 6; i += 1) p = [-p[1], p[0] + p[1]];
  return p;
}

/**
 * The cells a tile covers when placed at `at` with `rotation`; `offsets` are its shape's
 * cells at rotation 0, cell 0 the anchor (the catalogue's `shapes`).
 */
export function tileCells(offsets, at, rotation) {
  return offsets.map((off) => add(at, rotate(off, rotation)));
}

/** The anchor that puts cell `grip` of a tile of shape `offsets` on `cell`. */
export function anchorFor(offsets, cell, rotation, grip) {
  const off = rotate(offsets[grip], rotation);
  return [cell[0] - off[0], cell[1] - off[1]];
}

/** Pixel centre (world units) of a hex for hex size `s`. */
export function toPixel([q, r], s) {
  return [s * SQRT3 * (q + r / 2), s * 1.5 * r];
}

function roundAxial(fq, fr) {
  const fs = -fq - fr;
  let q = Math.round(fq);
  let r = Math.round(fr);
  const s = Math.round(fs);
  const dq = Math.abs(q - fq);
  const dr = Math.abs(r - fr);
  const ds = Math.abs(s - fs);
  if (dq > dr && dq > ds) q = -r - s;
  else if (dr > ds) r = -q - s;
  return [q, r];
}

/** The hex containing world point (x, y). */
export function fromPixel(x, y, s) {
  const q = ((SQRT3 / 3) * x - y / 3) / s;
  const r = ((2 / 3) * y) / s;
  return roundAxial(q, r);
}

/** The 6 corners of a pointy-top hex centred at (cx, cy), clockwise from the top-right. */
export function corners(cx, cy, s) {
  const pts = [];
  for (let i = 0; i < 6; i += 1) {
    const a = (Math.PI / 180) * (60 * i - 30);
    pts.push([cx + s * Math.cos(a), cy + s * Math.sin(a)]);
  }
  return pts;
}

/**
 * The corner pair of the edge shared with the neighbour in direction `d`
 * (index into DIRECTIONS). Corner i sits at angle 60·i − 30°.
 */
export function edgeCorners(d) {
  // Direction d lies at 60·d° on screen, so its edge spans corners d and d + 1.
  return [d, (d + 1) % 6];
}
