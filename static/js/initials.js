/**
 * Whether a name is heard to start with a vowel: the catalogues' choice of a word before it
 * (French elides "de" before a vowel sound: "d’Ana", "d’Hugo", but "de Björn"). The code
 * only tells the sound; each language's catalogue says what it does with it
 * (`analysis.of_player` and `analysis.of_player_vowel`; docs/analysis.md).
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
