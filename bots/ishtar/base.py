"""The action helpers every level of Ishtar's bots shares (the interface is bots/base.py)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bots.base import Bot, derive_seed
from engine.ishtar import Action, decode_action, encode_action, legal_actions

__all__ = [
    "Bot",
    "action_key",
    "as_action",
    "as_dict",
    "derive_seed",
    "kind",
    "placement",
    "playable",
    "playable_actions",
]


def as_dict(action: Any) -> dict[str, Any]:
    """The JSON shape of an action, whether given as an engine object or as a dict."""
    if isinstance(action, dict):
        return action
    encoded: dict[str, Any] = encode_action(action)
    return encoded


def as_action(action: Any) -> Any:
    """The engine object of an action, whether given as an engine object or as a dict."""
    return decode_action(action) if isinstance(action, dict) else action


def action_key(action: Any) -> str:
    """A stable text key for an action, to group and compare actions across determinizations."""
    return json.dumps(as_dict(action), sort_keys=True, separators=(",", ":"))


def kind(action: Any) -> str:
    """The action's `type`: choose, place, discard, assistant, skill, pass, bloom, reserve, ...

    Read off an engine action directly (a search asks it of every legal action it looks at)."""
    if isinstance(action, Action):
        return action.type
    return str(action["type"])


def placement(action: Any) -> tuple[tuple[int, int], int]:
    """Where a `place` action puts its tile: the cell and the rotation."""
    if isinstance(action, Action):
        assert action.at is not None and action.rotation is not None
        return (action.at[0], action.at[1]), action.rotation
    at = action["at"]
    return (int(at[0]), int(at[1])), int(action["rotation"])


def playable(legal: Sequence[Any]) -> list[Any]:
    """The actions a bot considers: all but `undo` (a bot never takes back its own steps)."""
    return [a for a in legal if kind(a) != "undo"]


def playable_actions(state: Any) -> list[Any]:
    """`legal_actions(state)` without `undo`."""
    return playable(legal_actions(state))
