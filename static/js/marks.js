/**
 * A mark for each colour of gem, nectar and wink, drawn on the piece itself, so the colours
 * can be told apart without seeing colour (colour-blind players): purple a dot, red a
 * triangle, white a square, yellow a diamond, green a cross. Shapes, not letters: they read
 * the same in every language. A seat's colour gets no mark (only these five names do).
 */

const SHAPES = { purple: "dot", red: "triangle", white: "square", yellow: "diamond", green: "cross" };

/** The mark's name for a colour ("triangle"), or null when the colour has none. */
export function markShape(colour) {
  return SHAPES[colour] || null;
}

const f = (n) => Number(n.toFixed(2));

/** SVG path data of the mark of `colour` centred on (x, y), of half-size r ("" if none). */
export function markPath(colour, x, y, r) {
  const a = r * 0.34; // half the width of a cross's arm
  switch (SHAPES[colour]) {
    case "dot":
      return `M${f(x - r * 0.8)} ${f(y)}a${f(r * 0.8)} ${f(r * 0.8)} 0 1 0 ${f(r * 1.6)} 0a${f(r * 0.8)} ${f(r * 0.8)} 0 1 0 ${f(-r * 1.6)} 0Z`;
    case "triangle":
      return `M${f(x)} ${f(y - r)}L${f(x + r)} ${f(y + r * 0.75)}L${f(x - r)} ${f(y + r * 0.75)}Z`;
    case "square":
      return `M${f(x - r * 0.72)} ${f(y - r * 0.72)}h${f(r * 1.44)}v${f(r * 1.44)}h${f(-r * 1.44)}Z`;
    case "diamond":
      return `M${f(x)} ${f(y - r)}L${f(x + r * 0.8)} ${f(y)}L${f(x)} ${f(y + r)}L${f(x - r * 0.8)} ${f(y)}Z`;
    case "cross":
      return `M${f(x - a)} ${f(y - r)}h${f(2 * a)}v${f(r - a)}h${f(r - a)}v${f(2 * a)}h${f(a - r)}v${f(r - a)}h${f(-2 * a)}v${f(a - r)}h${f(a - r)}v${f(-2 * a)}h${f(r - a)}Z`;
    default:
      return "";
  }
}

/** The ink of a mark: dark on the light colours, light on the dark ones. */
export function markInk(colour) {
  return colour === "white" || colour === "yellow" ? ["#3b3428", "rgba(255,255,255,0.7)"] : ["#fffdf6", "rgba(0,0,0,0.6)"];
}

/** The mark of `colour` on a canvas, centred on (x, y), of half-size r. */
export function drawMark(ctx, colour, x, y, r) {
  const d = markPath(colour, x, y, r);
  if (!d) return;
  const [ink, edge] = markInk(colour);
  const p = new Path2D(d);
  ctx.save();
  ctx.lineJoin = "round";
  ctx.lineWidth = Math.max(0.7, r * 0.3);
  ctx.strokeStyle = edge;
  ctx.stroke(p);
  ctx.fillStyle = ink;
  ctx.fill(p);
  ctx.restore();
}

/** The mark as SVG markup for an SVG of the same coordinates (a `<path>`, "" if none). */
export function svgMark(colour, x, y, r) {
  const d = markPath(colour, x, y, r);
  if (!d) return "";
  const [ink, edge] = markInk(colour);
  return `<path class="mark" data-mark="${SHAPES[colour]}" d="${d}" fill="${ink}" stroke="${edge}" stroke-width="${f(Math.max(0.5, r * 0.28))}" stroke-linejoin="round" paint-order="stroke"/>`;
}

/** The mark alone as a small inline SVG for HTML (a wink or a chip's dot), "" if none. */
export function markIcon(colour) {
  const m = svgMark(colour, 6, 6.2, 3.4);
  return m ? `<svg class="mark-icon" viewBox="0 0 12 12" aria-hidden="true">${m}</svg>` : "";
}
