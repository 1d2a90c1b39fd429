"""Fuzzing: any action, however odd, is legal exactly when why_illegal says None, and
apply refuses with that very reason otherwise; any JSON is an action or MalformedAction."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.babylon import (
    IllegalAction,
    MalformedAction,
    apply,
    decode_action,
    encode_action,
    is_over,
    legal_actions,
    new_game,
)
from engine.babylon.floors import FLOOR_IDS
from engine.babylon.state import Action
from tests.engine.babylon.in_english import why_illegal
from tests.support.examples import examples

positions = st.tuples(st.integers(-2, 9), st.integers(-2, 9))
actions = st.builds(
    Action,
    type=st.sampled_from(["scoreboard", "irrigate", "harvest", "undo", "fly"]),
    at=st.none() | positions,
    side=st.none() | st.sampled_from(["A1", "A2", "B1", "C2", "D2", "E1", ""]),
)


@settings(max_examples=examples(150), deadline=None)
@given(
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 100),
    floor_id=st.sampled_from(FLOOR_IDS),
    choose=st.booleans(),
    action=actions,
)
def test_any_action_is_explained_or_legal(
    seed: int, steps: int, floor_id: str, choose: bool, action: Action
) -> None:
    rng = random.Random(seed)
    options = {"floor": floor_id, "scoreboards": "choose" if choose else "random"}
    state = new_game(2 + seed % 3, seed, options)
    for _ in range(steps):
        if is_over(state):
            break
        state = apply(state, rng.choice(legal_actions(state)))
    reason = why_illegal(state, action)
    legal = legal_actions(state)
    # a field that does not belong to the action's type is ignored
    relevant = Action(
        action.type,
        at=action.at if action.type == "irrigate" else None,
        side=action.side if action.type == "scoreboard" else None,
    )
    assert (reason is None) == (relevant in legal)
    if reason is None:
        apply(state, action)
    else:
        assert isinstance(reason, str) and reason.endswith(".")
        with pytest.raises(IllegalAction) as info:
            apply(state, action)
        assert info.value.reason == reason


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=10,
)
action_like = st.fixed_dictionaries(
    {"type": st.sampled_from(["irrigate", "harvest", "undo", "scoreboard"])},
    optional={"at": json_values, "side": json_values, "x": json_values},
)


@settings(max_examples=examples(200), deadline=None)
@given(data=json_values | action_like)
def test_any_json_is_an_action_or_malformed(data: Any) -> None:
    try:
        action = decode_action(data)
    except MalformedAction as error:
        reason = error.reason
    else:
        assert decode_action(encode_action(action)) == action
        return
    assert isinstance(reason, str) and reason.endswith(".")
