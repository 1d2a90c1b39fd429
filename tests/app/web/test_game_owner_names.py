"""The game screens' sentences that name a player as an owner (static/games/<game>/i18n):
French elides "de" before a name heard to start with a vowel ("Tableau de score d’Ana",
"de Björn"), as the shell's do (tests/app/web/test_analysis_words.py).

The screens pass such a name as `{of_name}`, the message `ofName` of static/js/initials.js
makes (`name.of_vowel` or `name.of`, in the shell's catalogue: the browser's merges both);
tests/e2e/test_analysis.py checks `ofName`'s choice in Chromium."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from engine.messages import render

ROOT = Path(__file__).resolve().parents[3]
GAMES = tuple(sorted(p.name for p in (ROOT / "static/games").iterdir() if p.is_dir()))
"""Every game's screen folder (static/games/<game>/), whose keys start with its name."""


def merged(lang: str) -> dict[str, str]:
    """The shell's keys and the games' screens', as `GET /i18n/{lang}.json` merges them."""
    keys = json.loads((ROOT / "static/i18n" / f"{lang}.json").read_text("utf-8"))
    for game in GAMES:
        path = ROOT / "static/games" / game / "i18n" / f"{lang}.json"
        keys |= json.loads(path.read_text("utf-8"))
    return keys


CATALOGUES = {lang: merged(lang) for lang in ("en", "fr", "nl")}


def of_name(name: str, vowel: bool) -> dict[str, Any]:
    """What `ofName(name)` gives, its choice of sound told."""
    return {"key": "name.of_vowel" if vowel else "name.of", "params": {"name": name}}


OWNING: dict[str, tuple[dict[str, Any], str, str]] = {
    "babylon.ui.board.label": (
        {"side": "A", "winks": 3, "points": 7},
        "Tableau de score d’Ana, face A",
        "Tableau de score de Björn, face A",
    ),
    "babylon.ui.end.near": (
        {"mine": "no", "n": 22, "slots": 25},
        "Le tableau de score d’Ana a 22 jetons sur 25",
        "Le tableau de score de Björn a 22 jetons sur 25",
    ),
}


def said(lang: str, key: str, name: str, vowel: bool) -> str:
    params = {**OWNING[key][0], "of_name": of_name(name, vowel)}
    return render(CATALOGUES[lang], {"key": key, "params": params}, lang)


@pytest.mark.parametrize("key", sorted(OWNING))
def test_french_elides_de_before_a_vowel(key: str) -> None:
    _, vowel, consonant = OWNING[key]
    assert said("fr", key, "Ana", vowel=True).startswith(vowel)
    assert said("fr", key, "Björn", vowel=False).startswith(consonant)
    assert "d’Hugo" in said("fr", key, "Hugo", vowel=True)


@pytest.mark.parametrize("lang", ["en", "nl"])
@pytest.mark.parametrize("key", sorted(OWNING))
def test_other_languages_read_the_bare_name(lang: str, key: str) -> None:
    for vowel in (True, False):
        text = said(lang, key, "Ana", vowel)
        assert "Ana" in text and "d’" not in text and "{" not in text, text


def test_english_and_dutch_read_as_before() -> None:
    assert said("en", "babylon.ui.board.label", "Ana", True) == (
        "Ana's scoreboard, side A: 3 winks, 7 points"
    )
    assert said("nl", "babylon.ui.end.near", "Björn", False).startswith(
        "Het scorebord van Björn heeft 22 van de 25 fiches:"
    )


def test_your_own_scoreboard_names_nobody() -> None:
    params = {**OWNING["babylon.ui.end.near"][0], "mine": "yes"}
    text = render(
        CATALOGUES["fr"], {"key": "babylon.ui.end.near", "params": params}, "fr"
    )
    assert text.startswith("Votre tableau de score a 22 jetons sur 25"), text


@pytest.mark.parametrize("game", GAMES)
def test_no_french_sentence_of_a_game_puts_de_before_a_name_itself(game: str) -> None:
    """A name after "de" or "que" is always `{of_name}`, never `{name}` itself."""
    path = ROOT / "static/games" / game / "i18n" / "fr.json"
    wrong = [
        key
        for key, pattern in json.loads(path.read_text("utf-8")).items()
        if re.search(r"(?:\bde|que)\s+\{(?:name|names|seat|player|old)\}", pattern)
    ]
    assert wrong == []


def test_every_sentence_with_an_owner_is_pinned_here() -> None:
    owning = sorted(
        key
        for key, pattern in CATALOGUES["en"].items()
        if key.startswith(tuple(f"{game}." for game in GAMES))
        and "{of_name}" in pattern
    )
    assert owning == sorted(OWNING)
