"""Rooms, seats, games, the append-only move log and per-instance presence.

- rooms: one per link; `revision` counts changes of the room (seats, start).
- seats: a person (token stored as SHA-256) or a bot (`bot_level`); (room_id, seat) unique,
  deferrable so the start of a game can permute seat numbers in one transaction.
- games: seed and set-up (never sent to clients), the encoded state `snapshot` at `version`.
- moves: append-only (a trigger refuses UPDATE and DELETE, except a cascade from its game); (game_id, seq) is the primary key
  and (game_id, move_id) unique, so a game cannot fork and a retried move cannot apply twice.
- room_presence: which seats and how many spectators each server instance has connected.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_NOW = sa.text("now()")


def upgrade() -> None:
    op.create_table(
        "rooms",
        sa.Column("id", sa.String(16), nullable=False),
        sa.Column("players", sa.SmallInteger(), nullable=False),
        sa.Column("layout", sa.String(16), nullable=False),
        sa.Column("first_player", sa.SmallInteger(), nullable=True),
        sa.Column("seat_order", sa.String(8), nullable=False),
        sa.Column("status", sa.String(16), server_default="open", nullable=False),
        sa.Column("host_token_hash", sa.LargeBinary(32), nullable=False),
        sa.Column("revision", sa.Integer(), server_default="0", nullable=False),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=_NOW,
            nullable=False,
        ),
        sa.CheckConstraint("players BETWEEN 2 AND 4", name=op.f("ck_rooms_players")),
        sa.CheckConstraint(
            "status IN ('open', 'playing', 'finished')", name=op.f("ck_rooms_status")
        ),
        sa.CheckConstraint(
            "layout IN ('preset', 'random')", name=op.f("ck_rooms_layout")
        ),
        sa.CheckConstraint(
            "seat_order IN ('random', 'fixed')", name=op.f("ck_rooms_seat_order")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rooms")),
    )
    op.create_table(
        "seats",
        sa.Column("id", sa.BigInteger(), sa.Identity(), nullable=False),
        sa.Column("room_id", sa.String(16), nullable=False),
        sa.Column("seat", sa.SmallInteger(), nullable=False),
        sa.Column("name", sa.String(24), nullable=False),
        sa.Column("token_hash", sa.LargeBinary(32), nullable=True),
        sa.Column("bot_level", sa.String(16), nullable=True),
        sa.Column("is_host", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column(
            "joined_at", sa.DateTime(timezone=True), server_default=_NOW, nullable=False
        ),
        sa.CheckConstraint("seat BETWEEN 0 AND 3", name=op.f("ck_seats_seat")),
        sa.CheckConstraint(
            "char_length(name) BETWEEN 1 AND 24", name=op.f("ck_seats_name")
        ),
        sa.ForeignKeyConstraint(
            ["room_id"],
            ["rooms.id"],
            name=op.f("fk_seats_room_id_rooms"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seats")),
        sa.UniqueConstraint(
            "room_id",
            "seat",
            name="uq_seats_room_id_seat",
            deferrable=True,
            initially="DEFERRED",
        ),
    )
    op.create_index("ix_seats_token_hash", "seats", ["token_hash"], unique=True)
    op.create_table(
        "games",
        sa.Column("id", sa.BigInteger(), sa.Identity(), nullable=False),
        sa.Column("room_id", sa.String(16), nullable=False),
        sa.Column("engine", sa.String(64), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("setup", postgresql.JSONB(), nullable=False),
        sa.Column("snapshot", postgresql.JSONB(), nullable=False),
        sa.Column("version", sa.Integer(), server_default="0", nullable=False),
        sa.Column("status", sa.String(16), server_default="playing", nullable=False),
        sa.Column("current_seat", sa.SmallInteger(), nullable=True),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=_NOW,
            nullable=False,
        ),
        sa.Column(
            "updated_at",
            sa.DateTime(timezone=True),
            server_default=_NOW,
            nullable=False,
        ),
        sa.CheckConstraint(
            "status IN ('playing', 'finished')", name=op.f("ck_games_status")
        ),
        sa.ForeignKeyConstraint(
            ["room_id"],
            ["rooms.id"],
            name=op.f("fk_games_room_id_rooms"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
        sa.UniqueConstraint("room_id", name=op.f("uq_games_room_id")),
    )
    op.create_table(
        "moves",
        sa.Column("game_id", sa.BigInteger(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("seat", sa.SmallInteger(), nullable=False),
        sa.Column("action", postgresql.JSONB(), nullable=False),
        sa.Column("move_id", sa.String(64), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=_NOW,
            nullable=False,
        ),
        sa.CheckConstraint("seq >= 1", name=op.f("ck_moves_seq")),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_moves_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", "seq", name=op.f("pk_moves")),
        sa.UniqueConstraint("game_id", "move_id", name="uq_moves_game_id_move_id"),
    )
    # The log is append-only: history is never rewritten, only added to.
    op.execute(
        """
        CREATE FUNCTION moves_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            -- Deleting a whole game (a cascade from games/rooms) is allowed; editing is not.
            IF TG_OP = 'DELETE' AND pg_trigger_depth() > 1 THEN
                RETURN OLD;
            END IF;
            RAISE EXCEPTION 'the move log is append-only (% refused)', TG_OP;
        END $$
        """
    )
    op.execute(
        "CREATE TRIGGER moves_append_only BEFORE UPDATE OR DELETE ON moves"
        " FOR EACH ROW EXECUTE FUNCTION moves_append_only()"
    )
    op.create_table(
        "room_presence",
        sa.Column("room_id", sa.String(16), nullable=False),
        sa.Column("instance", sa.String(32), nullable=False),
        sa.Column("seats", postgresql.ARRAY(sa.SmallInteger()), nullable=False),
        sa.Column("spectators", sa.Integer(), nullable=False),
        sa.Column(
            "updated_at",
            sa.DateTime(timezone=True),
            server_default=_NOW,
            nullable=False,
        ),
        sa.ForeignKeyConstraint(
            ["room_id"],
            ["rooms.id"],
            name=op.f("fk_room_presence_room_id_rooms"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("room_id", "instance", name=op.f("pk_room_presence")),
    )


def downgrade() -> None:
    op.drop_table("room_presence")
    op.execute("DROP TRIGGER moves_append_only ON moves")
    op.execute("DROP FUNCTION moves_append_only()")
    op.drop_table("moves")
    op.drop_table("games")
    op.drop_index("ix_seats_token_hash", table_name="seats")
    op.drop_table("seats")
    op.drop_table("rooms")
