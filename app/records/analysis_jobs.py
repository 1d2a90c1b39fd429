"""Analyses of finished games: asked for over HTTP, computed by background workers, kept.

`Analyses` is what the routes call (docs/analysis.md, "Protocol"):

- `request(room_id, address)`: the room's game analysed by this engine version. A game
  already asked for (by anyone) answers with its row, computed or in progress, and counts
  nothing; otherwise a new row is queued, within `per_day` new analyses per client
  address per day (one count in PostgreSQL for every instance). Refusals change nothing:
  `unknown_room`, `game_not_started`, `game_not_over` (409), `too_many_analyses` (429).
- `read(room_id)`: the row, its progress and its result (partial while it runs); reading
  marks it as waited for, which puts it before the others in the line.

`AnalysisWorkers` is this instance's share of the work: `workers` loops, each claiming the
next job (`FOR UPDATE SKIP LOCKED`, a lease; watched jobs first, then the oldest: the
store's order, app/store/analyses.py) and running it in a worker process of its own at a
lower priority (`nice`), so that live games on this machine keep their cores. The workers
are a share of the machine's cores (`ISHTAR_ANALYSIS_SHARE`). A job reports its progress
move by move (the partial analysis, so the replay shows it while it is computed), which
renews its lease; one that dies with its instance is claimed again once its lease has run
out. Each job may use `cpu_s` seconds of CPU; past them it fails as too costly.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import queue as queues
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from app.config.tasks import cancel_and_wait
from app.games import registry
from app.play.limits import SharedRoomLimit
from app.play.protocol import ServiceError, msg
from app.records.analysis import NotAnalysable, analyse_record
from app.records.archive import Archive
from app.records.gamerecord import RecordError
from app.store.analyses import AnalysisStore, Job
from bots.analysis import TooCostly

log = logging.getLogger("ishtar.analyses")

PROGRESS_EVERY_S = 1.0
"""A running job writes its progress at most this often (and at its first move)."""
ATTEMPTS = 3
"""Claims of a job before it fails for good (each instance that died with it is one)."""


def job_json(job: Job) -> dict[str, Any]:
    """A job as the API answers it."""
    return {
        "status": job.status,
        "done": job.done,
        "total": job.total,
        "engine_version": job.engine_version,
        "analysis": job.result,
        "error": job.error,
    }


class Analyses:
    """Asking for a finished game's analysis, and reading it (the routes' service)."""

    def __init__(
        self,
        store: AnalysisStore,
        archive: Archive,
        addresses: SharedRoomLimit,
        per_day: int,
        poke: Any = None,
    ) -> None:
        self.store, self.archive, self.addresses = store, archive, addresses
        self.per_day = per_day
        self.poke = poke or (lambda: None)

    async def _finished(self, room_id: str) -> tuple[int, str]:
        facts = await self.archive.facts(room_id)
        if not facts.finished:
            raise ServiceError(
                "game_not_over",
                "The game is not over: it is analysed once it has ended.",
                version=facts.version,
                message=msg("error.game_not_over.analysis"),
            )
        game = self.archive.registry.get(facts.game)
        if game.think is None:
            raise ServiceError(
                "no_bots",
                f"{game.title} has no bots yet, and its analysis is played by them.",
                message=msg("error.no_bots.analysis", game=game.title),
            )
        return facts.game_id, game.rules.ENGINE_VERSION

    async def request(self, room_id: str, address: str) -> dict[str, Any]:
        game_id, version = await self._finished(room_id)
        digest = self.addresses.address_hash(await self.addresses.shared_key(), address)
        job, asked = await self.store.request(
            game_id, room_id, version, digest, self.per_day
        )
        if job is None:
            raise ServiceError(
                "too_many_analyses",
                f"Your address asked for {asked} new analyses today (at most"
                f" {self.per_day}): read those, or ask again tomorrow.",
                extra={"limit": self.per_day},
                message=msg("error.too_many_analyses.day", max=self.per_day),
            )
        if job.status == "queued":
            self.poke()
        return job_json(job)

    async def read(self, room_id: str) -> dict[str, Any]:
        game_id, version = await self._finished(room_id)
        job = await self.store.find(game_id, version)
        if job is None:
            raise ServiceError(
                "no_analysis",
                "Nobody has asked for this game's analysis yet.",
                message=msg("error.no_analysis.yet"),
            )
        return job_json(job)


# --- the worker processes ----------------------------------------------------------------

_progress: Any = None


def _child(progress: Any) -> None:
    """A worker process starts: lower priority than the server's, and the progress line."""
    global _progress
    _progress = progress
    with contextlib.suppress(OSError):
        os.nice(10)


def _run(
    job_id: int,
    record: dict[str, Any],
    extra_games: tuple[str, ...],
    rollouts: int,
    policy: str,
    cpu_s: float,
    luck_samples: int = 0,
) -> tuple[dict[str, Any] | None, str | None, float]:
    """In a worker process: the analysis of `record`, or the reason it failed; CPU used."""
    started = time.process_time()
    last = [0.0]

    def progress(done: int, total: int, snapshot: Any) -> None:
        now = time.monotonic()
        if _progress is not None and (now - last[0] >= PROGRESS_EVERY_S or done == 1):
            last[0] = now
            _progress.put((job_id, done, total, snapshot()))

    depth: dict[str, Any] = {}
    if rollouts:
        depth["rollouts"] = rollouts
    if policy:
        depth.update(policy=policy, luck_policy=policy)
    if luck_samples:
        depth["luck_samples"] = luck_samples
    try:
        result = analyse_record(
            registry(extra_games),
            record,
            depth,
            progress=progress,
            cpu_budget=cpu_s,
        )
    except TooCostly as error:
        return None, f"too costly: {error}", time.process_time() - started
    except (RecordError, NotAnalysable) as error:
        return None, error.reason, time.process_time() - started
    return result, None, time.process_time() - started


class AnalysisWorkers:
    """This instance's analysis workers: claim, compute in a process, store."""

    def __init__(
        self,
        store: AnalysisStore,
        archive: Archive,
        instance: str,
        *,
        workers: int,
        cpu_s: float,
        rollouts: int = 0,
        policy: str = "",
        luck_samples: int = 0,
        extra_games: tuple[str, ...] = (),
        lease_s: float = 120.0,
        poll_s: float = 5.0,
    ) -> None:
        self.store, self.archive, self.instance = store, archive, instance
        self.workers, self.cpu_s, self.rollouts = workers, cpu_s, rollouts
        self.policy, self.luck_samples = policy, luck_samples
        self.extra_games = extra_games
        self.lease_s, self.poll_s = lease_s, poll_s
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._executor: ProcessPoolExecutor | None = None
        self._progress: Any = None
        self._reader: asyncio.Task[None] | None = None

    @staticmethod
    def share(cores: int | None, share: float) -> int:
        """Worker processes for `share` of `cores` cores: at least one unless share is 0.

        >>> AnalysisWorkers.share(2, 0.5), AnalysisWorkers.share(8, 0.25), AnalysisWorkers.share(4, 0)
        (1, 2, 0)
        """
        if share <= 0:
            return 0
        return max(1, int((cores or 1) * share))

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._loop()) for _ in range(self.workers)]

    def poke(self) -> None:
        """A job was queued: an idle worker looks now rather than at its next poll."""
        self._wake.set()

    async def stop(self) -> None:
        """Stop claiming; end the worker processes now (an analysis they were computing
        is taken up again by an instance once its lease has run out)."""
        await cancel_and_wait(*self._tasks, self._reader)
        if self._executor is not None:
            # the executor has no public way to end a running task: its processes
            processes = list(getattr(self._executor, "_processes", {}).values())
            self._executor.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                process.terminate()
            self._executor = None

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            context = multiprocessing.get_context("spawn")
            self._progress = context.Queue()
            self._executor = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=context,
                initializer=_child,
                initargs=(self._progress,),
            )
            self._reader = asyncio.get_running_loop().create_task(self._read())
        return self._executor

    async def _read(self) -> None:
        """Write the progress the worker processes report (a thread waits on the line)."""
        loop = asyncio.get_running_loop()
        line = self._progress
        while True:
            try:
                item = await loop.run_in_executor(None, _next, line)
            except Exception as error:  # the line closed: the pool is gone
                log.warning("analysis progress line closed: %s", error)
                return
            if item is None:
                continue
            job_id, done, total, partial = item
            try:
                await self.store.progress(
                    job_id, self.instance, done, total, partial, self.lease_s
                )
            except Exception as error:
                log.warning("analysis %s: progress not stored: %s", job_id, error)

    async def _loop(self) -> None:
        while True:
            try:
                worked = await self.run_once()
            except Exception as error:
                log.warning("analysis worker failed: %s", error)
                worked = False
            if not worked:
                self._wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), self.poll_s)

    async def run_once(self) -> bool:
        """Claim the next job and compute it; whether there was one."""
        job = await self.store.claim(self.instance, self.lease_s, ATTEMPTS)
        if job is None:
            return False
        log.info("analysing room %s (attempt %s)", job.room_id, job.attempts)
        try:
            record = await self.archive.record(job.room_id)
            future = asyncio.get_running_loop().run_in_executor(
                self._pool(),
                _run,
                job.id,
                record,
                self.extra_games,
                self.rollouts,
                self.policy,
                self.cpu_s,
                self.luck_samples,
            )
            result, error, cpu = await future
        except Exception as failure:
            log.exception("analysis of room %s failed", job.room_id)
            result, error, cpu = None, f"the analysis failed: {failure}", None
        await self.store.finish(
            job.id, self.instance, result=result, error=error, cpu_s=cpu
        )
        return True


def _next(line: Any) -> Any:
    """The next progress report, or None after a short wait (so the thread can end)."""
    try:
        return line.get(timeout=0.5)
    except queues.Empty:
        return None
