"""The fair scheduler of bot thinking (app/background/bot_scheduler.py, issue 13 "Bots starve").

No database, no bots: rooms ask for slots and the tests look at the order in which they are
granted. Time is a fake clock that each turn advances by what it "thinks", so every order is
exact and nothing depends on the machine's speed.
"""

from __future__ import annotations

import asyncio
import gc
import tracemalloc

import pytest

from app.background.bot_scheduler import (
    PERSON_WEIGHT,
    WAITING_BYTES,
    FairScheduler,
    SchedulerFull,
)
from tests.support.allocations import trace_alone
from tests.support.databases import TestDatabases


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Table:
    """Rooms asking a scheduler for turns; `order` is the rooms in the order served."""

    def __init__(self, workers: int = 1, **options: int) -> None:
        self.clock = Clock()
        self.scheduler = FairScheduler(workers, clock=self.clock, **options)
        self.order: list[str] = []
        self.gates: dict[str, asyncio.Event] = {}
        self.mark, self.marked = 0, asyncio.Event()

    async def think(
        self, room: str, cost: float, weight: float = 1.0, gate: bool = False
    ) -> None:
        """One turn of `room`'s bot, thinking `cost` seconds (held at a gate if asked)."""
        async with self.scheduler.turn(room, cost=cost, weight=weight):
            self.order.append(room)
            if len(self.order) == self.mark:
                self.marked.set()
            if gate:
                self.gates[room] = asyncio.Event()
                await self.gates[room].wait()
            await asyncio.sleep(0)  # a turn lasts: the others queue up meanwhile
            self.clock.now += cost

    async def keep_thinking(
        self, room: str, cost: float, turns: int, weight: float = 1.0
    ) -> None:
        """A table that asks again as soon as it has moved."""
        for _ in range(turns):
            await self.think(room, cost, weight)
            await asyncio.sleep(0)


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_a_cheap_bot_is_served_before_a_backlog_of_searches() -> None:
    table = Table()
    first = asyncio.create_task(table.think("busy-0", 1.0, gate=True))
    await settle()
    busy = [asyncio.create_task(table.think(f"busy-{n}", 1.0)) for n in range(1, 21)]
    await settle()
    cheap = asyncio.create_task(table.think("medium", 0.02))
    await settle()
    assert table.scheduler.waiting == 21
    table.gates["busy-0"].set()
    await asyncio.gather(first, *busy, cheap)
    assert table.order[:2] == ["busy-0", "medium"]


async def test_tables_that_keep_asking_cannot_stall_a_newcomer() -> None:
    """Twenty tables of hard bots move on and on; a room that comes later with a cheaper
    bot is served as soon as a slot frees, not after their queue. (A newcomer as slow as
    they are is one table among 21: it waits one round, as each of them does.)"""
    table = Table(workers=2)
    busy = [
        asyncio.create_task(table.keep_thinking(f"busy-{n}", 1.0, turns=5))
        for n in range(20)
    ]
    table.mark = 30  # well into their games: every table has played
    await table.marked.wait()
    served = len(table.order)
    late = asyncio.create_task(table.think("late", 0.02))
    await asyncio.gather(late, *busy)
    assert table.order.index("late") - served <= 2, "at most the two slots in use"


async def test_people_waiting_come_before_tables_of_bots_only() -> None:
    table = Table()
    first = asyncio.create_task(table.think("bots-0", 1.0, gate=True))
    await settle()
    bots = [asyncio.create_task(table.think(f"bots-{n}", 1.0)) for n in range(1, 6)]
    await settle()
    person = asyncio.create_task(table.think("person", 1.0, weight=PERSON_WEIGHT))
    await settle()
    table.gates["bots-0"].set()
    await asyncio.gather(first, *bots, person)
    assert table.order[1] == "person"


async def test_tables_of_bots_only_still_advance_beside_rooms_with_people() -> None:
    """Weights, not a strict priority: among rooms of people asking all the time, a room of
    bots only gets one turn for every `PERSON_WEIGHT` of theirs or so, never none."""
    table = Table()
    people = [
        asyncio.create_task(
            table.keep_thinking(f"person-{n}", 1.0, turns=10, weight=PERSON_WEIGHT)
        )
        for n in range(2)
    ]
    bots = asyncio.create_task(table.keep_thinking("bots", 1.0, turns=3))
    await asyncio.gather(*people, bots)
    first_ten = table.order[:10]
    assert first_ten.count("bots") >= 1
    assert first_ten.count("bots") < first_ten.count("person-0")


async def test_a_room_has_one_bot_thinking_at_a_time() -> None:
    table = Table(workers=2)
    first = asyncio.create_task(table.think("room", 1.0, gate=True))
    await settle()
    with pytest.raises(RuntimeError, match="already"):
        await table.think("room", 1.0)
    table.gates["room"].set()
    await first
    await table.think("room", 1.0)  # once its turn is over, the room may ask again
    assert table.order == ["room", "room"]


async def test_the_waiting_line_is_bounded_in_rooms_and_bytes(
    test_databases: TestDatabases,
) -> None:
    table = Table(max_waiting=200)
    holder = asyncio.create_task(table.think("holder", 1.0, gate=True))
    await settle()
    gc.collect()
    trace_alone(test_databases)  # this test's allocations alone
    try:
        before = tracemalloc.take_snapshot()
        waiting = [
            asyncio.create_task(table.think(f"room-{n:011d}", 1.0)) for n in range(200)
        ]
        await settle()
        after = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    assert table.scheduler.waiting == 200
    # Everything the 200 waiting rooms hold: their tasks, frames, entries and futures.
    grown = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    assert 0 < grown <= 200 * WAITING_BYTES, f"{grown / 200:.0f} bytes per waiting room"
    with pytest.raises(SchedulerFull):
        await table.think("one-too-many", 1.0)
    table.gates["holder"].set()
    await asyncio.gather(holder, *waiting)
    assert "one-too-many" not in table.order
    await table.think("one-too-many", 1.0)  # room again once the line has moved


async def test_a_room_that_stops_waiting_leaves_the_line_and_frees_its_slot() -> None:
    table = Table()
    holder = asyncio.create_task(table.think("holder", 1.0, gate=True))
    await settle()
    gone = asyncio.create_task(table.think("gone", 0.01))
    after = asyncio.create_task(table.think("after", 1.0))
    await settle()
    gone.cancel()
    await settle()
    assert table.scheduler.waiting == 1
    table.gates["holder"].set()
    await asyncio.gather(holder, after)
    assert table.order == ["holder", "after"]
    # A turn cancelled while thinking gives its slot back too.
    stuck = asyncio.create_task(table.think("stuck", 1.0, gate=True))
    await settle()
    stuck.cancel()
    await settle()
    await asyncio.wait_for(table.think("next", 1.0), timeout=10)
    assert table.order[-2:] == ["stuck", "next"]


async def test_the_clocks_of_rooms_are_forgotten_once_they_carry_no_information() -> (
    None
):
    table = Table(max_waiting=4)
    for n in range(100):
        await table.think(f"room-{n}", 1.0)
    assert len(table.scheduler._clocks) <= 4 * 4 + 1
