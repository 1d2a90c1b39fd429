"""The game as a state machine: whose turn, which actions are legal, and applying one.

Each phase is handled by one module of ``engine.rules``; this module only dispatches, so the
contract (docs/games/ishtar/contract.md) stays the same shape for any game. ``undo`` (engine.rules.undo) is
an action of every phase: after each step the undo record is kept up to date. A turn ends
only with ``end`` (engine.rules.turn), except in games begun before engine 1.2.0, whose
turns end by themselves when nothing is left to do (``turn.settle``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import ModuleType
from typing import Any

from engine.ishtar.codec import decode_action
from engine.ishtar.editions import FIRST
from engine.ishtar.errors import IllegalAction
from engine.ishtar.rules import bloom, choose, place, plant, reserve, special, undo
from engine.ishtar.rules.turn import settle
from engine.ishtar.setup import set_up
from engine.ishtar.state import ACTION_TYPES, Action, State
from engine.ishtar.words import raw, refusal, word
from engine.messages import Message

_STEP: dict[str, ModuleType] = {
    "choose": choose,
    "place": place,
    "special": special,
    "bloom": bloom,
    "reserve": reserve,
    "plant": plant,
}

_AFTER_SPECIAL = frozenset({"bloom", "reserve", "plant"})
"""Steps of a turn that come after its special action."""

SPECIAL_IS_OVER = refusal("special_over")
"""Why a special action comes too late: "this turn's special action is over: it comes once,
right after the tile is placed (one skill per turn, and it cannot be saved)"."""


def current_player(state: State) -> int | None:
    """The seat that must act, or None once the game is over."""
    return None if state.phase == "over" else state.current


def is_over(state: State) -> bool:
    return state.phase == "over"


def legal_actions(state: State) -> list[Action]:
    """Every legal action of the current player, in a deterministic order."""
    if state.phase == "over":
        return []
    actions: list[Action] = _STEP[state.phase].legal(state)
    return actions + undo.legal(state)


def why_illegal(state: State, action: Action) -> Message | None:
    """None if ``action`` is legal now, else the message saying why not (``ishtar.reason.*``;
    `english` words it as the errors do)."""
    if state.phase == "over":
        return refusal("over")
    if action.type == "undo":
        return undo.reason(state)
    if action.type not in ACTION_TYPES[state.phase]:
        if action.type in ACTION_TYPES["special"] and state.phase in _AFTER_SPECIAL:
            return refusal("special_over")
        return refusal(
            "wrong_step", phase=word(f"phase.{state.phase}"), action=raw(action.type)
        )
    reason: Message | None = _STEP[state.phase].reason(state, action)
    return reason


def apply(state: State, action: Action) -> State:
    """The state after ``action``; ``state`` itself is never changed. Raises IllegalAction."""
    reason = why_illegal(state, action)
    if reason is not None:
        raise IllegalAction(reason)
    return _advance(state, action)


def apply_legal(state: State, action: Action) -> State:
    """``apply`` for an action known to be legal in ``state`` (one of its
    ``legal_actions``, or a step already played from it): the same state, without checking
    the action again (checking is a good part of the work of a quick step)."""
    return _advance(state, action)


def _advance(state: State, action: Action) -> State:
    """Apply a legal action: the step and its undo record."""
    if action.type == "undo":
        return undo.rewind(state, _advance)
    after: State = _STEP[state.phase].apply(state, action)
    return settle(undo.record(state, action, after))


def replay(
    setup: Mapping[str, Any], actions: Iterable[Action | Mapping[str, Any]]
) -> State:
    """Play ``actions`` from the set-up ``{"players", "seed", "layout", "first_player"}``
    (and ``"turn_end"`` and ``"edition"``, as the options: ``"explicit"`` when absent, as
    for a new game, and edition `FIRST`: a set-up that names no edition is from before
    editions, whatever the default of new games is now). The options may also sit under
    ``"options"``, as a server stores a game's set-up (``{"players", "seed", "options"}``)."""
    options = setup.get("options")
    named = {**setup, **options} if isinstance(options, Mapping) else setup
    state = set_up(
        setup["players"],
        setup["seed"],
        named.get("layout"),
        named.get("first_player"),
        auto_end=named.get("turn_end") == "auto",
        edition=named.get("edition", FIRST),
    )
    for item in actions:
        action = item if isinstance(item, Action) else decode_action(item)
        state = apply(state, action)
    return state
