/**
 * Pointer input on Babylon Gardens' board canvas: which grid square the mouse is over
 * (`hover(at | null, ev)`) and which one was clicked or tapped (`tap(at, ev)`). The board
 * always fits its canvas, so there is no panning or zooming to tell apart from a tap; a
 * touch that moves more than a few pixels (a scroll of the page) is not a tap.
 */

const SLOP_PX = 10;

export function attachInput(canvas, renderer, handlers) {
  let down = null; // {id, x, y}
  const local = (ev) => renderer.fromClient(ev.clientX, ev.clientY);
  const squareAt = (ev) => renderer.canvasToTile(...local(ev));

  canvas.addEventListener("pointerdown", (ev) => {
    if (ev.pointerType === "mouse" && ev.button !== 0) return;
    down = { id: ev.pointerId, x: ev.clientX, y: ev.clientY };
  });
  canvas.addEventListener("pointermove", (ev) => {
    if (ev.pointerType !== "touch") handlers.hover(squareAt(ev), ev);
  });
  canvas.addEventListener("pointerup", (ev) => {
    const start = down;
    down = null;
    if (!start || start.id !== ev.pointerId) return;
    if (Math.hypot(ev.clientX - start.x, ev.clientY - start.y) > SLOP_PX) return;
    const at = squareAt(ev);
    if (at) handlers.tap(at, ev);
  });
  canvas.addEventListener("pointercancel", () => {
    down = null;
  });
  canvas.addEventListener("pointerleave", (ev) => {
    if (ev.pointerType !== "touch") handlers.hover(null, ev);
  });
}
