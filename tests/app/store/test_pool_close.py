"""A server's shutdown closes its pools within a bound (app/store/pool.py `close_pool`):
gracefully when every connection is back, at once when a task still holds one. asyncpg's
own `close` waits for every connection without a bound."""

from __future__ import annotations

import asyncio
import logging

import asyncpg  # type: ignore[import-untyped]
import pytest

from app.store.pool import asyncpg_dsn, close_pool, create_pool


async def test_a_pool_whose_connections_are_back_closes_gracefully(
    database_url: str,
) -> None:
    pool = await create_pool(asyncpg_dsn(database_url), 2)
    async with pool.acquire() as conn:
        assert await conn.fetchval("SELECT 1") == 1
    assert await close_pool(pool, "test", within_s=30.0)
    assert pool._closed


async def test_a_connection_still_held_does_not_hold_the_shutdown_forever(
    database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    pool = await create_pool(asyncpg_dsn(database_url), 2)
    held = await pool.acquire()  # a task that never gives it back
    caplog.set_level(logging.WARNING, logger="ishtar.pool")
    closing = asyncio.create_task(close_pool(pool, "test", within_s=0.5))
    # Not graceful: the bound ran out, and the pool closed at once.
    assert await asyncio.wait_for(closing, timeout=30.0) is False
    assert pool._closed
    with pytest.raises(asyncpg.InterfaceError):  # the held connection is gone too
        await held.fetchval("SELECT 1")
    assert "test pool still had a connection in use" in caplog.text
