"""Who thinks next: the bot workers of one process, shared fairly between rooms.

A bot that is to move waits for one of a few worker slots (one per bot process) and thinks
while it holds it. Each room waits for at most one slot at a time (a room's bot moves one
step after another), and the next free slot goes to the waiting room with the earliest
*virtual finish time* (weighted fair queuing):

- every room has a virtual clock that advances by the seconds of thinking it was given,
  divided by its weight; a room that arrives, or comes back after a pause, starts at the
  scheduler's current virtual time, never behind a backlog it did not build;
- a waiting room's finish time is its start plus its expected think time over its weight,
  so a medium bot (milliseconds) goes before a hard bot's search (about a second), and a
  table of hard bots that keeps asking falls behind tables that ask less;
- a room where a person sits weighs `PERSON_WEIGHT` times a room of bots only: people
  waiting for a bot come first, yet all-bot rooms still advance (no one starves).

So twenty busy tables cannot stall another one: a newcomer waits at most for the slots in
use to free up, not for the queue. The waiting line is bounded (`max_waiting` rooms, each a
fixed-size entry: `WAITING_BYTES` with the task that waits); beyond it `SchedulerFull` is raised and
the room is looked at again by the runner's next sweep. The per-room clocks are forgotten
once they fall behind the current virtual time (where they would start anyway), and their
number is capped too.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

PERSON_WEIGHT = 4.0
"""How much more a room with a person weighs than a room of bots only."""

WAITING_BYTES = 2560
"""Upper bound of the memory of one waiting room, in bytes: its entry in the line and its
future (about 0.2 KiB), and the suspended task that waits (the rest); measured by
tests/app/background/test_bot_scheduler.py. 1,024 rooms waiting hold at most 2.5 MiB."""


class SchedulerFull(Exception):
    """Too many rooms are waiting for a bot slot already; try again later."""


@dataclass(order=True, slots=True)
class _Waiting:
    finish: float
    seq: int
    start: float = field(compare=False)
    room_id: str = field(compare=False)
    granted: asyncio.Future[None] = field(compare=False)


class FairScheduler:
    """`workers` slots for bot thinking, granted in weighted-fair order across rooms."""

    def __init__(
        self,
        workers: int,
        *,
        max_waiting: int = 1024,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if workers < 1:
            raise ValueError("a scheduler needs at least one worker")
        self.workers = workers
        self.max_waiting = max_waiting
        self._clock = clock
        self._free = workers
        self._virtual = 0.0
        self._clocks: dict[str, float] = {}  # room -> virtual time its service reached
        self._line: list[_Waiting] = []  # a heap on (finish, seq)
        self._rooms: set[str] = set()  # rooms waiting or holding a slot
        self._seq = itertools.count()

    @property
    def waiting(self) -> int:
        """Rooms waiting for a slot now."""
        return len(self._line)

    @asynccontextmanager
    async def turn(
        self, room_id: str, *, cost: float, weight: float = 1.0
    ) -> AsyncIterator[None]:
        """Hold one slot for a bot of `room_id` expected to think `cost` seconds."""
        if room_id in self._rooms:
            raise RuntimeError(f"room {room_id} already waits for or holds a bot slot")
        if len(self._line) >= self.max_waiting:
            raise SchedulerFull(f"{len(self._line)} rooms wait for a bot already")
        start = max(self._virtual, self._clocks.get(room_id, 0.0))
        entry = _Waiting(
            start + cost / weight,
            next(self._seq),
            start,
            room_id,
            asyncio.get_running_loop().create_future(),
        )
        self._rooms.add(room_id)
        heapq.heappush(self._line, entry)
        self._grant()
        try:
            await entry.granted
        except asyncio.CancelledError:
            self._rooms.discard(room_id)
            if entry.granted.cancelled():  # still in line (or skipped): leave it
                if entry in self._line:
                    self._line.remove(entry)
                    heapq.heapify(self._line)
            else:  # granted just as it was cancelled: hand the slot on
                self._release()
            raise
        began = self._clock()
        try:
            yield
        finally:
            used = max(0.0, self._clock() - began)
            self._clocks[room_id] = entry.start + used / weight
            self._rooms.discard(room_id)
            self._release()

    def _grant(self) -> None:
        while self._free and self._line:
            entry = heapq.heappop(self._line)
            if entry.granted.done():  # cancelled, its task not yet resumed to leave
                continue
            self._free -= 1
            self._virtual = max(self._virtual, entry.start)
            entry.granted.set_result(None)

    def _release(self) -> None:
        self._free += 1
        self._grant()
        if len(self._clocks) > 4 * self.max_waiting:
            self._forget()

    def _forget(self) -> None:
        """Drop the clocks that would start at the current virtual time anyway; if too
        many are still ahead of it, those nearest to it (the least ahead) go too."""
        ahead = sorted(
            (at, room) for room, at in self._clocks.items() if at > self._virtual
        )
        keep = ahead[-2 * self.max_waiting :]
        self._clocks = {room: at for at, room in keep}
