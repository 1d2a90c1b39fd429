"""Keep the cyclic garbage collector's full collections off the long-lived heap.

A full collection walks every object the collector tracks and stops the event loop while it
does: with a thousand spectators connected, about 100 ms, which was the whole tail of the
fan-out benchmark (docs/journal/benchmarks-history.md, "Fan-out: one room, 2 players, 1,000
spectators"). Most of those objects live as long as a connection or a cached game: walking
them again and again finds nothing.

So objects that have survived a while are frozen (`gc.freeze`: moved to a generation the
collector never walks). Once a second the objects that survived the young collections are
frozen too. Objects are still freed by reference counting when frozen; only garbage *cycles*
among frozen objects wait. One full collection over everything (`gc.unfreeze`,
`gc.collect`, `gc.freeze`) bounds those. It runs when the garbage that waits for it can
have piled up, and not otherwise:

- once `ISHTAR_GC_FULL_AFTER_CLOSED` client connections (1,000) have closed since the last
  one: what leaves cycles in the frozen heap is a connection that closes after living more
  than a second (uvicorn's HTTP upgrade and asyncio's transports leave a few objects per
  socket; a connection of ours leaves none, app/web/ws.py). `note_connection_closed` counts
  them (app/ops/connection_guard.py calls it);
- when the process's memory (its peak resident set, read in constant time: counting the
  frozen objects walks them all) has grown by half since the last one
  (`ISHTAR_GC_FULL_GROWTH`) and a tenth of that many connections have closed;
- and at the latest `ISHTAR_GC_FULL_EVERY_S` (300 s) after the last one, for garbage of
  any other origin, if any connection closed since.

Memory that grows while no connection closes is live: rooms and sockets being added. At
1,000 live rooms the heap a full collection walks took it 0.9-1.2 s, and growth alone set
off two while the rooms connected and played, the whole tail of the scale benchmark
(docs/journal/benchmarks-history.md, "Issue 35: the heartbeat and the syncs"); the
positions a game leaves behind hold no cycles.

Growth alone was not a bound: garbage frozen between collections raises the peak it is
measured against, so each collection waited for more (111 -> 164 -> 249 -> 375 -> 506 MiB
over 33,000 reconnects; docs/security.md, "Reconnects"); the count of closed connections
bounds that garbage to what 1,000 sockets leave. A schedule of 10 s did too, but at 300 and
1,000 live rooms its full collections (0.1-0.26 s and 1.3 s of a stopped event loop) were
the tail of every room's moves (docs/journal/benchmarks-history.md, "Second pass"): rooms
that play and spectators that stay make no garbage for it to find.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import resource
import time
from collections.abc import Callable

from app.config.tasks import cancel_and_wait

log = logging.getLogger("ishtar.collector")

FREEZE_EVERY_S = 1.0


def peak_memory() -> int:
    """The process's peak resident set (the unit does not matter: only ratios are used)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


GROWTH = 1.5  # a full collection once memory is this times what it was after the last
FULL_AFTER_CLOSED = 1000  # or once this many client connections closed since the last
FULL_EVERY_S = 300.0  # and at the latest this long after the last


class _Closed:
    """Client connections closed in this process (`note_connection_closed`)."""

    count = 0


def note_connection_closed() -> None:
    """Count a client connection that closed: its leftovers wait for a full collection."""
    _Closed.count += 1


def connections_closed() -> int:
    return _Closed.count


class Collector:
    """Freeze the survivors now and then; collect everything on a schedule, or sooner
    when the frozen heap grew."""

    def __init__(
        self,
        every_s: float = FREEZE_EVERY_S,
        growth: float = GROWTH,
        size: Callable[[], int] = peak_memory,
        full_every_s: float = FULL_EVERY_S,
        clock: Callable[[], float] = time.monotonic,
        full_after_closed: int = FULL_AFTER_CLOSED,
        closed: Callable[[], int] = connections_closed,
    ) -> None:
        self.every_s = every_s
        self.growth = growth
        self.size = size
        self.full_every_s = full_every_s
        self.clock = clock
        self.full_after_closed = full_after_closed
        self.closed = closed
        self.closed_at_last = 0
        self.baseline = 0
        self.last_full = 0.0
        self.full_collections = 0
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Freeze what exists (all of it lives as long as the process) and keep at it."""
        gc.freeze()
        self.baseline = self.size()
        self.last_full = self.clock()
        self.closed_at_last = self.closed()
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        await cancel_and_wait(self._task)
        self._task = None
        gc.unfreeze()  # collectable again once stopped (tests start many apps)

    def step(self) -> None:
        """Freeze the survivors; a full collection when enough connections closed, the
        heap grew, or it is time."""
        gc.freeze()
        closed = self.closed() - self.closed_at_last
        due = self.clock() - self.last_full >= self.full_every_s and closed > 0
        churned = closed >= self.full_after_closed
        grown = (
            closed >= max(1, self.full_after_closed // 10)
            and self.size() > self.baseline * self.growth
        )
        if due or churned or grown:
            started = time.perf_counter()
            gc.unfreeze()
            found = gc.collect()
            gc.freeze()
            self.baseline = self.size()
            self.last_full = self.clock()
            self.closed_at_last = self.closed()
            self.full_collections += 1
            log.info(
                "full collection: %d unreachable objects, %.0f ms",
                found,
                1000 * (time.perf_counter() - started),
            )

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.every_s)
            self.step()
