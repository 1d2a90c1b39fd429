"""tests/engine/catalogue_checks.py fails where it should: each check passes on complete
catalogues and raises an AssertionError for each way a catalogue or a message can go wrong
(a key missing in one language, one too many, an argument renamed, a pattern that does not
parse, French typography or elision, a message naming a missing key or a missing param)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

import engine.babylon as babylon
import engine.ishtar as ishtar
from engine.messages import Catalogue, message
from tests.engine.catalogue_checks import (
    complete,
    refusals,
    scan,
    serves_languages,
    unsaid,
)

NB = "\u00a0"
GOOD: dict[str, dict[str, str]] = {
    "en": {
        "toy.log.won": "{seat} won: {n, plural, one {# point} other {# points}}",
        "toy.log.lost": "{seat} lost",
    },
    "fr": {
        "toy.log.won": f"{{seat}} a gagné{NB}: {{n, plural, one {{# point}} other {{# points}}}}",
        "toy.log.lost": "{seat} n’a pas gagné",
    },
    "nl": {
        "toy.log.won": "{seat} won: {n, plural, one {# punt} other {# punten}}",
        "toy.log.lost": "{seat} verloor",
    },
}


def _catalogues(
    lang: str = "fr", key: str = "toy.log.won", pattern: str | None = None
) -> dict[str, Any]:
    """The good catalogues with one pattern of one language changed (None: removed), as
    raw dicts (a Catalogue refuses a bad pattern as it loads)."""
    raw = {each: dict(patterns) for each, patterns in GOOD.items()}
    if pattern is None:
        del raw[lang][key]
    else:
        raw[lang][key] = pattern
    return raw


def _loaded(raw: dict[str, dict[str, str]]) -> dict[str, Catalogue]:
    return {lang: Catalogue(lang, patterns) for lang, patterns in raw.items()}


def test_complete_catalogues_pass() -> None:
    complete(_loaded(GOOD))


@pytest.mark.parametrize(
    ("lang", "key", "pattern", "says"),
    [
        ("fr", "toy.log.won", None, "missing"),
        ("nl", "toy.log.lost", None, "missing"),
        ("fr", "toy.log.draw", "{seat} fait match nul", "extra"),
        ("nl", "toy.log.lost", "{player} verloor", "toy.log.lost"),
        ("fr", "toy.log.lost", "{seat} n'a pas gagné", "toy.log.lost"),
        ("fr", "toy.log.won", "{seat} a gagné : {n, plural, other {#}}", "toy.log.won"),
        ("fr", "toy.log.lost", "la partie de {seat} est perdue", "toy.log.lost"),
        ("fr", "toy.log.lost", "on dirait que {seat} a perdu", "toy.log.lost"),
    ],
)
def test_each_fault_of_a_catalogue_fails(
    lang: str, key: str, pattern: str | None, says: str
) -> None:
    with pytest.raises(AssertionError, match=re.escape(says)):
        complete(_loaded(_catalogues(lang, key, pattern)))


def test_a_pattern_that_does_not_parse_fails() -> None:
    raw = _catalogues("nl", "toy.log.lost", "{seat verloor")

    class Unparsed(Catalogue):
        """A catalogue that would hold a bad pattern (a Catalogue refuses it at load)."""

        def __init__(self, lang: str, patterns: dict[str, str]) -> None:
            super().__init__(lang, {})
            self._patterns = dict(patterns)

    catalogues = {lang: Unparsed(lang, patterns) for lang, patterns in raw.items()}
    with pytest.raises(AssertionError, match=re.escape("nl toy.log.lost")):
        complete(catalogues)


def test_a_message_naming_a_missing_key_or_param_fails() -> None:
    names = ["Ana", "Bo"]
    good = [("won", message("toy.log.won", seat={"seat": 0}, n=3))]
    assert scan(_loaded(GOOD), good, names) == 1
    with pytest.raises(AssertionError, match=re.escape("toy.log.won")):
        scan(_loaded(_catalogues("nl", "toy.log.won", None)), good, names)
    with pytest.raises(AssertionError, match="where"):
        scan(
            _loaded(GOOD), [("where", message("toy.log.won", seat={"seat": 1}))], names
        )


def test_unsaid_lists_the_keys_of_a_kind_no_message_named() -> None:
    sent = [("won", message("toy.log.won", seat={"seat": 0}, n=1))]
    assert unsaid(_loaded(GOOD)["en"], sent, "log") == {"toy.log.lost"}
    assert unsaid(_loaded(GOOD)["en"], sent, "reason") == set()


def _messages(
    catalogues: dict[str, Catalogue], change: Callable[[dict[str, str]], None]
) -> Callable[[str], dict[str, str]]:
    def messages(lang: str) -> dict[str, str]:
        found = dict(catalogues[lang])
        change(found)
        return found

    return messages


def test_serves_languages_fails_on_a_wrong_messages_function() -> None:
    loaded = _loaded(GOOD)
    with pytest.raises(AssertionError, match=r"^en$"):
        serves_languages(
            _messages(loaded, lambda found: found.pop("toy.log.lost")), loaded, "de"
        )
    # a language it does not speak answered with English (a KeyError is no refusal either)
    with pytest.raises(AssertionError, match="'de'"):
        serves_languages(
            lambda lang: dict(loaded.get(lang, loaded["en"])), loaded, "de"
        )
    shared = {lang: dict(catalogue) for lang, catalogue in loaded.items()}
    with pytest.raises(AssertionError, match="not a copy"):
        serves_languages(shared.__getitem__, loaded, "de")


@pytest.mark.parametrize("module", [ishtar, babylon], ids=["ishtar", "babylon"])
def test_refusals_fail_on_an_accepted_bad_option(module: Any) -> None:
    class Lenient:
        """The engine, but accepting every option."""

        IllegalAction = module.IllegalAction
        decode_action = staticmethod(module.decode_action)

        @staticmethod
        def check_options(players: int, options: Any) -> dict[str, Any]:
            return {}

    assert list(refusals(module, plain=["options"]))
    with pytest.raises(AssertionError, match="accepted"):
        list(refusals(Lenient))
