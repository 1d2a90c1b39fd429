"""ORM declarations: the `Base` every table derives from.

Tables are declared here (or in modules imported here) so that Alembic's autogenerate sees
them through `Base.metadata`. The schema itself only ever changes through revisions in
`migrations/versions/`; `create_all` is for tests of the models alone.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    Float,
    ForeignKey,
    Identity,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    SmallInteger,
    String,
    Text,
    UniqueConstraint,
    false,
    func,
)
from sqlalchemy.dialects.postgresql import ARRAY, JSONB
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

# Named constraints make migrations reviewable and downgrades possible: Alembic can only
# drop a constraint it can name.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    """Declarative base of all tables, with the project's constraint naming convention."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class Room(Base):
    """A room reached by its link: the table where one game is set up and played."""

    __tablename__ = "rooms"
    __table_args__ = (
        CheckConstraint("players BETWEEN 1 AND 8", name="players"),
        CheckConstraint("status IN ('open', 'playing', 'finished')", name="status"),
        CheckConstraint("game ~ '^[a-z][a-z0-9-]{0,31}$'", name="game"),
        CheckConstraint("seat_order IN ('random', 'fixed')", name="seat_order"),
    )

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    # The registry's id of the game (app/games.py) and the options it checked.
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSONB)
    players: Mapped[int] = mapped_column(SmallInteger)
    seat_order: Mapped[str] = mapped_column(String(8))
    status: Mapped[str] = mapped_column(String(16), server_default="open")
    host_token_hash: Mapped[bytes] = mapped_column(LargeBinary(32))
    # Bumped on every change of the room itself (seats, start), announced by NOTIFY.
    revision: Mapped[int] = mapped_column(Integer, server_default="0")
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )


class Seat(Base):
    """A place at the table, held by a person (with a secret token) or a bot."""

    __tablename__ = "seats"
    __table_args__ = (
        # Deferrable: the start of a game permutes the seat numbers in one statement.
        UniqueConstraint(
            "room_id",
            "seat",
            name="uq_seats_room_id_seat",
            deferrable=True,
            initially="DEFERRED",
        ),
        CheckConstraint("seat BETWEEN 0 AND 7", name="seat"),
        CheckConstraint("char_length(name) BETWEEN 1 AND 24", name="name"),
        Index("ix_seats_token_hash", "token_hash", unique=True),
    )

    id: Mapped[int] = mapped_column(BigInteger, Identity(), primary_key=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(SmallInteger)
    name: Mapped[str] = mapped_column(String(24))
    token_hash: Mapped[bytes | None] = mapped_column(LargeBinary(32))
    bot_level: Mapped[str | None] = mapped_column(String(16))
    is_host: Mapped[bool] = mapped_column(Boolean, server_default=false())
    joined_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )
    # The holder is away until then (migration 0017, app/store/away.py).
    away_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class Game(Base):
    """A game in a room: its set-up (with the seed: never sent out), snapshot and version.

    The seed and the move log are the source of truth. `version` is the number of moves
    applied; `snapshot` is the engine's encoded state at `snapshot_version`, written every
    few moves, after them (app/play/snapshots.py), and with the last one, so the state at
    `version` is the snapshot plus the few moves logged after it.
    """

    __tablename__ = "games"
    __table_args__ = (
        CheckConstraint("status IN ('playing', 'finished')", name="status"),
        CheckConstraint(
            "snapshot_version BETWEEN 0 AND version", name="snapshot_version"
        ),
    )

    id: Mapped[int] = mapped_column(BigInteger, Identity(), primary_key=True)
    room_id: Mapped[str] = mapped_column(
        ForeignKey("rooms.id", ondelete="CASCADE"), unique=True
    )
    engine: Mapped[str] = mapped_column(String(64))
    seed: Mapped[int] = mapped_column(BigInteger)
    setup: Mapped[dict[str, Any]] = mapped_column(JSONB)
    snapshot: Mapped[dict[str, Any]] = mapped_column(JSONB)
    snapshot_version: Mapped[int] = mapped_column(Integer, server_default="0")
    version: Mapped[int] = mapped_column(Integer, server_default="0")
    status: Mapped[str] = mapped_column(String(16), server_default="playing")
    current_seat: Mapped[int | None] = mapped_column(SmallInteger)
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )
    # Whether the room has a time control: set when the game starts (trigger
    # games_mark_timed, migration 0007), so the turn trigger fires only when needed.
    timed: Mapped[bool] = mapped_column(Boolean, server_default=false())


class Move(Base):
    """The append-only move log: one row per accepted action, numbered from 1."""

    __tablename__ = "moves"
    __table_args__ = (
        UniqueConstraint("game_id", "move_id", name="uq_moves_game_id_move_id"),
        CheckConstraint("seq >= 1", name="seq"),
    )

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(SmallInteger)
    action: Mapped[dict[str, Any]] = mapped_column(JSONB)
    move_id: Mapped[str] = mapped_column(String(64))
    # The engine's narration, kept so the log reads without replaying the game.
    text: Mapped[str] = mapped_column(Text)
    # The same line as a message for the reader's language (docs/i18n.md); null before 0014.
    message: Mapped[dict[str, Any] | None] = mapped_column(JSONB, nullable=True)
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )


class RoomPresence(Base):
    """Who is connected to a room through one server instance; rows expire when not refreshed."""

    __tablename__ = "room_presence"

    room_id: Mapped[str] = mapped_column(
        ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True
    )
    instance: Mapped[str] = mapped_column(String(32), primary_key=True)
    seats: Mapped[list[int]] = mapped_column(ARRAY(SmallInteger))
    spectators: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )


# --- async play (migration 0003): time control, turn webhooks, seat history ---------------
# Rows of turn_deadlines and webhook_outbox are written by the trigger games_turn_changed,
# in the transaction of the move; seat_history by seats_holder_changed (see 0003).


class TimeControl(Base):
    """A room's per-move deadline and what happens when it passes ("wait" or "bot")."""

    __tablename__ = "time_controls"
    __table_args__ = (
        CheckConstraint("per_move_s BETWEEN 1 AND 2592000", name="per_move_s"),
        CheckConstraint("policy IN ('wait', 'bot')", name="policy"),
    )

    room_id: Mapped[str] = mapped_column(
        ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True
    )
    per_move_s: Mapped[int] = mapped_column(Integer)
    policy: Mapped[str] = mapped_column(String(8))
    bot_level: Mapped[str | None] = mapped_column(String(16))


class TurnDeadline(Base):
    """When the seat to act in a game must have moved; claimed by one instance when due."""

    __tablename__ = "turn_deadlines"
    __table_args__ = (
        Index("ix_turn_deadlines_due_at", "due_at", postgresql_where="NOT overdue"),
        Index("ix_turn_deadlines_room_id", "room_id"),
    )

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(SmallInteger)
    version: Mapped[int] = mapped_column(Integer)
    due_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    overdue: Mapped[bool] = mapped_column(Boolean, server_default=false())
    claimed_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    claimed_by: Mapped[str | None] = mapped_column(String(32))


class DeadlineHandling(Base):
    """One handling of a passed deadline: by which instance, under which policy."""

    __tablename__ = "deadline_log"
    __table_args__ = (Index("ix_deadline_log_game_id_version", "game_id", "version"),)

    id: Mapped[int] = mapped_column(BigInteger, Identity(), primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    version: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(SmallInteger)
    policy: Mapped[str] = mapped_column(String(8))
    instance: Mapped[str] = mapped_column(String(32))
    handled_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )


class SeatWebhook(Base):
    """The URL the holder of a seat asked to be called on their turn."""

    __tablename__ = "seat_webhooks"
    __table_args__ = (CheckConstraint("char_length(url) <= 2048", name="url"),)

    seat_id: Mapped[int] = mapped_column(
        ForeignKey("seats.id", ondelete="CASCADE"), primary_key=True
    )
    url: Mapped[str] = mapped_column(Text)
    # The site's address as its holder reached it, for the room link in the call.
    base_url: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )


class WebhookCall(Base):
    """One "it is your turn" call owed to a seat's webhook, retried until done."""

    __tablename__ = "webhook_outbox"
    __table_args__ = (
        UniqueConstraint(
            "seat_id", "version", name="uq_webhook_outbox_seat_id_version"
        ),
        CheckConstraint(
            "status IN ('pending', 'delivered', 'failed', 'cancelled')", name="status"
        ),
        Index(
            "ix_webhook_outbox_next_attempt_at",
            "next_attempt_at",
            postgresql_where="status = 'pending'",
        ),
    )

    id: Mapped[int] = mapped_column(BigInteger, Identity(), primary_key=True)
    seat_id: Mapped[int] = mapped_column(ForeignKey("seats.id", ondelete="CASCADE"))
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(SmallInteger)
    version: Mapped[int] = mapped_column(Integer)
    url: Mapped[str] = mapped_column(Text)
    base_url: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(12), server_default="pending")
    attempts: Mapped[int] = mapped_column(SmallInteger, server_default="0")
    next_attempt_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )
    claimed_by: Mapped[str | None] = mapped_column(String(32))
    last_error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class SeatHolding(Base):
    """A past holder of a seat: who, from when until when, and how it ended."""

    __tablename__ = "seat_history"
    __table_args__ = (
        CheckConstraint("ended IN ('left', 'new_person', 'bot')", name="ended"),
        Index("ix_seat_history_room_id", "room_id"),
    )

    id: Mapped[int] = mapped_column(BigInteger, Identity(), primary_key=True)
    seat_id: Mapped[int] = mapped_column(ForeignKey("seats.id", ondelete="CASCADE"))
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(SmallInteger)
    name: Mapped[str] = mapped_column(String(24))
    bot_level: Mapped[str | None] = mapped_column(String(16))
    held_from: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    held_until: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )
    until_version: Mapped[int] = mapped_column(Integer, server_default="0")
    ended: Mapped[str] = mapped_column(String(12))


class Rematch(Base):
    """The rematch of a finished room: a new room with the same players (app/play/rematch.py)."""

    __tablename__ = "rematches"

    room_id: Mapped[str] = mapped_column(
        ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True
    )
    rematch_id: Mapped[str] = mapped_column(
        ForeignKey("rooms.id", ondelete="CASCADE"), unique=True
    )
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )


class RematchSeat(Base):
    """Which seat of a rematch an old seat became (seat numbers change at the start)."""

    __tablename__ = "rematch_seats"

    old_seat_id: Mapped[int] = mapped_column(
        ForeignKey("seats.id", ondelete="CASCADE"), primary_key=True
    )
    new_seat_id: Mapped[int] = mapped_column(
        ForeignKey("seats.id", ondelete="CASCADE"), unique=True
    )


class ImportedRecord(Base):
    """A game record uploaded to be viewed as a replay (docs/records.md).

    The id is taken from the SHA-256 of the record's canonical JSON, so importing the same
    record twice gives the same link; `body` is the record as JSON text, kept as it came.
    """

    __tablename__ = "game_records"
    __table_args__ = (CheckConstraint("char_length(id) = 16", name="id"),)

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))  # the registry's id (migration 0011)
    body: Mapped[str] = mapped_column(Text)
    moves: Mapped[int] = mapped_column(Integer)
    # "playing" or "finished", what its replay answers with (migration 0010).
    status: Mapped[str | None] = mapped_column(String(16), nullable=True)
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )


# --- the states replays start from (migration 0010, app/records/replays.py) ------------------------


class Snapshot(Base):
    """The encoded state of a room's game at a version (every `SNAPSHOT_EVERY`-th one)."""

    __tablename__ = "snapshots"
    __table_args__ = (CheckConstraint("version >= 0", name="version"),)

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    state: Mapped[dict[str, Any]] = mapped_column(JSONB)


class RecordSnapshot(Base):
    """The encoded state of an imported record at a version, and the moves after it up to
    the next such row: one row is all a replay of those moves reads."""

    __tablename__ = "record_snapshots"
    __table_args__ = (CheckConstraint("version >= 0", name="version"),)

    record_id: Mapped[str] = mapped_column(
        ForeignKey("game_records.id", ondelete="CASCADE"), primary_key=True
    )
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    state: Mapped[dict[str, Any]] = mapped_column(JSONB)
    moves: Mapped[list[dict[str, Any]]] = mapped_column(JSONB)


# --- the room-creation limit shared by instances (migration 0006, app/play/limits.py) -----------


class RoomCreations(Base):
    """Rooms created from one client address (a keyed hash of it) in one minute."""

    __tablename__ = "room_creations"
    __table_args__ = (
        CheckConstraint("octet_length(address_hash) = 16", name="address_hash"),
        CheckConstraint("created >= 1", name="created"),
    )

    address_hash: Mapped[bytes] = mapped_column(LargeBinary, primary_key=True)
    minute: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    created: Mapped[int] = mapped_column(Integer)


class RoomCreationKey(Base):
    """The one random key of the address hash in room_creations, shared by instances."""

    __tablename__ = "room_creation_key"
    __table_args__ = (
        CheckConstraint("id = 1", name="id"),
        CheckConstraint("octet_length(key) >= 32", name="key"),
    )

    id: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    key: Mapped[bytes] = mapped_column(LargeBinary)


# --- the key that signs exported game records (migration 0008, app/records/signing.py) ------


class RecordSigningKey(Base):
    """The one random key of the records' signatures, unless ISHTAR_RECORD_SIGNING_KEY is set."""

    __tablename__ = "record_signing_key"
    __table_args__ = (
        CheckConstraint("id = 1", name="id"),
        CheckConstraint("octet_length(key) >= 32", name="key"),
    )

    id: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    key: Mapped[bytes] = mapped_column(LargeBinary)
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )


# --- the quota of all-bot rooms per address (migration 0009, app/background/bot_quota.py) -------------


class BotRoomOwner(Base):
    """The client address (a keyed hash) that filled a room with bots only."""

    __tablename__ = "bot_room_owners"
    __table_args__ = (
        CheckConstraint("octet_length(address_hash) = 16", name="address_hash"),
    )

    room_id: Mapped[str] = mapped_column(
        ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True
    )
    address_hash: Mapped[bytes] = mapped_column(LargeBinary, index=True)
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )


# --- table chat (migration 0012, app/store/chat.py) ------------------------------------------


class ChatRoom(Base):
    """A room's chat: the last sequence number given to a message, and the host's switch."""

    __tablename__ = "chat_rooms"
    __table_args__ = (CheckConstraint("last_seq >= 0", name="last_seq"),)

    room_id: Mapped[str] = mapped_column(
        ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True
    )
    last_seq: Mapped[int] = mapped_column(Integer, server_default="0")
    spectators_open: Mapped[bool] = mapped_column(Boolean, server_default="true")


class ChatMessage(Base):
    """One message of a room's chat, numbered per room; never part of a game record."""

    __tablename__ = "chat_messages"
    __table_args__ = (
        CheckConstraint("seq >= 1", name="seq"),
        CheckConstraint("channel IN ('table', 'spectators')", name="channel"),
        CheckConstraint("(seat IS NULL) = (channel = 'spectators')", name="author"),
        CheckConstraint("seat BETWEEN 0 AND 7", name="seat"),
        CheckConstraint("char_length(name) BETWEEN 1 AND 24", name="name"),
        CheckConstraint("char_length(text) BETWEEN 1 AND 500", name="text"),
        Index(
            "ix_chat_messages_seat_id",
            "seat_id",
            "seq",
            postgresql_where="seat_id IS NOT NULL",
        ),
    )

    room_id: Mapped[str] = mapped_column(
        ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    channel: Mapped[str] = mapped_column(String(12))
    # The author's seat number at the time; None for a spectator.
    seat: Mapped[int | None] = mapped_column(SmallInteger)
    # The author's seat row, for the per-token rate limit.
    seat_id: Mapped[int | None] = mapped_column(
        ForeignKey("seats.id", ondelete="SET NULL")
    )
    name: Mapped[str] = mapped_column(String(24))
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )


# --- the server's own secrets (migration 0016, app/store/server_secrets.py) -----------------


class ServerSecret(Base):
    """One random key the server keeps for itself (by name: ``bot_seed``), shared by all
    instances and never sent to a client."""

    __tablename__ = "server_secrets"
    __table_args__ = (CheckConstraint("octet_length(key) >= 32", name="key"),)

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    key: Mapped[bytes] = mapped_column(LargeBinary)
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )


# --- reaching players: push, the digest, away (migration 0017) ------------------------------


class AwayPeriod(Base):
    """A time a seat's holder was (or is) away, for the yearly allowance."""

    __tablename__ = "away_periods"
    __table_args__ = (
        CheckConstraint("away_until >= away_from", name="span"),
        Index("ix_away_periods_seat_id", "seat_id"),
    )

    id: Mapped[int] = mapped_column(BigInteger, Identity(), primary_key=True)
    seat_id: Mapped[int] = mapped_column(ForeignKey("seats.id", ondelete="CASCADE"))
    away_from: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    away_until: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PushSubscription(Base):
    """A browser's Web Push subscription for a seat."""

    __tablename__ = "push_subscriptions"
    __table_args__ = (
        UniqueConstraint(
            "seat_id", "endpoint", name="uq_push_subscriptions_seat_id_endpoint"
        ),
        CheckConstraint("char_length(endpoint) <= 2048", name="endpoint"),
        CheckConstraint(
            "octet_length(p256dh) = 65 AND octet_length(auth) = 16", name="keys"
        ),
    )

    id: Mapped[int] = mapped_column(BigInteger, Identity(), primary_key=True)
    seat_id: Mapped[int] = mapped_column(ForeignKey("seats.id", ondelete="CASCADE"))
    endpoint: Mapped[str] = mapped_column(Text)
    p256dh: Mapped[bytes] = mapped_column(LargeBinary)
    auth: Mapped[bytes] = mapped_column(LargeBinary)
    lang: Mapped[str] = mapped_column(String(8))
    base_url: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )


class PushCall(Base):
    """One push owed to a subscription (a turn, or the end of the game)."""

    __tablename__ = "push_outbox"
    __table_args__ = (
        UniqueConstraint(
            "subscription_id", "version", name="uq_push_outbox_subscription_id_version"
        ),
        CheckConstraint(
            "status IN ('pending', 'delivered', 'failed', 'cancelled')", name="status"
        ),
        CheckConstraint("event IN ('turn', 'end')", name="event"),
        Index(
            "ix_push_outbox_next_attempt_at",
            "next_attempt_at",
            postgresql_where="status = 'pending'",
        ),
    )

    id: Mapped[int] = mapped_column(BigInteger, Identity(), primary_key=True)
    subscription_id: Mapped[int] = mapped_column(
        ForeignKey("push_subscriptions.id", ondelete="CASCADE")
    )
    seat_id: Mapped[int] = mapped_column(BigInteger)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(SmallInteger)
    version: Mapped[int] = mapped_column(Integer)
    event: Mapped[str] = mapped_column(String(8))
    status: Mapped[str] = mapped_column(String(12), server_default="pending")
    attempts: Mapped[int] = mapped_column(SmallInteger, server_default="0")
    next_attempt_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )
    claimed_by: Mapped[str | None] = mapped_column(String(32))
    last_error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class SeatEmail(Base):
    """The address a seat's holder left for the digest (confirmed by a link first)."""

    __tablename__ = "seat_emails"
    __table_args__ = (
        Index("ix_seat_emails_address", "address"),
        Index("ix_seat_emails_confirm_hash", "confirm_hash", unique=True),
    )

    seat_id: Mapped[int] = mapped_column(
        ForeignKey("seats.id", ondelete="CASCADE"), primary_key=True
    )
    address: Mapped[str] = mapped_column(String(254))
    lang: Mapped[str] = mapped_column(String(8))
    base_url: Mapped[str] = mapped_column(Text)
    confirm_hash: Mapped[bytes | None] = mapped_column(LargeBinary)
    confirmed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )


class MailDigest(Base):
    """When an address last got a digest (at most one per period)."""

    __tablename__ = "mail_digests"

    address: Mapped[str] = mapped_column(String(254), primary_key=True)
    last_sent_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    sent: Mapped[int] = mapped_column(Integer, server_default="0")


# --- analyses of finished games (migration 0018, app/store/analyses.py) ----------------------


class AnalysisJob(Base):
    """The analysis of one finished game by one engine version: queued, computed by the
    background workers of any instance (claimed with a lease), kept for everyone."""

    __tablename__ = "analysis_jobs"
    __table_args__ = (
        CheckConstraint(
            "status IN ('queued', 'running', 'done', 'failed')", name="status"
        ),
        UniqueConstraint("game_id", "engine_version", name="uq_analysis_jobs_game_id"),
        Index(
            "ix_analysis_jobs_open",
            "created_at",
            postgresql_where="status IN ('queued', 'running')",
        ),
        Index("ix_analysis_jobs_address", "address_hash", "created_at"),
    )

    id: Mapped[int] = mapped_column(BigInteger, Identity(), primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    room_id: Mapped[str] = mapped_column(String(64))
    engine_version: Mapped[str] = mapped_column(String(32))
    status: Mapped[str] = mapped_column(String(16), server_default="queued")
    address_hash: Mapped[bytes | None] = mapped_column(LargeBinary)
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )
    watched_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )
    claimed_by: Mapped[str | None] = mapped_column(String(64))
    claimed_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    attempts: Mapped[int] = mapped_column(SmallInteger, server_default="0")
    done: Mapped[int] = mapped_column(Integer, server_default="0")
    total: Mapped[int] = mapped_column(Integer, server_default="0")
    result: Mapped[dict[str, Any] | None] = mapped_column(JSONB)
    error: Mapped[str | None] = mapped_column(Text)
    cpu_s: Mapped[float | None] = mapped_column(Float)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
