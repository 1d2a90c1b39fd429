/**
 * Whether a name is heard to start with a vowel: the catalogues' choice of a word before it
 * (French elides "de" before a vowel sound: "d’Ana", "d’Hugo", but "de Björn"). The code
 * only tells the sound; each language's catalogue says what it does with it
 * (`name.of` and `name.of_vowel`: `ofName`; docs/i18n.md).
 *
 * A vowel (accents aside) is a vowel sound; an "h" before a vowel is taken as mute, the
 * common case of given names (Hélène, Hugo, Henri); a "y" is a vowel before a consonant
 * (Yves, Yvonne) and a consonant before a vowel (Yannick, Yasmine).
 */

const VOWELS = new Set("aeiou");

function letters(name) {
  return String(name || "")
    .trim()
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/^[^\p{L}\p{N}]+/u, "");
}

function vowel(c) {
  return VOWELS.has(c) || c === "æ" || c === "œ";
}

/** Whether `name` starts with a vowel sound. */
export function vowelSound(name) {
  const s = letters(name);
  const [first, second] = [s[0], s[1]];
  if (!first) return false;
  if (vowel(first)) return true;
  if (first === "h") return Boolean(second) && (vowel(second) || second === "y");
  if (first === "y") return Boolean(second) && !vowel(second);
  return false;
}

/**
 * A name as the argument of a sentence that owns something by it (`{of_name}`: "Au tour
 * {of_name}", "{of_name}’s turn"): the message `name.of_vowel` or `name.of` by its first
 * sound, which French renders "d’Ana" or "de Björn", English and Dutch as the bare name.
 */
export function ofName(name) {
  return { key: vowelSound(name) ? "name.of_vowel" : "name.of", params: { name } };
}
