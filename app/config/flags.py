"""`Flag`: an `asyncio.Event` that holds nothing while nobody waits.

Every websocket had several events (its session's wake-up, uvicorn's "the peer reads"), and
an `asyncio.Event` keeps a deque of waiters from birth: 600-760 bytes each, 4-5 KiB of a
browser room's four sockets. A `Flag` keeps its waiters in a list made when the first one
waits and dropped when it is woken.
"""

from __future__ import annotations

import asyncio
from typing import Literal


class Flag:
    """`set`, `clear`, `is_set` and `wait` as `asyncio.Event` has them."""

    __slots__ = ("_set", "_waiters")

    def __init__(self) -> None:
        self._set = False
        self._waiters: list[asyncio.Future[None]] | None = None

    def is_set(self) -> bool:
        return self._set

    def set(self) -> None:
        """Set it and wake every waiter."""
        if self._set:
            return
        self._set = True
        waiters, self._waiters = self._waiters, None
        for waiter in waiters or ():
            if not waiter.done():
                waiter.set_result(None)

    def clear(self) -> None:
        self._set = False

    async def wait(self) -> Literal[True]:
        """Return once it is set (at once if it is)."""
        if self._set:
            return True
        waiter = asyncio.get_running_loop().create_future()
        if self._waiters is None:
            self._waiters = []
        self._waiters.append(waiter)
        try:
            await waiter
            return True
        finally:
            waiters = self._waiters
            if waiters is not None and waiter in waiters:
                waiters.remove(waiter)
                if not waiters:
                    self._waiters = None
