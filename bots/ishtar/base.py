"""The bot interface and the action helpers every level shares.

A bot is an object with `act(view, legal, seed) -> action`. `legal` is the list the engine's
`legal_actions` gave for the seat to act (engine action objects or their JSON dicts); the bot
returns one of its items, unchanged, so the caller can submit it as is.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any, Protocol

from engine.ishtar import decode_action, encode_action, legal_actions


class Bot(Protocol):
    """A computer player: pure, no I/O, deterministic for a given seed."""

    level: str

    def act(self, view: dict[str, Any], legal: Sequence[Any], seed: int) -> Any:
        """One item of `legal`, chosen from what `view` shows."""
        ...


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


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from any parts (game seed, step, ...), the same on every machine."""
    digest = hashlib.sha256("/".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def playable(legal: Sequence[Any]) -> list[Any]:
    """The actions a bot considers: all but `undo` (a bot never takes back its own steps)."""
    return [a for a in legal if as_dict(a)["type"] != "undo"]


def playable_actions(state: Any) -> list[Any]:
    """`legal_actions(state)` without `undo`."""
    return playable(legal_actions(state))
