"""analysis_jobs: the analyses of finished games, queued, computed and kept.

One row per game and engine version (unique): a request for a game already asked for reads
that row, and its result, once computed, is served to everyone and never recomputed. The
background workers of every instance claim queued rows with FOR UPDATE SKIP LOCKED and a
lease (`claimed_until`); a row whose lease ran out (its instance died) is claimed again,
up to a few attempts. `watched_at` is the last time someone waited for it: watched jobs are
claimed first, then the oldest. `address_hash` (the keyed hash of app/play/limits.py) is
who asked first, for the bound of new analyses per address per day. Docs: docs/analysis.md.

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-05
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    now = sa.text("now()")
    op.create_table(
        "analysis_jobs",
        sa.Column("id", sa.BigInteger(), sa.Identity(always=False), nullable=False),
        sa.Column("game_id", sa.BigInteger(), nullable=False),
        sa.Column("room_id", sa.String(length=64), nullable=False),
        sa.Column("engine_version", sa.String(length=32), nullable=False),
        sa.Column(
            "status", sa.String(length=16), server_default="queued", nullable=False
        ),
        sa.Column("address_hash", sa.LargeBinary(), nullable=True),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), server_default=now, nullable=False
        ),
        sa.Column(
            "watched_at", sa.DateTime(timezone=True), server_default=now, nullable=False
        ),
        sa.Column("claimed_by", sa.String(length=64), nullable=True),
        sa.Column("claimed_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("attempts", sa.SmallInteger(), server_default="0", nullable=False),
        sa.Column("done", sa.Integer(), server_default="0", nullable=False),
        sa.Column("total", sa.Integer(), server_default="0", nullable=False),
        sa.Column("result", postgresql.JSONB(astext_type=sa.Text()), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("cpu_s", sa.Float(), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint(
            "status IN ('queued', 'running', 'done', 'failed')",
            name=op.f("ck_analysis_jobs_status"),
        ),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_analysis_jobs_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_analysis_jobs")),
        sa.UniqueConstraint(
            "game_id", "engine_version", name=op.f("uq_analysis_jobs_game_id")
        ),
    )
    op.create_index(
        "ix_analysis_jobs_open",
        "analysis_jobs",
        ["created_at"],
        postgresql_where=sa.text("status IN ('queued', 'running')"),
    )
    op.create_index(
        "ix_analysis_jobs_address",
        "analysis_jobs",
        ["address_hash", "created_at"],
    )


def downgrade() -> None:
    op.drop_index("ix_analysis_jobs_address", table_name="analysis_jobs")
    op.drop_index("ix_analysis_jobs_open", table_name="analysis_jobs")
    op.drop_table("analysis_jobs")
