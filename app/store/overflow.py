"""The store's main pool: connections kept, and more opened only when a wait says so.

asyncpg's pool opens a new connection whenever every open one is in use, up to its
maximum, and the store's pool kept every connection it opened. So a burst of short reads
opened every extra connection the server was allowed: the forty sockets of ten rooms
welcomed at once took the server from 10 connections to 30, twenty more PostgreSQL backends
for reads that each hold a connection for a millisecond or two. They stayed open, and each
one's buffers and prepared statements cost the server about 43 KiB (`bench.scale --rooms
10`: 348 KiB a room, 262 with no extra connection at all; docs/benchmarks.md).

`OverflowPool` keeps `base` (the connections opened at start and kept) and `extra`, a second
pool of at most `ISHTAR_DB_MAX_OVERFLOW` connections:

- a request takes a base connection when one is free (or not opened yet);
- when none is, it takes an extra connection that is open and free;
- otherwise it waits for a base connection, and only once it has waited `grace_s` in vain
  does it take an extra one, which may open a connection;
- an extra connection unused for `idle_s` closes (asyncpg's inactive lifetime).

Under a load that holds every base connection (at 3,000 live rooms, a move holds its
connection through its commit's flush to disk) the extra connections open after one wait of
`grace_s` and stay open while they are used; a burst that frees the base connections within
`grace_s` opens none.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import asyncpg  # type: ignore[import-untyped]

# As long as a statement may take (create_pool's command_timeout).
RELEASE_TIMEOUT_S = 30.0


class OverflowPool:
    """`base`, spilling to `extra` after a wait of `grace_s` (see the module)."""

    def __init__(
        self, base: asyncpg.Pool, extra: asyncpg.Pool | None, grace_s: float
    ) -> None:
        self.base = base
        self.extra = extra
        self.grace_s = grace_s
        self.spilled = 0  # requests that waited grace_s and took an extra connection

    @asynccontextmanager
    async def acquire(self) -> AsyncIterator[asyncpg.Connection]:
        pool, conn = await self._take()
        try:
            yield conn
        finally:
            # Explicit: asyncpg would otherwise bound the release of a connection taken
            # with a timeout by that timeout (grace_s), and terminate a connection whose
            # reset (a rollback after an error) took longer under load.
            await pool.release(conn, timeout=RELEASE_TIMEOUT_S)

    async def _take(self) -> tuple[asyncpg.Pool, asyncpg.Connection]:
        base, extra = self.base, self.extra
        if (
            extra is None
            or base.get_idle_size()
            or base.get_size() < base.get_max_size()
        ):
            return base, await base.acquire()
        if extra.get_idle_size():
            return extra, await extra.acquire()
        try:
            return base, await base.acquire(timeout=self.grace_s)
        except TimeoutError:
            self.spilled += 1
            return extra, await extra.acquire()

    def get_size(self) -> int:
        """The connections open in both pools."""
        return int(self.base.get_size()) + (self.extra.get_size() if self.extra else 0)

    async def close(self) -> None:
        await asyncio.gather(
            self.base.close(), *([self.extra.close()] if self.extra else [])
        )

    def terminate(self) -> None:
        self.base.terminate()
        if self.extra is not None:
            self.extra.terminate()
