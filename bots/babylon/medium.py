"""Medium bot: every path of the turn, the one whose harvest is worth most.

It values every path that extends the one laid so far (bots/babylon/paths.py: at most
1,908, on Ishtar's Garden) by bots/babylon/evaluation.py `medium_value`: the points its
harvest adds (fill, bordered slots and lines, counted by the engine), less what it leaves
one gem from full for the next player; a path that places its 25th wink ends the game
(R-11), a win first if the seat is ahead, a loss to avoid if not. Ties go to the shorter
path (fewer gems given away), then to the first in reading order.
"""

from __future__ import annotations

import math
from typing import Any

from bots.babylon.evaluation import READY_WEIGHT, medium_value
from bots.babylon.paths import Plan, Walk
from bots.babylon.position import Position
from bots.babylon.turns import TurnBot


def node_values(walk: Walk) -> dict[int, float]:
    """`medium_value` of every plan of a walk, by node (only the paths that end the game
    are made into plans: who wins depends on the winks)."""
    gain, ready = walk.gain, walk.ready
    out = {}
    for k in walk.nodes():
        if walk.ends(k):
            out[k] = medium_value(walk.position, walk.plan(k))
        else:
            out[k] = gain[k] - READY_WEIGHT * ready[k]
    return out


def ranked(walk: Walk) -> list[int]:
    """The walk's nodes, best first: value, then the shorter path, then reading order."""
    values = node_values(walk)
    depth = walk.trie.depth
    return sorted(values, key=lambda k: (-values[k], depth[k], k))


def best_plan(position: Position) -> Plan:
    """The medium bot's path from this position (pure: the view decides it)."""
    walk = Walk(position)
    gain, ready, depth = walk.gain, walk.ready, walk.trie.depth
    best, best_value, best_depth = -1, -math.inf, 0
    for k in walk.nodes():
        if walk.ends(k):
            value = medium_value(position, walk.plan(k))
        else:
            value = gain[k] - READY_WEIGHT * ready[k]
        # Strictly better only: the first of equals in reading order stays.
        if value > best_value or (value == best_value and depth[k] < best_depth):
            best, best_value, best_depth = k, value, depth[k]
    return walk.plan(best)


class MediumBot(TurnBot):
    level = "medium"

    def plan(self, position: Position, view: dict[str, Any]) -> Plan:
        return best_plan(position)
