"""Invariants of every reachable Babylon Gardens state, checked from the rules' own words
rather than the engine's helpers."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator

from engine.babylon import view_for
from engine.babylon.components import TILES
from engine.babylon.state import State

TILE_CARDS = 57
"""RB: 57 square tile cards, the well included."""


def check_tiles_conserved(state: State) -> None:
    """RB 57 tiles: the floor + both piles + both discard piles + the well, each once, and
    each on a space or pile of its own back (R-10)."""
    every = [*state.tiles, *state.piles[0], *state.piles[1], *state.discards[0]]
    every += state.discards[1]
    assert len(every) + 1 == TILE_CARDS
    assert Counter(every) == Counter(list(TILES))
    for at, tile in zip(state.floor.spaces, state.tiles, strict=True):
        assert TILES[tile].kind == state.floor.kinds[at]
    for k, kind in enumerate(("single", "multi")):
        for tile in (*state.piles[k], *state.discards[k]):
            assert TILES[tile].kind == kind


def check_gems(state: State) -> None:
    """R-8: no tile holds more gems than flowers; while the game goes on, only tiles of the
    path being built can be filled; each tile of the path holds at least its gem."""
    for at, tile, gems in zip(state.floor.spaces, state.tiles, state.gems, strict=True):
        assert 0 <= gems <= TILES[tile].flowers
        if state.phase != "over" and at not in state.path:
            assert gems < TILES[tile].flowers, f"a filled tile off the path at {at}"
    for at in state.path:
        assert state.gems[state.index(at)] >= 1


def check_path(state: State) -> None:
    """R-7: the path starts next to the well and goes one orthogonal step at a time,
    never twice on a tile and never on the well."""
    previous = state.floor.well
    for at in state.path:
        assert at in state.floor.kinds
        assert abs(at[0] - previous[0]) + abs(at[1] - previous[1]) == 1
        previous = at
    assert len(set(state.path)) == len(state.path)


def check_winks(state: State) -> None:
    """R-11: at most 25 winks; the game is over exactly when a scoreboard is full."""
    assert all(len(w) <= 25 for w in state.winks)
    assert (state.phase == "over") == any(len(w) == 25 for w in state.winks)


def check_view_hides_secrets(state: State) -> None:
    """§8, R-15: no view, of any seat or a spectator, holds the seed or a pile's order.

    The views of this state and of the same state with both piles in another order and
    another seed are equal; no key says "seed"; a pile's tiles are in no entry but those
    naming what everyone saw (the first-player draws, and last turn's harvest when a
    reshuffle put a tile back into a pile)."""
    other = state.evolve(
        piles=(state.piles[0][::-1], state.piles[1][1:] + state.piles[1][:1]),
        seed=state.seed + 1,
        reshuffles=state.reshuffles + 1,
    )
    for seat in [None, *range(state.players)]:
        view = view_for(state, seat)
        assert view == view_for(other, seat)
        assert "seed" not in json.dumps(list(_keys(view)))
        shown = json.dumps(
            {k: v for k, v in view.items() if k not in ("draws", "harvested")}
        )
        for pile in state.piles:
            for tile in pile:
                assert f'"{tile}"' not in shown, f"a tile of a pile ({tile}) in a view"
        assert view["piles"] == {
            "single": len(state.piles[0]),
            "multi": len(state.piles[1]),
        }


def _keys(value: object) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _keys(item)
    elif isinstance(value, list):
        for item in value:
            yield from _keys(item)


def check_all(state: State) -> None:
    check_tiles_conserved(state)
    check_gems(state)
    check_path(state)
    check_winks(state)
