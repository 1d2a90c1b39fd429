"""Secrets the server keeps for itself, one row each, shared by every instance.

- server_secrets: one random key (32 bytes or more) per name, written by the first instance
  that needs it (the others read the same, so every instance computes alike) and kept across
  restarts. Never sent to a client. The first is ``bot_seed``, the key of the seeds bots
  play with (app/background/bot_seeds.py): with it, a bot's choices give away nothing of
  the game's id.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-04
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "server_secrets",
        sa.Column("name", sa.String(length=32), nullable=False),
        sa.Column("key", sa.LargeBinary(), nullable=False),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.CheckConstraint(
            "octet_length(key) >= 32", name=op.f("ck_server_secrets_key")
        ),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_server_secrets")),
    )


def downgrade() -> None:
    op.drop_table("server_secrets")
