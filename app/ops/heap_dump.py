"""A tracemalloc snapshot of the serving process on demand, to find what holds memory.

Start the server with `ISHTAR_HEAP_DUMP_DIR=DIR`: tracing starts once the server is up
(`ISHTAR_HEAP_DUMP_FRAMES` frames a traceback, 12; `PYTHONTRACEMALLOC` traces from the first
import instead, which takes minutes here), and each `SIGUSR2` writes `DIR/heap-<pid>-<k>.snap`
(`tracemalloc.Snapshot.dump`), and `python -m bench.heap A.snap B.snap` prints what grew
between two of them by allocation site. `bench.scale --heap DIR` takes one snapshot at each
phase of a run (docs/benchmarks.md, "Memory: where a
room's goes").

Off by default: tracing costs the process about twice its CPU and a third more memory.
Without a directory, `ishtar serve` logs a SIGUSR2 and ignores it (app/ops/signals.py).
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import tracemalloc
from pathlib import Path

from app.ops import signals

log = logging.getLogger("ishtar.heap")


class HeapDumps:
    """Writes numbered snapshots of the traced heap into one directory."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.taken = 0

    def path(self) -> Path:
        return self.directory / f"heap-{os.getpid()}-{self.taken}.snap"

    def take(self) -> Path:
        """Write a snapshot now (the event loop waits: a few seconds for a large heap)."""
        self.directory.mkdir(parents=True, exist_ok=True)
        target = self.path()
        partial = target.with_suffix(".partial")
        tracemalloc.take_snapshot().dump(str(partial))
        partial.replace(target)  # whole or absent, for a reader that polls
        self.taken += 1
        traced, peak = tracemalloc.get_traced_memory()
        log.info("heap snapshot %s: %d bytes traced (peak %d)", target, traced, peak)
        return target


def install(directory: Path | None, frames: int) -> HeapDumps | None:
    """Trace and dump on SIGUSR2 if a directory is configured; else nothing."""
    if directory is None:
        return None
    if not tracemalloc.is_tracing():
        tracemalloc.start(frames)
    dumps = HeapDumps(directory)
    asyncio.get_running_loop().add_signal_handler(signal.SIGUSR2, dumps.take)
    return dumps


def uninstall(dumps: HeapDumps | None) -> None:
    if dumps is not None:
        asyncio.get_running_loop().remove_signal_handler(signal.SIGUSR2)
        # Removing the loop's handler restores the default action, which ends the
        # process: SIGUSR2 goes back to being logged and ignored (app/ops/signals.py).
        signals.ignore(signal.SIGUSR2)
