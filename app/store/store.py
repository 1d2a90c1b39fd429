"""Persistence of rooms, seats, games and the move log, with optimistic concurrency.

`Store` is all the SQL of the game server, in parts over the asyncpg pools of
app/store/pool.py. The room service's own parts are mixed in: rooms and joining them
(app/store/rooms.py), seats changing hands (app/store/seats.py), games and the move log
(app/store/games.py), presence (app/store/presence.py). The others hang off it by name, one
module per concept:

- ``store.records`` (app/store/records.py): games as records, imported records, rematches;
- ``store.replays`` (app/store/replays.py): the states and moves a replay starts from;
- ``store.time_controls`` (app/store/time_controls.py): a room's time control and clock;
- ``store.deadlines`` (app/store/deadlines.py): claiming passed turn deadlines;
- ``store.webhooks`` (app/store/webhooks.py): seats' webhooks and the outbox of calls;
- ``store.bot_rooms`` (app/store/bot_rooms.py): all-bot rooms per client address;
- ``store.room_limits`` (app/store/room_limits.py): room creations per address per minute;
- ``store.chat`` (app/store/chat.py): table chat, its numbers and the spectators' switch;
- ``store.secrets`` (app/store/server_secrets.py): the server's own keys, shared by instances;
- ``store.push`` (app/store/push.py): seats' Web Push subscriptions and the push outbox;
- ``store.mail`` (app/store/mail.py): seats' e-mail addresses and the digests sent;
- ``store.away`` (app/store/away.py): seats marked away, and their periods.
- ``store.analyses`` (app/store/analyses.py): analyses of finished games, queued and kept.

The rows it hands out are in app/store/rows.py. Every write that others must hear about
sends `NOTIFY` (app/store/channel.py) in the same transaction (a room's change through
`bump_revision`, app/store/revision.py), so the notice is delivered only once the change is
committed. This module and its parts know SQL and no rules; `app.play.service` decides what
to write.
"""

from __future__ import annotations

import asyncpg  # type: ignore[import-untyped]

from app.store.analyses import AnalysisStore
from app.store.away import AwayStore
from app.store.bot_rooms import BotRoomStore
from app.store.channel import CHANNEL, NOTIFY, NOTIFY_MANY, NoticeKind, notice
from app.store.chat import ChatStore
from app.store.deadlines import DeadlineStore
from app.store.games import GameStore
from app.store.mail import MailStore
from app.store.pool import CONNECTION_ERRORS, Unavailable
from app.store.presence import PresenceStore
from app.store.push import PushStore
from app.store.records import RecordStore
from app.store.replays import ReplayStore
from app.store.room_limits import RoomLimitStore
from app.store.rooms import RoomStore
from app.store.seats import SeatStore
from app.store.server_secrets import ServerSecretStore
from app.store.time_controls import TimeControlStore
from app.store.webhooks import WebhookStore


class Store(RoomStore, SeatStore, GameStore, PresenceStore):
    """All SQL of the game server, over an asyncpg pool (and a `light` one: `Pools`)."""

    def __init__(
        self,
        pool: asyncpg.Pool,
        light: asyncpg.Pool | None = None,
    ) -> None:
        super().__init__(pool, light)
        self.records = RecordStore(pool, light)
        self.replays = ReplayStore(pool, light)
        self.time_controls = TimeControlStore(pool, light)
        self.deadlines = DeadlineStore(pool, light)
        self.webhooks = WebhookStore(pool, light)
        self.bot_rooms = BotRoomStore(pool, light)
        self.room_limits = RoomLimitStore(pool, light)
        self.chat = ChatStore(pool, light)
        self.secrets = ServerSecretStore(pool, light)
        self.push = PushStore(pool, light)
        self.mail = MailStore(pool, light)
        self.away = AwayStore(pool, light)
        self.analyses = AnalysisStore(pool, light)

    async def announce(self, room_id: str, kind: NoticeKind, number: int) -> None:
        """NOTIFY every instance that a room changed (after the change was committed)."""
        try:
            async with self.light.acquire() as conn:
                await conn.execute(NOTIFY, CHANNEL, notice(room_id, kind, number))
        except CONNECTION_ERRORS as error:
            raise Unavailable(str(error)) from error

    async def announce_many(self, notices: list[str]) -> None:
        """NOTIFY every instance of several changes in one statement, in their order."""
        try:
            async with self.light.acquire() as conn:
                await conn.execute(NOTIFY_MANY, CHANNEL, notices)
        except CONNECTION_ERRORS as error:
            raise Unavailable(str(error)) from error
