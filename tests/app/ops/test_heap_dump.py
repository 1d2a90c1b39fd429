"""Heap snapshots on SIGUSR2 (app/ops/heap_dump.py) and their reading by site (bench.heap)."""

from __future__ import annotations

import asyncio
import os
import signal
import tracemalloc
from pathlib import Path

from app.ops import heap_dump
from bench import heap


class Held:
    def __init__(self) -> None:
        self.payload = bytearray(4096)


def read_both(directory: Path) -> tuple[tracemalloc.Snapshot, tracemalloc.Snapshot]:
    pid = os.getpid()
    first, second = (directory / f"heap-{pid}-{k}.snap" for k in (0, 1))
    assert first.is_file() and second.is_file()
    assert not list(directory.glob("*.partial")), "written whole, then renamed"
    return tracemalloc.Snapshot.load(str(first)), tracemalloc.Snapshot.load(str(second))


async def test_no_directory_installs_nothing_and_traces_nothing() -> None:
    was = tracemalloc.is_tracing()
    assert heap_dump.install(None, 5) is None
    assert tracemalloc.is_tracing() == was


async def test_sigusr2_writes_a_whole_snapshot_and_growth_is_charged_to_its_line(
    tmp_path: Path,
) -> None:
    was_tracing = tracemalloc.is_tracing()
    dumps = heap_dump.install(tmp_path, 8)
    assert dumps is not None and tracemalloc.is_tracing()
    try:
        os.kill(os.getpid(), signal.SIGUSR2)
        await asyncio.sleep(0.05)  # the loop runs the handler
        kept = [Held() for _ in range(200)]  # about 800 KiB, from one line
        os.kill(os.getpid(), signal.SIGUSR2)
        await asyncio.sleep(0.05)
    finally:
        heap_dump.uninstall(dumps)
        if not was_tracing:
            tracemalloc.stop()
    before, after = read_both(tmp_path)
    rows = heap.growth(before, after, "site")
    top, grown, blocks = rows[0]
    assert top.startswith("tests/app/ops/test_heap_dump.py:"), rows[:3]
    assert grown >= 200 * 4096 and blocks >= 200
    ours = heap.growth(before, after, "ours")[0][0]
    assert ours == top, "our own line: no library frame to add"
    text = heap.report(rows, per=200, top=5)
    assert text.splitlines()[0].startswith("grown in all:")
    assert "bytes per 200" in text and "the rest" in text.splitlines()[-1]
    assert len(kept) == 200
