"""The websocket protocol `ishtar serve` runs: uvicorn's, bounded against peers that stop reading.

Below a connection's outbox (app/live/outbox.py) the bytes of a client that does not read wait in
the kernel's socket buffers and then in the asyncio transport, whose high-water mark pauses
the writer (uvicorn's `send` waits while it is passed). Two things uvicorn leaves open:

- the high-water mark is asyncio's default (64 KiB) and no uvicorn option sets it: here it
  is `ISHTAR_WS_WRITE_BUFFER_BYTES`;
- a paused connection never ends: a close waits to be written behind what the peer does not
  read, and closing a transport with unwritten bytes waits for them too. So a close asked
  while paused aborts the connection (the close frame could not reach the peer anyway), and
  so does staying paused for `ISHTAR_WS_BEHIND_S` seconds.

Above the bounds, what goes on the wire is this server's (app/ops/ws_frames.py):
permessage-deflate with no context kept between messages, and each text message framed
once for every socket that takes the same frame (`FrameCache`). And a text can be written
at once, without a trip through a task and the ASGI send chain: the protocol offers its
`write_now` to the app as the ASGI extension `ishtar.write_now` (the hub fans a move out
with it, app/live/connection.py).

uvicorn takes the protocol class as its `ws` option; `bounded_websockets` makes one.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Callable, Sequence
from typing import Any

from uvicorn._types import ASGIReceiveEvent, ASGISendEvent
from uvicorn.protocols.utils import ClientDisconnected
from uvicorn.protocols.websockets.websockets_sansio_impl import (
    WebSocketsSansIOProtocol,
)
from websockets.extensions.base import Extension
from websockets.http11 import Request
from websockets.protocol import State
from websockets.server import ServerProtocol

from app.config.flags import Flag
from app.ops.ws_frames import FrameCache, build_frame, deflate_factory

Framing = Callable[[str, Sequence[Extension]], bytes]

# Seconds a socket may be quiet before its keep-alive ping (uvicorn's `ws_ping_interval`;
# its default is 20): longer than the 25 s between a room page's own pings, so that an open
# tab's pings are all the keep-alive it needs (`BoundedWebSockets.send_keepalive_ping`).
PING_INTERVAL_S = 30.0

log = logging.getLogger("ishtar.ws")


class Events:
    """What the protocol hands the app (connect, each message, disconnect), for its one
    reader. uvicorn uses an `asyncio.Queue`: three deques and an `Event`, about 3 KB a
    socket, for what is at most a few items (uvicorn stops reading the socket while a
    message waits)."""

    __slots__ = ("_items", "_waiter")

    def __init__(self) -> None:
        self._items: list[ASGIReceiveEvent] = []
        self._waiter: asyncio.Future[None] | None = None

    def put_nowait(self, item: ASGIReceiveEvent) -> None:
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None:
            self._waiter = None
            if not waiter.done():
                waiter.set_result(None)

    def empty(self) -> bool:
        return not self._items

    def qsize(self) -> int:
        return len(self._items)

    async def get(self) -> ASGIReceiveEvent:
        while not self._items:
            waiter = asyncio.get_running_loop().create_future()
            self._waiter = waiter
            try:
                await waiter
            finally:
                if self._waiter is waiter:
                    self._waiter = None
        return self._items.pop(0)


class BoundedWebSockets(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O websockets protocol with a write bound and an end for stalls."""

    write_buffer_bytes = 64 * 1024
    stall_s = 30.0
    # Keep-alive pings fall on this grid of the loop's clock (see `schedule_ping`).
    ping_grid_s = 0.1
    # When the peer was last heard from (any bytes), on the loop's clock: a socket is
    # pinged only once it has been quiet for uvicorn's interval (`send_keepalive_ping`).
    last_heard = 0.0
    frame_cache = FrameCache(1024 * 1024)
    deflate = deflate_factory()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._stall: asyncio.TimerHandle | None = None
        self.queue = Events()  # type: ignore[assignment]
        self.writable = Flag()  # type: ignore[assignment]  # no deque a socket
        self.writable.set()
        if self.config.ws_per_message_deflate:
            # uvicorn's protocol keeps a compressor and an inflater for the socket's life.
            self.conn = ServerProtocol(
                extensions=[self.deflate],
                max_size=self.config.ws_max_size,
                logger=self.conn.logger,
            )

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)  # none when the handshake was refused
        if scope is not None:
            scope["extensions"]["ishtar.write_now"] = self.write_now

    def write_now(self, text: str) -> bool:
        """Write a text message shared by many sockets (an update fanned out) now if the
        socket is open and takes bytes, its frame taken from the cache; else False (the
        caller sends it the usual way, which waits or says why it cannot)."""
        return self._write(self.frame_cache.frame, text)

    def _write(self, framed: Framing, text: str) -> bool:
        if (
            not self.writable.is_set()
            or self.disconnected
            or not self.handshake_complete
            or self.initial_response is not None
            or self.close_sent
            or self.conn.state is not State.OPEN
        ):
            return False
        self.transport.write(framed(text, self.conn.extensions))
        return True

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self.transport.set_write_buffer_limits(high=self.write_buffer_bytes)

    def pause_writing(self) -> None:
        super().pause_writing()
        if self._stall is None:
            self._stall = self.loop.call_later(self.stall_s, self._stalled)

    def resume_writing(self) -> None:
        self._cancel_stall()
        super().resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_stall()
        scope = getattr(self, "scope", None)
        if scope is not None:  # the scope holds the protocol no longer: no cycle left
            scope["extensions"].pop("ishtar.write_now", None)
        super().connection_lost(exc)

    async def send(self, message: ASGISendEvent) -> None:
        if message["type"] == "websocket.send" and message.get("text") is not None:
            text = message["text"]
            assert text is not None
            while True:
                await self.writable.wait()
                if self.disconnected:
                    raise ClientDisconnected()
                if not (
                    self.handshake_complete
                    and self.initial_response is None
                    and not self.close_sent
                ):
                    break  # uvicorn's own send says what is wrong
                if self._write(build_frame, text):
                    return
                if self.writable.is_set():  # closing: uvicorn's InvalidState case
                    raise ClientDisconnected()
        if message["type"] == "websocket.close" and not self.writable.is_set():
            self.transport.abort()  # the peer reads nothing: no close frame would get out
        await super().send(message)
        if message["type"] == "websocket.accept" and self.handshake_complete:
            # The handshake's request and response (their headers: about 4 KB a socket
            # from a browser) are not needed again; the scope keeps what the app reads.
            # websockets' handshake parser keeps the request in its generator's frame for
            # the socket's life, so its headers are emptied, not only let go of.
            request = self.__dict__.pop("request", None)
            if request is not None:
                request.headers.clear()
            self.__dict__.pop("response", None)

    def data_received(self, data: bytes) -> None:
        self.last_heard = self.loop.time()
        super().data_received(data)

    def send_keepalive_ping(self) -> None:
        """uvicorn's keep-alive ping, unless the peer has been heard from within the
        interval: then the ping waits until the interval after that.

        The ping shows that the peer is still there, and its pong is what uvicorn waits
        for; any frame the peer sent shows the same. A room's page sends the app's `ping`
        every 25 s (static/js/socket.js), within `PING_INTERVAL_S`, so an open tab is never
        pinged, and a peer gone quiet is still found `PING_INTERVAL_S` + the pong timeout
        after its last sign of life, as after a pong. 10,000 open tabs cost the protocol's
        pings and their pongs, about 3 % of a core, beside their own pings (`bench.scale
        --idle`; docs/benchmarks.md)."""
        assert self.ping_interval is not None
        due = self.last_heard + self.ping_interval
        if due > self.loop.time() and not (
            self.close_sent or self.transport.is_closing()
        ):
            grid = self.ping_grid_s
            self.ping_timer = self.loop.call_at(
                math.ceil(due / grid) * grid, self.send_keepalive_ping
            )
            return
        super().send_keepalive_ping()

    def schedule_ping(self) -> None:
        """uvicorn's next keep-alive ping, its time rounded up to `ping_grid_s`.

        uvicorn pings each socket `ws_ping_interval` (here 30 s) after its last pong, so pings
        spread over time as the sockets did when they connected, and each one woke the
        event loop on its own: 500 wake-ups a second for 10,000 idle sockets, and as many
        for their pongs. On the grid every ping due in the same tenth of a second goes out
        in one turn of the loop and their pongs come back together (`bench.scale --idle`;
        docs/benchmarks.md). A tenth, not a whole second: the pings of 3,000 live rooms'
        12,000 sockets then come 60 at a time, not 600 in one turn while moves wait. A
        ping is at most `ping_grid_s` later than uvicorn's."""
        assert self.ping_interval is not None
        due = self.loop.time() + max(0.0, self.ping_interval - self.last_ping_rtt)
        grid = self.ping_grid_s
        self.ping_timer = self.loop.call_at(
            math.ceil(due / grid) * grid, self.send_keepalive_ping
        )

    def _stalled(self) -> None:
        self._stall = None
        log.info(
            "websocket peer %s read nothing for %.0f s: cut off",
            self.client,
            self.stall_s,
        )
        self.transport.abort()

    def _cancel_stall(self) -> None:
        if self._stall is not None:
            self._stall.cancel()
            self._stall = None


def bounded_websockets(
    write_buffer_bytes: int, stall_s: float, frame_cache_bytes: int = 1024 * 1024
) -> type[BoundedWebSockets]:
    """The protocol class for uvicorn's `ws` option, with these bounds."""
    return type(
        "BoundedWebSockets",
        (BoundedWebSockets,),
        {
            "write_buffer_bytes": write_buffer_bytes,
            "stall_s": stall_s,
            "frame_cache": FrameCache(frame_cache_bytes),
        },
    )
