"""`sample_state`: a full state consistent with a seat's view, for bots that look ahead.

Only the order of the two piles and the seed are hidden (spec §8). The piles' contents
follow from the catalogue, the floor and the discards (R-15), so a sample deals them in an
order drawn from the bot's own seed, and takes that seed as the game's (so later reshuffles,
R-10, are the bot's guess too): it never reads the real order, which the view does not hold.
Everything the view shows is carried over, so the sample's view is the view it came from.
"""

from __future__ import annotations

import random
from typing import Any

from engine.babylon.components import KINDS, SLOTS, TILES_OF_KIND
from engine.babylon.setup import OPTIONS
from engine.babylon.state import Draw, Harvested, State


def sample_state(view: dict[str, Any], seed: int) -> State:
    """A state that shows exactly `view` (``viewer`` aside), the piles in an order drawn
    from `seed`. The view must be one of this engine's (as the server sends it)."""
    tiles = tuple(t["tile"] for t in view["tiles"])
    seen = {*tiles, *view["discards"]["single"], *view["discards"]["multi"]}
    rng = random.Random(seed)
    piles = []
    for kind in KINDS:
        pile = [tid for tid in TILES_OF_KIND[kind] if tid not in seen]
        rng.shuffle(pile)
        piles.append(tuple(pile))
    players = view["players"]
    winks = tuple(tuple(p["winks"]) for p in players)
    draws = tuple(Draw(d["seat"], d["tile"], d["round"]) for d in view["draws"])
    phase = view["phase"]
    current = view["current"]
    if current is None:  # over: the seat whose 25th wink ended the game
        current = next(s for s, w in enumerate(winks) if len(w) == SLOTS)
    options = {
        **OPTIONS,
        "floor": view["floor"]["id"],
        # Only the choice of the set-up shows which way the boards were given out; after
        # it the rules no longer depend on this option.
        "scoreboards": "choose" if phase == "scoreboard" else "random",
        "teams": bool(view["teams"]),
        "first_player": None if draws else view["first_player"],
    }
    return State(
        players=len(players),
        seed=seed,
        options=tuple(sorted(options.items())),
        floor_id=view["floor"]["id"],
        tiles=tiles,
        gems=tuple(t["gems"] for t in view["tiles"]),
        piles=(piles[0], piles[1]),
        discards=(
            tuple(view["discards"]["single"]),
            tuple(view["discards"]["multi"]),
        ),
        sides=tuple(p["side"] for p in players),
        winks=winks,
        phase=phase,
        current=current,
        turn=view["turn"],
        first_player=view["first_player"],
        draws=draws,
        path=tuple((at[0], at[1]) for at in view["path"]),
        harvested=tuple(
            Harvested(
                (h["at"][0], h["at"][1]),
                h["tile"],
                h["colour"],
                h["slot"],
                h["seat"],
                h["replaced_by"],
            )
            for h in view["harvested"]
        ),
    )
