"""Notices of moves to the other instances, sent in the background and batched.

A move is announced after its commit (app/notices/listener.py explains the notice). Sending one NOTIFY
per move costs a pooled connection and a round trip each; under load most of that is
overhead. The announcer keeps one statement in flight at a time: every notice that gathers
while it runs goes out together in the next one (`Store.announce_many`, one `pg_notify` per
notice, in their order). A failed send is logged and dropped: the other instances still
catch up within their heartbeat (app/ops/runtime.py), reading versions from the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)

Send = Callable[[list[str]], Awaitable[None]]


class Announcer:
    """Queue notices; one background task sends what has gathered, batch after batch."""

    def __init__(self, send: Send) -> None:
        self._send = send
        self._queued: list[str] = []
        self._task: asyncio.Task[None] | None = None

    def announce(self, notice: str) -> None:
        self._queued.append(notice)
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        try:
            while self._queued:
                batch, self._queued = self._queued, []
                try:
                    await self._send(batch)
                except Exception as error:  # logged: the others catch up on their own
                    log.warning(
                        "%d notice(s) of moves not sent (%s); others catch up",
                        len(batch),
                        error,
                    )
        finally:
            self._task = None

    async def flush(self) -> None:
        """Wait until what is queued now has been sent (or given up)."""
        while self._task is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(self._task)
