"""One websocket client of a room as the hub sees it, and what waits in its outbox.

A connection knows its seat (or none: a spectator), the last version it was sent and the last
one written to its socket. Its messages wait in an `Outbox` (app/live/outbox.py) for its one
writer task (app/live/writer.py): texts, `Versioned` messages that bring it to a version,
the `Ack` of its move (sent inside the move's update when that is next), a `SYNC` marker (a
fresh `sync` is built when its turn comes) and `Close`.

An update that finds its connection's outbox empty and the writer waiting is written at
once, from the task that fans it out, when the server's protocol offers a synchronous write
(`direct`: app/ops/ws_transport.py): a move reaches a thousand spectators without a
thousand writer tasks waking up one after the other (docs/benchmarks.md,
"Fan-out: one room, 1,000 spectators").

A client that reads slowly must not make the server hold its backlog (docs/security.md,
"Slow readers"), so the outbox is bounded in items and bytes (`OutboxLimits`):

- a full state (a `welcome`, a `sync`) supersedes the older updates and syncs still queued,
  and a welcome the older welcomes: a client flooding `hello` holds one welcome, not 256;
- a message that replaces what its client holds of one kind (the chat's `recent`, sent after
  every welcome) supersedes the queued messages of that kind;
- a client whose outbox overflows is sent one `sync` instead of everything it missed;
- a client that stays behind (its outbox overflowed `overflows` times, or it has not caught
  up `behind_s` seconds after the first overflow) is given up on: nothing more is queued,
  its writer is stopped wherever it waits and the socket is closed with `CLOSE_BEHIND`.
"""

from __future__ import annotations

import asyncio
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

from app.config.settings import Settings
from app.live.messages import Stamped, later
from app.live.outbox import Outbox
from app.store.rows import SeatRow

SYNC = object()  # queue marker: build a fresh `sync` for this connection when sending

# Every `sync` this process queued, by why (docs/scaling.md, "Syncs"): the heartbeat logs
# the counts when they change. In steady play with nothing lost none is sent.
SYNC_REASONS: Counter[str] = Counter()

# Close code for a client given up on because it stayed behind (docs/protocol.md).
CLOSE_BEHIND = 4413

MARKER_BYTES = 128  # what an item without a text (a marker, an ack) is counted as


class Versioned(NamedTuple):
    """Queue item: a message that brings its connection to `version` (welcome, update…)."""

    version: int
    text: str
    update: bool = False  # an `update` (which can carry the mover's ack)
    state: Literal["welcome", "sync"] | None = None  # a full state (it supersedes)


class Ack(NamedTuple):
    """Queue item: the ack of this client's move; sent inside the move's update when that
    update is the next item (docs/protocol.md), else on its own."""

    version: int
    move_id: str
    duplicate: bool


@dataclass(frozen=True)
class Close:
    """Queue marker: close the websocket with this code once what precedes is sent."""

    code: int


@dataclass(frozen=True)
class OutboxLimits:
    """How much may wait for one client, and how long it may stay behind."""

    items: int = 256
    bytes: int = 256 * 1024
    overflows: int = 3
    behind_s: float = 30.0

    @classmethod
    def of(cls, settings: Settings) -> OutboxLimits:
        return cls(
            bytes=settings.ws_outbox_bytes,
            overflows=settings.ws_outbox_overflows,
            behind_s=settings.ws_behind_s,
        )


def weigh(item: object) -> int:
    """The bytes an outbox item holds: its text as stored in memory (counted for every
    connection it is queued to, though the text of an update is shared), or a few."""
    if isinstance(item, str):
        return sys.getsizeof(item)
    text = getattr(item, "text", None)  # Versioned, and Stamped (app/live/messages.py)
    if isinstance(text, str):
        return sys.getsizeof(text) + MARKER_BYTES
    return MARKER_BYTES


def _full_state(item: object) -> bool:
    return isinstance(item, Versioned) and item.state is not None


class Connection:
    """One websocket client of one room, as the hub sees it."""

    def __init__(self, room_id: str, limits: OutboxLimits | None = None) -> None:
        self.room_id = room_id
        self.seat: SeatRow | None = None
        self.number: int | None = (
            None  # current seat number (changes once: at the start)
        )
        # The last version this client was sent; None until its welcome is queued.
        self.version: int | None = None
        # The last version actually written to its socket (what a `sync` starts from when
        # queued messages had to be dropped).
        self.delivered: int | None = None
        # The highest version any message written to its socket carried, acks included:
        # every later message carries at least this one (docs/protocol.md, "Versions").
        self.shown: int | None = None
        # The last room status (and `you`) it was sent, to send no unchanged copy.
        self.room_key = b""
        self.syncing = False
        self.limits = limits or OutboxLimits()
        self.queue = Outbox(self.limits.items, self.limits.bytes, weigh)
        # Overflows since the client last caught up, and the timer that gives up on it.
        self.overflows = 0
        self._behind: asyncio.TimerHandle | None = None
        # The close code once this connection has given up on its client (or is gone).
        self.dropped: int | None = None
        # Its writer task (app/live/writer.py), stopped by `drop` wherever it waits.
        self.writer: asyncio.Task[None] | None = None
        # Writes a text to the socket at once, or says False (it cannot now): the server
        # protocol's `write_now`, where it offers one (app/ops/ws_transport.py).
        self.direct: Callable[[str], bool] | None = None
        # Its client's move is being submitted: the move's update waits in the outbox for
        # the ack it carries (app/live/writer.py), rather than being written at once.
        self.moving = False

    def limit(self, limits: OutboxLimits) -> None:
        """Apply the deployment's limits (the writer does, from the settings, at its start)."""
        self.limits = limits
        self.queue.limit, self.queue.max_bytes = limits.items, limits.bytes

    @property
    def audience(self) -> int | None:
        return self.number

    def you(self) -> dict[str, Any]:
        if self.seat is None:
            return {"seat": None, "role": "spectator", "name": None, "is_host": False}
        return {
            "seat": self.number,
            "role": "player",
            "name": self.seat.name,
            "is_host": self.seat.is_host,
        }

    # --- queueing ---------------------------------------------------------------------------

    def put(self, item: object) -> None:
        """Queue a message; a client too slow to keep up gets one `sync` instead."""
        if self.dropped is not None:
            return
        if not self.queue.put(item):
            self._empty_queue()
            self.version = self.delivered  # the sync brings every event since then
            self.want_sync("overflow")
            self._fell_behind()

    def put_version(self, version: int, text: str, update: bool = False) -> None:
        """Queue a message that brings this client to `version` (or write it at once)."""
        self.version = version
        if self._write_now(text):
            self.delivered = version
            self.shown = later(self.shown, version)
            return
        self.put(Versioned(version, text, update))

    def _write_now(self, text: str) -> bool:
        """Write `text` to the socket now if nothing is before it: the outbox empty, its
        writer waiting for more (not in the middle of a send), no move of its own on the
        way, and the socket taking bytes."""
        direct = self.direct
        return (
            direct is not None
            and self.dropped is None
            and not self.moving
            and not self.queue
            and self.queue.waiting
            and direct(text)
        )

    def put_replacing(self, item: Stamped) -> None:
        """Queue a `Stamped` message (app/live/messages.py) that replaces what its client
        holds of its kind: the queued messages of that kind are superseded."""
        if self.dropped is not None:
            return
        self.queue.remove(
            lambda queued: isinstance(queued, Stamped) and queued.kind == item.kind
        )
        self.put(item)

    def put_welcome(self, version: int, text: str) -> None:
        """Queue a `welcome`: it supersedes queued welcomes, syncs and updates up to it."""
        self._put_state(Versioned(version, text, state="welcome"))

    def put_sync(self, version: int, text: str, reason: str) -> None:
        """Queue a built `sync`: it supersedes queued syncs and updates up to it (not a
        welcome, which the client waits for after its hello)."""
        SYNC_REASONS[reason] += 1
        self._put_state(Versioned(version, text, state="sync"))

    def _put_state(self, item: Versioned) -> None:
        self.version = item.version
        if self.dropped is not None:
            return

        def superseded(queued: object) -> bool:
            return (
                isinstance(queued, Versioned)
                and queued.version <= item.version
                and (item.state == "welcome" or queued.state != "welcome")
            )

        self.queue.remove(superseded)
        if not self.queue.put(item):  # what else waits matters less than the state
            self._empty_queue()
            self.queue.force(item)
            self._fell_behind()

    def want_sync(self, reason: str) -> None:
        """Queue a `sync` for this client, counted under `reason` (`SYNC_REASONS`)."""
        if self.dropped is None and not self.syncing:
            self.syncing = True
            SYNC_REASONS[reason] += 1
            self.queue.force(SYNC)

    def _empty_queue(self) -> None:
        """Drop what waits, except a close: a sync or a full state replaces it."""
        self.queue.remove(lambda item: not isinstance(item, Close))
        self.syncing = False  # a queued SYNC marker went with the rest

    # --- falling behind ---------------------------------------------------------------------

    def _fell_behind(self) -> None:
        self.overflows += 1
        if self.overflows >= self.limits.overflows:
            self.drop()
        elif self._behind is None:
            loop = asyncio.get_running_loop()
            self._behind = loop.call_later(self.limits.behind_s, self.drop)

    def caught_up(self) -> None:
        """Everything queued has been written (the writer is about to wait for more)."""
        self.overflows = 0
        if self._behind is not None:
            self._behind.cancel()
            self._behind = None

    def drop(self, code: int = CLOSE_BEHIND) -> None:
        """Give up on this client: queue nothing more and have the writer close the socket
        (it is cancelled, since it may be stuck sending to a client that does not read)."""
        if self.dropped is not None:
            return
        self.dropped = code
        self.caught_up()  # the timer is done with
        self.queue.clear()
        if self.writer is not None:
            self.writer.cancel()

    def release(self) -> None:
        """The socket is gone: hold nothing (a late `put` from the hub is ignored)."""
        self.dropped = self.dropped or 1000
        self.caught_up()
        self.queue.clear()
        self.writer = None
        self.direct = None
