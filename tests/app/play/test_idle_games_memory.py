"""10,000 finished games in the database cost the server nothing in memory (issue 17, point 2).

One finished game is played through the app, then cloned 10,000 times in SQL (rooms, seats,
games, moves, snapshots). The last 2,000 clones are then read through the paths that keep
something in memory (the first 8,000 stay idle in the database, read by nobody): its
position (`service.reading.view`: the position cache and the game's context),
its room status (`service.rooms.status`: the shuffle facts of the archive) and a replay
(`archive.room_view`: the replay cache). Memory is measured, not time: once every cache is
full (their bounds are made small, so the 2,000 reads fill them many times over), tracemalloc
counts what the last 1,000 reads left allocated, and each cache's own count of bytes is
held to its bound.

Tracing starts 500 reads before the count does: what a full cache drops to make room
while it is counted was itself allocated under tracing (tracemalloc does not subtract the
freeing of a block it never saw allocated).
"""

from __future__ import annotations

import asyncio
import gc
import tracemalloc
from typing import Any

import asyncpg  # type: ignore[import-untyped]
import httpx
import pytest
from fastapi import FastAPI

from app.config.settings import Settings
from app.play import reading
from app.records import archive as archive_module
from tests.app.clients import open_room
from tests.app.conftest import TOY
from tests.app.records.test_records import play

GAMES = 10_000
MEASURED = 1_000  # the last reads, counted
TRACED_BEFORE = 500  # traced but not counted: more than any cache below holds
FILLED = 500  # read before tracing starts: every cache full, many times over
SMALL_CACHE = (
    128 << 10
)  # every cache's bound: the 2,000 reads fill each many times over
AT_ONCE = 8  # reads in flight together (the pool has 10 connections)
GROWTH_BUDGET = 256 << 10
"""What 1,000 more idle games may leave allocated: 262 bytes each. A cache without a bound
does not fit: a game's context alone is about 1 KB (1 MB for 1,000 games), its shuffle
facts 300 bytes (300 KB, with the noise below). What bounded things leave is noise of a fixed size, not per
game: the full caches hold entries of varying sizes at the two counts, and asyncpg keeps
each pooled connection's prepared statements. Alone that noise measured 70-87 KB over
five runs; in a full CI run with other tests beside it, 141 KB once (over the 128 KB this
budget was before)."""


@pytest.fixture
def game_module() -> str:
    return TOY


@pytest.fixture
def room_settings(room_settings: Settings) -> Settings:
    return room_settings.model_copy(
        update={
            "position_cache_bytes": SMALL_CACHE,
            "replay_cache_bytes": SMALL_CACHE,
            "rooms_per_minute": 10_000,
            "http_moves_per_s": 10_000.0,
            # Ten kept connections and no extra one, all opened at start: the reads in
            # flight never open a connection while memory is counted. With one kept and
            # extras opened after a wait (app/store/overflow.py), how many opened inside
            # the counted reads hung on the machine's speed (one CI run: 490 KB).
            "db_pool_size": 10,
            "db_max_overflow": 0,
        }
    )


async def columns(conn: Any, table: str) -> list[str]:
    """The columns of `table` a copy sets (identity columns take their own values)."""
    rows = await conn.fetch(
        "SELECT column_name FROM information_schema.columns"
        " WHERE table_name = $1 AND is_identity = 'NO' ORDER BY ordinal_position",
        table,
    )
    return [row["column_name"] for row in rows]


async def copy_rows(
    conn: Any, table: str, alias: str, source: str, overrides: dict[str, str]
) -> None:
    """INSERT INTO `table` the rows of `source` (a FROM … WHERE clause over `alias`
    and the clone ids `c`), each column copied unless `overrides` gives its value."""
    names = await columns(conn, table)
    values = [overrides.get(name, f"{alias}.{name}") for name in names]
    await conn.execute(
        f"INSERT INTO {table} ({', '.join(names)}) SELECT {', '.join(values)} {source}"
    )


async def clone_room(database_url: str, room_id: str, count: int) -> list[str]:
    """`count` copies of a room with its finished game, in SQL; their room ids."""
    url = database_url.replace("postgresql+asyncpg://", "postgresql://", 1)
    conn = await asyncpg.connect(url)
    try:
        async with conn.transaction():
            await conn.execute(
                "CREATE TEMP TABLE clones AS SELECT 'idle' || lpad(i::text, 8, '0')"
                f" AS room_id FROM generate_series(1, {count}) AS i"
            )
            await conn.execute(
                "CREATE TEMP TABLE source AS SELECT $1::text AS id", room_id
            )
            await copy_rows(
                conn,
                "rooms",
                "r",
                "FROM rooms r, clones c WHERE r.id = (SELECT id FROM source)",
                {
                    "id": "c.room_id",
                    "host_token_hash": "sha256(convert_to(c.room_id, 'UTF8'))",
                },
            )
            await copy_rows(
                conn,
                "seats",
                "s",
                "FROM seats s, clones c WHERE s.room_id = (SELECT id FROM source)",
                {
                    "room_id": "c.room_id",
                    # unique: each copy's seat holds a token of its own
                    "token_hash": "sha256(convert_to(c.room_id || s.seat, 'UTF8'))",
                },
            )
            await copy_rows(
                conn,
                "games",
                "g",
                "FROM games g, clones c WHERE g.room_id = (SELECT id FROM source)",
                {"room_id": "c.room_id"},
            )
            for table, alias in (("moves", "m"), ("snapshots", "s")):
                await copy_rows(
                    conn,
                    table,
                    alias,
                    f"FROM {table} {alias}"
                    f" JOIN games old ON old.id = {alias}.game_id"
                    " AND old.room_id = (SELECT id FROM source)"
                    " CROSS JOIN clones c JOIN games g ON g.room_id = c.room_id",
                    {"game_id": "g.id"},
                )
            ids = [
                row["room_id"] for row in await conn.fetch("SELECT room_id FROM clones")
            ]
    finally:
        await conn.close()
    return ids


@pytest.mark.slow
async def test_ten_thousand_finished_games_cost_the_server_nothing_in_memory(
    room_app: FastAPI, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # read as the app starts (below): caches of a few hundred games, not thousands
    monkeypatch.setattr(reading, "CONTEXT_CACHE_BYTES", SMALL_CACHE)
    monkeypatch.setattr(archive_module, "SHUFFLE_FACTS_BYTES", SMALL_CACHE)
    async with room_app.router.lifespan_context(room_app):
        transport = httpx.ASGITransport(app=room_app)
        async with httpx.AsyncClient(
            transport=transport, base_url="http://testserver"
        ) as http:
            room_id, _host, tokens = await open_room(http, 2)
            seen = await play(http, room_id, tokens, seed=7)
            assert seen[-1]["phase"] == "over"
            moves = len(seen) - 1
        ids = await clone_room(database_url, room_id, GAMES)
        assert len(ids) == GAMES

        service = room_app.state.rooms
        archive = room_app.state.archive
        positions = service.reading.positions
        replays = archive.replays.cache

        async def read(index: int, clone: str) -> None:
            view = await service.reading.view(clone, None)
            assert view["status"] == "finished" and view["version"] == moves
            status = await service.rooms.status(await service.rooms.room(clone))
            assert status["status"] == "finished" and status["seed"] is not None
            replay = await archive.room_view(clone, 1 + index % moves)
            assert replay  # the replay's JSON text

        async def read_all(first: int, last: int) -> None:
            for start in range(first, last, AT_ONCE):
                end = min(start + AT_ONCE, last)
                await asyncio.gather(*(read(i, ids[i]) for i in range(start, end)))

        counted = GAMES - MEASURED
        # The caches fill with the first FILLED reads (each holds fewer games than
        # TRACED_BEFORE); the games before those are read by nobody, as most idle games.
        await read_all(counted - TRACED_BEFORE - FILLED, counted - TRACED_BEFORE)
        tracemalloc.start()
        try:
            await read_all(counted - TRACED_BEFORE, counted)
            gc.collect()
            before, _peak = tracemalloc.get_traced_memory()
            await read_all(counted, GAMES)
            gc.collect()
            after, _peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        grown = after - before

        assert grown <= GROWTH_BUDGET, (
            f"{MEASURED} more idle games left {grown} bytes allocated"
        )
        contexts, shuffles = service.reading._games, archive._shuffles
        caches = {
            "positions": (positions.bytes, positions.max_bytes, len(positions)),
            "replays": (replays.bytes, replays.max_bytes, len(replays)),
            "contexts": (contexts.currsize, contexts.maxsize, len(contexts)),
            "shuffles": (shuffles.currsize, shuffles.maxsize, len(shuffles)),
        }
        for name, (held, bound, entries) in caches.items():
            assert held <= bound, name
            assert 1 <= entries < TRACED_BEFORE, (
                f"the {name} cache keeps {entries} games"
            )
