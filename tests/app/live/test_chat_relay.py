"""The chat relay of the hub on its own (app/live/chat.py), over a fake store: what each
connection is queued, with no database and no clock. A player's connection is never queued
a spectators' message before the end; no message reaches a connection twice, whichever of
its welcome and a publication reads first; what the relay keeps is bounded."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from typing import Any

from app.live.chat import PENDING, ChatRelay, RoomChat
from app.live.connection import Connection
from app.play.chat import RECENT
from app.store.chat import SPECTATORS, TABLE, ChatLine, Page
from app.store.rows import SeatRow

ROOM = "room-1"
NOW = datetime(2026, 12, 2, tzinfo=UTC)


def line(seq: int, channel: str = TABLE, text: str | None = None) -> ChatLine:
    seat = None if channel == SPECTATORS else 0
    return ChatLine(seq, channel, seat, "X", text or f"m{seq}", NOW)


class FakeStore:
    def __init__(self) -> None:
        self.lines: list[ChatLine] = []
        self.gate: asyncio.Event | None = None  # holds `page` until set

    async def after(self, room_id: str, seq: int, limit: int) -> list[ChatLine]:
        return [ln for ln in self.lines if ln.seq > seq][:limit]


class FakeChat:
    """What the relay asks of `service.chat`: the latest of some channels, and the store."""

    def __init__(self) -> None:
        self.store = FakeStore()
        self.reads = 0

    async def recent(self, room_id: str, channels: tuple[str, ...]) -> Page:
        self.reads += 1
        last = self.store.lines[-1].seq if self.store.lines else 0
        shown = [ln for ln in self.store.lines if ln.channel in channels]
        if self.store.gate is not None:
            await self.store.gate.wait()
        return Page(tuple(shown[-RECENT:]), len(shown) > RECENT, last)


def conn(player: bool) -> Connection:
    c = Connection(ROOM)
    if player:
        c.seat = SeatRow(1, 0, "P0", None, False, b"x" * 32)
        c.number = 0
    c.version = 0
    return c


def queued(c: Connection) -> list[dict[str, Any]]:
    """The chat messages queued to `c`, parsed."""
    out = []
    for item in c.queue.remove(lambda _item: True):
        text = getattr(item, "text", item)
        message = json.loads(text)
        if message["type"] == "chat":
            out.append(message)
    return out


def seqs(messages: list[dict[str, Any]]) -> list[int]:
    return [m["seq"] for message in messages for m in message["messages"]]


async def test_a_player_connection_is_queued_no_spectator_message_before_the_end() -> (
    None
):
    chat = FakeChat()
    relay = ChatRelay(chat)  # type: ignore[arg-type]
    room = RoomChat()
    player, watcher = conn(True), conn(False)
    members = {player, watcher}
    for c in members:
        await relay.connected(ROOM, room, c, members, finished=False)
    assert seqs(queued(player)) == [] and seqs(queued(watcher)) == []
    chat.store.lines += [line(1, SPECTATORS), line(2), line(3, SPECTATORS)]
    room.announced(3)
    await relay.publish(ROOM, room, members, 0)
    assert seqs(queued(player)) == [2]
    assert seqs(queued(watcher)) == [1, 2, 3]
    # The end: the player gets the latest again, spectators' included; nothing twice to
    # the spectator.
    assert room.game_over() and not room.game_over()
    await relay.publish(ROOM, room, members, 5)
    latest = queued(player)
    assert latest[0]["recent"] is True and seqs(latest) == [1, 2, 3]
    assert queued(watcher) == []
    chat.store.lines.append(line(4, SPECTATORS))
    room.announced(4)
    await relay.publish(ROOM, room, members, 5)
    assert seqs(queued(player)) == [4] and seqs(queued(watcher)) == [4]


async def test_a_welcome_read_overtaken_by_a_publication_sends_nothing_twice() -> None:
    chat = FakeChat()
    relay = ChatRelay(chat)  # type: ignore[arg-type]
    room = RoomChat()
    first = conn(False)
    await relay.connected(ROOM, room, first, {first}, finished=False)
    queued(first)
    chat.store.lines += [line(1), line(2)]
    # A second connection reads its latest (1, 2) while 1..3 get published.
    late = conn(False)
    members = {first, late}
    chat.store.gate = asyncio.Event()
    reading = asyncio.ensure_future(
        relay.connected(ROOM, room, late, members, finished=False)
    )
    await asyncio.sleep(0)
    chat.store.lines.append(line(3))
    room.announced(3)
    await relay.publish(ROOM, room, members, 0)
    assert seqs(queued(first)) == [1, 2, 3]
    chat.store.gate.set()
    await reading
    assert seqs(queued(late)) == [
        1,
        2,
        3,
    ]  # its latest, and what went past it meanwhile
    chat.store.gate = None
    chat.store.lines.append(line(4))
    room.announced(4)
    await relay.publish(ROOM, room, members, 0)
    assert seqs(queued(first)) == [4] and seqs(queued(late)) == [4]


async def test_messages_sent_here_are_published_without_reading_them_back() -> None:
    chat = FakeChat()
    relay = ChatRelay(chat)  # type: ignore[arg-type]
    room = RoomChat()
    c = conn(True)
    await relay.connected(ROOM, room, c, {c}, finished=False)
    queued(c)
    reads = chat.reads
    for seq in (1, 2):
        assert room.sent(line(seq))
    assert not room.sent(line(2)) and not room.announced(2)  # its notice: no news
    await relay.publish(ROOM, room, {c}, 0)
    assert seqs(queued(c)) == [1, 2] and chat.reads == reads
    assert room.pending == {}


async def test_what_the_relay_keeps_is_bounded() -> None:
    chat = FakeChat()
    bound = 200 * 1024
    relay = ChatRelay(chat, cache_bytes=bound)  # type: ignore[arg-type]
    room = RoomChat()
    room.published = 0
    for seq in range(1, PENDING * 3):
        room.sent(line(seq, text="x" * 500))
    assert len(room.pending) == PENDING
    for n in range(40):  # pages of 100 long messages, about 80 KiB each
        chat.store.lines = [line(k, text="é" * 500) for k in range(1, 101)]
        c = conn(False)
        await relay.connected(f"room-{n}", RoomChat(), c, {c}, finished=False)
        assert relay.cached_bytes <= bound
    assert 1 <= len(relay) <= 2
    # A page larger than the whole cache is served, not kept.
    small = ChatRelay(chat, cache_bytes=1024)  # type: ignore[arg-type]
    c = conn(False)
    await small.connected(ROOM, RoomChat(), c, {c}, finished=False)
    assert len(seqs(queued(c))) == 100 and len(small) == 0
    # A connection that leaves is forgotten.
    c = conn(False)
    await relay.connected(ROOM, room, c, {c}, finished=False)
    room.forget(c)
    assert c not in room.cursors
