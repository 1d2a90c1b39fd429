"""Table chat: the messages of a room's chat, and its per-room counter and setting.

- chat_rooms: one row per room that has chatted or changed its chat setting: the last
  sequence number given to a message of the room (`last_seq`: each message takes the next
  one under this row's lock, so the numbers of a room have no gaps and follow the commit
  order) and whether spectators may write (`spectators_open`, the host's switch).
  A room without a row has sent nothing and lets spectators write.
- chat_messages: one row per message, keyed by (room, seq): its channel (`table`, written
  by the seated players; `spectators`, written by spectators), the author's seat number at
  the time (NULL for a spectator) and seat row (for the per-token rate limit; NULL for a
  spectator, and once the seat is gone), the author's display name at the time, the text
  (1 to 500 characters, cleaned by app/play/chat.py) and the time. The service keeps at most
  5,000 messages per room, pruning the oldest (docs/protocol.md, "Table chat").

Chat is never part of a game record. Downgrade drops both tables (and the messages).

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "chat_rooms",
        sa.Column("room_id", sa.String(16), nullable=False),
        sa.Column(
            "last_seq", sa.Integer(), server_default=sa.text("0"), nullable=False
        ),
        sa.Column(
            "spectators_open",
            sa.Boolean(),
            server_default=sa.true(),
            nullable=False,
        ),
        sa.CheckConstraint("last_seq >= 0", name=op.f("ck_chat_rooms_last_seq")),
        sa.ForeignKeyConstraint(
            ["room_id"],
            ["rooms.id"],
            name=op.f("fk_chat_rooms_room_id_rooms"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("room_id", name=op.f("pk_chat_rooms")),
    )
    op.create_table(
        "chat_messages",
        sa.Column("room_id", sa.String(16), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("channel", sa.String(12), nullable=False),
        sa.Column("seat", sa.SmallInteger(), nullable=True),
        sa.Column("seat_id", sa.BigInteger(), nullable=True),
        sa.Column("name", sa.String(24), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.CheckConstraint("seq >= 1", name=op.f("ck_chat_messages_seq")),
        sa.CheckConstraint(
            "channel IN ('table', 'spectators')", name=op.f("ck_chat_messages_channel")
        ),
        # Players write the table's channel, spectators their own.
        sa.CheckConstraint(
            "(seat IS NULL) = (channel = 'spectators')",
            name=op.f("ck_chat_messages_author"),
        ),
        sa.CheckConstraint("seat BETWEEN 0 AND 7", name=op.f("ck_chat_messages_seat")),
        sa.CheckConstraint(
            "char_length(name) BETWEEN 1 AND 24", name=op.f("ck_chat_messages_name")
        ),
        sa.CheckConstraint(
            "char_length(text) BETWEEN 1 AND 500", name=op.f("ck_chat_messages_text")
        ),
        sa.ForeignKeyConstraint(
            ["room_id"],
            ["rooms.id"],
            name=op.f("fk_chat_messages_room_id_rooms"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["seat_id"],
            ["seats.id"],
            name=op.f("fk_chat_messages_seat_id_seats"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("room_id", "seq", name=op.f("pk_chat_messages")),
    )
    # The per-token rate limit reads a seat's latest messages in its room.
    op.create_index(
        op.f("ix_chat_messages_seat_id"),
        "chat_messages",
        ["seat_id", "seq"],
        postgresql_where=sa.text("seat_id IS NOT NULL"),
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_chat_messages_seat_id"), table_name="chat_messages")
    op.drop_table("chat_messages")
    op.drop_table("chat_rooms")
