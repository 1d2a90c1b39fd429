"""The hard bot's bound on the work of a move: positions valued, counted the same everywhere."""

from __future__ import annotations

import math
from typing import Any

from bots.ishtar import EasyBot, HardBot
from bots.ishtar.base import as_action
from engine.ishtar import apply, current_player, legal_actions, new_game, view_for

SEARCH = {"playouts": 16, "width": 4, "horizon_turns": 1, "rounds": 1}


def mid_game(seed: int, steps: int) -> tuple[Any, int]:
    """A position `steps` random steps into a 2-player game, where the seat has a choice."""
    state = new_game(2, seed, {"first_player": 0})
    easy = EasyBot()
    for step in range(steps):
        seat = current_player(state)
        assert seat is not None
        legal = legal_actions(state)
        state = apply(state, as_action(easy.act(view_for(state, seat), legal, step)))
    while len(legal_actions(state)) < 3:
        seat = current_player(state)
        assert seat is not None
        state = apply(
            state, as_action(easy.act(view_for(state, seat), legal_actions(state), 0))
        )
    seat = current_player(state)
    assert seat is not None
    return state, seat


def search(state: Any, seat: int, work: float | None) -> tuple[Any, int]:
    bot = HardBot(**SEARCH, work=work)  # type: ignore[arg-type]
    action = bot.act(view_for(state, seat), legal_actions(state), seed=7)
    return action, bot.meter.evaluations


def test_the_bound_cuts_the_work_of_a_long_search_and_keeps_it_legal() -> None:
    state, seat = mid_game(seed=21, steps=60)
    legal = legal_actions(state)
    _, unbounded = search(state, seat, math.inf)
    work = unbounded // 3
    action, bounded = search(state, seat, work)
    assert action in legal
    assert bounded < unbounded
    # it stops before a sample that would pass the bound, as far as the last one foretells
    assert bounded <= work * 1.25


def test_a_bound_the_search_never_reaches_changes_nothing() -> None:
    state, seat = mid_game(seed=22, steps=20)
    unbounded = search(state, seat, math.inf)
    action, evaluations = search(state, seat, 10**9)
    assert evaluations == unbounded[1]
    assert action == unbounded[0]


def test_the_bound_is_a_count_so_a_bounded_search_is_reproducible() -> None:
    state, seat = mid_game(seed=23, steps=40)
    first = search(state, seat, 300)
    assert search(state, seat, 300) == first


def test_the_default_bound_is_the_player_counts() -> None:
    state, seat = mid_game(seed=24, steps=10)
    bot = HardBot(**SEARCH)  # type: ignore[arg-type]
    bot.act(view_for(state, seat), legal_actions(state), seed=7)
    # the first sample is always played; past it, the bound of WORK holds as above
    assert 0 < bot.meter.evaluations <= HardBot.WORK[2] * 1.25
