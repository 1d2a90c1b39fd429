/**
 * Pointer input on the board canvas: hover and tap on hexes, drag to pan, wheel or pinch to
 * zoom, wheel to rotate the tile while placing. Translates raw events into calls on
 * `handlers` (hover(cell|null, ev), tap(cell, ev), rotate(±1)); pans and zooms the
 * renderer's camera itself.
 */

const DRAG_PX = 6;
const WHEEL_ROTATE_MS = 140;

export function attachInput(canvas, renderer, handlers) {
  const pointers = new Map(); // id -> {x, y, startX, startY}
  let dragging = false;
  let pinch = null; // {dist, midX, midY}
  let lastRotate = 0;
  let wheelAcc = 0;

  const local = (ev) => renderer.fromClient(ev.clientX, ev.clientY);
  const cellAt = (ev) => {
    const [x, y] = local(ev);
    const cell = renderer.canvasToHex(x, y);
    return renderer.isOnBoard(cell) ? cell : null;
  };

  canvas.addEventListener("pointerdown", (ev) => {
    if (ev.button !== undefined && ev.button > 0 && ev.pointerType === "mouse") return;
    canvas.setPointerCapture?.(ev.pointerId);
    const [x, y] = local(ev);
    pointers.set(ev.pointerId, { x, y, startX: x, startY: y });
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      pinch = { dist: Math.hypot(a.x - b.x, a.y - b.y), midX: (a.x + b.x) / 2, midY: (a.y + b.y) / 2 };
      dragging = true;
    }
  });

  canvas.addEventListener("pointermove", (ev) => {
    const p = pointers.get(ev.pointerId);
    const [x, y] = local(ev);
    if (!p) {
      if (ev.pointerType !== "touch") handlers.hover(cellAt(ev), ev);
      return;
    }
    if (pinch && pointers.size >= 2) {
      p.x = x;
      p.y = y;
      const [a, b] = [...pointers.values()];
      const dist = Math.hypot(a.x - b.x, a.y - b.y);
      const midX = (a.x + b.x) / 2;
      const midY = (a.y + b.y) / 2;
      renderer.panBy(midX - pinch.midX, midY - pinch.midY);
      if (pinch.dist > 0) renderer.zoomAt(midX, midY, dist / pinch.dist);
      pinch = { dist, midX, midY };
      return;
    }
    if (!dragging && Math.hypot(x - p.startX, y - p.startY) > DRAG_PX) {
      dragging = true;
      canvas.classList.add("dragging");
    }
    if (dragging) renderer.panBy(x - p.x, y - p.y);
    p.x = x;
    p.y = y;
    if (!dragging && ev.pointerType !== "touch") handlers.hover(cellAt(ev), ev);
  });

  const end = (ev, cancelled) => {
    const had = pointers.delete(ev.pointerId);
    if (pointers.size < 2) pinch = null;
    if (pointers.size === 0) {
      const wasDrag = dragging;
      dragging = false;
      canvas.classList.remove("dragging");
      if (had && !wasDrag && !cancelled) {
        const cell = cellAt(ev);
        if (cell) handlers.tap(cell, ev);
      }
    }
  };
  canvas.addEventListener("pointerup", (ev) => end(ev, false));
  canvas.addEventListener("pointercancel", (ev) => end(ev, true));
  canvas.addEventListener("pointerleave", (ev) => {
    if (!pointers.size && ev.pointerType !== "touch") handlers.hover(null, ev);
  });

  canvas.addEventListener(
    "wheel",
    (ev) => {
      ev.preventDefault();
      const rotateWanted = !ev.ctrlKey && (ev.altKey || ev.shiftKey || handlers.wheelRotates());
      if (rotateWanted) {
        wheelAcc += ev.deltaY || ev.deltaX;
        const now = performance.now();
        if (Math.abs(wheelAcc) >= 30 && now - lastRotate > WHEEL_ROTATE_MS) {
          handlers.rotate(wheelAcc > 0 ? 1 : -1);
          lastRotate = now;
          wheelAcc = 0;
        }
        return;
      }
      const [x, y] = local(ev);
      const dy = ev.deltaMode === 1 ? ev.deltaY * 16 : ev.deltaY;
      renderer.zoomAt(x, y, Math.exp(-dy * (ev.ctrlKey ? 0.01 : 0.0015)));
    },
    { passive: false },
  );
}
