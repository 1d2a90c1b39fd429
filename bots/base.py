"""The bot interface of every game, and the seeds bots are given.

A bot is an object with `act(view, legal, seed) -> action`. `legal` is the list of legal
actions the server hands the seat to act (the engine's objects or their JSON dicts); the bot
returns one of its items, unchanged, so the caller can submit it as is. A bot sees only its
seat's view: what it does not see it may sample, never read.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any, Protocol


class Bot(Protocol):
    """A computer player: pure, no I/O, deterministic for a given seed."""

    level: str

    def act(self, view: dict[str, Any], legal: Sequence[Any], seed: int) -> Any:
        """One item of `legal`, chosen from what `view` shows."""
        ...


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from any parts (game seed, step, ...), the same on every machine."""
    digest = hashlib.sha256("/".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1
