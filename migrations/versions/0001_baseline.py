"""Baseline: the empty schema every later revision builds on.

It creates nothing; it exists so that a fresh database can be stamped and upgraded, and so
that "at head" means something from the first deployment on.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
