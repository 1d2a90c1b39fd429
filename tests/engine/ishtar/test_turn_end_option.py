"""The ``turn_end`` option (docs/games/ishtar/rules.md, "A turn ends with end"): games begun
before engine 1.2.0 keep turns that end by themselves, through the options, the codec, the
views and the bots' samples; new games end a turn with ``end`` only."""

from __future__ import annotations

import json

from engine.ishtar import (
    Action,
    apply,
    decode_state,
    encode_state,
    legal_actions,
    new_game,
    replay,
    sample_state,
    view_for,
)


def test_new_games_wait_for_end_and_games_with_the_old_rule_say_so() -> None:
    state = new_game(2, 5, {"first_player": 0})
    while state.phase != "plant":
        state = apply(state, next(a for a in legal_actions(state) if a.type != "undo"))
    assert (state.current, state.auto_end) == (0, False)
    assert Action("end") in legal_actions(state)
    assert new_game(2, 5, {"turn_end": "auto"}).auto_end
    assert not new_game(2, 5).auto_end


def test_states_written_before_engine_1_2_are_read_with_the_old_rule() -> None:
    state = new_game(2, 5, {"first_player": 0})
    data = json.loads(json.dumps(encode_state(state)))
    assert data["format"] == 3 and data["auto_end"] is False
    assert decode_state(data) == state
    old = {k: v for k, v in data.items() if k != "auto_end"} | {"format": 2}
    assert decode_state(old) == state.evolve(auto_end=True)
    auto = state.evolve(auto_end=True)
    assert decode_state(json.loads(json.dumps(encode_state(auto)))) == auto


def test_the_rule_is_public_and_the_bots_samples_keep_it() -> None:
    for options, rule in (({}, "explicit"), ({"turn_end": "auto"}, "auto")):
        state = new_game(3, 9, options)
        view = view_for(state, 1)
        assert view["turn_end"] == rule
        assert sample_state(view, 4).auto_end == (rule == "auto")


def test_replay_takes_the_rule_from_the_setup() -> None:
    setup = {"players": 2, "seed": 5, "layout": None, "first_player": 0}
    assert replay(setup, []).auto_end is False
    assert replay({**setup, "turn_end": "auto"}, []).auto_end is True
