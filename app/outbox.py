"""The messages waiting to be written to one websocket, in order, for its one writer task.

`asyncio.Queue` does more than a connection needs (task accounting, any number of getters
and putters), and a room's update is put into every connection's queue: with a thousand
spectators that bookkeeping is a measurable part of each move (docs/benchmarks.md). An
outbox is a deque and at most one waiting writer.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable


class Outbox:
    """A bounded FIFO with a single consumer."""

    __slots__ = ("_items", "_waiter", "limit")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._items: deque[object] = deque()
        self._waiter: asyncio.Future[None] | None = None

    def __len__(self) -> int:
        return len(self._items)

    def put(self, item: object) -> bool:
        """Append `item`; False (and nothing appended) when the outbox is full."""
        if len(self._items) >= self.limit:
            return False
        self.force(item)
        return True

    def force(self, item: object) -> None:
        """Append `item` whatever the limit (a marker that must not be lost)."""
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None:
            self._waiter = None
            if not waiter.done():
                waiter.set_result(None)

    def take_if(self, wanted: Callable[[object], bool]) -> object | None:
        """The oldest item if there is one and `wanted(item)` (then removed), else None."""
        if self._items and wanted(self._items[0]):
            return self._items.popleft()
        return None

    def clear(self) -> None:
        self._items.clear()

    async def get(self) -> object:
        """The oldest item, waiting for one if there is none."""
        while not self._items:
            waiter = asyncio.get_running_loop().create_future()
            self._waiter = waiter
            try:
                await waiter
            finally:
                if self._waiter is waiter:
                    self._waiter = None
        return self._items.popleft()
