"""permessage-deflate as `ishtar serve` speaks it (app/ops/ws_frames.py): no context kept
either way, small messages uncompressed, and a message framed once for every socket.

Through the real app on uvicorn with the server's protocol class; the clients are a
browser-like raw client (bench/rawws.py, which sees each frame's RSV1 bit) and the
`websockets` library's own client (a second, independent implementation of RFC 7692).
"""

from __future__ import annotations

import asyncio
import gc
import json
import zlib
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from websockets.asyncio.client import connect
from websockets.frames import Frame, Opcode

from app.config.settings import Settings
from app.ops.connection_guard import ConnectionBudget, guarded_protocols
from app.ops.ws_frames import (
    MIN_COMPRESSED,
    ContextFreeDeflate,
    FrameCache,
    build_frame,
)
from app.ops.ws_transport import bounded_websockets
from bench.rawws import BROWSER, LeanClient, open_lean
from tests.app.clients import open_room, ws_url
from tests.support.live import uvicorn_serving

TAIL = b"\x00\x00\xff\xff"


def deflate(bits: int = 15) -> ContextFreeDeflate:
    return ContextFreeDeflate(True, True, 15, bits)


def inflate(frame: bytes) -> tuple[bool, bytes]:
    """(RSV1, payload inflated) of one unmasked server frame."""
    b0, n, start = frame[0], frame[1] & 0x7F, 2
    if n == 126:
        n, start = int.from_bytes(frame[2:4]), 4
    elif n == 127:
        n, start = int.from_bytes(frame[2:10]), 10
    payload = frame[start : start + n]
    assert start + n == len(frame)
    if b0 & 0x40:
        return True, zlib.decompressobj(-15).decompress(payload + TAIL)
    return False, payload


# --- frames and their cache ------------------------------------------------------------------


def test_a_short_message_goes_uncompressed_and_a_long_one_compressed() -> None:
    short = '{"type": "pong"}'
    compressed, payload = inflate(build_frame(short, [deflate()]))
    assert (compressed, payload) == (False, short.encode())
    long = json.dumps({"type": "update", "view": ["tile"] * MIN_COMPRESSED})
    compressed, payload = inflate(build_frame(long, [deflate()]))
    assert compressed and payload == long.encode()
    assert len(build_frame(long, [deflate()])) < len(long) // 4
    # A socket that negotiated nothing gets the text as it is.
    assert inflate(build_frame(long, [])) == (False, long.encode())


def test_each_message_compresses_on_its_own_so_any_inflater_reads_it() -> None:
    """No context carried over: the second message inflates without the first."""
    first = json.dumps({"n": 1, "view": "abcdefgh" * 200})
    second = json.dumps({"n": 2, "view": "abcdefgh" * 200})
    extension = deflate()
    build_frame(first, [extension])
    assert inflate(build_frame(second, [extension])) == (True, second.encode())


def test_the_cache_builds_a_frame_once_per_message_and_compression() -> None:
    cache = FrameCache(1 << 20)
    text = json.dumps({"type": "update", "view": "x" * 4000})
    one = cache.frame(text, [deflate()])
    assert cache.frame(text, [deflate()]) is one
    plain = cache.frame(text, [])
    assert plain is not one and inflate(plain) == (False, text.encode())
    narrow = cache.frame(text, [deflate(bits=10)])
    assert narrow is not one and inflate(narrow)[1] == text.encode()
    assert (cache.hits, cache.misses, len(cache)) == (1, 3, 3)


def test_the_cache_is_bounded_by_what_its_entries_keep_alive() -> None:
    cache = FrameCache(64 * 1024)
    texts = [json.dumps({"n": n, "view": "y" * 3000}) for n in range(100)]
    for text in texts:
        cache.frame(text, [])  # uncompressed: each entry holds its text and a copy
    assert 0 < cache.bytes <= cache.max_bytes
    assert len(cache) < len(texts)
    assert cache.frame(texts[-1], []) and cache.hits == 1  # the newest stayed
    # An entry larger than a quarter of the bound is built and not kept.
    huge = "z" * (20 * 1024)
    before = cache.bytes
    assert inflate(cache.frame(huge, []))[1] == huge.encode()
    assert cache.bytes == before and (huge, 0) not in cache._frames


def test_an_empty_cache_keeps_nothing() -> None:
    cache = FrameCache(0)
    text = "w" * 2000
    assert inflate(cache.frame(text, [deflate()])) == (True, text.encode())
    assert len(cache) == 0 and cache.bytes == 0


def test_a_frame_is_a_frame_websockets_would_send() -> None:
    text = '{"type": "ack", "move_id": "m1"}'
    expected = Frame(Opcode.TEXT, text.encode()).serialize(mask=False)
    assert build_frame(text, [deflate()]) == expected


# --- through the server ----------------------------------------------------------------------


@pytest.fixture
def game_module() -> str:
    return "engine.ishtar"  # its views weigh kilobytes


@pytest.fixture
async def server(room_app: FastAPI, room_settings: Settings) -> AsyncIterator[Any]:
    protocol = bounded_websockets(room_settings.ws_write_buffer_bytes, 3600.0)
    async with uvicorn_serving(
        room_app, log_level="warning", timeout_graceful_shutdown=10, ws=protocol
    ) as served:
        served.protocol = protocol  # type: ignore[attr-defined]
        yield served


class Browser:
    """A browser-like socket that keeps each message it receives, parsed."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []
        self.arrived = asyncio.Event()
        self.socket: LeanClient | None = None

    def received(self, data: bytes, _at: float) -> None:
        self.messages.append(json.loads(data))
        self.arrived.set()

    async def open(self, base: str, room_id: str) -> Browser:
        url = ws_url(base, room_id)
        self.socket = await open_lean(url, base, self.received, BROWSER)
        return self

    def send(self, message: dict[str, Any]) -> None:
        assert self.socket is not None
        self.socket.send_text(json.dumps(message))

    async def expect(self, kind: str) -> dict[str, Any]:
        """The first message of `kind` (a hang guard of 30 s, not a timing assertion)."""
        async with asyncio.timeout(30):
            while True:
                for message in self.messages:
                    if message["type"] == kind:
                        self.messages.remove(message)
                        return message
                self.arrived.clear()
                await self.arrived.wait()


async def test_browsers_negotiate_no_context_and_share_one_compressed_update(
    server: Any,
) -> None:
    base = f"http://127.0.0.1:{server.config.port}"
    async with httpx.AsyncClient(base_url=base) as web:
        room_id, _host, tokens = await open_room(web, 2)
    players = [await Browser().open(base, room_id) for _ in tokens]
    watchers = [await Browser().open(base, room_id) for _ in range(2)]
    try:
        for client in (*players, *watchers):
            assert client.socket is not None and client.socket.deflate is not None
            assert client.socket.deflate.server_no_context_takeover
            assert client.socket.deflate.client_no_context_takeover
        welcomes = []
        for client, token in zip(players, tokens, strict=True):
            client.send({"type": "hello", "token": token})  # compressed by the client
            welcomes.append(await client.expect("welcome"))
        player, welcome = next(
            (client, welcome)
            for client, welcome in zip(players, welcomes, strict=True)
            if welcome["legal"]
        )
        for watcher in watchers:
            watcher.send({"type": "hello", "token": None})
            await watcher.expect("welcome")
        move = welcome["legal"][0]["action"]
        cache = server.protocol.frame_cache
        hits = cache.hits
        player.send(
            {
                "type": "move",
                "move_id": "m1",
                "expected_version": welcome["version"],
                "move": move,
            }
        )

        updates = [await watcher.expect("update") for watcher in watchers]
        assert updates[0] == updates[1] and updates[0]["version"] == 1
        # The spectators' update was framed once and written to both.
        assert cache.hits > hits
        player.send({"type": "ping"})
        await player.expect("pong")
        assert player.socket is not None
        # Welcomes and updates weigh kilobytes: compressed; the pong went as it was.
        assert 0 < player.socket.messages_compressed < player.socket.messages
        for watcher in watchers:
            assert watcher.socket is not None
            assert watcher.socket.messages_compressed >= 2
    finally:
        for client in (*players, *watchers):
            if client.socket is not None:
                client.socket.close()


async def test_the_websockets_librarys_client_plays_with_compression(
    server: Any,
) -> None:
    """Another implementation of RFC 7692 agrees: its messages, compressed as it
    negotiated, are understood, and the server's inflate as it expects."""
    base = f"http://127.0.0.1:{server.config.port}"
    async with httpx.AsyncClient(base_url=base) as web:
        room_id, _host, tokens = await open_room(web, 2)
    async with connect(ws_url(base, room_id), compression="deflate") as ws:
        accepted = ws.response.headers["Sec-WebSocket-Extensions"]
        assert "server_no_context_takeover" in accepted
        assert "client_no_context_takeover" in accepted
        await ws.send(json.dumps({"type": "hello", "token": tokens[0]}))
        welcome = json.loads(await ws.recv())
        assert welcome["type"] == "welcome" and welcome["view"]
        for _ in range(3):  # several messages: no context carried between them
            await ws.send(json.dumps({"type": "ping"}))
            while (answer := json.loads(await ws.recv()))["type"] != "pong":
                assert answer["type"] in ("chat", "presence", "room"), answer


async def test_the_http_protocol_that_upgraded_a_socket_is_freed_at_once(
    room_app: FastAPI, room_settings: Settings
) -> None:
    """uvicorn's HTTP protocol and its parser made a cycle that only a full collection
    freed, for every websocket (app/ops/connection_guard.py breaks it at the upgrade)."""
    budget = ConnectionBudget(limit=10_000, reserved=0, per_address=0)
    http, ws = guarded_protocols(budget, 10.0, bounded_websockets(1 << 16, 3600.0))
    async with uvicorn_serving(
        room_app, log_level="warning", timeout_graceful_shutdown=10, http=http, ws=ws
    ) as served:
        base = f"http://127.0.0.1:{served.config.port}"
        async with httpx.AsyncClient(base_url=base) as web:
            room_id, _host, _tokens = await open_room(web, 2)
        gc.collect()
        gc.disable()
        try:
            sockets = [
                await connect(ws_url(base, room_id), compression=None) for _ in range(3)
            ]
            for socket in sockets:
                await socket.send(json.dumps({"type": "hello", "token": None}))
                assert json.loads(await socket.recv())["type"] == "welcome"
            # An HTTP protocol whose transport went to a websocket protocol upgraded it.
            upgraded = [
                o
                for o in gc.get_objects()
                if isinstance(o, http) and isinstance(o.transport.get_protocol(), ws)
            ]
            assert upgraded == [], "each upgrade's HTTP protocol is gone without a walk"
            for socket in sockets:
                await socket.close()
        finally:
            gc.enable()
