"""Bots see only their seat's view: every state they look into is one of their own samples.

The engine functions the bots call are wrapped so that each state a bot hands to the engine
must have come from `sample_state` (or from `apply` on such a state). The real game state never
reaches a bot, and a bot's choice depends on the view alone.
"""

from __future__ import annotations

from typing import Any

import pytest

import bots.ishtar.base
import bots.ishtar.evaluation
import bots.ishtar.hard
import bots.ishtar.medium
from bots.ishtar import LEVELS, HardBot, make_bot
from bots.ishtar.base import action_key, as_action
from engine import ishtar
from engine.ishtar import (
    apply,
    current_player,
    legal_actions,
    new_game,
    sample_state,
    view_for,
)

ENGINE_CALLS = ("apply", "legal_actions", "current_player", "view_for", "final_scores")


class Provenance:
    """Remembers the states born of `sample_state`, and refuses any other."""

    def __init__(self) -> None:
        self.sampled: set[int] = set()
        self.keep: list[Any] = []
        self.calls = 0

    def mark(self, state: Any) -> Any:
        self.sampled.add(id(state))
        self.keep.append(state)
        return state

    def check(self, state: Any) -> None:
        self.calls += 1
        assert id(state) in self.sampled, (
            "a bot looked at a state it did not sample itself"
        )


@pytest.fixture
def provenance(monkeypatch: pytest.MonkeyPatch) -> Provenance:
    tracker = Provenance()

    def sample(view: dict[str, Any], seed: int) -> Any:
        return tracker.mark(ishtar.sample_state(view, seed))

    def wrap(name: str) -> Any:
        real = getattr(ishtar, name)

        def checked(state: Any, *args: Any) -> Any:
            tracker.check(state)
            result = real(state, *args)
            return tracker.mark(result) if name == "apply" else result

        return checked

    for module in (
        bots.ishtar.base,
        bots.ishtar.medium,
        bots.ishtar.hard,
        bots.ishtar.evaluation,
    ):
        if hasattr(module, "sample_state"):
            monkeypatch.setattr(module, "sample_state", sample)
        for name in ENGINE_CALLS:
            if hasattr(module, name):
                monkeypatch.setattr(module, name, wrap(name))
    return tracker


def midgame(players: int, seed: int, steps: int) -> Any:
    state = new_game(players, seed, {"first_player": 0})
    easy = make_bot("easy")
    for step in range(steps):
        seat = current_player(state)
        state = apply(
            state,
            as_action(easy.act(view_for(state, seat), legal_actions(state), step)),
        )
    return state


@pytest.mark.parametrize("level", LEVELS)
def test_bots_only_look_into_their_own_samples(
    level: str, provenance: Provenance
) -> None:
    bot = (
        HardBot(playouts=6, width=3, horizon_turns=1)
        if level == "hard"
        else make_bot(level)
    )
    for steps in (0, 9, 25):
        real = midgame(3, seed=31, steps=steps)
        seat = current_player(real)
        bot.act(view_for(real, seat), legal_actions(real), seed=steps)
    if level != "easy":
        assert provenance.calls > 0


@pytest.mark.parametrize("level", LEVELS)
def test_the_choice_depends_on_the_view_alone(level: str) -> None:
    """Two states that look the same to the seat but hide different piles: the same choice."""
    bot = (
        HardBot(playouts=6, width=3, horizon_turns=1)
        if level == "hard"
        else make_bot(level)
    )
    real = midgame(2, seed=12, steps=14)
    seat = current_player(real)
    view = view_for(real, seat)
    twin = sample_state(view, seed=987654)
    assert view_for(twin, seat) == view
    first = bot.act(view, legal_actions(real), seed=5)
    second = bot.act(view_for(twin, seat), legal_actions(twin), seed=5)
    assert action_key(first) == action_key(second)
