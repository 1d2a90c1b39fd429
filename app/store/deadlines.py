"""Turn deadlines in the store: claiming the passed ones, marking a seat overdue, telling.

The trigger ``games_turn_changed`` (migration 0003) writes each game's ``turn_deadlines`` row
in the transaction of every move. The deadline watch (app/background/deadlines.py) claims
passed ones here with ``FOR UPDATE SKIP LOCKED``: a ``wait`` deadline is marked overdue by
the claim itself, a ``bot`` one is leased; the claim and its ``deadline_log`` rows are one
transaction, so each deadline is handled once. The present of the claim is the database's
``now()`` plus the watch's lead (`sql_now`, app/config/timesource.py): none in production.
Knows SQL and no policy.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.config.timesource import sql_now
from app.store.pool import Pools


@dataclass(frozen=True)
class Due:
    """A passed deadline this instance claimed."""

    game_id: int
    room_id: str
    seat: int
    version: int
    policy: str
    bot_level: str | None


_CLAIM = (
    "WITH due AS ("
    " SELECT game_id FROM turn_deadlines"
    f" WHERE due_at <= {sql_now('$4')} AND NOT overdue"
    f" AND (claimed_until IS NULL OR claimed_until < {sql_now('$4')})"
    " ORDER BY due_at LIMIT $1 FOR UPDATE SKIP LOCKED)"
    " UPDATE turn_deadlines d SET overdue = (t.policy = 'wait'),"
    " claimed_until = CASE WHEN t.policy = 'bot'"
    f" THEN {sql_now('$4')} + make_interval(secs => $2) END,"
    " claimed_by = $3"
    " FROM due, time_controls t WHERE d.game_id = due.game_id AND t.room_id = d.room_id"
    " RETURNING d.game_id, d.room_id, d.seat, d.version, t.policy, t.bot_level"
)
_LOG = (
    "INSERT INTO deadline_log (game_id, version, seat, policy, instance)"
    " VALUES ($1, $2, $3, $4, $5)"
)


class DeadlineStore(Pools):
    """Passed turn deadlines (a part of `Store`: ``store.deadlines``)."""

    async def claim(
        self, instance: str, limit: int, lease_s: float, ahead_s: float
    ) -> list[Due]:
        """One transaction: lock up to `limit` due rows (skipping rows others hold), mark
        ``wait`` ones overdue and lease ``bot`` ones to `instance`, and log each."""
        async with self._transaction() as conn:
            rows = await conn.fetch(_CLAIM, limit, lease_s, instance, ahead_s)
            claimed = [Due(*row) for row in rows]
            if claimed:
                await conn.executemany(
                    _LOG,
                    [
                        (due.game_id, due.version, due.seat, due.policy, instance)
                        for due in claimed
                    ],
                )
        return claimed

    async def mark_overdue(self, game_id: int, version: int) -> bool:
        """Mark the seat to act at `version` overdue and drop its lease; whether the
        deadline was still that one (a move meanwhile replaced it)."""
        async with self._conn() as conn:
            status: str = await conn.execute(
                "UPDATE turn_deadlines SET overdue = true, claimed_until = NULL"
                " WHERE game_id = $1 AND version = $2",
                game_id,
                version,
            )
        return int(status.rpartition(" ")[2]) > 0
