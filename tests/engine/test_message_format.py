"""engine/messages.py: the shared cases of the two formatters, and malformed patterns."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.messages import (
    Catalogue,
    arguments,
    join,
    keys,
    load,
    load_catalogues,
    message,
    messages_factory,
    parse,
    plural_category,
    render,
)

CASES = json.loads(
    (Path(__file__).parents[1] / "fixtures" / "i18n-cases.json").read_text()
)["cases"]


@pytest.mark.parametrize(
    "case", CASES, ids=[f"{c['lang']}:{c['pattern']}" for c in CASES]
)
def test_each_shared_case_renders_as_the_browser_does(case: dict[str, Any]) -> None:
    catalogue = {**case.get("catalogue", {}), "case": case["pattern"]}
    rendered = render(catalogue, message("case", **case["params"]), case["lang"])
    assert rendered == case["text"]


@pytest.mark.parametrize(
    ("pattern", "where"),
    [
        ("{who", "unclosed '{'"),
        ("who}", "unbalanced '}'"),
        ("a } b", "unbalanced '}'"),
        ("{n, plural, one {# gem} other {# gems}", "unclosed '{'"),
        ("{n, plural, one {# gem other {# gems}}", "expected an argument name"),
        ("{n, plural, one {# gem}}", "no 'other' branch"),
        ("{c, select, red {r} red {s} other {o}}", "given twice"),
        ("{n, ordinal, other {x}}", "unknown argument type"),
        ("{}", "expected an argument name"),
        ("{n, plural, =x {a} other {b}}", "'=x' is not a whole number"),
        ("{n plural}", "expected ','"),
        ("{n, plural other {b}}", "expected ','"),
        ("{n, plural, one # other {b}}", "expected '{'"),
    ],
)
def test_a_malformed_pattern_is_a_clear_value_error(pattern: str, where: str) -> None:
    with pytest.raises(ValueError, match=where) as raised:
        parse(pattern)
    assert repr(pattern) in str(raised.value)


def test_a_catalogue_with_a_bad_pattern_names_its_key() -> None:
    with pytest.raises(ValueError, match=r"fr catalogue, x\.broken: unclosed"):
        Catalogue("fr", {"x.ok": "fine", "x.broken": "{n, plural, other {#}"})


def test_a_missing_key_falls_back_to_english_then_to_the_key() -> None:
    fr = Catalogue("fr", {"a": "bonjour"})
    en = Catalogue("en", {"a": "hello", "b": "goodbye {who}"})
    assert render(fr, message("a")) == "bonjour"
    assert render(fr, message("b", who="Ana"), fallback=en) == "goodbye Ana"
    assert render(fr, message("c"), fallback=en) == "c"


def test_a_missing_choice_param_shows_its_name() -> None:
    catalogue = {"k": "{n, plural, one {#} other {#s}} and {c, select, other {x}}"}
    assert render(catalogue, message("k")) == "{n} and {c}"


def test_a_pound_refers_to_the_innermost_plural_through_a_select() -> None:
    catalogue = {
        "k": "{n, plural, other {{c, select, red {# red} other {# {m, plural, other {#}}}}}}"
    }
    assert render(catalogue, message("k", n=2, c="red", m=5)) == "2 red"
    assert render(catalogue, message("k", n=2, c="x", m=5)) == "2 5"
    assert render({"k": "a # b"}, message("k")) == "a # b"


def test_seats_render_with_the_given_names() -> None:
    catalogue = {"k": "{who} and {whom}"}
    names = ["Blue", "Green"]
    sent = message("k", who={"seat": 0}, whom={"seat": 1})
    assert render(catalogue, sent, seat=names.__getitem__) == "Blue and Green"
    assert render(catalogue, sent) == "Seat 1 and Seat 2"


def test_plural_categories_of_the_three_languages() -> None:
    assert [plural_category("en", n) for n in (0, 1, 2, 1.5, -1)] == [
        "other",
        "one",
        "other",
        "other",
        "one",
    ]
    assert [plural_category("nl", n) for n in (0, 1, 2)] == ["other", "one", "other"]
    assert [plural_category("fr", n) for n in (0, 1, 1.5, 2, 10**6)] == [
        "one",
        "one",
        "one",
        "other",
        "many",
    ]


def test_lists_join_as_a_conjunction() -> None:
    assert join([], "en") == ""
    assert join(["a"], "nl") == "a"
    assert join(["a", "b"], "nl") == "a en b"
    assert join(["a", "b", "c"], "en") == "a, b and c"


def test_arguments_and_keys_are_found_at_any_depth() -> None:
    assert arguments(
        "{a} {n, plural, one {{b}} other {{c, select, x {{d}} other {}}}}"
    ) == {
        "a",
        "n",
        "b",
        "c",
        "d",
    }
    sent = message(
        "top",
        one=message("inner", deep=message("deepest")),
        many={"list": [message("first"), "plain", {"seat": 2}]},
    )
    assert sorted(keys(sent)) == ["deepest", "first", "inner", "top"]


_TEXT = st.text(
    alphabet=st.characters(blacklist_characters="{}#", blacklist_categories=("Cs",)),
    max_size=20,
)


@given(_TEXT, st.integers(-(10**6), 10**6), _TEXT)
def test_text_around_a_plural_is_kept_as_it_is(
    before: str, count: int, after: str
) -> None:
    pattern = before + "{n, plural, =0 {none} one {# one} other {# more}}" + after
    middle = "none" if count == 0 else f"{count} {'one' if abs(count) == 1 else 'more'}"
    assert render({"k": pattern}, message("k", n=count)) == before + middle + after


@given(st.text(max_size=40))
def test_any_text_parses_or_is_refused_with_a_value_error(text: str) -> None:
    try:
        parse(text)
    except ValueError:
        return


@pytest.mark.parametrize("package", ["engine.ishtar", "engine.babylon"])
def test_an_engines_catalogues_load_in_every_language(package: str) -> None:
    loaded = load_catalogues(package)
    assert list(loaded) == ["en", "fr", "nl"]
    for lang, catalogue in loaded.items():
        assert catalogue.lang == lang
        assert dict(catalogue) == dict(load(package, lang))


def test_the_messages_factory_gives_each_language_a_fresh_copy_and_refuses_another() -> (
    None
):
    catalogues = {
        lang: Catalogue(lang, {"x.hello": word})
        for lang, word in (("en", "hello"), ("fr", "bonjour"), ("nl", "hallo"))
    }
    messages = messages_factory("Toy", catalogues)
    assert messages("fr") == {"x.hello": "bonjour"}
    messages("nl")["x.hello"] = "changed"
    assert messages("nl") == {"x.hello": "hallo"}
    with pytest.raises(ValueError, match=r"^Toy speaks en, fr, nl, not 'de'$"):
        messages("de")
