"""The action helpers every level of Ishtar's bots shares (the interface is bots/base.py)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bots.base import Bot, derive_seed
from engine.ishtar import decode_action, encode_action, legal_actions

__all__ = [
    "Bot",
    "action_key",
    "as_action",
    "as_dict",
    "derive_seed",
    "kind",
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
    """The action's `type`: choose, place, discard, assistant, skill, pass, bloom, reserve, ..."""
    return str(as_dict(action)["type"])


def playable(legal: Sequence[Any]) -> list[Any]:
    """The actions a bot considers: all but `undo` (a bot never takes back its own steps)."""
    return [a for a in legal if as_dict(a)["type"] != "undo"]


def playable_actions(state: Any) -> list[Any]:
    """`legal_actions(state)` without `undo`."""
    return playable(legal_actions(state))
