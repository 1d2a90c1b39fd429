"""The key that signs the game records this server exports (app/records/signing.py).

- record_signing_key: one random key (32 bytes or more), written by the first instance that
  exports a record when `ISHTAR_RECORD_SIGNING_KEY` is not set, and read by the others: every
  instance on this database signs alike, and a restart keeps the key (records exported
  before it still verify as this server's). Never sent to a client.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "record_signing_key",
        sa.Column("id", sa.SmallInteger(), nullable=False),
        sa.Column("key", sa.LargeBinary(), nullable=False),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.CheckConstraint("id = 1", name=op.f("ck_record_signing_key_id")),
        sa.CheckConstraint(
            "octet_length(key) >= 32", name=op.f("ck_record_signing_key_key")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_record_signing_key")),
    )


def downgrade() -> None:
    op.drop_table("record_signing_key")
