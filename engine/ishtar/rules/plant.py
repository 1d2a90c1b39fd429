"""Plant trees (RB), any number per turn: buy a tree card and put its tree on free grass.

The card comes from the market (it must bear a tree) or is the player's reserved card; the
exact printed gems go back to the general supply; a new market card is revealed. The turn ends
with the ``end`` action only: after the last tree the player can afford the step still waits
for it, so the player sees the planting land (and may undo it while no card was revealed).
"""

from __future__ import annotations

from engine.ishtar.rules.gems import covers, minus, plus
from engine.ishtar.rules.trees import free_grass, plantable_cards, take_from_market
from engine.ishtar.rules.turn import end_turn
from engine.ishtar.state import Action, State, replace_at
from engine.ishtar.words import gems, raw, refusal
from engine.messages import Message


def legal(state: State) -> list[Action]:
    grass = [state.geo.hexes[c] for c in free_grass(state)]
    actions = [
        Action("plant", card=card, at=h)
        for card in plantable_cards(state)
        for h in grass
    ]
    actions.append(Action("end"))
    return actions


def reason(state: State, action: Action) -> Message | None:
    if action.type == "end":
        return None
    card = action.card
    seat = state.current
    if card not in state.ed.tree_cards:
        return refusal("no_card", card=raw(card))
    if card != state.reserved[seat]:
        if card not in state.market:
            return refusal("not_in_market", card=raw(card))
        if card not in state.market_trees:
            return refusal("no_tree_to_buy")
    cost = state.ed.tree_cards[card].cost
    if not covers(state.gems[seat], cost):
        return refusal("tree_short", gems=gems(cost))
    cell = state.geo.index.get(action.at) if action.at is not None else None
    if cell is None:
        return refusal("off_board")
    if state.flowers[cell] != 0:
        return refusal("not_grass")
    if cell in state.trees:
        return refusal("tree_there")
    return None


def apply(state: State, action: Action) -> State:
    if action.type == "end":
        return end_turn(state)
    assert action.card is not None
    assert action.at is not None
    seat = state.current
    card = action.card
    cost = state.ed.tree_cards[card].cost
    trees = dict(state.trees)
    trees[state.geo.index[action.at]] = card
    changes: dict[str, object] = {
        "gems": replace_at(state.gems, seat, minus(state.gems[seat], cost)),
        "bank": plus(state.bank, cost),
        "trees": trees,
        "tree_cards": replace_at(
            state.tree_cards, seat, state.tree_cards[seat] + (card,)
        ),
    }
    if card == state.reserved[seat]:
        changes["reserved"] = replace_at(state.reserved, seat, None)
    else:
        changes.update(take_from_market(state, card))
    return state.evolve(**changes)
