"""The languages of the site: which one a request reads, and each one's catalogue.

A page is rendered in one language (docs/i18n.md), chosen in this order:

1. ``?lang=fr`` in the address (a link shared in a language);
2. the ``lang`` cookie, which the page's language switch sets;
3. the browser's ``Accept-Language`` (``fr-BE,fr;q=0.9,en;q=0.8`` reads French);
4. English.

A language's catalogue is every key of the shell (``static/i18n/<lang>.json``), of each
game's engine (its rules' ``messages(lang)``) and of each game's screen
(``static/games/<game>/i18n/<lang>.json``), merged once at start and served as one JSON
document under a content-hashed URL (`Catalogues.url`), which browsers keep for good.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

import jinja2
from starlette.requests import HTTPConnection

from app.games import AnyGame
from app.web.documents import Document

LANGUAGES: dict[str, str] = {"en": "English", "fr": "Français", "nl": "Nederlands"}
"""The languages of the site, each with its name in itself (for the switch)."""
DEFAULT = "en"
COOKIE = "lang"
COOKIE_MAX_AGE_S = 400 * 24 * 3600  # browsers cap cookies at 400 days
# An Accept-Language longer than this is read up to here: a header is not a workload.
HEADER_LIMIT = 512
_RANGE = re.compile(
    r"^\s*([A-Za-z]{1,8})(?:-[A-Za-z0-9]{1,8})*\s*(?:;\s*q=([0-9.]{1,5}))?\s*$"
)


def from_accept_language(header: str | None) -> str | None:
    """The first language of the site that `header` accepts, by quality, else None.

    >>> from_accept_language("de-DE,fr-BE;q=0.9,en;q=0.8")
    'fr'
    >>> from_accept_language("nl;q=0.2, en;q=0.5")
    'en'
    >>> from_accept_language("*;q=0.5") is None
    True
    """
    if not header:
        return None
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate(header[:HEADER_LIMIT].split(",")):
        found = _RANGE.match(part)
        if found is None:
            continue
        tag = found.group(1).lower()
        try:
            quality = float(found.group(2)) if found.group(2) else 1.0
        except ValueError:
            continue
        if tag in LANGUAGES and quality > 0:
            ranked.append((-quality, index, tag))
    return min(ranked)[2] if ranked else None


def choose(connection: HTTPConnection) -> str:
    """The language of a request (the order of this module's docstring)."""
    asked = connection.query_params.get("lang")
    if asked in LANGUAGES:
        return asked
    saved = connection.cookies.get(COOKIE)
    if saved in LANGUAGES:
        return saved
    return from_accept_language(connection.headers.get("accept-language")) or DEFAULT


def _read_json(path: Path) -> dict[str, str]:
    if not path.is_file():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in data.items()
    ):
        raise ValueError(f"{path}: a catalogue maps keys to patterns (strings)")
    return data


def game_keys(game: AnyGame, lang: str, static_dir: Path) -> dict[str, str]:
    """A game's keys in `lang`: its engine's messages, then its screen's labels."""
    keys: dict[str, str] = {}
    keys.update(game.rules.messages(lang))
    if game.client:
        folder = PurePosixPath(game.client).parent
        keys.update(_read_json(static_dir / folder / "i18n" / f"{lang}.json"))
    return keys


@dataclass(frozen=True)
class Catalogue:
    """One language's keys, and the document `GET /i18n/<lang>.json` serves of them."""

    lang: str
    keys: Mapping[str, str]
    document: Document

    @property
    def body(self) -> bytes:
        return self.document.body

    @property
    def version(self) -> str:
        return self.document.version


@dataclass(frozen=True)
class Catalogues:
    """Every language's catalogue, built once at start (a few hundred keys each)."""

    by_lang: Mapping[str, Catalogue]

    @classmethod
    def build(cls, static_dir: Path, games: Iterable[AnyGame]) -> Catalogues:
        listed = list(games)
        built: dict[str, Catalogue] = {}
        for lang in LANGUAGES:
            keys = _read_json(static_dir / "i18n" / f"{lang}.json")
            for game in listed:
                keys.update(game_keys(game, lang, static_dir))
            document = Document.of_json(keys, ensure_ascii=False, sort_keys=True)
            built[lang] = Catalogue(lang, keys, document)
        return cls(built)

    def get(self, lang: str) -> Catalogue:
        return self.by_lang[lang if lang in self.by_lang else DEFAULT]

    def url(self, lang: str) -> str:
        catalogue = self.get(lang)
        return f"/i18n/{catalogue.lang}.json?v={catalogue.version}"

    def text(self, lang: str, key: str, params: Mapping[str, Any] | None = None) -> str:
        """A key's text in `lang` (English, then the key itself, when it is missing)."""
        pattern = self.get(lang).keys.get(key)
        if pattern is None:
            pattern = self.get(DEFAULT).keys.get(key, key)
        for name, value in (params or {}).items():
            pattern = pattern.replace("{" + name + "}", str(value))
        return pattern


def _catalogues(context: jinja2.runtime.Context) -> Catalogues:
    found: Catalogues = context["request"].app.state.catalogues
    return found


@jinja2.pass_context
def page_lang(context: jinja2.runtime.Context) -> str:
    """Jinja global ``lang()``: the language of the page's request."""
    return choose(context["request"])


@jinja2.pass_context
def translate(context: jinja2.runtime.Context, key: str, **params: Any) -> str:
    """Jinja global ``t('home.create')``: a key's text in the page's language (Jinja
    escapes it like any other value)."""
    return _catalogues(context).text(choose(context["request"]), key, params)


@jinja2.pass_context
def catalogue_url(context: jinja2.runtime.Context) -> str:
    """Jinja global ``catalogue_url()``: where the page's scripts fetch its catalogue."""
    return _catalogues(context).url(choose(context["request"]))


def install_template_globals(environment: jinja2.Environment) -> None:
    """Make ``lang()``, ``t()``, ``catalogue_url()`` and ``languages`` available."""
    environment.globals["lang"] = page_lang
    environment.globals["t"] = translate
    environment.globals["catalogue_url"] = catalogue_url
    environment.globals["languages"] = LANGUAGES
