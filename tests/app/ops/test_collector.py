"""The collector policy: survivors frozen, and a full collection on a schedule or once memory
grew by half (when connections came and went since the last), or once enough client
connections closed."""

from __future__ import annotations

import gc
import weakref

from app.ops.collector import Collector, connections_closed, peak_memory
from app.ops.connection_guard import ConnectionBudget


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def cycle() -> weakref.ref[Node]:
    """A garbage cycle: only the collector can free it."""
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


async def test_survivors_are_frozen_and_a_grown_process_is_collected_whole() -> None:
    memory = [1000]
    closed = [0]
    collector = Collector(
        every_s=3600.0,
        growth=1.5,
        size=lambda: memory[0],
        full_every_s=1e9,
        full_after_closed=100,
        closed=lambda: closed[0],
    )
    collector.start()
    try:
        keep = [Node() for _ in range(1000)]
        collector.step()
        # Frozen: in none of the generations a collection walks. (Not read off the freeze
        # count: frozen objects of other code that die meanwhile leave that count, a CI
        # flake on a worker holding half a million frozen objects.)
        walked = {id(o) for o in gc.get_objects()}
        assert not any(id(node) in walked for node in keep), "the survivors are frozen"
        assert collector.full_collections == 0

        garbage = cycle()
        memory[0] = 1400  # grown, but not by half
        collector.step()  # the cycle is frozen with the rest: not collected yet
        gc.collect()
        assert garbage() is not None, "a frozen cycle waits"
        assert collector.full_collections == 0

        memory[0] = 1600
        closed[0] = 9
        collector.step()
        assert collector.full_collections == 0, "grown by live rooms: no garbage"
        closed[0] = 10  # a tenth of `full_after_closed`: sockets came and went
        collector.step()
        assert collector.full_collections == 1
        assert garbage() is None, "the full collection freed the cycle"
        assert collector.baseline == 1600, "the next one waits for growth from here"
        assert len(keep) == 1000
    finally:
        await collector.stop()
    assert gc.get_freeze_count() == 0, "stopped: everything collectable again"


def test_memory_is_read_in_constant_time_from_the_process() -> None:
    assert peak_memory() > 0


async def test_frozen_garbage_is_collected_on_schedule_though_memory_did_not_grow() -> (
    None
):
    """Growth alone let frozen garbage pile up ever higher (docs/security.md, "Reconnects")."""
    now = [0.0]
    closed = [0]
    collector = Collector(
        every_s=3600.0,
        size=lambda: 1000,
        full_every_s=60.0,
        clock=lambda: now[0],
        closed=lambda: closed[0],
    )
    collector.start()
    try:
        garbage = cycle()
        now[0] = 59.0
        closed[0] = 1
        collector.step()
        gc.collect()
        assert garbage() is not None, "frozen, and not yet time"
        assert collector.full_collections == 0
        now[0] = 60.0
        collector.step()
        assert collector.full_collections == 1
        assert garbage() is None, "collected on schedule"
        later = cycle()
        now[0] = 100.0
        closed[0] = 2
        collector.step()
        gc.collect()
        assert later() is not None, "the next one a full period after the last"
        now[0] = 120.0
        collector.step()
        assert later() is None and collector.full_collections == 2
        idle = cycle()
        now[0] = 200.0
        collector.step()
        assert collector.full_collections == 2, "nothing closed since: not walked"
        closed[0] = 3
        collector.step()
        assert idle() is None and collector.full_collections == 3
    finally:
        await collector.stop()


async def test_frozen_garbage_is_collected_once_enough_connections_closed() -> None:
    """What leaves cycles in the frozen heap is a closed connection; play makes none, so
    no full collection stops a busy server's event loop until sockets have come and gone."""
    closed = [0]
    collector = Collector(
        every_s=3600.0,
        size=lambda: 1000,
        full_every_s=1e9,
        full_after_closed=100,
        closed=lambda: closed[0],
        clock=lambda: 0.0,
    )
    collector.start()
    try:
        garbage = cycle()
        closed[0] = 99
        collector.step()
        gc.collect()
        assert garbage() is not None, "99 closed connections: not yet"
        assert collector.full_collections == 0
        closed[0] = 100
        collector.step()
        assert collector.full_collections == 1
        assert garbage() is None, "collected after 100 closed connections"
        later = cycle()
        closed[0] = 150
        collector.step()
        gc.collect()
        assert later() is not None, "counted again from the last full collection"
        closed[0] = 200
        collector.step()
        assert later() is None and collector.full_collections == 2
    finally:
        await collector.stop()


def test_a_released_client_connection_is_counted_for_the_collector() -> None:
    budget = ConnectionBudget(limit=10_000, reserved=0, per_address=0)
    before = connections_closed()
    transport = object()
    assert budget.admit(transport, "192.0.2.1") is None  # type: ignore[arg-type]
    budget.release(transport)  # type: ignore[arg-type]
    budget.release(transport)  # type: ignore[arg-type]  # the websocket's, after the HTTP's
    assert connections_closed() == before + 1
