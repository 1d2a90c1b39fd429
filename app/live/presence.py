"""Presence: who is connected to each room, across every server instance.

Each instance counts its own websocket connections per room and writes them, debounced,
to one `room_presence` row per (room, instance); the write sends a NOTIFY so every
instance re-reads the room's presence and tells its clients. A heartbeat keeps this
instance's rows fresh; rows of an instance that died stop counting after `max_age_s`.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Iterable
from typing import Any

from app.config.tasks import cancel_and_wait
from app.store.store import Store

log = logging.getLogger("ishtar.presence")

# At shutdown: how long removing this instance's presence rows may take (the other instances
# delete rows their heartbeats have not refreshed anyway: app/store/presence.py).
FORGET_S = 5.0


class Presence:
    """This instance's connection counts, published to and merged from the database."""

    def __init__(
        self,
        store: Store,
        instance: str,
        *,
        flush_delay_s: float = 0.05,
        max_age_s: float = 30.0,
    ) -> None:
        self.store = store
        self.instance = instance
        self.flush_delay_s = flush_delay_s
        self.max_age_s = max_age_s
        self._local: dict[str, Counter[int | None]] = {}
        self._dirty: set[str] = set()
        self._flush: asyncio.Task[None] | None = None

    def set_local(self, room_id: str, seats: Iterable[int | None]) -> None:
        """Replace this instance's connections to a room (a seat, or None per spectator)."""
        counts = Counter(seats)
        if counts == self._local.get(room_id, Counter()):
            return
        if counts:
            self._local[room_id] = counts
        else:
            self._local.pop(room_id, None)
        self._dirty.add(room_id)
        if self._flush is None or self._flush.done():
            self._flush = asyncio.get_running_loop().create_task(self._flush_soon())

    def local(self, room_id: str) -> tuple[set[int], int]:
        counts = self._local.get(room_id, Counter())
        seats = {seat for seat in counts if seat is not None}
        return seats, counts.get(None, 0)

    async def snapshot(self, room_id: str) -> dict[str, Any]:
        """{"connected_seats": [...], "spectators": n} over all live instances."""
        seats, spectators = await self.store.presence(
            room_id, self.instance, self.max_age_s
        )
        return self._merged(room_id, seats, spectators)

    async def snapshots(self, room_ids: list[str]) -> dict[str, dict[str, Any]]:
        """`snapshot` of many rooms, in one query."""
        others = await self.store.presences(room_ids, self.instance, self.max_age_s)
        return {
            room_id: self._merged(room_id, *others.get(room_id, (set(), 0)))
            for room_id in room_ids
        }

    def _merged(self, room_id: str, seats: set[int], spectators: int) -> dict[str, Any]:
        mine, my_spectators = self.local(room_id)
        return {
            "connected_seats": sorted(seats | mine),
            "spectators": spectators + my_spectators,
        }

    async def _flush_soon(self) -> None:
        await asyncio.sleep(self.flush_delay_s)
        await self.flush()

    async def flush(self) -> None:
        """Write the rooms whose counts changed; failures stay dirty for the next try."""
        while self._dirty:
            room_id = self._dirty.pop()
            seats, spectators = self.local(room_id)
            try:
                await self.store.put_presence(
                    room_id, self.instance, sorted(seats), spectators
                )
            except Exception:
                self._dirty.add(room_id)
                log.warning("presence of room %s not written; will retry", room_id)
                return

    async def heartbeat(self) -> None:
        """Keep this instance's rows alive (and retry any write that failed)."""
        await self.flush()
        await self.store.refresh_presence(
            self.instance, forget_after_s=self.max_age_s * 10
        )

    async def close(self) -> None:
        await cancel_and_wait(self._flush)
        self._local.clear()
        self._dirty.clear()
        try:
            # Bounded: at shutdown every connection of the pool may be in use.
            async with asyncio.timeout(FORGET_S):
                await self.store.forget_instance(self.instance)
        except Exception:
            log.warning("presence rows of %s not removed at shutdown", self.instance)
