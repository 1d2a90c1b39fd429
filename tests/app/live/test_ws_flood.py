"""Floods of websocket frames (issue 13, attack 1; docs/security.md, "Floods of frames").

Against a real uvicorn serving the app in this test's event loop, with raw sockets that
write hundreds of frames in one go and hang up, as the attack did. What is counted is work
done, never time: the hellos the hub handles (each reads the room, its presence, the game
version and the log from PostgreSQL), the frames the session handles, the connections the
hub still holds.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
from collections.abc import AsyncIterator, Callable
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from fastapi import FastAPI

from app.config.settings import Settings
from app.live.hub import Hub
from app.web import ws as ws_module
from bench.rawws import frame
from tests.app.clients import WsClient, open_room

HELLO = json.dumps({"type": "hello", "token": None, "since": None}).encode()
PING = json.dumps({"type": "ping"}).encode()
CAP = 4  # connections per address, for the cap's test


@pytest.fixture
def room_settings(room_settings: Settings) -> Settings:
    return room_settings.model_copy(update={"ws_connections_per_address": CAP})


class Counted:
    """Counts the hellos the hub handles and the frames sessions handle, and can hold
    every hello until released (the server busy, so that frames pile up)."""

    def __init__(self, app: FastAPI, monkeypatch: pytest.MonkeyPatch) -> None:
        self.hub: Hub = app.state.hub
        self.hellos = 0
        self.frames = 0
        self.sessions: list[ws_module.Session] = []
        self.release = asyncio.Event()
        self.release.set()
        connect, handle = self.hub.connect, ws_module.Session.handle

        async def counted_connect(*args: Any) -> None:
            self.hellos += 1
            await self.release.wait()
            await connect(*args)

        async def counted_handle(session: ws_module.Session, message: Any) -> None:
            self.frames += 1
            self.sessions.append(session)
            await handle(session, message)

        monkeypatch.setattr(self.hub, "connect", counted_connect)
        monkeypatch.setattr(ws_module.Session, "handle", counted_handle)

    def connections(self, room_id: str) -> int:
        channel = self.hub.channels.get(room_id)
        return len(channel.conns) if channel else 0


@pytest.fixture
async def counted(
    room_app: FastAPI,
    web: tuple[str, httpx.AsyncClient],
    monkeypatch: pytest.MonkeyPatch,
) -> AsyncIterator[Counted]:
    counted = Counted(room_app, monkeypatch)
    yield counted
    counted.release.set()  # whatever a failed test left hanging lets the server stop


class Raw:
    """A websocket spoken by hand: frames written in bulk, answers read frame by frame."""

    def __init__(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, base: str, room_id: str) -> Raw:
        parts = urlsplit(base)
        reader, writer = await asyncio.open_connection(parts.hostname, parts.port)
        key = base64.b64encode(os.urandom(16)).decode()
        writer.write(
            (
                f"GET /ws/rooms/{room_id} HTTP/1.1\r\nHost: {parts.netloc}\r\n"
                "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: {key}\r\n\r\n"
            ).encode()
        )
        head = await reader.readuntil(b"\r\n\r\n")
        assert b" 101 " in head.split(b"\r\n")[0], head
        return cls(reader, writer)

    async def write(self, payload: bytes, times: int) -> None:
        self.writer.write(frame(0x1, payload) * times)
        await self.writer.drain()

    async def next_message(self) -> dict[str, Any] | int:
        """The next text message, or the close code once the server closes."""
        head = await self.reader.readexactly(2)
        n = head[1] & 0x7F
        if n == 126:
            n = int.from_bytes(await self.reader.readexactly(2), "big")
        elif n == 127:
            n = int.from_bytes(await self.reader.readexactly(8), "big")
        payload = await self.reader.readexactly(n)
        if head[0] & 0x0F == 0x8:
            return int.from_bytes(payload[:2], "big")
        message: dict[str, Any] = json.loads(payload)
        return message

    def close(self) -> None:
        """Hang up the way a script that quits does: the frames already sent stay sent."""
        self.writer.close()

    def abort(self) -> None:
        self.writer.transport.abort()


async def until(done: Callable[[], bool]) -> None:
    """Until `done()` holds: the server's own state, which has no event to wait on."""
    async with asyncio.timeout(30):  # a guard against hanging, not a measurement
        while not done():  # noqa: ASYNC110
            await asyncio.sleep(0.01)


async def settle(counted: Counted, room_id: str) -> None:
    """Until the hub holds no connection of the room any more (the sockets are gone)."""
    await until(lambda: not counted.connections(room_id))
    for _ in range(20):  # and a few turns of the loop for anything still in flight
        await asyncio.sleep(0)


async def test_hellos_of_a_connection_that_hung_up_are_not_handled(
    web: tuple[str, httpx.AsyncClient], counted: Counted, room_settings: Settings
) -> None:
    """400 hellos in one write, and gone once the server has begun to answer (the attack,
    on three sockets): a handful handled, not 400 (nor the 100 of the message burst, nor
    the dozens the websocket library had read ahead), and none lingers in the room."""
    url, http = web
    room_id, _, _ = await open_room(http, 2)
    settings = room_settings
    raws = [await Raw.open(url, room_id) for _ in range(3)]
    for raw in raws:
        await raw.write(HELLO, 400)
    for raw in raws:
        await raw.next_message()  # the server is at work on them
        raw.close()
    await settle(counted, room_id)
    assert counted.hellos <= 3 * settings.ws_hello_burst
    assert counted.frames <= 3 * settings.ws_hello_burst


async def test_frames_are_counted_when_they_arrive_not_when_handled(
    web: tuple[str, httpx.AsyncClient], counted: Counted
) -> None:
    """While the server is busy with a hello, 300 pings arrive: the rate limit answers
    them at once, and the connection is closed (4429) before the hello is even done."""
    url, http = web
    room_id, _, _ = await open_room(http, 2)
    counted.release.clear()  # the hello hangs on the "database"
    raw = await Raw.open(url, room_id)
    await raw.write(HELLO, 1)
    await raw.write(PING, 300)
    codes: list[str] = []
    async with asyncio.timeout(30):
        while isinstance(message := await raw.next_message(), dict):
            codes.append(message["code"])
    assert message == 4429, "a connection that keeps flooding is closed"
    assert set(codes) == {"rate_limited"}
    assert counted.frames <= 1, "at most the hello (waiting) was taken in hand"
    counted.release.set()
    await settle(counted, room_id)
    assert counted.frames <= 1, "nothing queued behind it is handled once closed"
    raw.abort()


async def test_frames_behind_a_hello_are_dropped_once_the_socket_is_gone(
    web: tuple[str, httpx.AsyncClient], counted: Counted
) -> None:
    url, http = web
    room_id, _, _ = await open_room(http, 2)
    counted.release.clear()
    raw = await Raw.open(url, room_id)
    await raw.write(HELLO, 1)
    await raw.write(PING, 20)  # within every limit: queued behind the hello
    await until(lambda: bool(counted.sessions))
    raw.abort()
    await until(lambda: getattr(counted.sessions[0], "gone", False))
    counted.release.set()
    await settle(counted, room_id)
    assert counted.frames == 1, "the 20 pings of a dead socket are not handled"


async def test_a_repeated_hello_is_limited_on_its_own(
    web: tuple[str, httpx.AsyncClient], counted: Counted, room_settings: Settings
) -> None:
    """Hellos within the message rate, but more than a client ever needs: the extra ones
    are refused with rate_limited and cost no database read."""
    url, http = web
    room_id, _, tokens = await open_room(http, 2)
    burst = room_settings.ws_hello_burst
    async with WsClient(url, room_id, tokens[0]) as client:
        for _ in range(burst + 3):
            await client.send({"type": "hello", "token": tokens[0], "since": 0})
        refused = await client.expect("error", code="rate_limited")
        await client.send({"type": "ping"})
        await client.expect("pong")
        welcomes = client.of_type("welcome")
    assert "hello" in refused["reason"]
    assert counted.hellos == burst, "the first hello and burst - 1 repeats"
    assert len(welcomes) == burst


async def test_connections_per_address_are_capped(
    web: tuple[str, httpx.AsyncClient], counted: Counted
) -> None:
    url, http = web
    room_id, _, _ = await open_room(http, 2)
    clients = [await WsClient(url, room_id).open() for _ in range(CAP)]
    over = WsClient(url, room_id, hello=False)
    await over.open()
    error = await over.expect("error")
    async with asyncio.timeout(30):  # a hang guard
        await over.closed.wait()
    assert error["code"] == "rate_limited"
    assert f"at most {CAP}" in error["reason"]
    assert over.close_code == 4429
    assert counted.hellos == CAP
    await clients.pop().close()
    await until(lambda: counted.hub.addresses.open("127.0.0.1") < CAP)
    async with WsClient(url, room_id) as again:  # a place is free again
        assert again.welcome["type"] == "welcome"
    for client in clients:
        await client.close()
