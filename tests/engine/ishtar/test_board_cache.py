"""The garden analysis travels from state to state while the vegetation stays the same.

`State.evolve` hands the ``BOARD_DERIVED`` cache entries (gardens, the placement frontier)
to the new state unless it is given one of the fields they are computed from. Whatever was
handed on must be exactly what the new state would compute for itself.
"""

from __future__ import annotations

import random

from engine.ishtar import apply, is_over, legal_actions, new_game
from engine.ishtar.rules.gardens import Gardens, gardens
from engine.ishtar.rules.place import frontier
from engine.ishtar.state import BOARD_DERIVED
from tests.engine.ishtar.builders import fresh


def same_gardens(a: Gardens, b: Gardens) -> bool:
    return all(getattr(a, name) == getattr(b, name) for name in Gardens.__slots__)


def test_evolve_hands_the_analysis_on_unless_its_fields_change() -> None:
    state = new_game(2, 7)
    analysis = gardens(state)
    assert state.evolve(phase="plant").cache["gardens"] is analysis
    assert "gardens" not in state.evolve(flowers=state.flowers).cache
    assert "gardens" not in state.evolve(assistants=dict(state.assistants)).cache
    assert set(BOARD_DERIVED) == {"gardens", "frontier"}


def test_what_was_handed_on_is_what_each_state_would_compute() -> None:
    handed_on = 0
    for seed in range(6):
        rng = random.Random(seed)
        state = new_game(2 + seed % 3, seed)
        while not is_over(state):
            if "gardens" in state.cache:
                handed_on += 1
                assert same_gardens(state.cache["gardens"], Gardens(fresh(state)))
            if "frontier" in state.cache:
                assert state.cache["frontier"] == frontier(fresh(state))
            gardens(state)
            if state.phase == "place" and state.hand is not None:
                frontier(state)
            state = apply(state, rng.choice(legal_actions(state)))
    assert handed_on > 100, "most states find the analysis made"
