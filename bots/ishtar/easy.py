"""Easy bot: a uniformly random legal action, drawn from a seeded generator."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from bots.ishtar.base import playable


class EasyBot:
    """Random legal play; the same seed gives the same choice."""

    level = "easy"

    def act(self, view: dict[str, Any], legal: Sequence[Any], seed: int) -> Any:
        legal = playable(legal)
        if not legal:
            raise ValueError("no legal action to choose from")
        return legal[random.Random(seed).randrange(len(legal))]
