"""Bots for Ishtar: three levels of computer players that fill seats.

Every bot sees only what its seat may see: the seat's view (`engine.view_for`) and the legal
actions the server hands it. Bots that look ahead fill in the hidden piles and deck themselves
with `engine.sample_state(view, seed)`; none ever reads the real hidden order.

The one entry point for the server and the simulator is `choose_action(level, view, legal,
seed)`: pure, no I/O, deterministic for a given seed. `value(state)`, each seat's expected
final score from the spectator's view, is the analysis's (bots/ishtar/appraisal.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bots.ishtar.appraisal import value
from bots.ishtar.base import Bot
from bots.ishtar.easy import EasyBot
from bots.ishtar.hard import HardBot
from bots.ishtar.medium import MediumBot
from bots.ishtar.random_play import RandomBot

LEVELS: tuple[str, ...] = ("easy", "medium", "hard")
"""The levels players can seat."""
YARDSTICKS: tuple[str, ...] = ("random",)
"""Levels only measurements seat (`ishtar simulate`): random play, what easy must beat."""


def make_bot(level: str, **options: Any) -> Bot:
    """A bot of the given level (`easy`, `medium` or `hard`); options go to its constructor."""
    if level == "easy":
        return EasyBot(**options)
    if level == "medium":
        return MediumBot(**options)
    if level == "hard":
        return HardBot(**options)
    if level == "random":
        return RandomBot(**options)
    raise ValueError(f"unknown bot level {level!r}: choose one of {', '.join(LEVELS)}")


def think(
    level: str,
    view: dict[str, Any],
    legal: Sequence[Any],
    seed: int,
    think_s: float | None,
) -> Any:
    """`choose_action` with a time limit: the hard bot searches for at most `think_s`
    seconds (None: its iteration budget alone, as the simulator plays)."""
    if level == "hard":
        return HardBot(time_limit=think_s).act(view, legal, seed)
    return choose_action(level, view, legal, seed)


def choose_action(
    level: str, view: dict[str, Any], legal: Sequence[Any], seed: int
) -> Any:
    """The action a bot of `level` plays from `view`; always one of the items of `legal`."""
    return make_bot(level).act(view, legal, seed)


__all__ = [
    "LEVELS",
    "YARDSTICKS",
    "Bot",
    "EasyBot",
    "HardBot",
    "MediumBot",
    "RandomBot",
    "choose_action",
    "make_bot",
    "think",
    "value",
]
