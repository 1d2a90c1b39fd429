"""Warming at start: the engine's per-layout tables and each pooled connection's statement."""

from __future__ import annotations

import types
from typing import Any

import asyncpg  # type: ignore[import-untyped]
import httpx
import pytest
from fastapi import FastAPI

from app.config.settings import Settings
from app.notices.listener import asyncpg_dsn
from app.ops import composition
from app.ops.main import create_app
from app.ops.warmup import warm_once, warm_rules
from app.play.rules import Rules
from app.store.games import COMMIT_MOVE, warm_statements
from app.store.pool import create_pool, open_connections
from engine import ishtar
from tests.app import toygame


def test_the_engine_is_warmed_by_whole_games_for_each_player_count() -> None:
    steps = warm_rules(Rules(ishtar))
    assert steps > 3 * 40, "three complete games"


def test_a_rules_module_without_fast_previews_is_warmed_too() -> None:
    assert warm_rules(Rules(toygame)) > 0


def test_a_process_warms_each_rules_module_once() -> None:
    calls: list[int] = []

    def new_game(players: int, seed: int, options: Any = None) -> object:
        calls.append(players)
        return toygame.new_game(players, seed, options)

    counting = types.SimpleNamespace(**vars(toygame))
    counting.__name__ = "tests.counting_toygame"
    counting.new_game = new_game
    rules = Rules(counting)
    assert warm_once(rules, players=(2, 3)) is True
    assert calls == [2, 3]
    assert warm_once(rules, players=(2, 3)) is False, "already warm"
    assert calls == [2, 3]


def test_a_rules_module_that_fails_is_served_cold_not_fatal() -> None:
    broken = types.SimpleNamespace(new_game=lambda players, seed: 1 / 0)
    assert warm_rules(broken) == 0


async def test_warming_a_connection_changes_nothing(database_url: str) -> None:
    conn = await asyncpg.connect(asyncpg_dsn(database_url))
    try:
        await conn.set_type_codec(
            "jsonb", schema="pg_catalog", encoder=str, decoder=str, format="text"
        )
        counts = "SELECT (SELECT count(*) FROM moves), (SELECT count(*) FROM rooms)"
        before = await conn.fetchrow(counts)
        versions = await conn.fetch("SELECT id, version FROM games ORDER BY id")
        await warm_statements(conn)
        assert await conn.fetchrow(counts) == before, "the rehearsal is rolled back"
        assert await conn.fetch("SELECT id, version FROM games ORDER BY id") == versions
        assert not conn.is_in_transaction()
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


async def test_a_warmed_connection_has_rehearsed_the_move_with_a_generic_plan(
    database_url: str,
) -> None:
    pool = await create_pool(asyncpg_dsn(database_url), 2, warm=warm_statements)
    try:
        await open_connections(pool, 1)
        async with pool.acquire() as conn:
            plans = await conn.fetchrow(
                "SELECT generic_plans, custom_plans FROM pg_prepared_statements"
                " WHERE statement = $1",
                COMMIT_MOVE,
            )
    finally:
        await pool.close()
    assert plans is not None, "the statement of a move is prepared"
    assert plans["generic_plans"] >= 2, "two moves rehearsed"
    assert plans["custom_plans"] == 0, "no planning per execution"


async def test_the_app_warms_every_game_at_start_unless_told_not_to(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`ISHTAR_WARM_UP` (default on) warms each registered game's rules at start; the
    tests' live servers turn it off (tests/support/live.py)."""
    warmed: list[str] = []
    monkeypatch.setattr(
        composition, "warm_once", lambda rules, players: warmed.append(rules.__name__)
    )
    for warm_up, expected in (
        (True, {"engine.ishtar", "engine.babylon"}),
        (False, set()),
    ):
        warmed.clear()
        app = create_app(settings.model_copy(update={"warm_up": warm_up}))
        async with app.router.lifespan_context(app):
            assert (await _ready(app)) == 200
        assert set(warmed) == expected, warm_up
    assert Settings(_env_file=None).warm_up is True  # type: ignore[call-arg]


async def _ready(app: FastAPI) -> int:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
        return (await client.get("/readyz")).status_code
