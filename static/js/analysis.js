/**
 * The analysis of a finished game on the replay page (docs/analysis.md): asked for with
 * `POST /api/rooms/{id}/analysis`, read with `GET` while the server's workers compute it
 * (a progress bar; the partial analysis shows move by move), then:
 *
 * - a chart of each seat's chance of winning after every move (or its expected points);
 *   a click on a point shows that move;
 * - the marks of the decisions (inaccuracy ?!, mistake ?, blunder ??) on the move list, and
 *   for the move shown its loss and the better move, which the board can show (the
 *   engine's view after it);
 * - each player's average loss, marks, luck and luck-adjusted score; the luckiest and
 *   unluckiest draws; the turning points in words.
 *
 * Everything the chart shows is also text (its table, folded away). The page's language
 * renders every word (static/i18n/*.json, `analysis.*`); the moves' words are the engine's
 * messages.
 */

import { playerColour } from "./colours.js";
import { el, playerName, redraw } from "./dom.js";
import { failureText } from "./errors.js";
import { number, t } from "./i18n.js";
import { ofName } from "./initials.js";
import { entryText } from "./log.js";

const $ = (id) => document.getElementById(id);
const POLL_MS = 1000;
const SYMBOL = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const SVG = "http://www.w3.org/2000/svg";

const pct = (x) => `${number(Math.round(x * 100))} %`;
const pts = (x) => number(Math.round(x * 10) / 10);
const signed = (x) => (x > 0 ? `+${pts(x)}` : pts(x));

function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

export class AnalysisPanel {
  /**
   * `base`: the room's API URL; `page`: {record, room, move, show(n), showBetter(entry)}
   * — what the replay page lends the panel.
   */
  constructor({ base, page }) {
    this.base = base;
    this.page = page;
    this.job = null; // the last answer of the API
    this.metric = "win";
    this.timer = null;
    $("analysis-btn").addEventListener("click", () => this.ask());
    for (const b of document.querySelectorAll("[data-metric]")) {
      b.addEventListener("click", () => {
        this.metric = b.dataset.metric;
        this.render();
      });
    }
    $("analysis-better-btn").addEventListener("click", () => {
      const entry = this.entry(this.page.move);
      if (entry?.better?.view) this.page.showBetter(entry);
    });
  }

  get analysis() {
    return this.job?.analysis ?? null;
  }

  /** The record is known: offer the analysis (finished games only), or read it if asked. */
  async start(autoAsk) {
    const finished = this.page.record.status === "finished";
    $("analysis").hidden = false;
    $("analysis-btn").hidden = !finished;
    $("analysis-intro").textContent = t(finished ? "analysis.intro" : "analysis.not_over");
    if (!finished) return;
    const known = await this.fetch("GET");
    if (known) this.received(known);
    else if (autoAsk) await this.ask();
  }

  async fetch(method) {
    const res = await fetch(`${this.base}/analysis`, { method, headers: { Accept: "application/json" } });
    const data = await res.json().catch(() => null);
    if (res.ok) return data;
    if (method === "GET" && data?.error?.code === "no_analysis") return null;
    throw new Error(failureText(res.status, data));
  }

  async ask() {
    $("analysis-btn").disabled = true;
    $("analysis-error").hidden = true;
    try {
      this.received(await this.fetch("POST"));
    } catch (err) {
      $("analysis-error").textContent = err.message;
      $("analysis-error").hidden = false;
      $("analysis-btn").disabled = false;
    }
  }

  received(job) {
    this.job = job;
    $("analysis").dataset.status = job.status;
    this.render();
    clearTimeout(this.timer);
    if (job.status === "queued" || job.status === "running") {
      this.timer = setTimeout(() => this.poll(), POLL_MS);
    }
  }

  async poll() {
    try {
      this.received(await this.fetch("GET"));
    } catch {
      this.timer = setTimeout(() => this.poll(), POLL_MS * 3);
    }
  }

  /** The analysis entry of move `n` (1-based), if analysed yet. */
  entry(n) {
    return this.analysis?.moves?.[n - 1] ?? null;
  }

  name(seat) {
    return playerName(this.page.room, seat);
  }

  /** "Analysis complete (2 to 8 games played out per option)": an analysis of an older
   * version, before rollouts were sequential, has no `first_rollouts`. */
  doneText(depth) {
    const rollouts = depth.rollouts ?? 0;
    const first = depth.first_rollouts ?? rollouts;
    return t("analysis.done", { rollouts, first, sequential: first < rollouts ? "yes" : "no" });
  }

  /** A seat's name as the `{player}` of a sentence: a message, so that a language may put
   * a word before it that depends on its first sound (French "de Björn", "d’Ana"). */
  player(seat) {
    return ofName(this.name(seat));
  }

  colour(seat) {
    const p = (this.page.record.players || []).find((q) => q.seat === seat);
    return playerColour(p?.colour);
  }

  // ---- rendering ---------------------------------------------------------------------

  render() {
    const job = this.job;
    if (!job) return;
    const busy = job.status === "queued" || job.status === "running";
    $("analysis-btn").hidden = true;
    const bar = $("analysis-progress");
    bar.hidden = !busy;
    bar.max = Math.max(1, job.total || this.page.record.version);
    bar.value = job.done;
    $("analysis-state").textContent =
      job.status === "queued" ? t("analysis.queued")
      : job.status === "running" ? t("analysis.running", { done: job.done, total: job.total || this.page.record.version })
      : job.status === "failed" ? t("analysis.failed", { error: job.error || "" })
      : this.doneText(this.analysis?.depth || {});
    const a = this.analysis;
    $("analysis-body").hidden = !a;
    if (!a) return;
    this.renderChart(a);
    this.renderPlayers(a);
    this.renderDraws(a);
    this.renderTurning(a);
    this.markLog(a);
    this.moved();
  }

  renderChart(a) {
    const box = $("analysis-chart");
    const total = this.page.record.version;
    const seats = (this.page.record.players || []).map((p) => p.seat);
    const metric = this.metric;
    for (const b of document.querySelectorAll("[data-metric]")) b.setAttribute("aria-pressed", String(b.dataset.metric === metric));
    const W = 320, H = 140, L = 30, R = 6, T = 8, B = 18;
    const values = a.points.flatMap((p) => p[metric]);
    const top = metric === "win" ? 1 : Math.max(1, ...values) * 1.05;
    const x = (v) => L + ((W - L - R) * v) / Math.max(1, total);
    const y = (v) => T + (H - T - B) * (1 - v / top);
    // The chart is drawn anew at each render (every second while the analysis runs), but
    // its points, the cursor and the svg stay: a point pressed as a render lands is still
    // there at the release, and the click shows its move. A point's place depends only on
    // its version and the game's length, so only the points not drawn yet are added.
    let chart = this.chart;
    if (!chart || !box.contains(chart.svg)) {
      chart = this.chart = {
        svg: svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "analysis-svg", role: "img" }),
        cursor: svg("line", { x1: 0, x2: 0, y1: T, y2: H - B, class: "cursor", id: "analysis-cursor" }),
        drawing: svg("g"),
        hits: svg("g", { class: "hits" }),
        drawn: new Set(),
      };
      chart.svg.append(chart.drawing, chart.cursor, chart.hits);
      box.replaceChildren(chart.svg);
    }
    chart.svg.setAttribute("aria-label", this.chartSummary(a));
    const drawing = svg("g");
    for (const f of [0, 0.5, 1]) {
      drawing.append(svg("line", { x1: L, x2: W - R, y1: y(top * f), y2: y(top * f), class: "grid" }));
      const label = svg("text", { x: L - 4, y: y(top * f) + 3, class: "axis", "text-anchor": "end" });
      label.textContent = metric === "win" ? `${Math.round(f * 100)}` : pts(top * f);
      drawing.append(label);
    }
    for (const seat of seats) {
      const d = a.points.map((p, i) => `${i ? "L" : "M"}${x(p.version).toFixed(1)},${y(p[metric][seat]).toFixed(1)}`).join("");
      drawing.append(svg("path", { d, class: "series", stroke: this.colour(seat) }));
    }
    for (const tp of a.turning_points || []) {
      const p = a.points.find((q) => q.version === tp.move);
      if (!p) continue;
      drawing.append(svg("circle", { cx: x(tp.move), cy: y(p[metric][tp.seat]), r: 3.5, class: "turn", fill: this.colour(tp.seat) }));
    }
    chart.drawing.replaceWith(drawing);
    chart.drawing = drawing;
    // the points: a click (or Enter) shows that move
    for (const p of a.points) {
      if (chart.drawn.has(p.version)) continue;
      chart.drawn.add(p.version);
      const hit = svg("rect", {
        x: x(p.version) - (W - L - R) / Math.max(1, total) / 2,
        y: T,
        width: Math.max(2, (W - L - R) / Math.max(1, total)),
        height: H - T - B,
        class: "hit",
        "data-version": p.version,
      });
      hit.addEventListener("click", () => this.page.show(p.version));
      chart.hits.append(hit);
    }
    this.chartX = x;
    // the same as text, folded: every point
    const table = $("analysis-table");
    table.innerHTML = "";
    const head = el("tr");
    head.append(el("th", null), ...seats.map((s) => {
      const th = el("th");
      th.textContent = this.name(s);
      return th;
    }));
    table.append(head);
    for (const p of a.points) {
      const tr = el("tr");
      const th = el("th");
      th.textContent = p.version === 0 ? t("replay.setup") : String(p.version);
      tr.append(th, ...seats.map((s) => {
        const td = el("td");
        td.textContent = `${pct(p.win[s])} · ${pts(p.score[s])}`;
        return td;
      }));
      table.append(tr);
    }
  }

  chartSummary(a) {
    const last = a.points[a.points.length - 1];
    const first = a.points[0];
    const parts = (this.page.record.players || []).map((p) =>
      t("analysis.chart_seat", { name: this.name(p.seat), start: pct(first.win[p.seat]), end: pct(last.win[p.seat]) }),
    );
    return `${t("analysis.chart_label")} ${parts.join(" ")}`;
  }

  renderPlayers(a) {
    const table = $("analysis-players");
    table.innerHTML = "";
    const head = el("tr");
    for (const k of ["player", "avg_loss", "inaccuracy", "mistake", "blunder", "luck", "score", "adjusted"]) {
      const th = el("th");
      th.textContent = t(`analysis.col.${k}`);
      head.append(th);
    }
    table.append(head);
    for (const p of a.players) {
      const tr = el("tr");
      const cells = [
        this.name(p.seat),
        pts(p.average_loss),
        String(p.marks.inaccuracy),
        String(p.marks.mistake),
        String(p.marks.blunder),
        signed(p.luck),
        p.score === undefined ? "…" : pts(p.score),
        p.luck_adjusted === undefined ? "…" : pts(p.luck_adjusted),
      ];
      cells.forEach((text, i) => {
        const td = el(i ? "td" : "th");
        td.textContent = text;
        if (!i) td.style.setProperty("--pc", this.colour(p.seat));
        tr.append(td);
      });
      table.append(tr);
    }
  }

  moveLink(n, text) {
    const a = el("a", "analysis-move");
    a.href = `?move=${n}`;
    a.textContent = text;
    a.addEventListener("click", (ev) => {
      ev.preventDefault();
      this.page.show(n);
    });
    return a;
  }

  renderDraws(a) {
    // Drawn anew only where it changed (js/dom.js): a move's link pressed as a render
    // lands (every second while the analysis runs) keeps its click.
    const items = [];
    for (const d of a.draws?.by_seat || []) {
      const li = el("li");
      li.append(document.createTextNode(`${t("analysis.draws_seat", { name: this.name(d.seat) })} `));
      const best = d.luckiest[0], worst = d.unluckiest[0];
      if (!best && !worst) li.append(document.createTextNode(t("analysis.no_draws")));
      if (best) li.append(this.moveLink(best.move, t("analysis.luckiest", { move: best.move, luck: signed(best.luck) })));
      if (best && worst) li.append(document.createTextNode(" · "));
      if (worst) li.append(this.moveLink(worst.move, t("analysis.unluckiest", { move: worst.move, luck: signed(worst.luck) })));
      items.push(li);
    }
    redraw($("analysis-draws"), ...items);
  }

  renderTurning(a) {
    const items = [];
    const tps = a.turning_points || [];
    $("analysis-turning-none").hidden = tps.length > 0;
    for (const tp of tps) {
      const li = el("li");
      const key = tp.after > tp.before ? "analysis.turn_up" : "analysis.turn_down";
      const cause = tp.cause === "draw" ? t("analysis.cause_draw") : tp.mark ? t("analysis.cause_mark", { mark: t(`analysis.mark.${tp.mark}`), player: this.player(tp.mover) }) : t("analysis.cause_decision", { player: this.player(tp.mover) });
      li.append(this.moveLink(tp.move, t(key, { move: tp.move, player: this.player(tp.seat), before: pct(tp.before), after: pct(tp.after), cause })));
      items.push(li);
    }
    redraw($("analysis-turning"), ...items);
  }

  /** The marks on the move list: a symbol and its word for screen readers. */
  markLog(a) {
    for (const li of document.querySelectorAll("#log li[data-seq]")) {
      const n = Number(li.dataset.seq);
      const m = n > 0 ? a.moves[n - 1] : null;
      li.querySelector(".mark")?.remove();
      li.classList.remove("mark-inaccuracy", "mark-mistake", "mark-blunder");
      if (!m?.mark) continue;
      li.classList.add(`mark-${m.mark}`);
      const span = el("span", "mark");
      span.textContent = ` ${SYMBOL[m.mark]}`;
      span.title = t(`analysis.mark.${m.mark}`);
      const said = el("span", "visually-hidden");
      said.textContent = ` (${t(`analysis.mark.${m.mark}`)})`;
      span.append(said);
      li.append(span);
    }
  }

  /** The replay shows another move: the cursor on the chart, the move's verdict. */
  moved() {
    const a = this.analysis;
    if (!a) return;
    const cursor = $("analysis-cursor");
    if (cursor && this.chartX) {
      const cx = this.chartX(this.page.move);
      cursor.setAttribute("x1", cx);
      cursor.setAttribute("x2", cx);
    }
    const n = this.page.move;
    const m = this.entry(n);
    const box = $("analysis-now");
    const better = $("analysis-better-btn");
    better.hidden = true;
    if (!m) {
      box.textContent = n === 0 ? t("analysis.now_setup") : t("analysis.now_pending");
      return;
    }
    const parts = [];
    if (m.legal <= 1) parts.push(t("analysis.now_forced", { move: n }));
    else if (m.mark) {
      parts.push(t("analysis.now_marked", {
        move: n,
        player: this.player(m.seat),
        mark: t(`analysis.mark.${m.mark}`),
        loss: pts(m.loss),
        win: pct(Math.max(0, m.win_loss)),
        better: entryText({ message: m.better.message, text: "" }).replace(/[.\s]+$/, ""),
      }));
      better.hidden = !m.better.view;
    } else if (m.loss > 0 && m.better) {
      parts.push(t("analysis.now_close", { move: n, player: this.player(m.seat), loss: pts(m.loss) }));
    } else {
      parts.push(t("analysis.now_best", { move: n, name: this.name(m.seat) }));
    }
    if (m.luck) {
      const lucks = a.players.map((p) => `${this.name(p.seat)} ${signed(m.luck.score[p.seat])}`);
      parts.push(t("analysis.now_luck", { lucks: lucks.join(", ") }));
    }
    box.textContent = parts.join(" ");
  }
}
