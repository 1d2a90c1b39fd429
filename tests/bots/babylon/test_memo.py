"""The memo of plans is bounded in entries and in bytes."""

from __future__ import annotations

from bots.babylon.memo import PlanMemo, plan_bytes
from bots.babylon.paths import Plan


def _plan(n: int) -> Plan:
    return Plan(tuple(range(n)), tuple(range(n // 2)), ("red",) * n, n, False, 0)


def test_entries_are_bounded() -> None:
    memo = PlanMemo(max_entries=5, max_bytes=10**9)
    for k in range(20):
        memo.get(("k", k), lambda k=k: _plan(k % 7))
    assert len(memo) == 5


def test_bytes_are_bounded_and_counted() -> None:
    memo = PlanMemo(max_entries=10**6, max_bytes=4000)
    for k in range(200):
        memo.get(("k", k), lambda: _plan(16))
    assert 0 < memo.bytes <= 4000
    assert len(memo) == 4000 // plan_bytes(("k", 199), _plan(16))


def test_a_hit_does_not_plan_again() -> None:
    memo = PlanMemo()
    made: list[int] = []

    def make() -> Plan:
        made.append(1)
        return _plan(3)

    assert memo.get("a", make) is memo.get("a", make)
    assert len(made) == 1
