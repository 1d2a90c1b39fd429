"""A seat's position as the bots plan on it: the floor as a graph, the tiles, the gems at
the start of the turn, the path laid so far and every scoreboard.

It is built from a seat's view (the public information only) or from a state the bot
sampled itself (`engine.sample_state`, then `engine.apply`): never from the real state.
Gems are held as they were when the turn started: the path's own gems are taken off, so
the steps of one turn share one position and replan from it cheaply (bots/babylon/turns.py).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from engine.babylon import State
from engine.babylon.components import SLOTS, TILES
from engine.babylon.floors import Pos, floor


@dataclass(frozen=True)
class Graph:
    """A floor's tile spaces (reading order) and who is next to whom, by index."""

    spaces: tuple[Pos, ...]
    index: dict[Pos, int]
    neighbours: tuple[tuple[int, ...], ...]
    start: tuple[int, ...]
    """The spaces next to the well: where every path begins (R-7)."""


@cache
def graph(floor_id: str) -> Graph:
    """The graph of a floor (one per floor id)."""
    the_floor = floor(floor_id)
    spaces = the_floor.spaces
    index = {at: i for i, at in enumerate(spaces)}
    neighbours = tuple(
        tuple(index[n] for n in the_floor.neighbours(at)) for at in spaces
    )
    start = tuple(index[n] for n in the_floor.neighbours(the_floor.well))
    return Graph(spaces, index, neighbours, start)


@dataclass(frozen=True)
class Position:
    """What a seat knows when it is to act, in the shape the planners want."""

    floor_id: str
    seat: int
    turn: int
    tiles: tuple[str, ...]
    gems: tuple[int, ...]
    """Each space's gems when this turn started (the path's gems taken off)."""
    path: tuple[int, ...]
    """The spaces of the path laid so far this turn, as indices, in order."""
    sides: tuple[str | None, ...]
    winks: tuple[tuple[str, ...], ...]
    teams: tuple[tuple[int, ...], ...] | None
    discards: tuple[tuple[str, ...], tuple[str, ...]]

    @property
    def players(self) -> int:
        return len(self.winks)

    @property
    def graph(self) -> Graph:
        return graph(self.floor_id)

    def colour(self, i: int) -> str:
        return TILES[self.tiles[i]].colour

    def flowers(self, i: int) -> int:
        return TILES[self.tiles[i]].flowers

    def is_multi(self, i: int) -> bool:
        return TILES[self.tiles[i]].kind == "multi"

    def ready(self, i: int) -> bool:
        """R-8: one more gem fills this tile."""
        return self.gems[i] + 1 == TILES[self.tiles[i]].flowers

    def at_turn_start(self) -> Position:
        return replace(self, path=())

    def slots_left(self, seat: int) -> int:
        return SLOTS - len(self.winks[seat])

    def key(self) -> str:
        """A digest of the turn-start position and the seat: what a turn's plan depends on."""
        data = [
            self.floor_id,
            self.seat,
            self.turn,
            self.tiles,
            self.gems,
            self.sides,
            self.winks,
            self.teams,
            self.discards,
        ]
        text = json.dumps(data, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:32]


def from_view(view: dict[str, Any]) -> Position:
    """The position of the seat to act, from its view."""
    floor_id = str(view["floor"]["id"])
    the_graph = graph(floor_id)
    count = len(the_graph.spaces)
    tiles: list[str] = [""] * count
    gems = [0] * count
    for tile in view["tiles"]:
        i = the_graph.index[(int(tile["at"][0]), int(tile["at"][1]))]
        tiles[i] = str(tile["tile"])
        gems[i] = int(tile["gems"])
    path = tuple(the_graph.index[(int(at[0]), int(at[1]))] for at in view["path"])
    for i in path:
        gems[i] -= 1
    teams = view.get("teams")
    players = sorted(view["players"], key=lambda p: int(p["seat"]))
    return Position(
        floor_id=floor_id,
        seat=int(view["current"]),
        turn=int(view["turn"]),
        tiles=tuple(tiles),
        gems=tuple(gems),
        path=path,
        sides=tuple(p["side"] for p in players),
        winks=tuple(tuple(p["winks"]) for p in players),
        teams=tuple(tuple(t) for t in teams) if teams else None,
        discards=(
            tuple(view["discards"]["single"]),
            tuple(view["discards"]["multi"]),
        ),
    )


def from_state(state: State, seat: int) -> Position:
    """The position of `seat` in a state the bot sampled (its own, never the real one)."""
    the_graph = graph(state.floor_id)
    path = tuple(the_graph.index[at] for at in state.path)
    gems = list(state.gems)
    for i in path:
        gems[i] -= 1
    return Position(
        floor_id=state.floor_id,
        seat=seat,
        turn=state.turn,
        tiles=state.tiles,
        gems=tuple(gems),
        path=path,
        sides=state.sides,
        winks=state.winks,
        teams=state.teams,
        discards=state.discards,
    )


def turn_start_view(view: dict[str, Any]) -> dict[str, Any]:
    """The view as it was when this turn started: no path, and no gems of the path (for
    `engine.sample_state`, so every step of a turn samples the same states)."""
    on_path = {(int(at[0]), int(at[1])) for at in view["path"]}
    tiles = [
        {**t, "gems": t["gems"] - 1}
        if (int(t["at"][0]), int(t["at"][1])) in on_path
        else t
        for t in view["tiles"]
    ]
    return {**view, "tiles": tiles, "path": []}
