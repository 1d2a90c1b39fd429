"""Room creations per client address in the store: the count every instance shares.

``room_creations`` (migration 0006) counts, per keyed hash of an address and per minute of
the database's clock, the rooms created; ``room_creation_key`` holds the key of that hash,
written once by the first instance to offer one. `SharedRoomLimit` (app/play/limits.py)
hashes the address and decides what a refusal says. Knows SQL and no rates' reasons.
"""

from __future__ import annotations

from app.store.pool import Pools

# The current minute and how far into it we are, on the database's clock so that every
# instance agrees. A creation is allowed while the previous minute's count, weighted by the
# part of it still inside the last 60 seconds, plus this minute's count (this one included)
# stays within the limit: a sliding window of one minute, two rows per address. The check
# and the count are one statement: the upsert's row lock orders concurrent creations (on
# any instance), and a refused creation counts for nothing.
_CHECK_AND_COUNT = """
    WITH clock AS (
        SELECT floor(t)::bigint AS minute, (t - floor(t))::float8 AS elapsed
        FROM (SELECT extract(epoch FROM clock_timestamp()) / 60 AS t) AS now
    ), earlier AS (
        SELECT coalesce(sum(c.created), 0)::float8 * (1 - clock.elapsed) AS weight
        FROM clock
        LEFT JOIN room_creations AS c
            ON c.address_hash = CAST($1 AS bytea) AND c.minute = clock.minute - 1
        GROUP BY clock.elapsed
    )
    INSERT INTO room_creations AS c (address_hash, minute, created)
    SELECT CAST($1 AS bytea), clock.minute, 1
    FROM clock, earlier
    WHERE earlier.weight + 1 <= CAST($2 AS float8)
    ON CONFLICT (address_hash, minute) DO UPDATE SET created = c.created + 1
    WHERE c.created + 1 + (SELECT weight FROM earlier) <= CAST($2 AS float8)
    RETURNING c.created
    """
_PRUNE = (
    "DELETE FROM room_creations"
    " WHERE minute < floor(extract(epoch FROM clock_timestamp()) / 60)::bigint - 1"
)


class RoomLimitStore(Pools):
    """Room creations per address (a part of `Store`: ``store.room_limits``)."""

    async def count(self, address_hash: bytes, per_minute: float) -> bool:
        """Count one creation by `address_hash` if it stays within `per_minute` in the
        last minute; whether it did (a refused one is not counted)."""
        async with self._conn() as conn:
            created = await conn.fetchval(
                _CHECK_AND_COUNT, address_hash, float(per_minute)
            )
        return created is not None

    async def prune(self) -> int:
        """Delete the counts no check reads any more; how many rows went."""
        async with self._conn() as conn:
            status: str = await conn.execute(_PRUNE)
        return int(status.rpartition(" ")[2])

    async def shared_key(self, offer: bytes) -> bytes:
        """The key of the address hash, the same for every instance: `offer` becomes it if
        there is none yet (the first instance to offer wins, every other reads the same)."""
        async with self._conn() as conn:
            await conn.execute(
                "INSERT INTO room_creation_key (id, key) VALUES (1, $1)"
                " ON CONFLICT (id) DO NOTHING",
                offer,
            )
            # A new statement (so a new snapshot): sees the key of whoever offered first.
            key = await conn.fetchval("SELECT key FROM room_creation_key WHERE id = 1")
        return bytes(key)
