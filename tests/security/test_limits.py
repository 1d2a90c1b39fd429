"""Limits on what one client may send, and the websocket's Origin check.

Over HTTP (in-process): name length and content, body size, rooms per address per minute.
Over a real websocket (one live server for the module): message size, frame size, messages
per connection per second, and the Origin a browser page must come from.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from fastapi import FastAPI
from websockets.asyncio.client import connect
from websockets.typing import Origin

from app.config.settings import Settings
from app.ops.main import create_app
from tests.support.databases import TestDatabases
from tests.support.live import LiveServer


@pytest.fixture(scope="module")
def server(
    test_databases: TestDatabases, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LiveServer]:
    url = test_databases.create(migrated=True)
    log = tmp_path_factory.mktemp("limits") / "server.log"
    live = LiveServer(
        log,
        database_url=url,
        env={
            "ISHTAR_ALLOWED_ORIGINS": "https://friends.example",
            # The flood test counts on these, whatever the defaults become.
            "ISHTAR_WS_BURST": "40",
            "ISHTAR_WS_MESSAGES_PER_S": "20",
        },
    )
    live.start()
    try:
        yield live
    finally:
        live.stop()
        test_databases.drop(url)


async def spectator_socket(
    server: LiveServer, origin: str | None = None
) -> websockets.ClientConnection:
    async with httpx.AsyncClient(base_url=server.url) as http:
        room = (await http.post("/api/rooms", json={"players": 2})).json()["room_id"]
    ws = await connect(
        server.url.replace("http", "ws", 1) + f"/ws/rooms/{room}",
        max_size=None,
        origin=Origin(origin) if origin else None,
    )
    await ws.send(json.dumps({"type": "hello", "token": None, "since": None}))
    assert json.loads(await ws.recv())["type"] == "welcome"
    return ws


async def next_of(ws: websockets.ClientConnection, kind: str) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 5))
        if message["type"] == kind:
            return message


async def flood(ws: websockets.ClientConnection, messages: int) -> None:
    for _ in range(messages):
        await ws.send(json.dumps({"type": "ping"}))
    await next_of(ws, "never")


# --- websocket ----------------------------------------------------------------------------


async def test_an_oversized_message_is_refused_and_the_connection_kept(
    server: LiveServer,
) -> None:
    ws = await spectator_socket(server)
    await ws.send(json.dumps({"type": "ping", "pad": "x" * 17_000}))
    error = await next_of(ws, "error")
    assert error["code"] == "too_large"
    await ws.send(json.dumps({"type": "ping"}))
    assert (await next_of(ws, "pong"))["type"] == "pong"
    await ws.close()


async def test_a_frame_over_one_mebibyte_closes_the_connection_with_1009(
    server: LiveServer,
) -> None:
    ws = await spectator_socket(server)
    await ws.send("x" * (1 << 20 | 1))
    with pytest.raises(websockets.ConnectionClosed) as closed:
        await next_of(ws, "never")
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == 1009


async def test_a_flooding_connection_is_rate_limited_then_closed(
    server: LiveServer,
) -> None:
    ws = await spectator_socket(server)
    for _ in range(45):  # past the burst of 40
        await ws.send(json.dumps({"type": "ping"}))
    error = await next_of(ws, "error")  # the pongs of the first 40 come before it
    assert error["code"] == "rate_limited"
    with pytest.raises(websockets.ConnectionClosed) as closed:
        await flood(ws, 200)
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == 4429


@pytest.mark.parametrize(
    "origin", ["https://evil.example", "null", "http://127.0.0.1.evil.example"]
)
async def test_a_page_from_another_origin_cannot_open_the_websocket(
    server: LiveServer, origin: str
) -> None:
    with pytest.raises(websockets.InvalidStatus) as refused:
        await spectator_socket(server, origin=origin)
    assert refused.value.response.status_code == 403


@pytest.mark.parametrize("origin", ["same host", "https://friends.example"])
async def test_pages_of_this_host_and_of_the_allow_list_may(
    server: LiveServer, origin: str
) -> None:
    ws = await spectator_socket(
        server, origin=server.url if origin == "same host" else origin
    )
    await ws.close()


# --- HTTP ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "status"),
    [
        ("x" * 24, 201),
        ("Ж" * 24, 201),
        ("🌴 Björn ☀️", 201),
        ("x" * 25, 400),
        ("  ", 400),
        ("", 400),
        ("bad\x00name", 400),
        ("new\nline", 400),
        ("<img src=x onerror=alert(1)>", 400),  # 28 characters: over the limit anyway
    ],
)
async def test_names_are_limited_in_length_and_content(
    client: httpx.AsyncClient, name: str, status: int
) -> None:
    response = await client.post("/api/rooms", json={"players": 2, "name": name})
    assert response.status_code == status, response.text


async def test_a_request_body_over_16_kib_is_refused(client: httpx.AsyncClient) -> None:
    body = json.dumps({"players": 2, "name": "x", "pad": "y" * 20_000})
    response = await client.post(
        "/api/rooms", content=body, headers={"content-type": "application/json"}
    )
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "too_large"


@pytest.fixture
async def five_rooms_a_minute(
    database_url: str, tmp_path: Path
) -> AsyncIterator[FastAPI]:
    """An app (started) that lets each client address create 5 rooms a minute."""
    settings = Settings(
        _env_file=None,
        database_url=database_url,
        data_dir=tmp_path,
        rooms_per_minute=5,
    )
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        yield app


def client_at(app: FastAPI, address: str) -> httpx.AsyncClient:
    """A client of `app` calling from `address`."""
    transport = httpx.ASGITransport(app=app, client=(address, 5000))
    return httpx.AsyncClient(transport=transport, base_url="http://testserver")


async def test_rooms_created_per_address_per_minute_are_limited(
    five_rooms_a_minute: FastAPI,
) -> None:
    async with client_at(five_rooms_a_minute, "203.0.113.7") as c:
        codes = [
            (await c.post("/api/rooms", json={"players": 2})).status_code
            for _ in range(8)
        ]
    async with client_at(five_rooms_a_minute, "203.0.113.8") as c:
        elsewhere = (await c.post("/api/rooms", json={"players": 2})).status_code
    assert codes[:5] == [201] * 5
    assert set(codes[5:]) == {429}
    assert elsewhere == 201


async def test_record_imports_draw_on_the_same_budget_as_room_creations(
    five_rooms_a_minute: FastAPI,
) -> None:
    async with client_at(five_rooms_a_minute, "203.0.113.9") as c:
        rooms = [
            (await c.post("/api/rooms", json={"players": 2})).status_code
            for _ in range(4)
        ]
        imported = (await c.post("/api/records", json={"format": 0})).status_code
        room_after = (await c.post("/api/rooms", json={"players": 2})).status_code
        import_after = (await c.post("/api/records", json={})).status_code
    assert rooms == [201] * 4
    assert imported != 429, "the fifth of five: allowed (and refused for its content)"
    assert room_after == 429 and import_after == 429


async def test_refused_record_imports_count_against_the_budget(
    five_rooms_a_minute: FastAPI,
) -> None:
    """Every import draws on the budget, whatever it is refused for: not JSON, not a record,
    a forgery; and so does asking about a record's provenance."""
    async with client_at(five_rooms_a_minute, "203.0.113.10") as c:
        refused = [
            (await c.post("/api/records", content=body, headers=JSON)).status_code
            for body in (b"{nope", b"\xff\xfe", b"[1, 2]", b'{"format": 0}')
        ]
        asked = (await c.post("/api/records/provenance", json={})).status_code
        room_after = (await c.post("/api/rooms", json={"players": 2})).status_code
    assert refused == [400, 400, 422, 422] and asked == 200
    assert room_after == 429, "five refused imports and checks used up the five rooms"


JSON = {"Content-Type": "application/json"}
