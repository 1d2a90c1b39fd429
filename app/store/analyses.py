"""Analyses of finished games in the store: asking for one, claiming it, its progress.

``analysis_jobs`` (migration 0018) holds one row per game and engine version. A request
inserts the row unless it exists, under an advisory lock per address so that every
instance shares one count of the address's new analyses of the last day; a request for a
game already asked for reads the existing row and counts nothing. The workers
(app/records/analysis_jobs.py) claim one row at a time with ``FOR UPDATE SKIP LOCKED`` and
a lease: watched rows first (someone asked for them in the last `WATCHED_S` seconds), then
the oldest. A row whose lease ran out is claimed again, and after `attempts` tries it
fails. Knows SQL and no analysis.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.store.pool import Pools

# The two-key form of advisory locks (bot_rooms uses 0x1B07).
LOCK_CLASS = 0x0A11

WATCHED_S = 30.0
"""A job someone asked about within this many seconds is claimed before the others."""


@dataclass(frozen=True)
class Job:
    """One analysis row as the API and the workers read it."""

    id: int
    game_id: int
    room_id: str
    engine_version: str
    status: str
    done: int
    total: int
    result: dict[str, Any] | None
    error: str | None
    attempts: int
    cpu_s: float | None


_COLUMNS = (
    "id, game_id, room_id, engine_version, status, done, total, result, error,"
    " attempts, cpu_s"
)
_EXISTING = (
    f"UPDATE analysis_jobs SET watched_at = now() WHERE game_id = $1"
    f" AND engine_version = $2 RETURNING {_COLUMNS}"
)
_ASKED_TODAY = (
    "SELECT count(*) FROM analysis_jobs WHERE address_hash = $1"
    " AND created_at > now() - interval '1 day'"
)
_INSERT = (
    "INSERT INTO analysis_jobs (game_id, room_id, engine_version, address_hash)"
    " VALUES ($1, $2, $3, $4) ON CONFLICT (game_id, engine_version) DO UPDATE"
    f" SET watched_at = now() RETURNING {_COLUMNS}"
)
_GIVE_UP = (
    "UPDATE analysis_jobs SET status = 'failed', finished_at = now(), claimed_by = NULL,"
    " error = coalesce(error, 'the analysis stopped too many times')"
    " WHERE status = 'running' AND claimed_until < now() AND attempts >= $1"
)
_CLAIM = (
    "WITH next AS ("
    " SELECT id FROM analysis_jobs"
    " WHERE status = 'queued' OR (status = 'running' AND claimed_until < now())"
    f" ORDER BY watched_at > now() - make_interval(secs => {WATCHED_S}) DESC,"
    " created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)"
    " UPDATE analysis_jobs j SET status = 'running', claimed_by = $1,"
    " claimed_until = now() + make_interval(secs => $2), attempts = j.attempts + 1"
    f" FROM next WHERE j.id = next.id RETURNING j.{_COLUMNS.replace(', ', ', j.')}"
)
_PROGRESS = (
    "UPDATE analysis_jobs SET done = $3, total = $4, result = $5,"
    " claimed_until = now() + make_interval(secs => $6)"
    " WHERE id = $1 AND claimed_by = $2 AND status = 'running'"
)
_FINISH = (
    "UPDATE analysis_jobs SET status = $3::text, result = coalesce($4, result),"
    " error = $5, cpu_s = $6,"
    " done = CASE WHEN $3::text = 'done' THEN total ELSE done END,"
    " finished_at = now(), claimed_by = NULL, claimed_until = NULL"
    " WHERE id = $1 AND claimed_by = $2 AND status = 'running'"
)


def _job(row: Any) -> Job:
    return Job(*row)


def _changed(status: str) -> bool:
    return int(status.rpartition(" ")[2]) > 0


class AnalysisStore(Pools):
    """Analyses of finished games (a part of `Store`: ``store.analyses``)."""

    async def find(self, game_id: int, engine_version: str) -> Job | None:
        """The game's analysis by this engine version, marked as waited for; None if
        nobody asked for it yet."""
        async with self._conn() as conn:
            row = await conn.fetchrow(_EXISTING, game_id, engine_version)
        return None if row is None else _job(row)

    async def request(
        self,
        game_id: int,
        room_id: str,
        engine_version: str,
        address_hash: bytes,
        per_day: int,
    ) -> tuple[Job | None, int]:
        """The game's analysis, queued now if nobody asked for it yet and `address_hash`
        asked for fewer than `per_day` new ones in the last day; with that count. None (and
        nothing changed) when the address is over its bound."""
        lock = int.from_bytes(address_hash[:4], signed=True)
        async with self._transaction() as conn:
            row = await conn.fetchrow(_EXISTING, game_id, engine_version)
            if row is not None:
                return _job(row), 0
            await conn.execute("SELECT pg_advisory_xact_lock($1, $2)", LOCK_CLASS, lock)
            asked: int = await conn.fetchval(_ASKED_TODAY, address_hash)
            if asked >= per_day:
                return None, asked
            row = await conn.fetchrow(
                _INSERT, game_id, room_id, engine_version, address_hash
            )
        return _job(row), asked + 1

    async def claim(self, instance: str, lease_s: float, attempts: int) -> Job | None:
        """The next job for `instance`, leased for `lease_s` seconds: watched ones first,
        then the oldest; a running one whose lease ran out counts as queued. Jobs tried
        `attempts` times whose lease ran out fail first."""
        async with self._transaction() as conn:
            await conn.execute(_GIVE_UP, attempts)
            row = await conn.fetchrow(_CLAIM, instance, lease_s)
        return None if row is None else _job(row)

    async def progress(
        self,
        job_id: int,
        instance: str,
        done: int,
        total: int,
        partial: dict[str, Any] | None,
        lease_s: float,
    ) -> bool:
        """Record a running job's progress and renew its lease; whether it is still this
        instance's."""
        async with self._conn() as conn:
            status: str = await conn.execute(
                _PROGRESS, job_id, instance, done, total, partial, lease_s
            )
        return _changed(status)

    async def finish(
        self,
        job_id: int,
        instance: str,
        *,
        result: dict[str, Any] | None,
        error: str | None,
        cpu_s: float | None,
    ) -> bool:
        """End a running job: done with its result, or failed with its error."""
        status = "done" if error is None else "failed"
        async with self._conn() as conn:
            changed: str = await conn.execute(
                _FINISH, job_id, instance, status, result, error, cpu_s
            )
        return _changed(changed)

    async def backlog(self) -> int:
        """How many analyses wait or run (for the status of a new request)."""
        async with self._conn() as conn:
            count: int = await conn.fetchval(
                "SELECT count(*) FROM analysis_jobs"
                " WHERE status IN ('queued', 'running')"
            )
        return count
