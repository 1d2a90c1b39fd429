"""One websocket client of a room as the hub sees it, and what waits in its outbox.

A connection knows its seat (or none: a spectator), the last version it was sent and the last
one written to its socket. Its messages wait in an `Outbox` (app/outbox.py) for its one
writer task (app/ws.py): texts, `Versioned` messages that bring it to a version, the `Ack` of
its move (sent inside the move's update when that is next), a `SYNC` marker (a fresh `sync`
is built when its turn comes) and `Close`. A client too slow to keep up is sent one `sync`
instead of everything it missed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from app.outbox import Outbox
from app.rows import SeatRow

SYNC = object()  # queue marker: build a fresh `sync` for this connection when sending


class Versioned(NamedTuple):
    """Queue item: a message that brings its connection to `version` (welcome, update…)."""

    version: int
    text: str
    update: bool = False  # an `update` (which can carry the mover's ack)


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


class Connection:
    """One websocket client of one room, as the hub sees it."""

    def __init__(self, room_id: str, queue_size: int = 256) -> None:
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
        self.room_key = ""
        self.syncing = False
        self.queue = Outbox(queue_size)

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

    def put(self, item: object) -> None:
        """Queue a message; a client too slow to keep up gets one `sync` instead."""
        if not self.queue.put(item):
            self.queue.clear()
            self.version = self.delivered  # the sync brings every event since then
            self.want_sync()

    def put_version(self, version: int, text: str, update: bool = False) -> None:
        """Queue a message that brings this client to `version`."""
        self.version = version
        self.put(Versioned(version, text, update))

    def want_sync(self) -> None:
        if not self.syncing:
            self.syncing = True
            self.queue.force(SYNC)
