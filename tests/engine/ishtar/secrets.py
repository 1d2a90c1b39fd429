"""What no viewer of an Ishtar game may receive (tests/app/hidden.py checks every message).

Read from the engine's full encoded state, which the server stores and never sends: the
face-down tiles of the piles (identity and order; the top of each pile is face up, and
the pile under the watering can is hidden whole), the tiles removed at set-up, and the
tree deck (its cards, and their order).
"""

from __future__ import annotations

import json
from typing import Any


def secrets(full: dict[str, Any], viewer: int | None) -> tuple[list[str], set[int]]:
    """(substrings no message may contain, tree-card ids no message may carry as cards)."""
    strings: list[str] = []
    can = full.get("can")
    for index, pile in enumerate(full["piles"]):
        hidden = pile if index == can else pile[:-1]
        strings += [f'"{tile}"' for tile in hidden]
    strings += [f'"{tile}"' for tile in full.get("removed", [])]
    if len(full["deck"]) > 1:
        strings.append(json.dumps(full["deck"], separators=(",", ":")))
    return strings, set(full["deck"])
