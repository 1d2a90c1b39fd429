"""What each game hides, as the conformance suite's own reading of its rules.

``TWINS[game id](encoded state, viewer)`` is the encoded state changed only where `viewer`
may not look: same view, other secrets. A game registered without a twin here fails
`test_every_game_says_what_it_hides`: saying what it hides is the one thing a new game
must add for the hidden-information tests.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

Twin = Callable[[dict[str, Any], int | None], dict[str, Any]]


def _turned(items: list[Any]) -> list[Any]:
    """Another order of the same items (the last first)."""
    return items[-1:] + items[:-1]


def _ishtar(data: dict[str, Any], viewer: int | None) -> dict[str, Any]:
    """docs/games/ishtar/contract.md: the seed, the face-down tiles (every pile but its top,
    the whole pile under the watering can), the removed tiles, the tree deck's order."""
    twin = copy.deepcopy(data)
    for index, pile in enumerate(twin["piles"]):
        if index == twin["can"]:
            twin["piles"][index] = _turned(pile)
        else:
            twin["piles"][index] = _turned(pile[:-1]) + pile[-1:]
    twin["removed"] = twin["removed"][::-1]
    twin["deck"] = _turned(twin["deck"])
    twin["seed"] += 1
    return twin


def _babylon(data: dict[str, Any], viewer: int | None) -> dict[str, Any]:
    """docs/games/babylon/contract.md: the seed, the order of either pile, the reshuffles."""
    twin = copy.deepcopy(data)
    twin["piles"] = {kind: _turned(pile) for kind, pile in twin["piles"].items()}
    twin["seed"] += 1
    twin["reshuffles"] += 1
    return twin


def _toy(data: dict[str, Any], viewer: int | None) -> dict[str, Any]:
    """tests/app/toygame.py: the seed, the deck's order, the other players' hands."""
    twin = copy.deepcopy(data)
    deck = _turned(twin["deck"])
    for seat, hand in enumerate(twin["hands"]):
        if seat != viewer:
            for i in range(min(len(hand), len(deck))):
                hand[i], deck[i] = deck[i], hand[i]
    twin["deck"] = deck
    twin["seed"] += 1
    return twin


TWINS: dict[str, Twin] = {"ishtar": _ishtar, "babylon-gardens": _babylon, "toy": _toy}
