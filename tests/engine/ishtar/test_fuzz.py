"""Fuzzing: any action, however odd, gets a reason or is legal; apply agrees with why_illegal."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ishtar import (
    IllegalAction,
    apply,
    decode_action,
    encode_action,
    is_over,
    legal_actions,
    new_game,
)
from engine.ishtar.state import Action
from tests.engine.ishtar.in_english import why_illegal
from tests.support.examples import examples

cells = st.tuples(st.integers(-12, 12), st.integers(-12, 12))
actions = st.builds(
    Action,
    type=st.sampled_from(
        ["choose", "place", "discard", "assistant", "skill", "pass", "bloom", "reserve",
         "plant", "end", "fly"]
    ),
    pile=st.none() | st.integers(-2, 8),
    pay=st.lists(st.sampled_from(["purple", "red", "white", "gold"]), max_size=3).map(tuple),
    at=st.none() | cells,
    rotation=st.none() | st.integers(-1, 7),
    skill=st.none() | st.sampled_from(list("ABCDEFGHIJZ")),
    token=st.none() | st.sampled_from(["F2", "F3", "F1F1", "F1F2", "F9"]),
    cells=st.lists(cells, max_size=3).map(tuple),
    card=st.none() | st.integers(-1, 28),
)  # fmt: skip


@settings(max_examples=examples(300), deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 120), action=actions)
def test_any_action_is_explained_or_legal(
    seed: int, steps: int, action: Action
) -> None:
    rng = random.Random(seed)
    state = new_game(2 + seed % 3, seed)
    for _ in range(steps):
        if is_over(state):
            break
        state = apply(state, rng.choice(legal_actions(state)))
    reason = why_illegal(state, action)
    assert reason is None or (isinstance(reason, str) and reason)
    if reason is None:
        apply(state, action)
        # fields that do not belong to the action's type are ignored
        assert decode_action(encode_action(action)) in legal_actions(state)
    else:
        with pytest.raises(IllegalAction) as info:
            apply(state, action)
        assert info.value.reason == reason
