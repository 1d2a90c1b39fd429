"""Rooms per client address per minute: one limit shared by every instance (app/play/limits.py).

Two apps on the same database stand for two instances behind one load balancer: the rooms
a client creates through either count against the same limit, kept in PostgreSQL as a keyed
hash of the address.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from app.config.settings import Settings
from app.ops.main import create_app
from app.play.limits import SharedRoomLimit
from tests.support.databases import FEW_CONNECTIONS

LIMIT = 6
ADDRESS = "203.0.113.7"
OTHER = "198.51.100.23"
REASON = "Too many requests; slow down and retry."
PLANTED = 2_000_000_000
"""Creations planted in an earlier minute: near the column's bound (a PostgreSQL integer)."""


class Instances:
    """Two running apps on one database, and a client of each per address."""

    def __init__(
        self, apps: list[FastAPI], stack: AsyncExitStack, engine: AsyncEngine
    ) -> None:
        self.apps, self.stack, self.engine = apps, stack, engine
        self._clients: dict[tuple[int, str], httpx.AsyncClient] = {}

    async def client(self, instance: int, address: str = ADDRESS) -> httpx.AsyncClient:
        key = (instance, address)
        if key not in self._clients:
            transport = httpx.ASGITransport(
                app=self.apps[instance], client=(address, 5000)
            )
            self._clients[key] = await self.stack.enter_async_context(
                httpx.AsyncClient(transport=transport, base_url="http://testserver")
            )
        return self._clients[key]

    async def create(self, instance: int, address: str = ADDRESS) -> httpx.Response:
        client = await self.client(instance, address)
        return await client.post("/api/rooms", json={"players": 2})

    @property
    def limit(self) -> SharedRoomLimit:
        """The first instance's limit (its key is the one every instance shares)."""
        limit: SharedRoomLimit = self.apps[0].state.room_limit
        return limit


@pytest.fixture
async def instances(database_url: str, tmp_path: Path) -> AsyncIterator[Instances]:
    apps = [
        create_app(
            Settings(
                _env_file=None,  # type: ignore[call-arg]
                database_url=database_url,
                data_dir=tmp_path / f"data-{n}",
                **FEW_CONNECTIONS,
                rooms_per_minute=LIMIT,
            )
        )
        for n in range(2)
    ]
    async with AsyncExitStack() as stack:
        for app in apps:
            await stack.enter_async_context(app.router.lifespan_context(app))
        engine = create_async_engine(database_url)  # the test's look into the tables
        stack.push_async_callback(engine.dispose)
        yield Instances(apps, stack, engine)


async def stored(engine: AsyncEngine) -> list[tuple[bytes, int, int]]:
    async with engine.connect() as conn:
        rows = await conn.execute(
            text("SELECT address_hash, minute, created FROM room_creations")
        )
        return [(bytes(r[0]), r[1], r[2]) for r in rows]


async def test_creations_through_two_instances_hit_one_shared_limit(
    instances: Instances,
) -> None:
    codes = []
    for n in range(LIMIT + 4):
        response = await instances.create(n % 2)  # A, B, A, B, ...
        codes.append(response.status_code)
        if response.status_code == 429:
            error = response.json()["error"]
            assert (error["code"], error["reason"]) == ("rate_limited", REASON)
    # Each instance alone would have allowed LIMIT: together they allow LIMIT, not 2x.
    assert codes == [201] * LIMIT + [429] * 4
    # Both instances refuse now, and the limit is per address.
    assert (await instances.create(0)).status_code == 429
    assert (await instances.create(1)).status_code == 429
    assert (await instances.create(1, OTHER)).status_code == 201
    assert (await instances.create(0, OTHER)).status_code == 201


async def test_a_limit_used_up_on_one_instance_holds_on_the_other(
    instances: Instances,
) -> None:
    for _ in range(LIMIT):
        assert (await instances.create(0)).status_code == 201
    assert (await instances.create(1)).status_code == 429


async def test_concurrent_creations_on_both_instances_never_pass_the_limit(
    instances: Instances,
) -> None:
    attempts = 4 * LIMIT
    responses = await asyncio.gather(
        *(instances.create(n % 2) for n in range(attempts))
    )
    codes = sorted(r.status_code for r in responses)
    assert codes == [201] * LIMIT + [429] * (attempts - LIMIT)
    # Refused attempts are not counted.
    assert sum(created for _, _, created in await stored(instances.engine)) == LIMIT


async def test_only_a_keyed_hash_of_the_address_is_stored(
    instances: Instances,
) -> None:
    assert (await instances.create(0)).status_code == 201
    assert (await instances.create(1)).status_code == 201
    assert (await instances.create(1, OTHER)).status_code == 201
    async with instances.engine.connect() as conn:
        key = bytes(
            (await conn.execute(text("SELECT key FROM room_creation_key"))).scalar_one()
        )
        dump = str(
            (
                await conn.execute(
                    text("SELECT array_agg(c::text) FROM room_creations AS c")
                )
            ).scalar_one()
        )
    assert len(key) == 32
    rows = await stored(instances.engine)
    hashes = {address_hash for address_hash, _, _ in rows}
    expected = {
        hmac.new(key, address.encode(), hashlib.sha256).digest()[:16]
        for address in (ADDRESS, OTHER)
    }
    # Both instances hashed the address with the same key.
    assert hashes == expected
    assert sum(created for _, _, created in rows) == 3
    for address in (ADDRESS, OTHER):
        assert address not in dump
        assert address.encode().hex() not in dump
        assert hashlib.sha256(address.encode()).digest()[:16] not in hashes


async def _minute(engine: AsyncEngine) -> int:
    async with engine.connect() as conn:
        query = "SELECT floor(extract(epoch FROM clock_timestamp()) / 60)::bigint"
        minute: int = (await conn.execute(text(query))).scalar_one()
        return minute


async def _plant(instances: Instances, address: str, minute: int, created: int) -> None:
    limit = instances.limit
    digest = limit.address_hash(await limit.shared_key(), address)
    async with instances.engine.begin() as conn:
        await conn.execute(
            text(
                "INSERT INTO room_creations (address_hash, minute, created)"
                " VALUES (:a, :m, :c) ON CONFLICT (address_hash, minute)"
                " DO UPDATE SET created = EXCLUDED.created"
            ),
            {"a": digest, "m": minute, "c": created},
        )


async def test_the_previous_minute_still_counts_but_older_ones_do_not(
    instances: Instances,
) -> None:
    """The window slides: the minute before this one weighs by its overlap with the last
    60 seconds; two minutes ago weighs nothing. (Done again if a minute turns meanwhile.)"""
    engine = instances.engine
    for _ in range(3):
        minute = await _minute(engine)
        # So far over the limit that any overlap of the previous minute is enough: even
        # its last microsecond (clock_timestamp's step) weighs 2e9 / 6e7, over LIMIT. With
        # 1,000 times the limit, a creation in the minute's last 60 ms passed (one CI run).
        await _plant(instances, ADDRESS, minute - 1, PLANTED)
        await _plant(instances, OTHER, minute - 2, PLANTED)
        refused = (await instances.create(0)).status_code
        allowed = (await instances.create(1, OTHER)).status_code
        if await _minute(engine) == minute:
            break
        async with engine.begin() as conn:
            await conn.execute(text("DELETE FROM room_creations"))
    assert refused == 429
    assert allowed == 201


async def test_counts_older_than_the_previous_minute_are_pruned(
    instances: Instances,
) -> None:
    engine = instances.engine
    assert (await instances.create(0)).status_code == 201
    minute = await _minute(engine)
    for age in (2, 3, 90):
        await _plant(instances, OTHER, minute - age, 1)
    limit: SharedRoomLimit = instances.apps[1].state.room_limit
    assert await limit.prune() == 3
    left = await stored(engine)
    assert sum(created for _, _, created in left) == 1
    assert all(m >= minute - 1 for _, m, _ in left)
