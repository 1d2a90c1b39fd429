"""`sample_state`: a full state consistent with a seat's view, for bots that look ahead.

Only the order of the two piles is hidden (spec §8). Their contents follow from the
catalogue, the floor and the discards (R-15), so a sample deals them in an order drawn from
the bot's own seed: it never reads the real order.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from engine.babylon.codec import decode_state
from engine.babylon.components import KINDS, TILES_OF_KIND
from engine.babylon.state import State


def sample_state(view: dict[str, Any], seed: int) -> State:
    """A state that shows exactly `view`, with the piles in an order drawn from `seed`."""
    tiles = [t["tile"] for t in view["tiles"]]
    seen = Counter([*tiles, *view["discards"]["single"], *view["discards"]["multi"]])
    rng = random.Random(seed)
    piles = {}
    for kind in KINDS:
        pile = [tid for tid in TILES_OF_KIND[kind] if not seen[tid]]
        rng.shuffle(pile)
        piles[kind] = pile
    players = view["players"]
    phase = view["phase"]
    teams = view.get("teams")
    data = {
        "format": 1,
        "players": len(players),
        "seed": seed,
        "options": {
            "floor": view["floor"]["id"],
            "scoreboards": "random",
            "teams": bool(teams),
            "first_player": view["first_player"],
        },
        "floor": view["floor"]["id"],
        "tiles": tiles,
        "gems": [t["gems"] for t in view["tiles"]],
        "piles": piles,
        "discards": {k: list(view["discards"][k]) for k in KINDS},
        "sides": [p["side"] for p in players],
        "winks": [list(p["winks"]) for p in players],
        "phase": phase,
        "current": view["current"] if view["current"] is not None else 0,
        "turn": view["turn"],
        "first_player": view["first_player"],
        "draws": [],
        "path": [list(at) for at in view["path"]],
        "harvested": [],
        "reshuffles": 0,
    }
    return decode_state(data)
