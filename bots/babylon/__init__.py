"""Bots for Babylon Gardens: three levels of computer players that fill seats.

A turn is a sequence of steps (R-16), and a bot is asked for one step at a time: each level
plans the whole path of its turn and plays its next step (bots/babylon/turns.py). Every bot
sees only its seat's view and the legal actions it is handed (engine `Action` objects or
their JSON dicts); the hard bot, which looks past the harvest, deals the hidden piles itself
with `engine.sample_state(view, seed)` and never reads their real order.

- easy: most turns the medium bot's path, the others a path of one or two tiles, the best of
  them half of the time (bots/babylon/easy.py);
- medium: every path of the turn, the best by its harvest's points less what it leaves the
  next player, ending the game when ahead (bots/babylon/medium.py);
- hard: the medium bot's best paths re-ranked by the other players' replies in sampled
  piles (bots/babylon/hard.py).

The one entry point for the server and the simulator is `think(level, view, legal, seed,
think_s)`: pure but for its memo of plans, no I/O, deterministic for a given view and seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bots.babylon.base import Bot
from bots.babylon.easy import EasyBot
from bots.babylon.hard import HardBot
from bots.babylon.medium import MediumBot
from bots.babylon.random_play import RandomBot

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
    """The step a bot of `level` plays: always one of the items of `legal`. The hard bot
    plans a turn for at most `think_s` seconds (None: its look-ahead budget alone, the
    same on every machine, as the simulator plays)."""
    if level == "hard":
        return HardBot(time_limit=think_s).act(view, legal, seed)
    return make_bot(level).act(view, legal, seed)


__all__ = [
    "LEVELS",
    "YARDSTICKS",
    "Bot",
    "EasyBot",
    "HardBot",
    "MediumBot",
    "RandomBot",
    "make_bot",
    "think",
]
