"""The checks every engine's catalogues and messages pass (docs/i18n.md), shared by the
games' test_messages.py so that each game runs the same ones.

- Catalogues: `complete` (every language has English's keys, every pattern parses and uses
  English's arguments, French typography and elision) and `serves_languages` (the engine's
  ``messages(lang)``).
- Messages: `scan` renders each message an engine says in every language (every key it names
  exists, nothing left in braces), `unsaid` lists the keys of a kind no message named, and
  `refusals` collects the messages of the shared bad options and malformed actions.
- English: `english_along` plays a seeded game and checks that the engine's English
  (``english`` of what ``narrate`` and ``why_illegal`` say) is its messages rendered in
  English.
- Size: `largest` is the longest message on the wire.

Each check fails with an ``AssertionError`` saying the language, the key and where the
message came from; tests/engine/test_catalogue_checks.py makes sure each one does.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from typing import Any

from engine.messages import (
    LANGUAGES,
    Catalogue,
    Message,
    arguments,
    keys,
    parse,
    render,
)
from tests.engine import wording

Sent = tuple[str, dict[str, Any]]
"""Where a message came from (for the failure's text), and the message."""

Catalogues = Mapping[str, Catalogue]
"""One engine's catalogues by language."""


# --- catalogues -----------------------------------------------------------------------------


def same_keys(catalogues: Catalogues) -> None:
    """Every language has exactly the keys of English."""
    english = set(catalogues["en"])
    for lang in LANGUAGES:
        assert set(catalogues[lang]) == english, (
            f"{lang}: missing {sorted(english - set(catalogues[lang]))}, "
            f"extra {sorted(set(catalogues[lang]) - english)}"
        )


def patterns_parse(catalogues: Catalogues) -> None:
    """Every pattern of every language parses as the ICU subset and is not empty."""
    for lang in LANGUAGES:
        for key, pattern in catalogues[lang].items():
            try:
                parse(pattern)
            except ValueError as error:
                raise AssertionError(f"{lang} {key}: {error}") from None
            assert pattern.strip(), (lang, key)


def same_arguments(catalogues: Catalogues) -> None:
    """Every pattern uses the arguments of English's pattern of its key, no more, no less."""
    english = catalogues["en"]
    for lang in LANGUAGES:
        for key, pattern in catalogues[lang].items():
            assert key in english, (lang, key, "not in English")
            assert arguments(pattern) == arguments(english[key]), (lang, key)


_STRAIGHT_APOSTROPHE = re.compile(r"[A-Za-zÀ-ÿ]'[A-Za-zÀ-ÿ]")
_BARE_PUNCTUATION = re.compile("[^\u00a0\u202f][:;!?]")


def french_typography(catalogue: Catalogue) -> None:
    """Typographic apostrophes, and a no-break space before : ; ! ? (never a plain one)."""
    for key, pattern in catalogue.items():
        assert not _STRAIGHT_APOSTROPHE.search(pattern), (key, pattern)
        assert not _BARE_PUNCTUATION.search(pattern), (key, pattern)


# "de" or "que" right before a player: French elides them before a vowel ("d’Ana").
_DE_BEFORE_A_PLAYER = re.compile(r"(?:\bde|que)\s+\{(?:seat|winners?|player|names?)\}")


def french_elision(catalogue: Catalogue) -> None:
    """No "de {seat}" nor "que {seat}": an engine names players by seat, and whoever renders
    the message gives the name, whose first sound the engine cannot know; so the French
    sentence is turned to need no elision ("Son tableau", the name as subject)."""
    for key, pattern in catalogue.items():
        assert not _DE_BEFORE_A_PLAYER.search(pattern), (key, pattern)


def complete(catalogues: Catalogues) -> None:
    """The checks of the catalogues themselves: `same_keys`, `patterns_parse`,
    `same_arguments`, and `french_typography` and `french_elision` of the French one."""
    same_keys(catalogues)
    patterns_parse(catalogues)
    same_arguments(catalogues)
    french_typography(catalogues["fr"])
    french_elision(catalogues["fr"])


def serves_languages(
    messages: Callable[[str], dict[str, str]], catalogues: Catalogues, other: str
) -> None:
    """The engine's ``messages(lang)`` gives each language's patterns (a copy the caller
    may change) and refuses ``other`` with a ValueError naming it."""
    for lang in LANGUAGES:
        given = messages(lang)
        assert given == dict(catalogues[lang]), lang
        given.clear()
        assert messages(lang) == dict(catalogues[lang]), f"{lang}: not a copy"
    refusal = ""
    try:
        messages(other)
    except ValueError as error:
        refusal = str(error)
    assert repr(other) in refusal, f"messages({other!r}) refused with {refusal!r}"


# --- messages -------------------------------------------------------------------------------


def scan(catalogues: Catalogues, sent: Iterable[Sent], seat_names: list[str]) -> int:
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


def unsaid(catalogue: Catalogue, sent: Iterable[Sent], kind: str) -> set[str]:
    """The keys of ``catalogue`` of a kind (``log``: ``<game>.log.*``) no message named."""
    said = {key for _, message in sent for key in keys(message)}
    return {key for key in catalogue if f".{kind}." in key} - said


def refusals(module: Any, plain: Collection[Any] = ()) -> Iterator[Sent]:
    """The messages of the refusals of the wording probes (tests/engine/wording.py): the bad
    options and the malformed actions, each refused with the engine's IllegalAction. An
    option set in ``plain`` may be refused with a plain ValueError instead (a value the
    server refuses before the engine sees it); an accepted action yields nothing."""
    for players, options in wording.BAD_OPTIONS:
        try:
            module.check_options(players, options)
        except module.IllegalAction as error:
            yield f"options {options}", error.message
        except ValueError:
            if options not in plain:
                raise
        else:
            raise AssertionError(f"options {options!r} for {players} were accepted")
    for data in wording.BAD_ACTIONS:
        try:
            module.decode_action(data)
        except module.IllegalAction as error:
            yield f"action {data}", error.message


def english_along(
    module: Any,
    english: Callable[[Message], str],
    state: Any,
    seed: int,
    steps: int,
    probe: Callable[[random.Random, Any], Any],
) -> Any:
    """Play ``steps`` random moves from ``state``: the engine's English (``english``) of
    each move's log line (``narrate``) and of the refusal of a probe around each position
    (``why_illegal``) is their message rendered in English by ``english``. Returns the
    last position."""
    rng = random.Random(seed)
    for step in range(steps):
        assert not module.is_over(state), f"the game ended at step {step} of {steps}"
        action = rng.choice(module.legal_actions(state))
        line = module.narrate(state, action)
        assert module.english(line) == english(line), (step, action)
        tried = probe(rng, state)
        reason = module.why_illegal(state, tried)
        if reason is not None:
            assert module.english(reason) == english(reason), (step, tried)
        state = module.apply(state, action)
    return state


def in_colours(
    catalogues: Catalogues, colours: Sequence[str]
) -> Callable[[str, Message], str]:
    """A renderer of messages in a language, seats by their capitalised colour ("Blue"),
    as the engine's English and the golden games' log lines name them."""
    names = [colour.capitalize() for colour in colours]

    def rendered(lang: str, message: Message) -> str:
        return render(catalogues[lang], message, lang, seat=names.__getitem__)

    return rendered


def largest(sent: Iterable[Sent]) -> int:
    """The size in bytes of the largest message, as JSON on the wire."""
    return max(
        len(json.dumps(message, ensure_ascii=False).encode()) for _, message in sent
    )
