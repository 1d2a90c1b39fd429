"""The engine's fast paths give what the plain definitions give (docs/benchmarks.md,
"Engine (Ishtar)").

Over random games of every player count, edition and turn-end rule, undoing often:

- ``undo.is_final_step`` (whether a legal action can never be undone, read off the rules)
  agrees with ``narration.is_final`` (which plays the action to see);
- ``game.apply_legal`` (no checking) reaches the same state as ``apply``;
- an undo's log line and preview, which replay the turn only when the deed reads the board,
  say what replaying the turn says;
- a view's ``standing`` is its viewed ancestor's object exactly while nothing it is scored
  from changed, and always equals the scores computed afresh;
- ``bloom.possible`` (is there a token and a spot for it) says what ``bloom.legal`` lists;
- ``State.evolve`` copies every field (``state._copy_fields`` is written out by hand).
"""

from __future__ import annotations

import random
from dataclasses import fields

import pytest

from engine.ishtar import (
    apply,
    final_scores,
    is_over,
    legal_actions,
    new_game,
    view_for,
)
from engine.ishtar.game import apply_legal
from engine.ishtar.narration import (
    _before_last,
    _deed,
    _undone_deed,
    is_final,
    narrate,
    preview,
)
from engine.ishtar.rules import bloom, undo
from engine.ishtar.scoring import with_tiebreak_message
from engine.ishtar.state import State, _copy_fields
from engine.ishtar.views import SCORE_FIELDS, _differs
from engine.ishtar.words import log
from engine.messages import seat

GAMES = (
    (2, 41, {"edition": "1"}),
    (2, 42, {"layout": "random", "turn_end": "auto"}),
    (3, 43, {"edition": "1", "turn_end": "auto"}),
    (3, 44, {}),
    (4, 45, {"layout": "random"}),
    (4, 46, {"edition": "1"}),
)


def played(players: int, seed: int, options: dict[str, str]) -> list[State]:
    """Every state of a random game that undoes a third of the time it can."""
    rng = random.Random(seed)
    state = new_game(players, seed, options)
    states = [state]
    while not is_over(state):
        actions = legal_actions(state)
        undos = [a for a in actions if a.type == "undo"]
        action = undos[0] if undos and rng.random() < 0.3 else rng.choice(actions)
        state = apply(state, action)
        states.append(state)
    return states


@pytest.mark.parametrize(("players", "seed", "options"), GAMES)
def test_final_steps_and_unchecked_steps_agree_with_playing_them(
    players: int, seed: int, options: dict[str, str]
) -> None:
    finals: set[tuple[str, bool]] = set()
    for state in played(players, seed, options):
        for action in legal_actions(state):
            final = undo.is_final_step(state, action)
            assert final == is_final(state, action), action
            finals.add((action.type, final))
            if action.type != "place":  # placements: one per state is enough
                assert apply_legal(state, action) == apply(state, action), action
        placements = [a for a in legal_actions(state) if a.type == "place"]
        if placements:
            assert apply_legal(state, placements[-1]) == apply(state, placements[-1])
    assert ("choose", True) in finals and ("end", True) in finals
    assert ("pass", False) in finals


@pytest.mark.parametrize(("players", "seed", "options"), GAMES)
def test_an_undo_tells_the_deed_it_takes_back_as_replaying_the_turn_does(
    players: int, seed: int, options: dict[str, str]
) -> None:
    told: set[str] = set()
    for state in played(players, seed, options):
        if not state.steps:
            continue
        last = state.steps[-1]
        told.add(last.type)
        replayed = _deed(_before_last(state), last)
        assert _undone_deed(state) == replayed
        assert preview(state, undo.UNDO)["message"] == replayed
        assert narrate(state, undo.UNDO) == log(
            "undo", seat=seat(state.current), deed=replayed
        )
    assert {"place", "pass"} <= told


@pytest.mark.parametrize(("players", "seed", "options"), GAMES)
def test_a_bloom_is_possible_exactly_when_one_is_listed(
    players: int, seed: int, options: dict[str, str]
) -> None:
    seen: set[bool] = set()
    for state in played(players, seed, options)[::2]:
        if state.phase == "over":
            continue
        for kind in ("single", "double"):
            blooming = state.evolve(phase="bloom", bloom=kind)
            possible = bloom.possible(blooming)
            assert possible == bool(bloom.legal(blooming)), (kind, state.turn)
            seen.add(possible)
    assert seen == {True, False}


@pytest.mark.parametrize(("players", "seed", "options"), GAMES)
def test_the_standing_is_shared_while_nothing_it_is_scored_from_changes(
    players: int, seed: int, options: dict[str, str]
) -> None:
    rng = random.Random(seed)
    before = new_game(players, seed, options)
    shared: set[bool] = set()
    while not is_over(before):
        old = view_for(before, None)  # before the step, so that its view is inherited
        forward = [a for a in legal_actions(before) if a.type != "undo"]
        state = apply(before, rng.choice(forward))
        view = view_for(state, None)
        scores = final_scores(state)
        assert (view["standing"] or view["scores"]) == (
            scores if view["standing"] else with_tiebreak_message(scores)
        )
        alike = not any(_differs(before, state, name) for name in SCORE_FIELDS)
        if not is_over(state):
            assert (view["standing"] is old["standing"]) == alike
            shared.add(alike)
        before = state
    assert shared == {True, False}


def test_evolve_copies_every_field() -> None:
    state = new_game(3, 7, {})
    copy = object.__new__(State)
    _copy_fields(state, copy)
    for f in fields(State):
        if f.name != "cache":
            assert getattr(copy, f.name) is getattr(state, f.name), f.name
    assert state.evolve() == state
    assert state.evolve(turn=5).turn == 5
