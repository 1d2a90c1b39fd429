"""Background tasks of the server: stopping them.

Every long-lived task (the collector, the deadline watch, the webhook courier, the listener,
presence flushes, the heartbeat, room publishers, bot drivers) is stopped the same way:
cancelled, then awaited, so that its `finally` blocks have run before shutdown goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any


async def cancel_and_wait(*tasks: asyncio.Task[Any] | None) -> None:
    """Cancel every task given (None: nothing), together, then wait until each has ended."""
    pending = [task for task in tasks if task is not None]
    for task in pending:
        task.cancel()
    for task in pending:
        with contextlib.suppress(asyncio.CancelledError):
            await task
