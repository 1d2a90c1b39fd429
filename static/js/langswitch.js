/**
 * The language switch of every page's top bar: the choice is kept in the `lang` cookie (the
 * server renders the next pages in it, app/web/i18n.py) and the page reloads in it. A `lang`
 * in the address (a link shared in a language) gives way to the choice.
 *
 * On a narrow phone the options read as their codes ("FR"), each with its name as a
 * tooltip: the names would take the room the turn banner needs ("À vous de jouer").
 */

const YEAR_S = 400 * 24 * 3600;
const select = document.getElementById("lang-switch");

const NARROW = "(max-width: 520px)";

/** Each option's text: its language's name in itself, or its code on a narrow screen. */
function label(narrow) {
  for (const option of select.options) {
    if (!option.dataset.name) option.dataset.name = option.textContent;
    option.textContent = narrow ? option.value.toUpperCase() : option.dataset.name;
    option.title = option.dataset.name;
  }
}

if (select) {
  const narrow = window.matchMedia?.(NARROW);
  if (narrow) {
    label(narrow.matches);
    narrow.addEventListener?.("change", (ev) => label(ev.matches));
  }
  select.addEventListener("change", () => {
    const chosen = select.value;
    document.cookie = `lang=${encodeURIComponent(chosen)}; path=/; max-age=${YEAR_S}; SameSite=Lax`;
    const url = new URL(location.href);
    url.searchParams.delete("lang");
    // The same address with only a fragment would not reload: reload it then.
    if (url.href === location.href) location.reload();
    else location.replace(url.href);
  });
}
