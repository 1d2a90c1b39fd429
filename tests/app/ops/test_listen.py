"""The socket `ishtar serve` binds itself (app/ops/cli.py `_listen`) serves like uvicorn's own.

uvicorn binding (host, port) lets asyncio create the socket from getaddrinfo, whose protocol
is TCP, and asyncio then sets TCP_NODELAY on every connection it accepts. A socket made with
protocol 0 looks like something else to asyncio's check (`sock.proto == IPPROTO_TCP`), so
Nagle's algorithm stayed on: a response's body waited for the client's delayed ACK of its
head, 44 ms on every request of a keep-alive connection (1 ms with the flag).
"""

from __future__ import annotations

import asyncio
import socket

from app.ops.cli import _listen
from tests.support.live import uvicorn_serving


async def accepted_nodelay(listening: socket.socket) -> int:
    """TCP_NODELAY on the server side of a connection asyncio accepts on `listening`."""
    flags: list[int] = []

    def made(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        sock = writer.get_extra_info("socket")
        flags.append(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
        writer.close()

    server = await asyncio.start_server(made, sock=listening)
    try:
        port = listening.getsockname()[1]
        _reader, writer = await asyncio.open_connection("127.0.0.1", port)
        await _reader.read()  # the server closed it: `made` has run
        writer.close()
        await writer.wait_closed()
    finally:
        server.close()
        await server.wait_closed()
    return flags[0]


async def test_connections_to_the_served_socket_send_without_delay() -> None:
    sock = _listen("127.0.0.1", 0)
    assert sock.proto == socket.IPPROTO_TCP
    assert await accepted_nodelay(sock) == 1


async def test_the_tests_in_process_server_sends_without_delay() -> None:
    async def app(scope: dict, receive: object, send: object) -> None:  # type: ignore[type-arg]
        if scope["type"] == "lifespan":
            return

    async with uvicorn_serving(app) as server:
        (listening,) = [s for srv in server.servers for s in srv.sockets]
        assert listening.proto == socket.IPPROTO_TCP
