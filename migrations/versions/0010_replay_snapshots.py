"""Replays start from stored snapshots: `snapshots`, `record_snapshots`, `game_records.status`.

A replay of move k was rebuilt from move 0 on every cache miss: about 28 ms on the event
loop for a room's game, 309-401 ms for an imported record of 4,877 moves (issue 13). Now
it starts from the nearest stored state at or before k and applies at most a few moves
(app/records/replays.py):

- snapshots: the engine's encoded state of a room's game at every `SNAPSHOT_EVERY`-th
  version (app/play/snapshots.py), kept beside `games.snapshot` (which only holds the latest).
  Existing games get the one they have.
- record_snapshots: the same for an imported record, written when it is imported, each row
  with the moves that follow it up to the next one, so that a replay reads one row and never
  the whole record. Records imported before this revision get theirs on their first replay.
- game_records.status: "playing" or "finished", which a replay answers with.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "snapshots",
        sa.Column("game_id", sa.BigInteger(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("state", postgresql.JSONB(), nullable=False),
        sa.CheckConstraint("version >= 0", name=op.f("ck_snapshots_version")),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_snapshots_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", "version", name=op.f("pk_snapshots")),
    )
    op.execute(
        "INSERT INTO snapshots (game_id, version, state)"
        " SELECT id, snapshot_version, snapshot FROM games WHERE snapshot_version > 0"
    )
    op.create_table(
        "record_snapshots",
        sa.Column("record_id", sa.String(16), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("state", postgresql.JSONB(), nullable=False),
        sa.Column("moves", postgresql.JSONB(), nullable=False),
        sa.CheckConstraint("version >= 0", name=op.f("ck_record_snapshots_version")),
        sa.ForeignKeyConstraint(
            ["record_id"],
            ["game_records.id"],
            name=op.f("fk_record_snapshots_record_id_game_records"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint(
            "record_id", "version", name=op.f("pk_record_snapshots")
        ),
    )
    op.add_column("game_records", sa.Column("status", sa.String(16), nullable=True))
    op.execute("UPDATE game_records SET status = body::jsonb ->> 'status'")


def downgrade() -> None:
    op.drop_column("game_records", "status")
    op.drop_table("record_snapshots")
    op.drop_table("snapshots")
