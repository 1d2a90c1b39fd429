"""A closed websocket leaves no cyclic garbage (docs/security.md, "Reconnects").

Measured by allocation, not time: with the collector off, N clients connect to a busy room
through the real app and uvicorn, say hello, get their welcome and vanish; then one
collection counts what only it could free. The same churn against a websocket endpoint
that does nothing but send is the floor (uvicorn's HTTP upgrade and asyncio's transports
leave a few objects of their own per socket); the room must leave nothing above it, and no
connection, session, task or exception of ours among the garbage.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
from collections.abc import Awaitable, Callable, Iterator

import httpx
import pytest
from fastapi import FastAPI, WebSocket
from starlette.websockets import WebSocketDisconnect

from app.config.settings import Settings
from app.live.connection import Connection
from app.web.ws import Session
from bench.rawws import open_lean
from tests.app.clients import open_room, ws_url

N = 30


@pytest.fixture
def room_settings(room_settings: Settings) -> Settings:
    # The app's collector must not collect (or freeze) behind the test's back.
    return room_settings.model_copy(update={"gc_full_every_s": 1e9})


async def bare(websocket: WebSocket) -> None:
    """The floor: accept, answer the hello, keep sending until the client is gone."""
    await websocket.accept()
    await websocket.receive_text()
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while True:
            await websocket.send_text('{"type":"pong","version":0}')
            await asyncio.sleep(0.001)


async def vanish(url: str) -> None:
    """One client: hello, the first message, then the socket is gone (no close frame)."""
    got = asyncio.Event()
    origin = "http://" + url.split("/")[2]  # this host: the Origin check lets it in
    client = await open_lean(url, origin, lambda _m, _at: got.set())
    client.send_text('{"type": "hello", "token": null}')
    await got.wait()
    assert client.transport is not None
    client.transport.abort()


@contextlib.contextmanager
def garbage_counted() -> Iterator[list[object]]:
    """Count the cyclic garbage made inside the block: the collector off, then one pass."""
    gc.unfreeze()
    gc.collect()
    gc.disable()
    found: list[object] = []
    try:
        yield found
        gc.unfreeze()  # the app freezes survivors once a second (app/ops/collector.py)
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        found.extend(gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


async def until(done: Callable[[], bool]) -> None:
    """Wait for `done()` (a hang guard of 30 s, not a timing assertion)."""
    for _ in range(3000):
        if done():
            return
        await asyncio.sleep(0.01)
    raise TimeoutError


async def churn(
    url: str, settled: Callable[[], bool], during: Callable[[], Awaitable[None]]
) -> list[object]:
    for _ in range(3):  # warm: first-use caches are not per-connection garbage
        await vanish(url)
    await until(settled)
    with garbage_counted() as found:
        busy = asyncio.get_running_loop().create_task(during())
        for _ in range(N // 10):
            await asyncio.gather(*(vanish(url) for _ in range(10)))
        await until(settled)
        busy.cancel()
        await asyncio.gather(busy, return_exceptions=True)
        await asyncio.sleep(0.1)  # the sockets' last callbacks
        del busy
    return found


async def test_a_closed_websocket_leaves_no_cyclic_garbage(
    web: tuple[str, httpx.AsyncClient], room_app: FastAPI
) -> None:
    url, http = web
    room_id, _host, _tokens = await open_room(http, 2)
    hub = room_app.state.hub
    room_app.add_api_websocket_route("/ws/bare", bare)

    def room_empty() -> bool:
        channel = hub.channels.get(room_id)
        return channel is None or not channel.conns

    async def busy_room() -> None:
        """What the hub does in a busy room: messages keep coming for every connection,
        also for those whose client just vanished."""
        while True:
            channel = hub.channels.get(room_id)
            for conn in list(channel.conns) if channel else []:
                conn.put('{"type":"pong","version":0}')
            await asyncio.sleep(0.001)

    async def idle() -> None:
        await asyncio.Event().wait()

    base = url.replace("http://", "ws://")
    floor = await churn(f"{base}/ws/bare", lambda: True, idle)
    ours = await churn(ws_url(url, room_id), room_empty, busy_room)

    mine = [
        o
        for o in ours
        if isinstance(o, Connection | Session | asyncio.Task | BaseException)
    ]
    assert not mine, f"a connection's own objects are garbage: {mine[:5]}"
    assert len(ours) - len(floor) < N, (
        f"{len(ours)} objects of cyclic garbage after {N} room connections, "
        f"{len(floor)} after as many bare websockets"
    )


async def test_a_websocket_closed_while_its_room_is_quiet_leaves_no_garbage(
    web: tuple[str, httpx.AsyncClient], room_app: FastAPI
) -> None:
    """The writer waits for a message when its client leaves and is cancelled there: the
    common case of a tab closed at a quiet table (in the busy room above it is rare, and
    the test failed once in CI, 2026-12-05): no connection object may be left in a cycle."""
    url, http = web
    room_id, _host, _tokens = await open_room(http, 2)
    hub = room_app.state.hub

    def room_empty() -> bool:
        channel = hub.channels.get(room_id)
        return channel is None or not channel.conns

    async def idle() -> None:
        await asyncio.Event().wait()

    ours = await churn(ws_url(url, room_id), room_empty, idle)
    mine = [
        o
        for o in ours
        if isinstance(o, Connection | Session | asyncio.Task | BaseException)
    ]
    assert not mine, f"a connection's own objects are garbage: {mine[:5]}"
