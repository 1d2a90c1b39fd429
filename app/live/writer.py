"""The writer of a room's websocket: one task per connection sends its outbox in order.

It writes what the hub and the session queue (acks, errors, updates, syncs), merges the ack
of a move into the move's update when the two meet in the queue (one message instead of two),
builds a `sync` when its marker's turn comes, and stamps every message with a version that
never goes down (docs/protocol.md, "Versions").
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from starlette.websockets import WebSocket, WebSocketDisconnect

from app.live.connection import SYNC, Ack, Close, Connection, OutboxLimits, Versioned
from app.live.hub import Hub
from app.live.messages import Stamped, ack_message, later, with_ack

# The websocket's logger, as before the writer moved here: operators filter on it.
log = logging.getLogger("ishtar.ws")


async def send_queued(websocket: WebSocket, conn: Connection, hub: Hub) -> None:
    """Send the connection's queue in order; `sync` markers are built when their turn comes.

    It ends when the socket does: a failed send is the client leaving, not an error, and it
    ends with no exception (one would hold this task and the connection in a cycle). When
    the connection gives up on a client that stays behind (app/live/connection.py) it cancels
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
                delivered, shown = conn.version, later(conn.shown, conn.version)
            else:
                text, delivered, shown = _rendered(item, conn)
            if not (_shared(item, text) and conn.direct and conn.direct(text)):
                await websocket.send_text(text)
            conn.delivered, conn.shown = delivered, shown
            # Not kept while waiting for the next: the seat to act's update carries its
            # legal list (tens of KB in a place step), and a player thinks for minutes.
            del item, text
    except asyncio.CancelledError:
        # No local holds the task here: the re-raised error keeps this frame alive from
        # the task, and a `task` local made a cycle of task, error and connection.
        if conn.dropped is None or _cancelled_beside_the_drop():
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


def _shared(item: object, text: str) -> bool:
    """Whether `text` is an update as fanned out, the same for its whole audience (its
    frame is then built once: app/ops/ws_frames.py), not one that carries an ack."""
    return isinstance(item, Versioned) and item.update and text is item.text


def _cancelled_beside_the_drop() -> bool:
    """Whether the running task has a cancellation other than the connection's drop."""
    task = asyncio.current_task()
    return task is not None and task.uncancel() > 0


def _rendered(item: object, conn: Connection) -> tuple[str, int | None, int | None]:
    """What to write for a queued item: the text, the connection's `delivered` and `shown`
    versions once it is written. Welcome, update and sync carry their own version (never
    below what was shown: see docs/protocol.md); any other message carries its own or
    the connection's highest so far, whichever is later."""
    if isinstance(item, Versioned):
        text = _versioned_text(item, conn)
        return text, item.version, later(conn.shown, item.version)
    if isinstance(item, Ack):
        return _ack_text(item, conn)
    if isinstance(item, Stamped):
        version = later(item.version, conn.shown)
        return item.at(version), conn.delivered, version
    return str(item), conn.delivered, conn.shown


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


def _ack_text(ack: Ack, conn: Connection) -> tuple[str, int | None, int | None]:
    """The ack of a move: inside its update when that is next in the queue (one message
    instead of two, whichever of the two was queued first)."""
    update = conn.queue.take_if(lambda queued: _belong(queued, ack))
    if isinstance(update, Versioned):
        shown = later(conn.shown, update.version)
        return with_ack(update.text, ack.move_id), update.version, shown
    version = later(ack.version, conn.shown)
    assert version is not None
    text = ack_message(ack.move_id, version, ack.version, ack.duplicate)
    return text, conn.delivered, version
