"""The tests' databases are recycled (tests/support/databases.py): a released database comes
back empty, at the template's schema, or is not reused at all."""

from __future__ import annotations

import asyncio

import asyncpg  # type: ignore[import-untyped]
import pytest

from app.store.pool import asyncpg_dsn
from tests.support.databases import TestDatabases, run_async


def sql(url: str, *statements: str) -> list[object]:
    async def go() -> list[object]:
        conn = await asyncpg.connect(asyncpg_dsn(url))
        try:
            return [await conn.fetchval(statement) for statement in statements]
        finally:
            await conn.close()

    return run_async(go)


WRITE = (
    "INSERT INTO rooms (id, players, game, options, seat_order, host_token_hash)"
    " VALUES ('r1', 2, 'ishtar', '{}', 'fixed', '\\x00') RETURNING 1",
    "INSERT INTO seats (room_id, seat, name) VALUES ('r1', 0, 'a') RETURNING id",
    "INSERT INTO seats (room_id, seat, name) VALUES ('r1', 1, 'b') RETURNING id",
)


PLAYED = (
    *WRITE,
    "INSERT INTO games (room_id, engine, seed, setup, snapshot, current_seat)"
    " VALUES ('r1', 'ishtar', 0, '{}', '{}', 0) RETURNING id",
    "INSERT INTO moves (game_id, seq, seat, action, move_id, text)"
    " VALUES (1, 1, 0, '{}', 'm1', 'a move') RETURNING seq",
)
"""A room with a game and a move: the move log's append-only trigger refuses a DELETE that
no cascade made."""


def rows(url: str) -> int:
    """The rows of every table but Alembic's, counted."""

    async def go() -> int:
        conn = await asyncpg.connect(asyncpg_dsn(url))
        try:
            tables = await conn.fetch(
                "SELECT format('%I', relname) FROM pg_class"
                " WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'p')"
                " AND relname <> 'alembic_version'"
            )
            counts = " UNION ALL ".join(f"SELECT count(*) FROM {t}" for (t,) in tables)
            total: int = await conn.fetchval(f"SELECT sum(count) FROM ({counts}) c")
            return total
        finally:
            await conn.close()

    return run_async(go)


def exists(databases: TestDatabases, url: str) -> bool:
    name = url.rsplit("/", 1)[1].split("?")[0]
    (found,) = sql(
        databases.admin_url,
        f"SELECT count(*) FROM pg_database WHERE datname = '{name}'",
    )
    return found == 1


def test_a_released_database_comes_back_empty_with_its_sequences_restarted(
    test_databases: TestDatabases,
) -> None:
    url = test_databases.create()
    written = sql(url, *WRITE)
    assert written[1:] == [1, 2], "two seats, numbered from 1"
    test_databases.release(url)
    again = test_databases.create()
    assert again == url, "recycled, not created"
    assert sql(again, "SELECT count(*) FROM rooms", "SELECT count(*) FROM seats") == [
        0,
        0,
    ]
    assert sql(again, "SELECT count(*) FROM alembic_version") == [1], "still at head"
    assert sql(again, *WRITE) == written, "the identities start again from 1"
    test_databases.release(again)


@pytest.mark.parametrize("superuser", [True, False], ids=["delete", "truncate"])
def test_every_table_comes_back_empty_whichever_way_it_is_emptied(
    test_databases: TestDatabases, monkeypatch: pytest.MonkeyPatch, superuser: bool
) -> None:
    """Rows deleted with the triggers off (a superuser), or truncated (any other role)."""
    monkeypatch.setattr(test_databases, "_superuser", superuser)
    url = test_databases.create()
    written = sql(url, *PLAYED)
    assert rows(url) == 5
    test_databases.release(url)
    again = test_databases.create()
    assert again == url, "recycled, not created"
    assert rows(again) == 0
    assert sql(again, *PLAYED) == written, "the identities start again from 1"
    test_databases.release(again)


def test_a_database_whose_schema_changed_is_dropped_not_reused(
    test_databases: TestDatabases,
) -> None:
    url = test_databases.create()
    sql(url, "ALTER TABLE rooms ADD COLUMN stray integer")
    test_databases.release(url)
    assert not exists(test_databases, url)
    assert test_databases.create() != url


def test_a_database_still_in_use_is_dropped_not_reused(
    test_databases: TestDatabases,
) -> None:
    url = test_databases.create()

    async def hold_and_release() -> None:
        conn = await asyncpg.connect(asyncpg_dsn(url))
        try:
            loop = asyncio.get_running_loop()
            await loop.run_in_executor(None, test_databases.release, url)
        finally:
            conn.terminate()

    run_async(hold_and_release)
    assert not exists(test_databases, url), "dropped (its connection cut)"


def test_a_database_released_in_the_background_comes_back_empty(
    test_databases: TestDatabases,
) -> None:
    """The fixtures' way (`release_later`): emptied in a thread of its own, then reused."""
    url = test_databases.create()
    written = sql(url, *WRITE)
    test_databases.release_later(url)
    test_databases.settle()
    again = test_databases.create()
    assert again == url, "recycled, not created"
    assert sql(again, "SELECT count(*) FROM rooms", "SELECT count(*) FROM seats") == [
        0,
        0,
    ]
    assert sql(again, *WRITE) == written, "the identities start again from 1"
    test_databases.release(again)


def test_a_database_being_emptied_is_not_handed_out_before_it_is_empty(
    test_databases: TestDatabases,
) -> None:
    """The next test asks at once: it gets another database, or this one once emptied."""
    url = test_databases.create()
    sql(url, *WRITE)
    test_databases.release_later(url)
    for _ in range(3):  # each asked at once after the last was released
        url = test_databases.create()
        assert sql(url, "SELECT count(*) FROM rooms", "SELECT count(*) FROM seats") == [
            0,
            0,
        ]
        sql(url, *WRITE)
        test_databases.release_later(url)
    test_databases.settle()
