"""Easy bot: the medium bot's path most turns, a short path the other turns.

A newcomer's first opponent should give them a game without out-thinking them. At the start
of each turn it draws (from the turn's position, so every step of the turn follows one plan)
whether to play carefully: with probability `care` it takes the medium bot's path
(bots/babylon/medium.py); otherwise it looks one or two tiles ahead of the path laid so far
and takes, half of the time, the short path that scores most, else a short path at random.
It never looks at the next player beyond what the medium bot does. `CARE` is tuned so that
easy beats random play in at least 95 % of 2-player games and medium beats easy in 70-90 %
of them (figures and commands in docs/benchmarks.md, "Babylon Gardens' bots").
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any

from bots.babylon.base import derive_seed
from bots.babylon.medium import best_plan
from bots.babylon.paths import Plan, plans
from bots.babylon.position import Position
from bots.babylon.turns import TurnBot

CARE = 0.75
"""The share of turns the easy bot plays the medium bot's path."""


class EasyBot(TurnBot):
    level = "easy"

    def __init__(self, reach: int = 2, greed: float = 0.5, care: float = CARE) -> None:
        self.reach, self.greed, self.care = reach, greed, care

    def settings(self) -> Hashable:
        return (self.reach, self.greed, self.care)

    def plan(self, position: Position, view: dict[str, Any]) -> Plan:
        rng = random.Random(derive_seed("easy", position.key(), position.path))
        if rng.random() < self.care:
            return best_plan(position)
        short = list(plans(position, max_length=len(position.path) + self.reach))
        if position.path:  # the laid path alone is always a plan: harvest now
            short = [p for p in short if len(p.path) > len(position.path)] or short
        if rng.random() < self.greed:
            best = max(p.gain for p in short)
            short = [p for p in short if p.gain == best]
        return short[rng.randrange(len(short))]
