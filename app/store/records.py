"""Persistence of game records and rematches: the SQL of app/records/archive.py and app/play/rematch.py.

Reads a started game with its seats and move log for a record; keeps imported records; and
creates the rematch of a finished room in one transaction (the new room, its seats, the link
from the old room, and the NOTIFY that tells the old room's connections), so two players
asking at once get the same rematch. Knows SQL and no rules.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import asyncpg  # type: ignore[import-untyped]

from app.store.pool import Pools
from app.store.revision import bump_revision
from app.store.room_ids import is_room_id
from app.store.rows import Event


@dataclass(frozen=True)
class GameFacts:
    """What a record needs of a started game, besides its moves."""

    room_id: str
    game: str
    """The registry's id of the room's game."""
    game_id: int
    engine: str
    seed: int
    setup: dict[str, Any]
    version: int
    finished: bool
    started_at: datetime
    seats: tuple[tuple[int, str, str | None], ...]
    """(seat, name, bot level) in seat order."""


@dataclass(frozen=True)
class RematchSeat:
    """A seat of the old room, to be taken over in the rematch by the same holder."""

    old_seat_id: int
    seat: int
    name: str
    bot_level: str | None
    is_host: bool


class RaceLost(Exception):
    """Another player's rematch was created first (the transaction is rolled back)."""


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


class RecordStore(Pools):
    """SQL for records and rematches (a part of `Store`: ``store.records``)."""

    # --- games ------------------------------------------------------------------------------

    async def game(self, room_id: str) -> GameFacts | None:
        if not is_room_id(room_id):
            return None
        async with self._conn() as conn:
            row = await conn.fetchrow(
                "SELECT g.id, r.game, g.engine, g.seed, g.setup, g.version,"
                " g.status, g.created_at FROM games g JOIN rooms r"
                " ON r.id = g.room_id WHERE g.room_id = $1",
                room_id,
            )
            if row is None:
                return None
            seats = await conn.fetch(
                "SELECT seat, name, bot_level FROM seats WHERE room_id = $1"
                " ORDER BY seat",
                room_id,
            )
        return GameFacts(
            room_id=room_id,
            game=row["game"],
            game_id=row["id"],
            engine=row["engine"],
            seed=row["seed"],
            setup=_json(row["setup"]),
            version=row["version"],
            finished=row["status"] == "finished",
            started_at=row["created_at"],
            seats=tuple((s["seat"], s["name"], s["bot_level"]) for s in seats),
        )

    async def moves(self, game_id: int, since: int, until: int) -> list[Event]:
        """The logged moves with since < seq <= until, oldest first."""
        async with self._conn() as conn:
            rows = await conn.fetch(
                "SELECT seq, seat, action, text, created_at FROM moves"
                " WHERE game_id = $1 AND seq > $2 AND seq <= $3"
                " ORDER BY seq",
                game_id,
                since,
                until,
            )
        return [
            Event(r["seq"], r["seat"], _json(r["action"]), r["text"], r["created_at"])
            for r in rows
        ]

    async def messages(self, game_id: int, until: int) -> list[dict[str, Any] | None]:
        """Each logged move's message (None before messages were stored), seq <= until."""
        async with self._conn() as conn:
            rows = await conn.fetch(
                "SELECT message FROM moves WHERE game_id = $1 AND seq <= $2 ORDER BY seq",
                game_id,
                until,
            )
        return [_json(r["message"]) for r in rows]

    async def shuffle_facts(self, room_id: str) -> tuple[int | None, bool, str | None]:
        """(seed, finished, rematch room) of a room; seed None before the start."""
        async with self._conn() as conn:
            row = await conn.fetchrow(
                "SELECT g.seed, g.status, m.rematch_id FROM rooms r"
                " LEFT JOIN games g ON g.room_id = r.id"
                " LEFT JOIN rematches m ON m.room_id = r.id WHERE r.id = $1",
                room_id,
            )
        if row is None:
            return None, False, None
        return row["seed"], row["status"] == "finished", row["rematch_id"]

    async def room_exists(self, room_id: str) -> bool:
        if not is_room_id(room_id):
            return False
        async with self._conn() as conn:
            found = await conn.fetchval("SELECT 1 FROM rooms WHERE id = $1", room_id)
        return found is not None

    async def seat_names(self, room_id: str) -> dict[int, set[str]]:
        """Every name each seat of a room has had: its holder now and those before."""
        async with self._conn() as conn:
            rows = await conn.fetch(
                "SELECT seat, name FROM seats WHERE room_id = $1 UNION"
                " SELECT s.seat, h.name FROM seat_history h"
                " JOIN seats s ON s.id = h.seat_id WHERE h.room_id = $1",
                room_id,
            )
        names: dict[int, set[str]] = {}
        for row in rows:
            names.setdefault(row["seat"], set()).add(row["name"])
        return names

    # --- the key of records' signatures -----------------------------------------------------

    async def signing_key(self, offer: bytes) -> bytes:
        """The records' signing key kept in the database; `offer` becomes it if there is none
        yet (the first instance to offer wins, every other reads the same)."""
        async with self._conn() as conn:
            await conn.execute(
                "INSERT INTO record_signing_key (id, key) VALUES (1, $1)"
                " ON CONFLICT (id) DO NOTHING",
                offer,
            )
            # A new statement (so a new snapshot): sees the key of whoever offered first.
            key = await conn.fetchval("SELECT key FROM record_signing_key WHERE id = 1")
        return bytes(key)

    # --- imported records -------------------------------------------------------------------

    async def save_record(
        self, record_id: str, game: str, body: str, moves: int
    ) -> None:
        async with self._conn() as conn:
            await conn.execute(
                "INSERT INTO game_records (id, game, body, moves)"
                " VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING",
                record_id,
                game,
                body,
                moves,
            )

    async def load_record(self, record_id: str) -> str | None:
        async with self._conn() as conn:
            body: str | None = await conn.fetchval(
                "SELECT body FROM game_records WHERE id = $1", record_id
            )
        return body

    # --- rematches --------------------------------------------------------------------------

    async def rematch_of(self, room_id: str) -> str | None:
        async with self._conn() as conn:
            found: str | None = await conn.fetchval(
                "SELECT rematch_id FROM rematches WHERE room_id = $1", room_id
            )
        return found

    async def create_rematch(
        self,
        *,
        old_room_id: str,
        new_room_id: str,
        host_token_hash: bytes,
        seats: Sequence[RematchSeat],
    ) -> str:
        """Create the rematch room of `old_room_id`, or find the one created first."""
        try:
            async with self._transaction() as conn:
                await conn.execute(
                    "INSERT INTO rooms (id, game, options, players, seat_order,"
                    " host_token_hash) SELECT $1, game, options, players,"
                    " seat_order, $2 FROM rooms WHERE id = $3",
                    new_room_id,
                    host_token_hash,
                    old_room_id,
                )
                # The link first: a second asker waits here, then finds it taken.
                linked = await conn.fetchval(
                    "INSERT INTO rematches (room_id, rematch_id) VALUES ($1, $2)"
                    " ON CONFLICT (room_id) DO NOTHING RETURNING rematch_id",
                    old_room_id,
                    new_room_id,
                )
                if linked is None:
                    raise RaceLost(old_room_id)
                await conn.executemany(
                    "WITH new AS (INSERT INTO seats (room_id, seat, name, token_hash,"
                    " is_host, bot_level) VALUES ($1, $2, $3, NULL, $4, $5)"
                    " RETURNING id) INSERT INTO rematch_seats (old_seat_id,"
                    " new_seat_id) SELECT $6, id FROM new",
                    [
                        (
                            new_room_id,
                            seat.seat,
                            seat.name,
                            seat.is_host,
                            seat.bot_level,
                            seat.old_seat_id,
                        )
                        for seat in seats
                    ],
                )
                await conn.execute(
                    "INSERT INTO time_controls (room_id, per_move_s, policy, bot_level)"
                    " SELECT $1, per_move_s, policy, bot_level FROM time_controls"
                    " WHERE room_id = $2",
                    new_room_id,
                    old_room_id,
                )
                await bump_revision(conn, old_room_id)
        except (RaceLost, asyncpg.IntegrityConstraintViolationError):
            existing = await self.rematch_of(old_room_id)
            assert existing is not None
            return existing
        return new_room_id

    async def claim_seat(self, old_seat_id: int, token_hash: bytes) -> int | None:
        """Give the rematch seat of a person's old seat its token: the seat's number now.

        None if there is no such seat, or if someone else holds it already (e.g. the host
        handed it to another person).
        """
        async with self._transaction() as conn:
            row = await conn.fetchrow(
                "SELECT s.id, s.room_id, s.seat, s.token_hash, s.bot_level"
                " FROM rematch_seats m JOIN seats s ON s.id = m.new_seat_id"
                " WHERE m.old_seat_id = $1 FOR UPDATE OF s",
                old_seat_id,
            )
            if row is None or row["bot_level"] is not None:
                return None
            if row["token_hash"] is not None:
                held = bytes(row["token_hash"]) == token_hash
                return int(row["seat"]) if held else None
            await conn.execute(
                "UPDATE seats SET token_hash = $1 WHERE id = $2", token_hash, row["id"]
            )
            await bump_revision(conn, row["room_id"])
        seat: int = row["seat"]
        return seat
