"""A worker of `ishtar serve --workers N`: uvicorn fed with the connections the front hands it.

The supervisor's front (app/ops/front.py) accepts every connection, reads its request line
to choose a worker, and sends the socket with the bytes it read over the worker's channel
(a `SOCK_SEQPACKET` pair, `SCM_RIGHTS`). `HandedServer` is uvicorn's server with no
listening socket of its own: once its app has started, it tells the front it is ready and
takes each socket it is sent as uvicorn takes an accepted one (`connect_accepted_socket`
with uvicorn's protocol), the bytes read first, before any byte from the socket. Its
connections are uvicorn's like any other: its guards, its graceful shutdown.

The channel's end means the supervisor has gone: no connection will come, and the worker
stops as on SIGTERM.
"""

from __future__ import annotations

import asyncio
import logging
import socket
from typing import Any

import uvicorn

from app.ops.front import CONNECTION, FIRST_BYTES, READY

log = logging.getLogger("ishtar.workers")

_BATCH = 64  # connections taken from the channel in one turn of the loop, at most


class HandedServer(uvicorn.Server):
    """uvicorn's server taking its connections from the front's channel."""

    def __init__(self, config: uvicorn.Config, channel: socket.socket) -> None:
        super().__init__(config)
        self.channel = channel
        self._connecting: set[asyncio.Task[Any]] = set()
        self._protocol: type[asyncio.Protocol] | None = None

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=[])  # no listener: the front accepts
        if not self.started:
            return
        self._protocol = _handed(self.config.http_protocol_class)
        self.channel.setblocking(False)
        asyncio.get_running_loop().add_reader(self.channel.fileno(), self._take)
        self.channel.send(READY)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        self._stop_taking()
        await super().shutdown(sockets)

    def _stop_taking(self) -> None:
        if self.channel.fileno() >= 0:
            asyncio.get_running_loop().remove_reader(self.channel.fileno())
            self.channel.close()

    def _take(self) -> None:
        for _ in range(_BATCH):
            try:
                data, fds, _flags, _address = socket.recv_fds(
                    self.channel, len(CONNECTION) + FIRST_BYTES, 4
                )
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                data, fds = b"", []
            if not data:  # the supervisor has gone: no more connections
                for fd in fds:
                    socket.close(fd)
                log.warning("the front's channel closed: stopping")
                self._stop_taking()
                self.should_exit = True
                return
            for fd in fds:
                self._connect(socket.socket(fileno=fd), data[len(CONNECTION) :])

    def _connect(self, sock: socket.socket, head: bytes) -> None:
        protocol_class = self._protocol
        assert protocol_class is not None
        sock.setblocking(False)

        def protocol() -> asyncio.Protocol:
            made = protocol_class(  # type: ignore[call-arg]
                config=self.config,
                server_state=self.server_state,
                app_state=self.lifespan.state,
            )
            made.handed_head = head  # type: ignore[attr-defined]
            return made

        loop = asyncio.get_running_loop()
        task = loop.create_task(loop.connect_accepted_socket(protocol, sock))
        self._connecting.add(task)
        task.add_done_callback(self._connected)

    def _connected(self, task: asyncio.Task[Any]) -> None:
        self._connecting.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.debug("a handed connection failed: %s", task.exception())


def _handed(http: type[asyncio.Protocol]) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol class, fed the bytes the front read before the socket's."""

    class Handed(http):  # type: ignore[valid-type,misc]
        handed_head = b""

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            super().connection_made(transport)
            head, self.handed_head = self.handed_head, b""
            if head and not transport.is_closing():
                self.data_received(head)

    return Handed
