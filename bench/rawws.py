"""A lean websocket client for the many sockets of the scale and fan-out benchmarks.

One load-driver process must read every message sent to thousands of sockets. Through the
`websockets` library each message costs a task switch and several layers of Python; the
driver then measures its own backlog rather than the server. This client is an
`asyncio.Protocol` that parses frames inside ``data_received`` and hands each complete text
message to a callback with the time it arrived. It answers pings and closes, and sends text
frames (``hello``, moves).

It has two modes (``client=``):

- ``"browser"`` (`BROWSER`) behaves as Chromium does: its handshake carries the headers
  Chromium sends (``Origin``, ``User-Agent``, ``Accept-Language`` ...) and offers
  ``Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits``. When the server
  accepts it (RFC 7692), messages whose first frame has RSV1 set are inflated (raw deflate
  of the negotiated window, ``00 00 ff ff`` appended, the context kept from message to
  message unless the server said ``server_no_context_takeover``), and every message sent is
  compressed as Chromium compresses it: deflated with the client's own context (dropped per
  message only under ``client_no_context_takeover``), sync-flushed, the ``00 00 ff ff`` tail
  stripped, RSV1 set. Chromium compresses every data message it sends; sending uncompressed
  frames would also be legal (RFC 7692 §6), but then the server never inflates anything and
  never allocates its inflater's window, which every real browser's socket makes it hold.
  The one exception is ``client_max_window_bits=8``: zlib cannot deflate with an 8-bit
  window, so messages then go out uncompressed.
- ``"lean"`` (`LEAN`) offers no extension (RFC 6455 only) and sends only ``Origin``: the
  least a socket can cost the server.

Each client counts the bytes it received and sent on the wire (handshake included), the
messages it received, how many of them came compressed, and their size once inflated.
"""

from __future__ import annotations

import asyncio
import base64
import os
import struct
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

OnMessage = Callable[[bytes, float], None]

BROWSER = "browser"
LEAN = "lean"
CLIENTS = (BROWSER, LEAN)

# What Chromium 13x sends in a websocket handshake besides the key and the extension offer.
CHROMIUM_HEADERS = (
    "Pragma: no-cache\r\nCache-Control: no-cache\r\n"
    "User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko)"
    " Chrome/131.0.0.0 Safari/537.36\r\n"
    "Accept-Encoding: gzip, deflate, br, zstd\r\n"
    "Accept-Language: en-US,en;q=0.9\r\n"
)
DEFLATE_OFFER = "permessage-deflate; client_max_window_bits"
TAIL = b"\x00\x00\xff\xff"
# The driver's compressors use a small hash table (memLevel 1 instead of zlib's 8): it is
# the driver's memory (thousands of sockets), it does not change what the server holds (its
# inflater's memory depends on the window bits only) and barely changes the bytes sent.
DRIVER_MEM_LEVEL = 1


def frame(opcode: int, payload: bytes, rsv1: bool = False) -> bytes:
    """One masked client frame (clients must mask, RFC 6455 §5.3); RSV1 marks a
    compressed message (RFC 7692 §6)."""
    mask = os.urandom(4)
    n = len(payload)
    b0 = 0x80 | (0x40 if rsv1 else 0) | opcode
    if n < 126:
        head = struct.pack("!BB", b0, 0x80 | n)
    elif n < 1 << 16:
        head = struct.pack("!BBH", b0, 0x80 | 126, n)
    else:
        head = struct.pack("!BBQ", b0, 0x80 | 127, n)
    key = int.from_bytes((mask * (n // 4 + 1))[:n], "big")
    body = (int.from_bytes(payload, "big") ^ key).to_bytes(n, "big") if n else b""
    return head + mask + body


@dataclass(frozen=True)
class Deflate:
    """The permessage-deflate parameters a server accepted (RFC 7692 §7.1)."""

    server_no_context_takeover: bool = False
    client_no_context_takeover: bool = False
    server_max_window_bits: int = 15
    client_max_window_bits: int = 15


def parse_deflate(value: str) -> Deflate:
    """The server's ``Sec-WebSocket-Extensions`` answer to `DEFLATE_OFFER`.

    A browser fails the connection on anything it did not offer: so does this."""
    if "," in value:
        raise ConnectionError(f"more than one extension accepted: {value!r}")
    name, *params = (part.strip() for part in value.split(";"))
    if name.lower() != "permessage-deflate":
        raise ConnectionError(f"an extension that was not offered: {value!r}")
    flags: dict[str, bool] = {}
    bits: dict[str, int] = {}
    for param in params:
        key, sep, raw = (p.strip() for p in param.partition("="))
        key = key.lower()
        if key in ("server_no_context_takeover", "client_no_context_takeover"):
            if sep or key in flags:
                raise ConnectionError(f"bad {key} in {value!r}")
            flags[key] = True
        elif key in ("server_max_window_bits", "client_max_window_bits"):
            text = raw.strip('"')
            if not text.isdigit() or not 8 <= int(text) <= 15 or key in bits:
                raise ConnectionError(f"bad {key} in {value!r}")
            bits[key] = int(text)
        else:
            raise ConnectionError(f"unknown parameter {key!r} in {value!r}")
    return Deflate(
        server_no_context_takeover=flags.get("server_no_context_takeover", False),
        client_no_context_takeover=flags.get("client_no_context_takeover", False),
        server_max_window_bits=bits.get("server_max_window_bits", 15),
        client_max_window_bits=bits.get("client_max_window_bits", 15),
    )


def response_header(head: bytes, name: str) -> str | None:
    """One header of an HTTP response head (the last one if repeated), or None."""
    found = None
    for line in head.split(b"\r\n")[1:]:
        key, sep, value = line.partition(b":")
        if sep and key.strip().lower() == name.encode():
            found = value.strip().decode("latin-1")
    return found


class LeanClient(asyncio.Protocol):
    def __init__(
        self,
        host: str,
        path: str,
        origin: str,
        on_message: OnMessage,
        client: str = LEAN,
    ) -> None:
        if client not in CLIENTS:
            raise ValueError(f"client mode {client!r}: one of {CLIENTS}")
        self.mode = client
        browser = client == BROWSER
        self.request = (
            f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: Upgrade\r\n"
            + (CHROMIUM_HEADERS if browser else "")
            + "Upgrade: websocket\r\n"
            f"Origin: {origin}\r\nSec-WebSocket-Version: 13\r\n"
            f"Sec-WebSocket-Key: {base64.b64encode(os.urandom(16)).decode()}\r\n"
            + (f"Sec-WebSocket-Extensions: {DEFLATE_OFFER}\r\n" if browser else "")
            + "\r\n"
        ).encode()
        self.on_message = on_message
        self.buffer = bytearray()
        self.parts: list[bytes] = []
        self.compressed = False  # the message being assembled has RSV1 set
        self.upgraded = False
        self.deflate: Deflate | None = None  # what the server accepted, if anything
        self.inflater: zlib._Decompress | None = None
        self.deflater: zlib._Compress | None = None
        self.opened: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.transport: asyncio.Transport | None = None
        # on the wire, handshake included
        self.bytes_received = 0
        self.bytes_sent = 0
        self.messages = 0
        self.messages_compressed = 0  # messages that came with RSV1 (inflated here)
        self.message_bytes = 0  # payload bytes of the messages, once inflated

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        self._write(self.request)

    def connection_lost(self, exc: Exception | None) -> None:
        for future in (self.opened, self.closed):
            if not future.done():
                future.set_exception(
                    ConnectionError("closed")
                ) if exc else future.set_result(None)

    def _write(self, data: bytes) -> None:
        assert self.transport is not None
        self.bytes_sent += len(data)
        self.transport.write(data)

    def send_text(self, text: str) -> None:
        payload = text.encode()
        deflate = self.deflate
        if deflate is None or deflate.client_max_window_bits < 9:
            self._write(frame(0x1, payload))
            return
        if self.deflater is None or deflate.client_no_context_takeover:
            self.deflater = zlib.compressobj(
                zlib.Z_DEFAULT_COMPRESSION,
                zlib.DEFLATED,
                -deflate.client_max_window_bits,
                DRIVER_MEM_LEVEL,
            )
        data = self.deflater.compress(payload) + self.deflater.flush(zlib.Z_SYNC_FLUSH)
        assert data.endswith(TAIL), data
        self._write(frame(0x1, data[:-4], rsv1=True))

    def close(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self._write(frame(0x8, struct.pack("!H", 1000)))
            self.transport.close()

    def _fail(self, error: ConnectionError) -> None:
        if not self.opened.done():
            self.opened.set_exception(error)
        assert self.transport is not None
        self.transport.close()

    def _upgrade(self, head: bytes) -> bool:
        """The server's answer to the handshake: True when the socket is open."""
        status = head[: head.find(b"\r\n")] if b"\r\n" in head else head
        if b" 101 " not in status + b" ":
            self._fail(ConnectionError(status.decode(errors="replace")))
            return False
        extensions = response_header(head, "sec-websocket-extensions")
        if extensions:
            if self.mode != BROWSER:
                self._fail(ConnectionError(f"extension not offered: {extensions}"))
                return False
            try:
                self.deflate = parse_deflate(extensions)
            except ConnectionError as error:
                self._fail(error)
                return False
        self.upgraded = True
        self.opened.set_result(None)
        return True

    def data_received(self, data: bytes) -> None:
        at = time.perf_counter()
        self.bytes_received += len(data)
        buf = self.buffer
        buf += data
        if not self.upgraded:
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                return
            head = bytes(buf[:end])
            del buf[: end + 4]
            if not self._upgrade(head):
                return
        assert self.transport is not None
        while len(buf) >= 2 and not self.transport.is_closing():
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
            self._frame(b0, payload, at)

    def _frame(self, b0: int, payload: bytes, at: float) -> None:
        assert self.transport is not None
        fin, opcode = b0 & 0x80, b0 & 0x0F
        if opcode in (0x0, 0x1, 0x2):
            if opcode != 0x0:  # a message's first frame carries its RSV1
                self.compressed = bool(b0 & 0x40)
                if self.compressed and self.deflate is None:
                    self._fail(ConnectionError("RSV1 set without permessage-deflate"))
                    return
            self.parts.append(payload)
            if fin:
                message = b"".join(self.parts)
                self.parts.clear()
                if self.compressed:
                    message = self._inflate(message)
                    self.messages_compressed += 1
                self.messages += 1
                self.message_bytes += len(message)
                self.on_message(message, at)
        elif opcode == 0x9:  # ping
            self._write(frame(0xA, payload))
        elif opcode == 0x8:  # close: echo it and hang up
            self.close()

    def _inflate(self, data: bytes) -> bytes:
        deflate = self.deflate
        assert deflate is not None
        if self.inflater is None or deflate.server_no_context_takeover:
            self.inflater = zlib.decompressobj(-deflate.server_max_window_bits)
        return self.inflater.decompress(data + TAIL)


async def open_lean(
    url: str, origin: str, on_message: OnMessage, client: str = LEAN
) -> LeanClient:
    parts = urlsplit(url)
    assert parts.hostname is not None and parts.port is not None, url
    loop = asyncio.get_running_loop()
    _, lean = await loop.create_connection(
        lambda: LeanClient(parts.netloc, parts.path or "/", origin, on_message, client),
        parts.hostname,
        parts.port,
    )
    await lean.opened
    return lean
