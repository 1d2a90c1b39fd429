"""Easy bot: a short path, often the best of the short ones, else any of them.

It looks one or two tiles ahead of the path laid so far: half of its turns it takes the
short path that scores most, the others a short path at random. It never looks at the
next player, nor at the end of the game.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any

from bots.babylon.base import derive_seed
from bots.babylon.paths import Plan, plans
from bots.babylon.position import Position
from bots.babylon.turns import TurnBot


class EasyBot(TurnBot):
    level = "easy"

    def __init__(self, reach: int = 2, greed: float = 0.5) -> None:
        self.reach, self.greed = reach, greed

    def settings(self) -> Hashable:
        return (self.reach, self.greed)

    def plan(self, position: Position, view: dict[str, Any]) -> Plan:
        short = list(plans(position, max_length=len(position.path) + self.reach))
        if position.path:  # the laid path alone is always a plan: harvest now
            short = [p for p in short if len(p.path) > len(position.path)] or short
        rng = random.Random(derive_seed("easy", position.key(), position.path))
        if rng.random() < self.greed:
            best = max(p.gain for p in short)
            short = [p for p in short if p.gain == best]
        return short[rng.randrange(len(short))]
