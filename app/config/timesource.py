"""Where the background loops get their time from: the real clock, or one a test moves.

The webhook courier (app/background/webhooks.py) and the deadline watch (app/background/deadlines.py) do two
things with time: they wait (for their next poll, or until poked), and they compare rows
with the present (a deadline passed, a retry or a lease is due). Both go through a
`TimeSource`, so that a test can stand time still and move it on when it wants, and prove
that nothing happened in a span of time without sleeping through it.

The present is the database's. The timestamps those rows hold are written by PostgreSQL's
``now()`` (the trigger of each move, the claims, the retries), and every instance compares
them with that one clock, so instances whose own clocks disagree still agree on what is due
and whose lease has run out. Passing this process's time into the queries instead would
lose that in production; so a source does not tell the time, it tells how far it is *ahead*
of the database, and the queries (in the store) read the present as ``now() +
make_interval(secs => $n)``, $n the lead (`sql_now`). The real source is 0 s ahead: in production every comparison is with
``now()``, as before. A `ManualTime` is ahead by what a test has advanced it, for the loops
given it only (the trigger and other loops keep the database's time). So a row written after
an advance, say a deadline set by a move, is already that much nearer to due for those
loops: tests advance first across what is there, and do not count on later rows.

`SystemTime` waits in real time. `ManualTime` waits until `advance` moves it past the end
of the wait (or until the wait's event is set); real time never ends one.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any, Protocol


def sql_now(ahead: str) -> str:
    """The present in SQL, given the statement's parameter `ahead` (such as ``"$3"``) bound
    to `TimeSource.ahead_s()`.

    >>> sql_now("$3")
    '(now() + make_interval(secs => $3))'
    """
    return f"(now() + make_interval(secs => {ahead}))"


class TimeSource(Protocol):
    """The time of a background loop: how far ahead of the database it is, and waiting."""

    def ahead_s(self) -> float:
        """Seconds this source is ahead of the database's ``now()`` (real time: 0)."""
        ...

    async def sleep(self, seconds: float, wake: asyncio.Event | None = None) -> None:
        """Let `seconds` pass, or return sooner once `wake` is set (if given)."""
        ...


class SystemTime:
    """Real time: the database's present, and the event loop's own waiting."""

    def ahead_s(self) -> float:
        return 0.0

    async def sleep(self, seconds: float, wake: asyncio.Event | None = None) -> None:
        if wake is None:
            await asyncio.sleep(seconds)
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(wake.wait(), seconds)


SYSTEM_TIME = SystemTime()


class ManualTime:
    """Time that passes only when `advance` is called: for tests.

    Starts level with the database. A wait ends when the time has been advanced to or past
    its end, or when its `wake` event is set. `sleeping` lets a test wait until a loop has
    finished what it was doing and is waiting again (so has looked at the new time).
    """

    def __init__(self) -> None:
        self._ahead = 0.0
        self._alarms: dict[asyncio.Future[None], float] = {}
        self._napped = asyncio.Event()

    def ahead_s(self) -> float:
        return self._ahead

    def advance(self, seconds: float) -> None:
        """Move time on by `seconds`; every wait that ends by then ends (when it next runs).

        The waits that end are forgotten at once, so a `sleeping` after this one counts only
        the loops that have gone back to waiting since."""
        if seconds < 0:
            raise ValueError("time does not go back")
        self._ahead += seconds
        for alarm, until in list(self._alarms.items()):
            if until <= self._ahead:
                del self._alarms[alarm]
                if not alarm.done():
                    alarm.set_result(None)

    def waiting(self) -> int:
        """How many waits are pending on this time now."""
        return len(self._alarms)

    async def sleeping(self, count: int = 1, timeout_s: float = 10.0) -> None:
        """Return once at least `count` waits are pending on this time.

        TimeoutError after `timeout_s` of real time: a loop that never waits on this time
        (stuck, or waiting on another clock) fails the test instead of hanging it."""
        async with asyncio.timeout(timeout_s):
            while len(self._alarms) < count:
                self._napped.clear()
                await self._napped.wait()

    async def sleep(self, seconds: float, wake: asyncio.Event | None = None) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        alarm: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._alarms[alarm] = self._ahead + seconds
        self._napped.set()
        waits: list[asyncio.Future[Any]] = [alarm]
        if wake is not None:
            waits.append(asyncio.ensure_future(wake.wait()))
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            self._alarms.pop(alarm, None)
            for waiting in waits:
                waiting.cancel()
