"""Words for clients: ``preview`` of a legal action and ``narrate`` for the game log.

An undo is told with the step it takes back, so everyone reading the log sees what was
undone ("Blue took back: placed a line tile and collected 1 red gem").
"""

from __future__ import annotations

from typing import Any

from engine.ishtar.codec import encode_action
from engine.ishtar.components import (
    BLOOMING_TOKENS,
    PLAYER_COLOURS,
    SKILLS,
    TILES,
    TREE_CARDS,
)
from engine.ishtar.game import apply
from engine.ishtar.rules import choose, place, special, undo
from engine.ishtar.rules.gems import as_counts, describe
from engine.ishtar.state import Action, State
from engine.ishtar.views import face_up_top, gems_json, tile_json


def preview(state: State, action: Action) -> dict[str, Any]:
    """What a legal action would do, for a client to show before it is played."""
    if action.type == "choose" and action.pile is not None:
        top = face_up_top(state, action.pile)
        return {
            "cost": choose.cost_of(state, action.pile),
            "tile": None if top is None else tile_json(top),
        }
    if action.type == "place" and action.at is not None and action.rotation is not None:
        assert state.hand is not None
        cells = state.geo.cells_of(TILES[state.hand].shape, action.at, action.rotation)
        index = state.geo.index
        covered = tuple(index[h] for h in cells if h in index)
        found: dict[str, Any] = {
            "cells": [list(h) for h in cells],
            "gems": gems_json(place.gems_under(state, covered)),
        }
        lost = special.assistant_lost(state, covered)
        if lost is not None:
            found["no_assistant"] = lost
        return found
    if action.type == "plant" and action.card is not None:
        card = TREE_CARDS[action.card]
        return {"vp": card.vp, "cost": gems_json(card.cost)}
    if action.type == "bloom":
        return {"cells": [list(h) for h in action.cells]}
    if action.type == "undo" and state.steps:
        last = state.steps[-1]
        return {"undoes": encode_action(last), "text": _deed(_before_last(state), last)}
    return {}


def narrate(state: State, action: Action) -> str:
    """One line for the game log, from the state before ``action``."""
    who = PLAYER_COLOURS[state.current].capitalize()
    if action.type == "undo" and state.steps:
        return f"{who} took back: {_deed(_before_last(state), state.steps[-1])}"
    return f"{who} {_deed(state, action)}"


def _before_last(state: State) -> State:
    """The state before the last undoable step (what an undo leads to)."""
    return undo.rewind(state, apply)


def _deed(state: State, action: Action) -> str:
    """What the current player does with ``action``, without the subject."""
    t = action.type
    if t == "choose" and action.pile is not None:
        counts = as_counts(action.pay) or (0, 0, 0)
        paid = "" if not action.pay else f" (paying {describe(counts)})"
        top = face_up_top(state, action.pile)
        what = f"a {TILES[top].shape} tile" if top else "the face-down tile"
        verb = (
            "put the watering can on"
            if state.can is None
            else "moved the watering can to"
        )
        return f"{verb} {choose.pile_label(action.pile)}{paid} and took {what}"
    if t == "place" and state.hand is not None:
        shape = TILES[state.hand].shape
        gems = preview(state, action)["gems"]
        counts = (gems["purple"], gems["red"], gems["white"])
        got = "" if not any(counts) else f" and collected {describe(counts)}"
        lost = preview(state, action).get("no_assistant")
        note = "" if lost is None else f" (no assistant possible: {lost})"
        return f"placed a {shape} tile{got}{note}"
    if t == "discard" and state.hand is not None:
        return f"could not place the {TILES[state.hand].shape} tile and discarded it"
    if t == "assistant":
        return "put an assistant on the new flowerbed"
    if t == "skill" and action.skill is not None:
        return f"unlocked skill {action.skill} ({SKILLS[action.skill].text})"
    if t == "pass":
        return "passed on the special action"
    if t == "bloom" and action.token is not None:
        flowers = sum(BLOOMING_TOKENS[action.token])
        return f"laid a blooming token with {flowers} flowers"
    if t == "reserve" and action.card is not None:
        return f"reserved the {TREE_CARDS[action.card].name} tree card"
    if t == "plant" and action.card is not None:
        card = TREE_CARDS[action.card]
        article = "an" if card.name[0] in "AEIOU" else "a"
        return f"planted {article} {card.name} for {describe(card.cost)} ({card.vp} VP)"
    if t == "end":
        return "ended the turn"
    return t
