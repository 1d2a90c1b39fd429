"""Babylon Gardens speaks in messages (docs/i18n.md): catalogues complete in en, fr and nl,
every message the engine can say renders fully in each, and the English is unchanged."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest

import engine.babylon as babylon
from engine.babylon import (
    Action,
    IllegalAction,
    apply,
    decode_action,
    is_over,
    legal_actions,
    narrate,
    new_game,
    why_illegal,
)
from engine.babylon.components import PLAYER_COLOURS
from engine.babylon.words import CATALOGUES, english
from engine.messages import render
from tests.engine import wording
from tests.engine.babylon.golden_games import GOLDEN_DIR
from tests.engine.catalogue_checks import (
    Sent,
    complete,
    english_along,
    in_colours,
    largest,
    refusals,
    scan,
    serves_languages,
    unsaid,
)

SEATS = ["Ana", "Bo", "Cy", "Di"]


_in = in_colours(CATALOGUES, PLAYER_COLOURS)


def test_every_language_has_the_keys_and_arguments_of_english() -> None:
    complete(CATALOGUES)


def test_messages_gives_each_language_and_refuses_another() -> None:
    serves_languages(babylon.messages, CATALOGUES, "es")
    assert babylon.messages("nl")["babylon.word.floor.roof"] == "Daktuin"
    with pytest.raises(
        ValueError, match=r"^Babylon Gardens speaks en, fr, nl, not 'es'$"
    ):
        babylon.messages("es")


def _step_probes(state: babylon.State) -> list[Action]:
    """Steps of every kind of wrong: back to the well, onto the path, two away, diagonal."""
    well = state.floor.well
    (r, c) = state.path[-1] if state.path else well
    found = [Action("irrigate", at=well), Action("irrigate")]
    found += [
        Action("irrigate", at=(r + dr, c + dc))
        for dr in (-2, -1, 0, 1, 2)
        for dc in (-2, -1, 0, 1, 2)
    ]
    found += [Action("irrigate", at=at) for at in state.path]
    return found


def _playouts() -> Iterator[Sent]:
    for players, seed, options in wording.BABYLON_GAMES[:12]:
        rng = random.Random(seed)
        state = new_game(players, seed, options)
        while not is_over(state):
            legal = legal_actions(state)
            for action in legal:
                yield f"seed {seed} {action}", narrate(state, action)
            probes = [wording._babylon_probe(rng) for _ in range(wording.PROBES)]
            for probe in probes + _step_probes(state):
                found = why_illegal(state, probe)
                if found is not None:
                    yield f"seed {seed} probe", found
            state = apply(state, rng.choice(legal))
        yield "over", why_illegal(state, Action("harvest")) or {}


def test_every_message_the_engine_says_renders_fully_in_every_language() -> None:
    sent = [*_playouts(), *refusals(babylon)]
    assert scan(CATALOGUES, sent, SEATS) == len(sent)
    assert unsaid(CATALOGUES["en"], sent, "log") == {"babylon.log.other"}
    unmet = unsaid(CATALOGUES["en"], sent, "reason")
    assert unmet == set(), sorted(unmet)


def test_the_english_is_the_message_rendered_in_english() -> None:
    state = english_along(
        babylon,
        english,
        new_game(3, 8, {"scoreboards": "choose"}),
        8,
        80,
        lambda rng, _: wording._babylon_probe(rng),
    )
    assert _in("en", babylon.why_illegal(state, Action("hop")) or {}) == (
        "There is no action 'hop' in Babylon Gardens."
    )


def _golden() -> list[tuple[babylon.State, Action, str]]:
    record = json.loads((GOLDEN_DIR / "game-lower-2p-seed101.json").read_text())
    state = new_game(2, 101, record["setup"]["options"])
    steps = []
    for step in record["steps"][:12]:
        action = decode_action(step["action"])
        steps.append((state, action, step["log"]))
        state = apply(state, action)
    return steps


def test_the_golden_log_lines_are_the_english_of_their_messages() -> None:
    for state, action, line in _golden():
        assert _in("en", narrate(state, action)) == line


def test_a_french_and_a_dutch_log_read_in_their_language() -> None:
    nbsp = "\u00a0"
    steps = _golden()
    french = [_in("fr", narrate(s, a)) for s, a, _ in steps]
    assert (
        french[0] == f"Blue arrose la tuile verte à 1 fleur (1 sur 1){nbsp}: remplie."
    )
    assert french[1] == (
        f"Blue récolte 1 tuile (vert) le long d’un chemin de 1 tuile{nbsp}: +1 point."
    )
    dutch = [_in("nl", narrate(s, a)) for s, a, _ in steps]
    assert dutch[1] == "Blue oogst 1 tegel (groen) langs een pad van 1 tegel: +1 punt."


def _the_last_harvest() -> tuple[babylon.State, Action]:
    """The harvest that fills a scoreboard and ends a seeded game."""
    players, seed, options = wording.BABYLON_GAMES[0]
    rng = random.Random(seed)
    state = new_game(players, seed, options)
    while True:
        action = rng.choice(legal_actions(state))
        after = apply(state, action)
        if is_over(after):
            return state, action
        state = after


@pytest.mark.parametrize("name", ["Ana", "Björn"])
def test_french_tells_the_full_scoreboard_with_no_de_before_a_name(name: str) -> None:
    """The browser names the seat; the engine cannot know if "de" elides before it
    ("d’Ana", "de Björn"), so the French says "Son tableau de score" (docs/i18n.md)."""
    state, action = _the_last_harvest()
    said = narrate(state, action)
    assert said["params"]["ends"] == "yes"
    french = render(CATALOGUES["fr"], said, "fr", seat=lambda _: name)
    assert french.startswith(f"{name} récolte "), french
    assert french.endswith(
        " Son tableau de score est plein\u00a0: la partie est terminée."
    ), french
    assert f"de {name}" not in french and f"d’{name}" not in french
    dutch = render(CATALOGUES["nl"], said, "nl", seat=lambda _: name)
    assert dutch.endswith(f" Het scorebord van {name} is vol: het spel is afgelopen.")
    colour = PLAYER_COLOURS[state.current].capitalize()
    assert _in("en", said).endswith(
        f" {colour}'s scoreboard is full: the game is over."
    )


def test_an_illegal_action_carries_its_message() -> None:
    state = new_game(2, 101)
    with pytest.raises(IllegalAction) as refused:
        apply(state, Action("harvest"))
    assert refused.value.message == {
        "key": "babylon.reason.harvest_empty",
        "params": {},
    }
    assert refused.value.reason == "Water at least one tile before you harvest."
    assert (
        _in("fr", refused.value.message)
        == "Arrosez au moins une tuile avant de récolter."
    )


def test_a_message_is_small() -> None:
    """The longest harvest lists each colour in a nested series: still small on the wire."""
    assert largest(_playouts()) < 4096
