"""Rooms and their seats in the store: creating a room, seating someone, starting its game.

Joins of one room are serialised by the room's row lock; a start is a compare-and-set on
the room's revision. Each change bumps the revision and sends its notice in its own
transaction (`bump_revision`, app/store/revision.py).
"""

from __future__ import annotations

from typing import Any

import asyncpg  # type: ignore[import-untyped]

from app.store.pool import Pools
from app.store.revision import bump_revision
from app.store.room_ids import is_room_id
from app.store.rows import GameRow, RoomRow, SeatRow


class SeatTaken(Exception):
    """The seat (or every seat) is already taken."""


class RoomClosed(Exception):
    """The room no longer takes seats or cannot start: its game has started."""


def _seat(row: Any) -> SeatRow:
    return SeatRow(
        row["id"],
        row["seat"],
        row["name"],
        row["bot_level"],
        row["is_host"],
        row["token_hash"],
        row["away_until"],
    )


_SEAT_COLUMNS = (
    "id, seat, name, bot_level, is_host, token_hash,"
    " CASE WHEN away_until > now() THEN away_until END AS away_until"
)


class RoomStore(Pools):
    """Rooms and seats (a part of `Store`)."""

    async def revisions(self, room_ids: list[str]) -> dict[str, int]:
        """The revision of each of these rooms (the heartbeat's check for lost notices)."""
        async with self._conn() as conn:
            rows = await conn.fetch(
                "SELECT id, revision FROM rooms WHERE id = ANY($1::text[])", room_ids
            )
        return {row["id"]: row["revision"] for row in rows}

    async def create_room(
        self,
        *,
        room_id: str,
        game: str,
        options: dict[str, Any],
        players: int,
        seat_order: str,
        host_token_hash: bytes,
    ) -> None:
        async with self._conn() as conn:
            await conn.execute(
                "INSERT INTO rooms (id, game, options, players, seat_order,"
                " host_token_hash) VALUES ($1, $2, $3, $4, $5, $6)",
                room_id,
                game,
                options,
                players,
                seat_order,
                host_token_hash,
            )

    async def load_room(self, room_id: str) -> RoomRow | None:
        if not is_room_id(room_id):  # names no room; may not even be sendable to SQL
            return None
        async with self._conn() as conn:
            room = await conn.fetchrow(
                "SELECT r.id, r.game, r.options, r.players, r.seat_order, r.status,"
                " r.host_token_hash, r.revision, r.created_at, g.id AS game_id,"
                " g.version, g.status AS game_status, g.current_seat"
                " FROM rooms r LEFT JOIN games g ON g.room_id = r.id WHERE r.id = $1",
                room_id,
            )
            if room is None:
                return None
            seats = await conn.fetch(
                f"SELECT {_SEAT_COLUMNS} FROM seats WHERE room_id = $1 ORDER BY seat",
                room_id,
            )
        started = (
            GameRow(
                room["game_id"],
                room["version"],
                room["game_status"],
                room["current_seat"],
            )
            if room["game_id"] is not None
            else None
        )
        return RoomRow(
            id=room["id"],
            game=room["game"],
            options=room["options"],
            players=room["players"],
            seat_order=room["seat_order"],
            status=room["status"],
            host_token_hash=room["host_token_hash"],
            revision=room["revision"],
            created_at=room["created_at"],
            seats=tuple(_seat(s) for s in seats),
            started=started,
        )

    async def add_seat(
        self,
        room_id: str,
        *,
        seat: int | None,
        name: str,
        token_hash: bytes | None,
        is_host: bool,
        bot_level: str | None = None,
    ) -> int:
        """Seat someone; the seat number. Joins of one room are serialised by its row lock."""
        try:
            async with self._transaction() as conn:
                room = await bump_revision(conn, room_id)
                if room is None or room.status != "open":
                    raise RoomClosed(room_id)  # rolled back: no bump, no notice
                taken = {
                    row["seat"]
                    for row in await conn.fetch(
                        "SELECT seat FROM seats WHERE room_id = $1", room_id
                    )
                }
                free = [n for n in range(room.players) if n not in taken]
                if seat is None:
                    if not free:
                        raise SeatTaken(room_id)
                    seat = free[0]
                elif seat not in free:
                    raise SeatTaken(room_id)
                await conn.execute(
                    "INSERT INTO seats (room_id, seat, name, token_hash, is_host, bot_level)"
                    " VALUES ($1, $2, $3, $4, $5, $6)",
                    room_id,
                    seat,
                    name,
                    token_hash,
                    is_host,
                    bot_level,
                )
        except asyncpg.UniqueViolationError as error:  # a concurrent join took it first
            raise SeatTaken(room_id) from error
        return seat

    async def bump_room(self, room_id: str) -> None:
        """Mark a room changed (its revision bumped, its notice sent), in a transaction
        of its own: for a change of what its status shows made outside its row (a late
        seat marked overdue, app/background/deadlines.py)."""
        async with self._transaction() as conn:
            await bump_revision(conn, room_id)

    async def seat_by_token(self, room_id: str, token_hash: bytes) -> SeatRow | None:
        if not is_room_id(room_id):
            return None
        async with self._conn() as conn:
            row = await conn.fetchrow(
                f"SELECT {_SEAT_COLUMNS} FROM seats WHERE room_id = $1 AND token_hash = $2",
                room_id,
                token_hash,
            )
        return None if row is None else _seat(row)

    async def start_game(
        self,
        room_id: str,
        *,
        revision: int,
        seat_numbers: dict[int, int],
        engine_name: str,
        seed: int,
        setup: dict[str, Any],
        snapshot_json: str,
        current_seat: int | None,
    ) -> bool:
        """Start the game if the room is still open at `revision`; False if it changed.

        `seat_numbers` maps seat row ids to their seat in the game (the shuffle).
        """
        async with self._transaction() as conn:
            updated = await conn.fetchval(
                "UPDATE rooms SET status = 'playing'"
                " WHERE id = $1 AND status = 'open' AND revision = $2 RETURNING id",
                room_id,
                revision,
            )
            if updated is None:
                return False
            await bump_revision(conn, room_id)
            await conn.executemany(
                "UPDATE seats SET seat = $1 WHERE id = $2",
                [(number, seat_id) for seat_id, number in seat_numbers.items()],
            )
            # What the players wrote in the lobby now carries the seat each plays (and so
            # its colour), not the one they had before the seats were drawn.
            await conn.execute(
                "UPDATE chat_messages AS m SET seat = s.seat FROM seats AS s"
                " WHERE m.room_id = $1 AND m.seat_id = s.id AND m.seat IS NOT NULL",
                room_id,
            )
            await conn.execute(
                "INSERT INTO games (room_id, engine, seed, setup, snapshot, version,"
                " current_seat) VALUES ($1, $2, $3, $4, $5, 0, $6)",
                room_id,
                engine_name,
                seed,
                setup,
                snapshot_json,
                current_seat,
            )
        return True
