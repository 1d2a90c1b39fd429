"""The guard on the client connections of `ishtar serve` (uvicorn): slow and greedy clients.

uvicorn closes an idle keep-alive connection, but never one that has not finished its request
head: its keep-alive timer starts only after a response, and any byte received stops it. So a
client that opens connections and sends half a request (or a byte now and then) keeps each
one forever, and enough of them take every file descriptor of the process: the database pool
then cannot reconnect, and /readyz fails. `guarded_protocols` wraps uvicorn's own protocol
classes (httptools for HTTP, websockets for the upgraded connection) with three rules:

- a deadline on every request head, from the start of the connection (or the end of the
  previous response) to the end of its headers; past it, the connection is closed. A head
  larger than `MAX_HEAD_BYTES` is refused with 431.
- at most `per_address` open connections per client address (an IPv6 client by its /64,
  which one subscriber usually holds whole); more are answered 429 and closed at once.
  Trusted proxies are exempt: they carry many clients, and cap them themselves.
- at most `capacity` client connections in all: the descriptor limit, less what the
  started server holds, less a reserve for what it may still open (pool connections opened
  under load, a reconnecting listener, the embedded PostgreSQL's tools); more are answered
  503 and closed at once, so the reserve stays free.

Refusals are written before the request is read: the connection never gets to cost more.
Their bodies are errors in the documented shape (docs/protocol.md): `head_too_large`,
`rate_limited`, `unavailable`; a request uvicorn cannot parse gets `malformed` (400).

A response sent before its request's body was read to the end (the 413 of a body over
the limit, sent as soon as the Content-Length is read) ends the connection: the bytes
still coming are the rest of that body, not a next request, and no later answer could be
told apart from a reply to it. The response says ``connection: close``; the server then
shuts its side for writing and reads and drops what the client still sends, up to
`LINGER_BYTES` or `LINGER_S`, so that the client can finish sending and read the answer
(closing at once, with bytes unread, would reset the connection and take the answer with
it); the client's own close, or either bound, closes it.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import os
import resource
from collections.abc import Sequence

from uvicorn._types import ASGISendEvent
from uvicorn.protocols.http.httptools_impl import (
    HttpToolsProtocol,
    RequestResponseCycle,
)
from uvicorn.protocols.websockets.websockets_sansio_impl import (
    WebSocketsSansIOProtocol,
)

from app.ops.collector import note_connection_closed
from app.play.protocol import HTTP_STATUS, ServiceError, dumps

log = logging.getLogger("ishtar.connections")

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

MAX_HEAD_BYTES = 64 * 1024  # request line and headers; browsers send a few KiB
LINGER_BYTES = 16 << 20  # the rest of a refused body read and dropped, at most
LINGER_S = 10.0  # ... and for at most this long
NOFILE_CEILING = 1 << 20  # what to ask for when the hard limit is "unlimited"


def _refusal(status: str, code: str, reason: str, retry: bool = True) -> bytes:
    """A whole response that ends its connection, its body an error of docs/protocol.md."""
    assert status.startswith(f"{HTTP_STATUS[code]} ")
    body = dumps(ServiceError(code, reason).body())
    return (
        f"HTTP/1.1 {status}\r\nconnection: close\r\n"
        f"content-type: application/json\r\ncontent-length: {len(body)}\r\n"
        + ("retry-after: 5\r\n" if retry else "")
        + f"\r\n{body}"
    ).encode("ascii")


BUSY = _refusal(
    "503 Service Unavailable",
    "unavailable",
    "The server holds as many connections as it can; retry shortly.",
)
TOO_MANY = _refusal(
    "429 Too Many Requests",
    "rate_limited",
    "Your address holds as many connections as it may; close one and retry.",
)
HEAD_TOO_LARGE = _refusal(
    "431 Request Header Fields Too Large",
    "head_too_large",
    f"The request line and headers are over {MAX_HEAD_BYTES} bytes.",
    retry=False,
)
UNPARSABLE = _refusal(
    "400 Bad Request",
    "malformed",
    "The request is not valid HTTP/1.1.",
    retry=False,
)


def address_key(host: str) -> str:
    """The unit a client is counted by: its IPv4 address, or its IPv6 /64.

    >>> address_key("203.0.113.9")
    '203.0.113.9'
    >>> address_key("2001:db8:1:2:aaaa::1") == address_key("2001:db8:1:2:bbbb::2")
    True
    >>> address_key("::ffff:203.0.113.9")
    '203.0.113.9'
    """
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host  # not an IP (a Unix socket): counted by name
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


class ConnectionBudget:
    """How many client connections the process holds, in all and per address.

    `admit` is called when a connection opens and answers None (admitted) or the refusal
    to send; `release` when it closes (idempotent: the HTTP and the websocket protocol of
    one upgraded connection may both call it).
    """

    def __init__(
        self,
        limit: int,
        reserved: int,
        per_address: int,
        exempt: Sequence[Network] = (),
    ) -> None:
        self.limit = limit
        self.reserved = reserved
        self.capacity: int | None = None  # known at the first connection
        self.per_address = per_address
        self.exempt = tuple(exempt)
        self._holders: dict[asyncio.BaseTransport, str] = {}
        self._by_address: dict[str, int] = {}
        self.refused = {"capacity": 0, "per_address": 0}
        self.timed_out = 0

    @property
    def open(self) -> int:
        return len(self._holders)

    def held_by(self, host: str) -> int:
        return self._by_address.get(address_key(host), 0)

    def _exempt(self, host: str) -> bool:
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(address in network for network in self.exempt)

    def admit(self, transport: asyncio.BaseTransport, host: str | None) -> bytes | None:
        if self.capacity is None:
            self.capacity = self._measure_capacity()
        if len(self._holders) >= self.capacity:
            self.refused["capacity"] += 1
            return BUSY
        key = address_key(host or "?")
        held = self._by_address.get(key, 0)
        if (
            self.per_address
            and held >= self.per_address
            and not self._exempt(host or "")
        ):
            self.refused["per_address"] += 1
            return TOO_MANY
        self._holders[transport] = key
        self._by_address[key] = held + 1
        return None

    def _measure_capacity(self) -> int:
        """What fits beside what the started server holds (pools, listener, logs, socket).

        Measured at the first connection, when the application's startup has opened its
        pools; the first connection itself does not count.
        """
        open_now = open_descriptors() - 1
        capacity = client_capacity(self.limit, open_now, self.reserved)
        log.info(
            "descriptor limit %d, %d open, %d kept back: up to %d client connections, "
            "%s per address",
            self.limit,
            open_now,
            self.reserved,
            capacity,
            self.per_address or "any number",
        )
        return capacity

    def release(self, transport: asyncio.BaseTransport) -> None:
        key = self._holders.pop(transport, None)
        if key is None:
            return
        note_connection_closed()
        left = self._by_address[key] - 1
        if left:
            self._by_address[key] = left
        else:
            del self._by_address[key]


def guarded_protocols(
    budget: ConnectionBudget,
    header_timeout_s: float,
    websockets: type[WebSocketsSansIOProtocol] = WebSocketsSansIOProtocol,
) -> tuple[type[HttpToolsProtocol], type[WebSocketsSansIOProtocol]]:
    """uvicorn protocol classes (its ``http=`` and ``ws=``) that apply `budget` and the
    deadline; the websocket one extends `websockets` (app/ops/ws_transport.py's bounded one)."""

    class GuardedWebSocket(websockets):  # type: ignore[valid-type,misc]
        """uvicorn's websocket protocol, giving the connection's slot back when it closes."""

        def connection_lost(self, exc: Exception | None) -> None:
            budget.release(self.transport)
            super().connection_lost(exc)

    class GuardedHTTP(HttpToolsProtocol):
        """uvicorn's httptools protocol with a budget of connections and a head deadline,
        which ends a connection whose response came before its request's whole body."""

        _head_deadline: asyncio.TimerHandle | None = None
        _head_bytes = 0
        _linger_after = False  # the response under way came before its body's end
        _lingering: asyncio.TimerHandle | None = None
        _lingered = 0

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            refusal = budget.admit(transport, self.client[0] if self.client else None)
            if refusal is not None:
                log.debug("refused a connection from %s", self.client)
                transport.write(refusal)
                transport.close()
                return
            self._await_head()

        def connection_lost(self, exc: Exception | None) -> None:
            self._head_received()
            if self._lingering is not None:
                self._lingering.cancel()
            budget.release(self.transport)
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            if self._lingering is not None:  # the rest of a body already answered
                self._lingered += len(data)
                if self._lingered > LINGER_BYTES:
                    self._stop_lingering()
                return
            super().data_received(data)
            if self._head_deadline is None or self.transport.is_closing():
                return
            # Still inside a head: everything of this chunk belonged to it.
            self._head_bytes += len(data)
            if self._head_bytes > MAX_HEAD_BYTES:
                self._head_received()
                self.transport.write(HEAD_TOO_LARGE)
                self.transport.close()

        def handle_websocket_upgrade(self) -> None:
            super().handle_websocket_upgrade()
            # Done with: the transport is the websocket protocol's now. Its parser calls
            # back into it, a cycle that only a full collection would free (about 3 KB a
            # socket until then; docs/journal/benchmarks-history.md, issue 35): broken here.
            self.parser = None  # type: ignore[assignment]

        def on_headers_complete(self) -> None:
            self._head_received()
            before = self.cycle
            super().on_headers_complete()
            if self.cycle is not before:  # a new request (not a websocket upgrade)
                self._close_if_answered_early(self.cycle)

        def _close_if_answered_early(self, cycle: RequestResponseCycle) -> None:
            """Make `cycle`'s response end the connection if it starts before the body
            has all arrived (`more_body`: uvicorn has not seen the message's end)."""
            send = cycle.send

            async def send_then_close(message: ASGISendEvent) -> None:
                if message["type"] != "http.response.start" or not cycle.more_body:
                    await send(message)
                    return
                self._linger_after = True
                cycle.keep_alive = False  # uvicorn writes "connection: close" ...
                await send(message)
                # ... and would close the transport after the body, with the rest of the
                # request unread: a reset, which can lose the response. The close is
                # `_linger`'s, once the response is complete.
                cycle.keep_alive = True

            cycle.send = send_then_close  # type: ignore[method-assign]

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if self._linger_after:
                self._linger()
                return
            # uvicorn arms its keep-alive timer exactly when it waits for the next request,
            # which any byte disarms: the next head gets its own deadline.
            if self.timeout_keep_alive_task is not None:
                self._await_head()

        def _linger(self) -> None:
            """Shut the sending side, drop what still comes (bounded), then close."""
            self._unset_keepalive_if_required()
            self._head_received()
            if self.transport.is_closing():
                return
            self._lingering = self.loop.call_later(LINGER_S, self._stop_lingering)
            if self.transport.can_write_eof():
                self.transport.write_eof()  # after the response: the client reads it whole

        def _stop_lingering(self) -> None:
            if self._lingering is not None:
                self._lingering.cancel()
            if not self.transport.is_closing():
                self.transport.close()

        def send_400_response(self, msg: str) -> None:
            """uvicorn's answer to bytes that are not HTTP, in the documented shape."""
            self.logger.debug("unparsable request from %s: %s", self.client, msg)
            self.transport.write(UNPARSABLE)
            self.transport.close()

        def _await_head(self) -> None:
            self._head_received()
            self._head_bytes = 0
            self._head_deadline = self.loop.call_later(
                header_timeout_s, self._head_timed_out
            )

        def _head_received(self) -> None:
            if self._head_deadline is not None:
                self._head_deadline.cancel()
                self._head_deadline = None

        def _head_timed_out(self) -> None:
            self._head_deadline = None
            if not self.transport.is_closing():
                budget.timed_out += 1
                log.debug("closed %s: no complete request head in time", self.client)
                self.transport.close()

    return GuardedHTTP, GuardedWebSocket


# -- descriptors ----------------------------------------------------------------------------


def raise_descriptor_limit() -> int:
    """Raise this process's soft RLIMIT_NOFILE to its hard limit; return the soft limit now.

    The soft limit is often 1,024 where the hard one is far higher; the embedded PostgreSQL,
    started after this, inherits the raised limit too.
    """
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = NOFILE_CEILING if hard == resource.RLIM_INFINITY else hard
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError) as error:  # e.g. above the kernel's nr_open
            log.warning("could not raise the descriptor limit to %d: %s", target, error)
    return soft


def open_descriptors() -> int:
    """How many file descriptors this process has open (Linux; 64 where /proc is missing)."""
    try:
        return (
            len(os.listdir("/proc/self/fd")) - 1
        )  # less the one listdir itself opened
    except OSError:
        return 64


def client_capacity(limit: int, open_now: int, reserved: int) -> int:
    """Client connections that fit under `limit` with `reserved` descriptors kept back.

    >>> client_capacity(1024, 30, 200)
    794
    >>> client_capacity(100, 30, 200)
    1
    """
    return max(limit - open_now - reserved, 1)
