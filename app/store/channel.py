"""The notice channel: the NOTIFY by which every instance hears that a room changed.

Every write that others must hear about sends `NOTIFY` in the same transaction, so the
notice is delivered only once the change is committed; a room's change goes through
`bump_revision` (app/store/revision.py). app/notices/listener.py listens, on a `Listening`
connection of this module (its own, outside the pools: LISTEN is session state).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from enum import StrEnum

import asyncpg  # type: ignore[import-untyped]

CHANNEL = "ishtar_rooms"

NOTIFY = "SELECT pg_notify($1, $2)"
NOTIFY_MANY = "SELECT pg_notify($1, n) FROM unnest($2::text[]) WITH ORDINALITY AS t(n, i) ORDER BY i"


class NoticeKind(StrEnum):
    """What a notice says changed: the second word of its payload, one letter on the wire.

    Room notices (app/live/hub.py `notice`): a move (the new version), the room itself (its
    revision), presence, a chat message (its number). Instance notices (app/notices/peers.py,
    the room's place taken by the instance's id): an instance started, is here, stopped;
    and an instance took up or left a room (the room's id, its own as the detail)."""

    MOVE = "m"
    ROOM = "r"
    PRESENCE = "p"
    CHAT = "c"
    HELLO = "h"
    HERE = "i"
    BYE = "b"
    SERVE = "s"


ROOM_KINDS = frozenset(
    (NoticeKind.MOVE, NoticeKind.ROOM, NoticeKind.PRESENCE, NoticeKind.CHAT)
)
"""The kinds about a room; the others are about an instance (`PEER_KINDS`)."""

PEER_KINDS = frozenset((NoticeKind.HELLO, NoticeKind.HERE, NoticeKind.BYE))


NOTICE_BYTES = 7900
"""The most a notice may take (PostgreSQL refuses a NOTIFY payload of 8,000 bytes or more):
a longer one goes without its detail."""


def notice(
    room_id: str, kind: NoticeKind, number: int, detail: str | None = None
) -> str:
    """The NOTIFY payload: the room, what changed and the new version or revision;
    `detail`, after them, what the others would otherwise read back from the database (a
    move's log entry), if the whole fits in `NOTICE_BYTES`."""
    head = f"{room_id} {kind.value} {number}"
    if detail is None:
        return head
    whole = f"{head} {detail}"
    return whole if len(whole.encode()) <= NOTICE_BYTES else head


class Listening:
    """One connection LISTENing on the channel, handing each payload to `deliver`.

    `lost` is set when the connection ends (PostgreSQL restarted, network cut); `ping`
    finds a half-open one. Open with `listen`."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        self._conn = conn
        self.lost = asyncio.Event()
        conn.add_termination_listener(lambda _conn: self.lost.set())

    async def ping(self, timeout_s: float) -> None:
        """A round trip within `timeout_s` seconds, or an error."""
        await asyncio.wait_for(self._conn.fetchval("SELECT 1"), timeout_s)

    def close(self) -> None:
        self._conn.terminate()


async def listen(
    dsn: str, deliver: Callable[[str], None], timeout_s: float
) -> Listening:
    """A new connection to `dsn` (within `timeout_s` seconds) that LISTENs on the channel."""
    conn = await asyncpg.connect(dsn, timeout=timeout_s)
    try:
        listening = Listening(conn)
        await conn.add_listener(
            CHANNEL, lambda _conn, _pid, _channel, payload: deliver(str(payload))
        )
    except BaseException:
        conn.terminate()
        raise
    return listening
