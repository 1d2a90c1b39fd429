"""The sentences that name a player as an owner (static/i18n): French elides "de" before a
name heard to start with a vowel ("gaffe d’Ana", "Au tour d’Émile", "gaffe de Björn").

The pages pass such a name as the message `name.of_vowel` or `name.of` (`ofName` of
static/js/initials.js): the analysis panel as `{player}`, the turn labels, the seat menu
and the seat news as `{of_name}` or `{of_old}`; each language's catalogue puts there what
its grammar wants. tests/e2e/test_analysis.py checks the choice in Chromium."""

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
    key = "name.of_vowel" if vowel else "name.of"
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
        if key.startswith("analysis.") and re.search(r"\bde \{(name|player)\}", pattern)
    ]
    assert wrong == []


OWNING = {
    "game.turn_of": ("of_name", "Au tour d’Émile", "Au tour de Björn"),
    "mygames.turn": ("of_name", "au tour d’Émile", "au tour de Björn"),
    "mygames.turn_overdue": ("of_name", "au tour d’Émile", "au tour de Björn"),
    "mygames.seat_of": ("of_name", "La place d’Émile", "La place de Björn"),
    "seatmenu.handed_person": ("of_old", "la place d’Émile", "L’ancien lien de Björn"),
    "seatmenu.bot_ask": ("of_name", "Confier la place d’Émile", "le lien de Björn"),
    "seatmenu.bot_done": ("of_name", "la place d’Émile.", "la place de Björn."),
    "news.to_bot": ("of_old", "La place d’Émile a", "La place de Björn a"),
    "news.to_person": ("of_old", "La place d’Émile a", "La place de Björn a"),
    "reach.mail.pending": ("of_address", "d’emile@example.org", "de bo@example.org"),
}


@pytest.mark.parametrize("key", sorted(OWNING))
def test_french_elides_de_before_a_vowel_wherever_a_name_owns(key: str) -> None:
    param, vowel, consonant = OWNING[key]

    def text(lang: str, name: str, is_vowel: bool) -> str:
        params = {"name": "Zoë", "level": "easy", param: player(name, is_vowel)}
        return render(CATALOGUES[lang], {"key": key, "params": params}, lang)

    assert vowel in text("fr", "emile@example.org" if "@" in vowel else "Émile", True)
    said_de = text("fr", "bo@example.org" if "@" in consonant else "Björn", False)
    assert consonant in said_de
    for lang in ("en", "nl"):  # the bare name, whatever its sound
        assert "Émile" in text(lang, "Émile", True), lang
        assert "d’" not in text(lang, "Émile", True), lang


def test_no_french_sentence_puts_de_before_a_name_itself() -> None:
    """A name after "de" is always the message of `ofName`, never `{name}` itself."""
    wrong = [
        key
        for key, pattern in CATALOGUES["fr"].items()
        if re.search(r"\b(de|que) \{(name|old|player|address)\}", pattern)
        and key != "name.of"
    ]
    assert wrong == []


def test_french_puts_a_narrow_space_before_the_colon_of_the_luck_list() -> None:
    said_fr = render(
        CATALOGUES["fr"],
        {"key": "analysis.draws_seat", "params": {"name": "Ana"}},
        "fr",
    )
    assert said_fr == "Ana\u202f:"
    for key, pattern in CATALOGUES["fr"].items():
        if key.startswith(
            "analysis."
        ):  # one French space before a colon, the narrow one
            assert not re.search(r"[^\u202f]:", pattern.replace("://", "")), key


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
