"""What no viewer of a Babylon Gardens game may receive (tests/app/hidden.py checks every
message): the order of the two piles. Their contents can be deduced (R-15), so only the
order is secret: no two tiles of a pile may appear side by side as the pile has them.
"""

from __future__ import annotations

import json
from typing import Any


def secrets(full: dict[str, Any], viewer: int | None) -> tuple[list[str], set[int]]:
    """(substrings no message may contain, card ids no message may carry: none here)."""
    strings: list[str] = []
    for pile in full["piles"].values():
        if len(pile) > 1:  # the order: any two tiles of a pile side by side
            strings += [
                json.dumps(pile[i : i + 2], separators=(",", ":"))[1:-1]
                for i in range(len(pile) - 1)
            ]
    return strings, set()
