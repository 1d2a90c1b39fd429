"""Time controls in the store: a room's per-move time and policy, and its clock.

``time_controls`` holds what the host chose when creating the room; the clock is the game's
``turn_deadlines`` row, written by the trigger ``games_turn_changed`` (migration 0003) in the
transaction of each move. app/play/clock.py checks a time control and shows the clock in
the room status. Knows SQL and no rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from app.store.pool import Pools


@dataclass(frozen=True)
class Clock:
    """A room's time control, and its game's deadline (none before the start)."""

    per_move_s: int
    policy: str
    bot_level: str | None
    seat: int | None
    """The seat to act by `due_at`; None while no deadline runs."""
    version: int | None
    due_at: datetime | None
    overdue: bool | None


class TimeControlStore(Pools):
    """Rooms' time controls and clocks (a part of `Store`: ``store.time_controls``)."""

    async def save(
        self, room_id: str, per_move_s: int, policy: str, bot_level: str | None
    ) -> None:
        async with self._conn() as conn:
            await conn.execute(
                "INSERT INTO time_controls (room_id, per_move_s, policy, bot_level)"
                " VALUES ($1, $2, $3, $4)",
                room_id,
                per_move_s,
                policy,
                bot_level,
            )

    async def clock(self, room_id: str) -> Clock | None:
        """The room's time control and clock; None if the room has no time control."""
        async with self._conn() as conn:
            row = await conn.fetchrow(
                "SELECT t.per_move_s, t.policy, t.bot_level, d.seat, d.version,"
                " d.due_at, d.overdue FROM time_controls t"
                " LEFT JOIN turn_deadlines d ON d.room_id = t.room_id"
                " WHERE t.room_id = $1",
                room_id,
            )
        return None if row is None else Clock(*row)
