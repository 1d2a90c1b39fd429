/**
 * The small pictures of a game's panels, bars and cards (a tile, a pawn, a token, a wink),
 * each painted once and then shown as an image.
 *
 * A picture is painted on a canvas the first time it is asked for, kept as a PNG data URL,
 * and every copy of it in the page is an `<img>` of that URL. Panels are rebuilt at every
 * move, and a canvas in the page is a surface of its own that the browser hands to its
 * compositor at each frame, and allocates anew for each new one: a page with thirty such
 * canvases did that thirty times a frame (docs/benchmarks.md, "The test suite"). An image
 * is drawn into the page's own layer like text.
 *
 * The kept URLs are bounded in bytes (LIMIT_BYTES, the oldest used dropped first): a
 * picture dropped is simply painted again the next time.
 */

import { sharpContext } from "./canvas.js";

/** What the kept URLs may hold: a 78×78 tile is about 6 KB of PNG as a data URL. */
export const LIMIT_BYTES = 1 << 20;

const kept = new Map();
let keptBytes = 0;

/**
 * An `<img>` of w×h CSS pixels showing what `paint(ctx)` draws on a w×h canvas (at the
 * screen's pixel ratio). `key` names the picture: two calls with the same key, size and
 * pixel ratio show the same picture, painted once. `cls` is the image's class. A `paint`
 * that returns false could not paint yet (what it needs has not loaded): its picture is
 * shown but not kept.
 */
export function picture(key, w, h, paint, cls = "") {
  const dpr = Math.max(1, window.devicePixelRatio || 1);
  const name = `${w}x${h}@${dpr} ${key}`;
  let url = kept.get(name);
  if (url === undefined) {
    const canvas = document.createElement("canvas");
    const painted = paint(sharpContext(canvas, w, h));
    url = canvas.toDataURL("image/png");
    if (painted !== false) keep(name, url);
  } else {
    kept.delete(name); // used again: the newest
    kept.set(name, url);
  }
  const img = new Image(w, h);
  img.src = url;
  img.alt = "";
  img.draggable = false;
  img.decoding = "sync";
  img.style.width = `${w}px`;
  img.style.height = `${h}px`;
  if (cls) img.className = cls;
  return img;
}

function keep(name, url) {
  kept.set(name, url);
  keptBytes += url.length;
  for (const [oldest, old] of kept) {
    if (keptBytes <= LIMIT_BYTES || oldest === name) break;
    kept.delete(oldest);
    keptBytes -= old.length;
  }
}

/** How many pictures are kept and their bytes (for tests). */
export function keptPictures() {
  return { count: kept.size, bytes: keptBytes };
}
