"""Bots see only their seat's view: the real order of the piles never decides a step.

The hard bot looks past the harvest, where the tiles that replace the harvested ones come
from the piles. It must deal those itself (`engine.sample_state`): every state it hands to
the engine is one it sampled, or one that `apply` made from such a state.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

import bots.babylon.hard
from bots.babylon import LEVELS
from bots.babylon.turns import MEMO
from engine import babylon
from engine.babylon import legal_actions, view_for
from tests.bots.babylon.conftest import QUICK_HARD, positions, quick_bot


def _reordered(state: Any, seed: int) -> Any:
    """The same position with both piles in another order (what no seat can see)."""
    piles = []
    for pile in state.piles:
        shuffled = list(pile)
        random.Random(seed).shuffle(shuffled)
        if shuffled == list(pile):  # a shuffle may leave a short pile as it was
            shuffled = shuffled[1:] + shuffled[:1]
        piles.append(tuple(shuffled))
    return replace(state, piles=tuple(piles), _memo={})


@pytest.mark.parametrize("level", LEVELS)
def test_states_that_differ_only_in_pile_order_get_the_same_step(level: str) -> None:
    compared = 0
    for state, seat in positions(2, seed=21, floor="higher", every=3):
        other = _reordered(state, compared)
        assert other.piles != state.piles or len(state.piles[1]) < 2
        MEMO.clear()
        one = quick_bot(level).act(view_for(state, seat), legal_actions(state), 4)
        MEMO.clear()
        two = quick_bot(level).act(view_for(other, seat), legal_actions(other), 4)
        assert one == two
        compared += 1
    assert compared > 10


class Provenance:
    """The states born of `sample_state` (and of `apply` on them); any other is refused."""

    def __init__(self) -> None:
        self.sampled: set[int] = set()
        self.keep: list[Any] = []
        self.samples = 0

    def mark(self, state: Any) -> Any:
        self.sampled.add(id(state))
        self.keep.append(state)
        return state

    def check(self, state: Any) -> None:
        assert id(state) in self.sampled, "the bot looked at a state it did not sample"


def test_the_hard_bot_only_looks_into_states_it_sampled(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen = Provenance()

    def sample(view: dict[str, Any], seed: int) -> Any:
        seen.samples += 1
        return seen.mark(babylon.sample_state(view, seed))

    def apply(state: Any, action: Any) -> Any:
        seen.check(state)
        return seen.mark(babylon.apply(state, action))

    real_from_state = bots.babylon.hard.from_state

    def from_state(state: Any, seat: int) -> Any:
        seen.check(state)
        return real_from_state(state, seat)

    monkeypatch.setattr(bots.babylon.hard, "sample_state", sample)
    monkeypatch.setattr(bots.babylon.hard, "apply", apply)
    monkeypatch.setattr(bots.babylon.hard, "from_state", from_state)
    for state, seat in positions(2, seed=2, floor="lower", every=4):
        MEMO.clear()
        bot = bots.babylon.hard.HardBot(**QUICK_HARD)
        bot.act(view_for(state, seat), legal_actions(state), 1)
    assert seen.samples > 0
