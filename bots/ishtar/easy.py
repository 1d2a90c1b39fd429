"""Easy bot: the medium bot's move most of the time, a random legal one otherwise.

A newcomer's first opponent should give them a game without out-thinking them: at each step
it plays what the medium bot would with probability `care` (bots/ishtar/medium.py), else a
uniformly random legal action (bots/ishtar/random_play.py). Both draws come from the step's
seed, so a seed gives the same choice. `CARE` is tuned so that easy beats random play in
at least 95 % of 2-player games and medium beats easy in 70-90 % of them (figures and
commands in docs/benchmarks.md, "Bots (Ishtar)").
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from bots.ishtar.base import derive_seed, playable
from bots.ishtar.medium import MediumBot

CARE = 0.85
"""The share of steps the easy bot plays as the medium bot does."""


class EasyBot:
    """Careful `care` of the time, random otherwise; the same seed gives the same choice."""

    level = "easy"

    def __init__(self, care: float = CARE) -> None:
        self.care = care

    def act(self, view: dict[str, Any], legal: Sequence[Any], seed: int) -> Any:
        legal = playable(legal)
        if not legal:
            raise ValueError("no legal action to choose from")
        rng = random.Random(derive_seed("easy", seed))
        if rng.random() < self.care:
            return MediumBot().act(view, legal, seed)
        return legal[rng.randrange(len(legal))]
