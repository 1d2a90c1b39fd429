"""Seat and host tokens: unguessable, stored only as hashes, good for one seat of one room."""

from __future__ import annotations

import base64
import hashlib
from typing import Any

import httpx
from sqlalchemy import pool, text
from sqlalchemy.ext.asyncio import create_async_engine

from app.play import tokens


def bits(token: str) -> int:
    return 8 * len(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)))


async def open_room(client: httpx.AsyncClient, players: int = 2) -> dict[str, Any]:
    """A started room: its id, host token and one token per seat."""
    created = (
        await client.post(
            "/api/rooms",
            json={"players": players, "name": "Ana", "seat_order": "fixed"},
        )
    ).json()
    seat_tokens = [created["token"]]
    for seat in range(1, players):
        joined = await client.post(
            f"/api/rooms/{created['room_id']}/seats",
            json={"name": f"P{seat}", "seat": seat},
        )
        seat_tokens.append(joined.json()["token"])
    started = await client.post(
        f"/api/rooms/{created['room_id']}/start",
        headers={"Authorization": f"Bearer {created['host_token']}"},
    )
    assert started.status_code == 200, started.text
    return {
        "id": created["room_id"],
        "host": created["host_token"],
        "seats": seat_tokens,
    }


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def whole_database_text(database_url: str) -> str:
    """Every row of every table of the schema, as JSON text."""
    db = create_async_engine(database_url, poolclass=pool.NullPool)
    try:
        async with db.connect() as conn:
            tables = (
                await conn.execute(
                    text(
                        "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
                        " AND tablename <> 'alembic_version'"
                    )
                )
            ).scalars()
            rows = []
            for table in list(tables):
                result = await conn.execute(
                    text(f'SELECT row_to_json(t)::text FROM "{table}" t')
                )
                rows += [str(row) for row in result.scalars()]
            return "\n".join(rows)
    finally:
        await db.dispose()


async def test_tokens_carry_at_least_128_random_bits(client: httpx.AsyncClient) -> None:
    room = await open_room(client, players=4)
    issued = [room["host"], *room["seats"]]
    assert all(bits(token) >= 128 for token in issued)
    assert len(set(issued)) == len(issued)
    assert tokens.TOKEN_BYTES * 8 >= 128
    assert len({tokens.new_token() for _ in range(1000)}) == 1000


async def test_the_database_keeps_only_sha256_hashes_of_tokens(
    client: httpx.AsyncClient, database_url: str
) -> None:
    room = await open_room(client, players=3)
    everything = await whole_database_text(database_url)
    for token in [room["host"], *room["seats"]]:
        assert token not in everything
    db = create_async_engine(database_url, poolclass=pool.NullPool)
    try:
        async with db.connect() as conn:
            stored = set(
                (
                    await conn.execute(
                        text("SELECT token_hash FROM seats WHERE room_id = :r"),
                        {"r": room["id"]},
                    )
                ).scalars()
            )
            host = (
                await conn.execute(
                    text("SELECT host_token_hash FROM rooms WHERE id = :r"),
                    {"r": room["id"]},
                )
            ).scalar_one()
    finally:
        await db.dispose()
    assert stored == {hashlib.sha256(t.encode()).digest() for t in room["seats"]}
    assert host == hashlib.sha256(room["host"].encode()).digest()


async def test_a_token_is_worthless_in_another_room(client: httpx.AsyncClient) -> None:
    mine, theirs = await open_room(client), await open_room(client)
    stolen = bearer(mine["seats"][0])
    view = await client.get(f"/api/rooms/{theirs['id']}/view", headers=stolen)
    assert view.status_code == 401
    assert view.json()["error"]["code"] == "bad_token"
    move = await client.post(
        f"/api/rooms/{theirs['id']}/moves",
        headers=stolen,
        json={"move": {"type": "pass"}, "expected_version": 0, "move_id": "x1"},
    )
    assert move.status_code == 401
    start = await client.post(
        f"/api/rooms/{theirs['id']}/start", headers=bearer(mine["host"])
    )
    assert start.status_code in (403, 409)  # never a start by a stranger
    assert start.json()["error"]["code"] in ("forbidden", "game_started")


async def test_a_seat_token_moves_only_for_its_own_seat(
    client: httpx.AsyncClient,
) -> None:
    room = await open_room(client)
    views = [
        (await client.get(f"/api/rooms/{room['id']}/view", headers=bearer(t))).json()
        for t in room["seats"]
    ]
    mover = next(i for i, v in enumerate(views) if v["legal"])
    other = 1 - mover
    action = views[mover]["legal"][0]["action"]
    refused = await client.post(
        f"/api/rooms/{room['id']}/moves",
        headers=bearer(room["seats"][other]),
        json={"move": action, "expected_version": 0, "move_id": "not-mine"},
    )
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "not_your_turn"
    after = (await client.get(f"/api/rooms/{room['id']}/view")).json()
    assert after["version"] == 0


async def test_a_seat_that_is_not_the_host_cannot_start(
    client: httpx.AsyncClient,
) -> None:
    created = (
        await client.post("/api/rooms", json={"players": 2, "name": "Ana"})
    ).json()
    joined = (
        await client.post(f"/api/rooms/{created['room_id']}/seats", json={"name": "Bo"})
    ).json()
    start = await client.post(
        f"/api/rooms/{created['room_id']}/start", headers=bearer(joined["token"])
    )
    assert start.status_code == 403
    assert start.json()["error"]["code"] == "forbidden"


async def test_garbage_tokens_are_refused_without_a_server_error(
    client: httpx.AsyncClient,
) -> None:
    room = await open_room(client)
    stolen = room["seats"][0].encode()
    for junk in [
        b"",
        b"x" * 5000,
        "é".encode() * 43,
        stolen[:-1],
        b"Bearer",
        b"\x01" * 43,
    ]:
        response = await client.get(
            f"/api/rooms/{room['id']}/view",
            headers={"Authorization": b"Bearer " + junk},
        )
        assert response.status_code in (200, 400, 401), (junk, response.text)
