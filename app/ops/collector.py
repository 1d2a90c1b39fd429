"""Keep the cyclic garbage collector's full collections off the long-lived heap.

A full collection walks every object the collector tracks and stops the event loop while it
does: with a thousand spectators connected, about 100 ms, which was the whole tail of the
fan-out benchmark (docs/benchmarks.md). Most of those objects live as long as a connection
or a cached game: walking them again and again finds nothing.

So objects that have survived a while are frozen (`gc.freeze`: moved to a generation the
collector never walks). Once a second the objects that survived the young collections are
frozen too. Objects are still freed by reference counting when frozen; only garbage *cycles*
among frozen objects wait. To bound those, one full collection runs over everything
(`gc.unfreeze`, `gc.collect`, `gc.freeze`) on a schedule (`ISHTAR_GC_FULL_EVERY_S`, 10 s
by default), and sooner when the process's memory (its peak resident set, read in
constant time: counting the frozen objects walks them all, and once a second that cost a
tenth of the CPU of a move) has grown by half since the last one.

Growth alone was not a bound: garbage frozen between collections raises the peak it is
measured against, so each collection waited for more (111 -> 164 -> 249 -> 375 -> 506 MiB
over 33,000 reconnects; docs/security.md, "Reconnects"). The schedule bounds what can pile
up to what 10 s of traffic leaves: a connection of ours leaves no cycles (app/web/ws.py), but
uvicorn's HTTP upgrade and asyncio's transports leave a few objects per socket.
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
FULL_EVERY_S = 10.0  # and at the latest this long after the last


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
    ) -> None:
        self.every_s = every_s
        self.growth = growth
        self.size = size
        self.full_every_s = full_every_s
        self.clock = clock
        self.baseline = 0
        self.last_full = 0.0
        self.full_collections = 0
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Freeze what exists (all of it lives as long as the process) and keep at it."""
        gc.freeze()
        self.baseline = self.size()
        self.last_full = self.clock()
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        await cancel_and_wait(self._task)
        self._task = None
        gc.unfreeze()  # collectable again once stopped (tests start many apps)

    def step(self) -> None:
        """Freeze the survivors; a full collection when it is time or the heap grew."""
        gc.freeze()
        due = self.clock() - self.last_full >= self.full_every_s
        if due or self.size() > self.baseline * self.growth:
            started = time.perf_counter()
            gc.unfreeze()
            found = gc.collect()
            gc.freeze()
            self.baseline = self.size()
            self.last_full = self.clock()
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
