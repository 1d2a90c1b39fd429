/**
 * The page's language: its catalogue and the message formatter (docs/i18n.md).
 *
 * The server renders each page in one language (`<html lang>`) and names that language's
 * catalogue (`data-catalogue`: all the keys of the shell and of every game, merged, under a
 * content-hashed URL the browser keeps). This module fetches it before any module that
 * imports it runs (a top-level await), so `t()` is ready wherever it is called.
 *
 * Patterns are the ICU MessageFormat subset of docs/i18n.md: `{name}`, `{n, plural, =0 {…}
 * one {# …} other {# …}}`, `{x, select, a {…} other {…}}`. Plural categories come from
 * `Intl.PluralRules`, numbers from `Intl.NumberFormat`, lists from `Intl.ListFormat`. The
 * result is text: callers put it in `textContent`, never in `innerHTML`.
 */

const root = document.documentElement;

/** The page's language: "en", "fr" or "nl". */
export const lang = ["en", "fr", "nl"].includes(root.lang) ? root.lang : "en";

async function loadCatalogue() {
  const url = root.dataset.catalogue || `/i18n/${lang}.json`;
  try {
    const answer = await fetch(url, { credentials: "same-origin" });
    if (answer.ok) return await answer.json();
  } catch {
    // Offline or a page without a server (a test harness): keys show as themselves.
  }
  return {};
}

let catalogue = await loadCatalogue();

/** Replace the catalogue (the browser tests' harness pages, which have no server page). */
export function useCatalogue(keys) {
  catalogue = keys || {};
  parsed.clear();
}

const plurals = new Intl.PluralRules(lang);
const numbers = new Intl.NumberFormat(lang);
const lists = new Intl.ListFormat(lang, { style: "long", type: "conjunction" });

let seatName = (seat) => `${seat + 1}`;

/** How `{"seat": n}` params read: the shell sets it to the room's player names. */
export function setSeatNamer(fn) {
  seatName = fn;
}

/** Whether the catalogue has `key` (to prefer a message over an English fallback). */
export function has(key) {
  return Object.prototype.hasOwnProperty.call(catalogue, key);
}

/** The text of catalogue `key` with `params`. A missing key reads as the key itself. */
export function t(key, params = {}) {
  const pattern = has(key) ? catalogue[key] : key;
  return render(parse(pattern), params);
}

/**
 * The text of a message from the server: `{key, params}`, or a plain string (an older
 * server's or record's English text), or null with `fallback` (the English text sent next
 * to the message).
 */
export function tm(message, fallback = "") {
  if (message && typeof message === "object" && typeof message.key === "string") {
    if (!has(message.key) && fallback) return fallback;
    return t(message.key, message.params || {});
  }
  if (typeof message === "string") return message;
  return fallback;
}

/** A number in the page's language ("1 234" in French). */
export function number(n) {
  return numbers.format(n);
}

/** Items joined in the page's language ("a, b and c"; "a, b et c"; "a, b en c"). */
export function list(items) {
  return lists.format(items.map(String));
}

// ---- the formatter ------------------------------------------------------------------

const PARSED_LIMIT = 4000; // patterns are short; the catalogue has some hundreds
const parsed = new Map();

/** A pattern as nodes: strings, {arg}, {arg, kind, branches}, and "#" (the plural's number). */
function parse(pattern) {
  let nodes = parsed.get(pattern);
  if (nodes === undefined) {
    try {
      nodes = new Parser(String(pattern)).nodes(false);
    } catch {
      nodes = [String(pattern)]; // a broken pattern shows as written (tests keep them whole)
    }
    if (parsed.size >= PARSED_LIMIT) parsed.clear();
    parsed.set(pattern, nodes);
  }
  return nodes;
}

class Parser {
  constructor(text) {
    this.text = text;
    this.at = 0;
  }

  /** Nodes up to the end, or up to the `}` that closes a branch (`inBranch`). */
  nodes(inBranch) {
    const out = [];
    let buf = "";
    while (this.at < this.text.length) {
      const c = this.text[this.at];
      if (c === "{") {
        if (buf) out.push(buf);
        buf = "";
        this.at += 1;
        out.push(this.argument());
      } else if (c === "}") {
        if (!inBranch) throw new Error(`unmatched } at ${this.at}`);
        break;
      } else if (c === "#" && inBranch) {
        if (buf) out.push(buf);
        buf = "";
        out.push({ hash: true });
        this.at += 1;
      } else {
        buf += c;
        this.at += 1;
      }
    }
    if (inBranch && this.at >= this.text.length) throw new Error("unclosed branch");
    if (buf) out.push(buf);
    return out;
  }

  /** After a `{`: `name}` or `name, plural|select, branches}`. */
  argument() {
    const end = this.text.slice(this.at).search(/[,}]/);
    if (end < 0) throw new Error("unclosed argument");
    const name = this.text.slice(this.at, this.at + end).trim();
    this.at += end;
    if (this.text[this.at] === "}") {
      this.at += 1;
      return { arg: name };
    }
    this.at += 1; // the comma
    const kindEnd = this.text.indexOf(",", this.at);
    if (kindEnd < 0) throw new Error("argument without branches");
    const kind = this.text.slice(this.at, kindEnd).trim();
    if (kind !== "plural" && kind !== "select") throw new Error(`unknown kind ${kind}`);
    this.at = kindEnd + 1;
    const branches = {};
    for (;;) {
      while (/\s/.test(this.text[this.at] || "")) this.at += 1;
      if (this.text[this.at] === "}") {
        this.at += 1;
        break;
      }
      const open = this.text.indexOf("{", this.at);
      if (open < 0) throw new Error("branch without text");
      const label = this.text.slice(this.at, open).trim();
      this.at = open + 1;
      branches[label] = this.nodes(true);
      this.at += 1; // the branch's }
    }
    if (!("other" in branches)) throw new Error(`${name}: no 'other' branch`);
    return { arg: name, kind, branches };
  }
}

function render(nodes, params, hash = null) {
  let out = "";
  for (const node of nodes) {
    if (typeof node === "string") out += node;
    else if (node.hash) out += hash === null ? "#" : numbers.format(hash);
    else if (!node.kind) {
      out += Object.prototype.hasOwnProperty.call(params, node.arg)
        ? value(params[node.arg])
        : `{${node.arg}}`;
    } else {
      const given = params[node.arg];
      if (node.kind === "plural") {
        const n = Number(given);
        const exact = node.branches[`=${n}`];
        const branch = exact || node.branches[plurals.select(n)] || node.branches.other;
        out += render(branch, params, n);
      } else {
        const branch = node.branches[String(given)] || node.branches.other;
        out += render(branch, params, hash);
      }
    }
  }
  return out;
}

/** A param's text: a number, a string, a message, a seat or a list. */
function value(v) {
  if (typeof v === "number") return numbers.format(v);
  if (typeof v === "string") return v;
  if (v && typeof v === "object") {
    if (typeof v.key === "string") return t(v.key, v.params || {});
    if (typeof v.seat === "number") return seatName(v.seat);
    if (Array.isArray(v.list)) return lists.format(v.list.map(value));
  }
  return String(v);
}
