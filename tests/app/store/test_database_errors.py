"""The store's driver errors answer as the API documents (docs/protocol.md, errors): a
database out of reach is `unavailable` (503, retry), a statement it refuses is `internal`
(500), both as the usual JSON error body, whichever store part ran the query."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from fastapi import FastAPI

from app.store.pool import Pools, create_pool
from app.store.store import Store
from tests.app.clients import bearer

NOWHERE = "postgresql://nobody@127.0.0.1:1/nowhere"


async def seated(http: httpx.AsyncClient) -> tuple[str, str]:
    created = (await http.post("/api/rooms", json={"players": 2, "name": "Ana"})).json()
    return created["room_id"], created["token"]


@pytest.fixture
async def cut_off(
    room_app: FastAPI, http: httpx.AsyncClient
) -> AsyncIterator[list[Pools]]:
    """Parts of the store to point at a database that cannot be reached (their own pool
    is put back afterwards)."""
    store: Store = room_app.state.rooms.store
    unreachable = await create_pool(NOWHERE, 1)
    parts: list[Pools] = [store.webhooks, store.records, store.replays]
    kept = [part.pool for part in parts]
    for part in parts:
        part.pool = unreachable
    yield parts
    for part, pool in zip(parts, kept):
        part.pool = pool
    await unreachable.close()


async def test_a_part_whose_database_is_out_of_reach_answers_unavailable(
    http: httpx.AsyncClient, cut_off: list[Pools]
) -> None:
    room_id, token = await seated(http)
    for response in (
        await http.get(f"/api/rooms/{room_id}/webhook", headers=bearer(token)),
        await http.get(f"/api/rooms/{room_id}/record"),
        await http.get(f"/api/rooms/{room_id}/replay"),
    ):
        assert response.status_code == 503, response.text
        assert response.json()["error"]["code"] == "unavailable"


async def test_a_statement_the_database_refuses_answers_internal(
    room_app: FastAPI, http: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A real refusal from PostgreSQL (asyncpg's PostgresError), not a Python exception
    made up by the test: answered by the database handler, as JSON."""
    store: Store = room_app.state.rooms.store
    room_id, token = await seated(http)

    async def refused(seat_id: int) -> str | None:
        async with store.webhooks._conn() as conn:
            await conn.execute(
                "SELECT url FROM no_such_table WHERE seat_id = $1", seat_id
            )
        return None

    monkeypatch.setattr(store.webhooks, "get_hook", refused)
    response = await http.get(f"/api/rooms/{room_id}/webhook", headers=bearer(token))
    assert response.status_code == 500
    assert response.json()["error"]["code"] == "internal"
    assert "no_such_table" not in response.text, "the database's words stay in the log"
