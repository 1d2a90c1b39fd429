"""Random play: a uniformly random legal step (never `undo`) from a seeded generator.

Not a level offered to players (see `LEVELS`): it is the yardstick the easy bot is measured
against (`ishtar simulate --game babylon-gardens --bots easy,random`)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from bots.babylon.base import as_action


class RandomBot:
    """Random legal steps; the same seed gives the same choice."""

    level = "random"

    def act(self, view: dict[str, Any], legal: Sequence[Any], seed: int) -> Any:
        steps = [item for item in legal if as_action(item).type != "undo"]
        if not steps:
            raise ValueError("no legal action to choose from")
        return steps[random.Random(seed).randrange(len(steps))]
