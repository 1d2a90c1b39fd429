"""The hub: this instance's websocket connections per room, and the fan-out to them.

Changes reach the hub in two ways: a move committed through this instance (`committed`)
and a NOTIFY from PostgreSQL (`notice`: a move, a room change or a presence change made
through any instance). Per room, one task publishes what happened, in version order, so
every connection sees each version once; a move of ours that is the next version while that
task is idle is published at once by the task that committed it (`_publish_now`). Each message is built once per audience (a seat,
or the public) and shared by every connection of that audience; the hub reads the database
once per change and room, never once per connection.

A connection whose version falls behind (it connected meanwhile, or its queue overflowed)
is sent a `sync` instead of the updates it missed.

Table chat rides on the same connections and the same publishing task: the hub hands its
moments (a welcome, a `c` notice, a sync, the end of the game) to the `ChatRelay`
(app/live/chat.py).
"""

from __future__ import annotations

import asyncio
import json
import logging

from app.config.tasks import cancel_and_wait
from app.live.channel import (
    Channel,
    revoked_message,
    revoked_reason,
    room_key,
    seen_key,
)
from app.live.chat import ChatRelay
from app.live.connection import Close, Connection
from app.live.messages import (
    error_message,
    presence_message,
    room_message,
    stale_sync,
    sync_message,
    update_message,
    welcome_message,
)
from app.live.presence import Presence
from app.play.limits import AddressCounts
from app.play.positions import Position
from app.play.protocol import ServiceError, dumps
from app.play.service import RoomService
from app.play.tokens import same_hash
from app.store.channel import NoticeKind
from app.store.chat import ChatLine
from app.store.rows import Event, RoomRow, SeatRow

log = logging.getLogger("ishtar.hub")

REFRESH_SLICES = 20  # the heartbeat re-reads rooms in this many slices over its period


class Hub:
    """Connections of this instance, by room, and the publishing task of each room."""

    def __init__(self, service: RoomService, presence: Presence) -> None:
        self.service = service
        self.presence = presence
        self.channels: dict[str, Channel] = {}
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
            await self._welcome(conn, channel, room, since)
        except BaseException:
            # A step failed (the database went away): the connection is not one of the
            # room's; its websocket says what happened (ws.py) and the client says hello again.
            self.disconnect(conn)
            raise

    async def _welcome(
        self, conn: Connection, channel: Channel, room: RoomRow, since: int | None
    ) -> None:
        self._presence_changed(channel)
        presences_sent = channel.presences_sent
        status = await self.service.rooms.status(room)
        version, view, legal, events = 0, "null", "[]", "[]"
        if room.started is not None:
            game = await self.service.reading.game(room.id, room)
            position = await self.service.reading.position(game.game_id)
            version = position.version
            view = position.view_json(conn.number)
            legal = position.legal_json(conn.number)
            missed = await self.service.reading.events(game.game_id, since, version)
            events = dumps([event.as_dict() for event in missed])
        conn.room_key = seen_key(room_key(status), conn.you())
        presence = {
            "connected_seats": [s["seat"] for s in status["seats"] if s["connected"]],
            "spectators": status["spectators"],
        }
        conn.put_welcome(
            version,
            welcome_message(
                version=version,
                you=conn.you(),
                room=status,
                view_json=view,
                legal_json=legal,
                events_json=events,
                presence=presence,
            ),
        )
        if channel.presences_sent != presences_sent:
            # The publisher sent a presence while the welcome was made, to every connection
            # but this one (it had no welcome yet), and it sends only changes: the welcome's
            # presence, read before, may be older than it. Publish it again, fresh.
            channel.last_presence = ""
            channel.presence_dirty = True
            channel.wake.set()
        if channel.status != room.status:
            # The room's publisher saw the room change (a start, an end) after `room` was
            # read and skipped this connection, which had no welcome yet: what the welcome
            # missed follows, the room as it is now and, for a start, the game.
            conn.room_key = b""
            channel.room_dirty = True
            channel.wake.set()
            if room.started is None and channel.game_id is not None:
                conn.want_sync("joined_behind")
        if channel.published < 0:
            channel.published = version
        elif channel.published > version:
            conn.want_sync("joined_behind")
        if channel.target > channel.published:
            channel.wake.set()
        await self.chat.connected(
            room.id,
            channel.chat,
            conn,
            channel.conns,
            finished=room.status == "finished",
        )
        if channel.chat.behind:
            channel.wake.set()

    def disconnect(self, conn: Connection) -> None:
        channel = self.channels.get(conn.room_id)
        if channel is None or conn not in channel.conns:
            return
        channel.conns.discard(conn)
        channel.chat.forget(conn)
        self._presence_changed(channel)
        if not channel.conns:
            channel.wake.set()  # lets its task end

    def _channel(self, room: RoomRow) -> Channel:
        channel = self.channels.get(room.id)
        if channel is None:
            channel = self.channels[room.id] = Channel(
                room.id, status=room.status, revision=room.revision
            )
            if room.started is not None:
                channel.game_id = room.started.id
            channel.task = asyncio.get_running_loop().create_task(self._run(channel))
        return channel

    def _revoke(
        self, channel: Channel, conn: Connection, now: SeatRow | None = None
    ) -> None:
        """The connection's token no longer holds its seat (it left or was handed on:
        `now` is the seat as it is, if it is still there)."""
        channel.conns.discard(conn)
        channel.chat.forget(conn)
        conn.seat, conn.number = None, None
        error = ServiceError(
            "bad_token", revoked_reason(now), message=revoked_message(now)
        )
        conn.put(error_message(error, version=conn.version))
        conn.put(Close(4401))

    def _presence_changed(self, channel: Channel) -> None:
        self.presence.set_local(
            channel.room_id, (conn.number for conn in channel.conns)
        )

    # --- changes ----------------------------------------------------------------------------

    def committed(self, room_id: str, event: Event) -> None:
        """A move committed through this instance (no need to read it back): the service's
        first commit listener (`RoomService.subscribe`, in app/ops/runtime.py)."""
        channel = self.channels.get(room_id)
        if channel is None or event.seq <= channel.published:
            return
        if self._publish_now(channel, event):
            return
        channel.pending[event.seq] = event
        channel.target = max(channel.target, event.seq)
        channel.wake.set()

    def _publish_now(self, channel: Channel, event: Event) -> bool:
        """Fan a move of ours out at once, from the task that committed it, when nothing is
        ahead of it: the room's publisher idle with nothing to do, and this the next version.
        The updates then leave without waiting for the publisher's turn in the event loop
        (docs/journal/benchmarks-history.md, "Third session"); anything else goes through
        the publisher, in order."""
        if (
            channel.busy
            or channel.wake.is_set()
            or channel.pending
            or channel.game_id is None
            or event.seq != channel.published + 1
            or channel.target >= event.seq
        ):
            return False
        positions = self.service.positions
        position = positions.get(channel.game_id, event.seq)
        if position is None:
            return False
        try:
            self._fan_out(
                channel, event, position, positions.get(channel.game_id, event.seq - 1)
            )
        except Exception:  # the publisher tries again; who got it already is skipped
            log.exception("room %s: publishing move %s", channel.room_id, event.seq)
            return False
        channel.target = channel.published = event.seq
        return True

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

    async def catch_up(self) -> list[Channel]:
        """Read the versions, revisions and chat counts of every room served here (one
        query each, whatever the number of rooms) and wake only the rooms that are behind
        them: the heartbeat's check for lost move, room and chat notices. Returns the rooms
        checked."""
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

    # --- publishing -------------------------------------------------------------------------

    async def _run(self, channel: Channel) -> None:
        try:
            while channel.conns:
                await channel.wake.wait()
                channel.wake.clear()
                channel.busy = True
                try:
                    await self._publish(channel)
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
            self.presence.set_local(channel.room_id, ())

    async def _publish(self, channel: Channel) -> None:
        if channel.room_dirty:
            # Cleared before reading: a change noticed while the room is read is read again.
            channel.room_dirty = False
            try:
                await self._publish_room(channel)
            except BaseException:
                channel.room_dirty = True
                raise
        if channel.target > channel.published >= 0:
            await self._publish_moves(channel)
        if channel.presence_dirty:
            channel.presence_dirty = False
            await self._publish_presence(channel)
        if channel.chat.behind:
            await self.chat.publish(
                channel.room_id, channel.chat, channel.conns, max(channel.published, 0)
            )

    async def _publish_room(self, channel: Channel) -> None:
        room = await self.service.rooms.room(channel.room_id)
        channel.revision = max(channel.revision, room.revision)
        started = channel.status == "open" and room.status != "open"
        channel.status = room.status
        if room.status == "finished":
            channel.chat.game_over()
        numbers = {seat.id: seat for seat in room.seats}
        for conn in list(channel.conns):
            if conn.seat is None:
                continue
            fresh = numbers.get(conn.seat.id)
            if fresh is None or not same_hash(fresh.token_hash, conn.seat.token_hash):
                self._revoke(channel, conn, fresh)
                continue
            conn.seat = fresh
            conn.number = fresh.seat
        if room.started is not None and channel.game_id is None:
            channel.game_id = room.started.id
            if channel.published < 0 or started:
                channel.published = max(channel.published, 0)
        self._presence_changed(channel)
        status = await self.service.rooms.status(room)
        # Sent only where it changed: the heartbeat re-reads every room (a notice may have
        # been lost) and would otherwise send the same status every 10 s.
        key = room_key(status)
        for conn in channel.conns:
            if conn.version is None:
                continue
            you = conn.you()
            conn_key = seen_key(key, you)
            if conn_key != conn.room_key or started:
                conn.room_key = conn_key
                # At the version the connection is at: the status may have been read
                # ahead of the updates still on their way to it.
                conn.put(room_message(conn.version, status, you))
            if started:
                conn.want_sync("game_started")

    async def _publish_moves(self, channel: Channel) -> None:
        if channel.game_id is None:
            channel.game_id = (await self.service.reading.game(channel.room_id)).game_id
        game_id = channel.game_id
        events = []
        expected = channel.published + 1
        if expected <= channel.target and expected not in channel.pending:
            # The notice of a move of ours can overtake its commit: let our commits in
            # this room land (they hand their events over) before reading anything back.
            await self.service.moves.settled(channel.room_id)
        while expected in channel.pending:
            events.append(channel.pending.pop(expected))
            expected += 1
        if expected <= channel.target:
            events += await self.service.store.moves_since(game_id, expected - 1)
        for seq in [
            seq for seq in channel.pending if seq <= channel.published + len(events)
        ]:
            del channel.pending[seq]
        positions = self.service.positions
        for event in events:
            try:
                position = positions.advance(game_id, event.action, event.seq)
            except Exception:  # the logged action does not apply to our cached state
                log.exception(
                    "room %s: cannot replay move %s", channel.room_id, event.seq
                )
                position = None
            if position is None:  # cannot follow from what we hold: everyone resyncs
                position = await self.service.reading.position(game_id)
                channel.published = max(channel.published, position.version)
                for conn in channel.conns:
                    if conn.version is not None and conn.version < position.version:
                        conn.want_sync("position_lost")
                return
            before = positions.get(game_id, event.seq - 1)
            self._fan_out(channel, event, position, before)
            channel.published = event.seq

    def _fan_out(
        self,
        channel: Channel,
        event: Event,
        position: Position,
        before: Position | None,
    ) -> None:
        """An `update` to each connection at the version before: what changed in its view."""
        version = position.version
        if position.over and channel.chat.game_over():
            channel.wake.set()  # the spectators' chat opens to the players
        event_json = dumps(event.as_dict())
        messages: dict[int | None, str] = {}
        for conn in channel.conns:
            if conn.version is None or conn.syncing or conn.version >= version:
                continue
            if conn.version < version - 1 or before is None:
                conn.want_sync("missed_update" if before else "no_previous")
                continue
            audience = conn.audience
            message = messages.get(audience)
            if message is None:
                message = messages[audience] = update_message(
                    version,
                    event_json,
                    position.changes_json(audience, before),
                    position.legal_json(audience),
                )
            conn.put_version(version, message, update=True)

    async def _publish_presence(self, channel: Channel) -> None:
        snapshot = await self.presence.snapshot(channel.room_id)
        key = dumps(snapshot)
        if key == channel.last_presence:
            return
        channel.last_presence = key
        channel.presences_sent += 1
        # Every connection has been sent the published version (or is being sent a sync
        # beyond it); one that knows of a later one re-stamps its copy when writing it.
        message = presence_message(max(channel.published, 0), snapshot)
        for conn in channel.conns:
            if conn.version is not None:
                conn.put(message)

    async def sync_text(self, conn: Connection) -> str | None:
        """A `sync` for a connection that fell behind: missed events and a fresh view."""
        conn.syncing = False
        channel = self.channels.get(conn.room_id)
        if channel is not None:  # what its outbox dropped may have held chat messages
            await self.chat.resend(channel.room_id, channel.chat, conn, channel.conns)
        if channel is None or channel.game_id is None:
            return None
        position = await self.service.reading.position(channel.game_id)
        since = conn.version if conn.version is not None else 0
        if since > position.version:
            return None
        missed = await self.service.reading.events(
            channel.game_id, since, position.version
        )
        conn.version = position.version
        return sync_message(
            position.version,
            conn.you(),
            dumps([event.as_dict() for event in missed]),
            position.view_json(conn.number),
            position.legal_json(conn.number),
        )

    def send_stale(self, conn: Connection, error: ServiceError) -> None:
        """After a stale_version error: the missed events and a fresh view, as a `sync`."""
        version = error.version or 0
        if conn.version is not None and version < conn.version:
            return  # the client already has newer updates queued
        conn.put_sync(version, stale_sync(error, conn.you()), "stale_version")

    async def close(self) -> None:
        await cancel_and_wait(*(channel.task for channel in self.channels.values()))
        self.channels.clear()


def _logged(detail: str, version: int) -> Event | None:
    """The move a notice's detail carries, if it is the log entry of that version."""
    try:
        event = Event.from_dict(json.loads(detail))
    except ValueError:  # json's errors are ValueErrors too
        log.warning("ignored the detail of a move notice (version %d)", version)
        return None
    return event if event.seq == version else None
