/**
 * The vegetation tiles' shapes as the engine's catalogue gives them (`catalogue.shapes`: the
 * cells of each shape at rotation 0, cell 0 the anchor `at`), so the browser never keeps a
 * copy: the cells a tile covers, and where its anchor lies for a cell under the pointer. The
 * screen hands the catalogue over before it draws (`useCatalogue`, in screen.js `mount`).
 */

import * as hex from "./hex.js";

let offsets = {}; // shape -> [[dq, dr], ...]

/** Which of a tile's cells sits under the pointer: the middle one of a line or a chevron. */
const GRIP = { line: 1, chevron: 1, triangle: 0 };

/** The shapes of `catalogue` (null when it could not be loaded: no tile is drawn). */
export function useCatalogue(catalogue) {
  offsets = catalogue?.shapes || {};
}

/** The index of the cell of a tile of `shape` under the pointer. */
export function grip(shape) {
  return GRIP[shape] ?? 0;
}

/** The cells a tile of `shape` covers when placed at `at` with `rotation`. */
export function tileCells(shape, at, rotation) {
  const cells = offsets[shape];
  return cells ? hex.tileCells(cells, at, rotation) : [];
}

/** The anchor that puts the tile's grip cell on `cell`. */
export function anchorFor(shape, cell, rotation) {
  const cells = offsets[shape];
  return cells ? hex.anchorFor(cells, cell, rotation, grip(shape)) : cell;
}
