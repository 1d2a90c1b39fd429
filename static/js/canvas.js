/**
 * The canvases of a game's screen, the plumbing both games share: a board's canvas sized to
 * its box at the screen's pixel ratio (again when either changes), its redraws batched into
 * one per frame (`invalidate()`), the room kept clear at its top for the bar floating over the
 * stage; and the pictures of the rules pages, sharp on any screen (the panels' small
 * pictures are images: js/pictures.js).
 * A game's renderer extends `BoardCanvas` with how its camera fits the board (`fit()`) and its
 * drawing (`draw()`); the camera itself (`cam`: scale `k`, offset `x`, `y` in CSS pixels), the
 * drawing in world units through it (`toWorld`) and the way between the canvas and the page
 * (`toClient`, `fromClient`) are here.
 */

/**
 * Redraws a second for a pulse that lasts as long as a turn (the glowing marks of the moves
 * one may make): enough for a slow glow, a third of a screen's rate, so a page left open on a
 * turn does not redraw its whole board 60 times a second for minutes (a phone's battery, a
 * laptop's fan).
 */
export const PULSE_FPS = 20;

/**
 * Steps of a fade (the cells of another player's move dying out, a harvest's glow): its
 * level changes this many times in all, as the log's newest line fades (`steps(8)` in
 * shell.css), so a fade of two seconds costs a few redraws of the board, not one at every
 * frame of the screen (some 130 whole redraws after each move, on every page watching).
 */
export const FADE_STEPS = 8;

/**
 * Whether the player asked for less motion (`prefers-reduced-motion`; asked each time: it can
 * change): a pulse then holds still, nothing pops in or travels.
 */
export function reducedMotion() {
  return !!window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
}

/** The page is used with a finger (a phone, a tablet), not a mouse. */
export const COARSE = window.matchMedia?.("(pointer: coarse)").matches;

/** The 2D context of `canvas` for drawing w×h CSS pixels, sharp at the screen's pixel ratio. */
export function sharpContext(canvas, w, h) {
  const dpr = Math.max(1, window.devicePixelRatio || 1);
  canvas.width = Math.round(w * dpr);
  canvas.height = Math.round(h * dpr);
  const ctx = canvas.getContext("2d");
  ctx.scale(dpr, dpr);
  return ctx;
}

/** The context of a rules page's picture: w×h CSS pixels, narrower with a narrow page. */
export function figureContext(canvas, w, h) {
  const ctx = sharpContext(canvas, w, h);
  canvas.style.width = `${w}px`;
  canvas.style.maxWidth = "100%";
  canvas.style.height = "auto";
  canvas.style.aspectRatio = `${w} / ${h}`;
  return ctx;
}

export class BoardCanvas {
  constructor(canvas) {
    this.canvas = canvas;
    this.ctx = canvas.getContext("2d");
    this.size = { w: 0, h: 0, dpr: 1 };
    this.cam = { k: 1, x: 0, y: 0 }; // world unit -> CSS pixel: x * k + cam.x
    this.insetTop = 0;
    this.pending = false;
    this.observer = new ResizeObserver(() => this.resize());
    this.observer.observe(canvas);
  }

  /** Size the canvas to its box at the screen's pixel ratio, when either changed. */
  resize() {
    const rect = this.canvas.getBoundingClientRect();
    const dpr = window.devicePixelRatio || 1;
    const w = Math.max(1, Math.round(rect.width));
    const h = Math.max(1, Math.round(rect.height));
    if (w === this.size.w && h === this.size.h && dpr === this.size.dpr) return;
    this.size = { w, h, dpr };
    this.canvas.width = Math.round(w * dpr);
    this.canvas.height = Math.round(h * dpr);
    this.refit();
  }

  /** The canvas or the room above the board changed: lay the board out again. */
  refit() {
    this.fit();
  }

  /** Room kept clear at the top of the canvas (the action bar floats over it). */
  setInsets(top) {
    // The room kept only grows while the canvas keeps its width: a bar that grows for one
    // step and shrinks for the next must not move the board under a quick second tap (the
    // board stays laid out below the tallest bar seen). A new width (a turned phone, a
    // resized window) starts afresh.
    const sameWidth = this.insetWidth === this.size.w;
    if (sameWidth ? top <= this.insetTop + 1 : Math.abs(top - this.insetTop) < 2) return;
    this.insetWidth = this.size.w;
    this.insetTop = top;
    this.refit();
  }

  /**
   * Keep the board clear of a bar floating over the top of the stage (the room's action
   * bar, the replay's bar): its bottom edge, as it changes size.
   */
  followBar(bar) {
    if (!bar) return;
    const update = () => this.setInsets(bar.offsetTop + bar.offsetHeight + 8);
    this.barObserver = new ResizeObserver(update);
    this.barObserver.observe(bar);
    update();
  }

  /** A layer's 2D context, cleared, its canvas the board's size (resized only when not). */
  layerContext(layer) {
    const { canvas } = this;
    if (layer.width !== canvas.width || layer.height !== canvas.height) {
      layer.width = canvas.width;
      layer.height = canvas.height;
    }
    const ctx = layer.getContext("2d");
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, layer.width, layer.height);
    return ctx;
  }

  /** Set `ctx` (the board's, or a layer of the same size) to draw in world units. */
  toWorld(ctx = this.ctx) {
    const { dpr } = this.size;
    const { k, x, y } = this.cam;
    ctx.setTransform(dpr * k, 0, 0, dpr * k, dpr * x, dpr * y);
  }

  /** The page-viewport pixel of canvas-local pixel [x, y] (tooltips, pieces travelling, tests). */
  toClient([x, y]) {
    const rect = this.canvas.getBoundingClientRect();
    return [rect.left + x, rect.top + y];
  }

  /** The canvas-local pixel of a page-viewport pixel (a pointer event's clientX, clientY). */
  fromClient(cx, cy) {
    const rect = this.canvas.getBoundingClientRect();
    return [cx - rect.left, cy - rect.top];
  }

  /** Draw again at the next frame (once, however many times it is asked before). */
  invalidate() {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => {
      this.pending = false;
      this.draw();
    });
  }

  /**
   * A pulse's level now, between 0 and 1 (a sine of `period` ms), with the next redraw of the
   * pulse asked for at most PULSE_FPS times a second. Under prefers-reduced-motion the level
   * holds at 0.75 and nothing is redrawn for it.
   */
  pulse(period) {
    if (reducedMotion()) return 0.75;
    if (!this.pulseTimer) {
      this.pulseTimer = setTimeout(() => {
        this.pulseTimer = 0;
        this.invalidate();
      }, 1000 / PULSE_FPS);
    }
    return 0.5 + 0.5 * Math.sin(performance.now() / period);
  }

  /**
   * What is left of a fade begun at `t0` (performance.now()) that lasts `ms`: 1 at first,
   * then down by 1/FADE_STEPS at each step; null once it is over. The board is redrawn at
   * the fade's next step (a timer), not at every frame. Under prefers-reduced-motion the
   * level holds at 1 until the end.
   */
  fade(t0, ms) {
    const t = (performance.now() - t0) / ms;
    if (t >= 1) return null;
    if (reducedMotion()) {
      this.wakeAt(t0 + ms);
      return 1;
    }
    const step = Math.floor(t * FADE_STEPS);
    this.wakeAt(t0 + ((step + 1) * ms) / FADE_STEPS);
    return 1 - step / FADE_STEPS;
  }

  /** Redraw at `when` (performance.now()), or sooner if a sooner redraw is asked already. */
  wakeAt(when) {
    if (this.wakeTimer && this.wakeWhen <= when) return;
    clearTimeout(this.wakeTimer);
    this.wakeWhen = when;
    // a millisecond late: a timer may fire a little before its time
    const delay = Math.max(0, when - performance.now()) + 1;
    this.wakeTimer = setTimeout(() => {
      this.wakeTimer = 0;
      this.invalidate();
    }, delay);
  }

  destroy() {
    clearTimeout(this.pulseTimer);
    this.pulseTimer = 0;
    clearTimeout(this.wakeTimer);
    this.wakeTimer = 0;
    this.observer.disconnect();
    this.barObserver?.disconnect();
  }
}
