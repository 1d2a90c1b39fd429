"""Positions of real Ishtar games for the screen's browser tests (tests/e2e/test_ishtar_table.py):
each is a view, the legal list with previews and the catalogue exactly as the server sends
them, made by the engine from a state reached by play or laid with the engine tests' builders
(so the screen is tried on what the engine really says, the placement previews included)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from engine.ishtar import (
    Action,
    State,
    apply,
    catalogue,
    legal_actions,
    legal_with_previews,
    new_game,
    view_for,
)
from engine.ishtar.catalogue import edition_json
from engine.ishtar.editions import DEFAULT, EDITION_1
from tests.engine.ishtar.builders import (
    force_assistant,
    force_tile,
    game,
    with_gems,
    with_hand,
    with_plant,
    with_special,
)
from tests.engine.ishtar.played import load

Position = dict[str, Any]


def _position(state: State, seat: int | None = 0) -> Position:
    mine = seat is not None and state.current == seat and state.phase != "over"
    return {
        "view": view_for(state, seat),
        "legal": legal_with_previews(state) if mine else [],
    }


def midgame_choose() -> Position:
    """Seat 0 to choose a tile, eight turns into a seeded 2-player game, with gems to pay."""
    rng = random.Random(5)
    state = new_game(2, 5, {"first_player": 0})
    while not (state.phase == "choose" and state.current == 0 and state.turn >= 9):
        actions = [a for a in legal_actions(state) if a.type != "undo"]
        state = apply(state, rng.choice(actions))
    return _position(with_gems(state, 0, 2, 1, 1))


def special_assistant() -> Position:
    """Seat 0's special step after a tile with an assistant icon, some turns into a seeded
    2-player game: the assistant is among its choices."""
    rng = random.Random(5)
    state = new_game(2, 5, {"first_player": 0})
    while not (
        state.phase == "special"
        and state.current == 0
        and state.turn >= 9
        and Action("assistant") in legal_actions(state)
    ):
        actions = [a for a in legal_actions(state) if a.type != "undo"]
        state = apply(state, rng.choice(actions))
    return _position(state)


def lost_assistant() -> Position:
    """Seat 0 holds triangle-01 (F1 with the assistant icon, F1, F1) next to a flowerbed of
    seat 1's assistant: placing it at (2,1) would give no assistant (engine test
    ``test_the_placement_preview_says_when_an_assistant_icon_would_give_nothing``)."""
    state = force_tile(game(), "line-12", (1, 0), 0)
    state = force_assistant(state, (2, 0), 1)
    return _position(with_hand(state, "triangle-01"))


def assistant_on_two_flowers() -> Position:
    """An assistant on chevron-01's first space: 2 flowers with the assistant icon."""
    state = force_tile(game(), "chevron-01", (1, 0), 0)
    state = force_assistant(state, (1, 0), 0)
    return _position(with_plant(state), seat=None)


def special_skills() -> Position:
    """Seat 0's special step after a skill icon, with gems for a skill."""
    state = force_tile(game(), "line-02", (1, 0), 0)  # F2 with the skill icon first
    return _position(with_special(with_gems(state, 0, 2, 1, 1)))


TUNED = "tuned"
"""A test-only edition the harness's catalogue has (skill C: 4 VP per fountain)."""


def special_tuned() -> Position:
    """The special step of `special_skills` in a game of the test-only edition `TUNED`."""
    position = special_skills()
    return {**position, "view": {**position["view"], "edition": TUNED}}


def special_default() -> Position:
    """The special step of `special_skills` in a game of the default edition (its skill
    texts: B and E with a limit)."""
    position = special_skills()
    return {**position, "view": {**position["view"], "edition": DEFAULT}}


def bloom_step() -> Position:
    """Seat 0 lays a blooming token (skill G just unlocked)."""
    state = force_tile(game(), "line-03", (1, 0), 0)  # G F3 G: grass at (1,0) and (3,0)
    state = with_special(
        with_gems(force_tile(state, "line-02", (1, -1), 0), 0, 2, 0, 0)
    )
    state = apply(state, Action("skill", skill="G", pay=("purple", "purple")))
    assert state.phase == "bloom", state.phase
    return _position(state)


def reserve_step() -> Position:
    """Seat 0 reserves a tree card (skill I just unlocked); each market card it may take
    draws a new one from the pile: it cannot be undone (``"final": true``)."""
    state = force_tile(game(), "line-03", (1, 0), 0)
    state = with_special(
        with_gems(force_tile(state, "line-02", (1, -1), 0), 0, 2, 2, 2)
    )
    state = apply(state, Action("skill", skill="I", pay=("purple", "purple")))
    assert state.phase == "reserve", state.phase
    return _position(state)


def plant_step() -> Position:
    """Seat 0 may plant: grass spaces free, gems to pay."""
    state = force_tile(game(), "line-03", (1, 0), 0)
    return _position(with_plant(with_gems(state, 0, 3, 3, 3)))


def finished() -> Position:
    """A finished game decided on the tie-break (trees planted)."""
    return _position(load("tie-on-trees"), seat=0)


POSITIONS: dict[str, Callable[[], Position]] = {
    "choose": midgame_choose,
    "lost-assistant": lost_assistant,
    "assistant-two-flowers": assistant_on_two_flowers,
    "special": special_skills,
    "special-assistant": special_assistant,
    "special-tuned": special_tuned,
    "special-default": special_default,
    "bloom": bloom_step,
    "reserve": reserve_step,
    "plant": plant_step,
    "over": finished,
}


def samples() -> dict[str, Any]:
    """Every file the harness may fetch: /sample/<name>.json and /sample/<name>-legal.json."""
    served = catalogue()
    tuned = edition_json(replace(EDITION_1, skill_c_vp=4))
    served["editions"] = {**served["editions"], TUNED: tuned}
    out: dict[str, Any] = {"/sample/catalogue.json": served}
    for name, make in POSITIONS.items():
        position = make()
        out[f"/sample/{name}.json"] = position["view"]
        out[f"/sample/{name}-legal.json"] = position["legal"]
    return out
