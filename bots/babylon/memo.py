"""A small memo of turn plans, bounded in entries and in bytes.

The steps of one turn ask the same question (the plan of the turn-start position), so the
first step plans and the others look the plan up. A plan is a pure function of its key
(unless a time limit cut the search short), so the memo never changes what a bot plays, only
how fast: a miss plans again.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable

from bots.babylon.paths import Plan

MAX_ENTRIES = 256
MAX_BYTES = 256 * 1024


def plan_bytes(key: Hashable, plan: Plan) -> int:
    """A generous estimate of what one entry holds: the key's text and the plan's tuples
    (8 bytes a pointer, plus the tuples' and the object's headers)."""
    items = len(plan.path) + len(plan.fills) + len(plan.winks)
    return len(repr(key)) + 8 * items + 3 * 56 + 96


class PlanMemo:
    """Least recently used plans, at most `max_entries` and `max_bytes`."""

    def __init__(
        self, max_entries: int = MAX_ENTRIES, max_bytes: int = MAX_BYTES
    ) -> None:
        self.max_entries, self.max_bytes = max_entries, max_bytes
        self._plans: OrderedDict[Hashable, tuple[Plan, int]] = OrderedDict()
        self.bytes = 0

    def __len__(self) -> int:
        return len(self._plans)

    def get(self, key: Hashable, make: Callable[[], Plan]) -> Plan:
        found = self._plans.get(key)
        if found is not None:
            self._plans.move_to_end(key)
            return found[0]
        plan = make()
        size = plan_bytes(key, plan)
        self._plans[key] = (plan, size)
        self.bytes += size
        while len(self._plans) > self.max_entries or self.bytes > self.max_bytes:
            _, (_, dropped) = self._plans.popitem(last=False)
            self.bytes -= dropped
        return plan

    def clear(self) -> None:
        self._plans.clear()
        self.bytes = 0
