"""Hypothesis random playouts for 2, 3 and 4 players, checking invariants at every step."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ishtar import (
    apply,
    decode_action,
    decode_state,
    encode_action,
    encode_state,
    is_over,
    legal_actions,
    new_game,
    replay,
    sample_state,
    view_for,
    why_illegal,
)
from engine.ishtar.editions import EDITIONS
from tests.engine.ishtar.builders import fresh
from tests.engine.ishtar.invariants import check_all, check_view_hides_secrets
from tests.support.examples import examples

MAX_STEPS = 1500
"""No game lasts longer: at most 42 turns, each of a few steps plus at most 20 plantings."""


LAYOUTS = st.sampled_from([None, "random"])
EDITION_NAMES = st.sampled_from(sorted(EDITIONS))  # every edition plays to its end


def playout(players: int, seed: int, layout: str | None, edition: str = "1") -> None:
    rng = random.Random(seed)
    state = new_game(players, seed, {"layout": layout, "edition": edition})
    assert state.ed is EDITIONS[edition]
    actions = []
    undoable: list[object] = []  # the state before each step an undo may take back
    for step in range(MAX_STEPS):
        check_all(state)
        if step % 7 == 0:
            check_view_hides_secrets(state)
            sampled = sample_state(view_for(state, state.current), seed + step)
            check_all(sampled)
            # built afresh: sample_state adopts the view it was drawn from
            seen = view_for(state, state.current)
            assert view_for(fresh(sampled), state.current) == seen
            assert view_for(sampled, state.current) == seen
        if is_over(state):
            break
        legal = legal_actions(state)
        assert legal, "a live game always offers an action"
        action = rng.choice(legal)
        assert why_illegal(state, action) is None
        encoded = json.loads(json.dumps(encode_action(action)))
        assert decode_action(encoded) == action
        before = encode_state(state)
        after = apply(state, action)
        assert encode_state(state) == before, "apply mutated its input"
        assert decode_state(json.loads(json.dumps(encode_state(after)))) == after
        if action.type == "undo":
            assert after == undoable.pop(), "undo did not restore the state before"
            assert (after.piles, after.deck) == (state.piles, state.deck)
        elif after.steps == (*state.steps, action):
            undoable.append(state)
        else:
            undoable.clear()
        assert len(undoable) == len(after.steps)
        actions.append(encoded)
        state = after
    assert is_over(state), "game did not end within the bound"
    assert state.turn <= 43
    setup = {"players": players, "seed": seed, "layout": layout, "edition": edition}
    assert replay(setup, actions) == state, "replay is not deterministic"


@settings(max_examples=examples(8), deadline=None)
@given(seed=st.integers(0, 2**32), layout=LAYOUTS, edition=EDITION_NAMES)
def test_random_playouts_two_players(
    seed: int, layout: str | None, edition: str
) -> None:
    playout(2, seed, layout, edition)


@settings(max_examples=examples(8), deadline=None)
@given(seed=st.integers(0, 2**32), layout=LAYOUTS, edition=EDITION_NAMES)
def test_random_playouts_three_players(
    seed: int, layout: str | None, edition: str
) -> None:
    playout(3, seed, layout, edition)


@settings(max_examples=examples(8), deadline=None)
@given(seed=st.integers(0, 2**32), layout=LAYOUTS, edition=EDITION_NAMES)
def test_random_playouts_four_players(
    seed: int, layout: str | None, edition: str
) -> None:
    playout(4, seed, layout, edition)
