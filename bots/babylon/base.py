"""The action helpers every level of Babylon Gardens' bots shares (the interface is
bots/base.py).

`legal` reaches a bot in one of two shapes: the engine's `Action` objects (the simulator,
bots/match.py) or their JSON dicts (the server, app/background/bot_runner.py hands
``item["action"]`` of each legal item). A bot answers with one of the items, unchanged, so
the caller can submit it as it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bots.base import Bot, derive_seed
from engine.babylon import Action, decode_action
from engine.babylon.floors import Pos

__all__ = ["Bot", "as_action", "derive_seed", "find_irrigate", "find_type"]


def as_action(item: Any) -> Action:
    """The engine object of a legal item, whether given as an `Action` or as its dict."""
    if isinstance(item, Action):
        return item
    return decode_action(item)


def find_type(legal: Sequence[Any], kind: str) -> Any | None:
    """The item of `legal` of this `type` (harvest, undo), or None."""
    for item in legal:
        if as_action(item).type == kind:
            return item
    return None


def find_irrigate(legal: Sequence[Any], at: Pos) -> Any | None:
    """The item of `legal` that waters the tile at `at`, or None."""
    for item in legal:
        action = as_action(item)
        if action.type == "irrigate" and action.at == at:
            return item
    return None
