"""Every path a seat can still lay this turn, with what its harvest would score.

A path extends the one laid so far (`Position.path`) one orthogonal step at a time, never
onto a tile twice (R-7). Its harvest takes the tiles it fills in path order (R-8), one wink
each into the seat's next slots, and stops at the 25th wink (R-11).

The paths of a floor form a tree (a trie) whose nodes are the paths themselves: a path's
parent is the path one step shorter. It is built once per floor (`trie`), depth first, so
the paths extending a laid one are one contiguous range of nodes: 1,908 paths from the well
on Ishtar's Garden, the largest floor. `walk` values every node of a position in one pass
over that range, each from its parent (the score gain counted as the engine counts it, bots/babylon/scores.py,
one wink at a time, memoized per wink sequence), and `Plan` objects are made only for the paths a level keeps.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

from bots.babylon.position import Position, graph
from bots.babylon.scores import append_gain
from engine.babylon.components import SLOTS, TILES


@dataclass(frozen=True, slots=True)
class Plan:
    """A whole path for this turn and its harvest."""

    path: tuple[int, ...]
    """The spaces of the path, the part already laid included, by index."""
    fills: tuple[int, ...]
    """The spaces harvested, in fill order (at most the seat's slots left)."""
    winks: tuple[str, ...]
    """The seat's winks after the harvest."""
    gain: int
    """Points the harvest adds to the seat's total."""
    ends: bool
    """The harvest places the seat's 25th wink: the game ends at once (R-11)."""
    ready_left: int
    """Multi-flower tiles one gem from full once the turn is over (the next player's)."""


@dataclass(frozen=True)
class Trie:
    """Every path of a floor from the well, depth first; node 0 is the empty path."""

    tile: tuple[int, ...]
    """The last space of each node's path (-1 for the empty path)."""
    parent: tuple[int, ...]
    depth: tuple[int, ...]
    end: tuple[int, ...]
    """One past the last node of each node's subtree: its extensions are (k, end[k])."""
    node: dict[tuple[int, ...], int]
    """The node of each path."""


@cache
def trie(floor_id: str) -> Trie:
    """The paths of a floor (built once per floor id)."""
    the_graph = graph(floor_id)
    tile, parent, depth, end = [-1], [-1], [0], [0]
    node: dict[tuple[int, ...], int] = {(): 0}

    def grow(k: int, path: tuple[int, ...]) -> None:
        steps = the_graph.neighbours[path[-1]] if path else the_graph.start
        for j in steps:
            if j in path:
                continue
            child = len(tile)
            longer = (*path, j)
            tile.append(j)
            parent.append(k)
            depth.append(len(longer))
            end.append(0)
            node[longer] = child
            grow(child, longer)
        end[k] = len(tile)

    grow(0, ())
    return Trie(tuple(tile), tuple(parent), tuple(depth), tuple(end), node)


class Walk:
    """The paths extending a position's laid path, each valued (arrays indexed by node)."""

    def __init__(self, position: Position) -> None:
        self.position = position
        self.trie = paths = trie(position.floor_id)
        seat = position.seat
        side = position.sides[seat]
        self.before = before = tuple(position.winks[seat])
        room = SLOTS - len(before)
        tiles, gems = position.tiles, position.gems
        flowers = [TILES[t].flowers for t in tiles]
        colours = [TILES[t].colour for t in tiles]
        fills_now = [gems[i] + 1 == flowers[i] for i in range(len(tiles))]
        # One gem on a multi tile: a ready one is harvested (and replaced by a tile with
        # no gems), one two gems short becomes ready for the next player.
        ready_delta = [
            0
            if TILES[t].kind != "multi"
            else (-1 if fills_now[i] else int(gems[i] + 2 == flowers[i]))
            for i, t in enumerate(tiles)
        ]
        self.root = root = paths.node[position.path]
        self.stop = stop = paths.end[root]
        size = len(paths.tile)
        self.fills = fills = [False] * size
        self.count = count = [0] * size
        self.gain = gain = [0] * size
        self.ready = ready = [0] * size
        keys: list[tuple[str, ...]] = [()] * size
        scores: dict[tuple[str, ...], int] = {(): 0}
        # The laid path, from the well down to the root: its fills are fixed.
        chain = []
        k = root
        while k > 0:
            chain.append(k)
            k = paths.parent[k]
        ready[0] = sum(
            1 for i, t in enumerate(tiles) if TILES[t].kind == "multi" and fills_now[i]
        )
        tile_of, parent_of = paths.tile, paths.parent
        for k in [*reversed(chain), *range(root + 1, stop)]:
            j, p = tile_of[k], parent_of[k]
            ready[k] = ready[p] + ready_delta[j]
            if fills_now[j] and count[p] < room:
                fills[k] = True
                count[k] = count[p] + 1
                key = keys[k] = keys[p] + (colours[j],)
                value = scores.get(key)
                if value is None:
                    value = scores[key] = gain[p] + append_gain(
                        side, before + keys[p], colours[j]
                    )
                gain[k] = value
            else:
                count[k], keys[k], gain[k] = count[p], keys[p], gain[p]
        self.room = room
        self.keys = keys

    def nodes(self) -> range:
        """The nodes of the plans: the laid path (unless empty) and every extension."""
        return range(self.root if self.root > 0 else 1, self.stop)

    def ends(self, k: int) -> bool:
        return self.count[k] == self.room

    def plan(self, k: int) -> Plan:
        """The plan of node `k`."""
        paths = self.trie
        path, fills = [], []
        node = k
        while node > 0:
            path.append(paths.tile[node])
            if self.fills[node]:
                fills.append(paths.tile[node])
            node = paths.parent[node]
        return Plan(
            tuple(reversed(path)),
            tuple(reversed(fills)),
            self.before + self.keys[k],
            self.gain[k],
            self.ends(k),
            self.ready[k],
        )


def plans(position: Position, max_length: int | None = None) -> Iterator[Plan]:
    """Every path extending the laid one (itself too, unless empty), depth first from the
    laid path's end, neighbours in reading order. `max_length` caps the path's length."""
    walk = Walk(position)
    depth = walk.trie.depth
    for k in walk.nodes():
        if max_length is None or depth[k] <= max_length:
            yield walk.plan(k)
