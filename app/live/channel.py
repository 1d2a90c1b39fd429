"""A room's audience on this instance: its connections, and the publishing to them.

The hub (app/live/hub.py) keeps one `Channel` per room served here and runs its publishing
task. A channel welcomes a connection, fans each move out as an `update` (built once per
audience, a seat or the public, and shared by every connection of that audience), and
publishes the room's status and presence when they change; it reads the database once per
change, never once per connection. A revoked seat's connection is told why and closed.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from dataclasses import dataclass, field
from typing import Any

from app.live.chat import ChatRelay, RoomChat
from app.live.connection import Close, Connection
from app.live.messages import (
    error_message,
    presence_message,
    room_message,
    sync_message,
    update_message,
    welcome_message,
)
from app.live.presence import Presence
from app.play.positions import Position
from app.play.protocol import ServiceError, dumps, msg
from app.play.service import RoomService
from app.play.tokens import same_hash
from app.store.rows import Event, RoomRow, SeatRow

# The hub's logger, as before the room's publishing moved here: operators filter on it.
log = logging.getLogger("ishtar.hub")


def room_key(status: dict[str, Any]) -> str:
    """What tells two room statuses apart for a client: all of it but the game's version
    (which every update, sync and message carries anyway)."""
    return dumps({**status, "version": None})


def seen_key(key: str, you: dict[str, Any]) -> bytes:
    """What a connection keeps of the room status it was last sent: a 16-byte digest of
    `room_key` and its own part, not the text (about 900 bytes a connection)."""
    return hashlib.blake2b(f"{key}{dumps(you)}".encode(), digest_size=16).digest()


@dataclass
class Channel:
    """A room's audience on this instance: its connections, what is left to publish to them,
    and the publishing (run by the hub's task for the room, `Hub._run`)."""

    room_id: str
    service: RoomService = field(repr=False)
    presence: Presence = field(repr=False)
    relay: ChatRelay = field(repr=False)  # the hub's chat relay, shared by every room
    conns: set[Connection] = field(default_factory=set)
    game_id: int | None = None
    status: str = "open"
    revision: int = -1  # the room's revision last read here (rooms.revision)
    published: int = -1  # last version published here; -1 until known
    target: int = -1  # highest version announced
    room_dirty: bool = False
    presence_dirty: bool = False
    pending: dict[int, Event] = field(default_factory=dict)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None
    busy: bool = False  # its task is publishing (and may be waiting on the database)
    last_presence: str = ""
    presences_sent: int = 0  # presences published (a welcome made meanwhile misses one)
    chat: RoomChat = field(default_factory=RoomChat)

    # --- connections ------------------------------------------------------------------------

    async def welcome(self, conn: Connection, room: RoomRow, since: int | None) -> None:
        """Queue the welcome of a connection just added to the room (`Hub.connect`): the
        room's status, the game's view and legal actions as read now, the events since
        `since`; then what the welcome may have missed, and the chat's latest."""
        self.presence_changed()
        presences_sent = self.presences_sent
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
        if self.presences_sent != presences_sent:
            # The publisher sent a presence while the welcome was made, to every connection
            # but this one (it had no welcome yet), and it sends only changes: the welcome's
            # presence, read before, may be older than it. Publish it again, fresh.
            self.last_presence = ""
            self.presence_dirty = True
            self.wake.set()
        if self.status != room.status:
            # The room's publisher saw the room change (a start, an end) after `room` was
            # read and skipped this connection, which had no welcome yet: what the welcome
            # missed follows, the room as it is now and, for a start, the game.
            conn.room_key = b""
            self.room_dirty = True
            self.wake.set()
            if room.started is None and self.game_id is not None:
                conn.want_sync("joined_behind")
        if self.published < 0:
            self.published = version
        elif self.published > version:
            conn.want_sync("joined_behind")
        if self.target > self.published:
            self.wake.set()
        await self.relay.connected(
            room.id,
            self.chat,
            conn,
            self.conns,
            finished=room.status == "finished",
        )
        if self.chat.behind:
            self.wake.set()

    def revoke(self, conn: Connection, now: SeatRow | None = None) -> None:
        """The connection's token no longer holds its seat (it left or was handed on:
        `now` is the seat as it is, if it is still there)."""
        self.conns.discard(conn)
        self.chat.forget(conn)
        conn.seat, conn.number = None, None
        error = ServiceError(
            "bad_token", revoked_reason(now), message=revoked_message(now)
        )
        conn.put(error_message(error, version=conn.version))
        conn.put(Close(4401))

    def presence_changed(self) -> None:
        self.presence.set_local(self.room_id, (conn.number for conn in self.conns))

    def leave(self, conn: Connection) -> None:
        """A connection of this room is gone (its socket closed, or it said hello again)."""
        self.conns.discard(conn)
        self.chat.forget(conn)
        self.presence_changed()
        if not self.conns:
            self.wake.set()  # lets its task end

    # --- publishing -------------------------------------------------------------------------

    def publish_now(self, event: Event) -> bool:
        """Fan a move of ours out at once, from the task that committed it, when nothing is
        ahead of it: the room's publisher idle with nothing to do, and this the next version.
        The updates then leave without waiting for the publisher's turn in the event loop
        (docs/journal/benchmarks-history.md, "Third session"); anything else goes through
        the publisher, in order."""
        if (
            self.busy
            or self.wake.is_set()
            or self.pending
            or self.game_id is None
            or event.seq != self.published + 1
            or self.target >= event.seq
        ):
            return False
        positions = self.service.positions
        position = positions.get(self.game_id, event.seq)
        if position is None:
            return False
        try:
            self._fan_out(event, position, positions.get(self.game_id, event.seq - 1))
        except Exception:  # the publisher tries again; who got it already is skipped
            log.exception("room %s: publishing move %s", self.room_id, event.seq)
            return False
        self.target = self.published = event.seq
        return True

    async def publish(self) -> None:
        if self.room_dirty:
            # Cleared before reading: a change noticed while the room is read is read again.
            self.room_dirty = False
            try:
                await self._publish_room()
            except BaseException:
                self.room_dirty = True
                raise
        if self.target > self.published >= 0:
            await self._publish_moves()
        if self.presence_dirty:
            self.presence_dirty = False
            await self._publish_presence()
        if self.chat.behind:
            await self.relay.publish(
                self.room_id, self.chat, self.conns, max(self.published, 0)
            )

    async def _publish_room(self) -> None:
        room = await self.service.rooms.room(self.room_id)
        self.revision = max(self.revision, room.revision)
        started = self.status == "open" and room.status != "open"
        self.status = room.status
        if room.status == "finished":
            self.chat.game_over()
        numbers = {seat.id: seat for seat in room.seats}
        for conn in list(self.conns):
            if conn.seat is None:
                continue
            fresh = numbers.get(conn.seat.id)
            if fresh is None or not same_hash(fresh.token_hash, conn.seat.token_hash):
                self.revoke(conn, fresh)
                continue
            conn.seat = fresh
            conn.number = fresh.seat
        if room.started is not None and self.game_id is None:
            self.game_id = room.started.id
            if self.published < 0 or started:
                self.published = max(self.published, 0)
        self.presence_changed()
        status = await self.service.rooms.status(room)
        # Sent only where it changed: the heartbeat re-reads every room (a notice may have
        # been lost) and would otherwise send the same status every 10 s.
        key = room_key(status)
        for conn in self.conns:
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

    async def _publish_moves(self) -> None:
        if self.game_id is None:
            self.game_id = (await self.service.reading.game(self.room_id)).game_id
        game_id = self.game_id
        events = []
        expected = self.published + 1
        if expected <= self.target and expected not in self.pending:
            # The notice of a move of ours can overtake its commit: let our commits in
            # this room land (they hand their events over) before reading anything back.
            await self.service.moves.settled(self.room_id)
        while expected in self.pending:
            events.append(self.pending.pop(expected))
            expected += 1
        if expected <= self.target:
            events += await self.service.store.moves_since(game_id, expected - 1)
        for seq in [seq for seq in self.pending if seq <= self.published + len(events)]:
            del self.pending[seq]
        positions = self.service.positions
        for event in events:
            try:
                position = positions.advance(game_id, event.action, event.seq)
            except Exception:  # the logged action does not apply to our cached state
                log.exception("room %s: cannot replay move %s", self.room_id, event.seq)
                position = None
            if position is None:  # cannot follow from what we hold: everyone resyncs
                position = await self.service.reading.position(game_id)
                self.published = max(self.published, position.version)
                for conn in self.conns:
                    if conn.version is not None and conn.version < position.version:
                        conn.want_sync("position_lost")
                return
            before = positions.get(game_id, event.seq - 1)
            self._fan_out(event, position, before)
            self.published = event.seq

    def _fan_out(
        self,
        event: Event,
        position: Position,
        before: Position | None,
    ) -> None:
        """An `update` to each connection at the version before: what changed in its view."""
        version = position.version
        if position.over and self.chat.game_over():
            self.wake.set()  # the spectators' chat opens to the players
        event_json = dumps(event.as_dict())
        messages: dict[int | None, str] = {}
        for conn in self.conns:
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

    async def _publish_presence(self) -> None:
        snapshot = await self.presence.snapshot(self.room_id)
        key = dumps(snapshot)
        if key == self.last_presence:
            return
        self.last_presence = key
        self.presences_sent += 1
        # Every connection has been sent the published version (or is being sent a sync
        # beyond it); one that knows of a later one re-stamps its copy when writing it.
        message = presence_message(max(self.published, 0), snapshot)
        for conn in self.conns:
            if conn.version is not None:
                conn.put(message)

    async def sync_text(self, conn: Connection) -> str | None:
        """A `sync` for a connection that fell behind: missed events and a fresh view."""
        # what its outbox dropped may have held chat messages
        await self.relay.resend(self.room_id, self.chat, conn, self.conns)
        if self.game_id is None:
            return None
        position = await self.service.reading.position(self.game_id)
        since = conn.version if conn.version is not None else 0
        if since > position.version:
            return None
        missed = await self.service.reading.events(
            self.game_id, since, position.version
        )
        conn.version = position.version
        return sync_message(
            position.version,
            conn.you(),
            dumps([event.as_dict() for event in missed]),
            position.view_json(conn.number),
            position.legal_json(conn.number),
        )


def revoked_reason(now: SeatRow | None) -> str:
    """What a player whose link stopped working is told, in plain words.

    >>> revoked_reason(None)
    'Your seat is no longer yours: you left it (perhaps in another tab). You are watching as a spectator.'
    """
    watching = "You are watching as a spectator."
    if now is None or (now.token_hash is None and now.bot_level is None):
        return f"Your seat is no longer yours: you left it (perhaps in another tab). {watching}"
    if now.bot_level is not None:
        return (
            f"The host handed your seat to {article(now.bot_level)} {now.bot_level} bot, "
            "which plays it from now "
            f"on; your link no longer plays here. {watching}"
        )
    return (
        f"The host handed your seat to {now.name}, who plays it from now on; your link no "
        f"longer plays here. {watching}"
    )


def revoked_message(now: SeatRow | None) -> dict[str, Any]:
    """`revoked_reason` as a message, for the reader's language (static/i18n)."""
    if now is None or (now.token_hash is None and now.bot_level is None):
        return msg("error.bad_token.left")
    if now.bot_level is not None:
        return msg("error.bad_token.to_bot", level=now.bot_level)
    return msg("error.bad_token.to_person", name=now.name)


def article(word: str) -> str:
    """ "a" or "an" before `word` (a bot level: "an easy bot", "a hard bot")."""
    return "an" if word[:1].lower() in "aeiou" else "a"
