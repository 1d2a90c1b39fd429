"""`bump_revision` (app/store/revision.py): the one way a room is marked changed. Each bump
raises the revision by one and sends exactly one ``r`` notice, once its transaction commits;
a bump rolled back sends none. The seat operations and the bumps left on SQLAlchemy
(records) go through it too."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import asyncpg  # type: ignore[import-untyped]
import httpx
import pytest

from app.notices.listener import asyncpg_dsn
from app.store.channel import CHANNEL
from app.store.revision import bump_revision
from tests.app.clients import bearer

END = "~end r 0"  # a notice of a room id no room has: marks the end of what was sent


class Heard:
    """The notices of the channel, as a listening instance would hear them."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn
        self.notices: list[str] = []
        self._arrived = asyncio.Event()

    def __call__(self, _conn: object, _pid: int, _channel: str, payload: str) -> None:
        if payload.split(" ")[1:2] not in (["h"], ["i"], ["b"]):  # not the instances'
            self.notices.append(payload)
        self._arrived.set()

    async def settle(self) -> list[str]:
        """Every notice sent so far: a notice of our own after them marks the end."""
        await self.conn.execute("SELECT pg_notify($1, $2)", CHANNEL, END)
        while END not in self.notices:
            self._arrived.clear()
            await asyncio.wait_for(self._arrived.wait(), 10)
        end = self.notices.index(END)
        heard, self.notices = self.notices[:end], self.notices[end + 1 :]
        return heard


@pytest.fixture
async def heard(database_url: str) -> AsyncIterator[Heard]:
    conn = await asyncpg.connect(asyncpg_dsn(database_url))
    listening = Heard(conn)
    await conn.add_listener(CHANNEL, listening)
    yield listening
    await conn.close()


@pytest.fixture
async def conn(database_url: str) -> AsyncIterator[asyncpg.Connection]:
    conn = await asyncpg.connect(asyncpg_dsn(database_url))
    await conn.execute(
        "INSERT INTO rooms (id, game, options, players, seat_order, host_token_hash)"
        " VALUES ('bumped', 'toy', '{}', 2, 'fixed', $1)",
        bytes(32),
    )
    yield conn
    await conn.close()


async def test_each_bump_sends_one_notice_of_its_revision(
    conn: asyncpg.Connection, heard: Heard
) -> None:
    for _ in range(3):
        async with conn.transaction():
            bumped = await bump_revision(conn, "bumped")
            assert bumped is not None
    async with conn.transaction():  # two bumps in one transaction: two notices
        await bump_revision(conn, "bumped")
        await bump_revision(conn, "bumped")
    assert await heard.settle() == [f"bumped r {n}" for n in range(1, 6)]
    assert await conn.fetchval("SELECT revision FROM rooms WHERE id = 'bumped'") == 5


async def test_a_bump_rolled_back_sends_nothing_and_changes_nothing(
    conn: asyncpg.Connection, heard: Heard
) -> None:
    async def bump_then_fail() -> None:
        async with conn.transaction():
            await bump_revision(conn, "bumped")
            raise RuntimeError("the change failed")

    with pytest.raises(RuntimeError):
        await bump_then_fail()
    assert await bump_revision(conn, "no-such-room") is None
    assert await heard.settle() == []
    assert await conn.fetchval("SELECT revision FROM rooms WHERE id = 'bumped'") == 0


async def test_each_seat_operation_sends_one_room_notice(
    http: httpx.AsyncClient, heard: Heard
) -> None:
    created = (
        await http.post(
            "/api/rooms", json={"players": 2, "name": "Ana", "seat_order": "fixed"}
        )
    ).json()
    room_id, host = created["room_id"], bearer(created["host_token"])
    assert await heard.settle() == [f"{room_id} r 1"]  # the host's seat
    joined = await http.post(f"/api/rooms/{room_id}/seats", json={"name": "Bo"})
    assert await heard.settle() == [f"{room_id} r 2"]
    await http.post(f"/api/rooms/{room_id}/start", headers=host)
    assert await heard.settle() == [f"{room_id} r 3"]
    handed = await http.post(
        f"/api/rooms/{room_id}/seats/1/person", json={"name": "Cy"}, headers=host
    )
    assert handed.status_code == 201, handed.text
    assert await heard.settle() == [f"{room_id} r 4"]
    left = await http.post(
        f"/api/rooms/{room_id}/leave", headers=bearer(handed.json()["token"])
    )
    assert left.status_code == 200, left.text
    assert await heard.settle() == [f"{room_id} r 5"]
    # A refused operation sends nothing: Bo's token stopped working when Cy got the seat.
    refused = await http.post(
        f"/api/rooms/{room_id}/leave", headers=bearer(joined.json()["token"])
    )
    assert refused.status_code == 401
    assert await heard.settle() == []
