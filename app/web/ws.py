"""The room websocket `/ws/rooms/{id}`: parse, delegate to the service and the hub, answer.

Per connection: a cap of connections per client address, the `Origin` check at the
handshake, `hello` first (within a deadline), and two sides. The receiving side counts
every frame as it arrives (the size limit, the rate limit, a tighter one on `hello`),
answers what it refuses at once, and hands what it accepts to a handler that works through
them one at a time, in order, from a small bounded inbox; once the socket is gone, nothing
left in the inbox is handled (docs/security.md, "Floods of frames"). One writer task
(app/live/writer.py) sends the connection's queue in order (acks, errors, updates, syncs),
stamping every message with a version that never goes down (docs/protocol.md, "Versions").
No rules and no SQL here.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect

from app.config.flags import Flag
from app.config.settings import Settings
from app.live.connection import Ack, Close, Connection
from app.live.hub import Hub
from app.live.messages import (
    chat_error_message,
    error_message,
    later,
    pong_message,
)
from app.live.writer import send_queued
from app.play.limits import TokenBucket
from app.play.protocol import (
    ChatSay,
    ChatSettings,
    ClientMessage,
    Hello,
    MoveMessage,
    ServiceError,
    msg,
    parse_client_message,
    unavailable,
)
from app.play.service import RoomService

log = logging.getLogger("ishtar.ws")
router = APIRouter()

FLOOD_CLOSE_AFTER = (
    50  # consecutive rate-limited frames before the connection is closed
)
CLOSE_CODES = {"bad_token": 4401, "unknown_room": 4404}
CLOSE_RETRY = 1013
DIRECT_WRITE = "ishtar.write_now"  # the ASGI extension of app/ops/ws_transport.py  # RFC 6455 "try again later": a hello that failed after its welcome
# Accepted frames waiting for the handler: a client that waits for its answers has one or
# two; more means it sends faster than the server answers, and the excess is refused.
INBOX_FRAMES = 32
INBOX_BYTES = 64 * 1024
# The refusals of a flood, and their messages (keys of static/i18n/*.json).
FLOOD_MESSAGES = "Too many messages; slow down."
FLOOD_HELLOS = "Too many hellos; one is enough."
FLOOD_WAITING = "Too many messages waiting; wait for the answers."
FLOOD_KEYS = {
    FLOOD_MESSAGES: "error.rate_limited.messages",
    FLOOD_HELLOS: "error.rate_limited.hellos",
    FLOOD_WAITING: "error.rate_limited.waiting",
}


def origin_allowed(origin: str | None, host: str | None, allowed: list[str]) -> bool:
    """Browsers always send Origin: it must be this host or in the allow-list.

    >>> origin_allowed("http://localhost:8000", "localhost:8000", [])
    True
    >>> origin_allowed("https://evil.example", "localhost:8000", [])
    False
    >>> origin_allowed(None, "localhost:8000", [])
    True
    """
    if origin is None:
        return True  # not a browser: nothing to protect with an Origin check
    if "*" in allowed or origin.rstrip("/") in allowed:
        return True
    return bool(host) and urlsplit(origin).netloc.lower() == (host or "").lower()


def move_id_of(text: str | None) -> str | None:
    """The move_id of a frame that looks like a move (to answer it even when refusing it).

    >>> move_id_of('{"type": "move", "move_id": "m1"}')
    'm1'
    >>> move_id_of('{"type": "ping"}') is None
    True
    """
    if text is None or len(text) > 4096 or '"move_id"' not in text:
        return None
    try:
        message = json.loads(text)
    except ValueError:
        return None
    move_id = message.get("move_id") if isinstance(message, dict) else None
    return move_id if isinstance(move_id, str) and len(move_id) <= 64 else None


# Starlette's route, not FastAPI's `@router.websocket`: the handler needs no dependency
# injection, and FastAPI's would keep three exit stacks and their frames alive for as long
# as each connection lasts (docs/journal/benchmarks-history.md, "Fourth pass: where a
# room's memory goes").
async def room_socket(websocket: WebSocket) -> None:
    room_id: str = websocket.path_params["room_id"]
    settings: Settings = websocket.app.state.settings
    origin = websocket.headers.get("origin")
    if not origin_allowed(
        origin, websocket.headers.get("host"), settings.allowed_origins
    ):
        await websocket.close(code=1008)  # before accept: the handshake gets HTTP 403
        return
    hub: Hub = websocket.app.state.hub
    address = websocket.client.host if websocket.client else "?"
    if not hub.addresses.acquire(address, settings.ws_connections_per_address):
        await refuse_address(websocket, settings.ws_connections_per_address)
        return
    try:
        await websocket.accept()
        conn = Connection(room_id)
        # `ishtar serve`'s protocol writes a text at once when it can (ws_transport.py).
        conn.direct = websocket.scope.get("extensions", {}).get(DIRECT_WRITE)
        writer = asyncio.get_running_loop().create_task(
            send_queued(websocket, conn, hub)
        )
        session = Session(websocket, conn, hub, settings)
        try:
            await session.run()
        except WebSocketDisconnect:
            pass
        finally:
            hub.disconnect(conn)
            if session.closing or conn.dropped is not None:  # let it send what precedes
                await asyncio.wait([writer], timeout=2.0)
            writer.cancel()
            # Waited for, not awaited: its end is not raised into this frame, whose traceback
            # would then hold the writer task and, through it, the whole connection in a
            # garbage cycle (docs/security.md, "Reconnects").
            await asyncio.wait([writer])
            conn.release()
    finally:
        hub.addresses.release(address)


ROOM_SOCKET_PATH = "/ws/rooms/{room_id}"
router.add_websocket_route(ROOM_SOCKET_PATH, room_socket)


async def refuse_address(websocket: WebSocket, limit: int) -> None:
    """Over the cap of connections per address: say so, then close (4429)."""
    await websocket.accept()
    reason = f"Too many connections from your address (at most {limit}); close some."
    words = msg("error.rate_limited.connections", max=limit)
    error = error_message(ServiceError("rate_limited", reason, message=words))
    with contextlib.suppress(Exception):
        await websocket.send_text(error.text)
        await websocket.close(4429)


class Session:
    """The receiving side of one connection: counts frames on arrival, handles in order."""

    def __init__(
        self, websocket: WebSocket, conn: Connection, hub: Hub, settings: Settings
    ) -> None:
        self.websocket = websocket
        self.conn = conn
        self.hub = hub
        self.service: RoomService = hub.service
        self.max_bytes = settings.max_message_bytes
        self.hello_timeout_s = settings.ws_hello_timeout_s
        self.bucket = TokenBucket(settings.ws_messages_per_s, settings.ws_burst)
        self.hellos = TokenBucket(
            settings.ws_hellos_per_minute / 60, settings.ws_hello_burst
        )
        # A list, not a deque: at most INBOX_FRAMES items, mostly none (an empty deque
        # is 760 bytes on every socket).
        self.inbox: list[tuple[ClientMessage, int]] = []
        self.inbox_bytes = 0
        self.inbox_bytes_limit = max(INBOX_BYTES, 2 * self.max_bytes)
        self.wake = Flag()
        self.flooding = 0
        self.said_hello = False  # a hello arrived (it may not be handled yet)
        self.greeted = False  # a hello was handled: the connection is in its room
        self.closing = False
        self.gone = False  # the socket is closed: nothing more is handled
        self.chat_window = self.service.chat.connection_window()

    def fail(
        self, error: ServiceError, move_id: str | None = None, *, own: bool = False
    ) -> None:
        """Queue an error, at the version this connection is at. `own`: the error's own
        version, when a `sync` at that version follows it (stale_version)."""
        version = later(error.version, self.conn.version) if own else self.conn.version
        self.conn.put(error_message(error, move_id, version))

    def close(self, code: int) -> None:
        self.closing = True
        self.wake.set()
        self.conn.put(Close(code))

    async def run(self) -> None:
        """Receive until the socket is gone or closing, handling accepted frames meanwhile."""
        receiver = asyncio.get_running_loop().create_task(self.receive_all())
        try:
            await self.handle_all()
        finally:
            if not receiver.done():
                receiver.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await receiver

    # --- receiving --------------------------------------------------------------------------

    async def receive_all(self) -> None:
        """Read every frame as it comes; returns once the socket is gone or closing."""
        deadline = asyncio.get_running_loop().time() + self.hello_timeout_s
        try:
            while not self.closing:
                try:
                    if self.said_hello:
                        message = await self.websocket.receive()
                    else:  # whatever else it sends, a client must say hello in time
                        left = deadline - asyncio.get_running_loop().time()
                        message = await asyncio.wait_for(
                            self.websocket.receive(), max(left, 0)
                        )
                except TimeoutError:
                    reason = (
                        f"Say hello first (no hello in {self.hello_timeout_s:g} s)."
                    )
                    words = msg("error.hello_required.timeout", s=self.hello_timeout_s)
                    self.fail(ServiceError("hello_required", reason, message=words))
                    self.close(4408)
                    return
                if message["type"] == "websocket.disconnect":
                    return
                text = message.get("text")
                self.arrived(text if isinstance(text, str) else None)
        finally:
            if not self.closing:
                self.gone = True
                self.inbox.clear()
                self.inbox_bytes = 0
            self.wake.set()

    def arrived(self, text: str | None) -> None:
        """Count a frame; answer it at once if refused, else queue it for the handler."""
        version = self.conn.version
        if not self.bucket.take():
            self.refuse_flood(text, FLOOD_MESSAGES)
            return
        if text is None:
            words = msg("error.malformed.text_frames")
            reason = "Send JSON in text frames."
            self.fail(ServiceError("malformed", reason, version, message=words))
            self.flooding = 0
            return
        if len(text) > self.max_bytes or (
            len(text) * 4 > self.max_bytes and len(text.encode()) > self.max_bytes
        ):
            limit = f"Messages are limited to {self.max_bytes} bytes."
            words = msg("error.too_large.frame", max=self.max_bytes)
            self.fail(ServiceError("too_large", limit, version, message=words))
            self.flooding = 0
            return
        try:
            message = parse_client_message(text)
        except ServiceError as error:
            self.fail(error)
            self.flooding = 0
            return
        if isinstance(message, Hello):
            if not self.hellos.take():
                self.refuse_flood(text, FLOOD_HELLOS)
                return
            self.said_hello = True
        elif not self.said_hello:
            self.fail(ServiceError("hello_required", "Say hello first."))
            self.flooding = 0
            return
        if (
            len(self.inbox) >= INBOX_FRAMES
            or self.inbox_bytes + len(text) > self.inbox_bytes_limit
        ):
            self.refuse_flood(text, FLOOD_WAITING)
            return
        self.flooding = 0
        self.inbox.append((message, len(text)))
        self.inbox_bytes += len(text)
        self.wake.set()

    def refuse_flood(self, text: str | None, reason: str) -> None:
        """A frame over a rate limit: answered (a move always, so its sender knows to retry
        it; other frames now and then), and a connection that keeps on is closed."""
        self.flooding += 1
        if self.flooding >= FLOOD_CLOSE_AFTER:
            self.close(4429)
            return
        move_id = move_id_of(text)
        if move_id is not None or self.flooding == 1 or self.flooding % 10 == 0:
            words = msg(FLOOD_KEYS.get(reason, "error.rate_limited"))
            self.fail(ServiceError("rate_limited", reason, message=words), move_id)

    # --- handling ---------------------------------------------------------------------------

    async def handle_all(self) -> None:
        """Handle accepted frames in order until the socket is gone or closing."""
        while not (self.closing or self.gone):
            if not self.inbox:
                self.wake.clear()
                await self.wake.wait()
                continue
            message, size = self.inbox.pop(0)
            self.inbox_bytes -= size
            await self.handle(message)

    async def handle(self, message: ClientMessage) -> None:
        move_id: str | None = None
        try:
            if isinstance(message, Hello):
                await self.hello(message)
            elif not self.greeted:
                raise ServiceError("hello_required", "Say hello first.")
            elif isinstance(message, MoveMessage):
                move_id = message.move_id
                await self.move(message)
            elif isinstance(message, ChatSay | ChatSettings):
                await self.chat(message)
            else:
                self.conn.put(pong_message(self.conn.version or 0))
        except ServiceError as error:
            stale = error.code == "stale_version"
            self.fail(error, move_id, own=stale)
            if stale:
                self.hub.send_stale(self.conn, error)
            if not self.greeted and error.code in CLOSE_CODES:
                self.close(CLOSE_CODES[error.code])
        except Exception as error:
            if not unavailable(error):
                log.exception("unexpected error in room %s", self.conn.room_id)
                reason = "Something went wrong on the server."
                self.fail(ServiceError("internal", reason), move_id)
                return
            log.warning("database unavailable: %s", error)
            reason = "The database is unavailable; retry shortly."
            self.fail(ServiceError("unavailable", reason), move_id)

    async def hello(self, hello: Hello) -> None:
        if self.greeted:
            # A second hello re-synchronises this connection from `since`.
            self.hub.disconnect(self.conn)
            self.conn.version = None
        try:
            await self.hub.connect(self.conn, hello.token, hello.since)
        except Exception as error:
            if self.conn.version is None:
                raise  # nothing was sent: the refusal is answered as any other
            # Its welcome was queued before a later step (the chat's latest) failed: a
            # half-greeted connection would wait for ever, so it says so and is closed
            # (1013, try again later); the client reconnects with a new hello.
            if not unavailable(error):
                log.exception("hello failed in room %s", self.conn.room_id)
            reason = "The database is unavailable; retry shortly."
            self.fail(ServiceError("unavailable", reason))
            self.conn.version = None
            self.close(CLOSE_RETRY)
            return
        self.greeted = True

    async def move(self, message: MoveMessage) -> None:
        if self.conn.seat is None:
            raise ServiceError(
                "forbidden",
                "Spectators cannot move: take a seat first.",
                message=msg("error.forbidden.spectator_move"),
            )
        self.conn.moving = True  # its update waits for the ack it will carry
        try:
            accepted = await self.service.moves.submit(
                self.conn.room_id, self.conn.seat, message
            )
        finally:
            self.conn.moving = False
        known = self.conn.version
        self.conn.put(Ack(accepted.version, message.move_id, accepted.duplicate))
        if (
            not accepted.duplicate
            and known is not None
            and accepted.version > known + 1
        ):
            # Moved at a version learnt elsewhere (another tab, HTTP): the updates between
            # would come after this ack with lower versions; a sync follows it instead.
            self.conn.want_sync("moved_elsewhere")

    async def chat(self, message: ChatSay | ChatSettings) -> None:
        """A chat message or the host's switch (app/play/chat.py); a refusal is an error
        marked `"about": "chat"`. A message sent is fanned out from here at once, and to
        the other instances by its notice."""
        chat = self.service.chat
        try:
            if isinstance(message, ChatSettings):
                await chat.set_spectators(
                    self.conn.room_id, message.spectators, seat=self.conn.seat
                )
                return
            client = self.websocket.client
            line = await chat.send(
                self.conn.room_id,
                self.conn.seat,
                channel=message.channel,
                text=message.text,
                name=message.name,
                address=client.host if client else None,
                window=self.chat_window,
            )
        except ServiceError as error:
            self.conn.put(chat_error_message(error, self.conn.version))
            return
        self.hub.chat_sent(self.conn.room_id, line)
