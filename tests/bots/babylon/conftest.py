"""Shared helpers of the Babylon Gardens bot tests: positions along seeded games."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bots.babylon import EasyBot, HardBot, make_bot
from bots.babylon.turns import MEMO, TurnBot
from engine.babylon import (
    State,
    apply,
    current_player,
    legal_actions,
    new_game,
    view_for,
)

FLOORS = ("lower", "middle", "higher", "roof", "ishtar", "tammuz")

QUICK_HARD: dict[str, Any] = {"look_aheads": 8, "width": 3}
"""A hard bot small enough for unit tests (the same code, a smaller budget)."""


def quick_bot(level: str) -> TurnBot:
    bot = HardBot(**QUICK_HARD) if level == "hard" else make_bot(level)
    assert isinstance(bot, TurnBot)
    return bot


def positions(
    players: int, seed: int, floor: str = "lower", every: int = 5, **options: Any
) -> Iterator[tuple[State, int]]:
    """Positions along a game of easy bots: (state, seat to act) every `every` steps."""
    state = new_game(players, seed, {"floor": floor, "first_player": 0, **options})
    easy = EasyBot()
    step = 0
    while (seat := current_player(state)) is not None:
        if step % every == 0:
            yield state, seat
        state = apply(
            state, easy.act(view_for(state, seat), legal_actions(state), step)
        )
        step += 1


@pytest.fixture(autouse=True)
def fresh_memo() -> Iterator[None]:
    """Each test starts and ends with an empty memo of plans (no test leans on another's)."""
    MEMO.clear()
    yield
    MEMO.clear()
