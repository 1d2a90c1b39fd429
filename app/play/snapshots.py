"""Mid-game snapshots, written after the move that reached them and off its path.

A game's truth is its seed and its move log; the snapshot (the engine's encoded state at
`snapshot_version`) only saves a process that never saw the game from replaying it all. So a
move's transaction carries only what must be durable with it: the compare-and-set and the log
entry (and, for the last move, the final state). Every `SNAPSHOT_EVERY`-th position is written
afterwards, in the background, through the pool whose commits do not wait for the disk.

Before, the snapshot rode in the move's own transaction: 3 KB of JSONB (TOASTed) in the WAL
flush every client of the room waits for, 0.22 ms more per such commit alone, and such commits
were among the slowest when several games reached them together
(docs/journal/benchmarks-history.md, "Third session"). A snapshot that is lost (a crash
before its commit, a failed write) costs the next reader a few more moves to replay; the
write never goes backwards (`snapshot_version < version` in its WHERE clause).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)

SNAPSHOT_EVERY = 16
"""Versions at which a game's snapshot is written (and its last version, with its move)."""

Write = Callable[[int, int, str], Awaitable[None]]  # game id, version, encoded state


class Snapshots:
    """Write snapshots in the background; `flush` waits for those in flight."""

    def __init__(self, write: Write) -> None:
        self._write = write
        self._tasks: set[asyncio.Task[None]] = set()

    @staticmethod
    def due(version: int) -> bool:
        return version % SNAPSHOT_EVERY == 0

    def save(self, game_id: int, version: int, encode: Callable[[], str]) -> None:
        """Encode and write the state at `version`, after the caller's move is out."""
        task = asyncio.get_running_loop().create_task(
            self._save(game_id, version, encode)
        )
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _save(
        self, game_id: int, version: int, encode: Callable[[], str]
    ) -> None:
        try:
            await self._write(game_id, version, encode())
        except Exception as error:
            # A cache: the next snapshot, or a few more moves to replay, will do.
            log.warning(
                "snapshot of game %s at %s not written: %s", game_id, version, error
            )

    async def flush(self) -> None:
        """Wait until the snapshots asked for so far are written (or given up)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)
