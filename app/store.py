"""Persistence of rooms, seats, games and the move log, with optimistic concurrency.

Every write that others must hear about sends `NOTIFY` in the same transaction, so the
notice is delivered only once the change is committed. One writer per game across any number
of processes is enforced in SQL: a move is a compare-and-set on `games.version`, done in a
single statement with the insert into the append-only `moves` log (whose primary key
`(game_id, seq)` and unique `(game_id, move_id)` make a fork or a double apply impossible).

This module knows SQL and no rules; `app.rooms` decides what to write.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

CHANNEL = "ishtar_rooms"


class SeatTaken(Exception):
    """The seat (or every seat) is already taken."""


class RoomClosed(Exception):
    """The room no longer takes seats or cannot start: its game has started."""


class DuplicateMoveId(Exception):
    """A move with this move_id is already in the game's log."""


@dataclass(frozen=True)
class SeatRow:
    id: int
    seat: int
    name: str
    bot_level: str | None
    is_host: bool
    token_hash: bytes | None = field(repr=False)


@dataclass(frozen=True)
class GameRow:
    id: int
    version: int
    status: str
    current_seat: int | None


@dataclass(frozen=True)
class RoomRow:
    id: str
    players: int
    layout: str
    first_player: int | None
    seat_order: str
    status: str
    host_token_hash: bytes = field(repr=False)
    revision: int
    created_at: datetime
    seats: tuple[SeatRow, ...]
    game: GameRow | None

    def seat(self, number: int) -> SeatRow | None:
        return next((s for s in self.seats if s.seat == number), None)


@dataclass(frozen=True)
class Event:
    """One entry of the public move log."""

    seq: int
    seat: int
    action: dict[str, Any]
    text: str
    at: datetime

    def as_dict(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "seat": self.seat,
            "action": self.action,
            "text": self.text,
            "at": iso(self.at),
        }


def iso(moment: datetime) -> str:
    """UTC time with milliseconds and a Z, as on the wire."""
    return (
        moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    )


def notice(room_id: str, kind: str, number: int) -> str:
    """The NOTIFY payload: the room, what changed (m/r/p) and the new version or revision."""
    return f"{room_id} {kind} {number}"


_NOTIFY = text("SELECT pg_notify(:channel, :payload)")


async def _notify(conn: AsyncConnection, payload: str) -> None:
    await conn.execute(_NOTIFY, {"channel": CHANNEL, "payload": payload})


def _event(row: Any) -> Event:
    return Event(
        seq=row.seq, seat=row.seat, action=row.action, text=row.text, at=row.created_at
    )


_MOVE_COLUMNS = "seq, seat, action, text, created_at"


class Store:
    """All SQL of the game server, over one async engine."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    # --- rooms and seats ------------------------------------------------------------------

    async def create_room(
        self,
        *,
        room_id: str,
        players: int,
        layout: str,
        first_player: int | None,
        seat_order: str,
        host_token_hash: bytes,
    ) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(
                text(
                    "INSERT INTO rooms (id, players, layout, first_player, seat_order,"
                    " host_token_hash) VALUES (:id, :players, :layout, :first_player,"
                    " :seat_order, :host)"
                ),
                {
                    "id": room_id,
                    "players": players,
                    "layout": layout,
                    "first_player": first_player,
                    "seat_order": seat_order,
                    "host": host_token_hash,
                },
            )

    async def load_room(self, room_id: str) -> RoomRow | None:
        async with self.engine.connect() as conn:
            return await self._load_room(conn, room_id)

    async def _load_room(self, conn: AsyncConnection, room_id: str) -> RoomRow | None:
        room = (
            await conn.execute(
                text(
                    "SELECT r.id, r.players, r.layout, r.first_player, r.seat_order, r.status,"
                    " r.host_token_hash, r.revision, r.created_at, g.id AS game_id,"
                    " g.version, g.status AS game_status, g.current_seat"
                    " FROM rooms r LEFT JOIN games g ON g.room_id = r.id WHERE r.id = :id"
                ),
                {"id": room_id},
            )
        ).one_or_none()
        if room is None:
            return None
        seats = (
            await conn.execute(
                text(
                    "SELECT id, seat, name, bot_level, is_host, token_hash FROM seats"
                    " WHERE room_id = :id ORDER BY seat"
                ),
                {"id": room_id},
            )
        ).all()
        game = (
            GameRow(room.game_id, room.version, room.game_status, room.current_seat)
            if room.game_id is not None
            else None
        )
        return RoomRow(
            id=room.id,
            players=room.players,
            layout=room.layout,
            first_player=room.first_player,
            seat_order=room.seat_order,
            status=room.status,
            host_token_hash=room.host_token_hash,
            revision=room.revision,
            created_at=room.created_at,
            seats=tuple(
                SeatRow(s.id, s.seat, s.name, s.bot_level, s.is_host, s.token_hash)
                for s in seats
            ),
            game=game,
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
            async with self.engine.begin() as conn:
                room = (
                    await conn.execute(
                        text(
                            "UPDATE rooms SET revision = revision + 1"
                            " WHERE id = :id AND status = 'open'"
                            " RETURNING players, revision"
                        ),
                        {"id": room_id},
                    )
                ).one_or_none()
                if room is None:
                    raise RoomClosed(room_id)
                taken = set(
                    (
                        await conn.execute(
                            text("SELECT seat FROM seats WHERE room_id = :id"),
                            {"id": room_id},
                        )
                    ).scalars()
                )
                free = [n for n in range(room.players) if n not in taken]
                if seat is None:
                    if not free:
                        raise SeatTaken(room_id)
                    seat = free[0]
                elif seat not in free:
                    raise SeatTaken(room_id)
                await conn.execute(
                    text(
                        "INSERT INTO seats (room_id, seat, name, token_hash, is_host, bot_level)"
                        " VALUES (:room, :seat, :name, :hash, :host, :bot)"
                    ),
                    {
                        "room": room_id,
                        "seat": seat,
                        "name": name,
                        "hash": token_hash,
                        "host": is_host,
                        "bot": bot_level,
                    },
                )
                await _notify(conn, notice(room_id, "r", room.revision))
        except IntegrityError as exc:  # a concurrent join took the same seat first
            raise SeatTaken(room_id) from exc
        return seat

    async def seat_by_token(self, room_id: str, token_hash: bytes) -> SeatRow | None:
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    text(
                        "SELECT id, seat, name, bot_level, is_host, token_hash FROM seats"
                        " WHERE room_id = :room AND token_hash = :hash"
                    ),
                    {"room": room_id, "hash": token_hash},
                )
            ).one_or_none()
        if row is None:
            return None
        return SeatRow(
            row.id, row.seat, row.name, row.bot_level, row.is_host, row.token_hash
        )

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
        async with self.engine.begin() as conn:
            updated = (
                await conn.execute(
                    text(
                        "UPDATE rooms SET status = 'playing', revision = revision + 1"
                        " WHERE id = :id AND status = 'open' AND revision = :rev"
                        " RETURNING revision"
                    ),
                    {"id": room_id, "rev": revision},
                )
            ).scalar_one_or_none()
            if updated is None:
                return False
            for seat_id, number in seat_numbers.items():
                await conn.execute(
                    text("UPDATE seats SET seat = :seat WHERE id = :id"),
                    {"seat": number, "id": seat_id},
                )
            await conn.execute(
                text(
                    "INSERT INTO games (room_id, engine, seed, setup, snapshot, version,"
                    " current_seat) VALUES (:room, :engine, :seed, CAST(:setup AS jsonb),"
                    " CAST(:snapshot AS jsonb), 0, :current)"
                ),
                {
                    "room": room_id,
                    "engine": engine_name,
                    "seed": seed,
                    "setup": json.dumps(setup),
                    "snapshot": snapshot_json,
                    "current": current_seat,
                },
            )
            await _notify(conn, notice(room_id, "r", updated))
        return True

    # --- games and moves ------------------------------------------------------------------

    async def game_row(self, room_id: str) -> GameRow | None:
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    text(
                        "SELECT id, version, status, current_seat FROM games"
                        " WHERE room_id = :room"
                    ),
                    {"room": room_id},
                )
            ).one_or_none()
        return (
            None
            if row is None
            else GameRow(row.id, row.version, row.status, row.current_seat)
        )

    async def game_version(self, game_id: int) -> int:
        async with self.engine.connect() as conn:
            version: int = (
                await conn.execute(
                    text("SELECT version FROM games WHERE id = :id"), {"id": game_id}
                )
            ).scalar_one()
        return version

    async def snapshot(self, game_id: int) -> tuple[int, dict[str, Any]]:
        """The stored state and its version."""
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    text("SELECT version, snapshot FROM games WHERE id = :id"),
                    {"id": game_id},
                )
            ).one()
        return row.version, row.snapshot

    async def setup(self, game_id: int) -> dict[str, Any]:
        async with self.engine.connect() as conn:
            setup: dict[str, Any] = (
                await conn.execute(
                    text("SELECT setup FROM games WHERE id = :id"), {"id": game_id}
                )
            ).scalar_one()
        return setup

    async def moves_since(
        self, game_id: int, since: int, limit: int | None = None
    ) -> list[Event]:
        """Events with seq > since, oldest first (at most `limit`)."""
        sql = f"SELECT {_MOVE_COLUMNS} FROM moves WHERE game_id = :game AND seq > :since ORDER BY seq"
        if limit is not None:
            sql += " LIMIT :limit"
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    text(sql), {"game": game_id, "since": since, "limit": limit}
                )
            ).all()
        return [_event(row) for row in rows]

    async def recent_moves(self, game_id: int, count: int) -> list[Event]:
        """The last `count` events, oldest first."""
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    text(
                        f"SELECT {_MOVE_COLUMNS} FROM moves WHERE game_id = :game"
                        " ORDER BY seq DESC LIMIT :count"
                    ),
                    {"game": game_id, "count": count},
                )
            ).all()
        return [_event(row) for row in reversed(rows)]

    async def move_by_id(self, game_id: int, move_id: str) -> Event | None:
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    text(
                        f"SELECT {_MOVE_COLUMNS} FROM moves"
                        " WHERE game_id = :game AND move_id = :move_id"
                    ),
                    {"game": game_id, "move_id": move_id},
                )
            ).one_or_none()
        return None if row is None else _event(row)

    async def commit_move(
        self,
        *,
        room_id: str,
        game_id: int,
        expected_version: int,
        seat: int,
        action: dict[str, Any],
        move_id: str,
        text_: str,
        snapshot_json: str,
        finished: bool,
        current_seat: int | None,
    ) -> Event | None:
        """Append a move if the game is still at `expected_version`: the event, or None.

        One statement (so one round trip): the compare-and-set on the version, the insert
        into the log and the NOTIFY; none happens unless all do. Raises DuplicateMoveId when
        the move_id is already in the log.
        """
        version = expected_version + 1
        try:
            async with self.engine.begin() as conn:
                row = (
                    await conn.execute(
                        _COMMIT_MOVE,
                        {
                            "game": game_id,
                            "expected": expected_version,
                            "version": version,
                            "snapshot": snapshot_json,
                            "status": "finished" if finished else "playing",
                            "current": current_seat,
                            "seat": seat,
                            "action": json.dumps(action),
                            "move_id": move_id,
                            "text": text_,
                            "finished": finished,
                            "room": room_id,
                            "channel": CHANNEL,
                            "payload": notice(room_id, "m", version),
                        },
                    )
                ).one_or_none()
        except IntegrityError as exc:
            if "uq_moves_game_id_move_id" in str(exc.orig):
                raise DuplicateMoveId(move_id) from exc
            # (game_id, seq) taken: another writer won the race.
            return None
        if row is None:
            return None
        return Event(
            seq=version, seat=seat, action=action, text=text_, at=row.created_at
        )

    # --- presence ---------------------------------------------------------------------------

    async def put_presence(
        self, room_id: str, instance: str, seats: Sequence[int], spectators: int
    ) -> None:
        """Record this instance's connections to a room (none: forget the row) and notify."""
        async with self.engine.begin() as conn:
            if seats or spectators:
                await conn.execute(
                    text(
                        "INSERT INTO room_presence (room_id, instance, seats, spectators)"
                        " VALUES (:room, :instance, :seats, :spectators)"
                        " ON CONFLICT (room_id, instance) DO UPDATE SET seats = EXCLUDED.seats,"
                        " spectators = EXCLUDED.spectators, updated_at = now()"
                    ),
                    {
                        "room": room_id,
                        "instance": instance,
                        "seats": list(seats),
                        "spectators": spectators,
                    },
                )
            else:
                await conn.execute(
                    text(
                        "DELETE FROM room_presence WHERE room_id = :room AND instance = :instance"
                    ),
                    {"room": room_id, "instance": instance},
                )
            await _notify(conn, notice(room_id, "p", 0))

    async def presence(
        self, room_id: str, exclude_instance: str, max_age_s: float
    ) -> tuple[set[int], int]:
        """Connected seats and spectator count of a room from the other live instances."""
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    text(
                        "SELECT seats, spectators FROM room_presence WHERE room_id = :room"
                        " AND instance <> :instance"
                        " AND updated_at > now() - make_interval(secs => :age)"
                    ),
                    {"room": room_id, "instance": exclude_instance, "age": max_age_s},
                )
            ).all()
        seats: set[int] = set()
        for row in rows:
            seats.update(row.seats)
        return seats, sum(row.spectators for row in rows)

    async def refresh_presence(self, instance: str, forget_after_s: float) -> None:
        """Heartbeat: keep this instance's rows fresh and drop long-dead rows of any instance."""
        async with self.engine.begin() as conn:
            await conn.execute(
                text(
                    "UPDATE room_presence SET updated_at = now() WHERE instance = :instance"
                ),
                {"instance": instance},
            )
            await conn.execute(
                text(
                    "DELETE FROM room_presence"
                    " WHERE updated_at < now() - make_interval(secs => :age)"
                ),
                {"age": forget_after_s},
            )

    async def forget_instance(self, instance: str) -> list[str]:
        """Remove every presence row of this instance (at shutdown); the rooms touched."""
        async with self.engine.begin() as conn:
            rooms = list(
                (
                    await conn.execute(
                        text(
                            "DELETE FROM room_presence WHERE instance = :instance"
                            " RETURNING room_id"
                        ),
                        {"instance": instance},
                    )
                ).scalars()
            )
            for room_id in rooms:
                await _notify(conn, notice(room_id, "p", 0))
        return rooms


_COMMIT_MOVE = text(
    "WITH game AS ("
    " UPDATE games SET version = :version, snapshot = CAST(:snapshot AS jsonb),"
    " status = :status, current_seat = :current, updated_at = now()"
    " WHERE id = :game AND version = :expected RETURNING id),"
    " room AS ("
    " UPDATE rooms SET status = 'finished', revision = revision + 1"
    " WHERE id = :room AND :finished AND EXISTS (SELECT 1 FROM game) RETURNING id),"
    " move AS ("
    " INSERT INTO moves (game_id, seq, seat, action, move_id, text)"
    " SELECT id, :version, :seat, CAST(:action AS jsonb), :move_id, :text FROM game"
    " RETURNING created_at)"
    " SELECT move.created_at, pg_notify(:channel, :payload) FROM move"
)
