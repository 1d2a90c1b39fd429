/**
 * The options of a new room, as a form drawn from the game's options schema (the JSON Schema
 * `GET /api/games` publishes, docs/protocol.md "Games"). Each property becomes one field:
 *
 * - a choice among few values (an `enum`, `oneOf`/`anyOf` of `const`s with their `title`s, an
 *   integer with a `minimum` and a `maximum` at most 12 apart): buttons of a segmented
 *   control up to 4 values, else a select;
 * - a boolean: a checkbox; another integer or number: a number input within its bounds; a
 *   string: a text input;
 * - a nullable property (`anyOf [..., {"type": "null"}]`) gets a first choice "Random": null
 *   lets the game decide.
 *
 * Words come from the page's catalogue when the game's screen has them: the field's title
 * from `<game>.ui.option.<field>`, a value's from `<game>.ui.option.<field>.<value>`, the
 * hint from `<game>.ui.option.<field>.description`; else from the schema (`title`,
 * `description`).
 *
 * The field starts on the schema's `default`. The server checks what is sent
 * (`400 bad_options` with a reason), so the form only helps: it decides nothing.
 *
 * Two schema annotations fit the fields to the player count chosen (`fit(players)`): a
 * seat number (`"x-seat": true`) is shown counted from 1 ("Seat 1") and offers only the
 * seats of that count; an option with `"x-players": [4]` is offered for those counts only
 * (disabled, with a note, for the others, and read as its default). A catalogue key
 * `<game>.ui.option.<field>.more` adds a link to the game's rules page at
 * `#option-<field>` ("What differs?").
 */

import { el, esc } from "./dom.js";
import { wordsOf } from "./games.js";
import { has, number, t } from "./i18n.js";

const SEGMENTED_MAX = 4;
const CHOICES_MAX = 12;
const NULL_LABEL = t("options.random");

/** A catalogue key's text when the catalogue has it, else `fallback`. */
const worded = (key, fallback) => (has(key) ? t(key) : fallback);

function humanise(value) {
  const s = String(value).replace(/[_-]+/g, " ");
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** A property with its `$ref` resolved and its nullability taken out. */
function normalise(prop, defs) {
  let p = prop;
  if (p.$ref) p = { ...(defs?.[p.$ref.split("/").pop()] || {}), ...p };
  let nullable = false;
  const alts = p.anyOf || (p.oneOf && !p.oneOf.every((a) => "const" in a) ? p.oneOf : null);
  if (alts) {
    const others = alts.filter((a) => a.type !== "null");
    nullable = others.length < alts.length;
    if (others.length === 1) p = { ...normalise(others[0], defs).base, ...withoutAlts(p) };
    else if (others.every((a) => "const" in a)) p = { ...withoutAlts(p), oneOf: others };
  }
  return { base: p, nullable };
}

function withoutAlts(p) {
  const { anyOf, oneOf, $ref, ...rest } = p;
  return rest;
}

/** [{value, label}] when the property is a choice among few values, else null; `prefix`
 * is the option's catalogue key (its values' keys follow it); a seat number is worded for
 * people, counted from 1. */
function choicesOf(p, prefix, seat = false) {
  const label = (v, fallback) => worded(`${prefix}.${v}`, fallback);
  if (Array.isArray(p.enum)) return p.enum.map((v) => ({ value: v, label: label(v, humanise(v)) }));
  const labelled = p.oneOf || p.anyOf;
  if (Array.isArray(labelled) && labelled.every((a) => "const" in a)) {
    return labelled.map((a) => ({ value: a.const, label: label(a.const, a.title || humanise(a.const)) }));
  }
  if (p.type === "integer" && Number.isInteger(p.minimum) && Number.isInteger(p.maximum) && p.maximum - p.minimum < CHOICES_MAX) {
    const out = [];
    for (let v = p.minimum; v <= p.maximum; v += 1) out.push({ value: v, label: seat ? t("options.seat", { n: v + 1 }) : number(v) });
    return out;
  }
  return null;
}

/** The encoded value of a choice in the form's inputs ("" is null). */
const encode = (v) => (v === null ? "" : String(v));

/** A field for one property; `read()` gives its value back as the schema's type. */
function field(key, prop, defs, game) {
  const { base, nullable } = normalise(prop, defs);
  const prefix = `${wordsOf(game)}.ui.option.${key}`;
  const title = worded(prefix, prop.title || base.title || humanise(key));
  const fallback = "default" in prop ? prop.default : base.default;
  const seat = prop["x-seat"] === true;
  let choices = choicesOf(base, prefix, seat);
  if (choices && nullable) choices = [{ value: null, label: NULL_LABEL }, ...choices];
  const hint = worded(`${prefix}.description`, prop.description || base.description);
  const withHint = (node) => {
    node.dataset.option = key;
    if (hint) node.append(el("span", "muted small hint", esc(hint)));
    if (has(`${prefix}.more`)) {
      const more = el("a", "small more", esc(t(`${prefix}.more`)));
      more.href = `/rules/${encodeURIComponent(game)}#option-${key}`;
      more.target = "_blank";
      node.append(more);
    }
    return node;
  };
  if (choices) {
    const start = choices.find((c) => c.value === (fallback === undefined ? choices[0].value : fallback)) || choices[0];
    const find = (raw) => choices.find((c) => encode(c.value) === raw)?.value ?? start.value;
    if (choices.length <= SEGMENTED_MAX) {
      const box = el("fieldset", "field");
      box.append(el("legend", "", esc(title)));
      const group = el("div", "segmented");
      group.setAttribute("role", "radiogroup");
      for (const c of choices) {
        const label = el("label");
        const input = el("input");
        input.type = "radio";
        input.name = key;
        input.value = encode(c.value);
        input.checked = c === start;
        label.append(input, el("span", "", esc(c.label)));
        group.append(label);
      }
      box.append(group);
      const fit = (players) => {
        for (const input of group.querySelectorAll("input")) {
          const off = seat && input.value !== "" && Number(input.value) >= players;
          input.disabled = off;
          input.closest("label").hidden = off;
          if (off && input.checked) group.querySelector("input").checked = true;
        }
      };
      return { node: withHint(box), read: (form) => find(String(new FormData(form).get(key) ?? "")), fit };
    }
    const box = el("label", "field");
    box.append(el("span", "", esc(title)));
    const select = el("select");
    select.name = key;
    for (const c of choices) {
      const o = el("option", "", esc(c.label));
      o.value = encode(c.value);
      o.selected = c === start;
      select.append(o);
    }
    box.append(select);
    const fit = (players) => {
      for (const o of select.options) {
        o.disabled = o.hidden = seat && o.value !== "" && Number(o.value) >= players;
        if (o.disabled && o.selected) select.value = encode(start.value);
      }
    };
    return { node: withHint(box), read: () => find(select.value), fit };
  }
  if (base.type === "boolean") {
    const box = el("label", "field check");
    const input = el("input");
    input.type = "checkbox";
    input.name = key;
    input.checked = fallback === true;
    box.append(input, el("span", "", esc(title)));
    return { node: withHint(box), read: () => input.checked && !input.disabled };
  }
  const box = el("label", "field");
  box.append(el("span", "", esc(title)));
  const input = el("input");
  input.name = key;
  if (base.type === "integer" || base.type === "number") {
    input.type = "number";
    if (base.minimum !== undefined) input.min = String(base.minimum);
    if (base.maximum !== undefined) input.max = String(base.maximum);
    input.step = base.type === "integer" ? "1" : "any";
    if (nullable) input.placeholder = NULL_LABEL;
  } else if (base.maxLength) {
    input.maxLength = base.maxLength;
  }
  if (fallback !== undefined && fallback !== null) input.value = String(fallback);
  box.append(input);
  const read = () => {
    const raw = input.value.trim();
    if (raw === "") return nullable ? null : fallback;
    return base.type === "integer" || base.type === "number" ? Number(raw) : raw;
  };
  return { node: withHint(box), read };
}

/** Draw the fields of `schema` (of game `game`) into `box`; the answer reads the options
 * back from `form`. */
export function drawOptions(box, schema, game = "") {
  const fields = Object.entries(schema?.properties || {}).map(([key, prop]) => [key, field(key, prop, schema.$defs, game), prop]);
  box.replaceChildren(...fields.map(([, f]) => f.node));
  const read = (form) => Object.fromEntries(fields.map(([key, f]) => [key, f.read(form)]));
  /** Fit the fields to `players` (the annotations above). */
  read.fit = (players) => {
    for (const [key, f, prop] of fields) {
      f.fit?.(players);
      const counts = prop["x-players"];
      if (!Array.isArray(counts)) continue;
      const off = !counts.includes(players);
      f.node.classList.toggle("off", off);
      for (const input of f.node.querySelectorAll("input, select")) input.disabled = off;
      let note = f.node.querySelector(".players-note");
      if (off && !note) {
        note = el("span", "muted small players-note");
        f.node.append(note);
      }
      if (note) {
        note.hidden = !off;
        note.textContent = off ? t("options.players_only", { counts: counts.map((n) => number(n)).join(", "), n: counts.length === 1 ? counts[0] : 0 }) : "";
      }
      if (off) f.node.querySelectorAll("input[type=checkbox]").forEach((i) => { i.checked = false; });
      else f.node.dataset.option = key;
    }
  };
  return read;
}
