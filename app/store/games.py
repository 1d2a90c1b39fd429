"""Games and their move log in the store, with optimistic concurrency.

One writer per game across any number of processes is enforced in SQL: a move is a
compare-and-set on `games.version`, done in a single statement with the insert into the
append-only `moves` log (whose primary key `(game_id, seq)` and unique `(game_id, move_id)`
make a fork or a double apply impossible).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Sequence
from typing import Any

import asyncpg  # type: ignore[import-untyped]

from app.store.pool import Pools
from app.store.rows import Event

log = logging.getLogger("ishtar.store")


class DuplicateMoveId(Exception):
    """A move with this move_id is already in the game's log."""


def _event(row: Any) -> Event:
    return Event(
        seq=row["seq"],
        seat=row["seat"],
        action=row["action"],
        text=row["text"],
        at=row["created_at"],
        message=row["message"],
    )


_MOVE_COLUMNS = "seq, seat, action, text, created_at, message"


class GameStore(Pools):
    """Games and moves (a part of `Store`)."""

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

    async def snapshot(self, game_id: int) -> tuple[int, dict[str, Any], str]:
        """The stored snapshot, the version it is at (the game may be further on), and
        the registry's id of the room's game, whose engine decodes it."""
        async with self._conn() as conn:
            row = await conn.fetchrow(
                "SELECT g.snapshot_version, g.snapshot, r.game FROM games g"
                " JOIN rooms r ON r.id = g.room_id WHERE g.id = $1",
                game_id,
            )
        return row["snapshot_version"], row["snapshot"], row["game"]

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

    async def moves_before(self, game_id: int, before: int, count: int) -> list[Event]:
        """The last `count` events with seq < before, oldest first (a page of the log)."""
        async with self._conn() as conn:
            rows = await conn.fetch(
                f"SELECT {_MOVE_COLUMNS} FROM moves WHERE game_id = $1 AND seq < $2"
                " ORDER BY seq DESC LIMIT $3",
                game_id,
                before,
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

    async def waiting_on_bots(self) -> list[str]:
        """The rooms whose game waits on a bot seat (app/background/bot_runner.py sweeps)."""
        async with self._conn() as conn:
            rows = await conn.fetch(
                "SELECT g.room_id FROM games g JOIN seats s"
                " ON s.room_id = g.room_id AND s.seat = g.current_seat"
                " WHERE g.status = 'playing' AND s.bot_level IS NOT NULL"
            )
        return [str(row["room_id"]) for row in rows]

    async def save_snapshot(
        self, game_id: int, version: int, snapshot_json: str
    ) -> None:
        """Store the state at `version` as the game's snapshot, unless a later one is there,
        and keep it among the game's snapshots replays start from (app/records/replays.py).

        Through the light pool: a snapshot is a cache (app/play/snapshots.py), its commit need
        not wait for the disk. One statement, so its own transaction: no BEGIN and COMMIT
        round trips around it (two of the three it took, every `SNAPSHOT_EVERY` moves)."""
        async with self._light_conn() as conn:
            await conn.execute(
                "WITH kept AS (INSERT INTO snapshots (game_id, version, state)"
                " VALUES ($1, $2, $3::jsonb) ON CONFLICT DO NOTHING)"
                " UPDATE games SET snapshot = $3::jsonb, snapshot_version = $2"
                " WHERE id = $1 AND snapshot_version < $2 AND version >= $2",
                game_id,
                version,
                snapshot_json,
            )

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
        message: dict[str, Any] | None = None,
        snapshot_json: str | None,
        finished: bool,
        current_seat: int | None,
    ) -> Event | None:
        """Append a move if the game is still at `expected_version`: the event, or None.

        One statement, so one round trip and one implicit transaction: the compare-and-set
        on the version and the insert into the log; neither happens without the other.
        `snapshot_json`, when given, is the state after this move, stored as the snapshot.
        `message` is the log line as a message (docs/i18n.md), stored with the move.
        Raises DuplicateMoveId when the move_id is already in the log. The caller announces
        the move (`announce`) once it has handed the event to its own hub.
        """
        version = expected_version + 1
        try:
            async with self._conn() as conn:
                row = await conn.fetchrow(
                    COMMIT_MOVE,
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
                    message,
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
            message=message,
        )


COMMIT_MOVE = (
    "WITH game AS ("
    " UPDATE games SET version = $3, status = $5, current_seat = $6, updated_at = now(),"
    " snapshot = COALESCE($4::jsonb, snapshot),"
    " snapshot_version = CASE WHEN $4::jsonb IS NULL THEN snapshot_version ELSE $3 END"
    " WHERE id = $1 AND version = $2 RETURNING id),"
    # The last move finishes the room in the same statement: its revision is bumped here,
    # not by `bump_revision` (app/store/revision.py says why), and its notice is the move's.
    " room AS ("
    " UPDATE rooms SET status = 'finished', revision = revision + 1"
    " WHERE id = $12 AND $11::boolean AND EXISTS (SELECT 1 FROM game) RETURNING id),"
    " move AS ("
    " INSERT INTO moves (game_id, seq, seat, action, move_id, text, message)"
    " SELECT id, $3, $7, $8, $9, $10, $13::jsonb FROM game RETURNING created_at)"
    # Whether the outboxes got a row (a webhook call or a push): the couriers look at once.
    " SELECT move.created_at, EXISTS (SELECT 1 FROM seats s"
    " JOIN seat_webhooks w ON w.seat_id = s.id WHERE s.room_id = $12 AND s.seat = $6)"
    " OR EXISTS (SELECT 1 FROM seats s JOIN push_subscriptions p ON p.seat_id = s.id"
    " WHERE s.room_id = $12 AND (s.seat = $6 OR $11::boolean))"
    " AS webhook FROM move"
)


class _Rehearsed(Exception):
    """Raised to roll a rehearsal back."""


async def warm_statements(conn: asyncpg.Connection) -> None:
    """Rehearse two moves on a new pooled connection, in a transaction that is rolled back.

    A connection's first move otherwise pays, inside the move, for PostgreSQL's first use of
    the statement and of the trigger on `games` (plpgsql compiles the function and plans its
    queries once per connection) and for asyncpg's type introspection: 1.5–2.5 ms instead
    of 0.3 (docs/journal/benchmarks-history.md, "Third session"). The rehearsal inserts a
    room and a game that no one can ever see (a room id with "~", which real ids never
    contain), moves twice on it
    (a change of seat, so the trigger's every query runs), and rolls it all back; only the
    game id it drew is skipped. A schema not migrated yet leaves the connection cold, not
    broken (/readyz says so)."""
    room = "~warm" + secrets.token_hex(5)
    try:
        async with conn.transaction():
            await conn.execute(
                "INSERT INTO rooms (id, game, options, players, seat_order, host_token_hash)"
                " VALUES ($1, 'rehearsal', '{}', 2, 'fixed', $2)",
                room,
                bytes(32),
            )
            game = await conn.fetchval(
                "INSERT INTO games (room_id, engine, seed, setup, snapshot, current_seat)"
                " VALUES ($1, 'rehearsal', 0, '{}', '{}', 0) RETURNING id",
                room,
            )
            for version in (0, 1):
                await conn.fetchrow(
                    COMMIT_MOVE,
                    game,
                    version,
                    version + 1,
                    None,
                    "playing",
                    1 - version,
                    version,
                    {},
                    f"rehearsal {version}",
                    "",
                    False,
                    room,
                    None,
                )
            raise _Rehearsed
    except _Rehearsed:
        pass
    except asyncpg.PostgresError as error:
        log.info("statement of a move not prepared: %s", error)
