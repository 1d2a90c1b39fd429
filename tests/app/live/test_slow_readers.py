"""A client that never reads holds a bounded amount of server memory, and is then dropped
(docs/security.md, "Slow readers").

Through the real app on uvicorn with the protocol `ishtar serve` runs (app/ops/ws_transport.py):
a raw socket with a tiny receive buffer says hello, then floods `hello` (each answered by a
full welcome) and `ping` (each a pong) and reads nothing. Measured in bytes, not time.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from websockets.asyncio.client import connect

from app.config.settings import Settings
from app.live.connection import CLOSE_BEHIND, Connection, Versioned
from app.ops.ws_transport import BoundedWebSockets, bounded_websockets
from bench.rawws import frame
from tests.app.clients import open_room, ws_url
from tests.support.live import uvicorn_serving

BUDGET = 16 * 1024
WRITE_BUFFER = 16 * 1024


@pytest.fixture
def game_module() -> str:
    return "engine.ishtar"  # its welcomes weigh kilobytes


@pytest.fixture
def room_settings(room_settings: Settings) -> Settings:
    return room_settings.model_copy(
        update={
            "ws_outbox_bytes": BUDGET,
            "ws_outbox_overflows": 2,
            "ws_behind_s": 3600.0,  # dropped by count here, not by time
            "ws_write_buffer_bytes": WRITE_BUFFER,
            "ws_messages_per_s": 1e6,
            "ws_burst": 1e6,
            # Hellos are the heavy messages this test piles up: their own limit lifted.
            "ws_hello_burst": 1_000_000,
            "ws_hellos_per_minute": 1e6,
        }
    )


@pytest.fixture
async def server(room_app: FastAPI, room_settings: Settings) -> AsyncIterator[Any]:
    async with uvicorn_serving(
        room_app,
        log_level="warning",
        timeout_graceful_shutdown=10,
        ws=bounded_websockets(room_settings.ws_write_buffer_bytes, 3600.0),
        # No keep-alive pings: a peer that reads nothing never answers one, and uvicorn
        # closes it 40 s on (a ping every 20 s, 20 s to answer). On a loaded machine that
        # came before the outbox's own drop, which these tests are about (a CI flake:
        # dropped 1000, the session's end, in place of 4413).
        ws_ping_interval=None,
    ) as served:
        yield served


@pytest.fixture
def opened(server: Any) -> Iterator[list[socket.socket]]:
    """Sockets a test opens, closed before the server stops (even when the test fails: a
    peer that reads nothing would otherwise hold the server's shutdown)."""
    sockets: list[socket.socket] = []
    yield sockets
    for sock in sockets:
        with contextlib.suppress(OSError):
            sock.close()


async def until(done: Callable[[], bool]) -> None:
    """Wait for `done()` (a hang guard of 30 s, not a timing assertion)."""
    for _ in range(3000):
        if done():
            return
        await asyncio.sleep(0.01)
    raise TimeoutError


async def non_reader(port: int, room_id: str) -> socket.socket:
    """A websocket client that, once upgraded, never reads again."""
    loop = asyncio.get_running_loop()
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.setblocking(False)
    await loop.sock_connect(sock, ("127.0.0.1", port))
    request = (
        f"GET /ws/rooms/{room_id} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
    )
    await loop.sock_sendall(sock, request.encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += await loop.sock_recv(sock, 1)  # byte by byte: not a byte past the head
    assert b" 101 " in head.split(b"\r\n")[0], head
    return sock


async def test_a_client_that_never_reads_holds_a_bounded_backlog_then_is_dropped(
    server: Any, room_app: FastAPI, opened: list[socket.socket]
) -> None:
    port = server.config.port
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as web:
        room_id, _host, _tokens = await open_room(web, 2)
    hub = room_app.state.hub
    loop = asyncio.get_running_loop()
    # The largest message here is a welcome: one may be written past the high-water mark.
    async with connect(ws_url(f"http://127.0.0.1:{port}", room_id)) as reader:
        await reader.send('{"type": "hello", "token": null}')
        welcome = await reader.recv()
    largest = len(welcome.encode() if isinstance(welcome, str) else welcome)
    hello = frame(0x1, b'{"type": "hello", "token": null}')

    def conns() -> list[Connection]:
        channel = hub.channels.get(room_id)
        return list(channel.conns) if channel else []

    def protocols() -> list[BoundedWebSockets]:
        return [
            p
            for p in server.server_state.connections
            if isinstance(p, BoundedWebSockets)
        ]

    # The reader's side of the server may still be closing: the only connection and
    # protocol left must be the non-reader's.
    await until(lambda: not conns() and not protocols())
    sock = await non_reader(port, room_id)
    opened.append(sock)
    await loop.sock_sendall(sock, hello)
    await until(lambda: bool(conns()))
    (conn,) = conns()
    (protocol,) = protocols()
    for _ in range(600):  # until the kernel's buffers are full and the server's paused
        await loop.sock_sendall(sock, hello * 5)
        await asyncio.sleep(0.02)  # lets the server answer them
        for item, _size in conn.queue._items:
            if isinstance(item, Versioned):
                largest = max(largest, len(item.text.encode()))
        if not protocol.writable.is_set():
            break
    assert not protocol.writable.is_set(), "the server stopped writing to it"
    await loop.sock_sendall(
        sock, hello * 16
    )  # within the inbox (app/web/ws.py): all handled
    await until(lambda: conn.version is not None and conn.queue.bytes > 0)

    welcomes = [
        item
        for item, _ in conn.queue._items
        if isinstance(item, Versioned) and item.state == "welcome"
    ]
    assert len(welcomes) <= 1, "a newer welcome supersedes the queued one"
    assert conn.queue.bytes <= BUDGET + 2 * largest
    buffered = protocol.transport.get_write_buffer_size()
    assert buffered <= WRITE_BUFFER + largest + 1024, "below the outbox: bounded too"
    assert conn.dropped is None

    # Pongs pile up behind the paused socket: over the budget twice, it is dropped, and
    # its session, its socket and its place in the room go.
    # In batches the session's inbox takes whole (a flood beyond it is refused and closed
    # with 4429 instead: docs/security.md, "Floods of frames").
    for _ in range(1000):
        await loop.sock_sendall(sock, frame(0x1, b'{"type": "ping"}') * 10)
        await asyncio.sleep(0.02)
        if conn.dropped is not None:
            break
    assert conn.dropped == CLOSE_BEHIND
    await until(lambda: not conns() and not protocols())
    assert len(conn.queue) == 0
    with contextlib.suppress(OSError):
        sock.close()
