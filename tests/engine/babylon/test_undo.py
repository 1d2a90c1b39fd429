"""Undo (R-17): only this turn's irrigation steps, the last first; never the harvest nor
anything before it."""

from __future__ import annotations

from engine.babylon import apply, legal_actions, preview
from tests.engine.babylon.builders import (
    HARVEST,
    UNDO,
    force_floor,
    game,
    irrigate,
    turn,
    walk,
)
from tests.engine.babylon.in_english import why_illegal


def test_r17_undo_takes_back_the_last_irrigate_and_its_gem() -> None:
    start = force_floor(game(), {(0, 0): ("M-g3-1", 1)})
    one = walk(start, [(0, 1)])
    two = walk(one, [(0, 0)])
    assert two.gems[two.index((0, 0))] == 2
    back = apply(two, UNDO)
    assert back == one
    assert back.gems[back.index((0, 0))] == 1  # the gem of an earlier turn stays
    assert apply(back, UNDO) == start


def test_r17_undo_restores_a_tile_the_step_had_filled() -> None:
    start = force_floor(game(), {(0, 1): ("S-r1", 0), (0, 0): ("M-g2-1", 1)})
    filled = walk(start, [(0, 1), (0, 0)])
    assert filled.gems[filled.index((0, 0))] == 2
    assert [w["colour"] for w in preview(filled, HARVEST)["winks"]] == ["red", "green"]
    back = apply(filled, UNDO)
    assert back.gems[back.index((0, 0))] == 1  # no longer filled
    assert [w["colour"] for w in preview(back, HARVEST)["winks"]] == ["red"]


def test_r17_undo_is_legal_only_while_the_path_has_a_tile() -> None:
    state = game()
    assert UNDO not in legal_actions(state)
    assert why_illegal(state, UNDO) == "There is no irrigation step to undo."
    assert legal_actions(walk(state, [(2, 1)]))[-1] == UNDO


def test_r17_the_harvest_is_never_undone_nor_anything_before_it() -> None:
    state = turn(game(), [(0, 1), (0, 0)])
    assert state.path == ()
    assert why_illegal(state, UNDO) == "There is no irrigation step to undo."
    state = walk(state, [(1, 0)])
    state = apply(state, UNDO)
    assert why_illegal(state, UNDO) == "There is no irrigation step to undo."
    assert state.current == 1  # still Orange's turn, the harvest stands


def test_r17_undo_steps_back_one_at_a_time_to_the_well() -> None:
    states = [game()]
    for at in [(0, 1), (0, 0), (1, 0), (2, 0)]:
        states.append(apply(states[-1], irrigate(at)))
    state = states[-1]
    for earlier in reversed(states[:-1]):
        assert preview(state, UNDO) == {"at": list(state.path[-1])}
        state = apply(state, UNDO)
        assert state == earlier
        assert legal_actions(state) == legal_actions(earlier)
