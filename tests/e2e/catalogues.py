"""The languages' catalogues for the browser tests' harness pages, which have no server page.

`static/js/i18n.js` reads the page's language from `<html lang>` and fetches
`/i18n/<lang>.json` before any module that imports it runs. The harness servers of the
render tests answer that address with exactly what the app serves there: every key of the
shell, of each bundled game's engine and of its screen, merged by `app.web.i18n.Catalogues`
(built once per test session, a few hundred keys per language).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from app.games import bundled
from app.web.i18n import LANGUAGES, Catalogues

ROOT = Path(__file__).resolve().parents[2]
PATH = re.compile(r"^/i18n/([a-z]{2})\.json$")

# Set before any module runs (a module script waits for the classic ones before it): the
# page's language from `?lang=` in its address, English without one.
LANG_SCRIPT = (
    "<script>document.documentElement.lang = "
    'new URLSearchParams(location.search).get("lang") || "en";</script>'
)


@cache
def catalogues() -> Catalogues:
    return Catalogues.build(ROOT / "static", bundled())


def catalogue_body(path: str) -> bytes | None:
    """The body for a request path `/i18n/<lang>.json`, or None for any other path."""
    found = PATH.match(path)
    if found is None or found.group(1) not in LANGUAGES:
        return None
    return catalogues().get(found.group(1)).body


def keys(lang: str) -> dict[str, str]:
    """One language's merged keys (to compare a page's texts with the catalogue's)."""
    return dict(catalogues().get(lang).keys)
