/**
 * The language switch of every page's top bar: the choice is kept in the `lang` cookie (the
 * server renders the next pages in it, app/web/i18n.py) and the page reloads in it. A `lang`
 * in the address (a link shared in a language) gives way to the choice.
 */

const YEAR_S = 400 * 24 * 3600;
const select = document.getElementById("lang-switch");

if (select) {
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
