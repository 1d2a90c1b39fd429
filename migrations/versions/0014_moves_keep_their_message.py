"""Each move keeps its log line as a message (docs/i18n.md): a key and params, next to text.

The engine narrates a move as a message that every reader's client renders in their language;
the English `text` stays as it was (the records and their verification read it). Moves logged
before have no message (null): readers send their text alone, and clients show that.

Downgrade drops the column (the English text remains).

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-10
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("moves", sa.Column("message", JSONB(), nullable=True))


def downgrade() -> None:
    op.drop_column("moves", "message")
