"""Mid-game snapshots are written after their move, in the background, and never block it."""

from __future__ import annotations

import asyncio
import logging

import pytest

from app.play.snapshots import SNAPSHOT_EVERY, Snapshots


def test_a_snapshot_is_due_every_few_versions() -> None:
    due = [v for v in range(1, 3 * SNAPSHOT_EVERY + 1) if Snapshots.due(v)]
    assert due == [SNAPSHOT_EVERY, 2 * SNAPSHOT_EVERY, 3 * SNAPSHOT_EVERY]


async def test_saving_returns_at_once_and_flush_waits_for_the_writes() -> None:
    written: list[tuple[int, int, str]] = []
    gate = asyncio.Event()

    async def write(game_id: int, version: int, text: str) -> None:
        await gate.wait()
        written.append((game_id, version, text))

    snapshots = Snapshots(write)
    snapshots.save(7, 16, lambda: '{"at":16}')
    snapshots.save(8, 32, lambda: '{"at":32}')
    assert written == [], "the caller does not wait for the write"
    flushing = asyncio.ensure_future(snapshots.flush())
    await asyncio.sleep(0)
    assert not flushing.done()
    gate.set()
    await asyncio.wait_for(flushing, 5)
    assert sorted(written) == [(7, 16, '{"at":16}'), (8, 32, '{"at":32}')]


async def test_a_failed_write_is_logged_not_raised(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def write(game_id: int, version: int, text: str) -> None:
        raise ConnectionError("database gone")

    snapshots = Snapshots(write)
    with caplog.at_level(logging.WARNING, logger="app.play.snapshots"):
        snapshots.save(7, 16, lambda: "{}")
        await asyncio.wait_for(snapshots.flush(), 5)
    assert "snapshot of game 7 at 16 not written: database gone" in caplog.text
