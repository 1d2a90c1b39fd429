/**
 * Painted pieces kept as small canvases, so that a new view (one more gem on one tile) copies
 * the floor's tiles instead of painting every petal again: without a GPU a floor of 40 tiles
 * costs about a tenth of a second to paint, and a copy a millisecond. Bounded in bytes: the
 * oldest sprites go first when the total passes the bound, and all go when the tile size
 * changes (a resize), since none of them fits any more.
 */

export class SpriteCache {
  constructor(maxBytes = 16 * 1024 * 1024) {
    this.maxBytes = maxBytes;
    this.bytes = 0;
    this.items = new Map(); // key -> canvas, oldest first
    this.size = 0;
  }

  /** The sprite `key` of `size` × `size` device pixels, painted by `paintFn(ctx)` if new. */
  get(key, size, paintFn) {
    if (size !== this.size) this.clear(size);
    const hit = this.items.get(key);
    if (hit) {
      this.items.delete(key); // most recently used last
      this.items.set(key, hit);
      return hit;
    }
    const canvas = document.createElement("canvas");
    canvas.width = size;
    canvas.height = size;
    paintFn(canvas.getContext("2d"));
    this.items.set(key, canvas);
    this.bytes += size * size * 4;
    for (const [k, old] of this.items) {
      if (this.bytes <= this.maxBytes || k === key) break;
      this.items.delete(k);
      this.bytes -= old.width * old.height * 4;
    }
    return canvas;
  }

  clear(size = 0) {
    this.items.clear();
    this.bytes = 0;
    this.size = size;
  }
}
