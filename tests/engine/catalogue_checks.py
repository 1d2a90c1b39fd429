"""Checks every game's catalogues pass (docs/i18n.md): the same keys and arguments in every
language, patterns that parse, French typography, and messages that render completely.

The engine's own test_messages.py runs them on its catalogues and on every message its
playouts and refusals produce (`scan`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from engine.messages import LANGUAGES, Catalogue, arguments, keys, render

Sent = tuple[str, dict[str, Any]]
"""Where a message came from (for the failure's text), and the message."""


def same_keys(catalogues: Mapping[str, Catalogue]) -> None:
    english = set(catalogues["en"])
    for lang in LANGUAGES:
        assert set(catalogues[lang]) == english, (
            f"{lang}: missing {sorted(english - set(catalogues[lang]))}, "
            f"extra {sorted(set(catalogues[lang]) - english)}"
        )


def same_arguments(catalogues: Mapping[str, Catalogue]) -> None:
    english = catalogues["en"]
    for lang in LANGUAGES:
        for key, pattern in catalogues[lang].items():
            assert arguments(pattern) == arguments(english[key]), (lang, key)


_STRAIGHT_APOSTROPHE = re.compile(r"[A-Za-zÀ-ÿ]'[A-Za-zÀ-ÿ]")
_BARE_PUNCTUATION = re.compile("[^\u00a0\u202f][:;!?]")


def french_typography(catalogue: Catalogue) -> None:
    """Typographic apostrophes, and a no-break space before : ; ! ? (never a plain one)."""
    for key, pattern in catalogue.items():
        assert not _STRAIGHT_APOSTROPHE.search(pattern), (key, pattern)
        assert not _BARE_PUNCTUATION.search(pattern), (key, pattern)


def scan(
    catalogues: Mapping[str, Catalogue], sent: Iterable[Sent], seat_names: list[str]
) -> int:
    """Render each message in every language: every key it names exists in each catalogue
    and nothing is left in braces. Returns how many messages were checked."""
    count = 0
    for where, message in sent:
        count += 1
        for lang in LANGUAGES:
            catalogue = catalogues[lang]
            for key in keys(message):
                assert key in catalogue, (lang, key, where)
            text = render(catalogue, message, lang, seat=seat_names.__getitem__)
            assert "{" not in text and "}" not in text, (lang, where, text)
    return count
