"""Seats changing hands in the store: leaving, handing a seat to a person or a bot, the
seats' history and "your games".

Each change is one transaction that bumps the room's revision and sends its notice
(`bump_revision`, app/store/revision.py), which also takes the room's row lock first.
Whoever held a seat before is kept in ``seat_history`` by the trigger
``seats_holder_changed`` (migration 0003), whatever the path that changed the holder.
The rules (who may, which seat) are app/play/seat_checks.py's; this module knows SQL only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import asyncpg  # type: ignore[import-untyped]

from app.config.timesource import sql_now
from app.store.pool import Pools
from app.store.revision import bump_revision


class SeatGone(Exception):
    """The seat's holder changed meanwhile (left or was replaced through another call)."""


# The next seat in turn order after the leaving one held by a person (a seat whose holder has
# not claimed it yet comes after every claimed one), in a rematch room only: the host of a
# rematch is a seat, as nobody holds that room's host token.
_HAND_ON_HOST = (
    "WITH gone AS (UPDATE seats SET is_host = false WHERE id = $1 AND is_host"
    " AND EXISTS (SELECT 1 FROM rematches m WHERE m.rematch_id = seats.room_id)"
    " RETURNING room_id, seat), heir AS (SELECT s.id FROM gone"
    " JOIN rooms r ON r.id = gone.room_id JOIN seats s ON s.room_id = gone.room_id"
    " WHERE s.id <> $1 AND s.bot_level IS NULL"
    " ORDER BY s.token_hash IS NULL, (s.seat - gone.seat + r.players) % r.players"
    " LIMIT 1) UPDATE seats SET is_host = true WHERE id IN (SELECT id FROM heir)"
    " RETURNING seat"
)

_HISTORY = (
    "SELECT seat_id, name, bot_level, held_from, held_until, until_version, ended"
    " FROM seat_history WHERE room_id = $1 ORDER BY held_until, id"
)

# Seats of games in play whose person left at least $1 seconds ago (``joined_at`` is when
# the seat last changed hands: the trigger seats_holder_changed sets it), in rooms without
# a time control (there the seat follows the clock's policy), oldest first.
_LEFT_DUE = (
    "SELECT s.room_id, s.seat FROM seats s JOIN rooms r ON r.id = s.room_id"
    " WHERE r.status = 'playing' AND s.token_hash IS NULL AND s.bot_level IS NULL"
    f" AND s.joined_at <= {sql_now('$2')} - make_interval(secs => $1)"
    " AND NOT EXISTS (SELECT 1 FROM time_controls t WHERE t.room_id = r.id)"
    " ORDER BY s.joined_at LIMIT $3"
)

_HELD_ROOMS = (
    "SELECT r.id, r.status, r.players, r.host_token_hash, r.created_at, g.version,"
    " g.id AS game_id,"
    " g.current_seat, last.created_at AS last_move_at, d.due_at, d.overdue"
    " FROM rooms r LEFT JOIN games g ON g.room_id = r.id"
    " LEFT JOIN LATERAL (SELECT created_at FROM moves m WHERE m.game_id = g.id"
    " ORDER BY m.seq DESC LIMIT 1) last ON true"
    " LEFT JOIN turn_deadlines d ON d.game_id = g.id"
    " WHERE r.id = ANY($1::text[])"
)
_HELD_SEATS = (
    "SELECT room_id, seat, name, bot_level, token_hash,"
    " CASE WHEN away_until > now() THEN away_until END AS away_until FROM seats"
    " WHERE room_id = ANY($1::text[]) ORDER BY room_id, seat"
)


def _changed(status: str) -> bool:
    """Whether a command's status (``UPDATE 1``, ``DELETE 0``) says it touched a row."""
    return status.rsplit(" ", 1)[-1] != "0"


async def _hand_on_host(conn: asyncpg.Connection, seat_id: int) -> None:
    """If seat `seat_id` hosts a rematch, make the next person's seat its host instead
    (in the caller's transaction, before the seat changes hands)."""
    await conn.execute(_HAND_ON_HOST, seat_id)


class SeatStore(Pools):
    """Seats changing hands, and what they held (a part of `Store`)."""

    async def leave_seat(self, room_id: str, seat_id: int, token_hash: bytes) -> None:
        """The holder of `token_hash` leaves seat `seat_id`: before the start the seat is
        freed, after it the seat stays in the game without a token. Raises `SeatGone` if
        the token no longer holds the seat."""
        async with self._transaction() as conn:
            room = await bump_revision(conn, room_id)
            await _hand_on_host(conn, seat_id)
            verb = (
                "DELETE FROM seats"
                if room is not None and room.status == "open"
                else "UPDATE seats SET token_hash = NULL"
            )
            done = await conn.execute(
                f"{verb} WHERE id = $1 AND token_hash = $2", seat_id, token_hash
            )
            if not _changed(done):
                raise SeatGone(seat_id)  # rolled back: no bump, no notice

    async def hand_to_person(
        self, room_id: str, seat_id: int, *, name: str, token_hash: bytes
    ) -> None:
        """Give a taken seat to a new person: their token replaces the old one (revoked).

        The seat's host power stays with the room's host token, not with the new person
        (in a rematch, whose host token nobody holds, it passes to the next person)."""
        async with self._transaction() as conn:
            await bump_revision(conn, room_id)
            await _hand_on_host(conn, seat_id)
            await conn.execute(
                "UPDATE seats SET token_hash = $1, name = $2, bot_level = NULL,"
                " is_host = false WHERE id = $3",
                token_hash,
                name,
                seat_id,
            )

    async def hand_to_bot(
        self, room_id: str, seat_id: int, level: str, name: str, *, left: bool = False
    ) -> None:
        """Give a taken seat to a bot of `level` named `name`: its token stops working.
        With `left`, only if the seat is still without a holder (its person left and
        nobody handed it on meanwhile), else raises `SeatGone`."""
        only_left = " AND token_hash IS NULL AND bot_level IS NULL" if left else ""
        async with self._transaction() as conn:
            await bump_revision(conn, room_id)
            await _hand_on_host(conn, seat_id)
            done = await conn.execute(
                "UPDATE seats SET bot_level = $1, token_hash = NULL, name = $2"
                f" WHERE id = $3{only_left}",
                level,
                name,
                seat_id,
            )
            if not _changed(done):
                raise SeatGone(seat_id)  # rolled back: no bump, no notice

    async def left_seats_due(
        self, after_s: float, ahead_s: float, limit: int
    ) -> list[tuple[str, int]]:
        """(room id, seat) of seats left at least `after_s` seconds ago in games in play
        without a time control, oldest first (`ahead_s`: the caller's time source)."""
        async with self._conn() as conn:
            rows = await conn.fetch(_LEFT_DUE, after_s, ahead_s, limit)
        return [(row["room_id"], row["seat"]) for row in rows]

    async def seat_history(
        self, room_id: str
    ) -> tuple[list[asyncpg.Record], dict[int, Any]]:
        """Past holders of a room's seats (oldest first), and since when each seat's
        current holder holds it (by seat id)."""
        async with self._conn() as conn:
            past = await conn.fetch(_HISTORY, room_id)
            since = await conn.fetch(
                "SELECT id, joined_at FROM seats WHERE room_id = $1", room_id
            )
        return list(past), {row["id"]: row["joined_at"] for row in since}

    async def held_rooms(
        self, room_ids: Sequence[str]
    ) -> tuple[dict[str, asyncpg.Record], dict[str, list[asyncpg.Record]]]:
        """For "your games": each room's state and its seats (by room id), in two
        queries whatever the number of rooms."""
        async with self._conn() as conn:
            rooms = {row["id"]: row for row in await conn.fetch(_HELD_ROOMS, room_ids)}
            seats: dict[str, list[asyncpg.Record]] = {}
            for row in await conn.fetch(_HELD_SEATS, room_ids):
                seats.setdefault(row["room_id"], []).append(row)
        return rooms, seats
