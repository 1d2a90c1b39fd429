"""Who filled a room with bots only: the quota of all-bot rooms per client address.

- bot_room_owners: for a room whose every seat went to a bot, the client address that seated
  the last of them (a keyed hash, 16 bytes, as in room_creations). The quota
  (app/background/bot_quota.py) counts an address's rooms that still have no person and are not
  finished; the row goes with its room.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "bot_room_owners",
        sa.Column("room_id", sa.String(16), nullable=False),
        sa.Column("address_hash", sa.LargeBinary(), nullable=False),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.CheckConstraint(
            "octet_length(address_hash) = 16",
            name=op.f("ck_bot_room_owners_address_hash"),
        ),
        sa.ForeignKeyConstraint(
            ["room_id"],
            ["rooms.id"],
            name=op.f("fk_bot_room_owners_room_id_rooms"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("room_id", name=op.f("pk_bot_room_owners")),
    )
    op.create_index(
        op.f("ix_bot_room_owners_address_hash"), "bot_room_owners", ["address_hash"]
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_bot_room_owners_address_hash"), table_name="bot_room_owners")
    op.drop_table("bot_room_owners")
