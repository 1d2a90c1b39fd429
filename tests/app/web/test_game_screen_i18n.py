"""The game screens' catalogues (static/games/<game>/i18n/{en,fr,nl}.json, docs/i18n.md):
every language has exactly English's keys, each pattern parses as the ICU subset and uses
the same arguments in every language, and every key the screens' code names exists.

Keys the code builds from an id (`ishtar.ui.skill.${letter}.name`) are listed here with the
ids they are built from, so a new id without its words fails here, not on a player's screen.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from app.web.i18n import LANGUAGES
from tests.support.patterns import argument_kinds as arguments

ROOT = Path(__file__).resolve().parents[3]
GAMES = {p.name: p for p in sorted((ROOT / "static/games").iterdir()) if p.is_dir()}
"""Every game's screen folder (static/games/<game>/), by its name."""


def catalogue(game: str, lang: str) -> dict[str, str]:
    data = json.loads((GAMES[game] / "i18n" / f"{lang}.json").read_text("utf-8"))
    assert isinstance(data, dict)
    return data


PatternError = ValueError  # what the parser raises for a pattern outside the subset


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        ("plain", set()),
        ("{n, plural, one {# gem} other {# gems}}", {"n:plural"}),
        (
            "{a} {x, select, y {{n, plural, =0 {} other {#}}} other {}}",
            {"a", "x:select", "n:plural"},
        ),
    ],
)
def test_the_checker_reads_the_icu_subset(pattern: str, expected: set[str]) -> None:
    assert arguments(pattern) == expected


@pytest.mark.parametrize(
    "pattern",
    [
        "{n",
        "n}",
        "{n, plural, one {#}}",
        "{n, choice, other {x}}",
        "{n, plural, few {x} other {y}",
    ],
)
def test_the_checker_refuses_what_is_not_the_subset(pattern: str) -> None:
    with pytest.raises(PatternError):
        arguments(pattern)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_each_language_has_englishs_keys_with_the_same_arguments(
    game: str, lang: str
) -> None:
    en = catalogue(game, "en")
    other = catalogue(game, lang)
    assert sorted(other) == sorted(en)
    # the same arguments; a language may need a plural where English prints the number
    for key, pattern in en.items():
        assert names(other[key]) == names(pattern), (lang, key)


def names(pattern: str) -> set[str]:
    return {a.split(":")[0] for a in arguments(pattern)}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_key_is_the_games_own_and_every_pattern_is_text(
    game: str, lang: str
) -> None:
    for key, pattern in catalogue(game, lang).items():
        assert key.startswith(f"{game}.ui."), key
        assert pattern.strip() or key.endswith(".note"), key
        if lang == "fr":
            # French typography: no plain space before : ; ! ? (a no-break one), and ’
            assert not re.search(r" [:;!?]", pattern), (key, pattern)
            assert "'" not in pattern, (key, pattern)


# The rules pages' sections (static/games/<game>/rules.js `SECTIONS`), whose words the
# shell's static/js/rules.js builds as `<game>.ui.rules.<id>.title|text|picture`.
ISHTAR_RULES = (
    "goal", "turn", "choose", "place", "special", "trees", "gardens", "end", "scoring",
    "option-edition", "here",
)  # fmt: skip
ISHTAR_PICTURES = ("goal", "choose", "place", "special", "trees", "gardens")
BABYLON_RULES = (
    "goal", "tiles", "irrigate", "harvest", "scoreboard", "end", "teams", "here",
)  # fmt: skip
BABYLON_PICTURES = ("goal", "tiles", "irrigate", "harvest", "scoreboard")


def rules_keys(
    game: str, sections: tuple[str, ...], pictures: tuple[str, ...]
) -> list[str]:
    keys = [f"{game}.ui.rules.intro"]
    for section in sections:
        keys += [f"{game}.ui.rules.{section}.title", f"{game}.ui.rules.{section}.text"]
        if section in pictures:
            keys.append(f"{game}.ui.rules.{section}.picture")
    return keys


def test_the_rules_sections_listed_here_are_the_screens() -> None:
    """The ids above are those the games' rules modules list, pictures included."""
    for game, sections, pictures in (
        ("ishtar", ISHTAR_RULES, ISHTAR_PICTURES),
        ("babylon", BABYLON_RULES, BABYLON_PICTURES),
    ):
        text = (GAMES[game] / "rules.js").read_text("utf-8")
        listed = re.findall(r'\{ id: "([a-z-]+)"(, picture)?', text)
        assert [s for s, _ in listed] == list(sections)
        assert [s for s, p in listed if p] == list(pictures)


# Keys the code builds from ids (template literals in the JS), with those ids.
BUILT = {
    "ishtar": [
        *(f"ishtar.ui.shape.{s}" for s in ("line", "chevron", "triangle")),
        *(f"ishtar.ui.gem.{c}" for c in ("purple", "red", "white")),
        *(f"ishtar.ui.gems.{c}" for c in ("purple", "red", "white")),
        *(f"ishtar.ui.score.{k}" for k in ("trees", "flowers", "fountains")),
        *(
            f"ishtar.ui.skill.{s}.{part}"
            for s in "ABCDEFGHIJ"
            for part in ("name", "text")
        ),
        *(f"ishtar.ui.tree.{n}" for n in range(1, 27)),
        *(
            f"ishtar.ui.bloom.{step}.{how}"
            for step in ("second", "space")
            for how in ("tap", "click")
        ),
        *(f"ishtar.ui.option.{field}" for field in ("layout", "first_player")),
        *(f"ishtar.ui.option.layout.{value}" for value in ("preset", "random")),
        *(f"ishtar.ui.option.edition.{name}" for name in ("1", "2", "3", "4")),
        *rules_keys("ishtar", ISHTAR_RULES, ISHTAR_PICTURES),
    ],
    "babylon": [
        *(f"babylon.ui.colour.{c}" for c in ("red", "green", "yellow", "purple")),
        *(
            f"babylon.ui.floor.{f}"
            for f in ("lower", "middle", "higher", "roof", "ishtar", "tammuz")
        ),
        *(
            f"babylon.ui.option.floor.{f}"
            for f in ("lower", "middle", "higher", "roof", "ishtar", "tammuz")
        ),
        *(f"babylon.ui.option.scoreboards.{v}" for v in ("random", "choose")),
        *(
            f"babylon.ui.option.{field}"
            for field in ("floor", "scoreboards", "teams", "first_player")
        ),
        *(
            f"babylon.ui.line.{line}"
            for line in ("row", "column", "diagonal-down", "diagonal-up")
        ),
        *(
            f"babylon.ui.path.{step}.{how}"
            for step in ("start", "more")
            for how in ("tap", "click")
        ),
        *rules_keys("babylon", BABYLON_RULES, BABYLON_PICTURES),
    ],
}

LITERAL = re.compile(
    r"""["'`]((?:ishtar|babylon)\.ui\.[A-Za-z0-9_.-]*[A-Za-z0-9_-])["'`]"""
)
TEMPLATE = re.compile(r"`((?:ishtar|babylon)\.ui\.[^`]*\$\{[^`]*)`")


def code_keys(game: str) -> tuple[set[str], set[str]]:
    """The keys a game's modules name literally, and the templates they build keys from."""
    literal: set[str] = set()
    templates: set[str] = set()
    for path in GAMES[game].glob("*.js"):
        text = path.read_text("utf-8")
        literal |= set(LITERAL.findall(text))
        templates |= set(TEMPLATE.findall(text))
    return literal, templates


@pytest.mark.parametrize("game", GAMES)
def test_every_key_the_screen_names_exists_in_english(game: str) -> None:
    en = catalogue(game, "en")
    literal, templates = code_keys(game)
    assert len(literal) > 60, "the screen names its keys as string literals"
    assert sorted(literal - set(en)) == []
    assert sorted(set(BUILT[game]) - set(en)) == []
    # each template the code builds keys with is covered by the ids listed above
    for template in templates:
        shape = re.escape(template)
        shape = re.sub(r"\\\$\\\{[^}]*\\\}", "[A-Za-z0-9_-]+", shape)
        assert any(re.fullmatch(shape, key) for key in BUILT[game]), template


@pytest.mark.parametrize("game", GAMES)
def test_no_key_is_left_unused(game: str) -> None:
    """Each key of the catalogue is named by the code, built from a listed id, or an option
    of the home form (read by the shell) or the game's title."""
    literal, _ = code_keys(game)
    used = literal | set(BUILT[game])
    spare = [
        k
        for k in catalogue(game, "en")
        if k not in used
        and not k.startswith(f"{game}.ui.option.")
        and k != f"{game}.ui.title"
    ]
    assert spare == []
