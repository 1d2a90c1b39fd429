"""A seat's holder away, in the store: ``seats.away_until`` and the ``away_periods`` behind it.

While a seat is away (``away_until`` in the future) its turns' clock stands still: marking it
away moves its running deadline later by the time it will be away, coming back early (or the
seat changing hands: the trigger ``seats_holder_changed``, migration 0017) moves it back by
what is left, and a turn that starts while it is away is due that long after its return (the
trigger ``games_turn_changed``). Each period is kept in ``away_periods`` so the allowance per
year can be counted. Every change bumps the room's revision, so the table sees it. The limits
themselves are the caller's (app/play/away.py). Knows SQL and no rules.
"""

from __future__ import annotations

from datetime import datetime

import asyncpg  # type: ignore[import-untyped]

from app.store.pool import Pools
from app.store.revision import bump_revision

YEAR_S = 365 * 24 * 3600


class AwayRefused(Exception):
    """Why a period was refused: `reason` is ``past``, ``too_long`` or ``allowance``;
    `used_s` is what the last year's periods took already, in seconds."""

    def __init__(self, reason: str, used_s: float) -> None:
        super().__init__(reason)
        self.reason = reason
        self.used_s = used_s


_USED = (
    "SELECT coalesce(sum(extract(epoch FROM least(away_until, now())"
    " - greatest(away_from, now() - make_interval(secs => $2)))), 0)::float8"
    " FROM away_periods WHERE seat_id = $1"
    " AND away_until > now() - make_interval(secs => $2)"
)


async def _come_back(conn: asyncpg.Connection, seat_id: int) -> None:
    """End the seat's present away period now, giving its clock back the time left."""
    row = await conn.fetchrow(
        "SELECT room_id, seat, away_until FROM seats WHERE id = $1"
        " AND away_until > now()",
        seat_id,
    )
    if row is None:
        return
    await conn.execute(
        "UPDATE turn_deadlines SET due_at = due_at - ($3 - now())"
        " WHERE room_id = $1 AND seat = $2 AND NOT overdue AND due_at > $3",
        row["room_id"],
        row["seat"],
        row["away_until"],
    )
    await conn.execute(
        "UPDATE away_periods SET away_until = now()"
        " WHERE seat_id = $1 AND away_until > now()",
        seat_id,
    )


class AwayStore(Pools):
    """Seats' away periods (a part of `Store`: ``store.away``)."""

    async def used_s(self, seat_id: int) -> float:
        """Seconds the seat was (or is, so far) away in the last year."""
        async with self._conn() as conn:
            used: float = await conn.fetchval(_USED, seat_id, YEAR_S)
        return used

    async def go_away(
        self, room_id: str, seat_id: int, until: datetime, most_s: float, year_s: float
    ) -> datetime:
        """Mark the seat away until `until` (replacing a present period), at most `most_s`
        from now and `year_s` in the last year with it; the time stored. Raises
        `AwayRefused` and changes nothing otherwise."""
        async with self._transaction() as conn:
            await conn.execute("SELECT 1 FROM seats WHERE id = $1 FOR UPDATE", seat_id)
            want: float = await conn.fetchval(
                "SELECT extract(epoch FROM $1::timestamptz - now())::float8", until
            )
            await _come_back(conn, seat_id)
            used: float = await conn.fetchval(_USED, seat_id, YEAR_S)
            if want <= 0:
                raise AwayRefused("past", used)
            if want > most_s:
                raise AwayRefused("too_long", used)
            if used + want > year_s:
                raise AwayRefused("allowance", used)
            await bump_revision(conn, room_id)
            stored: datetime = await conn.fetchval(
                "UPDATE seats SET away_until = $2 WHERE id = $1 RETURNING away_until",
                seat_id,
                until,
            )
            await conn.execute(
                "INSERT INTO away_periods (seat_id, away_from, away_until)"
                " VALUES ($1, now(), $2)",
                seat_id,
                until,
            )
            # the clock of a turn already running stands still until the seat is back
            await conn.execute(
                "UPDATE turn_deadlines SET due_at = due_at + ($3 - now())"
                " WHERE room_id = $1 AND NOT overdue"
                " AND seat = (SELECT seat FROM seats WHERE id = $2)",
                room_id,
                seat_id,
                until,
            )
        return stored

    async def come_back(self, room_id: str, seat_id: int) -> None:
        """The seat is back now (nothing changes if it was not away)."""
        async with self._transaction() as conn:
            await conn.execute("SELECT 1 FROM seats WHERE id = $1 FOR UPDATE", seat_id)
            await _come_back(conn, seat_id)
            await conn.execute(
                "UPDATE seats SET away_until = NULL WHERE id = $1", seat_id
            )
            await bump_revision(conn, room_id)

    async def away_until(self, seat_id: int) -> datetime | None:
        async with self._conn() as conn:
            until: datetime | None = await conn.fetchval(
                "SELECT away_until FROM seats WHERE id = $1 AND away_until > now()",
                seat_id,
            )
        return until
