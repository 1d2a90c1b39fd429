"""Every level plays only legal steps, is reproducible, plans whole turns consistently and
finishes games on every floor."""

from __future__ import annotations

from typing import Any

import pytest

from bots.babylon import LEVELS, MediumBot, think
from bots.babylon.base import as_action
from bots.babylon.turns import MEMO
from bots.match import play_game
from engine.babylon import (
    Action,
    apply,
    current_player,
    encode_action,
    legal_actions,
    new_game,
    view_for,
    why_illegal,
)
from tests.bots.babylon.conftest import FLOORS, positions, quick_bot


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("floor", FLOORS)
def test_a_bot_returns_one_of_the_legal_items(level: str, floor: str) -> None:
    bot = quick_bot(level)
    every = 3 if level != "hard" else 11
    for state, seat in positions(2, seed=len(floor), floor=floor, every=every):
        legal = legal_actions(state)
        action = bot.act(view_for(state, seat), legal, seed=3)
        assert any(action is item for item in legal)
        assert why_illegal(state, action) is None
        assert action.type != "undo"


@pytest.mark.parametrize("level", LEVELS)
def test_json_legal_items_come_back_as_the_same_dicts(level: str) -> None:
    """The server hands `legal` as the actions' JSON dicts (app/background/bot_runner.py)."""
    bot = quick_bot(level)
    for state, seat in positions(3, seed=5, floor="middle", every=4):
        legal = [encode_action(a) for a in legal_actions(state)]
        action = bot.act(view_for(state, seat), legal, seed=9)
        assert any(action is item for item in legal)
        assert why_illegal(state, as_action(action)) is None


@pytest.mark.parametrize("level", LEVELS)
def test_the_same_view_and_seed_give_the_same_step_memo_or_not(level: str) -> None:
    for state, seat in positions(2, seed=8, floor="roof", every=4):
        view, legal = view_for(state, seat), legal_actions(state)
        first = quick_bot(level).act(view, legal, 77)
        MEMO.clear()
        assert quick_bot(level).act(view, legal, 77) == first


def test_think_plays_the_level_asked_for() -> None:
    state = new_game(2, 8, {"floor": "middle", "first_player": 0})
    view, legal = view_for(state, 0), legal_actions(state)
    for level in LEVELS:
        assert think(level, view, legal, 1, None) in legal
    with pytest.raises(ValueError, match="unknown bot level"):
        think("grandmaster", view, legal, 1, None)


@pytest.mark.parametrize("level", LEVELS)
def test_the_steps_of_a_turn_follow_one_plan_whichever_process_asks(level: str) -> None:
    """Each step replans from the view alone: with the memo emptied before every step (as
    when each step goes to another worker process) a turn lays the same path."""

    def turn(clear: bool) -> list[Action]:
        state = new_game(2, 31, {"floor": "higher", "first_player": 0})
        for _ in range(3):  # a few turns in, so that tiles hold gems
            while state.current == current_player(state) and state.phase != "over":
                seat = state.current
                bot = MediumBot()
                step = bot.act(view_for(state, seat), legal_actions(state), 0)
                state = apply(state, step)
                if step.type == "harvest":
                    break
        steps: list[Action] = []
        seat = state.current
        bot = quick_bot(level)
        while state.current == seat and state.phase != "over":
            if clear:
                MEMO.clear()
            step = bot.act(view_for(state, seat), legal_actions(state), len(steps))
            steps.append(step)
            state = apply(state, step)
            if step.type == "harvest":
                break
        return steps

    planned = turn(clear=False)
    assert planned[-1].type == "harvest"
    assert turn(clear=True) == planned


@pytest.mark.parametrize("level", LEVELS)
def test_a_path_laid_by_someone_else_is_carried_on_legally(level: str) -> None:
    """A seat handed to a bot mid-turn: the bot extends the path it finds, and harvests."""
    state = new_game(2, 4, {"floor": "ishtar", "first_player": 0})
    seat = state.current
    for _ in range(2):  # a path no level would lay: the first legal steps, twice
        state = apply(state, legal_actions(state)[0])
    bot = quick_bot(level)
    for step_no in range(40):
        action = bot.act(view_for(state, seat), legal_actions(state), step_no)
        assert action.type in ("irrigate", "harvest")
        state = apply(state, action)
        if action.type == "harvest":
            break
    assert state.current != seat or state.phase == "over"


def test_scoreboards_are_chosen_when_the_option_asks_for_it() -> None:
    state = new_game(3, 2, {"scoreboards": "choose", "first_player": 0})
    for level in LEVELS:
        legal = legal_actions(state)
        action = quick_bot(level).act(view_for(state, state.current), legal, 5)
        assert action.type == "scoreboard" and any(action is a for a in legal)
        state = apply(state, action)
    assert state.phase == "irrigate"


def _think(
    level: str, view: dict[str, Any], legal: list[Any], seed: int, think_s: float | None
) -> Any:
    return quick_bot(level).act(view, legal, seed)


@pytest.mark.parametrize("floor", FLOORS)
@pytest.mark.parametrize("players", [2, 4])
def test_every_level_finishes_games_on_every_floor(floor: str, players: int) -> None:
    levels = [*LEVELS, "medium"] if players == 4 else ["hard", "easy"]
    record = play_game(
        levels[:players],
        seed=players * 100 + len(floor),
        rules="engine.babylon",
        think=_think,
        options={"floor": floor},
        max_steps=3000,
    )
    scores = record.scores
    assert scores["winners"]
    assert max(p["winks"] for p in scores["players"]) == 25  # someone filled up


def test_team_games_finish_with_team_totals() -> None:
    record = play_game(
        ["medium", "easy", "medium", "easy"],
        seed=12,
        rules="engine.babylon",
        think=_think,
        options={"floor": "tammuz", "teams": True},
    )
    assert record.scores["teams"] is not None
    assert record.scores["winners"] in ([0, 2], [1, 3], [0, 1, 2, 3])


def test_medium_beats_easy_in_most_of_a_handful_of_games() -> None:
    """A sanity check of strength, not a benchmark (docs/benchmarks.md has the figures)."""
    wins = 0.0
    for game in range(6):
        levels = ["medium", "easy"] if game % 2 == 0 else ["easy", "medium"]
        record = play_game(
            levels, seed=600 + game, rules="engine.babylon", think=_think
        )
        seat = levels.index("medium")
        winners = record.scores["winners"]
        wins += 1 / len(winners) if seat in winners else 0
    assert wins >= 5
