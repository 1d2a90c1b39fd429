"""The collector policy: survivors frozen, and a full collection once the frozen heap grew."""

from __future__ import annotations

import gc
import weakref

from app.collector import Collector


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def cycle() -> weakref.ref[Node]:
    """A garbage cycle: only the collector can free it."""
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


async def test_survivors_are_frozen_and_a_grown_heap_is_collected_whole() -> None:
    collector = Collector(every_s=3600.0, growth=1.5)
    collector.start()
    try:
        frozen = gc.get_freeze_count()
        keep = [Node() for _ in range(1000)]
        collector.step()
        assert gc.get_freeze_count() >= frozen + 1000, "the survivors are frozen"
        assert collector.full_collections == 0

        garbage = cycle()
        collector.step()  # the cycle is frozen with the rest: not collected yet
        gc.collect()
        assert garbage() is not None, "a frozen cycle waits"

        keep += [Node() for _ in range(collector.baseline)]  # the heap grows by half
        collector.step()
        assert collector.full_collections == 1
        assert garbage() is None, "the full collection freed the cycle"
        assert collector.baseline >= len(keep)
    finally:
        await collector.stop()
    assert gc.get_freeze_count() == 0, "stopped: everything collectable again"
