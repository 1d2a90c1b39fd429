"""Hypothesis random playouts on every floor, 2 to 4 players, teams and chosen boards:
invariants at every step (conservation of tiles and gems, determinism, codec round trips,
no secret in any view, legality agreeing with why_illegal, undo restoring the state)."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.babylon import (
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
from engine.babylon.components import TILES
from engine.babylon.floors import FLOOR_IDS
from engine.babylon.state import Action, State
from tests.engine.babylon.invariants import check_all, check_view_hides_secrets
from tests.support.examples import examples

MAX_STEPS = 6000
"""A bound on a game's actions. Nothing in the rules bounds a game (a path may fill nothing,
and undo goes back), but the random player below harvests often and undoes rarely, so its
games end far sooner (a few hundred actions)."""

options = st.fixed_dictionaries(
    {
        "floor": st.sampled_from(FLOOR_IDS),
        "scoreboards": st.sampled_from(["random", "choose"]),
        "first_player": st.none() | st.integers(0, 1),
    }
)


def _gems_harvested(after: State) -> int:
    """The gems the harvest that made `after` sent back to the supply: each harvested
    tile held as many gems as flowers (R-8)."""
    return sum(TILES[h.tile].flowers for h in after.harvested)


def playout(players: int, seed: int, opts: dict[str, Any]) -> None:
    rng = random.Random(seed)
    state = new_game(players, seed, opts)
    assert new_game(players, seed, opts) == state
    actions: list[dict[str, Any]] = []
    placed = returned = 0
    undoable: list[State] = []
    for step in range(MAX_STEPS):
        check_all(state)
        assert sum(state.gems) == placed - returned, "a gem was lost or made"
        if step % 5 == 0:
            check_view_hides_secrets(state)
            seat = state.current
            view = json.loads(json.dumps(view_for(state, seat)))
            assert view_for(sample_state(view, seed + step), seat) == view
        if is_over(state):
            break
        legal = legal_actions(state)
        assert legal, "a live game always offers an action"
        assert len(legal) <= (8 if state.phase == "scoreboard" else 5)
        if state.phase == "irrigate" and not state.path:
            assert len(legal) <= 4
        for action in legal:
            assert why_illegal(state, action) is None
        irrigating = [a for a in legal if a.type == "irrigate"]
        roll = rng.random()
        if state.path and roll < 0.08:
            action = Action("undo")
        elif irrigating and (not state.path or roll < 0.6):
            action = rng.choice(irrigating)
        else:
            action = rng.choice([a for a in legal if a.type != "undo"])
        encoded = json.loads(json.dumps(encode_action(action)))
        assert decode_action(encoded) == action
        before = encode_state(state)
        after = apply(state, action)
        assert encode_state(state) == before, "apply mutated its input"
        assert decode_state(json.loads(json.dumps(encode_state(after)))) == after
        if action.type == "irrigate":
            placed += 1
            undoable.append(state)
        elif action.type == "undo":
            placed -= 1
            assert after == undoable.pop(), "undo did not restore the state before"
        elif action.type == "harvest":
            returned += _gems_harvested(after)
            undoable.clear()
        assert len(undoable) == len(after.path)
        actions.append(encoded)
        state = after
    assert is_over(state), "the game did not end within the bound"
    again = replay(
        {"players": players, "seed": seed, "options": opts},
        [decode_action(a) for a in actions],
    )
    assert again == state, "replay is not deterministic"


@settings(max_examples=examples(6), deadline=None)
@given(seed=st.integers(0, 2**32), opts=options)
def test_random_playouts_two_players(seed: int, opts: dict[str, Any]) -> None:
    playout(2, seed, opts)


@settings(max_examples=examples(6), deadline=None)
@given(seed=st.integers(0, 2**32), opts=options)
def test_random_playouts_three_players(seed: int, opts: dict[str, Any]) -> None:
    playout(3, seed, opts)


@settings(max_examples=examples(6), deadline=None)
@given(seed=st.integers(0, 2**32), opts=options, teams=st.booleans())
def test_random_playouts_four_players(
    seed: int, opts: dict[str, Any], teams: bool
) -> None:
    playout(4, seed, {**opts, "teams": teams})
