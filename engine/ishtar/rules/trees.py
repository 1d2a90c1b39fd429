"""Tree cards and trees: the market, free grass spaces, and what a player can plant.

A tree goes on a free grass space: a grass space of a placed vegetation tile with no tree and
no blooming token. After each purchase or reservation a new card is revealed from the draw
pile into the market, with a tree while trees remain; a card without a tree cannot be bought.
"""

from __future__ import annotations

from engine.ishtar.rules.gems import covers
from engine.ishtar.state import State


def free_grass(state: State) -> list[int]:
    """Cells of free grass spaces, in cell order."""
    trees = state.trees
    return [c for c, f in enumerate(state.flowers) if f == 0 and c not in trees]


def has_free_grass(state: State) -> bool:
    trees = state.trees
    return any(f == 0 and c not in trees for c, f in enumerate(state.flowers))


def plantable_cards(state: State) -> list[int]:
    """Cards the current player can pay for now: market cards with a tree, or the reserved card."""
    gems = state.gems[state.current]
    deck = state.ed.tree_cards
    cards = [
        c
        for c in state.market
        if c in state.market_trees and covers(gems, deck[c].cost)
    ]
    reserved = state.reserved[state.current]
    if reserved is not None and covers(gems, deck[reserved].cost):
        cards.append(reserved)
    return cards


def can_plant(state: State) -> bool:
    return bool(plantable_cards(state)) and has_free_grass(state)


def take_from_market(state: State, card: int) -> dict[str, object]:
    """State changes for removing ``card`` from the market and revealing the next card."""
    market = list(state.market)
    slot = market.index(card)
    market_trees = set(state.market_trees)
    market_trees.discard(card)
    deck = state.deck
    trees_left = state.trees_left
    if deck:
        market[slot] = deck[0]
        deck = deck[1:]
        if trees_left > 0:
            market_trees.add(market[slot])
            trees_left -= 1
    else:
        del market[slot]
    return {
        "market": tuple(market),
        "market_trees": frozenset(market_trees),
        "deck": deck,
        "trees_left": trees_left,
    }
