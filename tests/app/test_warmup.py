"""Warming at start: the engine's per-layout tables and each pooled connection's statement."""

from __future__ import annotations

import types

import asyncpg  # type: ignore[import-untyped]

import engine
from app.game_store import warm_statements
from app.notify import asyncpg_dsn
from app.pool import create_pool, open_connections
from app.warmup import warm_rules
from tests.app import toygame


def test_the_engine_is_warmed_by_whole_games_for_each_player_count() -> None:
    steps = warm_rules(engine)
    assert steps > 3 * 40, "three complete games"


def test_a_rules_module_without_fast_previews_is_warmed_too() -> None:
    assert warm_rules(toygame) > 0


def test_a_rules_module_that_fails_is_served_cold_not_fatal() -> None:
    broken = types.SimpleNamespace(new_game=lambda players, seed: 1 / 0)
    assert warm_rules(broken) == 0


async def test_warming_a_connection_changes_nothing(database_url: str) -> None:
    conn = await asyncpg.connect(asyncpg_dsn(database_url))
    try:
        await conn.set_type_codec(
            "jsonb", schema="pg_catalog", encoder=str, decoder=str, format="text"
        )
        before = await conn.fetchval("SELECT count(*) FROM moves")
        versions = await conn.fetch("SELECT id, version FROM games ORDER BY id")
        await warm_statements(conn)
        assert await conn.fetchval("SELECT count(*) FROM moves") == before
        assert await conn.fetch("SELECT id, version FROM games ORDER BY id") == versions
    finally:
        await conn.close()


async def test_connections_are_opened_before_use_and_a_dead_database_is_no_error(
    database_url: str,
) -> None:
    pool = await create_pool(asyncpg_dsn(database_url), 4, warm=warm_statements)
    try:
        assert await open_connections(pool, 3) == 3
        assert pool.get_size() == 3, "opened and kept"
    finally:
        await pool.close()
    nowhere = await create_pool("postgresql://u@127.0.0.1:1/db", 4)
    try:
        assert await open_connections(nowhere, 3) == 0
    finally:
        await nowhere.close()
