"""Keep-alive pings on a grid (app/ops/ws_transport.py `schedule_ping`): sockets that
connected at different moments are pinged in the same turns of the event loop, and the
pings keep going, pong after pong, for a client that answers them. A socket heard from
within the interval is not pinged (`send_keepalive_ping`): an open tab's own pings are its
keep-alive."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from websockets.asyncio.client import ClientConnection, connect

from app.ops.ws_transport import bounded_websockets
from tests.app.clients import open_room, ws_url
from tests.support.live import uvicorn_serving

GRID_S = 0.25


def on_grid(when: float) -> bool:
    return abs(when / GRID_S - round(when / GRID_S)) < 1e-6


@pytest.fixture
async def served(room_app: FastAPI) -> AsyncIterator[tuple[str, type[Any]]]:
    async with serving(room_app, 0.3) as found:
        yield found


@pytest.fixture
async def served_slowly(room_app: FastAPI) -> AsyncIterator[tuple[str, type[Any]]]:
    """Pings an hour apart: none comes by itself while the test runs."""
    async with serving(room_app, 3600.0) as found:
        yield found


@contextlib.asynccontextmanager
async def serving(
    room_app: FastAPI, interval: float
) -> AsyncIterator[tuple[str, type[Any]]]:
    protocol = bounded_websockets(1 << 16, 3600.0)
    protocol.ping_grid_s = GRID_S
    async with uvicorn_serving(
        room_app,
        log_level="warning",
        timeout_graceful_shutdown=10,
        ws=protocol,
        ws_ping_interval=interval,
        ws_ping_timeout=30.0,
    ) as server:
        yield f"http://127.0.0.1:{server.config.port}", protocol


async def welcomed(base: str, room_id: str) -> ClientConnection:
    socket = await connect(ws_url(base, room_id), compression=None)
    await socket.send(json.dumps({"type": "hello", "token": None}))
    assert json.loads(await socket.recv())["type"] == "welcome"
    return socket


async def spectators(
    served: tuple[str, type[Any]], count: int
) -> tuple[list[ClientConnection], list[Any]]:
    """`count` spectators of a new room, welcomed, and the server's protocol of each."""
    base, protocol = served
    async with httpx.AsyncClient(base_url=base) as web:
        room_id, _host, _tokens = await open_room(web, 2)
    clients = [await welcomed(base, room_id) for _ in range(count)]
    sockets = [o for o in gc.get_objects() if isinstance(o, protocol)]
    assert len(sockets) == count
    return clients, sockets


async def test_pings_fall_on_the_grid_and_keep_going(
    served: tuple[str, type[Any]],
) -> None:
    (first, second), sockets = await spectators(served, 2)
    for socket in sockets:
        assert socket.ping_timer is not None and on_grid(socket.ping_timer.when())
    # Both answer (the websockets client pongs by itself): each pong chains the next
    # ping, on the grid again. A hang guard, not a timing assertion.
    async with asyncio.timeout(30):
        while not all(s.last_ping_rtt > 0 and s.ping_timer for s in sockets):  # noqa: ASYNC110
            await asyncio.sleep(0.05)
    for socket in sockets:
        assert on_grid(socket.ping_timer.when())
    for client in (first, second):
        await client.send(json.dumps({"type": "ping"}))  # still open, still served
        await client.close()


async def test_a_socket_heard_from_within_the_interval_is_not_pinged(
    served_slowly: tuple[str, type[Any]],
) -> None:
    (client,), (server_side,) = await spectators(served_slowly, 1)
    await client.send(json.dumps({"type": "ping"}))
    while json.loads(await client.recv())["type"] != "pong":  # the server has read it
        pass
    heard = server_side.last_heard
    loop = asyncio.get_running_loop()
    assert 0 < heard <= loop.time()
    # Its timer comes due now, as if the interval had passed since its last pong: the
    # client spoke within it, so no ping, and the next look is an interval after that.
    server_side.ping_timer.cancel()
    server_side.send_keepalive_ping()
    assert server_side.pending_ping_payload is None
    when = server_side.ping_timer.when()
    assert on_grid(when) and heard + 3600.0 <= when < heard + 3600.0 + GRID_S + 1e-6
    # Quiet for longer than the interval: pinged, and the client's pong is taken.
    server_side.last_heard = heard - 7200.0
    server_side.ping_timer.cancel()
    server_side.send_keepalive_ping()
    assert server_side.pending_ping_payload is not None
    async with asyncio.timeout(30):  # a hang guard: the client pongs by itself
        while server_side.last_ping_rtt == 0:  # noqa: ASYNC110
            await asyncio.sleep(0.01)
    assert server_side.pending_ping_payload is None
    await client.close()
