"""Presence in the store: each instance's connections per room (app/live/presence.py uses it).

Presence needs no durability: its writes go through the `light` pool, whose commits do not
wait for the disk.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.store.channel import CHANNEL, NOTIFY, NoticeKind, notice
from app.store.pool import Pools


class PresenceStore(Pools):
    """Presence rows (a part of `Store`)."""

    async def put_presence(
        self, room_id: str, instance: str, seats: Sequence[int], spectators: int
    ) -> None:
        """Record this instance's connections to a room (none: forget the row) and notify."""
        async with self._light_transaction() as conn:
            if seats or spectators:
                await conn.execute(
                    "INSERT INTO room_presence (room_id, instance, seats, spectators)"
                    " VALUES ($1, $2, $3, $4) ON CONFLICT (room_id, instance) DO UPDATE"
                    " SET seats = EXCLUDED.seats, spectators = EXCLUDED.spectators,"
                    " updated_at = now()",
                    room_id,
                    instance,
                    list(seats),
                    spectators,
                )
            else:
                await conn.execute(
                    "DELETE FROM room_presence WHERE room_id = $1 AND instance = $2",
                    room_id,
                    instance,
                )
            await conn.execute(NOTIFY, CHANNEL, notice(room_id, NoticeKind.PRESENCE, 0))

    async def presence(
        self, room_id: str, exclude_instance: str, max_age_s: float
    ) -> tuple[set[int], int]:
        """Connected seats and spectator count of a room from the other live instances."""
        async with self._conn() as conn:
            rows = await conn.fetch(
                "SELECT seats, spectators FROM room_presence WHERE room_id = $1"
                " AND instance <> $2 AND updated_at > now() - make_interval(secs => $3)",
                room_id,
                exclude_instance,
                max_age_s,
            )
        seats: set[int] = set()
        for row in rows:
            seats.update(row["seats"])
        return seats, sum(row["spectators"] for row in rows)

    async def presences(
        self, room_ids: list[str], exclude_instance: str, max_age_s: float
    ) -> dict[str, tuple[set[int], int]]:
        """`presence` of many rooms in one query: each room's connected seats and
        spectator count from the other live instances (a room with none: no entry)."""
        async with self._conn() as conn:
            rows = await conn.fetch(
                "SELECT room_id, seats, spectators FROM room_presence"
                " WHERE room_id = ANY($1::text[]) AND instance <> $2"
                " AND updated_at > now() - make_interval(secs => $3)",
                room_ids,
                exclude_instance,
                max_age_s,
            )
        found: dict[str, tuple[set[int], int]] = {}
        for row in rows:
            seats, spectators = found.get(row["room_id"], (set(), 0))
            seats.update(row["seats"])
            found[row["room_id"]] = (seats, spectators + row["spectators"])
        return found

    async def shared_rooms(self, room_ids: list[str], instance: str) -> set[str]:
        """Which of these rooms other instances have presence rows for (rows that may age
        out with no notice, when their instance dies)."""
        async with self._conn() as conn:
            rows = await conn.fetch(
                "SELECT DISTINCT room_id FROM room_presence"
                " WHERE room_id = ANY($1::text[]) AND instance <> $2",
                room_ids,
                instance,
            )
        return {row["room_id"] for row in rows}

    async def refresh_presence(self, instance: str, forget_after_s: float) -> None:
        """Heartbeat: keep this instance's rows fresh and drop long-dead rows of any instance."""
        async with self._conn() as conn:
            await conn.execute(
                "UPDATE room_presence SET updated_at = now() WHERE instance = $1",
                instance,
            )
            await conn.execute(
                "DELETE FROM room_presence WHERE updated_at < now() - make_interval(secs => $1)",
                forget_after_s,
            )

    async def forget_instance(self, instance: str) -> list[str]:
        """Remove every presence row of this instance (at shutdown); the rooms touched."""
        async with self._transaction() as conn:
            rooms = [
                row["room_id"]
                for row in await conn.fetch(
                    "DELETE FROM room_presence WHERE instance = $1 RETURNING room_id",
                    instance,
                )
            ]
            for room_id in rooms:
                await conn.execute(
                    NOTIFY, CHANNEL, notice(room_id, NoticeKind.PRESENCE, 0)
                )
        return rooms
