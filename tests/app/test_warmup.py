"""Warming at start: the engine's per-layout tables and each pooled connection's statement."""

from __future__ import annotations

import types

import asyncpg  # type: ignore[import-untyped]

import engine
from app.game_store import warm_statements
from app.notify import asyncpg_dsn
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
