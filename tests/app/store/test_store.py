"""Persistence: the log is the truth, one writer per game, moves never applied twice
(issue 4: persistence). Several `Store`s on separate engines stand for several processes."""

from __future__ import annotations

import asyncio
import importlib
import json
from collections.abc import AsyncIterator

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from app.config.settings import Settings
from app.notices.listener import asyncpg_dsn
from app.ops.main import create_app
from app.play.snapshots import SNAPSHOT_EVERY
from app.store.games import DuplicateMoveId
from app.store.pool import create_pool
from app.store.rooms import SeatTaken
from app.store.store import Store
from tests.app.clients import bearer, open_room
from tests.app.conftest import GAMES
from tests.app.hidden import game_record, normal
from tests.app.play.test_seats import play_one
from tests.app.web.test_http_game import play_over_http


@pytest.fixture
async def engines(database_url: str) -> AsyncIterator[list[AsyncEngine]]:
    made = [create_async_engine(database_url) for _ in range(3)]
    yield made
    for engine in made:
        await engine.dispose()


@pytest.fixture
async def stores(
    database_url: str, engines: list[AsyncEngine]
) -> AsyncIterator[list[Store]]:
    """Three stores with their own pools: as three server processes would be."""
    pools = [await create_pool(asyncpg_dsn(database_url), 4) for _ in engines]
    yield [Store(pool) for pool in pools]
    for pool in pools:
        await pool.close()


async def stored_snapshot(engine: AsyncEngine, room_id: str) -> tuple[int, dict]:
    """The version the snapshot is at, and the snapshot."""
    async with engine.connect() as conn:
        row = (
            await conn.execute(
                text("SELECT snapshot_version, snapshot FROM games WHERE room_id = :r"),
                {"r": room_id},
            )
        ).one()
    return row.snapshot_version, row.snapshot


@pytest.mark.parametrize("game_module", GAMES)
async def test_replaying_the_log_reproduces_the_snapshot(
    http: httpx.AsyncClient,
    database_url: str,
    engines: list[AsyncEngine],
    game_module: str,
) -> None:
    rules = importlib.import_module(game_module)
    room_id, _host, tokens = await open_room(http, 3)
    await play_over_http(http, room_id, tokens, seed=7)
    setup, actions = await game_record(database_url, room_id)
    version, snapshot = await stored_snapshot(engines[0], room_id)
    assert version == len(actions), "the last move writes the snapshot"
    replayed = rules.replay(setup, actions)
    assert normal(rules.encode_state(replayed)) == snapshot
    assert rules.is_over(replayed)


@pytest.mark.parametrize("game_module", GAMES)
async def test_mid_game_the_snapshot_plus_the_moves_after_it_is_the_game(
    room_app: FastAPI,
    http: httpx.AsyncClient,
    database_url: str,
    engines: list[AsyncEngine],
    room_settings: Settings,
    game_module: str,
) -> None:
    rules = importlib.import_module(game_module)
    room_id, _host, tokens = await open_room(http, 4)
    for _ in range(SNAPSHOT_EVERY + 3):
        view = (await http.get(f"/api/rooms/{room_id}/view")).json()
        token = tokens[view["view"]["current"]]
        mine = (
            await http.get(f"/api/rooms/{room_id}/view", headers=bearer(token))
        ).json()
        body = {
            "move": mine["legal"][0]["action"],
            "expected_version": mine["version"],
            "move_id": f"m{mine['version']}",
        }
        assert (
            await http.post(
                f"/api/rooms/{room_id}/moves", json=body, headers=bearer(token)
            )
        ).status_code == 200
    # Written after its move, off the move's path (app/play/snapshots.py): wait for it.
    await room_app.state.rooms.snapshots.flush()
    setup, actions = await game_record(database_url, room_id)
    at, snapshot = await stored_snapshot(engines[0], room_id)
    assert at == SNAPSHOT_EVERY < len(actions)
    assert normal(rules.encode_state(rules.replay(setup, actions[:at]))) == snapshot
    # A process that never saw this game (a restart, another instance) gets it exactly.
    live = (
        await http.get(f"/api/rooms/{room_id}/view", headers=bearer(tokens[0]))
    ).json()
    fresh_app = create_app(room_settings)
    async with fresh_app.router.lifespan_context(fresh_app):
        transport = httpx.ASGITransport(app=fresh_app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as fresh:
            again = (
                await fresh.get(f"/api/rooms/{room_id}/view", headers=bearer(tokens[0]))
            ).json()
    assert again == live
    assert again["version"] == len(actions)


async def started_game(http: httpx.AsyncClient, engine: AsyncEngine) -> tuple[str, int]:
    room_id, _host, _tokens = await open_room(
        http, 2, first_player=0, seat_order="fixed"
    )
    async with engine.connect() as conn:
        game_id = (
            await conn.execute(
                text("SELECT id FROM games WHERE room_id = :r"), {"r": room_id}
            )
        ).scalar_one()
    return room_id, game_id


def attempt(
    store: Store, room_id: str, game_id: int, n: int, move_id: str | None = None
):
    return store.commit_move(
        room_id=room_id,
        game_id=game_id,
        expected_version=0,
        seat=0,
        action={"type": "draw", "n": n},
        move_id=move_id or f"m{n}",
        text_=f"attempt {n}",
        snapshot_json=json.dumps({"attempt": n}),
        finished=False,
        current_seat=0,
    )


async def test_concurrent_writers_never_fork_a_game(
    http: httpx.AsyncClient, engines: list[AsyncEngine], stores: list[Store]
) -> None:
    room_id, game_id = await started_game(http, engines[0])
    results = await asyncio.gather(
        *(attempt(stores[n % 3], room_id, game_id, n) for n in range(30))
    )
    winners = [(n, r) for n, r in enumerate(results) if r is not None]
    assert len(winners) == 1, "exactly one compare-and-set wins"
    ((n, event),) = winners
    assert event.seq == 1
    async with engines[0].connect() as conn:
        rows = (
            await conn.execute(
                text("SELECT seq, move_id FROM moves WHERE game_id = :g"),
                {"g": game_id},
            )
        ).all()
        version, snapshot = await stored_snapshot(engines[0], room_id)
    assert [tuple(r) for r in rows] == [(1, f"m{n}")]
    assert version == 1
    assert snapshot == {"attempt": n}, "the snapshot is the winner's"


async def test_a_move_id_is_applied_once(
    http: httpx.AsyncClient, engines: list[AsyncEngine], stores: list[Store]
) -> None:
    room_id, game_id = await started_game(http, engines[0])
    store = stores[0]
    assert await attempt(store, room_id, game_id, 1, move_id="same") is not None
    # The same move id again, even against the right version, is refused as a duplicate.
    with pytest.raises(DuplicateMoveId):
        await store.commit_move(
            room_id=room_id,
            game_id=game_id,
            expected_version=1,
            seat=0,
            action={"type": "draw"},
            move_id="same",
            text_="again",
            snapshot_json="{}",
            finished=False,
            current_seat=0,
        )
    assert (await store.move_by_id(game_id, "same")).seq == 1
    assert await store.game_version(game_id) == 1


async def test_the_move_log_is_append_only(
    http: httpx.AsyncClient, engines: list[AsyncEngine]
) -> None:
    room_id, _host, tokens = await open_room(
        http, 2, first_player=0, seat_order="fixed"
    )
    await http.post(
        f"/api/rooms/{room_id}/moves",
        json={"move": {"type": "draw"}, "expected_version": 0, "move_id": "a"},
        headers=bearer(tokens[0]),
    )
    for statement in ("UPDATE moves SET seat = 1", "DELETE FROM moves"):
        with pytest.raises(DBAPIError, match="append-only"):
            async with engines[0].begin() as conn:
                await conn.execute(text(statement))
    async with engines[
        0
    ].begin() as conn:  # a whole room (and its game) may still be deleted
        await conn.execute(text("DELETE FROM rooms WHERE id = :r"), {"r": room_id})
        assert (
            await conn.execute(text("SELECT count(*) FROM moves"))
        ).scalar_one() == 0


async def test_racing_joins_take_a_seat_once(
    http: httpx.AsyncClient, stores: list[Store]
) -> None:
    room_id = (await http.post("/api/rooms", json={"players": 4})).json()["room_id"]

    async def join(n: int) -> int | None:
        try:
            return await stores[n % 3].add_seat(
                room_id, seat=1, name=f"N{n}", token_hash=bytes([n]) * 32, is_host=False
            )
        except SeatTaken:
            return None

    results = await asyncio.gather(*(join(n) for n in range(12)))
    assert [r for r in results if r is not None] == [1]
    free = await asyncio.gather(
        *(
            stores[0].add_seat(
                room_id,
                seat=None,
                name="F",
                token_hash=bytes([100 + n]) * 32,
                is_host=False,
            )
            for n in range(3)
        )
    )
    assert sorted(free) == [0, 2, 3]


async def test_missed_events_stop_at_the_version_they_are_sent_with(
    http: httpx.AsyncClient, room_app: FastAPI
) -> None:
    """A welcome or sync at version v lists the moves up to v only: a move committed after
    its position was read reaches the client as its own update, never twice."""
    room_id, _host, tokens = await open_room(
        http, 2, first_player=0, seat_order="fixed"
    )
    for _ in range(4):
        await play_one(http, room_id, tokens)
    service = room_app.state.rooms
    game = await service.reading.game(room_id)
    assert [e.seq for e in await service.reading.events(game.game_id, 0, 2)] == [1, 2]
    assert [e.seq for e in await service.reading.events(game.game_id, None, 3)] == [
        1,
        2,
        3,
    ]
    assert [e.seq for e in await service.reading.events(game.game_id, 1, 4)] == [
        2,
        3,
        4,
    ]
