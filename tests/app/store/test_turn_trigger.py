"""The turn trigger on games fires only when it has something to do (migration 0007).

It sets the deadline of a timed game's every move and enqueues the turn webhook when the seat
to act changes (tests/app/background/test_deadlines.py and test_webhooks.py test what it does); here,
when it runs at all: after every update of a timed game, but in a room without a time control
only when the seat to act changes.
"""

from __future__ import annotations

import secrets

import asyncpg  # type: ignore[import-untyped]

from app.notices.listener import asyncpg_dsn

CALLS = "SELECT pg_stat_get_xact_function_calls('games_turn_changed'::regproc)"


async def start_game(conn: asyncpg.Connection, timed: bool) -> tuple[str, int]:
    room = "~test" + secrets.token_hex(5)
    await conn.execute(
        "INSERT INTO rooms (id, game, options, players, seat_order, host_token_hash)"
        " VALUES ($1, 'ishtar', '{}', 2, 'fixed', $2)",
        room,
        bytes(32),
    )
    if timed:
        await conn.execute(
            "INSERT INTO time_controls (room_id, per_move_s, policy)"
            " VALUES ($1, 60, 'wait')",
            room,
        )
    game: int = await conn.fetchval(
        "INSERT INTO games (room_id, engine, seed, setup, snapshot, current_seat)"
        " VALUES ($1, 'test', 0, '{}', '{}', 0) RETURNING id",
        room,
    )
    return room, game


async def calls_after(conn: asyncpg.Connection, sql: str, game: int) -> int:
    before: int = await conn.fetchval(CALLS) or 0
    await conn.execute(sql, game)
    after: int = await conn.fetchval(CALLS) or 0
    return after - before


async def test_the_turn_trigger_runs_for_timed_games_and_changes_of_seat(
    database_url: str,
) -> None:
    conn = await asyncpg.connect(asyncpg_dsn(database_url))
    await conn.execute("SET track_functions = 'pl'")
    transaction = conn.transaction()
    await transaction.start()
    try:
        _, untimed = await start_game(conn, timed=False)
        _, timed = await start_game(conn, timed=True)
        flags = await conn.fetch(
            "SELECT id, timed FROM games WHERE id = ANY($1::bigint[])",
            [untimed, timed],
        )
        assert {row["id"]: row["timed"] for row in flags} == {
            untimed: False,
            timed: True,
        }
        same_seat = "UPDATE games SET version = version + 1 WHERE id = $1"
        other_seat = (
            "UPDATE games SET version = version + 1,"
            " current_seat = 1 - current_seat WHERE id = $1"
        )
        assert await calls_after(conn, same_seat, untimed) == 0
        assert await calls_after(conn, other_seat, untimed) == 1
        assert await calls_after(conn, same_seat, timed) == 1
        deadline = await conn.fetchval(
            "SELECT version FROM turn_deadlines WHERE game_id = $1", timed
        )
        assert deadline == 1, "a timed game's deadline follows every move"
    finally:
        await transaction.rollback()  # nothing is kept
        await conn.close()
