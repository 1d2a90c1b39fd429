"""The store's pool opens extra connections only for a request that waited for the kept ones
(app/store/overflow.py): a burst of short reads opens none, a load that holds every kept
connection gets extra ones, and those close once unused."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from app.store.overflow import OverflowPool
from app.store.pool import asyncpg_dsn, close_pool, create_pool


@pytest.fixture
async def pools(database_url: str) -> AsyncIterator[OverflowPool]:
    dsn = asyncpg_dsn(database_url)
    base = await create_pool(dsn, 1)
    extra = await create_pool(dsn, 2, idle_s=3600)
    pool = OverflowPool(base, extra, grace_s=3600)
    yield pool
    assert await close_pool(pool, "test", within_s=30.0)


async def test_a_burst_that_the_kept_connections_serve_opens_no_extra_one(
    pools: OverflowPool,
) -> None:
    async def read(k: int) -> int:
        async with pools.acquire() as conn:
            return int(await conn.fetchval("SELECT $1::int", k))

    assert await asyncio.gather(*(read(k) for k in range(20))) == list(range(20))
    assert pools.base.get_size() == 1
    assert pools.extra is not None and pools.extra.get_size() == 0
    assert pools.spilled == 0


async def test_a_request_that_waited_in_vain_opens_an_extra_one_then_reuses_it(
    pools: OverflowPool,
) -> None:
    extra = pools.extra
    assert extra is not None
    async with pools.acquire() as held:  # the only kept connection, busy throughout
        assert await held.fetchval("SELECT 1") == 1
        pools.grace_s = 0.05
        async with pools.acquire() as spilt:
            assert await spilt.fetchval("SELECT 2") == 2
        assert pools.spilled == 1
        assert extra.get_size() == 1
        # Open and free, the extra connection is taken at once: no wait of grace_s.
        pools.grace_s = 3600
        async with asyncio.timeout(30), pools.acquire() as again:
            assert await again.fetchval("SELECT 3") == 3
        assert pools.spilled == 1
        assert extra.get_size() == 1
    assert pools.get_size() == 2


async def test_an_unused_extra_connection_closes(database_url: str) -> None:
    dsn = asyncpg_dsn(database_url)
    base = await create_pool(dsn, 1)
    extra = await create_pool(dsn, 2, idle_s=0.2)
    pool = OverflowPool(base, extra, grace_s=0.01)
    try:
        async with pool.acquire(), pool.acquire() as spilt:
            assert await spilt.fetchval("SELECT 1") == 1
        assert extra.get_size() == 1
        async with asyncio.timeout(30):
            # asyncpg closes it once unused for idle_s, and tells no one: read its state
            while extra.get_size():  # noqa: ASYNC110
                await asyncio.sleep(0.05)
        assert base.get_size() == 1  # the kept connection stays
    finally:
        assert await close_pool(pool, "test", within_s=30.0)


async def test_without_extra_connections_every_request_waits_for_a_kept_one(
    database_url: str,
) -> None:
    base = await create_pool(asyncpg_dsn(database_url), 1)
    pool = OverflowPool(base, None, grace_s=0.01)

    async def read() -> int:
        async with pool.acquire() as conn:
            return int(await conn.fetchval("SELECT 1"))

    try:
        held = await base.acquire()
        waiting = asyncio.create_task(read())
        done, _ = await asyncio.wait({waiting}, timeout=0.2)
        assert not done  # no extra pool: it waits past grace_s for the kept connection
        await base.release(held)
        assert await asyncio.wait_for(waiting, 30) == 1
        assert base.get_size() == 1
    finally:
        assert await close_pool(pool, "test", within_s=30.0)
