"""The analysis panel's sentences that name a player (static/i18n, `analysis.*`): French
elides "de" before a name heard to start with a vowel ("gaffe d’Ana", "gaffe de Björn").

The panel passes a player as the message `analysis.of_player_vowel` or
`analysis.of_player` (static/js/analysis.js, by static/js/initials.js); each language's
catalogue puts there what its grammar wants. tests/e2e/test_analysis.py checks the choice
in Chromium."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine.messages import render

I18N = Path(__file__).resolve().parents[3] / "static" / "i18n"
CATALOGUES = {
    lang: json.loads((I18N / f"{lang}.json").read_text("utf-8"))
    for lang in ("en", "fr", "nl")
}
PARAMS = {
    "move": 12,
    "mark": "gaffe",
    "loss": "13",
    "win": "20 %",
    "better": "x",
    "before": "40 %",
    "after": "20 %",
    "cause": "un tirage",
}
NAMING = sorted(
    key
    for key, pattern in CATALOGUES["en"].items()
    if key.startswith("analysis.") and "{player}" in pattern
)


def player(name: str, vowel: bool) -> dict[str, object]:
    key = "analysis.of_player_vowel" if vowel else "analysis.of_player"
    return {"key": key, "params": {"name": name}}


def said(lang: str, key: str, who: dict[str, object]) -> str:
    msg = {"key": key, "params": {**PARAMS, "player": who}}
    return render(CATALOGUES[lang], msg, lang)


def test_the_sentences_that_name_a_player_take_it_as_a_message() -> None:
    assert NAMING == [
        "analysis.cause_decision",
        "analysis.cause_mark",
        "analysis.now_close",
        "analysis.now_marked",
        "analysis.turn_down",
        "analysis.turn_up",
    ]


@pytest.mark.parametrize("key", NAMING)
def test_french_elides_de_before_a_vowel(key: str) -> None:
    vowel = said("fr", key, player("Ana", vowel=True))
    assert "d’Ana" in vowel and "de Ana" not in vowel, vowel
    hushed = said("fr", key, player("Hugo", vowel=True))
    assert "d’Hugo" in hushed, hushed
    consonant = said("fr", key, player("Björn", vowel=False))
    assert "de Björn" in consonant and "d’Björn" not in consonant, consonant


@pytest.mark.parametrize("lang", ["en", "nl"])
@pytest.mark.parametrize("key", NAMING)
def test_other_languages_read_the_bare_name(lang: str, key: str) -> None:
    for vowel in (True, False):
        text = said(lang, key, player("Ana", vowel))
        assert "Ana" in text and "d’" not in text, text


def test_no_french_analysis_sentence_puts_de_before_a_name_itself() -> None:
    wrong = [
        key
        for key, pattern in CATALOGUES["fr"].items()
        if key.startswith("analysis.")
        and re.search(r"\bde \{(name|player)\}", pattern)
        and key != "analysis.of_player"
    ]
    assert wrong == []


def test_the_french_sentence_of_the_issue() -> None:
    text = said("fr", "analysis.now_marked", player("Ana", vowel=True))
    # French puts a narrow no-break space before the colon
    assert text.startswith("Coup 12\u202f: gaffe d’Ana, 13 points d’avance"), text


@pytest.mark.parametrize(
    ("lang", "sequential", "single"),
    [
        ("en", "(2 to 8 games played out", "(4 games played out"),
        ("fr", "(de 2 à 8 parties jouées", "(4 parties jouées"),
        ("nl", "(2 tot 8 partijen uitgespeeld", "(4 partijen uitgespeeld"),
    ],
)
def test_the_rollouts_are_told_as_a_range_when_sequential(
    lang: str, sequential: str, single: str
) -> None:
    def done(first: int, rollouts: int) -> str:
        yes = "yes" if first < rollouts else "no"
        params = {"first": first, "rollouts": rollouts, "sequential": yes}
        return render(
            CATALOGUES[lang], {"key": "analysis.done", "params": params}, lang
        )

    assert sequential in done(2, 8)
    assert single in done(4, 4)  # an analysis from before sequential rollouts
