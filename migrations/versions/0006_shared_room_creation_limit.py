"""The rooms-per-address-per-minute limit shared by all instances, through PostgreSQL.

- room_creations: rooms created per client address and minute. The address is kept only as
  a keyed hash (HMAC-SHA256, 16 bytes); a row is upserted in the statement that checks the
  limit (app/play/limits.py `SharedRoomLimit`) and pruned once it is two minutes old.
- room_creation_key: the one random key of that hash, written by the first instance that
  needs it, so every instance hashes an address alike.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "room_creations",
        sa.Column("address_hash", sa.LargeBinary(), nullable=False),
        sa.Column("minute", sa.BigInteger(), nullable=False),
        sa.Column("created", sa.Integer(), nullable=False),
        sa.CheckConstraint(
            "octet_length(address_hash) = 16",
            name=op.f("ck_room_creations_address_hash"),
        ),
        sa.CheckConstraint("created >= 1", name=op.f("ck_room_creations_created")),
        sa.PrimaryKeyConstraint(
            "address_hash", "minute", name=op.f("pk_room_creations")
        ),
    )
    op.create_table(
        "room_creation_key",
        sa.Column("id", sa.SmallInteger(), nullable=False),
        sa.Column("key", sa.LargeBinary(), nullable=False),
        sa.CheckConstraint("id = 1", name=op.f("ck_room_creation_key_id")),
        sa.CheckConstraint(
            "octet_length(key) >= 32", name=op.f("ck_room_creation_key_key")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_room_creation_key")),
    )


def downgrade() -> None:
    op.drop_table("room_creation_key")
    op.drop_table("room_creations")
