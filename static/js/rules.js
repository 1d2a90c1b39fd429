/**
 * A game's rules page (`/rules/<game>`): how to play, in the page's language. The game's
 * screen module gives the page's sections (`rules()`: a promise of `{ sections }`, each
 * `{ id, picture? }`); the words are the game's catalogue's (`<words>.ui.rules.<id>.title` and
 * `.text`, paragraphs separated by a blank line, lines starting "- " made a list) and each
 * picture is drawn by the game's own painting code on a canvas (`picture(canvas)`, which may
 * instead resolve to an element of its own, an SVG), never an image copied from the rulebook. A section's anchor is its id (`#option-edition`).
 */

import { el, esc } from "./dom.js";
import { gameInfo, loadScreen, wordsOf } from "./games.js";
import { has, t } from "./i18n.js";

const box = document.getElementById("rules");
const game = box.dataset.game;
const words = wordsOf(game); // the game's catalogue keys start so ("babylon" for babylon-gardens)

/** A section's text as paragraphs and lists. */
function prose(text) {
  const out = [];
  for (const block of text.split(/\n\s*\n/)) {
    const lines = block.split("\n").map((l) => l.trim()).filter(Boolean);
    if (lines.length && lines.every((l) => l.startsWith("- "))) {
      const ul = el("ul");
      for (const l of lines) ul.append(el("li", "", esc(l.slice(2))));
      out.push(ul);
    } else if (lines.length) {
      out.push(el("p", "", esc(lines.join(" "))));
    }
  }
  return out;
}

async function draw() {
  const info = gameInfo(game);
  const module = await loadScreen(game);
  const page = module.rules ? await module.rules() : { sections: [] };
  const title = has(`${words}.ui.title`) ? t(`${words}.ui.title`) : info?.title || game;
  document.title = t("rules.page_title_game", { game: title });
  const head = el("header", "rules-head");
  head.append(el("h1", "", esc(t("rules.heading", { game: title }))));
  if (has(`${words}.ui.rules.intro`)) head.append(...prose(t(`${words}.ui.rules.intro`)));
  const nav = el("nav", "rules-toc");
  nav.setAttribute("aria-label", t("rules.contents"));
  const parts = [];
  for (const s of page.sections) {
    const key = `${words}.ui.rules.${s.id}`;
    if (!has(`${key}.title`)) continue;
    const link = el("a", "", esc(t(`${key}.title`)));
    link.href = `#${s.id}`;
    nav.append(link);
    const part = el("section", "rules-part");
    part.id = s.id;
    part.append(el("h2", "", esc(t(`${key}.title`))));
    const body = el("div", "rules-body");
    body.append(...prose(t(`${key}.text`)));
    part.append(body);
    if (s.picture) {
      const fig = el("figure", "rules-figure");
      const canvas = el("canvas");
      canvas.setAttribute("role", "img");
      if (has(`${key}.picture`)) canvas.setAttribute("aria-label", t(`${key}.picture`));
      fig.append(canvas);
      if (has(`${key}.picture`)) fig.append(el("figcaption", "muted small", esc(t(`${key}.picture`))));
      part.append(fig);
      // a picture draws on the canvas, or gives an element of its own (an SVG) to show instead
      Promise.resolve(s.picture(canvas)).then(
        (made) => { if (made instanceof Node) canvas.replaceWith(made); },
        () => { fig.hidden = true; },
      );
    }
    parts.push(part);
  }
  const back = el("p", "small rules-back");
  const home = el("a", "", esc(t("rules.back")));
  home.href = "/";
  back.append(home);
  box.replaceChildren(head, nav, ...parts, back);
  box.dataset.ready = "1";
  if (location.hash) document.getElementById(location.hash.slice(1))?.scrollIntoView();
}

draw().catch((err) => {
  box.replaceChildren(el("p", "form-error", esc(err.message || String(err))));
});
