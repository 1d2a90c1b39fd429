"""The front of `ishtar serve --workers N`: every connection handed to one worker, a room's
sockets all to the same one.

When each worker listened on the port itself (`SO_REUSEPORT`), the kernel spread a room's
four sockets over the workers, and every worker that served one of them applied each of
the room's moves again for its own sockets: two workers cost 1.4-1.5 times one in CPU a
move and held fewer rooms than one (docs/benchmarks.md, "Several processes"). The front
accepts every connection in the supervisor, reads its request line, and passes the socket
itself (`SCM_RIGHTS` over a `SOCK_SEQPACKET` pair) to one worker:

- a room's websocket (`/ws/rooms/<id>`) to the room's worker, by a hash of its id, so
  that a room is served by one process and its moves are applied once;
- anything else to the next ready worker in turn.

The bytes the front read go with the socket, and the worker feeds them to its HTTP parser
before anything else (app/ops/handoff.py): nothing is parsed twice, nothing is answered
here. Nothing depends on the choice: workers still coordinate through PostgreSQL, and a
room whose worker is starting again is served meanwhile by another one, as rooms spread
over machines are.

The front answers nothing and refuses nothing itself: the workers' guards do
(app/ops/connection_guard.py). Its own bounds: a connection waits here at most
`head_timeout_s` for its request line (then it is closed, as a worker closes a connection
whose head is late), and what it reads is at most `FIRST_BYTES`. At most `per_address`
connections of one client address and `max_pending` in all wait so; any more are handed
at once, unread, to the next worker in turn, whose guard counts them. A worker whose
channel is full (stalled) is passed over; with no worker to take a connection, it is
closed.
"""

from __future__ import annotations

import errno
import functools
import logging
import re
import selectors
import socket
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass

from app.ops.connection_guard import address_key

log = logging.getLogger("ishtar.front")

FIRST_BYTES = 8192  # a request line longer than this is passed on as it is (the worker refuses it)
ACCEPT_RETRY_S = (
    1.0  # out of descriptors: accepting stops this long (as asyncio's servers)
)
READY = b"ready"  # what a worker sends on its channel once it serves
CONNECTION = b"C"  # what each message to a worker starts with, then the bytes read
_ROOM = re.compile(rb"\A[A-Z]+ [^ ?#]*/ws/rooms/([^/?# ]+)")

Callback = Callable[[], None]


def room_of(head: bytes) -> bytes | None:
    """The room id in a request line for a room's websocket, else None.

    >>> room_of(b"GET /ws/rooms/r-12?since=4 HTTP/1.1\\r\\nHost: x")
    b'r-12'
    >>> room_of(b"GET /rooms/r-12 HTTP/1.1\\r\\n") is None
    True
    """
    match = _ROOM.match(head)
    return match[1] if match else None


def home_of(room: bytes, count: int) -> int:
    """The index of the room's worker of `count`: the same in every process and run.

    >>> home_of(b"r-12", 2) == home_of(b"r-12", 2)
    True
    """
    return zlib.crc32(room) % count


@dataclass(eq=False)
class Pending:
    """A connection accepted, its request line not read yet."""

    sock: socket.socket
    address: str
    deadline: float
    head: bytes = b""


class Front:
    """Accepts on `listener` and hands each connection to one of `count` workers."""

    def __init__(
        self,
        selector: selectors.BaseSelector,
        listener: socket.socket,
        count: int,
        head_timeout_s: float,
        per_address: int,
        max_pending: int,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.selector = selector
        self.listener = listener
        self.count = count
        self.head_timeout_s = head_timeout_s
        self.per_address = per_address
        self.max_pending = max_pending
        self.clock = clock
        self.channels: dict[int, socket.socket] = {}  # by worker index
        self.ready: list[int] = []  # worker indexes that serve, sorted
        self.pending: dict[int, Pending] = {}  # by file descriptor
        self.by_address: dict[str, int] = {}
        self.accepting = False
        self.closed = False
        self.paused_until: float | None = None  # accepting stopped: out of descriptors
        self.turn = 0
        self.handed = 0

    # -- workers ------------------------------------------------------------------------

    def attach(self, index: int, channel: socket.socket) -> None:
        """Worker `index`'s end of its channel; it gets connections once it says ready."""
        self.detach(index)
        channel.setblocking(False)
        self.channels[index] = channel
        self.selector.register(
            channel, selectors.EVENT_READ, functools.partial(self._heard, index)
        )

    def detach(self, index: int) -> None:
        """Worker `index` has ended: no more connections for it."""
        channel = self.channels.pop(index, None)
        if channel is not None:
            self.selector.unregister(channel)
            channel.close()
        if index in self.ready:
            self.ready.remove(index)
            self._update_accepting()

    def _heard(self, index: int) -> None:
        channel = self.channels.get(index)
        if channel is None:  # detached earlier in the same turn
            return
        try:
            message = channel.recv(64)
        except BlockingIOError:
            return
        except OSError:
            message = b""
        if not message:  # the worker has gone (its exit is seen through its pidfd too)
            self.detach(index)
        elif message == READY and index not in self.ready and not self.closed:
            self.ready = sorted([*self.ready, index])
            log.info("worker %d ready", index)
            if len(self.ready) == self.count:
                log.info("all %d workers ready", self.count)
            self._update_accepting()

    # -- connections ----------------------------------------------------------------------

    def _update_accepting(self) -> None:
        """Listen and accept while a worker serves (until then a connection is refused),
        unless accepting is paused."""
        want = bool(self.ready) and self.paused_until is None
        if want == self.accepting:
            return
        if want:
            self.listener.listen(socket.SOMAXCONN)
            self.listener.setblocking(False)
            self.selector.register(self.listener, selectors.EVENT_READ, self._accept)
        else:
            self.selector.unregister(self.listener)
        self.accepting = want

    def _accept(self) -> None:
        while self.accepting:
            try:
                sock, peer = self.listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError as exc:
                if exc.errno in (errno.ECONNABORTED, errno.EPROTO):
                    continue  # reset while it waited in the queue: the next one
                # Out of descriptors or memory: the listener would stay readable, and
                # every turn would fail again. The kernel's queue holds the rest.
                log.warning("accept failed (%s): paused for %g s", exc, ACCEPT_RETRY_S)
                self.paused_until = self.clock() + ACCEPT_RETRY_S
                self._update_accepting()
                return
            address = address_key(peer[0]) if isinstance(peer, tuple) else ""
            held = self.by_address.get(address, 0)
            if len(self.pending) >= self.max_pending or (
                self.per_address and held >= self.per_address
            ):
                self._hand(sock, b"")  # unread, to the next worker: its guard counts it
                continue
            sock.setblocking(False)
            pending = Pending(sock, address, self.clock() + self.head_timeout_s)
            self.pending[sock.fileno()] = pending
            self.by_address[address] = held + 1
            self.selector.register(
                sock, selectors.EVENT_READ, functools.partial(self._read, pending)
            )

    def _read(self, pending: Pending) -> None:
        try:
            data = pending.sock.recv(FIRST_BYTES - len(pending.head))
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:  # the client went before its request line
            self._drop(pending)
            pending.sock.close()
            return
        pending.head += data
        if b"\n" in pending.head or len(pending.head) >= FIRST_BYTES:
            self._drop(pending)
            self._hand(pending.sock, pending.head)

    def _drop(self, pending: Pending) -> None:
        """Forget a pending connection (the caller closes or hands its socket)."""
        self.selector.unregister(pending.sock)
        del self.pending[pending.sock.fileno()]
        left = self.by_address[pending.address] - 1
        if left:
            self.by_address[pending.address] = left
        else:
            del self.by_address[pending.address]

    def _hand(self, sock: socket.socket, head: bytes) -> None:
        """Pass the connection and the bytes read to a worker, then close it here."""
        try:
            for index in self._choices(head):
                try:
                    socket.send_fds(
                        self.channels[index], [CONNECTION + head], [sock.fileno()]
                    )
                except (BlockingIOError, InterruptedError):
                    continue  # that worker is behind: another one takes it
                except OSError:
                    continue  # that worker has just gone
                self.handed += 1
                return
            log.warning("no worker took a connection: closed")
        finally:
            sock.close()  # the worker has its own copy

    def _choices(self, head: bytes) -> list[int]:
        """The ready workers in the order to try them: a room's own first."""
        ready = self.ready
        if not ready:
            return []
        room = room_of(head)
        if room is not None:
            first = home_of(room, self.count)
            if first not in ready:
                first = ready[home_of(room, len(ready))]
        else:
            self.turn += 1
            first = ready[self.turn % len(ready)]
        at = ready.index(first)
        return ready[at:] + ready[:at]

    def expire(self) -> float | None:
        """Close the connections whose request line is late, and accept again once a
        pause is over; seconds to the next of those, None if there is none.

        Connections wait with one timeout each, so the oldest (the first in `pending`) is
        due first.
        """
        now = self.clock()
        soonest: float | None = None
        if self.paused_until is not None:
            if self.paused_until <= now:
                self.paused_until = None
                self._update_accepting()
            else:
                soonest = self.paused_until - now
        while self.pending:
            oldest = next(iter(self.pending.values()))
            if oldest.deadline > now:
                due = oldest.deadline - now
                return due if soonest is None else min(due, soonest)
            self._drop(oldest)
            oldest.sock.close()
        return soonest

    def close(self) -> None:
        """Stop accepting and close the connections still waiting here (the workers'
        channels are closed by `detach`, once each worker has ended)."""
        for pending in list(self.pending.values()):
            self._drop(pending)
            pending.sock.close()
        if self.accepting:
            self.selector.unregister(self.listener)
            self.accepting = False
        self.ready = []
        self.closed = True
        self.paused_until = None
        self.listener.close()
