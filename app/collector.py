"""Keep the cyclic garbage collector's full collections off the long-lived heap.

A full collection walks every object the collector tracks and stops the event loop while it
does: with a thousand spectators connected, about 100 ms, which was the whole tail of the
fan-out benchmark (docs/benchmarks.md). Most of those objects live as long as a connection
or a cached game: walking them again and again finds nothing.

So objects that have survived a while are frozen (`gc.freeze`: moved to a generation the
collector never walks). Once a second the objects that survived the young collections are
frozen too. Objects are still freed by reference counting when frozen; only garbage *cycles*
among frozen objects wait. To bound those, when the frozen heap has grown by half since the
last full collection, one full collection runs over everything (`gc.unfreeze`, `gc.collect`,
`gc.freeze`): cyclic garbage can never be more than half of the heap it lives in.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time

log = logging.getLogger("ishtar.collector")

FREEZE_EVERY_S = 1.0
GROWTH = (
    1.5  # a full collection once the frozen heap is this times its size after the last
)


class Collector:
    """Freeze the survivors now and then; collect everything when the frozen heap grew."""

    def __init__(self, every_s: float = FREEZE_EVERY_S, growth: float = GROWTH) -> None:
        self.every_s = every_s
        self.growth = growth
        self.baseline = 0
        self.full_collections = 0
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Freeze what exists (all of it lives as long as the process) and keep at it."""
        gc.freeze()
        self.baseline = gc.get_freeze_count()
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        gc.unfreeze()  # collectable again once stopped (tests start many apps)

    def step(self) -> None:
        """Freeze the survivors; a full collection if the frozen heap grew too much."""
        gc.freeze()
        if gc.get_freeze_count() > self.baseline * self.growth:
            started = time.perf_counter()
            gc.unfreeze()
            gc.collect()
            gc.freeze()
            self.baseline = gc.get_freeze_count()
            self.full_collections += 1
            log.info(
                "full collection: %d objects kept, %.0f ms",
                self.baseline,
                1000 * (time.perf_counter() - started),
            )

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.every_s)
            self.step()
