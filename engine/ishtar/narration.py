"""Words for clients: ``preview`` of a legal action and ``narrate`` for the game log.

The log line is a message (docs/i18n.md, engine/ishtar/words.py), which `english` words as
the log has always said it. An undo is told with the step it takes back, so everyone
reading the log sees what was undone ("Blue took back: placed a line tile and collected 1
red gem").
"""

from __future__ import annotations

from typing import Any

from engine.ishtar.codec import encode_action
from engine.ishtar.errors import IllegalAction
from engine.ishtar.game import apply, apply_legal
from engine.ishtar.rules import choose, place, special, undo
from engine.ishtar.rules.gems import as_counts
from engine.ishtar.state import Action, State
from engine.ishtar.views import face_up_top, gems_json, tile_json
from engine.ishtar.words import english, gems, log, skill_text, word
from engine.messages import Message, seat


def preview(state: State, action: Action) -> dict[str, Any]:
    """What a legal action would do, for a client to show before it is played; with
    ``"final": true`` when it can never be taken back (`is_final`)."""
    shown = _preview(state, action)
    if action.type not in ("place", "undo") and is_final(state, action):
        return {**shown, "final": True}
    return shown


def legal_preview(state: State, action: Action) -> dict[str, Any]:
    """``preview(state, action)`` for an action known to be legal (one of
    ``legal_actions(state)``): the same, but whether it is final is read off the rules
    (``undo.is_final_step``) rather than found by applying it."""
    shown = _preview(state, action)
    if action.type not in ("place", "undo") and undo.is_final_step(state, action):
        return {**shown, "final": True}
    return shown


def is_final(state: State, action: Action) -> bool:
    """Whether ``action`` can never be undone: it reveals hidden information (a choice
    turns the next tile of a pile face up; planting or reserving a market card draws a new
    card while the draw pile has one) or it ends the turn (engine.ishtar.rules.undo). A
    placement never is (the special step follows it), nor an undo, nor an illegal action."""
    try:
        after = apply(state, action)
    except IllegalAction:
        return False
    return (
        after.turn != state.turn or after.phase == "over" or undo.reveals(state, after)
    )


def _preview(state: State, action: Action) -> dict[str, Any]:
    if action.type == "choose" and action.pile is not None:
        top = face_up_top(state, action.pile)
        return {
            "cost": choose.cost_of(state, action.pile),
            "tile": None if top is None else tile_json(state.ed, top),
        }
    if action.type == "place" and action.at is not None and action.rotation is not None:
        assert state.hand is not None
        shape = state.ed.tiles[state.hand].shape
        cells = state.geo.cells_of(shape, action.at, action.rotation)
        index = state.geo.index
        covered = tuple(index[h] for h in cells if h in index)
        found: dict[str, Any] = {
            "cells": [list(h) for h in cells],
            "gems": gems_json(place.gems_under(state, covered)),
        }
        lost = special.assistant_lost(state, covered)
        if lost is not None:
            found.update(no_assistant(lost))
        return found
    if action.type == "plant" and action.card is not None:
        card = state.ed.tree_cards[action.card]
        return {"vp": card.vp, "cost": gems_json(card.cost)}
    if action.type == "bloom":
        return {"cells": [list(h) for h in action.cells]}
    if action.type == "assistant":
        # where the assistant would stand (the icon's space), so a client draws it there
        # without finding the icon itself
        space = special.icon(state)
        return {} if space is None else {"at": list(state.geo.hexes[space[1]])}
    if action.type == "undo" and state.steps:
        last = state.steps[-1]
        deed = _undone_deed(state)
        return {"undoes": encode_action(last), "text": english(deed), "message": deed}
    return {}


def no_assistant(lost: str) -> dict[str, Any]:
    """A placement preview's note that its assistant icon gives nothing (``lost`` is
    ``special.NO_SUPPLY`` or ``BED_TAKEN``): the English and its message."""
    note = special.lost_message(lost)
    return {"no_assistant": english(note), "no_assistant_message": note}


def narrate(state: State, action: Action) -> Message:
    """One line for the game log, from the state before ``action``, as a message
    (``ishtar.log.move`` or ``ishtar.log.undo``)."""
    who = seat(state.current)
    if action.type == "undo" and state.steps:
        return log("undo", seat=who, deed=_undone_deed(state))
    return log("move", seat=who, deed=_deed(state, action))


_EDITION_DEEDS = frozenset(
    {"assistant", "skill", "pass", "bloom", "reserve", "plant", "end"}
)
"""Actions whose `_deed` reads nothing of the state but its edition (``state.ed``)."""


def _undone_deed(state: State) -> Message:
    """The deed of the last undoable step, told from the state before it. A deed that reads
    only the edition is told from ``state`` itself, which saves replaying the turn."""
    last = state.steps[-1]
    before = state if last.type in _EDITION_DEEDS else _before_last(state)
    return _deed(before, last)


def _before_last(state: State) -> State:
    """The state before the last undoable step (what an undo leads to): its steps were
    played from the checkpoint once, so they are replayed unchecked."""
    return undo.rewind(state, apply_legal)


def _deed(state: State, action: Action) -> Message:
    """What the current player does with ``action``, without the subject."""
    t = action.type
    if t == "choose" and action.pile is not None:
        counts = as_counts(action.pay) or (0, 0, 0)
        top = face_up_top(state, action.pile)
        return log(
            "deed.choose",
            can="first" if state.can is None else "moved",
            pile=choose.pile_label(action.pile),
            paid=len(action.pay),
            gems=gems(counts),
            tile=word("a_tile", shape=state.ed.tiles[top].shape)
            if top
            else word("face_down_tile"),
        )
    if t == "place" and state.hand is not None:
        shown = preview(state, action)
        found = shown["gems"]
        counts = (found["purple"], found["red"], found["white"])
        lost = shown.get("no_assistant_message")
        params: dict[str, Any] = {
            "shape": state.ed.tiles[state.hand].shape,
            "collected": sum(counts),
            "gems": gems(counts),
            "lost": "none" if lost is None else "lost",
        }
        if lost is not None:
            params["why"] = lost
        return log("deed.place", **params)
    if t == "discard" and state.hand is not None:
        return log("deed.discard", shape=state.ed.tiles[state.hand].shape)
    if t == "assistant":
        return log("deed.assistant")
    if t == "skill" and action.skill is not None:
        return log(
            "deed.skill", skill=action.skill, text=skill_text(state.ed, action.skill)
        )
    if t == "pass":
        return log("deed.pass")
    if t == "bloom" and action.token is not None:
        return log("deed.bloom", flowers=sum(state.ed.blooming_tokens[action.token]))
    if t == "reserve" and action.card is not None:
        return log("deed.reserve", card=word(f"tree.{action.card}"))
    if t == "plant" and action.card is not None:
        card = state.ed.tree_cards[action.card]
        return log(
            "deed.plant",
            tree=word(f"a_tree.{action.card}"),
            gems=gems(card.cost),
            vp=card.vp,
        )
    if t == "end":
        return log("deed.end")
    return log("deed.other", action=t)
