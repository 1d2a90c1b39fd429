"""The shell's catalogues (static/i18n/{en,fr,nl}.json, docs/client.md "Languages in the
shell"): the three languages have the same keys, every pattern parses as the ICU subset of
docs/i18n.md and names the same arguments in every language, every key the shell's scripts
and templates name exists, and every error code the server sends has its sentence.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from app.play.protocol import HTTP_STATUS
from engine.messages import arguments, parse

ROOT = Path(__file__).resolve().parents[3]
I18N = ROOT / "static" / "i18n"
LANGS = ("en", "fr", "nl")
CATALOGUES: dict[str, dict[str, str]] = {
    lang: json.loads((I18N / f"{lang}.json").read_text("utf-8")) for lang in LANGS
}
EN = CATALOGUES["en"]
NAMESPACES = {key.split(".", 1)[0] for key in EN}
SOURCES = sorted((ROOT / "static" / "js").glob("*.js")) + sorted(
    (ROOT / "templates").glob("*.html")
)
# A key written out in the code: a string of dotted words of a namespace of the shell.
LITERAL = re.compile(r"""["'`]([a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+)["'`]""")
# The keys the code builds from a fixed list of values (`conn.${state}`…).
BUILT = {
    "conn": ("connecting", "reconnecting", "online", "offline", "gone"),
    "seatmenu.notify": ("granted", "off", "default", "denied", "unsupported"),
}


def named_keys() -> set[str]:
    found: set[str] = set()
    for path in SOURCES:
        for key in LITERAL.findall(path.read_text("utf-8")):
            if key.split(".", 1)[0] in NAMESPACES and not key.endswith(
                (".js", ".json")
            ):
                found.add(key)
    return found


def server_keys() -> set[str]:
    """The `error.*` keys the server's refusals name (`msg("error.…")`)."""
    found: set[str] = set()
    for path in (ROOT / "app").rglob("*.py"):
        found |= set(re.findall(r'"(error\.[a-z_]+(?:\.[a-z_]+)?)"', path.read_text()))
    return found


@pytest.mark.parametrize("lang", ["fr", "nl"])
def test_every_language_has_exactly_the_keys_of_english(lang: str) -> None:
    assert sorted(set(EN) - set(CATALOGUES[lang])) == [], "missing"
    assert sorted(set(CATALOGUES[lang]) - set(EN)) == [], "not in English"


@pytest.mark.parametrize("lang", LANGS)
def test_every_pattern_parses_and_names_the_arguments_of_english(lang: str) -> None:
    for key, pattern in CATALOGUES[lang].items():
        try:
            nodes = parse(pattern)
        except ValueError as error:
            pytest.fail(f"{lang} {key}: {error}")
        assert arguments(nodes) == arguments(parse(EN[key])), f"{lang} {key}"


def test_the_parse_check_refuses_broken_patterns() -> None:
    for broken in ("{n, plural, one {#}}", "a {b", "a } b", "{n, choice, other {x}}"):
        with pytest.raises(ValueError, match="pattern"):
            parse(broken)
    assert arguments(parse("{n, plural, one {# of {who}} other {#}}")) == {"n", "who"}


def test_every_key_the_shell_names_exists_in_english() -> None:
    named = named_keys()
    assert {"home.create", "chat.send", "lobby.sub_free", "replay.final"} <= named
    for prefix, values in BUILT.items():
        named |= {f"{prefix}.{value}" for value in values}
    assert sorted(named - set(EN)) == []


def test_every_error_code_has_a_sentence() -> None:
    codes = set(HTTP_STATUS)
    assert sorted(c for c in codes if f"error.{c}" not in EN) == []


def test_every_message_of_a_refusal_has_its_keys() -> None:
    named = server_keys()
    assert "error.seat_taken.every" in named
    from app.background.webhook_targets import BAD_KEYS

    named |= {f"error.bad_webhook.{key}" for key in BAD_KEYS.values()}
    assert sorted(named - set(EN)) == []


def test_french_uses_its_typography() -> None:
    """French text has the typographic apostrophe, and no plain space before : ; ! ?"""
    for key, text in CATALOGUES["fr"].items():
        assert "'" not in text, key
        assert not re.search(r" [:;!?]", text), key
