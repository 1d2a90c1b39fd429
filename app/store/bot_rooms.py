"""Rooms of bots only in the store: which client address filled each, and how many it holds.

``bot_room_owners`` (migration 0009) records the address (as a keyed hash) that seated a
room's last bot. A room counts against it while it has no person's seat and is not
finished. The quota (app/background/bot_quota.py) decides when to ask; here the count and
the record are one transaction under an advisory lock per address, so every instance shares
one count and two calls at once cannot both take the last place. Knows SQL and no limits'
reasons.
"""

from __future__ import annotations

from app.store.pool import Pools

# The two-key form of advisory locks: its key space is apart from the migrations' lock.
LOCK_CLASS = 0x1B07

_HELD = (
    "SELECT count(*) FROM bot_room_owners o JOIN rooms r ON r.id = o.room_id"
    " WHERE o.address_hash = $1 AND o.room_id <> $2"
    " AND r.status <> 'finished' AND NOT EXISTS"
    " (SELECT 1 FROM seats s WHERE s.room_id = o.room_id AND s.bot_level IS NULL)"
)
_OWN = (
    "INSERT INTO bot_room_owners (room_id, address_hash) VALUES ($1, $2)"
    " ON CONFLICT (room_id) DO UPDATE SET address_hash = EXCLUDED.address_hash,"
    " created_at = now()"
)


class BotRoomStore(Pools):
    """Owners of all-bot rooms (a part of `Store`: ``store.bot_rooms``)."""

    async def take(self, address_hash: bytes, room_id: str, limit: int) -> int:
        """How many other all-bot rooms in play `address_hash` holds; if fewer than
        `limit`, `room_id` is recorded as its own too (else nothing changes)."""
        lock = int.from_bytes(address_hash[:4], signed=True)
        async with self._transaction() as conn:
            await conn.execute("SELECT pg_advisory_xact_lock($1, $2)", LOCK_CLASS, lock)
            held: int = await conn.fetchval(_HELD, address_hash, room_id)
            if held < limit:
                await conn.execute(_OWN, room_id, address_hash)
        return held
