/**
 * The keyboard on Ishtar's game screen (game.js): the zoom, the numbered choices of each step,
 * R/N/D/U/A/P/E, Enter and Escape, and the arrow keys moving a cursor over the board.
 */



/** Methods of GameScreen (game.js), mixed into its prototype. */
export const keys = {
  onKey(ev) {
    if (!this.view || ev.ctrlKey || ev.metaKey) return;
    const target = ev.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT" || target.isContentEditable)) return;
    if (target && target.tagName === "BUTTON" && (ev.key === "Enter" || ev.key === " ")) return; // the button acts
    const k = ev.key;
    if (k === "+" || k === "=") return this.zoom(1.25);
    if (k === "-" || k === "_") return this.zoom(0.8);
    if (k === "0") return this.renderer.fit();
    if (!this.mine()) return;
    const phase = this.view.phase;
    const consume = () => ev.preventDefault();
    if ((k === "u" || k === "U") && this.ix.undo) { consume(); return this.send(this.ix.undo); }
    if (phase === "choose") {
      if (/^[1-6]$/.test(k)) { consume(); return this.pickPile(Number(k) - 1); }
      if (k === "Enter" && this.ui.pile !== null) { consume(); return this.send(this.ix.choose.get(this.ui.pile)[this.ui.pay]); }
      if (k === "Escape") { this.ui.pile = null; return this.renderAll(); }
    }
    // the numbered choices of a step: a blooming token, a tree card to reserve or to plant
    const numbered = phase === "bloom" && !this.ui.token ? [...this.ix.bloom.keys()]
      : phase === "reserve" ? [...this.ix.reserve.keys()]
        : phase === "plant" && this.ui.card === null ? [...this.ix.plant.keys()] : [];
    if (/^[1-9]$/.test(k) && numbered[Number(k) - 1] !== undefined) {
      consume();
      const pick = numbered[Number(k) - 1];
      if (phase === "bloom") return this.pickToken(pick);
      if (phase === "reserve") return this.send(this.ix.reserve.get(pick));
      return this.pickCard(pick);
    }
    if (phase === "place") {
      if ((k === "d" || k === "D") && this.ix.discard) { consume(); return this.send(this.ix.discard); }
      if (k === "r" || k === "R") { consume(); return this.rotate(ev.shiftKey ? -1 : 1); }
      if (k === "n" || k === "N") { consume(); return this.nextPlacement(); }
      if (this.moveCursor(k)) { consume(); this.ui.hover = null; return this.renderOverlay(); }
      if (k === "Enter" && (this.ui.pending || this.ui.cursor || this.ui.hover)) {
        consume();
        const g = this.ghostAt(this.ui.pending || this.ui.cursor || this.ui.hover);
        if (g.legal) return this.send(g.entry);
      }
    }
    if (phase === "special") {
      if (k === "a" || k === "A") return this.send(this.ix.assistant);
      if (k === "p" || k === "P") return this.send(this.ix.pass);
      if (this.ui.skill && k === "Enter") { consume(); return this.send(this.ix.skills.get(this.ui.skill)[this.ui.skillPay]); }
      if (k === "Escape") { this.ui.skill = null; return this.renderAll(); }
      const letter = k.toUpperCase();
      if (/^[B-J]$/.test(letter) && this.ix.skills.has(letter)) return this.pickSkill(letter);
    }
    if (phase === "plant" && (k === "e" || k === "E")) return this.send(this.ix.end);
    if (phase === "bloom" || phase === "plant") {
      const cands = this.candidates();
      if ((k === "n" || k === "N") && cands.length) {
        consume();
        const i = this.ui.cursor ? cands.findIndex((c) => c[0] === this.ui.cursor[0] && c[1] === this.ui.cursor[1]) : -1;
        this.ui.cursor = cands[(i + 1) % cands.length];
        return this.renderOverlay();
      }
      if (this.moveCursor(k)) { consume(); return this.renderOverlay(); }
      if (k === "Enter" && (this.ui.pending || this.ui.cursor)) {
        consume();
        if (this.ui.pending) return this.confirmPending();
        return phase === "bloom" ? this.pickBloomCell(this.ui.cursor) : this.plantAt(this.ui.cursor);
      }
      if (k === "Escape") { this.ui.token = null; this.ui.card = null; this.ui.bloomPicked = []; this.ui.pending = null; return this.renderAll(); }
    }
  },

  moveCursor(k) {
    const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0] }[k];
    let d = step;
    const cur = this.ui.cursor || this.ui.hover || this.defaultCursor();
    if (!cur) return false;
    if (k === "ArrowUp") d = cur[1] % 2 === 0 ? [0, -1] : [1, -1];
    if (k === "ArrowDown") d = cur[1] % 2 === 0 ? [-1, 1] : [0, 1];
    if (!d) return false;
    const next = [cur[0] + d[0], cur[1] + d[1]];
    this.ui.cursor = this.renderer.isOnBoard(next) ? next : cur;
    return true;
  },

  defaultCursor() {
    const fountain = this.view.cells.find((c) => c.terrain === "fountain");
    return fountain ? [fountain.q, fountain.r] : null;
  },
};
