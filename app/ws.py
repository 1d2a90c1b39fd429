"""The room websocket `/ws/rooms/{id}`: parse, delegate to the service and the hub, answer.

Per connection: the `Origin` check at the handshake, `hello` first (within a deadline),
a size limit and a rate limit on every frame, and one writer task that sends the
connection's queue in order (acks, errors, updates, syncs). No rules and no SQL here.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect

from app.connection import SYNC, Ack, Close, Connection, OutboxLimits, Versioned
from app.hub import Hub
from app.limits import TokenBucket
from app.protocol import (
    Hello,
    MoveMessage,
    ServiceError,
    ack_message,
    error_message,
    parse_client_message,
    pong_message,
    unavailable,
    with_ack,
)
from app.rooms import RoomService
from app.settings import Settings

log = logging.getLogger("ishtar.ws")
router = APIRouter()

FLOOD_CLOSE_AFTER = (
    50  # consecutive rate-limited frames before the connection is closed
)
CLOSE_CODES = {"bad_token": 4401, "unknown_room": 4404}


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


@router.websocket("/ws/rooms/{room_id}")
async def room_socket(websocket: WebSocket, room_id: str) -> None:
    settings: Settings = websocket.app.state.settings
    origin = websocket.headers.get("origin")
    if not origin_allowed(
        origin, websocket.headers.get("host"), settings.allowed_origins
    ):
        await websocket.close(code=1008)  # before accept: the handshake gets HTTP 403
        return
    await websocket.accept()
    hub: Hub = websocket.app.state.hub
    conn = Connection(room_id)
    writer = asyncio.get_running_loop().create_task(_send_queued(websocket, conn, hub))
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


async def _send_queued(websocket: WebSocket, conn: Connection, hub: Hub) -> None:
    """Send the connection's queue in order; `sync` markers are built when their turn comes.

    It ends when the socket does: a failed send is the client leaving, not an error, and it
    ends with no exception (one would hold this task and the connection in a cycle). When
    the connection gives up on a client that stays behind (app/connection.py) it cancels
    this task wherever it waits, and the socket is closed with the connection's code.
    """
    conn.limit(OutboxLimits.of(websocket.app.state.settings))
    conn.writer = asyncio.current_task()
    try:
        while True:
            if not conn.queue:
                conn.caught_up()
            item = await conn.queue.get()
            if isinstance(item, Close):
                await websocket.close(item.code)
                return
            if item is SYNC:
                try:
                    text = await hub.sync_text(conn)
                except Exception:
                    log.warning(
                        "sync for room %s failed; the client will resync", conn.room_id
                    )
                    continue
                if text is None:
                    continue
                delivered = conn.version
            elif isinstance(item, Versioned):
                text, delivered = _versioned_text(item, conn), item.version
            elif isinstance(item, Ack):
                text, delivered = _ack_text(item, conn)
            else:
                text, delivered = str(item), conn.delivered
            await websocket.send_text(text)
            conn.delivered = delivered
    except asyncio.CancelledError:
        task = asyncio.current_task()
        if conn.dropped is None or (task is not None and task.uncancel() > 0):
            raise  # cancelled by the session, not (only) by the connection's drop
        conn.writer = None
        with contextlib.suppress(WebSocketDisconnect, RuntimeError):
            await websocket.close(conn.dropped)
    except WebSocketDisconnect:
        pass  # the client is gone; the receiving side ends the session
    except Exception:
        log.exception("writer of a connection to room %s failed", conn.room_id)
    finally:
        conn.writer = None


def _belong(update: object, ack: object) -> bool:
    """Whether `update` is the update of the move `ack` acknowledges (a first ack only)."""
    return (
        isinstance(update, Versioned)
        and update.update
        and isinstance(ack, Ack)
        and update.version == ack.version
        and not ack.duplicate
    )


def _versioned_text(item: Versioned, conn: Connection) -> str:
    """An update carries the ack of its move when that ack is next in the queue (the update
    of a move is often queued by the committing task itself, just before its ack)."""
    ack = conn.queue.take_if(lambda queued: _belong(item, queued))
    return with_ack(item.text, ack.move_id) if isinstance(ack, Ack) else item.text


def _ack_text(ack: Ack, conn: Connection) -> tuple[str, int | None]:
    """The ack of a move: inside its update when that is next in the queue (one message
    instead of two, whichever of the two was queued first)."""
    update = conn.queue.take_if(lambda queued: _belong(queued, ack))
    if isinstance(update, Versioned):
        return with_ack(update.text, ack.move_id), update.version
    return ack_message(ack.move_id, ack.version, ack.duplicate), conn.delivered


class Session:
    """The receiving side of one connection."""

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
        self.flooding = 0
        self.greeted = False
        self.closing = False

    async def receive_text(self) -> str | None:
        """The next text frame; None for a binary frame; raises WebSocketDisconnect."""
        message = await self.websocket.receive()
        if message["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(message.get("code", 1000))
        text = message.get("text")
        return text if isinstance(text, str) else None

    def fail(self, error: ServiceError, move_id: str | None = None) -> None:
        self.conn.put(error_message(error, move_id))

    def close(self, code: int) -> None:
        self.closing = True
        self.conn.put(Close(code))

    async def run(self) -> None:
        deadline = asyncio.get_running_loop().time() + self.hello_timeout_s
        while not self.closing:
            try:
                if self.greeted:
                    text = await self.receive_text()
                else:  # whatever else it sends, a client must say hello in time
                    left = deadline - asyncio.get_running_loop().time()
                    text = await asyncio.wait_for(self.receive_text(), max(left, 0))
            except TimeoutError:
                reason = f"Say hello first (no hello in {self.hello_timeout_s:g} s)."
                self.fail(ServiceError("hello_required", reason))
                self.close(4408)
                return
            await self.handle(text)

    async def handle(self, text: str | None) -> None:
        version = self.conn.version
        move_id: str | None = None
        if not self.bucket.take():
            self.flooding += 1
            if self.flooding >= FLOOD_CLOSE_AFTER:
                self.close(4429)
                return
            move_id = move_id_of(text)
            if move_id is not None or self.flooding == 1 or self.flooding % 10 == 0:
                # A refused move is always answered, so its sender knows to retry it.
                error = ServiceError(
                    "rate_limited", "Too many messages; slow down.", version
                )
                self.fail(error, move_id)
            return
        self.flooding = 0
        if text is None:
            self.fail(ServiceError("malformed", "Send JSON in text frames.", version))
            return
        if len(text) > self.max_bytes or (
            len(text) * 4 > self.max_bytes and len(text.encode()) > self.max_bytes
        ):
            self.fail(
                ServiceError(
                    "too_large",
                    f"Messages are limited to {self.max_bytes} bytes.",
                    version,
                )
            )
            return
        try:
            message = parse_client_message(text)
            if isinstance(message, Hello):
                await self.hello(message)
            elif not self.greeted:
                raise ServiceError("hello_required", "Say hello first.")
            elif isinstance(message, MoveMessage):
                move_id = message.move_id
                await self.move(message)
            else:
                self.conn.put(pong_message(self.conn.version or 0))
        except ServiceError as error:
            if error.version is None:
                error.version = self.conn.version
            self.fail(error, move_id)
            if error.code == "stale_version":
                self.hub.send_stale(self.conn, error)
            if not self.greeted and error.code in CLOSE_CODES:
                self.close(CLOSE_CODES[error.code])
        except Exception as error:
            if not unavailable(error):
                log.exception("unexpected error in room %s", self.conn.room_id)
                self.fail(
                    ServiceError(
                        "internal", "Something went wrong on the server.", version
                    ),
                    move_id,
                )
                return
            log.warning("database unavailable: %s", error)
            self.fail(
                ServiceError(
                    "unavailable",
                    "The database is unavailable; retry shortly.",
                    version,
                ),
                move_id,
            )

    async def hello(self, hello: Hello) -> None:
        if self.greeted:
            # A second hello re-synchronises this connection from `since`.
            self.hub.disconnect(self.conn)
            self.conn.version = None
        await self.hub.connect(self.conn, hello.token, hello.since)
        self.greeted = True

    async def move(self, message: MoveMessage) -> None:
        if self.conn.seat is None:
            raise ServiceError(
                "forbidden", "Spectators cannot move: take a seat first."
            )
        accepted = await self.service.submit(self.conn.room_id, self.conn.seat, message)
        self.conn.put(Ack(accepted.version, message.move_id, accepted.duplicate))
