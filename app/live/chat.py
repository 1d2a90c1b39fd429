"""Table chat on the live connections: the latest messages on (re)connecting, new ones as
they come, each connection only what its reader may see (docs/protocol.md, "Table chat").

Each room's channel (app/live/channel.py) keeps a `RoomChat` and calls the hub's `ChatRelay`
at the points where it already works: a connection's welcome (`connected`: a `chat`
message with `recent`, the latest messages it may see), a `c` notice from PostgreSQL or a
message sent through this instance (`announced`, `sent`), the room's publishing task
(`publish`: the new messages, in number order, to each connection that may see them), a
`sync` (`resend`: its outbox may have dropped messages) and the end of the game
(`game_over`: the spectators' channel opens to the players, who get their latest again).

Each connection has a cursor, the last number it was sent or passed: nothing is sent to it
twice or out of order, whichever of its welcome and a publication reads first. Before the
end of the game no spectators' message is queued to a player's connection: the room
counts as over only once this instance knows it is.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Set
from dataclasses import dataclass, field

from cachetools import LRUCache

from app.live.connection import Connection
from app.live.messages import Stamped, chat_message
from app.play.chat import Chat, visible_channels
from app.store.chat import SPECTATORS, ChatLine, Page

PENDING = 64
"""Messages sent through this instance kept for their publication (beyond: read back)."""
READ_BATCH = 200
CACHE_BYTES = 8 << 20
"""The pages of latest messages kept for the next connections, in bytes (an estimate)."""


@dataclass
class RoomChat:
    """The chat of one room as this instance's hub serves it."""

    published: int = -1
    """The last number published here; -1 until a connection read the room's chat."""
    target: int = 0
    """The highest number known to exist."""
    finished: bool = False
    """The game is over (known here): players see the spectators' channel."""
    resend: bool = False
    """The players' connections are to get their latest messages again (the end)."""
    pending: dict[int, ChatLine] = field(default_factory=dict)
    cursors: dict[Connection, int] = field(default_factory=dict)

    @property
    def behind(self) -> bool:
        """Whether the room's publishing task has chat work to do."""
        return self.resend or 0 <= self.published < self.target

    def announced(self, seq: int) -> bool:
        """Number `seq` exists (a `c` notice); whether that is news."""
        if seq <= self.target:
            return False
        self.target = seq
        return True

    def sent(self, line: ChatLine) -> bool:
        """A message sent through this instance; whether that is news."""
        if line.seq <= max(self.published, 0) or line.seq in self.pending:
            return False
        if len(self.pending) < PENDING:
            self.pending[line.seq] = line
        self.target = max(self.target, line.seq)
        return True

    def game_over(self) -> bool:
        """The game ended; whether that is news (then the players get their latest)."""
        if self.finished:
            return False
        self.finished = self.resend = True
        return True

    def forget(self, conn: Connection) -> None:
        self.cursors.pop(conn, None)


def _page_bytes(page: Page) -> int:
    return sum(
        sys.getsizeof(line.text) + sys.getsizeof(line.name) + 200 for line in page.lines
    )


def visible(line: ChatLine, conn: Connection, finished: bool) -> bool:
    """Whether the reader of `conn` may see `line` (spectators see both channels; players
    the spectators' only once the game is over)."""
    return line.channel != SPECTATORS or conn.seat is None or finished


class ChatRelay:
    """What the hub does with chat (one per hub)."""

    def __init__(self, chat: Chat, cache_bytes: int = CACHE_BYTES) -> None:
        self.chat = chat
        self._pages: LRUCache[tuple[str, tuple[str, ...], int], Page] = LRUCache(
            cache_bytes, getsizeof=_page_bytes
        )

    async def _latest(
        self, room_id: str, room: RoomChat, channels: tuple[str, ...]
    ) -> Page:
        """The latest messages of `channels`: from the cache when this instance is caught
        up with the room (a page read at a number stays right: messages never change)."""
        if room.published >= 0 and room.published == room.target:
            cached = self._pages.get((room_id, channels, room.published))
            if cached is not None:
                return cached
        page = await self.chat.recent(room_id, channels)
        if _page_bytes(page) <= self._pages.maxsize:  # one larger than it all: not kept
            self._pages[(room_id, channels, page.last_seq)] = page
        return page

    async def connected(
        self,
        room_id: str,
        room: RoomChat,
        conn: Connection,
        conns: Set[Connection],
        *,
        finished: bool,
    ) -> None:
        """Queue a connection's latest messages (after its welcome) and start its cursor."""
        if finished:
            room.game_over()  # the players here before get their latest too
        await self._send_latest(room_id, room, conn, conns)

    async def resend(
        self, room_id: str, room: RoomChat, conn: Connection, conns: Set[Connection]
    ) -> None:
        """After a `sync`: the connection's outbox may have dropped chat messages."""
        if conn in room.cursors:
            await self._send_latest(room_id, room, conn, conns)

    async def _send_latest(
        self, room_id: str, room: RoomChat, conn: Connection, conns: Set[Connection]
    ) -> None:
        spectator = conn.seat is None
        page = await self._latest(
            room_id, room, visible_channels(spectator, room.finished)
        )
        if conn not in conns or conn.version is None:
            return  # gone meanwhile (or not welcomed): nothing to start
        lines = list(page.lines)
        last = page.last_seq
        hidden = page.hidden
        if room.published > last:
            # Published here while we read: those went past this connection, which had
            # no cursor yet.
            later = await self.chat.store.after(room_id, last, READ_BATCH)
            shown = [ln for ln in later if visible(ln, conn, room.finished)]
            hidden += len(later) - len(shown)
            lines += shown
            last = max([last, *(ln.seq for ln in later)])
        room.cursors[conn] = last
        if room.published < 0:
            room.published = last
            for seq in [s for s in room.pending if s <= last]:
                del room.pending[seq]
        room.target = max(room.target, last)
        conn.put_replacing(  # the latest replace what the client holds
            chat_message(
                [line.as_dict() for line in lines],
                conn.version,
                recent=True,
                earlier=page.earlier,
                hidden=hidden,
            )
        )

    async def publish(
        self, room_id: str, room: RoomChat, conns: Iterable[Connection], version: int
    ) -> None:
        """The room's publishing task: the players' latest after the end, then every new
        message, in order, to each connection that may see it (`version`: the game's
        version published here, which the messages carry)."""
        members = set(conns)
        if room.resend:
            room.resend = False
            for conn in [c for c in members if c.seat is not None]:
                await self.resend(room_id, room, conn, members)
        while 0 <= room.published < room.target:
            lines = self._take_pending(room)
            if not lines:
                lines = await self.chat.store.after(room_id, room.published, READ_BATCH)
                if not lines:  # announced but gone (pruned) or never there
                    room.published = room.target
                    break
            self._fan_out(room, lines, members, version)
            room.published = max(room.published, lines[-1].seq)
            for seq in [s for s in room.pending if s <= room.published]:
                del room.pending[seq]

    def _take_pending(self, room: RoomChat) -> list[ChatLine]:
        lines = []
        seq = room.published + 1
        while seq in room.pending:
            lines.append(room.pending.pop(seq))
            seq += 1
        return lines

    def _fan_out(
        self,
        room: RoomChat,
        lines: list[ChatLine],
        conns: Set[Connection],
        version: int,
    ) -> None:
        """Each connection its share of `lines`; connections with the same share share
        one text."""
        last = lines[-1].seq
        texts: dict[tuple[int, ...], Stamped] = {}
        for conn, cursor in list(room.cursors.items()):
            if conn not in conns:
                continue
            fresh = [line for line in lines if line.seq > cursor]
            share = [line for line in fresh if visible(line, conn, room.finished)]
            hidden = len(fresh) - len(share)  # the spectators', kept from a player
            room.cursors[conn] = max(cursor, last)
            if not share and not hidden:
                continue
            key = (hidden, *(line.seq for line in share))
            message = texts.get(key)
            if message is None:
                message = texts[key] = chat_message(
                    [line.as_dict() for line in share], version, hidden=hidden
                )
            conn.put(message)

    def __len__(self) -> int:
        """Pages in the cache (for tests)."""
        return len(self._pages)

    @property
    def cached_bytes(self) -> int:
        return int(self._pages.currsize)
