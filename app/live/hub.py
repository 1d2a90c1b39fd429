"""The hub: the rooms this instance serves, each a `Channel` of its connections.

The hub is the registry of rooms: it connects and disconnects clients, keeps one `Channel`
per room served here (app/live/channel.py: the room's audience, which fans out to it) and
one task per room that has it publish, and routes every change to its room. Changes reach
the hub in two ways: a move committed through this instance (`committed`) and a NOTIFY from
PostgreSQL (`notice`: a move, a room change or a presence change made through any
instance); the heartbeat's `catch_up` and `refresh` find what notices lost.

The hub tells (`serving`) when it takes up a room (its first connection) and leaves it (its
last one gone): another instance sends a move notice only for a room served elsewhere
(app/notices/peers.py). One that moved in the moment before it heard is caught up
`TAKEN_UP_CHECK_S` after the room was taken up, by the heartbeat's reading of versions on
just the rooms taken up since.

Per room, one task publishes what happened, in version order, so every connection sees each
version once; a move of ours that is the next version while that task is idle is published
at once by the task that committed it (`Channel.publish_now`). A connection whose version
falls behind (it connected meanwhile, or its queue overflowed) is sent a `sync` instead of
the updates it missed.

Table chat rides on the same connections and the same publishing task: the channel hands
its moments (a welcome, a `c` notice, a sync, the end of the game) to the hub's `ChatRelay`
(app/live/chat.py).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable

from app.config.tasks import cancel_and_wait
from app.live.channel import Channel
from app.live.chat import ChatRelay
from app.live.connection import Connection
from app.live.messages import stale_sync
from app.live.presence import Presence
from app.play.limits import AddressCounts
from app.play.protocol import ServiceError, dumps
from app.play.service import RoomService
from app.store.channel import NoticeKind
from app.store.chat import ChatLine
from app.store.rows import Event, RoomRow

log = logging.getLogger("ishtar.hub")

REFRESH_SLICES = 20  # the heartbeat re-reads rooms in this many slices over its period
TAKEN_UP_CHECK_S = 1.0
"""How long after a room was taken up its version is read again (a move another instance
made before it heard that this one serves the room)."""

Serving = Callable[[str, bool], None]
"""This instance took up (True) or left (False) a room."""


class Hub:
    """The rooms served by this instance (their channels), and the publishing task of each."""

    def __init__(
        self,
        service: RoomService,
        presence: Presence,
        *,
        serving: Serving | None = None,
        taken_up_check_s: float = TAKEN_UP_CHECK_S,
    ) -> None:
        self.service = service
        self.presence = presence
        self.serving = serving
        self.taken_up_check_s = taken_up_check_s
        self.channels: dict[str, Channel] = {}
        self._taken_up: list[Channel] = []
        self._check: asyncio.Task[None] | None = None
        self.addresses = AddressCounts()  # open websockets per client address
        self.chat = ChatRelay(service.chat)

    # --- connections ------------------------------------------------------------------------

    async def connect(
        self, conn: Connection, token: str | None, since: int | None
    ) -> None:
        """Identify a client, register it and queue its welcome (or raise ServiceError)."""
        room, seat = await self.service.rooms.identify(conn.room_id, token)
        conn.seat, conn.number = seat, (seat.seat if seat else None)
        channel = self._channel(room)
        channel.conns.add(conn)
        try:
            await channel.welcome(conn, room, since)
        except BaseException:
            # A step failed (the database went away): the connection is not one of the
            # room's; its websocket says what happened (ws.py) and the client says hello again.
            self.disconnect(conn)
            raise

    def disconnect(self, conn: Connection) -> None:
        channel = self.channels.get(conn.room_id)
        if channel is None or conn not in channel.conns:
            return
        channel.leave(conn)

    def _channel(self, room: RoomRow) -> Channel:
        channel = self.channels.get(room.id)
        if channel is None:
            channel = self.channels[room.id] = Channel(
                room.id,
                self.service,
                self.presence,
                self.chat,
                status=room.status,
                revision=room.revision,
            )
            if room.started is not None:
                channel.game_id = room.started.id
            loop = asyncio.get_running_loop()
            channel.task = loop.create_task(self._run(channel))
            if self.serving is not None:
                self.serving(room.id, True)
                self._taken_up.append(channel)
                if self._check is None:
                    self._check = loop.create_task(self._check_taken_up())
        return channel

    def rooms(self) -> list[str]:
        """The rooms served here."""
        return list(self.channels)

    async def _check_taken_up(self) -> None:
        """`TAKEN_UP_CHECK_S` on, catch up the rooms taken up meanwhile (and again while
        more are)."""
        try:
            while self._taken_up:
                await asyncio.sleep(self.taken_up_check_s)
                batch, self._taken_up = self._taken_up, []
                live = [c for c in batch if self.channels.get(c.room_id) is c]
                if live:
                    try:
                        await self.catch_up(live)
                    except Exception as error:  # the heartbeat catches up all the same
                        log.warning("catching up rooms taken up failed: %s", error)
        finally:
            self._check = None

    # --- changes ----------------------------------------------------------------------------

    def committed(self, room_id: str, event: Event) -> None:
        """A move committed through this instance (no need to read it back): the service's
        first commit listener (`RoomService.subscribe`, in app/ops/runtime.py)."""
        channel = self.channels.get(room_id)
        if channel is None or event.seq <= channel.published:
            return
        if channel.publish_now(event):
            return
        channel.pending[event.seq] = event
        channel.target = max(channel.target, event.seq)
        channel.wake.set()

    def chat_sent(self, room_id: str, line: ChatLine) -> None:
        """A chat message sent through this instance (no need to wait for its notice)."""
        channel = self.channels.get(room_id)
        if channel is not None and channel.chat.sent(line):
            channel.wake.set()

    def notice(
        self, room_id: str, kind: NoticeKind, number: int, detail: str | None = None
    ) -> None:
        """A room's NOTIFY: a move (its version), the room (its revision), presence, a chat
        message (its number). A move's notice may carry its log entry (`detail`): the
        publisher then need not read it back from the database."""
        channel = self.channels.get(room_id)
        if channel is None:
            return
        if kind is NoticeKind.MOVE:
            if number <= channel.target:
                return
            channel.target = number
            if detail is not None:
                event = _logged(detail, number)
                if event is not None and number > channel.published:
                    channel.pending[number] = event
        elif kind is NoticeKind.ROOM:
            channel.room_dirty = True
        elif kind is NoticeKind.PRESENCE:
            channel.presence_dirty = True
        elif kind is NoticeKind.CHAT:
            if not channel.chat.announced(number):
                return
        else:
            return
        channel.wake.set()

    async def resync(self) -> None:
        """Catch up every room after notices may have been lost (listener reconnected)."""
        for channel in await self.catch_up():
            channel.room_dirty = channel.presence_dirty = True
            channel.wake.set()

    async def catch_up(self, channels: list[Channel] | None = None) -> list[Channel]:
        """Read the versions, revisions and chat counts of every room served here (or of
        `channels`; one query each, whatever the number of rooms) and wake only the rooms
        that are behind them: the heartbeat's check for lost move, room and chat notices.
        Returns the rooms checked."""
        if channels is None:
            channels = list(self.channels.values())
        games = [channel.game_id for channel in channels if channel.game_id is not None]
        store = self.service.store
        versions = await store.game_versions(games) if games else {}
        rooms = [channel.room_id for channel in channels]
        revisions = await store.revisions(rooms) if rooms else {}
        chats = await store.chat.last_seqs(rooms) if rooms else {}
        for channel in channels:
            channel.chat.announced(chats.get(channel.room_id, 0))
            version = versions.get(channel.game_id) if channel.game_id else None
            if version is not None and version > channel.target:
                channel.target = version
            if revisions.get(channel.room_id, -1) > channel.revision:
                channel.room_dirty = True
            if (
                channel.room_dirty
                or channel.chat.behind
                or channel.target > channel.published >= 0
            ):
                channel.wake.set()
        return channels

    async def refresh(
        self, period: float, slices: int = REFRESH_SLICES
    ) -> list[Channel]:
        """Re-read the presence of the rooms that other instances also serve, once over
        `period` seconds, a slice at a time and one query a slice: their rows age out with
        no notice when their instance dies. Only a room whose presence changed is woken
        to send it. A room served by this instance alone is not re-read: its presence is
        this instance's own, and a lost room notice shows in its revision (`catch_up`).
        Returns the rooms re-read."""
        rooms = list(self.channels)
        shared = (
            await self.presence.store.shared_rooms(rooms, self.presence.instance)
            if rooms
            else set()
        )
        channels = [self.channels[room] for room in rooms if room in shared]
        step = max(1, -(-len(channels) // slices))
        for start in range(0, slices * step, step):
            served = [
                channel
                for channel in channels[start : start + step]
                if self.channels.get(channel.room_id) is channel
            ]
            if served:
                snapshots = await self.presence.snapshots([c.room_id for c in served])
                for channel in served:
                    if dumps(snapshots[channel.room_id]) != channel.last_presence:
                        channel.presence_dirty = True
                        channel.wake.set()
            await asyncio.sleep(period / slices)
        return channels

    # --- the rooms' tasks -------------------------------------------------------------------

    async def _run(self, channel: Channel) -> None:
        try:
            while channel.conns:
                await channel.wake.wait()
                channel.wake.clear()
                channel.busy = True
                try:
                    await channel.publish()
                except Exception:
                    log.exception(
                        "publishing to room %s failed; retrying", channel.room_id
                    )
                    await asyncio.sleep(0.5)
                    channel.wake.set()
                finally:
                    channel.busy = False
        finally:
            if self.channels.get(channel.room_id) is channel:
                del self.channels[channel.room_id]
                if self.serving is not None:
                    self.serving(channel.room_id, False)
            self.presence.set_local(channel.room_id, ())

    async def sync_text(self, conn: Connection) -> str | None:
        """A `sync` for a connection that fell behind: missed events and a fresh view."""
        conn.syncing = False
        channel = self.channels.get(conn.room_id)
        if channel is None:
            return None
        return await channel.sync_text(conn)

    def send_stale(self, conn: Connection, error: ServiceError) -> None:
        """After a stale_version error: the missed events and a fresh view, as a `sync`."""
        version = error.version or 0
        if conn.version is not None and version < conn.version:
            return  # the client already has newer updates queued
        conn.put_sync(version, stale_sync(error, conn.you()), "stale_version")

    async def close(self) -> None:
        await cancel_and_wait(
            self._check, *(channel.task for channel in self.channels.values())
        )
        self.channels.clear()


def _logged(detail: str, version: int) -> Event | None:
    """The move a notice's detail carries, if it is the log entry of that version."""
    try:
        event = Event.from_dict(json.loads(detail))
    except ValueError:  # json's errors are ValueErrors too
        log.warning("ignored the detail of a move notice (version %d)", version)
        return None
    return event if event.seq == version else None
