"""Records and rematches (issue 8): imported game records and the rematch of a room.

- rematches: for a finished room, the room of its rematch (one at most, created by the first
  player to ask; the others' seat tokens are exchanged for seats there).
- rematch_seats: which seat of the rematch each old seat became (seat numbers change when
  the rematch starts, so the link is by seat row).
- game_records: game records uploaded to be replayed, keyed by the SHA-256 of their
  canonical JSON (docs/records.md).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_NOW = sa.text("now()")


def upgrade() -> None:
    op.create_table(
        "rematches",
        sa.Column("room_id", sa.String(16), nullable=False),
        sa.Column("rematch_id", sa.String(16), nullable=False),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=_NOW,
            nullable=False,
        ),
        sa.ForeignKeyConstraint(
            ["room_id"],
            ["rooms.id"],
            name=op.f("fk_rematches_room_id_rooms"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["rematch_id"],
            ["rooms.id"],
            name=op.f("fk_rematches_rematch_id_rooms"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("room_id", name=op.f("pk_rematches")),
        sa.UniqueConstraint("rematch_id", name=op.f("uq_rematches_rematch_id")),
    )
    op.create_table(
        "rematch_seats",
        sa.Column("old_seat_id", sa.BigInteger(), nullable=False),
        sa.Column("new_seat_id", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["old_seat_id"],
            ["seats.id"],
            name=op.f("fk_rematch_seats_old_seat_id_seats"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["new_seat_id"],
            ["seats.id"],
            name=op.f("fk_rematch_seats_new_seat_id_seats"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("old_seat_id", name=op.f("pk_rematch_seats")),
        sa.UniqueConstraint("new_seat_id", name=op.f("uq_rematch_seats_new_seat_id")),
    )
    op.create_table(
        "game_records",
        sa.Column("id", sa.String(16), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("moves", sa.Integer(), nullable=False),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=_NOW,
            nullable=False,
        ),
        sa.CheckConstraint("char_length(id) = 16", name=op.f("ck_game_records_id")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game_records")),
    )


def downgrade() -> None:
    op.drop_table("game_records")
    op.drop_table("rematch_seats")
    op.drop_table("rematches")
