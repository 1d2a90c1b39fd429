"""Random play: a uniformly random legal action from a seeded generator.

Not a level offered to players (see `LEVELS`): it is the yardstick the easy bot is measured
against (`ishtar simulate --bots easy,random`), and a cheap way for tests to walk a game."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from bots.ishtar.base import playable


class RandomBot:
    """Random legal play; the same seed gives the same choice."""

    level = "random"

    def act(self, view: dict[str, Any], legal: Sequence[Any], seed: int) -> Any:
        legal = playable(legal)
        if not legal:
            raise ValueError("no legal action to choose from")
        return legal[random.Random(seed).randrange(len(legal))]
