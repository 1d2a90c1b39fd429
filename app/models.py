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
        CheckConstraint("players BETWEEN 2 AND 4", name="players"),
        CheckConstraint("status IN ('open', 'playing', 'finished')", name="status"),
        CheckConstraint("layout IN ('preset', 'random')", name="layout"),
        CheckConstraint("seat_order IN ('random', 'fixed')", name="seat_order"),
    )

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    players: Mapped[int] = mapped_column(SmallInteger)
    layout: Mapped[str] = mapped_column(String(16))
    first_player: Mapped[int | None] = mapped_column(SmallInteger)
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
        CheckConstraint("seat BETWEEN 0 AND 3", name="seat"),
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


class Game(Base):
    """A game in a room: its set-up (with the seed: never sent out), snapshot and version.

    The seed and the move log are the source of truth; `snapshot` is the engine's encoded
    state at `version` (= the number of moves applied), kept so nobody has to replay.
    """

    __tablename__ = "games"
    __table_args__ = (
        CheckConstraint("status IN ('playing', 'finished')", name="status"),
    )

    id: Mapped[int] = mapped_column(BigInteger, Identity(), primary_key=True)
    room_id: Mapped[str] = mapped_column(
        ForeignKey("rooms.id", ondelete="CASCADE"), unique=True
    )
    engine: Mapped[str] = mapped_column(String(64))
    seed: Mapped[int] = mapped_column(BigInteger)
    setup: Mapped[dict[str, Any]] = mapped_column(JSONB)
    snapshot: Mapped[dict[str, Any]] = mapped_column(JSONB)
    version: Mapped[int] = mapped_column(Integer, server_default="0")
    status: Mapped[str] = mapped_column(String(16), server_default="playing")
    current_seat: Mapped[int | None] = mapped_column(SmallInteger)
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )


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
