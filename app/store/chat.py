"""Table chat in the store: a room's messages, its sequence numbers and the host's switch.

``chat_rooms`` (migration 0012) holds, per room, the last sequence number given to a message
and whether spectators may write; ``chat_messages`` the messages. Appending a message is one
transaction: it locks the room's ``chat_rooms`` row (so the room's senders, on every
instance, take their numbers one at a time and in commit order), applies the checks the
caller asked for (the spectators' switch, the author's rate over a window), inserts the
message under the next number, prunes the room's oldest messages beyond the bound, and
queues the ``c`` notice (app/store/channel.py) that every instance's hub hears once it
commits. app/play/chat.py decides what to write and what a refusal says; this module knows
SQL and no rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from app.store.channel import CHANNEL, NoticeKind
from app.store.pool import Pools
from app.store.revision import bump_revision
from app.store.rows import iso

TABLE = "table"
SPECTATORS = "spectators"


@dataclass(frozen=True)
class ChatLine:
    """One stored chat message."""

    seq: int
    channel: str
    seat: int | None
    """The author's seat number when they wrote it; None for a spectator."""
    name: str
    text: str
    at: datetime

    def as_dict(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "channel": self.channel,
            "seat": self.seat,
            "role": "spectator" if self.seat is None else "player",
            "name": self.name,
            "text": self.text,
            "at": iso(self.at),
        }


@dataclass(frozen=True)
class Refused:
    """An append the store did not make: `closed` (spectators may not write) or `rate`
    (the author's window is full: `retry_after_s` until the oldest message leaves it)."""

    why: str
    retry_after_s: float = 0.0


@dataclass(frozen=True)
class Page:
    """Messages of a room, oldest first; `earlier`: whether older ones (of those channels)
    exist; `last_seq`: the room's last number when they were read (all messages up to it
    are committed)."""

    lines: tuple[ChatLine, ...]
    earlier: bool
    last_seq: int
    hidden: int = 0
    """Messages of the spectators' channel kept from this reader (a player during the
    game): how many, never what."""


# Locks the room's counter row (creating it on a room's first message).
_LOCK = (
    "INSERT INTO chat_rooms AS c (room_id) VALUES ($1)"
    " ON CONFLICT (room_id) DO UPDATE SET last_seq = c.last_seq"
    " RETURNING c.spectators_open"
)
# How long until the author's window has room: their `$3`-th latest message in the room
# (by seat row) leaves the window of `$2` seconds; no row, or a negative wait, is room.
_WINDOW = (
    "SELECT extract(epoch FROM created_at + make_interval(secs => $2) - now())::float8"
    " FROM chat_messages WHERE seat_id = $1 ORDER BY seq DESC OFFSET $3 - 1 LIMIT 1"
)
# The next number, the message, the prune of the oldest beyond `$8` and the notice, in one
# statement. The notice is `<room> c <seq>` (app/store/channel.py, `notice`).
_APPEND = f"""
    WITH counter AS (
        UPDATE chat_rooms SET last_seq = last_seq + 1 WHERE room_id = $1
        RETURNING last_seq
    ), added AS (
        INSERT INTO chat_messages (room_id, seq, channel, seat, seat_id, name, text)
        SELECT $1, last_seq, $2, $3, $4, $5, $6 FROM counter
        RETURNING seq, created_at
    ), pruned AS (
        DELETE FROM chat_messages
        WHERE room_id = $1 AND seq <= (SELECT seq FROM added) - $8
    )
    SELECT seq, created_at, pg_notify($7, $1 || ' {NoticeKind.CHAT.value} ' || seq) FROM added
    """
_COLUMNS = "seq, channel, seat, name, text, created_at"
# The latest `$3` messages of the given channels before `$4`, with the room's last number,
# read in one snapshot: the row with the number comes even when no message does.
_PAGE = f"""
    SELECT c.last_seq, m.* FROM (
        SELECT coalesce(
            (SELECT last_seq FROM chat_rooms WHERE room_id = $1), 0
        ) AS last_seq
    ) AS c
    LEFT JOIN LATERAL (
        SELECT {_COLUMNS} FROM chat_messages
        WHERE room_id = $1 AND channel = ANY($2::text[]) AND seq < $4
        ORDER BY seq DESC LIMIT $3 + 1
    ) AS m ON true
    ORDER BY m.seq DESC
    """
_AFTER = (
    f"SELECT {_COLUMNS} FROM chat_messages WHERE room_id = $1 AND seq > $2"
    " ORDER BY seq LIMIT $3"
)
MAX_SEQ = 2**31 - 1


def _line(row: Any) -> ChatLine:
    return ChatLine(
        row["seq"],
        row["channel"],
        row["seat"],
        row["name"],
        row["text"],
        row["created_at"],
    )


class ChatStore(Pools):
    """Rooms' chat messages and settings (a part of `Store`: ``store.chat``)."""

    async def append(
        self,
        room_id: str,
        *,
        channel: str,
        seat: int | None,
        seat_id: int | None,
        name: str,
        text: str,
        keep: int,
        window: tuple[int, float] | None = None,
    ) -> ChatLine | Refused:
        """Store a message under the room's next number, or refuse it (changing nothing).

        Refused `closed` when it is the spectators' and the room closed their channel;
        `rate` when `window` = (count, seconds) and the author's seat row already wrote
        `count` messages in the last `seconds`. At most `keep` messages of the room stay."""
        async with self._transaction() as conn:
            spectators_open = await conn.fetchval(_LOCK, room_id)
            if channel == SPECTATORS and not spectators_open:
                return Refused("closed")
            if window is not None and seat_id is not None:
                count, seconds = window
                wait = await conn.fetchval(_WINDOW, seat_id, float(seconds), count)
                if wait is not None and wait > 0:
                    return Refused("rate", float(wait))
            row = await conn.fetchrow(
                _APPEND, room_id, channel, seat, seat_id, name, text, CHANNEL, keep
            )
        return ChatLine(row["seq"], channel, seat, name, text, row["created_at"])

    async def page(
        self,
        room_id: str,
        channels: tuple[str, ...],
        limit: int,
        before: int | None = None,
    ) -> Page:
        """The latest `limit` messages of `channels` (before number `before`)."""
        async with self._conn() as conn:
            rows = await conn.fetch(
                _PAGE,
                room_id,
                list(channels),
                limit,
                MAX_SEQ if before is None else before,
            )
        last_seq = int(rows[0]["last_seq"]) if rows else 0
        lines = [_line(row) for row in rows if row["seq"] is not None]
        earlier = len(lines) > limit
        return Page(tuple(reversed(lines[:limit])), earlier, last_seq)

    async def count(self, room_id: str, channel: str) -> int:
        """How many messages of `channel` the room keeps."""
        async with self._conn() as conn:
            n = await conn.fetchval(
                "SELECT count(*) FROM chat_messages WHERE room_id = $1 AND channel = $2",
                room_id,
                channel,
            )
        return int(n or 0)

    async def after(self, room_id: str, seq: int, limit: int) -> list[ChatLine]:
        """Messages of every channel numbered after `seq`, oldest first, at most `limit`."""
        async with self._conn() as conn:
            rows = await conn.fetch(_AFTER, room_id, seq, limit)
        return [_line(row) for row in rows]

    async def last_seqs(self, room_ids: list[str]) -> dict[str, int]:
        """The last message number of each of these rooms that has chatted."""
        async with self._conn() as conn:
            rows = await conn.fetch(
                "SELECT room_id, last_seq FROM chat_rooms WHERE room_id = ANY($1::text[])",
                room_ids,
            )
        return {row["room_id"]: row["last_seq"] for row in rows}

    async def spectators_open(self, room_id: str) -> bool:
        """Whether the room's spectators may write (a room without a row: yes)."""
        async with self._conn() as conn:
            value = await conn.fetchval(
                "SELECT spectators_open FROM chat_rooms WHERE room_id = $1", room_id
            )
        return True if value is None else bool(value)

    async def set_spectators(self, room_id: str, open_: bool) -> None:
        """Open or close the spectators' channel; the room's revision is bumped (its status
        shows the setting), so every instance sends the new status to its clients."""
        async with self._transaction() as conn:
            await conn.execute(
                "INSERT INTO chat_rooms AS c (room_id, spectators_open) VALUES ($1, $2)"
                " ON CONFLICT (room_id) DO UPDATE"
                " SET spectators_open = EXCLUDED.spectators_open",
                room_id,
                open_,
            )
            await bump_revision(conn, room_id)
