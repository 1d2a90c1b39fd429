"""Persistence of rooms, seats, games and the move log, with optimistic concurrency.

Every write that others must hear about sends `NOTIFY` in the same transaction, so the
notice is delivered only once the change is committed. One writer per game across any number
of processes is enforced in SQL: a move is a compare-and-set on `games.version`, done in a
single statement with the insert into the append-only `moves` log (whose primary key
`(game_id, seq)` and unique `(game_id, move_id)` make a fork or a double apply impossible).

Queries go straight through an asyncpg pool: a move is one round trip (no BEGIN, COMMIT or
pre-ping around it), which is most of what the server waits for per move. `engine` (the
SQLAlchemy engine of `app.db`) stays available to code that prefers it.
This module knows SQL and no rules; `app.rooms` decides what to write.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import asyncpg  # type: ignore[import-untyped]
import orjson
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

CHANNEL = "ishtar_rooms"


class SeatTaken(Exception):
    """The seat (or every seat) is already taken."""


class RoomClosed(Exception):
    """The room no longer takes seats or cannot start: its game has started."""


class DuplicateMoveId(Exception):
    """A move with this move_id is already in the game's log."""


class Unavailable(Exception):
    """The database cannot be reached right now (restarting, network): retry later."""


# Errors that mean "the database is not there", as opposed to "the query was refused".
CONNECTION_ERRORS = (
    OSError,
    TimeoutError,
    asyncpg.PostgresConnectionError,
    asyncpg.InterfaceError,
    asyncpg.CannotConnectNowError,
    asyncpg.AdminShutdownError,
    # A connection whose protocol is stuck mid-operation (seen after PostgreSQL restarts).
    asyncpg.InternalClientError,
)


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
    # The seat to act next has a turn webhook (a call was queued with this move): not public.
    webhook: bool = field(default=False, compare=False, repr=False)

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


async def _notify(conn: AsyncConnection, payload: str) -> None:
    """NOTIFY from a SQLAlchemy connection (for code that writes through `Store.engine`)."""
    await conn.execute(
        text("SELECT pg_notify(:channel, :payload)"),
        {"channel": CHANNEL, "payload": payload},
    )


def _json_out(value: Any) -> str:
    return value if isinstance(value, str) else orjson.dumps(value).decode()


async def _init_connection(conn: asyncpg.Connection) -> None:
    # JSON(B) in and out as Python values; a str is taken as JSON text already encoded.
    for kind in ("json", "jsonb"):
        await conn.set_type_codec(
            kind,
            schema="pg_catalog",
            encoder=_json_out,
            decoder=orjson.loads,
            format="text",
        )


async def _keep_session(conn: asyncpg.Connection) -> None:
    """Pool release without asyncpg's default reset query (``RESET ALL; UNLISTEN *; …``).

    That query is one more round trip on every release: 13 % of the server's CPU samples
    under load (docs/benchmarks.md, "Load"). Nothing here changes session state (no SET,
    LISTEN or advisory lock on pooled connections); asyncpg still rolls back an open
    transaction before this runs.
    """


async def create_pool(dsn: str, max_size: int, *, durable: bool = True) -> asyncpg.Pool:
    """A pool; with ``durable=False`` its commits do not wait for the disk (notices, presence:
    nothing there must survive a crash of PostgreSQL)."""
    settings = {} if durable else {"synchronous_commit": "off"}
    pool: asyncpg.Pool = await asyncpg.create_pool(
        dsn,
        min_size=0,
        max_size=max_size,
        init=_init_connection,
        reset=_keep_session,
        command_timeout=30,
        server_settings=settings,
    )
    return pool


def _event(row: Any) -> Event:
    return Event(
        seq=row["seq"],
        seat=row["seat"],
        action=row["action"],
        text=row["text"],
        at=row["created_at"],
    )


def _seat(row: Any) -> SeatRow:
    return SeatRow(
        row["id"],
        row["seat"],
        row["name"],
        row["bot_level"],
        row["is_host"],
        row["token_hash"],
    )


_SEAT_COLUMNS = "id, seat, name, bot_level, is_host, token_hash"
_MOVE_COLUMNS = "seq, seat, action, text, created_at"
_NOTIFY = "SELECT pg_notify($1, $2)"
_NOTIFY_MANY = "SELECT pg_notify($1, n) FROM unnest($2::text[]) WITH ORDINALITY AS t(n, i) ORDER BY i"


class Store:
    """All SQL of the game server, over an asyncpg pool.

    `light` (default: `pool`) is a pool whose commits do not wait for the disk, for what
    needs no durability: the notice of a move (sent after the move's own, durable commit)
    and presence. PostgreSQL serialises the commits of all transactions that NOTIFY on one
    global lock held through their WAL flush; a NOTIFY inside each move's transaction made
    every move of every game wait for the flushes of all the others (measured: commit p50
    35 ms with 10 busy rooms, against 4 ms alone).
    """

    def __init__(
        self, pool: asyncpg.Pool, engine: AsyncEngine, light: asyncpg.Pool | None = None
    ) -> None:
        self.pool = pool
        self.engine = engine
        self.light = light or pool

    @asynccontextmanager
    async def _conn(self) -> AsyncIterator[asyncpg.Connection]:
        try:
            async with self.pool.acquire() as conn:
                try:
                    yield conn
                except asyncpg.InternalClientError:
                    # Seen after a PostgreSQL restart: the connection's protocol is stuck
                    # in a state no query can use. Drop it; the pool opens a fresh one.
                    conn.terminate()
                    raise
        except CONNECTION_ERRORS as error:
            raise Unavailable(str(error)) from error

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[asyncpg.Connection]:
        async with self._conn() as conn, conn.transaction():
            yield conn

    @asynccontextmanager
    async def _light_transaction(self) -> AsyncIterator[asyncpg.Connection]:
        try:
            async with self.light.acquire() as conn, conn.transaction():
                yield conn
        except CONNECTION_ERRORS as error:
            raise Unavailable(str(error)) from error

    async def announce(self, room_id: str, kind: str, number: int) -> None:
        """NOTIFY every instance that a room changed (after the change was committed)."""
        try:
            async with self.light.acquire() as conn:
                await conn.execute(_NOTIFY, CHANNEL, notice(room_id, kind, number))
        except CONNECTION_ERRORS as error:
            raise Unavailable(str(error)) from error

    async def announce_many(self, notices: list[str]) -> None:
        """NOTIFY every instance of several changes in one statement, in their order."""
        try:
            async with self.light.acquire() as conn:
                await conn.execute(_NOTIFY_MANY, CHANNEL, notices)
        except CONNECTION_ERRORS as error:
            raise Unavailable(str(error)) from error

    # --- rooms and seats --------------------------------------------------------------------

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
        async with self._conn() as conn:
            await conn.execute(
                "INSERT INTO rooms (id, players, layout, first_player, seat_order,"
                " host_token_hash) VALUES ($1, $2, $3, $4, $5, $6)",
                room_id,
                players,
                layout,
                first_player,
                seat_order,
                host_token_hash,
            )

    async def load_room(self, room_id: str) -> RoomRow | None:
        async with self._conn() as conn:
            room = await conn.fetchrow(
                "SELECT r.id, r.players, r.layout, r.first_player, r.seat_order, r.status,"
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
        game = (
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
            players=room["players"],
            layout=room["layout"],
            first_player=room["first_player"],
            seat_order=room["seat_order"],
            status=room["status"],
            host_token_hash=room["host_token_hash"],
            revision=room["revision"],
            created_at=room["created_at"],
            seats=tuple(_seat(s) for s in seats),
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
            async with self._transaction() as conn:
                room = await conn.fetchrow(
                    "UPDATE rooms SET revision = revision + 1"
                    " WHERE id = $1 AND status = 'open' RETURNING players, revision",
                    room_id,
                )
                if room is None:
                    raise RoomClosed(room_id)
                taken = {
                    row["seat"]
                    for row in await conn.fetch(
                        "SELECT seat FROM seats WHERE room_id = $1", room_id
                    )
                }
                free = [n for n in range(room["players"]) if n not in taken]
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
                await conn.execute(
                    _NOTIFY, CHANNEL, notice(room_id, "r", room["revision"])
                )
        except asyncpg.UniqueViolationError as error:  # a concurrent join took it first
            raise SeatTaken(room_id) from error
        return seat

    async def seat_by_token(self, room_id: str, token_hash: bytes) -> SeatRow | None:
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
                "UPDATE rooms SET status = 'playing', revision = revision + 1"
                " WHERE id = $1 AND status = 'open' AND revision = $2 RETURNING revision",
                room_id,
                revision,
            )
            if updated is None:
                return False
            await conn.executemany(
                "UPDATE seats SET seat = $1 WHERE id = $2",
                [(number, seat_id) for seat_id, number in seat_numbers.items()],
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
            await conn.execute(_NOTIFY, CHANNEL, notice(room_id, "r", updated))
        return True

    # --- games and moves --------------------------------------------------------------------

    async def game_version(self, game_id: int) -> int:
        async with self._conn() as conn:
            version: int = await conn.fetchval(
                "SELECT version FROM games WHERE id = $1", game_id
            )
        return version

    async def game_versions(self, game_ids: Sequence[int]) -> dict[int, int]:
        async with self._conn() as conn:
            rows = await conn.fetch(
                "SELECT id, version FROM games WHERE id = ANY($1::bigint[])",
                list(game_ids),
            )
        return {row["id"]: row["version"] for row in rows}

    async def snapshot(self, game_id: int) -> tuple[int, dict[str, Any]]:
        """The stored snapshot and the version it is at (the game may be further on)."""
        async with self._conn() as conn:
            row = await conn.fetchrow(
                "SELECT snapshot_version, snapshot FROM games WHERE id = $1", game_id
            )
        return row["snapshot_version"], row["snapshot"]

    async def setup(self, game_id: int) -> dict[str, Any]:
        async with self._conn() as conn:
            setup: dict[str, Any] = await conn.fetchval(
                "SELECT setup FROM games WHERE id = $1", game_id
            )
        return setup

    async def moves_since(self, game_id: int, since: int) -> list[Event]:
        """Events with seq > since, oldest first."""
        async with self._conn() as conn:
            rows = await conn.fetch(
                f"SELECT {_MOVE_COLUMNS} FROM moves WHERE game_id = $1 AND seq > $2 ORDER BY seq",
                game_id,
                since,
            )
        return [_event(row) for row in rows]

    async def recent_moves(self, game_id: int, count: int) -> list[Event]:
        """The last `count` events, oldest first."""
        async with self._conn() as conn:
            rows = await conn.fetch(
                f"SELECT {_MOVE_COLUMNS} FROM moves WHERE game_id = $1 ORDER BY seq DESC LIMIT $2",
                game_id,
                count,
            )
        return [_event(row) for row in reversed(rows)]

    async def move_by_id(self, game_id: int, move_id: str) -> Event | None:
        async with self._conn() as conn:
            row = await conn.fetchrow(
                f"SELECT {_MOVE_COLUMNS} FROM moves WHERE game_id = $1 AND move_id = $2",
                game_id,
                move_id,
            )
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
        snapshot_json: str | None,
        finished: bool,
        current_seat: int | None,
    ) -> Event | None:
        """Append a move if the game is still at `expected_version`: the event, or None.

        One statement, so one round trip and one implicit transaction: the compare-and-set
        on the version and the insert into the log; neither happens without the other.
        `snapshot_json`, when given, is the state after this move, stored as the snapshot.
        Raises DuplicateMoveId when the move_id is already in the log. The caller announces
        the move (`announce`) once it has handed the event to its own hub.
        """
        version = expected_version + 1
        try:
            async with self._conn() as conn:
                row = await conn.fetchrow(
                    _COMMIT_MOVE,
                    game_id,
                    expected_version,
                    version,
                    snapshot_json,
                    "finished" if finished else "playing",
                    current_seat,
                    seat,
                    action,
                    move_id,
                    text_,
                    finished,
                    room_id,
                )
        except asyncpg.UniqueViolationError as error:
            if error.constraint_name == "uq_moves_game_id_move_id":
                raise DuplicateMoveId(move_id) from error
            return None  # (game_id, seq) taken: another writer won the race
        if row is None:
            return None
        return Event(
            seq=version,
            seat=seat,
            action=action,
            text=text_,
            at=row["created_at"],
            webhook=row["webhook"],
        )

    # --- presence ---------------------------------------------------------------------------

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
            await conn.execute(_NOTIFY, CHANNEL, notice(room_id, "p", 0))

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
                await conn.execute(_NOTIFY, CHANNEL, notice(room_id, "p", 0))
        return rooms


_COMMIT_MOVE = (
    "WITH game AS ("
    " UPDATE games SET version = $3, status = $5, current_seat = $6, updated_at = now(),"
    " snapshot = COALESCE($4::jsonb, snapshot),"
    " snapshot_version = CASE WHEN $4::jsonb IS NULL THEN snapshot_version ELSE $3 END"
    " WHERE id = $1 AND version = $2 RETURNING id),"
    " room AS ("
    " UPDATE rooms SET status = 'finished', revision = revision + 1"
    " WHERE id = $12 AND $11::boolean AND EXISTS (SELECT 1 FROM game) RETURNING id),"
    " move AS ("
    " INSERT INTO moves (game_id, seq, seat, action, move_id, text)"
    " SELECT id, $3, $7, $8, $9, $10 FROM game RETURNING created_at)"
    " SELECT move.created_at, EXISTS (SELECT 1 FROM seats s"
    " JOIN seat_webhooks w ON w.seat_id = s.id WHERE s.room_id = $12 AND s.seat = $6)"
    " AS webhook FROM move"
)
