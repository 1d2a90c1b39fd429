"""Persistence of rooms, seats, games and the move log, with optimistic concurrency.

`Store` is all the SQL of the game server, in parts: rooms and joining them
(app/store/rooms.py), seats changing hands (app/store/seats.py), games and the move log (app/store/games.py), presence (app/store/presence.py), over the
pools of app/store/pool.py; the rows it hands out are in app/store/rows.py. Every write that others
must hear about sends `NOTIFY` (app/store/channel.py) in the same transaction (a room's
change through `bump_revision`, app/store/revision.py), so the notice is
delivered only once the change is committed.
This module and its parts know SQL and no rules; `app.play.service` decides what to write.
"""

from __future__ import annotations

from app.store.channel import CHANNEL, NOTIFY, NOTIFY_MANY, notice
from app.store.games import GameStore
from app.store.pool import CONNECTION_ERRORS, Unavailable
from app.store.presence import PresenceStore
from app.store.rooms import RoomStore
from app.store.seats import SeatStore


class Store(RoomStore, SeatStore, GameStore, PresenceStore):
    """All SQL of the game server, over an asyncpg pool (and a `light` one: `Pools`)."""

    async def announce(self, room_id: str, kind: str, number: int) -> None:
        """NOTIFY every instance that a room changed (after the change was committed)."""
        try:
            async with self.light.acquire() as conn:
                await conn.execute(NOTIFY, CHANNEL, notice(room_id, kind, number))
        except CONNECTION_ERRORS as error:
            raise Unavailable(str(error)) from error

    async def announce_many(self, notices: list[str]) -> None:
        """NOTIFY every instance of several changes in one statement, in their order."""
        try:
            async with self.light.acquire() as conn:
                await conn.execute(NOTIFY_MANY, CHANNEL, notices)
        except CONNECTION_ERRORS as error:
            raise Unavailable(str(error)) from error
