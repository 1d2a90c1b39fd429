"""From a turn's plan to the one step a bot is asked for (R-16).

`think` is called once per step with the seat's view, the path so far included. Every level
plans the whole path from the position at the start of the turn, then plays the plan's next
step: the next tile, or `harvest` once the path is laid. If the path laid so far is not a
beginning of that plan (someone else laid it, or a time limit cut an earlier search short),
the level plans again among the paths that extend it. Either way the step is a function of
the view alone, whichever process asks, and the memo (bots/babylon/memo.py) only saves the
work of planning the same turn again at each step.

A level's randomness comes from the turn-start position, not from the per-step seed, so all
the steps of a turn follow one plan. The seed only picks a scoreboard side (option
`scoreboards: choose`), a decision of one step.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any

from bots.babylon.base import as_action, find_irrigate, find_type
from bots.babylon.memo import PlanMemo
from bots.babylon.paths import Plan
from bots.babylon.position import Position, from_view

MEMO = PlanMemo()
"""The plans of this process, shared by every bot of every level (keys name the level)."""


class TurnBot:
    """A bot that plans whole paths; subclasses give `plan` and `settings`."""

    level = "turn"

    def settings(self) -> Hashable:
        """What besides the position a plan depends on (part of the memo's key)."""
        return ()

    def plan(self, position: Position, view: dict[str, Any]) -> Plan:
        """The best path extending `position.path` (`view` is the seat's, for sampling)."""
        raise NotImplementedError

    def act(self, view: dict[str, Any], legal: Sequence[Any], seed: int) -> Any:
        if not legal:
            raise ValueError("no legal action to choose from")
        if view.get("phase") == "scoreboard":
            return legal[random.Random(seed).randrange(len(legal))]
        position = from_view(view)
        plan = self.planned(position.at_turn_start(), view)
        if plan.path[: len(position.path)] != position.path:
            plan = self.planned(position, view)
        return step_of(plan, position, legal)

    def planned(self, position: Position, view: dict[str, Any]) -> Plan:
        key = (self.level, self.settings(), position.key(), position.path)
        return MEMO.get(key, lambda: self.plan(position, view))


def step_of(plan: Plan, position: Position, legal: Sequence[Any]) -> Any:
    """The item of `legal` that plays the plan's next step from the path laid so far."""
    laid = len(position.path)
    item = None
    if laid < len(plan.path):
        item = find_irrigate(legal, position.graph.spaces[plan.path[laid]])
    else:
        item = find_type(legal, "harvest")
    if item is None:  # a plan always fits its position; never undo nor fail a seat
        item = find_type(legal, "harvest") or next(
            (a for a in legal if as_action(a).type != "undo"), legal[0]
        )
    return item
