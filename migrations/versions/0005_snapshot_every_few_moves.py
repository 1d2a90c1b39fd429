"""Games keep their snapshot every few moves: `games.snapshot_version`.

Writing the whole encoded state (2-8 KB of JSONB) with every move made a move's commit
two to three times as costly as the compare-and-set and the log insert alone (measured:
about 400 against 1,200 commits/s with 10 busy games). The state at `version` is now the
snapshot at `snapshot_version` plus the moves logged after it; existing rows have their
snapshot at their version.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "games",
        sa.Column("snapshot_version", sa.Integer(), server_default="0", nullable=False),
    )
    op.execute("UPDATE games SET snapshot_version = version")
    op.create_check_constraint(
        op.f("ck_games_snapshot_version"),
        "games",
        "snapshot_version BETWEEN 0 AND version",
    )


def downgrade() -> None:
    # Snapshots stay where they are: an older server would take a snapshot a few moves
    # behind for the state at `version`. Downgrade only databases without games in play.
    op.drop_constraint(op.f("ck_games_snapshot_version"), "games", type_="check")
    op.drop_column("games", "snapshot_version")
