"""The hard bot's budget: a number of look-aheads (the same on every machine), cut short by a
time limit only in live rooms. No timed assertion: the tests count look-aheads."""

from __future__ import annotations

from typing import Any

import pytest

import bots.babylon.hard
from bots.babylon.hard import HardBot, candidates
from bots.babylon.medium import best_plan
from bots.babylon.position import from_view
from bots.babylon.turns import MEMO
from engine.babylon import legal_actions, new_game, view_for


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = bots.babylon.hard.look_ahead

    def look_ahead(*args: Any) -> float:
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(bots.babylon.hard, "look_ahead", look_ahead)
    return calls


def _position():  # type: ignore[no-untyped-def]
    state = new_game(2, 3, {"floor": "higher", "first_player": 0})
    return view_for(state, 0), legal_actions(state)


@pytest.mark.parametrize("budget", [6, 24, 60])
def test_a_plan_spends_at_most_its_look_ahead_budget(
    monkeypatch: pytest.MonkeyPatch, budget: int
) -> None:
    calls = _counting(monkeypatch)
    view, legal = _position()
    HardBot(look_aheads=budget, width=4).act(view, legal, 0)
    assert len(candidates(from_view(view), 4)) > 1
    assert 0 < len(calls) <= budget
    assert budget < 24 or len(calls) > budget // 2  # the budget is used, not ignored


def test_the_later_steps_of_a_turn_cost_no_look_ahead(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = _counting(monkeypatch)
    from engine.babylon import apply

    state = new_game(2, 3, {"floor": "lower", "first_player": 0})
    bot = HardBot(look_aheads=12, width=4)
    first = bot.act(view_for(state, 0), legal_actions(state), 0)
    spent = len(calls)
    state = apply(state, first)
    while state.current == 0:
        step = bot.act(view_for(state, 0), legal_actions(state), 1)
        state = apply(state, step)
        if step.type == "harvest":
            break
    assert spent > 0 and len(calls) == spent


def test_a_time_limit_already_past_plays_the_medium_bots_best_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = _counting(monkeypatch)
    view, legal = _position()
    MEMO.clear()
    step = HardBot(time_limit=0.0).act(view, legal, 0)
    assert len(calls) == 1  # the first look-ahead finds the deadline gone
    plan = best_plan(from_view(view))
    assert step.at == from_view(view).graph.spaces[plan.path[0]]


def test_near_the_end_the_look_aheads_play_the_race_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Rounds of replies: one mid-game, three once a scoreboard is 8 winks from full."""
    rounds: list[int] = []
    real = bots.babylon.hard.look_ahead

    def look_ahead(state: Any, plan: Any, seat: int, played: int = 1) -> float:
        rounds.append(played)
        return real(state, plan, seat, played)

    monkeypatch.setattr(bots.babylon.hard, "look_ahead", look_ahead)
    from dataclasses import replace

    state = new_game(2, 3, {"floor": "higher", "first_player": 0})
    HardBot(look_aheads=8, width=3).act(view_for(state, 0), legal_actions(state), 0)
    assert set(rounds) == {1}
    rounds.clear()
    late = replace(state, winks=(("red",) * 10, ("green",) * 17), _memo={})
    HardBot(look_aheads=8, width=3).act(view_for(late, 0), legal_actions(late), 0)
    assert set(rounds) == {HardBot.ENDGAME_ROUNDS}
