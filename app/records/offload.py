"""CPU-heavy work off the event loop, a bounded amount at a time.

Replaying moves with the engine and serialising views takes milliseconds (checking a long
record, up to a second); on the event loop that time is taken from every game's moves.
`Offload.thread` runs such work in worker threads, `workers` jobs at once (one by default:
the engine is pure Python, so more threads would only contend with the loop for the
interpreter lock), with at most `queue` jobs waiting; a job beyond that is refused with
`unavailable` (503, retry) rather than piling up.

`Offload.once` runs overlapping jobs of the same key once: the second caller awaits the
first's result (two viewers asking for the same move of the same replay cost one replay).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable
from typing import Any, ParamSpec, TypeVar

from app.play.protocol import ServiceError, msg

T = TypeVar("T")
P = ParamSpec("P")


class Offload:
    """Worker threads with bounded concurrency and a bounded queue, and joined jobs."""

    def __init__(self, workers: int = 1, queue: int = 32) -> None:
        self._slots = asyncio.Semaphore(workers)
        self._limit = workers + queue
        self._admitted = 0
        self._jobs: dict[Hashable, asyncio.Future[Any]] = {}

    @property
    def admitted(self) -> int:
        """Thread jobs running or waiting now."""
        return self._admitted

    async def thread(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """`fn(*args, **kwargs)` in a worker thread, once a slot is free; `unavailable` if too many
        jobs are waiting already."""
        if self._admitted >= self._limit:
            raise ServiceError(
                "unavailable",
                "The server is busy replaying other games; retry in a moment.",
                message=msg("error.unavailable.replaying"),
            )
        self._admitted += 1
        try:
            await self._slots.acquire()
        except BaseException:
            self._admitted -= 1
            raise
        work = asyncio.ensure_future(asyncio.to_thread(fn, *args, **kwargs))
        # The slot is held until the thread is done, even if the caller gave up meanwhile:
        # a thread cannot be stopped, and the bound is on threads at work.
        work.add_done_callback(self._release)
        result: T = await asyncio.shield(work)
        return result

    def _release(self, work: asyncio.Future[Any]) -> None:
        self._slots.release()
        self._admitted -= 1
        if not work.cancelled():
            work.exception()  # retrieved: the caller may have gone

    async def once(self, key: Hashable, job: Callable[[], Awaitable[T]]) -> T:
        """The result of `job()`, or of the job of the same `key` already running."""
        running = self._jobs.get(key)
        if running is None:
            running = asyncio.ensure_future(job())
            self._jobs[key] = running
            running.add_done_callback(lambda done: self._forget(key, done))
        result: T = await asyncio.shield(running)
        return result

    def _forget(self, key: Hashable, job: asyncio.Future[Any]) -> None:
        if self._jobs.get(key) is job:
            del self._jobs[key]
        if not job.cancelled():
            job.exception()  # retrieved: every caller may have gone (a closed request)
