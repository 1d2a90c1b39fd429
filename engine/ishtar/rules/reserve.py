"""Skill I: reserve one face-up tree card with its tree; the market is refilled at once.

The reserved card keeps its tree and can be planted on a later planting step (this turn's
included) by paying its cost. Only a card bearing a tree can be reserved.
"""

from __future__ import annotations

from engine.ishtar.rules.trees import take_from_market
from engine.ishtar.rules.turn import to_plant
from engine.ishtar.state import Action, State, replace_at
from engine.ishtar.words import raw, refusal
from engine.messages import Message


def legal(state: State) -> list[Action]:
    return [Action("reserve", card=c) for c in state.market if c in state.market_trees]


def reason(state: State, action: Action) -> Message | None:
    if action.card not in state.market:
        return refusal("not_in_market", card=raw(action.card))
    if action.card not in state.market_trees:
        return refusal("no_tree_to_reserve")
    return None


def apply(state: State, action: Action) -> State:
    assert action.card is not None
    changes = take_from_market(state, action.card)
    return to_plant(
        state.evolve(
            reserved=replace_at(state.reserved, state.current, action.card), **changes
        )
    )
