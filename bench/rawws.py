"""A lean websocket client for the many spectators of the fan-out benchmark.

One load-driver process must read every message sent to 1,000 spectators. Through the
`websockets` library each message costs a task switch and several layers of Python; the
driver then measures its own backlog rather than the server. This client is an
`asyncio.Protocol` that parses frames inside ``data_received`` (RFC 6455: no extensions, so
no compression, which a spectator is free not to offer) and hands each complete text message
to a callback with the time it arrived. It answers pings and closes, and can send one text
frame (``hello``). Players keep the real `websockets` client.
"""

from __future__ import annotations

import asyncio
import base64
import os
import struct
import time
from collections.abc import Callable
from urllib.parse import urlsplit

OnMessage = Callable[[bytes, float], None]


def frame(opcode: int, payload: bytes) -> bytes:
    """One masked client frame (clients must mask, RFC 6455 §5.3)."""
    mask = os.urandom(4)
    n = len(payload)
    if n < 126:
        head = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
    elif n < 1 << 16:
        head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
    else:
        head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
    key = int.from_bytes((mask * (n // 4 + 1))[:n], "big")
    body = (int.from_bytes(payload, "big") ^ key).to_bytes(n, "big") if n else b""
    return head + mask + body


class LeanClient(asyncio.Protocol):
    def __init__(
        self, host: str, path: str, origin: str, on_message: OnMessage
    ) -> None:
        self.request = (
            f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
            f"Sec-WebSocket-Key: {base64.b64encode(os.urandom(16)).decode()}\r\n"
            f"Origin: {origin}\r\n\r\n"
        ).encode()
        self.on_message = on_message
        self.buffer = bytearray()
        self.parts: list[bytes] = []
        self.upgraded = False
        self.opened: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        transport.write(self.request)

    def connection_lost(self, exc: Exception | None) -> None:
        for future in (self.opened, self.closed):
            if not future.done():
                future.set_exception(
                    ConnectionError("closed")
                ) if exc else future.set_result(None)

    def send_text(self, text: str) -> None:
        assert self.transport is not None
        self.transport.write(frame(0x1, text.encode()))

    def close(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(frame(0x8, struct.pack("!H", 1000)))
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        at = time.perf_counter()
        buf = self.buffer
        buf += data
        if not self.upgraded:
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                return
            status = bytes(buf[: buf.find(b"\r\n")])
            del buf[: end + 4]
            if b" 101 " not in status:
                self.opened.set_exception(
                    ConnectionError(status.decode(errors="replace"))
                )
                assert self.transport is not None
                self.transport.close()
                return
            self.upgraded = True
            self.opened.set_result(None)
        while len(buf) >= 2:
            b0, b1 = buf[0], buf[1]
            n, start = b1 & 0x7F, 2
            if n == 126:
                if len(buf) < 4:
                    return
                (n,), start = struct.unpack_from("!H", buf, 2), 4
            elif n == 127:
                if len(buf) < 10:
                    return
                (n,), start = struct.unpack_from("!Q", buf, 2), 10
            if len(buf) < start + n:
                return
            payload = bytes(buf[start : start + n])
            del buf[: start + n]
            self._frame(b0 & 0x80, b0 & 0x0F, payload, at)

    def _frame(self, fin: int, opcode: int, payload: bytes, at: float) -> None:
        assert self.transport is not None
        if opcode in (0x0, 0x1, 0x2):
            self.parts.append(payload)
            if fin:
                message = b"".join(self.parts)
                self.parts.clear()
                self.on_message(message, at)
        elif opcode == 0x9:  # ping
            self.transport.write(frame(0xA, payload))
        elif opcode == 0x8:  # close: echo it and hang up
            self.close()


async def open_lean(url: str, origin: str, on_message: OnMessage) -> LeanClient:
    parts = urlsplit(url)
    assert parts.hostname is not None and parts.port is not None, url
    loop = asyncio.get_running_loop()
    _, client = await loop.create_connection(
        lambda: LeanClient(parts.netloc, parts.path or "/", origin, on_message),
        parts.hostname,
        parts.port,
    )
    await client.opened
    return client
