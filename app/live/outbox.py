"""The messages waiting to be written to one websocket, in order, for its one writer task.

`asyncio.Queue` does more than a connection needs (task accounting, any number of getters
and putters), and a room's update is put into every connection's queue: with a thousand
spectators that bookkeeping is a measurable part of each move
(docs/journal/benchmarks-history.md, "Second session"). An
outbox is a list and at most one waiting writer.

It is bounded twice: in items and in bytes (each item is weighed once, when it is put, by
the function the outbox was made with). A client that does not read makes its outbox fill;
what then happens to it is the connection's policy (app/live/connection.py), not the outbox's.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

Weigh = Callable[[object], int]


class Outbox:
    """A FIFO bounded in items and bytes, with a single consumer."""

    __slots__ = ("_items", "_waiter", "bytes", "limit", "max_bytes", "weigh")

    def __init__(self, limit: int, max_bytes: int, weigh: Weigh) -> None:
        self.limit = limit
        self.max_bytes = max_bytes
        self.weigh = weigh
        self.bytes = 0  # what the queued items weigh together
        # A list, not a deque: an empty deque is 760 bytes on every socket, and the items
        # are bounded by `limit` (taking the first moves at most that many).
        self._items: list[tuple[object, int]] = []
        self._waiter: asyncio.Future[None] | None = None

    def __len__(self) -> int:
        return len(self._items)

    @property
    def waiting(self) -> bool:
        """Whether its consumer waits for an item (and so is not busy with the last)."""
        return self._waiter is not None

    def fits(self, size: int) -> bool:
        """Whether an item of `size` bytes may be put. An empty outbox takes any one item:
        a single message is bounded by what the server builds, and refusing it would lose
        it (a welcome bigger than the budget must still reach its client)."""
        if not self._items:
            return True
        return len(self._items) < self.limit and self.bytes + size <= self.max_bytes

    def put(self, item: object) -> bool:
        """Append `item`; False (and nothing appended) when it does not fit."""
        size = self.weigh(item)
        if not self.fits(size):
            return False
        self._append(item, size)
        return True

    def force(self, item: object) -> None:
        """Append `item` whatever the bounds (a marker that must not be lost)."""
        self._append(item, self.weigh(item))

    def _append(self, item: object, size: int) -> None:
        self._items.append((item, size))
        self.bytes += size
        waiter = self._waiter
        if waiter is not None:
            self._waiter = None
            if not waiter.done():
                waiter.set_result(None)

    def take_if(self, wanted: Callable[[object], bool]) -> object | None:
        """The oldest item if there is one and `wanted(item)` (then removed), else None."""
        if self._items and wanted(self._items[0][0]):
            item, size = self._items.pop(0)
            self.bytes -= size
            return item
        return None

    def remove(self, unwanted: Callable[[object], bool]) -> list[object]:
        """Remove every queued item for which `unwanted(item)`; the removed, in order."""
        kept: list[tuple[object, int]] = []
        removed: list[object] = []
        for entry in self._items:
            if unwanted(entry[0]):
                removed.append(entry[0])
            else:
                kept.append(entry)
        if removed:
            self._items = kept
            self.bytes = sum(size for _, size in kept)
        return removed

    def clear(self) -> None:
        self._items.clear()
        self.bytes = 0

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
        item, size = self._items.pop(0)
        self.bytes -= size
        return item
